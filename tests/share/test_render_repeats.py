"""A phone's sheet is drawn again at each change of its ship, repeating what did not
change from its last drawing (``share.render``, ``sheets.display``): the SVG is the one a
first drawing gives, byte for byte."""

from __future__ import annotations

import dataclasses

import pytest

from shipsheet.model import load_session
from shipsheet.model.boxes import box_answer
from shipsheet.model.paths import resources_dir
from shipsheet.share import render
from shipsheet.share.snapshot import take

GAMES = ("fedcom", "triplanetary", "war-in-space")


def _snapshot(session, n):
    return take(session, "epoch", n, {ship.id: n for ship in session.ships})


def _each_click(session, ship, sheet, count: int):
    """Click ``count`` of the sheet's boxes that take a click, one by one: (how many so
    far, the box's key) after each."""
    changed = 0
    for area in sheet.areas:
        answer = box_answer(session, ship, area.key)
        if answer is None or answer.click is None or answer.refusal:
            continue
        session.apply(answer.click())
        changed += 1
        yield changed, area.key
        if changed == count:
            return


@pytest.mark.parametrize("game", GAMES)
def test_a_sheet_drawn_again_after_changes_is_a_first_drawings_svg(qapp, game, monkeypatch):
    session = load_session(resources_dir() / "samples" / f"{game}.shipsheet")
    ship = session.ships[0]
    render._kept().clear()
    first = render.render_sheet(_snapshot(session, 1), ship.id)
    repeated = []
    record = render.record
    monkeypatch.setattr(render, "record", lambda sheet, theme, device, last: (
        repeated.append(last is not None), record(sheet, theme, device, last))[1])
    changed = 0
    for changed, key in _each_click(session, ship, first, 4):
        again = render.render_sheet(_snapshot(session, 1 + changed), ship.id)
        render._kept().clear()  # recordings, SVG texts, boxes' places and boxes sent
        fresh = render.render_sheet(_snapshot(session, 1 + changed), ship.id)
        assert again.svg == fresh.svg and again.areas == fresh.areas, key
    assert changed == 4
    assert repeated[0::2] == [True] * 4  # each drawing again had the last one to repeat


@pytest.mark.parametrize("game", GAMES)
def test_a_measured_sheet_says_what_its_drawing_says(qapp, game):
    """A view's word on a sheet not drawn (``measure_sheet``: the recording, not played into
    SVG) is its drawing's: revision, size and forms, as the owner and as the others see it."""
    session = load_session(resources_dir() / "samples" / f"{game}.shipsheet")
    snapshot = _snapshot(session, 1)
    for ship in session.ships:
        for public in (False, True):
            render._kept().clear()
            size = render.measure_sheet(snapshot, ship.id, public=public)
            drawn = render.render_sheet(snapshot, ship.id, public=public)  # repeats the recording
            assert (size.rev, size.width, size.height, size.forms) == (
                drawn.rev, drawn.width, drawn.height, drawn.forms), (ship.name, public)
            render._kept().clear()
            assert render.render_sheet(snapshot, ship.id, public=public).svg == drawn.svg


@pytest.mark.parametrize("game", GAMES)
def test_a_ships_boxes_listed_from_its_last_list_are_the_list_made_afresh(qapp, game):
    """A box a drawing leaves as it was is sent as the very same object, and a sheet's boxes
    are listed from the ship's last list for the same rights (``RenderedSheet.areas_text``):
    after each change, for a seat that marks and decides, one that decides, and one with no
    rights over the ship, the text is the one a list made from nothing gives."""
    session = load_session(resources_dir() / "samples" / f"{game}.shipsheet")
    ship = session.ships[0]
    rights_tried = (frozenset({"view", "mark", "decide"}), frozenset({"view", "decide"}),
                    frozenset())
    first = render.render_sheet(_snapshot(session, 1), ship.id)
    for rights in rights_tried:
        first.areas_text(rights, ship.name)
    changed = reused = 0
    last = first
    for changed, _key in _each_click(session, ship, first, 6):
        sheet = render.render_sheet(_snapshot(session, 1 + changed), ship.id)
        reused += sum(1 for a, b in zip(sheet.areas, last.areas) if a is b)
        afresh = dataclasses.replace(sheet, ship_id="")  # listed from nothing
        for rights in rights_tried:
            assert sheet.areas_text(rights, ship.name) == afresh.areas_text(rights, ship.name)
        last = sheet
    assert changed == 6 and reused > 0


def test_a_box_on_another_rectangle_than_the_one_kept_is_sent_where_it_is_now(qapp):
    """A box's place is looked up only when the drawing placed the very rectangle kept with
    it (a part repeated from the last recording); any other rectangle is read again — here
    the kept place is made wrong on purpose, for another rectangle of the same size."""
    from PySide6.QtCore import QRectF
    session = load_session(resources_dir() / "samples" / "fedcom.shipsheet")
    ship = session.ships[0]
    render._kept().clear()
    first = render.render_sheet(_snapshot(session, 1), ship.id)
    box = first.areas[0]
    placed = render._kept()[(ship.id, False)].placed
    rect, _where, _sent, says = placed[box.key]
    assert says is not None  # its words are kept: only its place is read again
    placed[box.key] = (QRectF(rect), (999.0, 999.0, box.w, box.h), box._replace(x=999.0, y=999.0),
                       says)
    again = render.render_sheet(_snapshot(session, 2), ship.id)
    assert again.areas[0] == box


def test_a_drawing_after_a_change_asks_the_rules_only_for_the_boxes_whose_words_moved(qapp,
                                                                                       monkeypatch):
    """The rules name what each box's words are worked out from (``GameBoxes.says``): a
    phone's sheet drawn again after a frame box is marked asks the rules to answer the frame's
    boxes alone (each says how many frame boxes are left), not the card's hundreds; the
    others are sent as they were."""
    from shipsheet.rules.fedcom.boxes import BOXES, frame_key
    session = load_session(resources_dir() / "samples" / "fedcom.shipsheet")
    ship = session.ships[0]
    render._kept().clear()
    first = render.render_sheet(_snapshot(session, 1), ship.id)
    asked = []
    answers = type(BOXES).answers
    monkeypatch.setattr(type(BOXES), "answers",
                        lambda self, se, sh, keys: (asked.extend(keys), answers(self, se, sh, keys))[1])
    session.apply(box_answer(session, ship, frame_key(1)).click())
    again = render.render_sheet(_snapshot(session, 2), ship.id)
    frame = {frame_key(k) for k in range(1, ship.ship_class.spec.frame + 1)}
    assert sorted(asked) == sorted(frame) and len(first.areas) > 10 * len(frame)
    kept = [a for a, b in zip(again.areas, first.areas) if a is b]
    assert len(kept) == len(first.areas) - len(frame)
    assert [a.label for a in again.areas if a.key == frame_key(1)] != \
        [a.label for a in first.areas if a.key == frame_key(1)]


@pytest.mark.parametrize("game", GAMES)
def test_a_ships_forms_written_from_its_last_forms_are_the_forms_written_afresh(qapp, game):
    """The server keeps each of a ship's forms written in the phone's words, and writes
    again only the forms a change moved (``TableServer._forms_text``): after each change the
    text sent, and its gzip, are what writing every form afresh gives."""
    import gzip
    import json

    from shipsheet.model.words import PHONE, form_for_device
    from shipsheet.share.server import TableServer
    session = load_session(resources_dir() / "samples" / f"{game}.shipsheet")
    server = object.__new__(TableServer)  # the texts' tables alone: no seats, no loop
    server._sheet_texts, server._last_forms = {}, {}
    n = 1
    for ship in session.ships:
        first = render.render_sheet(_snapshot(session, n), ship.id)
        server._forms_text(ship.id, first)
        for _changed, _key in _each_click(session, ship, first, 6):
            n += 1
            sheet = render.render_sheet(_snapshot(session, n), ship.id)
            text, packed = server._forms_text(ship.id, sheet)
            assert text == json.dumps(form_for_device(list(sheet.forms), PHONE), ensure_ascii=False)
            assert gzip.decompress(packed) == text.encode("utf-8")
    if game == "fedcom":  # a tap on a weapon moves the turn states' form, and only it
        from shipsheet.rules.fedcom.boxes import box_key
        ship = session.ships[0]
        weapon = next(b for b in ship.ship_class.spec.boxes
                      if b.kind == "phaser" and b.id not in ship.state["destroyed"])
        session.apply(box_answer(session, ship, box_key(weapon.id)).click())
        before = server._last_forms[ship.id][2]
        sheet = render.render_sheet(_snapshot(session, n + 1), ship.id)
        text, _packed = server._forms_text(ship.id, sheet)
        assert text == json.dumps(form_for_device(list(sheet.forms), PHONE), ensure_ascii=False)
        after = server._last_forms[ship.id][2]
        assert [entry[0]["kind"] for entry in after
                if not any(entry is old for old in before)] == ["turn_state"]

"""One source for a box's words, said with the device's verbs (``model.words``): nothing a
phone is sent speaks of clicks, right-clicks or the window's Actions panel, for any sample
ship of any game; a side's seat named "Pirates" is "Pirates' phone"; War In Space's repair
form says the energy left as the sheet does."""

from __future__ import annotations

import json
import re

import pytest

from shipsheet.model.games import piece
from shipsheet.model.words import PHONE, READER, WINDOW, for_device, form_for_device, possessive
from shipsheet.share.seats import PLAYER, REFEREE

from .phone import Phone, sample, share, wait

WINDOW_WORDS = re.compile(r"\b(click|clicks|right-click|double-click|Actions panel)\b", re.I)


def test_each_device_says_it_with_its_own_verbs():
    text = ("Click: set fired. Right-click: more. The shield is down: right-click it to restore "
            "it by hand. The attack dialog (Actions panel) rolls. Set an exact amount in the "
            "Actions panel.")
    assert for_device(text, WINDOW) == text
    assert for_device(text, PHONE) == (
        "Tap: set fired. Long-press: more. The shield is down: long-press it to restore it by "
        "hand. The attack dialog rolls. Set an exact amount in the forms under the sheet.")
    reader = for_device(text, READER)
    assert reader.startswith("Activate: set fired. Menu key: more.")
    assert "press the menu key on it to restore it" in reader
    assert not WINDOW_WORDS.search(for_device(text, PHONE))


def test_a_forms_words_change_and_its_values_never_do():
    form = {"kind": "fuel", "title": "Click to set", "text": "right-click a box",
            "fields": [{"name": "click", "label": "Click", "value": "click",
                        "options": [{"value": "click", "label": "Double-click"}]}]}
    said = form_for_device(form, PHONE)
    assert said["title"] == "Tap to set" and said["text"] == "long-press a box"
    field = said["fields"][0]
    assert (field["name"], field["value"], field["options"][0]["value"]) == ("click",) * 3
    assert field["label"] == "Tap" and field["options"][0]["label"] == "Double-tap"
    assert form["title"] == "Click to set"  # a new object: the sheet's forms are shared


def test_possessive():
    assert possessive("Blue") == "Blue's" and possessive("Pirates") == "Pirates'"


@pytest.mark.parametrize("game", ["fedcom", "triplanetary", "war-in-space"])
def test_nothing_a_phone_is_sent_speaks_the_windows_words(qtbot, game):
    """The referee's seat (every ship, every box's menu, every form) and its refusals."""
    session = sample(game)
    link, (seat,) = share(session, seats=[("Referee", REFEREE, (), ())])
    try:
        phone = Phone(link.url(seat))
        assert wait(qtbot, phone.pair)[0] == 200
        status, view, _ = wait(qtbot, phone.state)
        assert status == 200
        sent = json.dumps(view)
        found = WINDOW_WORDS.findall(sent)
        assert not found, (found, [m.group(0) for m in re.finditer(r".{60}\b(?:click|Actions panel)\b.{30}", sent, re.I)][:5])
        # A refused tap is answered in the phone's words too.
        for ship in view["ships"]:
            refused = [a for a in ship["areas"] if not a["tap"] and a["refusal"]]
            for area in refused[:3]:
                status, answer, _ = wait(qtbot, lambda: phone.act(view, ship, kind="tap",
                                                                  key=area["key"]))
                assert not WINDOW_WORDS.search(answer.get("error") or ""), answer
    finally:
        link.stop()


def test_a_seat_named_for_a_side_in_the_plural(qtbot):
    session = sample("triplanetary")
    side = next(s for s in session.sides if s.endswith("s"))
    link, (seat,) = share(session, seats=[(side, PLAYER, (side,), ())])
    try:
        phone = Phone(link.url(seat))
        assert wait(qtbot, phone.pair)[0] == 200
        _, view, _ = wait(qtbot, phone.state)
        ship = view["ships"][0]
        form = next(f for f in ship["forms"] if f["kind"] == "fuel")
        value = form["fields"][0]["value"]
        status, answer, _ = wait(qtbot, lambda: phone.act(
            view, ship, kind="decide", form="fuel", values={"fuel": value - 1}))
        assert answer["ok"], answer
        assert answer["message"].endswith(f"— {side}' phone"), answer["message"]
    finally:
        link.stop()


def test_the_repair_form_says_the_energy_left_as_the_sheet_does():
    """War In Space: a ship with Damage Control energy and repairs planned: the form's
    budget is the sheet's line (energy, spent, planned, left after the plan)."""
    from shipsheet.rules.war_in_space.energy import committed_allocation
    from shipsheet.rules.war_in_space.repairs import damage_control_budget, planned_repairs
    session = sample("war-in-space")
    ship = next(s for s in session.ships if planned_repairs(s) is not None
                and committed_allocation(s) is not None
                and committed_allocation(s).damage_control_announced)
    [form] = [f for f in piece(ship.game, "decisions").forms(session, ship) if f["kind"] == "repairs"]
    line = damage_control_budget(ship, committed_allocation(ship))
    left = int(line.rsplit("left ", 1)[1])
    assert form["text"].startswith(line + ".")
    assert left < committed_allocation(ship).damage_control  # the plan's cost is counted

"""The boxes of the Federation Commander card (``rules/fedcom/boxes.py``): every key the card
lays out has the rules' answer, what a click on one does shows on the card, and any other
string a phone sends has no answer.

The sample session (``rules/fedcom/sample.py``) is turn 2, Combat: Resolute has 17 boxes of
shield #2 down, photon-2 charging and the standing order "hit last ph-5"; Swift lost
reactor-1 and ph-3; every box of Lance is destroyed.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings, strategies as st

from shipsheet.model.boxes import BoxAnswer, box_answer
from shipsheet.model.decisions import DECIDE, MARK
from shipsheet.model.games import piece
from shipsheet.rules.fedcom.boxes import (BOX, BOXES, FRAME, SHIELD, box_key, frame_key, parse_key,
                                          shield_key)

from fc_helpers import card_keys
from sheet_pixels import near, sheet_pixel


@pytest.fixture
def sample():
    return piece("fedcom", "sample")()


def answer(session, ship, key) -> BoxAnswer:
    found = BOXES.answer(session, ship, key)
    assert found is not None, key
    return found


# -- every box laid out is answered ---------------------------------------------------------

@pytest.mark.parametrize("with_session", [True, False])
def test_every_box_the_card_lays_out_is_answered_with_a_name_a_state_and_a_right(
        qapp, sample, with_session):
    """The card places every box of the card, of each shield and of the frame once, and the
    rules answer each: a one-line name, a state, the tooltip; a tap on a box of the card is
    the owner's decision, on a shield or frame box a damage mark (the referee's)."""
    from shipsheet.sheets import painter_for
    session = sample if with_session else None  # None: a sheet drawn without a session
    for ship in sample.ships:
        keys = [area.key for area in painter_for(ship, session).layout()]
        assert sorted(keys) == sorted(card_keys(ship)), ship.name
        for key in keys:
            found = box_answer(session, ship, key)
            assert found is not None, key
            assert found.label and "\n" not in found.label and found.state, key
            assert found.tooltip.startswith(found.label), key
            assert found.right == (DECIDE if parse_key(key)[0] == BOX else MARK), key
            assert (found.click is None) == bool(found.refusal), key


def test_all_the_answers_at_once_are_each_boxs_own_answer(sample):
    """A phone's sheet asks for every box's answer at once (``box_answers``: a kind's DDAP
    order worked out once for all its boxes' tooltips, not once a box); each says what the
    box's own answer says — after marks, destroyed boxes and standing orders too."""
    from shipsheet.model.boxes import box_answers
    from shipsheet.rules.fedcom import mark_box_action, set_orders_action

    def same(ship):
        keys = sorted(card_keys(ship)) + ["box:nothing-here"]
        together = box_answers(sample, ship, keys)
        for key, found in zip(keys, together):
            alone = box_answer(sample, ship, key)
            if alone is None:
                assert found is None, key
                continue
            assert (found.label, found.state, found.tooltip, found.refusal, found.right) == (
                alone.label, alone.state, alone.tooltip, alone.refusal, alone.right), key
            assert [t for t, _ in found.menu] == [t for t, _ in alone.menu], key
        return together
    for ship in sample.ships:
        same(ship)
    ship = sample.ships[0]
    sample.apply(mark_box_action(ship, "ph-2"))
    sample.apply(set_orders_action(ship, {"last": ["ph-3"]}))
    tips = [a.tooltip for a in same(ship) if a is not None]
    assert any("DDAP:" in tip for tip in tips)


def test_the_keys_name_what_the_card_draws():
    assert [box_key("ph-1"), shield_key(1, 5), frame_key(2)] == ["box:ph-1", "shield:1:5",
                                                                  "frame:2"]
    assert parse_key(box_key("ph-1")) == (BOX, "ph-1")
    assert parse_key(shield_key(6, 40)) == (SHIELD, 6, 40)
    assert parse_key(frame_key(10)) == (FRAME, 10)


def test_the_words_are_the_cards(sample):
    """What the card has always said on hover, now the rules' answer."""
    resolute = sample.ship("Resolute")
    shield = answer(sample, resolute, "shield:2:17")
    assert (shield.label, shield.state) == ("Shield #2 (right front), box 17 of 24", "down")
    assert shield.tooltip.splitlines() == [
        "Shield #2 (right front), box 17 of 24: down", "7 of 24 boxes up",
        "Click: regenerate box 17 (by hand: volleys mark shields themselves; regeneration "
        "costs 2 energy per box)"]
    assert "Click: mark boxes 18–20 down" in answer(sample, resolute, "shield:2:20").tooltip
    frame = answer(sample, resolute, "frame:3")
    assert (frame.label, frame.state) == ("Frame box 3 of 6", "intact")
    assert "Click: mark boxes 1–3 destroyed" in frame.tooltip
    photon = answer(sample, resolute, "box:photon-2")
    assert photon.label == "photon-2 · torpedo · photon · size 1 · arc FA (120°)"
    assert photon.state == "charging"
    assert photon.tooltip.splitlines()[1:] == [
        "Intact; charging this turn",
        "DDAP: 1st of 4 heavy weapons to be hit (DDAP heavy weapons: charging photon, size 1 "
        "(photon is type 1 of 2 in the card order, which ranks first: house rule FC-H13))",
        "Click: set unfired. Right-click: more"]
    # [seed 8FC3] the standing order "hit last ph-5" puts it last of the phasers.
    assert "DDAP: 9th of 9 phasers to be hit (standing order" in answer(
        sample, resolute, "box:ph-5").tooltip


# -- what a click does shows on the card -----------------------------------------------------

def test_a_click_on_a_shield_box_marks_it_down_on_the_card(qapp, sample):
    """A shield box down carries a slash (through its centre)."""
    from shipsheet.sheets import Theme
    mark = Theme.light().mark
    resolute = sample.ship("Resolute")
    centre = (7.5, 7.5)  # a shield box's area is the box
    assert answer(sample, resolute, "shield:3:5").state == "up"
    assert not near(sheet_pixel(sample, resolute, "shield:3:5", *centre), mark)
    sample.apply(answer(sample, resolute, "shield:3:5").click())
    assert resolute.state["shield_damage"][2] == 5
    assert sample.undo_status().undo == "Set shield #3 damage to 5"
    assert near(sheet_pixel(sample, resolute, "shield:3:5", *centre), mark)
    now = answer(sample, resolute, "shield:3:5")
    assert now.state == "down" and "19 of 24 boxes up" in now.tooltip
    sample.apply(answer(sample, resolute, "shield:3:3").click())  # regenerate boxes 3-5
    assert resolute.state["shield_damage"][2] == 2
    assert answer(sample, resolute, "shield:3:3").state == "up"
    assert not near(sheet_pixel(sample, resolute, "shield:3:5", *centre), mark)
    assert near(sheet_pixel(sample, resolute, "shield:3:2", *centre), mark)


def test_a_click_on_a_weapon_sets_it_fired_on_the_card(qapp, sample):
    """A fired weapon's box has its top-right corner inked, like a dog-ear, and says so."""
    from shipsheet.sheets import Theme
    ink = Theme.light().ink
    resolute = sample.ship("Resolute")
    # A chip's area reaches 1 unit left of its 15-unit box and 3 above it: the dog-ear is
    # the box's top-right corner.
    ear = (1 + 15 - 1.5, 3 + 1.5)
    assert answer(sample, resolute, "box:ph-2").state == "unfired"
    assert not near(sheet_pixel(sample, resolute, "box:ph-2", *ear), ink)
    sample.apply(answer(sample, resolute, "box:ph-2").click())
    assert resolute.state["turn"]["ph-2"] == "fired"
    assert sample.undo_status().undo == "Set ph-2 fired"
    assert near(sheet_pixel(sample, resolute, "box:ph-2", *ear), ink)
    fired = answer(sample, resolute, "box:ph-2")
    assert fired.state == "fired" and "Intact; fired this turn" in fired.tooltip
    assert "Click: set unfired" in fired.tooltip
    sample.apply(fired.click())
    assert "ph-2" not in resolute.state["turn"]
    assert not near(sheet_pixel(sample, resolute, "box:ph-2", *ear), ink)


def test_a_click_on_the_frame_marks_it_destroyed_and_a_second_restores_it(sample):
    swift = sample.ship("Swift")
    sample.apply(answer(sample, swift, "frame:2").click())
    assert swift.state["frame_hits"] == 2
    assert answer(sample, swift, "frame:2").state == "destroyed"
    assert "Frame box 2 of 3: destroyed" in answer(sample, swift, "frame:2").tooltip
    sample.apply(answer(sample, swift, "frame:1").click())  # restore boxes 1-2
    assert swift.state["frame_hits"] == 0


def test_a_destroyed_box_has_no_click_and_a_menu_to_restore_it_by_hand(sample):
    swift = sample.ship("Swift")
    ph3 = answer(sample, swift, "box:ph-3")
    assert ph3.state == "destroyed" and ph3.click is None
    assert "ph-3 is destroyed, so it has no turn state" in ph3.refusal  # the rules' words
    assert "Destroyed; repair costs 4 points" in ph3.tooltip  # [FC] weapons cost 4
    assert ph3.right == DECIDE and ph3.has_menu()
    assert [label for label, _ in ph3.menu] == ["Restore ph-3 by hand (correction)"]
    sample.apply(ph3.menu[0][1]())
    assert "ph-3" not in swift.state["destroyed"]
    again = answer(sample, swift, "box:ph-3")
    assert again.click is not None and again.refusal is None and again.state == "unfired"


def test_the_menus_set_the_other_states_drones_occupant_and_destroy_by_hand(sample):
    hornet, resolute = sample.ship("Hornet"), sample.ship("Resolute")
    photon = dict(answer(sample, resolute, "box:photon-2").menu)  # charging; a click: unfired
    assert list(photon) == ["Set fired", "Destroy photon-2 by hand (correction)"]
    sample.apply(photon["Set fired"]())
    assert resolute.state["turn"]["photon-2"] == "fired"
    drone = answer(sample, hornet, "box:drone-2")
    left = hornet.state["drones"]["drone-2"]
    entries = dict(drone.menu)
    assert f"{left} drones left" not in entries and "0 drones left" in entries
    sample.apply(entries["0 drones left"]())
    assert hornet.state["drones"]["drone-2"] == 0
    assert "0 of 4 drones left" in answer(sample, hornet, "box:drone-2").tooltip
    bay = dict(answer(sample, hornet, "box:shuttle-2").menu)  # holds an admin shuttle
    assert "Holds: admin shuttle" not in bay
    sample.apply(bay["Holds: suicide shuttle"]())
    assert hornet.state["occupant"]["shuttle-2"] == "suicide"
    sample.apply(dict(answer(sample, hornet, "box:shuttle-2").menu)[
        "Destroy shuttle-2 by hand (correction)"]())
    assert "shuttle-2" in hornet.state["destroyed"]
    # Shield and frame boxes have no menu: a click is their one correction.
    assert not answer(sample, hornet, "shield:1:1").has_menu()
    assert not answer(sample, hornet, "frame:1").has_menu()


# -- anything else has no answer -------------------------------------------------------------

HOSTILE = ["", "box:", "box:ph-99", "ph-1", "box", "BOX:ph-1", "box:ph-1 ", " box:ph-1",
           "box:ph-1\x00", "shield:", "shield:1", "shield:1:", "shield::3", "shield:1:0",
           "shield:0:1", "shield:7:1", "shield:9:99", "shield:1:31", "shield:01:3",
           "shield:1:03", "shield:1:3:4", "shield:+1:3", "shield:1:-3", "shield:١:٣",
           "shield:1:²", "frame:", "frame:0", "frame:-1", "frame:1e3", "frame:7", "frame:07",
           "frame:1.0", "frame: 1", "frame:٣", "frame:" + "9" * 5000, "box:" + "x" * 100_000,
           "shield:1:" + "1" * 10_000, "☃:1", "\ud800", "frame:1:1", "crit:spades", "box:0:0",
           None, 3, b"box:ph-1", ("box", "ph-1")]


@pytest.mark.parametrize("key", HOSTILE, ids=lambda k: repr(k)[:30])
def test_keys_that_are_no_box_of_the_card_have_no_answer(sample, key):
    resolute = sample.ship("Resolute")  # shield #1 has 30 boxes, the frame 6
    assert BOXES.answer(sample, resolute, key) is None


@functools.cache
def _one_sample():
    """One sample session for every example (an answer changes nothing)."""
    return piece("fedcom", "sample")()


@settings(max_examples=300, deadline=None)
@given(key=st.one_of(st.text(max_size=40),
                     st.builds(lambda sort, rest: f"{sort}:{rest}",
                               st.sampled_from(["box", "shield", "frame"]),
                               st.text(alphabet="0123456789:-+ e.١²ph", max_size=12))))
def test_any_string_is_no_box_or_a_box_that_answers_in_full(key):
    session = _one_sample()
    ship = session.ship("Resolute")
    found = BOXES.answer(session, ship, key)
    if found is not None:
        assert key in card_keys(ship)
        assert found.label and found.tooltip and found.right in (DECIDE, MARK)
        assert isinstance(found.menu, list)
    else:
        assert key not in card_keys(ship)

"""The boxes of the Triplanetary sheet (``rules/triplanetary/boxes.py``): every key the sheet
lays out has the rules' answer, what a click on one does shows on the sheet, the right a tap
needs, and any other string a phone sends has no answer.

The sample session (``rules/triplanetary/sample.py``) is turn 2, Movement: Ajax (frigate,
[2018] fuel 20, cargo 40) at weapons D1, drive D1, structure D1, its owner's choice
structure, 14 fuel left; Raven (frigate) at weapons D1; Vigilant (dreadnaught) at weapons
D2; the Ceres Mule (transport, hold 50 t) at weapons D1, drive D1 with 40 t; Kite (corsair,
hold 10 t) undamaged with 10 t; Phobos Station (orbital base: no fuel of its own, an
unlimited hold).
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings, strategies as st

from shipsheet.model import Session, new_ship
from shipsheet.model.boxes import BoxAnswer, box_answer
from shipsheet.model.classfiles import check_definition
from shipsheet.model.decisions import DECIDE, MARK
from shipsheet.model.games import piece
from shipsheet.rules import triplanetary as tp
from shipsheet.rules.triplanetary.boxes import (
    BOXES, CARGO, CARGO_KEY, CARGO_MARK, CHOICE, COUNTER, COUNTER_KEY, DAMAGE_ROLL_KEY, E_BOX,
    E_BOX_KEY, FUEL_BOX, FUEL_KEY, LADDER, OUT_OF_PLAY_KEY, STANDARD_NOTE_KEY, STEP,
    cargo_mark_key, choice_key, fuel_box_key, ladder_key, parse_key, step_key)

from sheet_pixels import near, sheet_pixel


@pytest.fixture
def sample():
    return piece("triplanetary", "sample")()


def answer(session, ship, key) -> BoxAnswer:
    found = BOXES.answer(session, ship, key)
    assert found is not None, key
    return found


def laid_out(ship, session) -> list[str]:
    """The keys of the boxes ``ship``'s sheet lays out (the layout step: nothing painted)."""
    from shipsheet.sheets import painter_for
    return [area.key for area in painter_for(ship, session).layout()]


def ladder(track):
    return [ladder_key(track, step) for step in range(7)]


def hauler(session, fuel=100, cargo=200):
    """A home-made commercial type with more fuel and hold than boxes: kept as counters."""
    ship_class, problem = check_definition(
        {"game": "triplanetary", "class": "Hauler", "combat": 3, "defensive_only": False,
         "commercial": True, "fuel": fuel, "cargo": cargo}, "hauler")
    assert problem is None
    return session.add_ship(new_ship(ship_class, "Big Hauler"), "Mars")


# A ladder step's area reaches 8 units left of its 18-unit box and 11 above it (the "D3"
# label): the box's centre, where a pen slash crosses it.
LADDER_BOX_CENTRE = (8 + 9, 11 + 9)


# -- every box laid out is answered ---------------------------------------------------------

@pytest.mark.parametrize("with_session", [True, False])
def test_every_box_the_sheet_lays_out_is_answered(qapp, sample, with_session):
    """Each box once, each with a one-line name and a tooltip; a box a click acts on has no
    refusal; one with neither click nor refusal is an explanation to hover, with no menu."""
    session = sample if with_session else None  # None: a sheet drawn without a session
    for ship in sample.ships:
        keys = laid_out(ship, session)
        assert keys and len(set(keys)) == len(keys), ship.name
        for key in keys:
            found = box_answer(session, ship, key)
            assert found is not None, key
            assert found.label and "\n" not in found.label and found.tooltip, key
            assert found.right in (DECIDE, MARK), key
            assert not (found.click and found.refusal), key
            if found.click is None and found.refusal is None:
                assert not found.has_menu(), key


def test_a_frigate_sheet_has_the_boxes_of_its_type(qapp, sample):
    """[seed] three D-tracks D0…D6; [2018] a frigate holds 20 fuel and 40 t: twenty fuel boxes,
    a cargo scale every 5 t; the owner's recovery choice [TRI-H13, TRI-H14]."""
    assert laid_out(sample.ship("Ajax"), sample) == (
        [COUNTER_KEY, DAMAGE_ROLL_KEY] + ladder("weapon") + ladder("drive") + ladder("structure")
        + [choice_key(t) for t in ("weapon", "drive", "structure", None)]
        + [fuel_box_key(i) for i in range(1, 21)]
        + [cargo_mark_key(t) for t in range(0, 41, 5)])
    # [2018] the orbital base: fuel 0 (an unlimited store), an unlimited hold (a counter).
    assert laid_out(sample.ship("Phobos Station"), sample)[-6:] == (
        [FUEL_KEY, CARGO_KEY] + [step_key(CARGO_KEY, n) for n in (-10, -1, 1, 10)])


def test_the_keys_are_the_ones_phones_send():
    assert [ladder_key("weapon", 3), E_BOX_KEY, choice_key("drive"), choice_key(None),
            fuel_box_key(7), cargo_mark_key(20), step_key(FUEL_KEY, 1),
            step_key(CARGO_KEY, -10)] == [
        "weapon:3", "standard:E", "choice:drive", "choice:default", "fuel:7", "cargo:20",
        "fuel:+1", "cargo:-10"]
    assert parse_key(ladder_key("standard", 0)) == (LADDER, "standard", 0)
    assert parse_key(E_BOX_KEY) == (E_BOX,)
    assert parse_key(choice_key(None)) == (CHOICE, None)
    assert parse_key(fuel_box_key(20)) == (FUEL_BOX, 20)
    assert parse_key(cargo_mark_key(0)) == (CARGO_MARK, 0)
    assert parse_key(step_key(CARGO_KEY, -1)) == (STEP, CARGO_KEY, -1)
    assert parse_key(COUNTER_KEY) == (COUNTER,) and parse_key(CARGO_KEY) == (CARGO,)


# -- the words are the sheet's -----------------------------------------------------------------

def test_the_words_are_the_sheets(sample):
    raven, ajax, mule = sample.ship("Raven"), sample.ship("Ajax"), sample.ship("Ceres Mule")
    step = answer(sample, raven, "structure:2")
    assert (step.label, step.state) == ("Structure D2", "")
    assert step.tooltip == "Structure track, D2\nClick: mark 2 structure D (D0 → D2)."
    # [seed] a frigate with weapon damage "cannot fire any weapon or drop ordnance".
    now = answer(sample, raven, "weapon:1")
    assert (now.label, now.state, now.click) == ("Weapons D1", "now", None)
    assert now.tooltip == ("Weapons track, D1: can't fire or drop ordnance\n"
                           "The ship is at D1 now (circled).")
    assert now.refusal == ("The weapons track is at D1 now: click a higher level to mark "
                           "damage, or D0 to recover 1 D.")
    assert answer(sample, raven, "weapon:6").tooltip.startswith(
        "Weapons track, D6 or worse: can't fire or drop ordnance; repaired at a base only")
    # [TRI-H1] recovery closes the turn: in the Movement phase D0 is refused, in its words.
    down = answer(sample, ajax, "weapon:0")
    assert down.click is None and "Recovery phase, which closes the turn" in down.refusal
    assert "right-click to choose weapons for the end of the turn" in down.tooltip
    assert answer(sample, mule, "counter").tooltip == (
        "Combat strength 1, marked D: defensive only. It defends at this strength but may "
        "never attack or counterattack.")
    assert answer(sample, mule, "counter").state == "1D"
    fuel = answer(sample, ajax, "fuel:6")
    assert (fuel.label, fuel.state) == ("Fuel box 6 of 20", "burnt")
    assert fuel.tooltip == ("Fuel box 6 of 20 (burnt).\n"
                            "Click: take on fuel up to this box (14 → 15 left).")
    assert answer(sample, ajax, "fuel:9").tooltip.endswith("Click: burn 3 fuel (14 → 11 left).")
    assert "unlimited store" in answer(sample, sample.ship("Phobos Station"), "fuel").tooltip
    load = answer(sample, mule, "cargo:40")
    assert (load.state, load.click, load.refusal) == ("now", None, "The ship carries 40 t now.")
    assert answer(sample, mule, "cargo:20").tooltip == "Cargo 20 t.\nClick: unload to 20 t (now 40 t)."
    assert "TRI-H14" in answer(sample, mule, "choice:weapon").tooltip
    assert "TRI-H13" in answer(sample, mule, "choice:default").tooltip


# -- what a click does shows on the sheet ------------------------------------------------------

def test_a_click_on_a_ladder_step_marks_damage_and_the_sheet_shows_it(qapp, sample):
    """[seed] "Keep track of damage to each ship": Raven's structure D2, one undo step."""
    from shipsheet.sheets import Theme
    mark = Theme.light().mark
    raven = sample.ship("Raven")
    assert not near(sheet_pixel(sample, raven, "structure:2", *LADDER_BOX_CENTRE), mark)
    sample.apply(answer(sample, raven, "structure:2").click())
    assert raven.state["structure"] == 2
    assert sample.undo_status().undo == "Set Structure D2"
    assert near(sheet_pixel(sample, raven, "structure:2", *LADDER_BOX_CENTRE), mark)
    assert near(sheet_pixel(sample, raven, "structure:1", *LADDER_BOX_CENTRE), mark)
    assert answer(sample, raven, "structure:2").state == "now"
    assert answer(sample, raven, "structure:1").state == "marked"
    assert "Structure D2" in tp.status_chips(raven)
    sample.undo()
    assert not near(sheet_pixel(sample, raven, "structure:2", *LADDER_BOX_CENTRE), mark)


def test_structure_d6_destroys_and_every_box_then_says_so(sample):
    """[seed] "if structure reaches D6 or below, the ship explodes"; [TRI-H7] it can do
    nothing more: no click, the recovery choice is gone, the sheet says DESTROYED."""
    kite = sample.ship("Kite")
    assert BOXES.answer(sample, kite, OUT_OF_PLAY_KEY) is None
    sample.apply(answer(sample, kite, "structure:6").click())
    assert tp.is_destroyed(kite)
    assert answer(sample, kite, "structure:6").state == "destroyed"
    gone = answer(sample, kite, OUT_OF_PLAY_KEY)
    assert (gone.label, gone.state) == ("Destroyed", "destroyed") and "TRI-H7" in gone.tooltip
    hit = answer(sample, kite, "weapon:3")
    assert hit.click is None and "destroyed" in hit.refusal
    assert BOXES.answer(sample, kite, "choice:weapon") is None
    assert answer(sample, kite, "fuel:1").click is None


def test_recovering_one_d_is_a_click_in_the_recovery_phase_only(sample):
    """[seed] "A ship recovers from 1 D a turn"; [TRI-H1] in the Recovery phase."""
    mule = sample.ship("Ceres Mule")
    while sample.phase != tp.RECOVERY_PHASE:
        sample.next_phase()
    back = answer(sample, mule, "drive:0")
    assert back.tooltip.endswith("Click: recover 1 D, drive D1 → D0 (the ship's one recovery "
                                 "this turn).")
    sample.apply(back.click())
    assert mule.state["drive"] == 0
    assert "already recovered" in answer(sample, mule, "weapon:0").refusal


def test_the_recovery_choice_is_a_click_and_the_default_clears_it(sample):
    """[seed] "The ship's owner chooses what kind of damage to recover from"; [TRI-H13]."""
    mule = sample.ship("Ceres Mule")
    assert answer(sample, mule, "choice:default").state == "chosen"  # no choice yet
    assert answer(sample, mule, "choice:default").refusal == (
        "No track is chosen: the default applies.")
    sample.apply(answer(sample, mule, "choice:weapon").click())
    assert tp.recovery_choice(mule) == ("weapon",)
    assert sample.undo_status().undo == "Recovery choice: weapons"
    chosen = answer(sample, mule, "choice:weapon")
    assert chosen.state == "chosen" and "already weapons" in chosen.refusal
    sample.apply(answer(sample, mule, "choice:default").click())
    assert tp.recovery_choice(mule) == ()


def test_the_ladders_menu_offers_only_what_the_rules_allow(sample):
    """[seed] "A ship which reaches a base and undergoes maintenance is immediately restored
    to full operating status"."""
    ajax = sample.ship("Ajax")  # its choice is structure already
    assert [label for label, _ in answer(sample, ajax, "structure:3").menu] == [
        "Maintenance at a base (every track to D0)"]
    assert [label for label, _ in answer(sample, ajax, "weapon:3").menu] == [
        "Choose: recover 1 weapons D when the turn ends (D1 → D0)",
        "Maintenance at a base (every track to D0)"]
    kite = sample.ship("Kite")  # undamaged: a menu with nothing in it
    assert answer(sample, kite, "weapon:2").has_menu() and answer(sample, kite, "weapon:2").menu == []
    while sample.phase != tp.RECOVERY_PHASE:
        sample.next_phase()
    raven = sample.ship("Raven")
    menu = dict(answer(sample, raven, "weapon:3").menu)
    assert list(menu) == ["Choose: recover 1 weapons D when the turn ends (D1 → D0)",
                          "Recover 1 weapons D now (D1 → D0)",
                          "Maintenance at a base (every track to D0)"]
    sample.apply(menu["Recover 1 weapons D now (D1 → D0)"]())
    assert raven.state["weapon"] == 0


def test_fuel_boxes_burn_for_the_owner_and_refuel_for_the_referee(sample):
    """[2018] a frigate's 20 fuel; [TRI-H29] taking on fuel is the referee's."""
    ajax = sample.ship("Ajax")
    burn = answer(sample, ajax, "fuel:7")
    assert (burn.state, burn.right) == ("left", DECIDE)
    sample.apply(burn.click())
    assert ajax.state["fuel"] == 13
    refuel = answer(sample, ajax, "fuel:3")
    assert (refuel.state, refuel.right) == ("burnt", MARK)
    sample.apply(refuel.click())
    assert ajax.state["fuel"] == 18


def test_cargo_marks_load_and_unload(sample):
    """[2018] the transport's 50 t hold, marked every 5 t."""
    mule = sample.ship("Ceres Mule")
    sample.apply(answer(sample, mule, "cargo:20").click())
    assert mule.state["cargo"] == 20
    assert sample.undo_status().undo == "Set cargo to 20 t"
    assert answer(sample, mule, "cargo:50").right == DECIDE
    assert BOXES.answer(sample, mule, "cargo:55") is None  # beyond the hold


def test_a_counter_steps_fuel_and_cargo_and_raising_fuel_is_the_referees():
    """More fuel or hold than boxes: a number with −/+ steps. [TRI-H29] taking on fuel (+)
    is the referee's; burning it (−) and cargo are the owner's."""
    session = Session("triplanetary", seed=1)
    ship = hauler(session)
    assert [answer(session, ship, k).right for k in ("fuel:-10", "fuel:-1", "fuel:+1",
                                                     "fuel:+10")] == [DECIDE, DECIDE, MARK, MARK]
    assert answer(session, ship, "cargo:+10").right == DECIDE
    full = answer(session, ship, "fuel:+1")
    assert full.click is None and full.refusal == "Fuel is already 100."
    assert answer(session, ship, "fuel").tooltip == (
        "Fuel: 100 of 100. Set an exact amount in the Actions panel.")
    step = answer(session, ship, "fuel:-10")
    assert step.tooltip == "Fuel -10.\nClick: 100 → 90."
    session.apply(step.click())
    assert ship.state["fuel"] == 90
    session.apply(answer(session, ship, "cargo:+10").click())
    assert ship.state["cargo"] == 10
    assert answer(session, ship, "cargo").state == "10 t"
    # No fuel boxes on a counter, and no steps on a sheet of boxes.
    assert BOXES.answer(session, ship, "fuel:1") is None and BOXES.answer(session, ship, "cargo:5") is None


def test_standard_combat_has_its_track_and_e_box_and_no_recovery_choice(sample):
    """[2018] standard combat: "D-results accumulate on one track; D6 or more, or E, destroys
    the ship"; [TRI-H9] its single track needs no choice."""
    ajax = sample.ship("Ajax")
    assert BOXES.answer(sample, ajax, E_BOX_KEY) is None  # the advanced system: no E box
    sample.apply(tp.combat_option_action("standard"))
    assert BOXES.answer(sample, ajax, DAMAGE_ROLL_KEY) is None
    assert "D1–D5 or E" in answer(sample, ajax, STANDARD_NOTE_KEY).tooltip
    assert BOXES.answer(sample, ajax, "choice:drive") is None
    assert answer(sample, ajax, "weapon:2").right == MARK  # kept from before the switch
    e_box = answer(sample, ajax, E_BOX_KEY)
    assert e_box.tooltip.endswith("Click: mark an E result (the ship is destroyed).")
    sample.apply(e_box.click())
    assert tp.is_destroyed(ajax)
    assert answer(sample, ajax, E_BOX_KEY).state == "marked"


# -- anything else has no answer -------------------------------------------------------------

HOSTILE = ["", "bogus", "counter ", " counter", "COUNTER", "fuel:", "fuel:0", "fuel:21",
           "fuel:07", "fuel:-1", "fuel:+1", "fuel:1.0", "fuel:٣", "fuel:²", "fuel: 7",
           "fuel:" + "9" * 5000, "cargo:", "cargo:-1", "cargo:3", "cargo:45", "cargo:00",
           "cargo:+5", "drive:99", "drive:7", "drive:-1", "drive:", "drive:E", "weapon:06",
           "standard:0", "standard:E", "standard:e", "standard-note", "choice:",
           "choice:standard", "choice:Drive", "choice:default ", "out-of-play", "fuel", "cargo",
           "hull:1", "weapon:3:1", "☃:1", "\ud800", "weapon:" + "x" * 100_000,
           None, 3, b"weapon:3", ("weapon", 3)]


@pytest.mark.parametrize("key", HOSTILE, ids=lambda k: repr(k)[:30])
def test_keys_that_are_no_box_of_the_sheet_have_no_answer(sample, key):
    """Ajax, a frigate under the Advanced Combat System with 14 of 20 fuel and a 40 t hold:
    no standard track, no counters, and it is in play."""
    assert BOXES.answer(sample, sample.ship("Ajax"), key) is None


@functools.cache
def _one_sample():
    """One sample session for every example (an answer changes nothing), and the keys each
    ship's sheet lays out."""
    session = piece("triplanetary", "sample")()
    return session, {ship.name: frozenset(laid_out(ship, session)) for ship in session.ships}


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(["Ajax", "Phobos Station", "Ceres Mule"]),
       key=st.one_of(st.text(max_size=40),
                     st.builds(lambda sort, rest: f"{sort}:{rest}",
                               st.sampled_from(["weapon", "drive", "structure", "standard",
                                                "choice", "fuel", "cargo"]),
                               st.text(alphabet="0123456789-+ E.١²default", max_size=8))))
def test_any_string_is_no_box_or_a_box_the_sheet_draws(qapp, name, key):
    session, drawn = _one_sample()
    ship = session.ship(name)
    found = BOXES.answer(session, ship, key)
    assert (found is not None) == (key in drawn[name]), key
    if found is not None:
        assert found.label and found.tooltip and found.right in (DECIDE, MARK)
        assert isinstance(found.menu, list)

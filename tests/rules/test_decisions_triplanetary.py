"""Triplanetary decisions as forms (a phone, an orders file): the recovery choice, fuel and
cargo, filled with checked values, applied as a click on the sheet applies them.

The sample session (``sample.py``) is turn 2, Movement: Ajax (frigate) at weapons D1,
drive D1, structure D1, its owner's choice structure, 14 of 20 fuel, empty 40 t hold; the
Ceres Mule (transport) carries 40 of 50 t; Kite (corsair) 10 of 10 t; Phobos Station
(orbital base) has no fuel of its own and an unlimited hold.
"""

import pytest

from decisions_helpers import DecisionsHelpers, log_lines
from shipsheet.model.decisions import DECIDE, MARK
from shipsheet.model.games import piece
from shipsheet.rules import triplanetary as tp
from shipsheet.rules.triplanetary.boxes import BOXES
from shipsheet.rules.triplanetary.decisions import DECISIONS
from shipsheet.rules.triplanetary.definitions import MAX_AMOUNT


FORMS = DecisionsHelpers(DECISIONS)
kinds, spec, values_of, decide, refused = FORMS.functions()


@pytest.fixture
def sample():
    return piece("triplanetary", "sample")()


# -- what is offered -------------------------------------------------------------------------

def test_forms_follow_the_ship_type(sample):
    assert kinds(sample, sample.ship("Ajax")) == ["recovery", "fuel", "cargo"]
    # [2018] the orbital base: fuel "0 (unlimited store)", cargo unlimited.
    assert kinds(sample, sample.ship("Phobos Station")) == ["recovery", "cargo"]
    cargo = spec(sample, sample.ship("Phobos Station"), "cargo")["fields"][0]
    assert (cargo["min"], cargo["max"]) == (0, MAX_AMOUNT)
    fuel = spec(sample, sample.ship("Ajax"), "fuel")["fields"][0]
    # [TRI-H29] a player burns fuel: the form goes no higher than the 14 left (of 20).
    assert (fuel["min"], fuel["max"], fuel["value"]) == (0, 14, 14)


def test_a_ship_out_of_play_decides_nothing(sample):
    """[TRI-H7] a destroyed ship can do nothing."""
    raven = sample.ship("Raven")
    sample.apply(tp.damage_action(raven, structure=6))
    assert DECISIONS.forms(sample, raven) == []
    refused(sample, raven, "recovery", {"track": "drive", "then": "none"}, 'no decision "recovery"')


def test_under_standard_combat_there_is_no_recovery_choice(sample):
    """[TRI-H9] the single disabled track needs no choice."""
    sample.apply(tp.combat_option_action("standard"))
    assert kinds(sample, sample.ship("Ajax")) == ["fuel", "cargo"]


# -- recovery --------------------------------------------------------------------------------

def test_the_recovery_choice_is_the_owners_and_is_carried_out_when_the_turn_ends(sample):
    """[seed] "A ship recovers from 1 D a turn ... The ship's owner chooses what kind of
    damage to recover from." """
    ajax = sample.ship("Ajax")
    values = values_of(sample, ajax, "recovery")
    assert (values["track"], values["then"]) == ("structure", "none")  # the sample's choice
    options = [o["label"] for o in spec(sample, ajax, "recovery")["fields"][0]["options"]]
    assert "Drive (D1)" in options
    change = decide(sample, ajax, "recovery", {"track": "drive", "then": "weapon"})
    assert change.name == "Recovery choice: drive, then weapons"
    assert log_lines(sample, change)[-1] == "recovery choice: drive, then weapons"
    assert tp.recovery_choice(ajax) == ("drive", "weapon")
    assert tp.planned_recovery(ajax) == ("drive", "owner's choice")
    sample.undo()
    assert tp.recovery_choice(ajax) == ("structure",)
    sample.redo()
    sample.next_turn()
    assert tp.levels(ajax)["drive"] == 0
    assert "recovers 1 D (owner's choice): drive D1 → D0" in sample.log_text()


def test_clearing_the_choice_lets_the_default_apply(sample):
    """[TRI-H13] the highest D-level, ties in the order drive, weapons, structure."""
    ajax = sample.ship("Ajax")
    decide(sample, ajax, "recovery", {"track": "none", "then": "none"})
    assert tp.recovery_choice(ajax) == ()
    assert tp.planned_recovery(ajax) == ("drive", tp.recovery.DEFAULT)


def test_recovery_refusals_say_why(sample):
    ajax = sample.ship("Ajax")
    refused(sample, ajax, "recovery", {"track": "structure", "then": "none"}, "already structure")
    refused(sample, ajax, "recovery", {"track": "drive", "then": "drive"}, "listed twice")
    refused(sample, ajax, "recovery", {"track": "none", "then": "drive"}, "Choose the track")


@pytest.mark.parametrize("values, words", [
    ({"track": "standard", "then": "none"}, "Recover from: choose one of"),
    ({"track": "hull", "then": "none"}, "choose one of"),
    ({"track": 1, "then": "none"}, "choose one of"),
    ({"track": ["drive"], "then": "none"}, "choose one of"),
    ({"track": "drive" * 2000, "then": "none"}, "choose one of"),  # 10 KB
    ({"track": "drive", "then": "none", "note": "x"}, "no field named note"),
    ({"then": "none"}, "a value is needed"),
])
def test_hostile_recovery_values_are_refused(sample, values, words):
    refused(sample, sample.ship("Ajax"), "recovery", values, words)


# -- fuel and cargo ------------------------------------------------------------------------

def test_fuel_is_set_as_a_click_on_the_fuel_boxes_sets_it(sample):
    ajax = sample.ship("Ajax")
    change = decide(sample, ajax, "fuel", {"fuel": 10})
    assert ajax.state["fuel"] == 10
    assert change.name == "Set fuel to 10"
    assert log_lines(sample, change)[-1] == "fuel 14 → 10"
    sample.undo()
    assert ajax.state["fuel"] == 14


def test_cargo_is_set_as_a_click_on_the_cargo_scale_sets_it(sample):
    mule = sample.ship("Ceres Mule")
    change = decide(sample, mule, "cargo", {"cargo": 25})
    assert mule.state["cargo"] == 25
    assert log_lines(sample, change)[-1] == "cargo 40 t → 25 t"
    sample.undo()
    assert mule.state["cargo"] == 40
    station = sample.ship("Phobos Station")
    decide(sample, station, "cargo", {"cargo": 5000})  # an unlimited hold
    assert station.state["cargo"] == 5000


@pytest.mark.parametrize("ship, kind, values, words", [
    # [2018] a frigate holds 20 fuel; [TRI-H29] 14 left: burnt, never raised by its player.
    ("Ajax", "fuel", {"fuel": 21}, "at most 14. A player burns fuel but does not take it on"),
    ("Ajax", "fuel", {"fuel": 20}, "refuelling, at a base or from a tanker, is the referee's"),
    ("Ajax", "fuel", {"fuel": 15}, "(house rule TRI-H29)"),
    ("Ajax", "fuel", {"fuel": -1}, "from 0 to 14"),
    ("Ajax", "fuel", {"fuel": 14}, "already 14"),
    ("Ajax", "fuel", {"fuel": "lots"}, "a whole number"),
    ("Ajax", "fuel", {"fuel": "9" * 10_000}, "a whole number"),
    ("Ajax", "fuel", {"fuel": 3.0}, "a whole number"),
    ("Ajax", "fuel", {"fuel": "--5"}, "a whole number"),   # str.isdigit passes these two,
    ("Ajax", "fuel", {"fuel": "²"}, "a whole number"),     # int() does not
    ("Ajax", "fuel", {}, "a value is needed"),
    ("Ajax", "fuel", {"fuel": 3, "cargo": 3}, "no field named cargo"),
    ("Kite", "cargo", {"cargo": 11}, "from 0 to 10"),   # [2018] a corsair carries 10 t
    ("Kite", "cargo", {"cargo": 10}, "already 10 t"),
    ("Phobos Station", "cargo", {"cargo": 100_001}, "from 0 to 100000"),  # [TRI-H12] 100,000 t
    ("Phobos Station", "fuel", {"fuel": 1}, 'no decision "fuel"'),
])
def test_hostile_fuel_and_cargo_values_are_refused(sample, ship, kind, values, words):
    refused(sample, sample.ship(ship), kind, values, words)


def test_every_form_is_plain_json_with_its_values_accepted_as_they_are(sample):
    """What a phone page shows: plain JSON; each field's value is one the field allows."""
    FORMS.assert_plain_json(sample)


# -- taps ----------------------------------------------------------------------------------

def _right(session, ship, key):
    """The right a phone's tap on box ``key`` needs (the box's answer, ``boxes.py``)."""
    answer = BOXES.answer(session, ship, key)
    assert answer is not None, key
    return answer.right


def test_the_ladders_are_marks_and_choice_fuel_cargo_are_decisions(sample):
    ajax, station = sample.ship("Ajax"), sample.ship("Phobos Station")
    for key in ("weapon:3", "drive:1", "structure:6", "damage-roll", "counter"):
        assert _right(sample, ajax, key) == MARK
    for key in ("choice:drive", "choice:default", "fuel:10", "fuel:7", "cargo:20"):
        assert _right(sample, ajax, key) == DECIDE
    # [TRI-H29] taking on fuel is the referee's: a box already burnt (Ajax has burnt 6 of 20).
    for key in ("fuel:3", "fuel:6"):
        assert _right(sample, ajax, key) == MARK
    # [2018] the orbital base: no fuel of its own, an unlimited hold kept as a counter.
    for key in ("fuel", "cargo", "cargo:-10", "cargo:+1"):
        assert _right(sample, station, key) == DECIDE
    sample.apply(tp.combat_option_action("standard"))
    for key in ("standard:2", "standard:E", "standard-note"):
        assert _right(sample, ajax, key) == MARK
    raven = sample.ship("Raven")
    sample.apply(tp.damage_action(raven, structure=6))
    assert _right(sample, raven, "out-of-play") == MARK
    # Keys the sheet does not draw have no box at all, so no right either.
    assert BOXES.answer(sample, ajax, "") is None and BOXES.answer(sample, ajax, "bogus") is None

"""Federation Commander in a session: actions, undo, the moderator's log, end of turn,
session files."""

import json

import pytest

from shipsheet.model import NextPhase, RuleViolation, Session, SessionFileError, get_class, new_ship
from shipsheet.model.storage import parse_session_bytes, session_to_bytes
from shipsheet.rules.fedcom import (GAME, HOUSE_RULES, Overrides, copy_orders_action,
                                    mark_box_action, preview_volley, repair_action,
                                    set_orders_action, set_turn_state_action, volley_action)
from shipsheet.rules.fedcom.sample import build_sample_session


def session_with(*stems):
    session = Session("fedcom", seed=1234)
    ships = [session.add_ship(new_ship(get_class(f"fedcom/{s}"), f"Ship {n}"), "Blue")
             for n, s in enumerate(stems)]
    return session, ships


def test_phases():
    """[house] Energy, Movement, Combat, Repair."""
    assert GAME.phases == ("Energy", "Movement", "Combat", "Repair")


def test_a_volley_through_the_session_is_one_undo_step_with_one_line_per_point():
    """The moderator's log: "Every point writes one line: volley, point number, die roll,
    row, column, cell, the box hit (or "skipped"/"frame"), and the reason"."""
    session, (ship,) = session_with("sample-heavy-cruiser")
    before = json.dumps(ship.state, sort_keys=True)
    start = len(session.log)
    change = session.apply(volley_action(ship, 38, shield=1, rolls=[2]))
    assert change.name == "Volley of 38 at Ship 0, shield #1"
    point_lines = [e.text for e in session.log[start:] if e.text.startswith("Volley 1, point")]
    assert len(point_lines) == 8                                   # 38 - 30 = 8 internal
    assert point_lines[0].startswith("Volley 1, point 1: roll 2, row 2, column 1, flag/bridge: ")
    assert all(e.ship == ship.id for e in session.log[start:])
    assert len(ship.state["destroyed"]) + ship.state["frame_hits"] == 8
    session.undo()
    assert json.dumps(ship.state, sort_keys=True) == before
    assert all(e.undone for e in session.log[start:])
    session.redo()
    assert ship.state["shield_damage"][0] == 30


def test_the_preview_matches_what_apply_does_and_changes_nothing():
    """Issue 6: "a preview listing every point and why, Apply as one undo step"."""
    session, (ship,) = session_with("sample-dreadnought")
    session.apply(set_orders_action(ship, Overrides(last=["ph-5"], first=["ph-99"])))
    count = session.dice.count
    preview = preview_volley(session, ship, 45)
    assert session.dice.count == count and ship.state["destroyed"] == []
    assert 'first: "ph-99" not applied: this ship has no such box.' in preview.notes
    session.apply(volley_action(ship, 45))
    assert ship.state["destroyed"] == preview.hits
    text = session.log_text()
    assert 'Note: first: "ph-99" not applied: this ship has no such box.' in text
    assert "d6 rolled" in text and "for DAC row, group 1" in text


def test_end_of_turn_resets_turn_states_and_lapses_orders():
    """[product]: turn state "resets at end of turn (charging persists)"; orders "lapse at end of
    turn unless the user copies them forward"."""
    session, (cruiser, frigate) = session_with("sample-heavy-cruiser", "sample-frigate")
    for box_id, state in (("ph-1", "fired"), ("photon-1", "charging"), ("lab-1", "used"),
                          ("tractor-1", "holding"), ("tractor-2", "used-dropped")):
        session.apply(set_turn_state_action(cruiser, box_id, state))
    session.apply(set_orders_action(cruiser, {"last": ["ph-5"]}))
    session.apply(set_orders_action(frigate, {"last": ["ph-2"]}))
    session.apply(copy_orders_action(frigate))
    for _ in GAME.phases:
        session.apply(NextPhase())
    assert (session.turn, session.phase) == (2, "Energy")
    assert cruiser.state["turn"] == {"photon-1": "charging", "tractor-1": "holding"}
    assert cruiser.state["orders"] == {}
    assert frigate.state["orders"] == {"last": ["ph-2"]} and frigate.state["next_orders"] is None
    text = session.log_text()
    assert "Ship 0: standing orders lapsed" in text
    assert "Ship 1: standing orders copied to the new turn" in text
    session.undo()
    assert cruiser.state["turn"]["ph-1"] == "fired"


def test_repair_and_corrections_are_actions():
    session, (ship,) = session_with("sample-frigate")
    session.apply(mark_box_action(ship, "lab-1"))
    session.apply(repair_action(ship, ["lab-1"]))
    assert ship.state["destroyed"] == [] and ship.state["repair_spent"] == 2
    assert "lab-1 repaired (2 of 2 points)" in session.log_text()
    with pytest.raises(RuleViolation):
        session.apply(repair_action(ship, ["lab-1"]))
    assert ship.state["repair_spent"] == 2           # the refusal changed nothing


def test_the_state_survives_a_session_file():
    session = build_sample_session()
    again = parse_session_bytes(session_to_bytes(session))
    assert [s.state for s in again.ships] == [s.state for s in session.ships]
    assert again.options["chart"] == "training"


@pytest.mark.parametrize("key, value, message", [
    ("destroyed", ["ph-99"], 'state.destroyed[0]: no box "ph-99"'),
    ("destroyed", ["lab-1", "lab-1"], 'state.destroyed[1]: "lab-1" is listed twice'),
    ("frame_hits", 9, "state.frame_hits: 9 is too large (at most 3)"),
    ("shield_damage", [0, 0, 0], "state.shield_damage: six shields expected, found 3"),
    ("shield_damage", [99, 0, 0, 0, 0, 0], "state.shield_damage[0]: 99 is too large"),
    ("turn", {"ph-1": "charging"}, 'state.turn.ph-1: unknown value "charging"'),
    ("drones", {"lab-1": 3}, 'state.drones.lab-1: no drone rack "lab-1"'),
    ("occupant", {"shuttle-1": "crew"}, 'state.occupant.shuttle-1: unknown value "crew"'),
    ("orders", {"last": "ph-1"}, "state.orders.last: expected a list"),
    ("orders", {"sometimes": True}, "state.orders.sometimes: unknown key"),
    ("repair", {"box": "lab-1", "points": 1}, 'state.repair.box: "lab-1" is not a destroyed box'),
    ("ship_destroyed", True, "state.ship_destroyed: a ship is destroyed only when all its frame"),
    ("bogus", 1, "state.bogus: unknown key"),
])
def test_hostile_states_are_refused_with_a_clear_message(key, value, message):
    session, (ship,) = session_with("sample-frigate")
    data = json.loads(session_to_bytes(session))
    data["ships"][0]["state"][key] = value
    with pytest.raises(SessionFileError) as info:
        parse_session_bytes(json.dumps(data).encode())
    assert message in str(info.value)


def test_the_sample_session():
    """HACKING: two sides, 4-6 ships in varied states of damage, a fixed seed, a name."""
    session = build_sample_session()
    assert session.name and len(session.sides) == 2 and 4 <= len(session.ships) <= 6
    damage = {len(s.state["destroyed"]) + s.state["frame_hits"] for s in session.ships}
    assert len(damage) >= 3
    assert any("Crippled" in GAME.status_chips(s) for s in session.ships)
    again = build_sample_session()
    assert [s.state for s in again.ships] == [s.state for s in session.ships]


def test_house_rules_are_listed():
    topics = [rule.topic for rule in HOUSE_RULES]
    assert "Second skip" in topics and "Arc restriction" in topics
    assert all(rule.text for rule in HOUSE_RULES)

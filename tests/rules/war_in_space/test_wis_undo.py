"""Every War In Space action is one undo step: undo restores the ship, redo replays it."""

import copy

import pytest

from shipsheet.model import RuleViolation
from shipsheet.rules.war_in_space import (cancel_repairs_action, commit_allocation_action,
                                          commit_energy_action, correct_mark_action,
                                          mark_critical_action, mark_system_box_action,
                                          plan_repairs_action, allocate_energy,
                                          roll_energy_action)


def check_undo_redo(session, ship, action, name):
    before = copy.deepcopy(ship.state)
    phase, turn = session.phase, session.turn
    change = session.apply(action)
    after = copy.deepcopy(ship.state)
    assert change.name == name
    assert (after, session.phase, session.turn) != (before, phase, turn), "the action did something"
    session.undo()
    assert ship.state == before and (session.phase, session.turn) == (phase, turn)
    assert all(e.undone for e in session.log[change.entries])
    session.redo()
    assert ship.state == after
    return after


def test_undo_mark_box_and_critical(session, cruiser_in):
    check_undo_redo(session, cruiser_in, mark_system_box_action(cruiser_in, "drive"),
                    "Mark Drive box")
    check_undo_redo(session, cruiser_in, mark_critical_action(cruiser_in, "d"), "Mark ♦ critical")


def test_undo_correct_mark(session, cruiser_in):
    session.apply(mark_system_box_action(cruiser_in, "Reactor"))
    session.apply(mark_critical_action(cruiser_in, "C"))
    check_undo_redo(session, cruiser_in, correct_mark_action(cruiser_in, "Reactor"),
                    "Correct mark: Reactor box")
    check_undo_redo(session, cruiser_in, correct_mark_action(cruiser_in, suit="clubs"),
                    "Correct mark: ♣ critical")
    assert "Correction:" in session.log_text()


def test_undo_roll_rewinds_the_dice(session, cruiser_in):
    """Undo a roll and roll again: the seeded session dice show the same values."""
    change = session.apply(roll_energy_action(cruiser_in))
    first = list(cruiser_in.state["rolled"])
    session.undo()
    assert cruiser_in.state["rolled"] is None
    session.apply(roll_energy_action(cruiser_in))
    assert cruiser_in.state["rolled"] == first
    assert change.name == "Roll energy dice"
    with pytest.raises(RuleViolation, match="already rolled"):
        session.apply(roll_energy_action(cruiser_in))


def test_undo_commit(session, cruiser_in):
    check_undo_redo(session, cruiser_in,
                    commit_energy_action(cruiser_in, "4D", [3, 8, 5], damage_control=True),
                    "Energy Allocation: 4♦ with Damage Control")
    assert cruiser_in.state["energy"]["damage_control"] == 8


def test_commit_uses_the_rolled_dice(session, cruiser_in):
    session.dice.type_in(7, 2, 4)
    session.apply(roll_energy_action(cruiser_in))
    assert cruiser_in.state["rolled"] == [7, 2, 4]
    check_undo_redo(session, cruiser_in, commit_energy_action(cruiser_in, "QH"),
                    "Energy Allocation: Q♥")
    energy = cruiser_in.state["energy"]
    # ♥ defense/attack, face card without DC: highest + middle (7 + 4) -> defense, lowest -> attack.
    assert (energy["defense"], energy["attack"], energy["dice"]) == (11, 2, [7, 2, 4])
    assert cruiser_in.state["rolled"] is None


def test_commit_an_allocation_worked_out_before(session, cruiser_in):
    allocation = allocate_energy(cruiser_in, "JOKER", [1, 2, 3],
                                 joker_assignment=["attack", "movement", "movement"])
    check_undo_redo(session, cruiser_in, commit_allocation_action(cruiser_in, allocation),
                    "Energy Allocation: Joker")
    assert cruiser_in.state["energy"]["movement"] == 5


def test_undo_plan_and_cancel(session, cruiser_in):
    session.apply(mark_system_box_action(cruiser_in, "Drive"))
    session.apply(commit_energy_action(cruiser_in, "4D", [9, 5, 6], damage_control=True))
    check_undo_redo(session, cruiser_in, plan_repairs_action(cruiser_in, boxes={"Drive": 1}),
                    "Plan repairs")
    check_undo_redo(session, cruiser_in, cancel_repairs_action(cruiser_in),
                    "Cancel planned repairs")


def test_undo_entering_damage_control_takes_the_repairs_back(session, cruiser_in):
    session.apply(mark_critical_action(cruiser_in, "S"))
    session.apply(commit_energy_action(cruiser_in, "KD", [9, 5, 6], damage_control=True))
    session.apply(plan_repairs_action(cruiser_in, criticals=["S"]))
    session.next_phase()
    before = copy.deepcopy(cruiser_in.state)
    session.next_phase()
    assert cruiser_in.state["criticals"]["spades"] is False
    session.undo()
    assert session.phase == "Movement"
    assert cruiser_in.state == before
    assert cruiser_in.state["criticals"]["spades"] is True


def test_undo_repairs_made_during_the_phase(session, cruiser_in):
    session.apply(mark_system_box_action(cruiser_in, "Drive"))
    session.apply(commit_energy_action(cruiser_in, "KD", [9, 5, 6], damage_control=True))
    session.next_phase()
    session.next_phase()
    after = check_undo_redo(session, cruiser_in, plan_repairs_action(cruiser_in, boxes={"Drive": 1}),
                            "Plan repairs")
    assert after["marks"] == [0, 0, 0]


def test_undo_end_of_turn_restores_the_energy(session, cruiser_in):
    session.apply(commit_energy_action(cruiser_in, "4D", [9, 5, 6], damage_control=True))
    before = copy.deepcopy(cruiser_in.state)
    session.next_turn()
    assert cruiser_in.state["energy"] is None
    session.undo()
    assert cruiser_in.state == before and session.turn == 1


def test_a_refused_action_leaves_no_undo_step(session, cruiser_in):
    session.apply(mark_critical_action(cruiser_in, "D"))
    steps = session.undo_status().undo
    with pytest.raises(RuleViolation, match="♦ critical hit is marked"):
        session.apply(commit_energy_action(cruiser_in, "4D", [9, 5, 6]))
    assert session.undo_status().undo == steps
    assert cruiser_in.state["energy"] is None


@pytest.mark.parametrize("make", [
    lambda ship: mark_system_box_action(ship, "Shields"),
    lambda ship: mark_critical_action(ship, "stars"),
    lambda ship: correct_mark_action(ship),
    lambda ship: commit_energy_action(ship, "14D", [9, 5, 6]),
])
def test_a_bad_argument_is_refused_when_applied_and_leaves_no_trace(session, cruiser_in, make):
    before = copy.deepcopy(cruiser_in.state)
    log_length = len(session.log)
    with pytest.raises(RuleViolation):
        session.apply(make(cruiser_in))
    assert cruiser_in.state == before and len(session.log) == log_length

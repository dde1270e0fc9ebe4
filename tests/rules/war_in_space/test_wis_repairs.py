"""Damage Control repairs: costs 4 / 8, limits, refusals, and their timing in a session."""

import copy

import pytest

from shipsheet.model import RuleViolation
import shipsheet.rules.war_in_space as wis
from shipsheet.rules.war_in_space import (allocate_energy, commit_energy_action, current_die,
                                          locked_suits,
                                          mark_critical, mark_critical_action, mark_system_box,
                                          mark_system_box_action, plan_repairs,
                                          plan_repairs_action, planned_repairs,
                                          remaining_damage_control, correct_mark_action)


def damage(ship, drive=0, reactor=0, suits=()):
    for _ in range(drive):
        mark_system_box(ship, "Drive")
    for _ in range(reactor):
        mark_system_box(ship, "Reactor")
    for suit in suits:
        mark_critical(ship, suit)


# -- costs and limits (headless) ------------------------------------------------------

def test_a_box_costs_4_and_a_critical_8(cruiser):
    """Seed: "By spending 4 energy points a ship may repair one system box ... By spending 8
    energy points a ship may repair one critical hit"."""
    damage(cruiser, drive=2, suits="D")
    assert plan_repairs(cruiser, 4, boxes={"Drive": 1}).cost == 4
    assert plan_repairs(cruiser, 8, criticals=["D"]).cost == 8
    plan = plan_repairs(cruiser, 20, boxes={"Drive": 2}, criticals="♦")
    assert plan.cost == 4 + 4 + 8
    assert plan.remaining == 20 - 16


def in_damage_control(session, ship, card, dice):
    """Commit ``card`` with Damage Control on ``dice``, then go to the Damage Control phase."""
    session.apply(commit_energy_action(ship, card, dice, damage_control=True))
    while session.phase != "Damage Control":
        session.next_phase()


def test_repairs_raise_the_die_and_unlock_the_suit_at_once(session, cruiser_in):
    """Seed: repairing a box erases the mark, "allowing the ship's player to roll one die type
    higher"; repairing a critical allows it "to once again play cards from a particular suit".
    A K♠ with Damage Control on [9, 2, 6] (Drive at d4): DC = 9 + 6 = 15, a box and a
    critical cost 12."""
    damage(cruiser_in, drive=2, suits="D")
    assert current_die(cruiser_in, "Drive") == 4
    in_damage_control(session, cruiser_in, "KS", [9, 2, 6])
    session.apply(plan_repairs_action(cruiser_in, boxes={"drive": 1}, criticals=["diamonds"]))
    assert current_die(cruiser_in, "Drive") == 6
    assert locked_suits(cruiser_in) == []
    assert remaining_damage_control(cruiser_in) == 3


def test_no_limit_other_than_energy(cruiser):
    """Seed: "There is no limit to the amount of systems boxes and critical hits a ship may
    repair, other than energy available". 4 boxes + 4 criticals = 4*4 + 4*8 = 48."""
    damage(cruiser, drive=3, reactor=1, suits="SHDC")
    plan = plan_repairs(cruiser, 48, boxes={"Drive": 3, "Reactor": 1}, criticals=list("SHDC"))
    assert plan.cost == 48 and plan.remaining == 0
    with pytest.raises(RuleViolation, match="1 missing"):
        plan_repairs(cruiser, 47, boxes={"Drive": 3, "Reactor": 1}, criticals=list("SHDC"))


def test_repairs_beyond_the_energy_say_how_much_is_missing(cruiser):
    damage(cruiser, drive=2, suits="D")
    with pytest.raises(RuleViolation, match=r"cost 16 energy but only 13 .* 3 missing"):
        plan_repairs(cruiser, 13, boxes={"Drive": 2}, criticals=["D"])
    with pytest.raises(RuleViolation, match=r"cost 4 energy but only 3 .* 1 missing"):
        plan_repairs(cruiser, 3, boxes={"Drive": 1})


def test_repairing_what_is_not_damaged_is_refused(cruiser):
    """Seed: "Ships may not "repair" themselves to perform at higher than their original,
    undamaged capabilities!"."""
    damage(cruiser, drive=1)
    with pytest.raises(RuleViolation, match="Reactor is not damaged"):
        plan_repairs(cruiser, 40, boxes={"Reactor": 1})
    with pytest.raises(RuleViolation, match="only 1 marked box: repairing 2 .* undamaged d8"):
        plan_repairs(cruiser, 40, boxes={"Drive": 2})
    with pytest.raises(RuleViolation, match="♥ critical hit is not marked"):
        plan_repairs(cruiser, 40, criticals=["H"])


def test_a_critical_is_repaired_once(cruiser):
    damage(cruiser, suits="H")
    with pytest.raises(RuleViolation, match="listed twice"):
        plan_repairs(cruiser, 40, criticals=["H", "♥"])


@pytest.mark.parametrize("energy", [-1, 1.5, "8", None, True])
def test_energy_must_be_a_whole_number(cruiser, energy):
    damage(cruiser, drive=1)
    with pytest.raises(RuleViolation):
        plan_repairs(cruiser, energy, boxes={"Drive": 1})


def test_the_budget_may_be_an_allocation(cruiser):
    damage(cruiser, drive=1)
    allocation = allocate_energy(cruiser, "QD", [3, 4, 5], damage_control=True)  # DC 9
    assert plan_repairs(cruiser, allocation, boxes={"Drive": 1}).remaining == 5


def test_repairs_are_paid_from_the_committed_damage_control_energy(session, cruiser_in):
    """A 10♥ with Damage Control and dice [7, 3, 2] (Drive at d4): DC gets the highest, 7 —
    enough for one box (4) but not a box and a critical (12)."""
    damage(cruiser_in, drive=2, suits="D")
    in_damage_control(session, cruiser_in, "10H", [7, 3, 2])
    assert remaining_damage_control(cruiser_in) == 7
    with pytest.raises(RuleViolation, match="5 missing"):
        session.apply(plan_repairs_action(cruiser_in, boxes={"Drive": 1}, criticals=["D"]))
    session.apply(plan_repairs_action(cruiser_in, boxes={"Drive": 1}))
    assert remaining_damage_control(cruiser_in) == 3
    with pytest.raises(RuleViolation, match="1 missing"):
        session.apply(plan_repairs_action(cruiser_in, boxes={"Drive": 1}))


def test_no_public_function_repairs_outside_the_rules():
    """Seed: "Repairs do not take place until the Damage Control phase after movement" and are
    paid with energy: the package exports no helper that repairs at once, in any phase, for
    free; repairs go through plan_repairs_action."""
    exported = set(wis.__all__) | {n for n in dir(wis) if not n.startswith("_")}
    assert not exported & {"apply_repairs", "schedule_repairs", "carry_out_planned_repairs"}


def test_repairs_outside_the_damage_control_phase_wait_or_are_refused(session, cruiser_in):
    damage(cruiser_in, drive=1)
    session.apply(commit_energy_action(cruiser_in, "4D", [9, 5, 6], damage_control=True))
    session.apply(plan_repairs_action(cruiser_in, boxes={"Drive": 1}))
    assert current_die(cruiser_in, "Drive") == 6  # waits for the phase
    while session.phase != "Combat":
        session.next_phase()
    assert current_die(cruiser_in, "Drive") == 8


def test_a_refused_repair_changes_nothing(cruiser):
    damage(cruiser, drive=1)
    before = copy.deepcopy(cruiser.state)
    with pytest.raises(RuleViolation):
        plan_repairs(cruiser, 2, boxes={"Drive": 1})
    with pytest.raises(RuleViolation):
        plan_repairs(cruiser, 40, boxes={"Drive": 1, "Reactor": 1})
    assert cruiser.state == before


# -- timing in a session ---------------------------------------------------------------

def test_planned_repairs_take_effect_in_the_damage_control_phase_not_before(session, cruiser_in):
    """Seed: "Repairs do not take place until the Damage Control phase after movement".
    K♦ with Damage Control on [9, 2, 6] (Drive at d4 after two marks): DC = 9 + 6 = 15."""
    ship = cruiser_in
    session.apply(mark_system_box_action(ship, "Drive"))
    session.apply(mark_system_box_action(ship, "Drive"))
    session.apply(mark_critical_action(ship, "S"))
    session.apply(commit_energy_action(ship, "KD", [9, 2, 6], damage_control=True))
    assert remaining_damage_control(ship) == 15
    session.apply(plan_repairs_action(ship, boxes={"Drive": 1}, criticals=["S"]))
    assert planned_repairs(ship).cost == 12
    assert current_die(ship, "Drive") == 4 and locked_suits(ship) == ["spades"]

    session.next_phase()
    assert session.phase == "Movement"
    assert current_die(ship, "Drive") == 4 and locked_suits(ship) == ["spades"]

    session.next_phase()
    assert session.phase == "Damage Control"
    assert current_die(ship, "Drive") == 6 and locked_suits(ship) == []
    assert remaining_damage_control(ship) == 3
    assert planned_repairs(ship) is None
    assert "♠ critical hit repaired (8 energy)" in session.log_text()


def test_planning_needs_damage_control_energy(session, cruiser_in):
    session.apply(mark_system_box_action(cruiser_in, "Drive"))
    with pytest.raises(RuleViolation, match="has not committed its Energy Allocation"):
        session.apply(plan_repairs_action(cruiser_in, boxes={"Drive": 1}))
    session.apply(commit_energy_action(cruiser_in, "4D", [9, 5, 6]))
    with pytest.raises(RuleViolation, match="did not announce Damage Control"):
        session.apply(plan_repairs_action(cruiser_in, boxes={"Drive": 1}))


def test_planning_past_the_budget_is_refused(session, cruiser_in):
    """A 4♦ with Damage Control on [3, 5, 2]: DC gets 5; a critical costs 8: 3 missing."""
    session.apply(mark_critical_action(cruiser_in, "H"))
    session.apply(commit_energy_action(cruiser_in, "4D", [3, 5, 2], damage_control=True))
    with pytest.raises(RuleViolation, match="cost 8 energy but only 5 .* 3 missing"):
        session.apply(plan_repairs_action(cruiser_in, criticals=["H"]))
    assert planned_repairs(cruiser_in) is None


def test_repairs_planned_during_the_phase_happen_at_once_and_not_after(session, cruiser_in):
    """[house] Planned in the Damage Control phase they take effect at once; in Combat, the
    phase is over."""
    session.apply(mark_system_box_action(cruiser_in, "Reactor"))
    session.apply(mark_system_box_action(cruiser_in, "Reactor"))
    session.apply(commit_energy_action(cruiser_in, "AS", [6, 8, 8], damage_control=True))
    session.next_phase()
    session.next_phase()
    assert session.phase == "Damage Control"
    session.apply(plan_repairs_action(cruiser_in, boxes={"Reactor": 1}))
    assert current_die(cruiser_in, "Reactor") == 8
    session.next_phase()
    assert session.phase == "Combat"
    with pytest.raises(RuleViolation, match="Damage Control phase of this turn is over"):
        session.apply(plan_repairs_action(cruiser_in, boxes={"Reactor": 1}))


def test_unspent_energy_is_lost_at_end_of_turn(session, cruiser_in):
    """Spec [house]: "Energy not spent this turn is lost at end of turn"."""
    session.apply(mark_system_box_action(cruiser_in, "Drive"))
    session.apply(commit_energy_action(cruiser_in, "AS", [6, 5, 8], damage_control=True))
    assert remaining_damage_control(cruiser_in) == 8
    session.next_turn()
    assert session.turn == 2 and session.phase == "Energy Allocation"
    assert remaining_damage_control(cruiser_in) == 0
    assert cruiser_in.state["energy"] is None
    assert "this turn's energy is lost" in session.log_text()
    with pytest.raises(RuleViolation, match="has not committed"):
        session.apply(plan_repairs_action(cruiser_in, boxes={"Drive": 1}))


def test_a_planned_repair_of_a_corrected_mark_is_dropped(session, cruiser_in):
    """[house] The mark was a mistake, corrected before the phase: nothing to repair, no cost."""
    session.apply(mark_system_box_action(cruiser_in, "Drive"))
    session.apply(commit_energy_action(cruiser_in, "4D", [9, 5, 6], damage_control=True))
    session.apply(plan_repairs_action(cruiser_in, boxes={"Drive": 1}))
    session.apply(correct_mark_action(cruiser_in, "Drive"))
    session.next_phase()
    session.next_phase()
    assert current_die(cruiser_in, "Drive") == 8
    assert remaining_damage_control(cruiser_in) == 9
    assert "planned repair(s) dropped" in session.log_text()


def test_commit_is_allowed_in_the_energy_allocation_phase_only(session, cruiser_in):
    session.next_phase()
    with pytest.raises(RuleViolation, match="Energy Allocation phase"):
        session.apply(commit_energy_action(cruiser_in, "4D", [9, 5, 6]))


def test_one_commit_per_turn(session, cruiser_in):
    session.apply(commit_energy_action(cruiser_in, "4D", [9, 5, 6]))
    with pytest.raises(RuleViolation, match="already committed"):
        session.apply(commit_energy_action(cruiser_in, "5D", [9, 5, 6]))

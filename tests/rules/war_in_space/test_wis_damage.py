"""Damage marked by hand: system boxes step the die down, criticals lock suits, corrections."""

import copy

import pytest

from shipsheet.model import RuleViolation, get_class, new_ship
from shipsheet.rules.war_in_space import (GAME, correct_mark, current_die, locked_suits,
                                          mark_critical, mark_system_box)


def test_each_mark_steps_the_die_one_type_down_to_zero(cruiser):
    """Seed: a repaired box lets the player "roll one die type higher"; [product]: "Each marked box
    steps that system's die one type down ... When the marks step the die below d4 the system
    produces 0 energy [house]". Reactor d10, 4 boxes: d8, d6, d4, 0."""
    assert current_die(cruiser, "Reactor") == 10
    seen = []
    for _ in range(4):
        mark_system_box(cruiser, "Reactor")
        seen.append(current_die(cruiser, "Reactor"))
    assert seen == [8, 6, 4, 0]


def test_a_full_system_cannot_be_marked_again(cruiser):
    for _ in range(3):
        mark_system_box(cruiser, "Drive")
    before = copy.deepcopy(cruiser.state)
    with pytest.raises(RuleViolation, match="All 3 boxes of Drive are already marked.*WIS-H12"):
        mark_system_box(cruiser, "Drive")
    assert cruiser.state == before


def test_a_critical_after_the_commit_leaves_the_allocation_standing(session, cruiser_in):
    """[WIS-H13] The seed locks a suit "after taking damage" and says nothing of a turn already
    allocated: a ♦ critical marked after a 4♦ was committed leaves this turn's energy as it
    is, says so in the log, and refuses ♦ from the next Energy Allocation on."""
    from shipsheet.rules.war_in_space import (commit_energy_action, committed_allocation,
                                              mark_critical_action)
    session.apply(commit_energy_action(cruiser_in, "4D", [9, 5, 6]))
    before = committed_allocation(cruiser_in)
    session.apply(mark_critical_action(cruiser_in, "D"))
    assert committed_allocation(cruiser_in) == before
    assert "this turn's committed allocation stands" in session.log_text()
    assert "WIS-H13" in session.log_text()
    session.next_turn()
    with pytest.raises(RuleViolation, match="locks diamonds out"):
        session.apply(commit_energy_action(cruiser_in, "5D", [9, 5, 6]))


def test_a_system_with_fewer_boxes_than_steps_never_reaches_zero():
    """Frigate Drive: d8 with 2 boxes: d6, d4 — and no third mark."""
    ship = new_ship(get_class("war-in-space/frigate"), "Lancer")
    mark_system_box(ship, "Drive")
    mark_system_box(ship, "Drive")
    assert current_die(ship, "Drive") == 4
    with pytest.raises(RuleViolation):
        mark_system_box(ship, "Drive")


@pytest.mark.parametrize("system", ["Fire Control", "fire control", "FIRE  CONTROL", 2])
def test_a_system_is_named_by_name_in_any_case_or_by_index(cruiser, system):
    mark_system_box(cruiser, system)
    assert current_die(cruiser, "Fire Control") == 6
    assert current_die(cruiser, 2) == 6


@pytest.mark.parametrize("system", ["Shields", 3, -1, None, True, 1.0])
def test_an_unknown_system_is_refused(cruiser, system):
    with pytest.raises(RuleViolation):
        mark_system_box(cruiser, system)


@pytest.mark.parametrize("suit", ["D", "d", "♦", "diamonds", "DIAMONDS", "Diamond"])
def test_suit_arguments_in_every_spelling(cruiser, suit):
    mark_critical(cruiser, suit)
    assert locked_suits(cruiser) == ["diamonds"]


def test_critical_locks_its_suit_and_shows_a_chip(cruiser):
    """Seed: a critical hit removes "the ability" to "play cards from a particular suit";
    style: status words such as "♦ locked"."""
    mark_critical(cruiser, "♣")
    mark_critical(cruiser, "spades")
    assert locked_suits(cruiser) == ["spades", "clubs"]
    assert GAME.status_chips(cruiser) == ["♠ locked", "♣ locked"]


def test_a_marked_critical_cannot_be_marked_again(cruiser):
    mark_critical(cruiser, "H")
    with pytest.raises(RuleViolation, match="already marked"):
        mark_critical(cruiser, "hearts")


@pytest.mark.parametrize("suit", ["X", "stars", "", None, 3])
def test_an_unknown_suit_is_refused(cruiser, suit):
    with pytest.raises(RuleViolation, match="is not a suit"):
        mark_critical(cruiser, suit)


def test_dead_in_space_when_all_three_systems_produce_zero():
    """Spec [house]: "A ship whose three systems all produce 0 is shown as Dead in space".
    Escort: Reactor d6 (2 boxes), Drive d8 (3), Fire Control d4 (1)."""
    ship = new_ship(get_class("war-in-space/escort"), "Kestrel")
    for system, boxes in (("Reactor", 2), ("Drive", 3)):
        for _ in range(boxes):
            mark_system_box(ship, system)
    assert "Dead in space" not in GAME.status_chips(ship)
    mark_system_box(ship, "Fire Control")
    assert GAME.status_chips(ship) == ["Dead in space"]
    mark_critical(ship, "D")
    assert GAME.status_chips(ship) == ["Dead in space", "♦ locked"]


def test_correct_mark_takes_back_a_box_or_a_critical(cruiser):
    mark_system_box(cruiser, "Drive")
    mark_critical(cruiser, "D")
    line = correct_mark(cruiser, "Drive")
    assert "Correction" in line and "not a repair" in line
    assert current_die(cruiser, "Drive") == 8
    correct_mark(cruiser, suit="♦")
    assert locked_suits(cruiser) == []


def test_correct_mark_refuses_what_is_not_marked(cruiser):
    with pytest.raises(RuleViolation, match="nothing to correct"):
        correct_mark(cruiser, "Drive")
    with pytest.raises(RuleViolation, match="nothing to correct"):
        correct_mark(cruiser, suit="S")
    with pytest.raises(RuleViolation, match="Say which mark"):
        correct_mark(cruiser)
    with pytest.raises(RuleViolation, match="Say which mark"):
        correct_mark(cruiser, "Drive", suit="S")

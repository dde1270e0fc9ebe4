"""Energy Allocation: both tables of the rules, the seed's 4♦ example, and every refusal.

The cruiser's suit table: ♠ attack/movement, ♥ defense/attack, ♦ attack/defense
(the seed's Figure 1 row), ♣ movement/defense. Dice are given in system order
(Reactor d10, Drive d8, Fire Control d8) and deliberately unsorted: [3, 8, 5]
ranks as highest 8, middle 5, lowest 3.
"""

import copy

import pytest

from shipsheet.model import RuleViolation
from shipsheet.rules.war_in_space import (EnergyAllocation, allocate_energy, mark_critical,
                                          mark_system_box, parse_card)

DICE = [3, 8, 5]  # highest 8 (Drive), middle 5 (Fire Control), lowest 3 (Reactor)
NUMBER_CARDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]


def alloc(attack=0, defense=0, movement=0, damage_control=0):
    return EnergyAllocation(attack=attack, defense=defense, movement=movement,
                            damage_control=damage_control)


# -- with Damage Control (every row: seed) ------------------------------------------

def test_seed_example_4_of_diamonds_with_damage_control(cruiser):
    """Seed: "if the ship in Figure 1 played a 4 of diamonds during Energy Allocation, the
    highest die rolled would be dedicated to Damage Control, the next highest die would be
    used for Attack actions, and the remaining die would be spent on Defense, leaving 0
    energy for movement actions"."""
    result = allocate_energy(cruiser, "4D", DICE, damage_control=True)
    assert result == alloc(damage_control=8, attack=5, defense=3, movement=0)
    assert (result.attack, result.defense, result.movement, result.damage_control) == (5, 3, 0, 8)


@pytest.mark.parametrize("rank", NUMBER_CARDS)
def test_with_dc_ace_to_ten_highest_dc_middle_primary_lowest_secondary(cruiser, rank):
    """Seed: "If the Energy Allocation Card is an Ace through 10, then the highest die score
    is allocated to the Damage Control Action, the next highest score to the Primary Action
    Type, and the last die score to the Secondary action type; the remaining basic action
    type receives no energy." ♠ is attack/movement on the cruiser."""
    assert allocate_energy(cruiser, f"{rank}S", DICE, damage_control=True) == \
        alloc(damage_control=8, attack=5, movement=3, defense=0)


@pytest.mark.parametrize("rank", ["J", "Q", "K"])
def test_with_dc_face_card_highest_two_to_dc_lowest_to_primary(cruiser, rank):
    """Seed: "If a face card is played, the sum of the highest two dice scores is used for
    Damage Control and the remaining die score is used for the Primary Action Type. The two
    remaining basic action types receive no energy." ♥ is defense/attack on the cruiser."""
    assert allocate_energy(cruiser, f"{rank}H", DICE, damage_control=True) == \
        alloc(damage_control=8 + 5, defense=3)


def test_with_dc_joker_all_three_dice_to_damage_control(cruiser):
    """Seed: "Players may announce "Damage Control" when a Joker is revealed ... The sum of all
    three dice is then allocated to Damage Control; all three basic actions receive 0"."""
    assert allocate_energy(cruiser, "JOKER", DICE, damage_control=True) == \
        alloc(damage_control=3 + 8 + 5)


# -- without Damage Control (every row: house, the pattern moved up one slot) ---------

@pytest.mark.parametrize("rank", NUMBER_CARDS)
def test_without_dc_ace_to_ten_highest_primary_middle_secondary_lowest_tertiary(cruiser, rank):
    """Spec [house]: "A-10 | highest | middle | lowest" for Primary, Secondary, Tertiary.
    ♣ is movement/defense on the cruiser, so its Tertiary is attack."""
    assert allocate_energy(cruiser, f"{rank}C", DICE) == alloc(movement=8, defense=5, attack=3)


@pytest.mark.parametrize("rank", ["J", "Q", "K"])
def test_without_dc_face_card_highest_two_primary_lowest_secondary(cruiser, rank):
    """Spec [house]: "J, Q, K | highest + middle | lowest | 0". ♦ is attack/defense."""
    assert allocate_energy(cruiser, f"{rank}D", DICE) == alloc(attack=8 + 5, defense=3)


def test_without_dc_joker_the_player_assigns_each_die(cruiser):
    """Spec [house]: "Joker | the player assigns each of the three dice to any action types,
    Damage Control excluded". The assignment is per die, in system order."""
    result = allocate_energy(cruiser, "JOKER", DICE,
                             joker_assignment=["movement", "attack", "attack"])
    assert result == alloc(movement=3, attack=8 + 5)
    result = allocate_energy(cruiser, "joker", DICE,
                             joker_assignment=("Defense", "Defense", "Movement"))
    assert result == alloc(defense=3 + 8, movement=5)


def test_ties_do_not_matter(cruiser):
    """[product]: "Dice are ranked by value; ties do not matter"."""
    assert allocate_energy(cruiser, "5D", [6, 6, 2], damage_control=True) == \
        alloc(damage_control=6, attack=6, defense=2)


def test_a_system_at_zero_contributes_zero(cruiser):
    """[product]: "each at its current die type; a system at "0" contributes a 0". Reactor d10 has
    4 boxes: d8, d6, d4, 0."""
    for _ in range(4):
        mark_system_box(cruiser, "Reactor")
    assert allocate_energy(cruiser, "4D", [0, 7, 2]) == alloc(attack=7, defense=2, movement=0)


def test_allocation_is_pure_and_repeatable(cruiser):
    """Issue: "allocate_energy is a pure calculation: it changes nothing and may be called any
    number of times"."""
    before = copy.deepcopy(cruiser.state)
    first = allocate_energy(cruiser, "4D", DICE, damage_control=True)
    second = allocate_energy(cruiser, "4D", DICE, damage_control=True)
    assert first == second
    assert cruiser.state == before


# -- card writing ------------------------------------------------------------------

@pytest.mark.parametrize("card, label", [
    ("4D", "4♦"), ("4d", "4♦"), ("10H", "10♥"), ("10♥", "10♥"), ("QS", "Q♠"), ("q♠", "Q♠"),
    ("AC", "A♣"), ("a♣", "A♣"), ("K♦️", "K♦"), ("JOKER", "Joker"), ("Joker", "Joker"),
])
def test_card_spellings(card, label):
    """Issue: "4D", "10H", "QS", "AC", "JOKER" (case-insensitive; suits S H D C or ♠ ♥ ♦ ♣)."""
    assert parse_card(card).label == label


@pytest.mark.parametrize("card", ["", "4", "D", "1H", "11H", "0S", "4X", "ZZ", "JOKERS", "4DD",
                                  4, None])
def test_malformed_card_is_refused(cruiser, card):
    with pytest.raises(RuleViolation, match="is not a card"):
        allocate_energy(cruiser, card, DICE)


# -- refusals ------------------------------------------------------------------------

def test_card_of_a_locked_suit_is_refused_naming_the_critical(cruiser):
    """Seed: a critical hit takes away "the ability to do so" (play cards from a particular
    suit)."""
    mark_critical(cruiser, "D")
    with pytest.raises(RuleViolation) as exc:
        allocate_energy(cruiser, "4D", DICE, damage_control=True)
    assert "the ♦ critical hit is marked" in str(exc.value)
    assert "4♦" in str(exc.value)
    # Other suits still play.
    assert allocate_energy(cruiser, "4H", DICE).defense == 8


def test_joker_is_never_locked_out(cruiser):
    """Spec [house]: "Jokers are never locked out"."""
    for suit in "SHDC":
        mark_critical(cruiser, suit)
    assert allocate_energy(cruiser, "JOKER", DICE, damage_control=True).damage_control == 16


def test_nine_on_a_d8_is_refused(cruiser):
    with pytest.raises(RuleViolation, match=r"Drive rolls a d8 now: it shows 1 to 8, so 9"):
        allocate_energy(cruiser, "4D", [3, 9, 5])


def test_die_checked_against_the_current_die(cruiser):
    """Seed: each repaired box lets the player "roll one die type higher", so a marked box
    rolls one type lower: a d8 Drive with one mark rolls a d6, and 7 is impossible."""
    mark_system_box(cruiser, "Drive")
    with pytest.raises(RuleViolation, match=r"Drive rolls a d6 now: it shows 1 to 6, so 7"):
        allocate_energy(cruiser, "4D", [3, 7, 5])
    assert allocate_energy(cruiser, "4D", [3, 6, 5]).attack == 6


def test_zero_on_a_live_die_is_refused(cruiser):
    with pytest.raises(RuleViolation, match=r"Reactor rolls a d10 now: it shows 1 to 10, so 0"):
        allocate_energy(cruiser, "4D", [0, 8, 5])


def test_anything_but_zero_for_a_system_at_zero_is_refused(cruiser):
    for _ in range(3):
        mark_system_box(cruiser, "Fire Control")
    with pytest.raises(RuleViolation, match=r"Fire Control produces no energy .* not 1"):
        allocate_energy(cruiser, "4D", [3, 8, 1])


@pytest.mark.parametrize("dice", [[3, 8], [3, 8, 5, 1], "385", 385, [3, 8, 5.0], [3, True, 5]])
def test_dice_must_be_three_whole_numbers(cruiser, dice):
    with pytest.raises(RuleViolation):
        allocate_energy(cruiser, "4D", dice)


def test_joker_without_dc_and_without_assignment_is_refused(cruiser):
    with pytest.raises(RuleViolation, match="assign each of the three dice"):
        allocate_energy(cruiser, "JOKER", DICE)


@pytest.mark.parametrize("dc", ["damage control", "Damage_Control", "DC"])
def test_joker_assignment_using_damage_control_is_refused(cruiser, dc):
    """Spec [house]: the player assigns the Joker's dice, "Damage Control excluded"."""
    with pytest.raises(RuleViolation, match="Announce Damage Control"):
        allocate_energy(cruiser, "JOKER", DICE, joker_assignment=["attack", dc, "defense"])


@pytest.mark.parametrize("assignment", [["attack", "defense"], ["attack"] * 4, "attack",
                                        ["attack", "shields", "defense"]])
def test_joker_assignment_needs_one_action_per_die(cruiser, assignment):
    with pytest.raises(RuleViolation):
        allocate_energy(cruiser, "JOKER", DICE, joker_assignment=assignment)


def test_assignment_is_only_for_a_joker_without_damage_control(cruiser):
    with pytest.raises(RuleViolation, match="Only a Joker"):
        allocate_energy(cruiser, "4D", DICE, joker_assignment=["attack"] * 3)
    with pytest.raises(RuleViolation, match="nothing to assign"):
        allocate_energy(cruiser, "JOKER", DICE, damage_control=True,
                        joker_assignment=["attack"] * 3)


def test_a_refusal_changes_nothing(cruiser):
    mark_critical(cruiser, "H")
    before = copy.deepcopy(cruiser.state)
    for bad in (lambda: allocate_energy(cruiser, "4H", DICE),
                lambda: allocate_energy(cruiser, "4D", [11, 8, 5]),
                lambda: allocate_energy(cruiser, "JOKER", DICE)):
        with pytest.raises(RuleViolation):
            bad()
    assert cruiser.state == before


# -- committing ----------------------------------------------------------------------

def test_commit_stores_the_turns_energy_including_damage_control(cruiser):
    from shipsheet.rules.war_in_space import commit_allocation, committed_allocation
    allocation = allocate_energy(cruiser, "4D", DICE, damage_control=True)
    commit_allocation(cruiser, allocation)
    assert committed_allocation(cruiser) == alloc(damage_control=8, attack=5, defense=3)
    assert cruiser.state["energy"]["card"] == "4D"
    assert cruiser.state["energy"]["dice"] == DICE


def test_commit_refuses_an_allocation_that_does_not_follow_from_card_and_dice(cruiser):
    from shipsheet.rules.war_in_space import commit_allocation
    forged = EnergyAllocation(attack=16, card="4D", dice=tuple(DICE))
    with pytest.raises(RuleViolation, match="does not follow from the 4♦"):
        commit_allocation(cruiser, forged)
    with pytest.raises(RuleViolation, match="dice"):
        commit_allocation(cruiser, alloc(attack=5), card="4D")
    assert cruiser.state["energy"] is None


def test_commit_refuses_a_card_locked_since_the_allocation_was_worked_out(cruiser):
    from shipsheet.rules.war_in_space import commit_allocation
    allocation = allocate_energy(cruiser, "4D", DICE)
    mark_critical(cruiser, "D")
    with pytest.raises(RuleViolation, match="♦ critical hit is marked"):
        commit_allocation(cruiser, allocation)

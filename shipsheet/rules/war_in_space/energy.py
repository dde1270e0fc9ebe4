"""Energy Allocation: one card and the three system dice give each action its energy.

Seed: "If the Energy Allocation Card is an Ace through 10, then the highest die
score is allocated to the Damage Control Action, the next highest score to
the Primary Action Type, and the last die score to the Secondary action
type". Without Damage Control the same pattern moves up one slot [WIS-H5].
"""

from __future__ import annotations

from dataclasses import field
from ...model.code_cache import dataclass
from typing import Any, Sequence

from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from .damage import current_dice, current_die
from .definition import spec_of
from .terms import (ACTION_TITLES, DAMAGE_CONTROL, ENERGY_ACTIONS, SUIT_SYMBOLS, Card,
                    parse_action, parse_card)


@dataclass(frozen=True)
class EnergyAllocation:
    """Energy for each action this turn. Equality compares the four amounts only."""

    attack: int = 0
    defense: int = 0
    movement: int = 0
    damage_control: int = 0
    #: The card played, as stored ("4D", "JOKER"); "" when unknown.
    card: str = field(default="", compare=False)
    #: The three dice, in system order.
    dice: tuple[int, ...] = field(default=(), compare=False)
    damage_control_announced: bool = field(default=False, compare=False)
    joker_assignment: tuple[str, ...] = field(default=(), compare=False)

    @property
    def total(self) -> int:
        return self.attack + self.defense + self.movement + self.damage_control

    def amount(self, action: str) -> int:
        """Energy of ``action`` ("attack", "Damage Control", ...)."""
        return getattr(self, parse_action(action))

    def as_dict(self) -> dict[str, int]:
        return {a: getattr(self, a) for a in ENERGY_ACTIONS}

    def describe(self) -> str:
        """One line: "Attack 3, Defense 2, Movement 0, Damage Control 5"."""
        return ", ".join(f"{ACTION_TITLES[a]} {v}" for a, v in self.as_dict().items())


def check_card_playable(ship: Ship, card: object) -> Card:
    """The parsed card, refused if its suit is locked out by a critical hit.

    Seed: a repaired critical allows the ship "to once again play cards from a
    particular suit, having lost the ability to do so after taking damage".
    [WIS-H4] Jokers are never locked out.
    """
    card = parse_card(card)
    spec_of(ship)
    if not card.is_joker and ship.state["criticals"][card.suit]:
        sym = SUIT_SYMBOLS[card.suit]
        raise RuleViolation(
            f"{ship.name} cannot play the {card.label}: the {sym} critical hit is marked, "
            f"which locks {card.suit} out until it is repaired (8 Damage Control energy).")
    return card


def check_dice(ship: Ship, dice: object) -> tuple[int, ...]:
    """The three dice in system order, each possible on that system's current die.

    [product]: the player "rolls the ship's three system dice (each at its current
    die type; a system at "0" contributes a 0)".
    """
    systems = spec_of(ship).systems
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Sequence):
        raise RuleViolation(f"Give three dice, one per system ({_names(ship)}), not {dice!r}.")
    if len(dice) != len(systems):
        raise RuleViolation(f"Give three dice, one per system ({_names(ship)}); "
                            f"{len(dice)} given.")
    checked = []
    for i, (value, system) in enumerate(zip(dice, systems)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleViolation(f"The {system.name} die must be a whole number, not {value!r}.")
        sides = current_die(ship, i)
        if sides == 0:
            if value != 0:
                raise RuleViolation(
                    f"{system.name} produces no energy (all its boxes are marked): "
                    f"its die counts 0, not {value}.")
        elif not 1 <= value <= sides:
            raise RuleViolation(
                f"{system.name} rolls a d{sides} now: it shows 1 to {sides}, so {value} "
                f"is impossible.")
        checked.append(value)
    return tuple(checked)


def _names(ship: Ship) -> str:
    return ", ".join(s.name for s in spec_of(ship).systems)


def _check_joker_assignment(assignment: object) -> tuple[str, ...]:
    if assignment is None:
        raise RuleViolation(
            "A Joker without Damage Control lets you assign each of the three dice to Attack, "
            "Defense or Movement: give an action for each die.")
    if isinstance(assignment, str) or not isinstance(assignment, Sequence):
        raise RuleViolation("Give the Joker's assignment as three actions, one per die "
                            "(Attack, Defense or Movement).")
    if len(assignment) != 3:
        raise RuleViolation(f"A Joker's assignment needs an action for each of the three dice; "
                            f"{len(assignment)} given.")
    actions = tuple(parse_action(a) for a in assignment)
    if DAMAGE_CONTROL in actions:
        raise RuleViolation(
            "Without Damage Control announced, a Joker's dice go to Attack, Defense or Movement "
            "only. Announce Damage Control to put all three dice into it.")
    return actions


def allocate_energy(ship: Ship, card: object, dice: Sequence[int], *,
                    damage_control: bool = False,
                    joker_assignment: Sequence[str] | None = None) -> EnergyAllocation:
    """The energy each action gets from ``card`` and ``dice``. Pure: changes nothing.

    With Damage Control [seed]: A-10 highest -> DC, middle -> Primary, lowest ->
    Secondary; J/Q/K highest + middle -> DC, lowest -> Primary; Joker all -> DC.
    Without [WIS-H5]: A-10 highest/middle/lowest -> Primary/Secondary/Tertiary;
    J/Q/K highest + middle -> Primary, lowest -> Secondary; Joker as assigned.
    """
    card = check_card_playable(ship, card)
    values = check_dice(ship, dice)
    if not isinstance(damage_control, bool):
        raise RuleViolation(f"damage_control must be true or false, not {damage_control!r}.")
    if joker_assignment is not None and not (card.is_joker and not damage_control):
        if card.is_joker:
            raise RuleViolation("With Damage Control announced a Joker puts all three dice into "
                                "Damage Control; there is nothing to assign.")
        raise RuleViolation(f"Only a Joker lets you assign the dice yourself; the {card.label} "
                            f"follows the suit table.")
    # "Dice are ranked by value; ties do not matter."
    high, middle, low = sorted(values, reverse=True)
    amounts = dict.fromkeys(ENERGY_ACTIONS, 0)
    assignment: tuple[str, ...] = ()
    if card.is_joker:
        if damage_control:
            amounts[DAMAGE_CONTROL] = high + middle + low
        else:
            assignment = _check_joker_assignment(joker_assignment)
            for action, value in zip(assignment, values):
                amounts[action] += value
    else:
        row = spec_of(ship).suit(card.suit)
        if damage_control and card.is_face:
            amounts[DAMAGE_CONTROL] = high + middle
            amounts[row.primary] = low
        elif damage_control:
            amounts[DAMAGE_CONTROL] = high
            amounts[row.primary] = middle
            amounts[row.secondary] = low
        elif card.is_face:
            amounts[row.primary] = high + middle
            amounts[row.secondary] = low
        else:
            amounts[row.primary] = high
            amounts[row.secondary] = middle
            amounts[row.tertiary] = low
    return EnergyAllocation(**amounts, card=card.code, dice=values,
                            damage_control_announced=damage_control,
                            joker_assignment=assignment)


def roll_energy_dice(ship: Ship, rng: Any) -> tuple[int, ...]:
    """Roll each system's current die (a system at "0" gives 0 without a roll).

    [product]: "each at its current die type; a system at "0" contributes a 0".
    ``rng``: the session's dice (rolls are logged, typed-in values used first)
    or anything with ``randint(a, b)``.
    """
    values = []
    for i, system in enumerate(spec_of(ship).systems):
        sides = current_die(ship, i)
        if sides == 0:
            values.append(0)
        elif hasattr(rng, "roll"):
            values.append(rng.roll(sides, f"{ship.name} {system.name}"))
        else:
            values.append(rng.randint(1, sides))
    return tuple(values)


def roll_for_turn(ship: Ship, rng: Any) -> str:
    """Roll the energy dice for this turn and keep them until the allocation is committed.

    One roll per turn [WIS-H6]: undo it to roll again (the session's seeded dice
    then show the same values, so a roll cannot be fished for).
    """
    if ship.state.get("energy") is not None:
        raise RuleViolation(f"{ship.name} has already committed its energy this turn.")
    if ship.state.get("rolled") is not None:
        raise RuleViolation(f"{ship.name} has already rolled its energy dice this turn "
                            f"({ship.state['rolled']}).")
    values = roll_energy_dice(ship, rng)
    ship.state["rolled"] = list(values)
    return f"Energy dice: {list(values)}"


def rolled_dice(ship: Ship) -> tuple[int, ...] | None:
    """The energy dice rolled this turn and not yet committed, or None."""
    rolled = ship.state.get("rolled")
    return None if rolled is None else tuple(rolled)


def committed_allocation(ship: Ship) -> EnergyAllocation | None:
    """The allocation committed this turn, or None."""
    energy = ship.state.get("energy")
    if energy is None:
        return None
    return EnergyAllocation(
        **{a: energy[a] for a in ENERGY_ACTIONS}, card=energy["card"],
        dice=tuple(energy["dice"]), damage_control_announced=energy["damage_control_announced"])


def committed_sides(ship: Ship) -> tuple[int, ...] | None:
    """The die each of this turn's committed values was rolled on (None: nothing committed;
    a session saved before they were kept: the dice as they are now)."""
    energy = ship.state.get("energy")
    if energy is None:
        return None
    return tuple(energy.get("sides") or current_dice(ship))


def remaining_damage_control(ship: Ship) -> int:
    """Damage Control energy committed this turn and not yet spent on repairs (0 if none)."""
    energy = ship.state.get("energy")
    if energy is None:
        return 0
    return energy[DAMAGE_CONTROL] - energy["damage_control_spent"]


def commit_allocation(ship: Ship, allocation: EnergyAllocation, *, card: object = None) -> str:
    """Store ``allocation`` as this turn's energy (Damage Control energy included). Log line.

    The allocation is checked again against the ship as it is now (a critical
    marked since it was worked out refuses its card). [WIS-H6] One commit per
    turn: undo it, or end the turn, to commit another.
    """
    if not isinstance(allocation, EnergyAllocation):
        raise RuleViolation("Commit an EnergyAllocation worked out by allocate_energy.")
    if ship.state.get("energy") is not None:
        done = committed_allocation(ship)
        raise RuleViolation(f"{ship.name} has already committed its energy this turn "
                            f"({parse_card(done.card).label}); undo that to change it.")
    code = card if card is not None else allocation.card
    if not code:
        raise RuleViolation("Which card was played? Give the card with the allocation.")
    played = check_card_playable(ship, code)
    if allocation.card and parse_card(allocation.card) != played:
        raise RuleViolation(f"This allocation was worked out for the "
                            f"{parse_card(allocation.card).label}, not the {played.label}.")
    if not allocation.dice:
        raise RuleViolation("Give the three dice rolled with the allocation "
                            "(allocate_energy records them).")
    rolled = rolled_dice(ship)
    if rolled is not None and tuple(allocation.dice) != rolled:
        raise RuleViolation(f"{ship.name} rolled {list(rolled)} this turn; the allocation "
                            f"uses {list(allocation.dice)}.")
    again = allocate_energy(ship, played, allocation.dice,
                            damage_control=allocation.damage_control_announced,
                            joker_assignment=allocation.joker_assignment or None)
    if again != allocation:
        raise RuleViolation(f"This allocation ({allocation.describe()}) does not follow from "
                            f"the {played.label} and the dice {list(allocation.dice)}; "
                            f"the rules give {again.describe()}.")
    allocation = again
    ship.state["rolled"] = None
    ship.state["energy"] = {
        "card": played.code, "dice": list(allocation.dice),
        "damage_control_announced": allocation.damage_control_announced,
        **allocation.as_dict(), "damage_control_spent": 0,
        # The die each value was rolled on: a box marked later steps the system's die
        # down, but this turn's roll was made on the die it had then.
        "sides": list(current_dice(ship)),
    }
    dc = " with Damage Control" if allocation.damage_control_announced else ""
    return f"{played.label}{dc}, dice {list(allocation.dice)}: {allocation.describe()}"


def discard_energy(ship: Ship) -> str | None:
    """End of turn: the turn's energy and any repairs still planned are gone. Log line or None.

    [WIS-H7] "Energy not spent this turn is lost at end of turn."
    """
    energy = ship.state.get("energy")
    plan = ship.state.get("planned_repairs")
    rolled = ship.state.get("rolled")
    left = remaining_damage_control(ship)
    ship.state["energy"] = None
    ship.state["planned_repairs"] = None
    ship.state["rolled"] = None
    if energy is None and plan is None and rolled is None:
        return None
    parts = []
    if energy is not None:
        parts.append(f"this turn's energy is lost (house rule: unspent energy does not carry "
                     f"over); Damage Control left unspent: {left}")
    if plan is not None:
        parts.append("repairs still planned were not carried out")
    if rolled is not None:
        parts.append(f"the energy dice rolled {rolled} were never committed")
    return "End of turn: " + "; ".join(parts)

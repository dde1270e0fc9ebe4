"""Action builders: one user click = one ShipAction = one undo step, with its log lines."""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from shipsheet.model.actions import ShipAction
from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from .damage import correct_mark, mark_critical, mark_system_box, system_name
from .energy import (EnergyAllocation, allocate_energy, commit_allocation, roll_energy_dice,
                     roll_for_turn, rolled_dice)
from .game import COMBAT, DAMAGE_CONTROL_PHASE, ENERGY_ALLOCATION, PHASES
from .privacy import ENERGY, REPAIRS
from .repairs import (_repair_now, _schedule_repairs, cancel_planned_repairs, fit_planned,
                      repair_in_order_now, schedule_in_order,
                      check_damage_control_energy, plan_repairs)
from .terms import SUIT_SYMBOLS, parse_card, parse_suit


def _system_label(ship: Ship, system: object) -> str:
    # Builders never refuse: a bad argument is refused when the session applies the action.
    try:
        return system_name(ship, system)
    except RuleViolation:
        return str(system)


def _suit_label(suit: object) -> str:
    try:
        return SUIT_SYMBOLS[parse_suit(suit)]
    except RuleViolation:
        return str(suit)


def _card_label(card: object) -> str:
    try:
        return parse_card(card).label
    except RuleViolation:
        return str(card)


def _attacker_id(attacker: Ship | str | None) -> str | None:
    """The attacking ship's id (a ship or its id), or None when it is not known."""
    if attacker is None:
        return None
    return attacker if isinstance(attacker, str) else attacker.id


def _marked_by(attacker: Ship | str | None, mark):
    """The action's function: ``mark(ship)`` gives the log line, logged with the attacker
    as its ``by`` (checked to be another ship of the session) when one is named."""
    attacker_id = _attacker_id(attacker)

    def fn(s: Ship, ctx) -> None:
        by = None
        if attacker_id is not None:
            by = ctx.session.ship(attacker_id).id  # refuses a ship not in the session
            if by == s.id:
                raise RuleViolation(f"{s.name} cannot be its own attacker.")
        line = mark(s)
        if by is not None:  # a turn report reads every attack with who made it
            line += f" (attack by {ctx.session.ship(by).name})"
        ctx.log(line, by=by)

    return fn


def mark_system_box_action(ship: Ship, system: object, *,
                           attacker: Ship | str | None = None) -> ShipAction:
    """"Mark Drive box": the system's die steps one type down.

    ``attacker`` (a ship or its id; None: not known): the ship whose attack did it,
    recorded as the log line's ``by`` (a play-by-e-mail turn report gives each player the
    attacks their ships made or took). War In Space's combat is marked by hand, so this
    mark is its attack."""
    return ShipAction(f"Mark {_system_label(ship, system)} box", ship,
                      _marked_by(attacker, lambda s: mark_system_box(s, system)))


def mark_critical_action(ship: Ship, suit: object, *,
                         attacker: Ship | str | None = None) -> ShipAction:
    """"Mark ♦ critical": the suit is locked out. ``attacker``: as for
    :func:`mark_system_box_action`."""
    return ShipAction(f"Mark {_suit_label(suit)} critical", ship,
                      _marked_by(attacker, lambda s: mark_critical(s, suit)))


def correct_mark_action(ship: Ship, system: object = None, *, suit: object = None) -> ShipAction:
    """"Correct mark: Drive box": take back a mistaken mark, logged as a correction."""
    if suit is not None:
        what = f"{_suit_label(suit)} critical"
    elif system is not None:
        what = f"{_system_label(ship, system)} box"
    else:
        what = "mark"
    return ShipAction(f"Correct mark: {what}", ship,
                      lambda s, ctx: correct_mark(s, system, suit=suit))


def commit_energy_action(ship: Ship, card: object, dice: Sequence[int] | None = None, *,
                         damage_control: bool = False,
                         joker_assignment: Sequence[str] | None = None) -> ShipAction:
    """"Energy Allocation: 4♦": play the card, roll (or take the typed dice), commit.

    ``dice`` None takes the dice rolled this turn (:func:`roll_energy_action`),
    else rolls each system's current die with the session dice (logged;
    physical values queued with ``session.dice.type_in`` are used first).
    Allowed in the Energy Allocation phase only (turn sequence [WIS-H8]).
    """
    label = _card_label(card)
    dc = " with Damage Control" if damage_control else ""

    def fn(s: Ship, ctx) -> list[str]:
        _check_allocation_phase(ctx)
        values = dice
        if values is None:
            values = rolled_dice(s) or roll_energy_dice(s, ctx.dice)
        allocation = allocate_energy(s, card, values, damage_control=damage_control,
                                     joker_assignment=joker_assignment)
        _commit(s, ctx, allocation)
        return []

    return ShipAction(f"Energy Allocation: {label}{dc}", ship, fn, private=ENERGY)  # [WIS-H14]


def _commit(ship: Ship, ctx, allocation: EnergyAllocation) -> None:
    """Commit the allocation, then pay a priority list of repairs waiting for its Damage
    Control energy (what it does not pay is dropped: a line of the owner's repair plan)."""
    ctx.log(commit_allocation(ship, allocation))
    for line in fit_planned(ship):
        ctx.log(line, private=REPAIRS)


def commit_allocation_action(ship: Ship, allocation: EnergyAllocation) -> ShipAction:
    """"Energy Allocation: 4♦": commit an allocation worked out by allocate_energy."""
    label = _card_label(allocation.card) if getattr(allocation, "card", "") else "card"
    dc = " with Damage Control" if getattr(allocation, "damage_control_announced", False) else ""

    def fn(s: Ship, ctx) -> list[str]:
        _check_allocation_phase(ctx)
        _commit(s, ctx, allocation)
        return []

    return ShipAction(f"Energy Allocation: {label}{dc}", ship, fn, private=ENERGY)  # [WIS-H14]


def roll_energy_action(ship: Ship) -> ShipAction:
    """"Roll energy dice": each system's current die, with the session dice (logged)."""

    def fn(s: Ship, ctx) -> list[str]:
        _check_allocation_phase(ctx)
        return [roll_for_turn(s, ctx.dice)]

    return ShipAction("Roll energy dice", ship, fn, private=ENERGY)


def _check_allocation_phase(ctx) -> None:
    """[WIS-H8] Turn sequence: energy is allocated in the Energy Allocation phase only."""
    if ctx.session.phase != ENERGY_ALLOCATION:
        raise RuleViolation(f"Energy is allocated in the {ENERGY_ALLOCATION} phase; "
                            f"this is the {ctx.session.phase} phase.")


def plan_repairs_action(ship: Ship, boxes: Mapping[object, int] | None = None,
                        criticals: Iterable[object] | str | None = None) -> ShipAction:
    """"Plan repairs": against this turn's Damage Control energy.

    Seed: "Repairs do not take place until the Damage Control phase after
    movement". Planned before that phase, they wait for it; planned during it,
    they happen at once, after it they are refused [WIS-H9].
    """

    def fn(s: Ship, ctx) -> list[str]:
        phase = ctx.session.phase
        if phase == COMBAT or phase not in PHASES:
            raise RuleViolation(f"The {DAMAGE_CONTROL_PHASE} phase of this turn is over; "
                                f"repairs can be planned again next turn.")
        energy = check_damage_control_energy(s)
        plan = plan_repairs(s, energy, boxes=boxes, criticals=criticals)
        if phase == DAMAGE_CONTROL_PHASE:
            if plan.is_empty:
                raise RuleViolation("Nothing to repair was chosen.")
            return _repair_now(s, plan)
        return _schedule_repairs(s, plan)

    return ShipAction("Plan repairs", ship, fn, private=REPAIRS)


def plan_repairs_in_order_action(ship: Ship, items: Sequence[tuple[str, object]]) -> ShipAction:
    """"Plan repairs" as a priority list (a player's decision, from a phone or an orders
    file): each repair a system's box or a critical hit, paid in this order from the turn's
    Damage Control energy; what it does not pay is dropped and said — at once when the
    Energy Allocation is committed, else when it is (so the list may travel in the same
    orders file as the allocation that pays for it). During the Damage Control phase they
    happen at once; after it they are refused [WIS-H9]. A new list replaces the earlier
    [WIS-H15]."""
    wanted = list(items)

    def fn(s: Ship, ctx) -> list[str]:
        phase = ctx.session.phase
        if phase == COMBAT or phase not in PHASES:
            raise RuleViolation(f"The {DAMAGE_CONTROL_PHASE} phase of this turn is over; "
                                f"repairs can be planned again next turn.")
        if phase == DAMAGE_CONTROL_PHASE:
            return repair_in_order_now(s, wanted)
        return schedule_in_order(s, wanted)

    return ShipAction("Plan repairs", ship, fn, private=REPAIRS)


def cancel_repairs_action(ship: Ship) -> ShipAction:
    """"Cancel planned repairs"."""
    return ShipAction("Cancel planned repairs", ship, lambda s, ctx: cancel_planned_repairs(s),
                      private=REPAIRS)

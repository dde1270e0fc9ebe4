"""Damage Control repairs: 4 energy a system box, 8 a critical hit, never past undamaged.

Seed: "By spending 4 energy points a ship may repair one system box ... By
spending 8 energy points a ship may repair one critical hit ... There is no
limit to the amount of systems boxes and critical hits a ship may repair,
other than energy available. Ships may not "repair" themselves to perform at
higher than their original, undamaged capabilities!"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from .damage import current_die, die_label, system_index
from .definition import spec_of
from .energy import EnergyAllocation, remaining_damage_control
from .terms import SUIT_SYMBOLS, SUITS, parse_suit

#: Seed: "By spending 4 energy points a ship may repair one system box".
BOX_COST = 4
#: Seed: "By spending 8 energy points a ship may repair one critical hit".
CRITICAL_COST = 8


@dataclass(frozen=True)
class RepairPlan:
    """Repairs worked out against a Damage Control energy budget."""

    #: The Damage Control energy the plan was made against.
    energy: int
    #: Boxes to repair per system, in system order.
    boxes: tuple[int, ...]
    #: Suits whose critical hit is repaired, in table order.
    criticals: tuple[str, ...] = ()

    @property
    def cost(self) -> int:
        """4 per box, 8 per critical [seed]."""
        return BOX_COST * sum(self.boxes) + CRITICAL_COST * len(self.criticals)

    @property
    def remaining(self) -> int:
        """Energy of the budget the plan leaves unspent."""
        return self.energy - self.cost

    @property
    def is_empty(self) -> bool:
        return not any(self.boxes) and not self.criticals

    def describe(self, ship: Ship) -> list[str]:
        """One line per repair, for the log and the planner."""
        systems = spec_of(ship).systems
        lines = [f"{s.name}: {n} box{'es' if n > 1 else ''} ({BOX_COST * n} energy)"
                 for s, n in zip(systems, self.boxes) if n]
        lines += [f"{SUIT_SYMBOLS[s]} critical hit ({CRITICAL_COST} energy)" for s in self.criticals]
        return lines


def _budget(energy: object) -> int:
    if isinstance(energy, EnergyAllocation):
        return energy.damage_control
    if isinstance(energy, bool) or not isinstance(energy, int) or energy < 0:
        raise RuleViolation(f"The Damage Control energy must be a whole number of at least 0, "
                            f"not {energy!r}.")
    return energy


def _suits(criticals: object) -> list[str]:
    if criticals is None:
        return []
    if isinstance(criticals, str):
        criticals = [criticals]
    if not isinstance(criticals, Iterable):
        raise RuleViolation(f"Give the critical hits to repair as suits, not {criticals!r}.")
    suits: list[str] = []
    for c in criticals:
        suit = parse_suit(c)
        if suit in suits:
            raise RuleViolation(f"The {SUIT_SYMBOLS[suit]} critical hit is listed twice; "
                                f"it can be repaired only once.")
        suits.append(suit)
    return sorted(suits, key=SUITS.index)


def _check_damage(ship: Ship, boxes: Iterable[int], suits: Iterable[str]) -> None:
    """Refuse repairing what is not damaged (seed: never past undamaged capabilities)."""
    systems = spec_of(ship).systems
    for i, count in enumerate(boxes):
        marks = ship.state["marks"][i]
        name = systems[i].name
        if count and marks == 0:
            raise RuleViolation(f"{name} is not damaged: no box of it is marked, "
                                f"so there is nothing to repair.")
        if count > marks:
            raise RuleViolation(
                f"{name} has only {marks} marked box{'es' if marks > 1 else ''}: repairing "
                f"{count} would lift it above its undamaged d{systems[i].die}.")
    for suit in suits:
        if not ship.state["criticals"][suit]:
            raise RuleViolation(f"The {SUIT_SYMBOLS[suit]} critical hit is not marked, "
                                f"so there is nothing to repair.")


def _check_cost(cost: int, available: int, what: str = "Damage Control energy") -> None:
    """[product]: "Planning more than the energy available is refused, and says by how much"."""
    if cost > available:
        raise RuleViolation(f"These repairs cost {cost} energy but only {available} {what} "
                            f"is available: {cost - available} missing.")


def plan_repairs(ship: Ship, energy: int | EnergyAllocation, *,
                 boxes: Mapping[object, int] | None = None,
                 criticals: Iterable[object] | str | None = None) -> RepairPlan:
    """Work out repairs (``boxes``: {system: count}; ``criticals``: suits) within ``energy``.

    Pure: changes nothing. Seed: 4 energy a box, 8 a critical hit, "no limit
    ... other than energy available". Refuses repairs beyond the energy (saying
    how much is missing, spec) and repairs of anything not damaged (seed).
    """
    budget = _budget(energy)
    n = len(spec_of(ship).systems)
    counts = [0] * n
    if boxes is not None:
        if not isinstance(boxes, Mapping):
            raise RuleViolation(f"Give the boxes to repair as {{system: count}}, not {boxes!r}.")
        for system, count in boxes.items():
            i = system_index(ship, system)
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise RuleViolation(f"The number of {spec_of(ship).systems[i].name} boxes to "
                                    f"repair must be a whole number of at least 0, not {count!r}.")
            counts[i] += count
    suits = _suits(criticals)
    _check_damage(ship, counts, suits)
    plan = RepairPlan(budget, tuple(counts), tuple(suits))
    _check_cost(plan.cost, budget)
    return plan


def _check_plan_fits(ship: Ship, plan: RepairPlan) -> None:
    if not isinstance(plan, RepairPlan):
        raise RuleViolation("Apply a RepairPlan worked out by plan_repairs.")
    if len(plan.boxes) != len(spec_of(ship).systems):
        raise RuleViolation(f"This plan was not made for {ship.name}.")
    _check_damage(ship, plan.boxes, plan.criticals)


def _repair_now(ship: Ship, plan: RepairPlan) -> list[str]:
    """Carry out ``plan`` at once: erase the marks, unlock the suits. Returns log lines.

    Not public: it knows no phase. The public path is :func:`.actions.plan_repairs_action`
    (which checks the phase and the committed Damage Control energy) and the Damage
    Control phase itself (:func:`_carry_out_planned_repairs`); seed: "Repairs do not take
    place until the Damage Control phase after movement". The cost is paid from the
    Damage Control energy committed this turn (refused when it does not suffice).
    """
    _check_plan_fits(ship, plan)
    check_damage_control_energy(ship)
    energy = ship.state["energy"]
    _check_cost(plan.cost, remaining_damage_control(ship), "Damage Control energy left this turn")
    lines = []
    systems = spec_of(ship).systems
    for i, count in enumerate(plan.boxes):
        if count:
            before = current_die(ship, i)
            ship.state["marks"][i] -= count
            lines.append(f"{systems[i].name}: {count} box{'es' if count > 1 else ''} repaired "
                         f"({BOX_COST * count} energy); die {die_label(before)} -> "
                         f"{die_label(current_die(ship, i))}")
    for suit in plan.criticals:
        ship.state["criticals"][suit] = False
        lines.append(f"{SUIT_SYMBOLS[suit]} critical hit repaired ({CRITICAL_COST} energy): "
                     f"{suit} may be played again")
    energy["damage_control_spent"] += plan.cost
    lines.append(f"Damage Control energy spent: {plan.cost}; "
                 f"{remaining_damage_control(ship)} left this turn")
    return lines


# -- repairs planned for the Damage Control phase (kept in the ship's state) ------

def planned_repairs(ship: Ship) -> RepairPlan | None:
    """The repairs waiting for this turn's Damage Control phase, or None."""
    plan = ship.state.get("planned_repairs")
    if plan is None:
        return None
    return RepairPlan(remaining_damage_control(ship), tuple(plan["boxes"]),
                      tuple(plan["criticals"]))


def check_damage_control_energy(ship: Ship) -> int:
    """The Damage Control energy left this turn; refuses when there is none to plan with.

    Seed: repairs are paid by "spending" energy points, "other than energy
    available" nothing limits them; that energy is the Damage Control energy
    of the turn's Energy Allocation.
    """
    energy = ship.state.get("energy")
    if energy is None:
        raise RuleViolation(f"{ship.name} has not committed its Energy Allocation this turn: "
                            f"repairs are paid from its Damage Control energy.")
    if not energy["damage_control_announced"]:
        raise RuleViolation(f"{ship.name} did not announce Damage Control this turn, so it has "
                            f"no Damage Control energy for repairs.")
    return remaining_damage_control(ship)


def _schedule_repairs(ship: Ship, plan: RepairPlan) -> list[str]:
    """Keep ``plan`` for this turn's Damage Control phase (replacing any earlier plan).

    Seed: "Repairs do not take place until the Damage Control phase after
    movement". The plan must fit the Damage Control energy the ship committed
    this turn.
    """
    _check_plan_fits(ship, plan)
    available = check_damage_control_energy(ship)
    _check_cost(plan.cost, available)
    replaced = ship.state.get("planned_repairs") is not None
    if plan.is_empty:
        ship.state["planned_repairs"] = None
        return ["No repairs planned" + (" (the earlier plan is cancelled)" if replaced else "")]
    ship.state["planned_repairs"] = {"boxes": list(plan.boxes), "criticals": list(plan.criticals)}
    lines = plan.describe(ship)
    lines.append(f"Total {plan.cost} of {available} Damage Control energy; takes effect in the "
                 f"Damage Control phase" + ("; replaces the earlier plan" if replaced else ""))
    return lines


def cancel_planned_repairs(ship: Ship) -> str:
    """Drop the repairs planned for this turn."""
    if ship.state.get("planned_repairs") is None:
        raise RuleViolation(f"{ship.name} has no repairs planned.")
    ship.state["planned_repairs"] = None
    return "Planned repairs cancelled"


def _carry_out_planned_repairs(ship: Ship) -> list[str]:
    """The Damage Control phase: do the planned repairs that are still needed. Log lines.

    Not public: the session calls it when it enters the Damage Control phase
    (:meth:`.game.WarInSpaceRules.enter_phase`).

    [WIS-H9] A planned repair whose mark was corrected meanwhile is dropped (and
    its energy stays unspent); a plan the energy no longer covers is dropped whole.
    """
    plan = planned_repairs(ship)
    ship.state["planned_repairs"] = None
    if plan is None:
        return []
    lines = []
    boxes = list(plan.boxes)
    systems = spec_of(ship).systems
    for i, count in enumerate(boxes):
        marks = ship.state["marks"][i]
        if count > marks:
            lines.append(f"{systems[i].name}: only {marks} box{'es' if marks != 1 else ''} "
                         f"still marked; {count - marks} planned repair(s) dropped")
            boxes[i] = marks
    suits = []
    for suit in plan.criticals:
        if ship.state["criticals"][suit]:
            suits.append(suit)
        else:
            lines.append(f"{SUIT_SYMBOLS[suit]} critical hit no longer marked; its repair dropped")
    still = RepairPlan(plan.energy, tuple(boxes), tuple(suits))
    if still.is_empty:
        return lines
    try:
        lines += _repair_now(ship, still)
    except RuleViolation as exc:
        lines.append(f"Planned repairs not carried out: {exc}")
    return lines

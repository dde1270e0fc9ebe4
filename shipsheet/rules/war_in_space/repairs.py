"""Damage Control repairs: 4 energy a system box, 8 a critical hit, never past undamaged.

Seed: "By spending 4 energy points a ship may repair one system box ... By
spending 8 energy points a ship may repair one critical hit ... There is no
limit to the amount of systems boxes and critical hits a ship may repair,
other than energy available. Ships may not "repair" themselves to perform at
higher than their original, undamaged capabilities!"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from ...model.code_cache import dataclass

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


def damage_control_budget(ship: Ship, allocation: "EnergyAllocation") -> str:
    """The turn's Damage Control energy in the sheet's words — what it was, what was spent,
    what the plan would cost, what is left after it — for a ship whose allocation announced
    Damage Control. One text for the sheet and the phone's repair form (issue: the form
    said "left: 15" where the sheet said "left 3")."""
    left = remaining_damage_control(ship)
    plan = planned_repairs(ship)
    cost = plan.cost if plan else 0
    return (f"Damage Control energy: {allocation.damage_control} · spent "
            f"{allocation.damage_control - left} · planned {cost} · left {left - cost}")


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
    """Keep ``plan`` for this turn's Damage Control phase (replacing any earlier plan:
    house rule WIS-H15).

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


# -- a repair plan as a priority list (a player's decision from a phone or an orders file) --

#: One repair of a priority list: ("box", system index) or ("critical", suit).
Item = tuple[str, object]


def item_words(ship: Ship, item: Item) -> str:
    """``Reactor box`` or ``♦ critical hit``."""
    kind, key = item
    if kind == "box":
        return f"{spec_of(ship).systems[key].name} box"
    return f"{SUIT_SYMBOLS[key]} critical hit"


def item_cost(item: Item) -> int:
    return BOX_COST if item[0] == "box" else CRITICAL_COST


def check_items(ship: Ship, items: Iterable[Item]) -> list[Item]:
    """A priority list of repairs, checked: each a box of a damaged system (no more of a
    system than its marked boxes) or a marked critical hit (once) [seed: never past the
    undamaged capabilities]; refused in words otherwise."""
    out: list[Item] = []
    systems = spec_of(ship).systems
    for item in items:
        if not (isinstance(item, (tuple, list)) and len(item) == 2):
            raise RuleViolation(f"A repair is a system's box or a critical hit, not {item!r}.")
        kind, key = item
        if kind == "box":
            i = system_index(ship, key)
            wanted = sum(1 for k, v in out if k == "box" and v == i) + 1
            marks = ship.state["marks"][i]
            if wanted > marks:
                raise RuleViolation(
                    f"{systems[i].name} has {marks} marked box{'es' if marks != 1 else ''}: "
                    f"repairing {wanted} would lift it above its undamaged d{systems[i].die}.")
            out.append(("box", i))
        elif kind == "critical":
            suit = parse_suit(key)
            if not ship.state["criticals"][suit]:
                raise RuleViolation(f"The {SUIT_SYMBOLS[suit]} critical hit is not marked, so "
                                    f"there is nothing to repair.")
            if ("critical", suit) in out:
                raise RuleViolation(f"The {SUIT_SYMBOLS[suit]} critical hit is listed twice; "
                                    f"it can be repaired only once (house rule WIS-H16).")
            out.append(("critical", suit))
        else:
            raise RuleViolation(f"A repair is a system's box or a critical hit, not {kind!r}.")
    return out


def _budget_now(ship: Ship) -> int | None:
    """The Damage Control energy left to pay repairs with, or None before the Energy
    Allocation is committed (the list waits to be paid)."""
    energy = ship.state.get("energy")
    if energy is None:
        return None
    return remaining_damage_control(ship) if energy["damage_control_announced"] else 0


def fit(ship: Ship, items: list[Item], budget: int) -> tuple[list[Item], list[Item]]:
    """(the repairs paid, in order, the ones dropped): each taken while the energy left
    pays it, the rest dropped."""
    kept, dropped = [], []
    for item in items:
        if item_cost(item) <= budget:
            kept.append(item)
            budget -= item_cost(item)
        else:
            dropped.append(item)
    return kept, dropped


def _store(ship: Ship, items: list[Item]) -> None:
    n = len(spec_of(ship).systems)
    boxes = [sum(1 for k, v in items if k == "box" and v == i) for i in range(n)]
    suits = sorted((v for k, v in items if k == "critical"), key=SUITS.index)
    ship.state["planned_repairs"] = None if not items else {
        "boxes": boxes, "criticals": suits, "order": [list(i) for i in items]}


def _dropped_words(ship: Ship, dropped: list[Item], budget: int) -> str:
    why = ("Damage Control was not announced" if ship.state["energy"] is not None
           and not ship.state["energy"]["damage_control_announced"]
           else f"the Damage Control energy left ({budget}) does not pay for them")
    return f"Dropped: {', '.join(item_words(ship, i) for i in dropped)} ({why})"


def schedule_in_order(ship: Ship, items: Iterable[Item]) -> list[str]:
    """Keep a priority list of repairs for this turn's Damage Control phase (replacing any
    earlier plan: house rule WIS-H15). With the Energy Allocation committed, what its Damage
    Control energy does not pay, in the list's order, is dropped and said; before, the list
    waits, and is paid when the allocation is committed (:func:`fit_planned`)."""
    items = check_items(ship, items)
    replaced = ship.state.get("planned_repairs") is not None
    budget = _budget_now(ship)
    lines = []
    if budget is not None:
        items, dropped = fit(ship, items, budget)
        if dropped:
            lines.append(_dropped_words(ship, dropped, budget))
    _store(ship, items)
    if not items:
        return lines + ["No repairs planned" + (" (the earlier plan is cancelled)"
                                                 if replaced else "")]
    cost = sum(item_cost(i) for i in items)
    head = [f"{n}. {item_words(ship, i)} ({item_cost(i)} energy)" for n, i in enumerate(items, 1)]
    paid = (f"{cost} of {budget} Damage Control energy" if budget is not None else
            f"{cost} energy, paid in this order from the Damage Control energy once the "
            f"Energy Allocation is committed (what it does not pay is dropped then)")
    return head + lines + [f"Repairs in order of priority: {paid}; they take effect in the "
                           f"Damage Control phase" + ("; replaces the earlier plan"
                                                       if replaced else "")]


def fit_planned(ship: Ship) -> list[str]:
    """After the Energy Allocation is committed: a priority list waiting for it is paid in
    its order, and what the Damage Control energy does not pay is dropped (log lines)."""
    plan = ship.state.get("planned_repairs")
    budget = _budget_now(ship)
    if not (isinstance(plan, dict) and plan.get("order")) or budget is None:
        return []
    items = [tuple(i) for i in plan["order"]]
    kept, dropped = fit(ship, items, budget)
    if not dropped:
        return []
    _store(ship, kept)
    return [_dropped_words(ship, dropped, budget)]


def repair_in_order_now(ship: Ship, items: Iterable[Item]) -> list[str]:
    """During the Damage Control phase: a priority list paid and carried out at once, what
    does not fit dropped and said."""
    items = check_items(ship, items)
    budget = _budget_now(ship) or 0
    kept, dropped = fit(ship, items, budget)
    lines = [_dropped_words(ship, dropped, budget)] if dropped else []
    if not kept:
        raise RuleViolation("Nothing to repair fits the Damage Control energy left."
                            if dropped else "Nothing to repair was chosen.")
    n = len(spec_of(ship).systems)
    plan = RepairPlan(budget, tuple(sum(1 for k, v in kept if k == "box" and v == i)
                                    for i in range(n)),
                      tuple(sorted((v for k, v in kept if k == "critical"), key=SUITS.index)))
    return lines + _repair_now(ship, plan)


def planned_order(ship: Ship) -> list[Item]:
    """The repairs planned, in their order of priority (a plan without one: boxes in
    system order, then critical hits)."""
    plan = ship.state.get("planned_repairs")
    if not isinstance(plan, dict):
        return []
    if plan.get("order"):
        return [tuple(i) for i in plan["order"]]
    items: list[Item] = [("box", i) for i, n in enumerate(plan["boxes"]) for _ in range(n)]
    return items + [("critical", s) for s in plan["criticals"]]


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
    order = (ship.state.get("planned_repairs") or {}).get("order")
    plan = planned_repairs(ship)
    ship.state["planned_repairs"] = None
    if plan is None:
        return []
    if order:  # a priority list: each still needed, paid in its order while energy lasts
        still, lines = [], []
        for kind, key in order:
            if (kind == "box" and ship.state["marks"][key] - sum(
                    1 for k, v in still if k == "box" and v == key) > 0) or (
                    kind == "critical" and ship.state["criticals"][key]):
                still.append((kind, key))
            else:
                lines.append(f"{item_words(ship, (kind, key))} no longer damaged: its repair "
                             f"dropped")
        if not still:
            return lines
        try:
            return lines + repair_in_order_now(ship, still)
        except RuleViolation as exc:
            return lines + [f"Planned repairs not carried out: {exc}"]
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

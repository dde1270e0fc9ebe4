"""A ship's condition (crippled, destroyed, frame left) and the repair phase [FC]."""

from __future__ import annotations

from dataclasses import field
from ...model.code_cache import dataclass
from typing import TYPE_CHECKING, Iterable

from shipsheet.model.errors import RuleViolation

from .card import REPAIR_COSTS, FedComClass, card

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.ship import Ship


@dataclass(frozen=True)
class ShipStatus:
    """What the roster shows of a ship."""

    crippled: bool
    destroyed: bool
    frame_left: int
    frame: int
    boxes_destroyed: int       # non-shield boxes destroyed, frame included
    boxes_total: int           # non-shield boxes, frame included
    shields_left: tuple[int, ...]


def status(ship: "Ship") -> ShipStatus:
    """Crippled, destroyed and frame left [FC].

    [FC] "Crippled: internal damage to at least half of all non-shield boxes."
    [FC-H9] the frame boxes count among the non-shield boxes.
    [FC] "Destroyed: a frame hit when every frame box is already destroyed."
    """
    spec = card(ship)
    st = ship.state
    total = len(spec.boxes) + spec.frame
    lost = len(st["destroyed"]) + st["frame_hits"]
    return ShipStatus(
        crippled=2 * lost >= total,
        destroyed=bool(st["ship_destroyed"]),
        frame_left=spec.frame - st["frame_hits"],
        frame=spec.frame,
        boxes_destroyed=lost,
        boxes_total=total,
        shields_left=tuple(s - d for s, d in zip(spec.shields, st["shield_damage"])),
    )


def status_chips(ship: "Ship") -> list[str]:
    """Status words for the roster: "Destroyed", "Crippled", "Frame 2/6", "Shield #1 down"."""
    s = status(ship)
    if s.destroyed:
        return ["Destroyed"]
    chips = []
    if s.crippled:
        chips.append("Crippled")
    if s.frame_left < s.frame:
        chips.append(f"Frame {s.frame_left}/{s.frame}")
    spec = card(ship)
    for n, (left, size) in enumerate(zip(s.shields_left, spec.shields), start=1):
        if size and not left:
            chips.append(f"Shield #{n} down")
    if ship.state.get("orders"):
        chips.append("Standing orders")
    return chips


# -- repair [FC] ----------------------------------------------------------------------

def repair_cost(spec: FedComClass, box_id: str) -> int:
    """Repair points to repair one box [FC]: weapons 4, power (warp, impulse, reactor,
    battery) 3, ship systems 2, control 2, hull and cargo 1."""
    return REPAIR_COSTS[spec.category(spec.box_index[box_id].kind)]


@dataclass(frozen=True)
class RepairStep:
    """One box of a repair plan: its cost, what was paid toward it, whether it is repaired."""

    box: str
    cost: int                  # the box's full cost
    paid_before: int           # points carried from earlier turns toward this box
    paid: int                  # points paid this time
    done: bool                 # repaired

    @property
    def line(self) -> str:
        if self.done:
            carried = f", {self.paid_before} carried" if self.paid_before else ""
            return f"{self.box} repaired ({self.paid} of {self.cost} points{carried})"
        if self.paid:
            return (f"{self.box} under repair: {self.paid_before + self.paid} of {self.cost} "
                    f"points (carried to the next turn)")
        return f"{self.box} not reached: no repair points left"


@dataclass(frozen=True)
class RepairPlan:
    """What spending this turn's repair points on some boxes would do."""

    boxes: tuple[str, ...]
    available: int             # repair points left this turn before the plan
    steps: tuple[RepairStep, ...]
    under_repair: dict | None  # the box carrying points afterwards: {"box", "points"}
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def used(self) -> int:
        return sum(s.paid for s in self.steps)

    @property
    def repaired(self) -> list[str]:
        return [s.box for s in self.steps if s.done]

    def lines(self) -> list[str]:
        out = [s.line for s in self.steps]
        out.extend(self.notes)
        out.append(f"{self.used} of {self.available} repair points used")
        return out


def plan_repair(ship: "Ship", box_ids: Iterable[str]) -> RepairPlan:
    """Plan this turn's repairs, boxes in the order given [FC].

    The points are the damage control rating per turn, not reduced by damage,
    less what was spent this turn already. A box is repaired when its cost is
    paid; points short of a whole box go toward it and carry to the next turn
    ("points carry across turns only toward finishing the box under repair").
    [FC-H10] Starting another box under repair drops the earlier box's carried
    points; the frame is not repaired in the repair phase (no repair cost is given for it).
    """
    spec = card(ship)
    st = ship.state
    if isinstance(box_ids, str):
        box_ids = [box_ids]
    ids = list(box_ids)
    if st["ship_destroyed"]:
        raise RuleViolation(f"{ship.name} is destroyed; it cannot be repaired.")
    seen: set[str] = set()
    for box_id in ids:
        if box_id == "frame":
            raise RuleViolation("Frame boxes are not repaired in the repair phase.")
        if box_id not in spec.box_index:
            raise RuleViolation(f'There is no box "{box_id}" on this ship.')
        if box_id not in st["destroyed"]:
            raise RuleViolation(f"{box_id} is not destroyed; there is nothing to repair.")
        if box_id in seen:
            raise RuleViolation(f"{box_id} is listed twice.")
        seen.add(box_id)
    available = spec.damage_control - st["repair_spent"]
    carry = st["repair"]
    points = available
    steps = []
    under = dict(carry) if carry else None
    notes = []
    for box_id in ids:
        cost = repair_cost(spec, box_id)
        before = carry["points"] if carry and carry["box"] == box_id else 0
        need = cost - before
        if points >= need:
            steps.append(RepairStep(box_id, cost, before, need, True))
            points -= need
            if under and under["box"] == box_id:
                under = None
        elif points > 0:
            steps.append(RepairStep(box_id, cost, before, points, False))
            if under and under["box"] != box_id:
                notes.append(f"{under['box']}: its {under['points']} carried repair points "
                             f"are lost (another box is now under repair)")
            under = {"box": box_id, "points": before + points}
            points = 0
        else:
            steps.append(RepairStep(box_id, cost, before, 0, False))
    return RepairPlan(tuple(ids), available, tuple(steps), under, tuple(notes))


def apply_repair(ship: "Ship", plan: "RepairPlan | Iterable[str]") -> list[str]:
    """Carry out a repair plan (or plan and carry out repairs of these boxes); log lines."""
    if not isinstance(plan, RepairPlan):
        plan = plan_repair(ship, plan)
    fresh = plan_repair(ship, plan.boxes)
    if fresh != plan:
        raise RuleViolation("The ship changed since these repairs were planned; plan them again.")
    st = ship.state
    for box_id in plan.repaired:
        st["destroyed"].remove(box_id)
    st["repair"] = plan.under_repair
    st["repair_spent"] += plan.used
    return plan.lines()


__all__ = ["RepairPlan", "RepairStep", "ShipStatus", "apply_repair", "plan_repair",
           "repair_cost", "status", "status_chips"]


def damage_summary(ship: "Ship") -> list[str]:
    """The ship's damage in a few lines of plain text (a turn report's, under its status
    words): boxes and frame lost, shields left, the boxes destroyed, a repair under way."""
    st = status(ship)
    spec = card(ship)
    lines = [f"Internal: {st.boxes_destroyed} of {st.boxes_total} boxes lost, "
             f"frame {st.frame_left} of {st.frame} left"]
    shields = [f"#{n} {left}/{size}" for n, (left, size)
               in enumerate(zip(st.shields_left, spec.shields), start=1) if size]
    if shields:
        lines.append("Shields: " + ", ".join(shields))
    destroyed = list(ship.state.get("destroyed", ()))
    if destroyed:
        lines.append("Destroyed: " + ", ".join(destroyed))
    repair = ship.state.get("repair")
    if isinstance(repair, dict) and repair.get("box"):
        lines.append(f"Under repair: {repair['box']} ({repair.get('points', 0)} points carried)")
    return lines

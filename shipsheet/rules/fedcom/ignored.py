"""What of a ship's standing orders the rules would not apply, and why: the order checks a
play-by-e-mail player's ShipSheet runs before the orders file goes (``pbem/orders.py``, the
game's ``ignored_orders`` piece)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.errors import RuleViolation

from .card import card
from .chart import FRAME, session_chart
from .overrides import orders_of, resolve
from .state import frame_left

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship


def ignored_orders(session: "Session", ship: "Ship") -> list[str]:
    """[seed 8FC4] "If an order is vague or illegal, the moderator will fall back upon the
    default order of damage": ``overrides.resolve`` notes each such part. Besides: a box of
    a kind the session's chart never names is never hit by the DDAP [seed 8FC2: each point
    hits the kind its chart cell names, else the cell's alternate], so an order naming it
    does nothing; and frame orders are not applied when no frame box is left [FC-H6]."""
    orders = orders_of(ship)
    if not orders or ship.state.get("ship_destroyed"):
        return []
    spec = card(ship)
    notes = list(resolve(spec, ship.state["destroyed"], orders).notes)
    try:
        chart = session_chart(session.options)
    except RuleViolation as exc:
        return notes + [str(exc)]
    reached = {k for row in chart.rows for cell in row for k in (cell.primary, cell.alternate) if k}
    named = [*orders.first, *orders.last, *(i for ids in (orders.order or {}).values() for i in ids)]
    for box_id in dict.fromkeys(named):
        box = spec.box_index.get(box_id)
        if box is not None and box.kind not in reached and box_id not in ship.state["destroyed"]:
            notes.append(f'Order for "{box_id}" does nothing: the damage allocation chart '
                         f'"{chart.name}" never names {box.kind}, so the DDAP never reaches it.')
    for kind in orders.frame_instead_of_last:
        if kind in spec.by_kind and kind != FRAME and kind not in reached:
            notes.append(f'frame_instead_of_last: "{kind}" does nothing: the damage allocation '
                         f'chart "{chart.name}" never names {kind}.')
    if frame_left(ship) <= 0 and (orders.frame_instead_of_last or orders.frame_instead_of_skip):
        notes.append("Frame orders not applied: no frame box is left, so frame damage would "
                     "destroy the ship (house rule FC-H6).")
    return notes

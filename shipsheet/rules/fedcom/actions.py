"""Action builders: one user click = one action = one undo step, with log lines.

Each returns a :class:`shipsheet.model.ShipAction` / ``SessionAction`` whose
function calls a rule function of this package (which checks first, then
changes the ship) and returns the lines for the session log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from shipsheet.model.actions import SessionAction, ShipAction
from shipsheet.model.errors import RuleViolation

from . import state as _state
from .chart import Chart, chart_options, get_chart, session_chart
from .overrides import Overrides, cancel_copy_forward, copy_orders_forward, set_orders
from .privacy import ORDERS
from .status import apply_repair, plan_repair
from .volley import VolleyResult, allocate_volley, apply_volley, volley_number

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import ActionContext, Session
    from shipsheet.model.ship import Ship


def _name(ship: "Ship | str") -> str:
    return ship if isinstance(ship, str) else ship.name


def set_turn_state_action(ship: "Ship", box_id: str, state: str) -> ShipAction:
    """"Set ph-1 fired": a box's turn state this turn."""
    return ShipAction(f"Set {box_id} {state}", ship,
                      lambda s, ctx: _state.set_turn_state(s, box_id, state))


def set_drones_action(ship: "Ship", box_id: str, drones: int) -> ShipAction:
    return ShipAction(f"Set {box_id} to {drones} drones", ship,
                      lambda s, ctx: _state.set_drones(s, box_id, drones))


def set_occupant_action(ship: "Ship", box_id: str, occupant: str) -> ShipAction:
    return ShipAction(f"Set {box_id} occupant {occupant}", ship,
                      lambda s, ctx: _state.set_occupant(s, box_id, occupant))


def mark_box_action(ship: "Ship", box_id: str, destroyed: bool = True) -> ShipAction:
    """A referee's correction: mark a box destroyed or intact by hand."""
    verb = "Destroy" if destroyed else "Restore"
    return ShipAction(f"{verb} {box_id}", ship,
                      lambda s, ctx: _state.mark_box(s, box_id, destroyed))


def mark_frame_action(ship: "Ship", hits: int) -> ShipAction:
    return ShipAction(f"Set frame damage to {hits}", ship,
                      lambda s, ctx: _state.mark_frame(s, hits))


def mark_shield_action(ship: "Ship", shield: int, damage: int) -> ShipAction:
    return ShipAction(f"Set shield #{shield} damage to {damage}", ship,
                      lambda s, ctx: _state.mark_shield(s, shield, damage))


def set_orders_action(ship: "Ship", overrides: "Overrides | dict | None") -> ShipAction:
    """"Set standing orders" for this turn (they lapse at end of turn)."""
    return ShipAction("Set standing orders", ship, lambda s, ctx: set_orders(s, overrides),
                      private=ORDERS)  # [FC-H15] the owner's


def edit_orders_action(ship: "Ship", overrides: "Overrides", name: str) -> ShipAction:
    """Give the ship these standing orders, named for the undo menu ("Standing orders: …").

    While the orders are copied to the next turn, the copy follows the edit (or is dropped
    when no order is left), in the same undo step."""
    def fn(s, ctx):
        lines = set_orders(s, overrides)
        if s.state.get("next_orders") is not None:
            lines = list(lines or []) + (copy_orders_forward(s) if overrides else cancel_copy_forward(s))
        return lines

    return ShipAction(f"Standing orders: {name}", ship, fn, private=ORDERS)


def copy_orders_action(ship: "Ship") -> ShipAction:
    """"Copy orders to next turn"."""
    return ShipAction("Copy orders to next turn", ship, lambda s, ctx: copy_orders_forward(s),
                      private=ORDERS)


def cancel_copy_orders_action(ship: "Ship") -> ShipAction:
    return ShipAction("Let orders lapse at end of turn", ship,
                      lambda s, ctx: cancel_copy_forward(s), private=ORDERS)


def repair_action(ship: "Ship", box_ids: Iterable[str]) -> ShipAction:
    """"Repair photon-1, lab-2": spend this turn's repair points on the boxes, in order."""
    ids = [box_ids] if isinstance(box_ids, str) else list(box_ids)
    return ShipAction(f"Repair {', '.join(ids)}", ship,
                      lambda s, ctx: apply_repair(s, plan_repair(s, ids)))


def _attacker_id(attacker: "Ship | str | None") -> str | None:
    """The attacking ship's id (a ship or its id), or None when the attacker is not known."""
    if attacker is None:
        return None
    return attacker if isinstance(attacker, str) else attacker.id


def _check_attacker(ctx: "ActionContext", attacker_id: str | None, target: "Ship") -> str | None:
    """The attacker's id, checked to be another ship of the session (refused otherwise)."""
    if attacker_id is None:
        return None
    attacker = ctx.session.ship(attacker_id)  # refuses a ship not in the session
    if attacker.id == target.id:
        raise RuleViolation(f"{target.name} cannot fire a volley at itself.")
    return attacker.id


def volley_action(ship: "Ship", points: int, *, rolls: Iterable[int] | None = None,
                  shield: int | None = None, overrides: "Overrides | dict | None" = None,
                  chart: "Chart | str | None" = None,
                  attacker: "Ship | str | None" = None) -> ShipAction:
    """"Volley of 14 on shield #1": allocate and apply in one undo step.

    The chart is ``chart`` or else the session's choice; with no ``rolls`` the
    session's dice roll (logged); typed ``rolls`` too few are refused, never topped up. ``overrides`` None uses the ship's standing
    orders. One log line per point, then every order not applied and why.
    ``attacker`` (a ship or its id; None: not known): the ship that fired, recorded as
    the ``by`` of every line about the target (a play-by-e-mail turn report gives each
    player the volleys their ships fired or took).
    """
    rolls = None if rolls is None else list(rolls)
    where = f", shield #{shield}" if shield is not None else ", internal"
    attacker_id = _attacker_id(attacker)
    # The name says who fired when a ship is given (an id alone names no one until applied).
    source = "" if attacker is None or isinstance(attacker, str) else f" from {attacker.name}"

    def fn(s: "Ship", ctx: "ActionContext") -> None:
        by = _check_attacker(ctx, attacker_id, s)
        the_chart = chart if chart is not None else session_chart(ctx.session.options)
        result = allocate_volley(s, points, rolls=rolls, shield=shield, overrides=overrides,
                                 chart=the_chart, rng=ctx.dice)
        number = volley_number(ctx.session, s)  # this turn's volley against the ship
        apply_volley(s, result, number)
        for text, private, public in result.logged(number):
            ctx.log(text, by=by, private=private, public=public)

    return ShipAction(f"Volley of {points}{source} at {_name(ship)}{where}", ship, fn)


def preview_volley(session: "Session", ship: "Ship", points: int, *,
                   rolls: Iterable[int] | None = None, shield: int | None = None,
                   overrides: "Overrides | dict | None" = None,
                   chart: "Chart | str | None" = None,
                   attacker: "Ship | str | None" = None) -> VolleyResult:
    """What :func:`volley_action` would do now, changing nothing (not even the dice).

    The session dice are copied, so applying the volley right after rolls the
    same dice and gives the same result. Verifiable dice roll for a purpose (the action
    that rolls them): the copy stands for the volley this previews, ``attacker`` and all.
    """
    dice = session.dice.copy(volley_action(ship, points, rolls=rolls, shield=shield,
                                           overrides=overrides, chart=chart,
                                           attacker=attacker))
    the_chart = chart if chart is not None else session_chart(session.options)
    return allocate_volley(ship, points, rolls=rolls, shield=shield, overrides=overrides,
                           chart=the_chart, rng=dice)


def set_chart_action(chart: "Chart | str") -> SessionAction:
    """"Use chart …": the session's Damage Allocation Chart (a copy is kept in the session)."""
    the_chart = get_chart(chart) if isinstance(chart, str) else chart

    def fn(session: "Session", ctx: "ActionContext") -> None:
        session.options.update(chart_options(the_chart))
        ctx.log(f"Damage Allocation Chart: {the_chart.name} ({the_chart.id})")

    return SessionAction(f"Use chart {the_chart.name}", fn, ships=())


__all__ = ["cancel_copy_orders_action", "copy_orders_action", "mark_box_action",
           "mark_frame_action", "mark_shield_action", "preview_volley", "repair_action",
           "set_chart_action", "set_drones_action", "set_occupant_action", "set_orders_action",
           "set_turn_state_action", "volley_action"]

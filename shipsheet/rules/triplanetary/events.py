"""Events the seed names as outcomes: lost at the map edge, looted, captured.

[seed] "A ship whose drive reaches D6 or below may not be repaired; it will be lost when it
reaches the edge of the map." [seed] "A ship is considered "disabled" and
lootable/capturable only if it can neither maneuver nor fire." Each event is checked here
and made one undoable, logged action in :mod:`.actions`. What the texts leave out is our
reading, labelled: [TRI-H25] the referee may rule a ship lost whatever its drive, and a
lost ship is out of play; [TRI-H26] looting moves cargo, up to the looter's free hold;
[TRI-H27] a captured ship changes to its captor's side and keeps its damage.
"""

from __future__ import annotations

from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from .definitions import MAX_AMOUNT
from .state import MAX_SIDE_LENGTH
from .tracks import D6, _refuse_destroyed, status


def lose_at_map_edge(ship: Ship, *, referee: bool = False) -> str:
    """Mark the ship lost at the map edge. Allowed when its drive is at D6 or worse [seed],
    or by the referee's ruling [TRI-H25]; never for a fixed ship (the orbital base does not
    move). Returns what was done in words."""
    _refuse_destroyed(ship, "be lost at the map edge")
    spec = ship.ship_class.spec
    if spec.fixed:
        raise RuleViolation(f"{ship.name} is a {ship.ship_class.name}: it never moves, so it "
                            "cannot reach the map edge.")
    drive = status(ship).drive
    if drive < D6 and not referee:
        raise RuleViolation(
            f"A ship whose drive reaches D6 or below will be lost when it reaches the edge of "
            f"the map: {ship.name}'s drive is at D{drive}, so it can still be steered clear. "
            "The referee may rule it lost (house rule TRI-H25).")
    ship.state["lost"] = True
    if drive >= D6:
        return f"lost at the map edge (drive D{drive})"
    return f"lost at the map edge by the referee's ruling (drive D{drive}; house rule TRI-H25)"


def check_disabled(target: Ship, doing: str) -> None:
    """[seed] only a ship that "can neither maneuver nor fire" is lootable/capturable."""
    _refuse_destroyed(target, f"be {doing}")
    if not status(target).disabled:
        raise RuleViolation(f'A ship is "disabled" and lootable/capturable only if it can '
                            f"neither maneuver nor fire: {target.name} still can.")


def _check_other(actor: Ship, target: Ship, doing: str) -> None:
    if actor.id == target.id:
        raise RuleViolation(f"{actor.name} cannot {doing} itself.")
    _refuse_destroyed(actor, doing)
    if status(actor).disabled:
        raise RuleViolation(f"{actor.name} is disabled itself: it cannot {doing} another ship "
                            "(house rules TRI-H26, TRI-H27).")


def free_hold(ship: Ship) -> int | None:
    """Tons the ship can still take on (None: an unlimited hold)."""
    cap = ship.ship_class.spec.cargo
    if cap is None:
        return MAX_AMOUNT - int(ship.state.get("cargo", 0) or 0)
    return cap - int(ship.state.get("cargo", 0) or 0)


def loot(looter: Ship, target: Ship, tons: int) -> str:
    """Move ``tons`` of cargo from a disabled ``target`` to ``looter`` [seed] "lootable";
    [TRI-H26] up to the target's cargo and the looter's free hold. Returns words."""
    check_disabled(target, "looted")
    _check_other(looter, target, "loot")
    if isinstance(tons, bool) or not isinstance(tons, int) or tons < 1:
        raise RuleViolation(f"The cargo looted is a whole number of tons, at least 1, "
                            f"not {tons!r}.")
    carried = int(target.state.get("cargo", 0) or 0)
    if tons > carried:
        raise RuleViolation(f"{target.name} carries {carried} t: {tons} t cannot be looted.")
    room = free_hold(looter)
    if room is not None and tons > room:
        why = "has no hold" if looter.ship_class.spec.cargo == 0 else f"has room for {room} t"
        raise RuleViolation(f"{looter.name} {why}: it cannot take on {tons} t "
                            "(house rule TRI-H26).")
    target.state["cargo"] = carried - tons
    looter.state["cargo"] = int(looter.state.get("cargo", 0) or 0) + tons
    return f"{looter.name} loots {tons} t from {target.name}"


def capture(captor: Ship, target: Ship) -> str:
    """A disabled ``target`` joins ``captor``'s side [seed] "capturable"; [TRI-H27] it keeps
    its damage, and the side it came from is noted. Returns words."""
    check_disabled(target, "captured")
    _check_other(captor, target, "capture")
    side = captor.side or ""
    if not side:
        raise RuleViolation(f"{captor.name} has no side: give it a side first, so the captured "
                            "ship knows whose it becomes.")
    if side == (target.side or ""):
        raise RuleViolation(f"{target.name} is already on {side}'s side.")
    before = target.side or ""
    target.state["captured_from"] = before[:MAX_SIDE_LENGTH]
    target.side = side
    return (f"{target.name} captured by {captor.name}: now on {side}'s side"
            + (f" (was {before})" if before else ""))


__all__ = ["capture", "check_disabled", "free_hold", "lose_at_map_edge", "loot"]

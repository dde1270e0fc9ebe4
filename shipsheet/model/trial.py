"""Would the rules refuse this, and why? Asked before a click, of a throwaway copy.

A panel greys out a button and a sheet marks a box *before* the user presses it, with
the rule's own words. The answer must come from the rules, not from the Qt layer, so the
change is tried on a copy (of the ship, or of the whole session: same turn, phase, dice
position, options and ships) and the refusal message, if any, is returned. The real
ship and session are never touched. Every caller asks here: the sheets, the panels, the
dialogs, and a rule that previews what an attack would do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping

from .errors import RuleViolation
from .ship import Ship, clone

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .session import Session


def trial_ship(ship: Ship, state: dict | None = None) -> Ship:
    """A throwaway copy of ``ship`` (same id, name, side and class; its state or ``state``)."""
    return Ship(ship.name, ship.ship_class, clone(ship.state if state is None else state),
                ship.side, ship.id)


def trial_session(session: "Session", copied: "Mapping[str, Ship] | None" = None) -> "Session":
    """A throwaway copy of ``session``: same turn, phase, options, dice and ships.
    ``copied``: ship id -> a copy of that ship made earlier and still as the ship is, used
    instead of copying it again (Table Link's snapshots copy only the ships that changed)."""
    from .session import Session
    copy = Session(session.game, name=session.name)
    copy.dice = session.dice.copy()
    copy.turn = session.turn
    copy.phase = session.phase
    copy.options = clone(session.options)
    kept = copied or {}
    copy.ships.extend(kept.get(s.id) or trial_ship(s) for s in session.ships)
    return copy


def refusal(session: "Session | None", action: "Action") -> str | None:
    """The rule's message if ``action`` would be refused now, else None."""
    if session is None:
        return "No session is open."
    try:
        trial_session(session).apply(action)
    except RuleViolation as exc:
        return str(exc)
    return None


def ship_refusal(ship: Ship, rule: Callable[[Ship], object]) -> str | None:
    """Why the rules refuse ``rule(ship)`` now (tried on a copy of the ship), or None."""
    try:
        rule(trial_ship(ship))
    except RuleViolation as exc:
        return str(exc)
    return None


__all__ = ["refusal", "ship_refusal", "trial_session", "trial_ship"]

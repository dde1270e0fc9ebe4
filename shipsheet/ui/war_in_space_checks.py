"""Ask the rules, before a click, whether a War In Space action would be refused.

The panel greys out a button and says why *before* the user presses it. The
answer must come from the rules, not from the Qt layer, so the action is
tried on a scratch copy of the session (same turn, phase, dice position and
ships) and the rule's refusal message, if any, is returned. The real session
is never touched.
"""

from __future__ import annotations

from ..model import Action, RuleViolation, Session
from ..model.ship import Ship, clone


def scratch_copy(session: Session) -> Session:
    """A throw-away copy of ``session``: same turn, phase, options, dice and ships."""
    scratch = Session(session.game, name=session.name)
    scratch.dice = session.dice.copy()
    scratch.turn = session.turn
    scratch.phase = session.phase
    scratch.options = clone(session.options)
    scratch.ships.extend(Ship(s.name, s.ship_class, clone(s.state), s.side, s.id)
                         for s in session.ships)
    return scratch


def refusal(session: Session | None, action: Action) -> str | None:
    """The rule's message if ``action`` would be refused now, else None."""
    if session is None:
        return "No session is open."
    try:
        scratch_copy(session).apply(action)
    except RuleViolation as exc:
        return str(exc)
    return None

"""The moderator's deadline for a turn's orders, said in each player's turn report.

The moderator sets it for the session's turn, in his own words ("Sunday 8 Dec, 20:00 UTC"):
ShipSheet enforces no clock (an orders file's arrival time is the mail's, not ours to
trust), it tells the players by when the moderator wants their orders. A deadline belongs
to one turn: when the turn closes it lapses, and the next turn has none until one is set.
Plain text, at most :data:`LIMIT` characters, no control character; set or cleared as one
undo step (``set_deadline_action``). Stored as ``pbem["deadline"] = {"turn", "when"}``.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from shipsheet.model.actions import SessionAction
from shipsheet.model.errors import RuleViolation

from . import record

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Action
    from shipsheet.model.session import ActionContext, Session

#: The longest deadline, in characters.
LIMIT = 60


def deadline(session: "Session") -> str | None:
    """The deadline for the session's turn's orders, as the moderator wrote it; None when
    none is set for this turn (or the record is damaged)."""
    found = session.pbem.get("deadline")
    if not isinstance(found, dict) or found.get("turn") != session.turn:
        return None
    when = found.get("when")
    if not isinstance(when, str) or not when or len(when) > LIMIT or not _plain(when):
        return None
    return when


def _plain(text: str) -> bool:
    return not any(unicodedata.category(ch).startswith("C") for ch in text)


def check_deadline(when: object) -> str:
    """``when`` as a deadline: plain text of 1 to :data:`LIMIT` characters (spaces at the
    ends dropped); RuleViolation otherwise."""
    if not isinstance(when, str):
        raise RuleViolation("A deadline is text, such as \"Sunday 8 Dec, 20:00 UTC\".")
    when = " ".join(when.split())
    if not when:
        raise RuleViolation("Say the deadline, such as \"Sunday 8 Dec, 20:00 UTC\".")
    if len(when) > LIMIT:
        raise RuleViolation(f"A deadline is at most {LIMIT} characters.")
    if not _plain(when):
        raise RuleViolation("A deadline is plain text: no control or format characters.")
    return when


def set_deadline_action(session: "Session", when: str | None) -> "Action":
    """Set (or, with None, clear) the deadline for the session's turn's orders: one undo
    step, logged. Refused in a player file (the moderator sets it) and in a session not
    played by e-mail."""
    text = None if when is None else check_deadline(when)

    def fn(s: "Session", ctx: "ActionContext") -> None:
        if not record.is_moderator(s):
            raise RuleViolation("Only the moderator's session sets a deadline: set up the "
                                "players first." if not record.is_player_file(s) else
                                "This is a player file: the moderator sets the deadline.")
        if text is None:
            if deadline(s) is None:
                raise RuleViolation(f"Turn {s.turn} has no deadline to clear.")
            s.pbem.pop("deadline", None)
            ctx.log(f"Turn {s.turn}'s orders: no deadline")
            return
        if deadline(s) == text:
            raise RuleViolation(f"Turn {s.turn}'s orders are due by {text} already.")
        s.pbem["deadline"] = {"turn": s.turn, "when": text}
        ctx.log(f"Turn {s.turn}'s orders are due by {text}")

    return SessionAction("Clear the deadline" if text is None else "Set the deadline", fn,
                         ships=())


__all__ = ["LIMIT", "check_deadline", "deadline", "set_deadline_action"]

"""What is private: per game, what of a ship only its owner (and the referee or moderator)
may see, and when the rules make it public — one definition that every boundary applies.

Three features show a ship to people who do not own it: the play-by-e-mail desk's player
files and turn reports (``pbem/``), and Table Link's seats (``share/``). Each asks here,
never decides for itself:

- :func:`public_state` — a ship's state as someone who is not its owner sees it now: the
  game's private fields (:meth:`GamePrivacy.hidden`) replaced by what others see instead;
- :func:`seen_text` — a log line as a viewer reads it: the whole line for the ship's owner
  and the referee; for anyone else, a line about a private decision
  (``LogEntry.private``, marked when it was logged) reads as its public wording
  (``LogEntry.public``, None: not at all) until the game says that kind is public now
  (:meth:`GamePrivacy.revealed`).

Each game's entry names its :class:`GamePrivacy` (the ``privacy`` piece, ``model/games.py``).
Lines are marked when they are logged: a change that is a private decision says so
(``Action.private``) and every line it logs is private; a public change whose line tells
of a private decision logs it with a public wording (``ActionContext.log(private=...,
public=...)``). Logs saved before lines were marked are marked as they load
(:func:`mark_old_log`, by the game's :meth:`GamePrivacy.classify`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .games import piece
from .ship import clone

if TYPE_CHECKING:  # pragma: no cover
    from .log import LogEntry
    from .session import Session
    from .ship import Ship


class GamePrivacy:
    """One game's definition of what is private (subclass per game). By default nothing is:
    a game with no hidden decisions shows everything to everyone."""

    #: The kinds of private decisions (``LogEntry.private``), each with what it is, in words.
    kinds: dict[str, str] = {}

    def hidden(self, session: "Session | None", ship: "Ship") -> dict[str, Any]:
        """The fields of ``ship``'s state that others may not see now: state key -> the
        value they see instead (a valid value of the field: "none given")."""
        return {}

    def revealed(self, session: "Session | None", entry: "LogEntry") -> bool:
        """Whether a private line (``entry.private`` one of :attr:`kinds`) is public now.
        By default never."""
        return False

    def classify(self, entry: "LogEntry", headline: "LogEntry | None") -> tuple[str | None, str | None]:
        """For a log saved before lines were marked: (the kind of private decision the line
        tells of, or None; its public wording, or None). ``headline``: the first line of the
        change it belongs to."""
        return None, None


def privacy_of(game: str) -> GamePrivacy:
    """The game's definition (its ``privacy`` piece)."""
    return piece(game, "privacy")


def public_state(session: "Session | None", ship: "Ship") -> dict:
    """A copy of ``ship``'s state as those who do not own it see it now."""
    state = clone(ship.state)
    for key, value in privacy_of(ship.game).hidden(session, ship).items():
        if key in state:
            state[key] = clone(value)
    return state


def seen_text(session: "Session | None", entry: "LogEntry", *, owner: bool) -> str | None:
    """The line as a viewer reads it: ``owner`` — the viewer is the ship's owner (or the
    referee, who sees everything): the whole line; else its public wording, or None (not
    shown), until the game makes that kind public."""
    if owner or entry.private is None:
        return entry.text
    game = session.game if session is not None else None
    if game is not None and privacy_of(game).revealed(session, entry):
        return entry.text
    return entry.public


def mark_old_log(session: "Session") -> int:
    """Mark the lines of a log saved before lines were marked (``classify``); the count."""
    privacy = privacy_of(session.game)
    heads: dict[int, "LogEntry"] = {}
    marked = 0
    for entry in session.log:
        if entry.action and entry.action not in heads and entry.kind == "action":
            heads[entry.action] = entry
        if entry.private is not None:
            continue
        kind, public = privacy.classify(entry, heads.get(entry.action))
        if kind:
            entry.private, entry.public = kind, public
            marked += 1
    return marked


__all__ = ["GamePrivacy", "mark_old_log", "privacy_of", "public_state", "seen_text"]

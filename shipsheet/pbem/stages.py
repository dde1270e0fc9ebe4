"""A turn's stages, read: where each turn of a session by e-mail with verifiable dice stands
(``pbem/turns.py`` moves them on; SECURITY.md, "Play by e-mail: the threat model").

- **orders open**: orders files arrive and are queued (``pbem/inbox.py``); no die of the
  turn rolls;
- **orders closed** (``model.dice`` "orders-closed"): the set of contributions to the
  turn's dice is fixed and the orders applied; the moderator resolves the turn (its rolls);
- **closed**: the turn's transcript is fixed and its seed may leave the desk.

A turn the session has passed is closed. A session begun with ``turn-hmac-v1`` (before
stages) is said so per turn (:func:`scheme_of`).
"""

from __future__ import annotations

from ..model.code_cache import dataclass
from typing import TYPE_CHECKING, Any

from shipsheet.model.actions import SessionAction
from shipsheet.model.dice import (CLOSED, CLOSING, OPEN, ORDERS_CLOSED, TURN_HMAC, TURN_SET,
                                  dice_record, is_turn_key, turn_entry, turn_scheme, turn_stage)
from shipsheet.model.errors import RuleViolation

from . import ledger, record

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Apply
    from shipsheet.model.session import ActionContext, Change, Session

#: The stages as the desk words them.
WORDS = {OPEN: "orders open", ORDERS_CLOSED: "orders closed: resolving",
         CLOSING: "closing", CLOSED: "closed"}


def staged(session: "Session") -> bool:
    """Whether the session's turns have stages: a moderator's session with verifiable dice."""
    return dice_record(session.pbem) is not None


def record_of(session: "Session") -> dict:
    found = dice_record(session.pbem)
    if found is None:
        raise RuleViolation("This session's dice are not verifiable, so its turns have no "
                            "stages: each orders file is applied when it is imported, and "
                            "the turn ends with Next Turn.")
    return found


def stage(session: "Session", turn: int | None = None) -> str | None:
    """The stage of ``turn`` (the session's turn): "open", "orders-closed", "closing" or
    "closed"; a turn the session has passed is closed. None without stages."""
    found = dice_record(session.pbem)
    if found is None:
        return None
    turn = session.turn if turn is None else turn
    if turn < session.turn:
        return CLOSED
    return turn_stage(found, turn)


def scheme_of(session: "Session", turn: int) -> str | None:
    """The verifiable scheme of ``turn`` ("turn-hmac-v1" or "turn-set-v2"), None without."""
    found = dice_record(session.pbem)
    return None if found is None else turn_scheme(found, turn)


def can_close_turn(session: "Session") -> bool:
    """Whether Close Turn may be asked for the session's turn now: its orders are closed, or
    it is a turn begun before stages (``turn-hmac-v1``: its orders were applied as they
    came) whose orders are still open."""
    now = stage(session)
    return now == ORDERS_CLOSED or (now == OPEN and scheme_of(session, session.turn) != TURN_SET)


@dataclass(frozen=True)
class TurnInfo:
    """What the record says of one turn with stages."""

    turn: int
    stage: str
    scheme: str
    contributions: tuple[tuple[str, str], ...] = ()
    missing: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    unsigned: tuple[str, ...] = ()
    first: int | None = None
    transcript: dict | None = None


def _names(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def info(session: "Session", turn: int | None = None) -> TurnInfo:
    """The record of ``turn`` (the session's turn), read and checked loosely: what cannot be
    read is left out (``pbem/verify.py`` says what is damaged)."""
    found = record_of(session)
    turn = session.turn if turn is None else turn
    entry = turn_entry(found, turn)
    raw = entry.get("set")
    contributions = tuple((c[0], c[1]) for c in raw if isinstance(c, list) and len(c) == 2
                          and all(isinstance(v, str) for v in c)) if isinstance(raw, list) else ()
    first = entry.get("first")
    transcript = entry.get("transcript")
    return TurnInfo(turn, stage(session, turn) or OPEN, turn_scheme(found, turn), contributions,
                    _names(entry.get("missing")), _names(entry.get("excluded")),
                    _names(entry.get("unsigned")),
                    first if isinstance(first, int) and not isinstance(first, bool) else None,
                    transcript if isinstance(transcript, dict) else None)


@dataclass(frozen=True)
class Mix:
    """Who adds to a turn's dice: the set ([player, contribution] sorted by name), the
    players whose files carry none (not joined yet: unsigned orders), those from whom no
    file came, and those left out (the moderator's own player)."""

    chosen: list[list[str]]
    unsigned: list[str]
    missing: list[str]
    excluded: list[str]


def contributions(session: "Session", turn: int) -> Mix:
    """Who adds to ``turn``'s dice, from the ledger as it stands: every authentic file for
    the turn that came before its orders closed counts, refused ones too."""
    excluded = record.moderator_plays(session)
    given: dict[str, str] = {}
    sent: set[str] = set()
    for item in ledger.files(session, ledger.ORDERS, turn):
        if item.status == "late":
            continue
        sent.add(item.player)
        if item.contribution and item.player not in given:
            given[item.player] = item.contribution
    everyone = [p.name for p in record.players(session) if p.name != excluded]
    return Mix(sorted([n, c] for n, c in given.items() if n in everyone),
               [n for n in everyone if n in sent and n not in given],
               [n for n in everyone if n not in sent], [excluded] if excluded else [])


def mix_words(chosen, unsigned, missing, excluded) -> str:
    """Who added to a turn's dice, in words (the desk's log, reports, verify)."""
    names = ", ".join(c[0] for c in chosen)
    out = f"the contributions of {names} mixed in" if names else \
        "no player's contribution mixed in (the committed seed alone)"
    if unsigned:
        out += f"; {', '.join(unsigned)} sent unsigned orders (not joined: adds nothing)"
    if missing:
        out += f"; no orders came from {', '.join(missing)}"
    if excluded:
        out += f"; {', '.join(excluded)} is the moderator's own player (adds nothing)"
    return out


# -- the seed leaves the desk -----------------------------------------------------------------

def closed_turns(session: "Session") -> list[int]:
    """The turns whose stage is closed (their seeds may be revealed)."""
    found = dice_record(session.pbem)
    if found is None:
        return []
    turns = found.get("turns")
    out = []
    if isinstance(turns, dict):
        for key in turns:
            if is_turn_key(key) and stage(session, int(key)) == CLOSED:
                out.append(int(key))
    return sorted(out)


def revealable(session: "Session") -> list[int]:
    """The turns whose seed a file for others may hold: closed turns, and the turns played
    before stages (``turn-hmac-v1`` turns the session has passed)."""
    found = dice_record(session.pbem)
    if found is None:
        return []
    seeds = found.get("seeds") if isinstance(found.get("seeds"), dict) else {}
    old = [int(t) for t in seeds if is_turn_key(t)
           and int(t) < session.turn and turn_scheme(found, int(t)) == TURN_HMAC]
    return sorted(set(closed_turns(session)) | set(old))


def reveal_action(session: "Session", by: str) -> SessionAction | None:
    """The ledger's mark that the seeds of the revealable turns leave the desk now (``by``:
    how, e.g. "turn reports"), for those not marked yet; None when there are none. From then
    on no orders for those turns are taken, whatever is undone."""
    fresh = [t for t in revealable(session) if t not in ledger.revealed(session)]
    if not fresh:
        return None

    def fn(s: "Session", ctx: "ActionContext") -> None:
        for turn in fresh:
            if turn not in ledger.revealed(s):
                ledger.add_mark(s, ledger.REVEALED, turn, by=by)
        ctx.log(f"Dice: the seed of turn {', '.join(map(str, fresh))} revealed ({by})")

    return SessionAction(f"Seed of turn {', '.join(map(str, fresh))} revealed", fn, ships=())


def mark_revealed(session: "Session", by: str, apply: "Apply | None" = None) -> "Change | None":
    """Mark the closed turns' seeds revealed by ``by`` (one step, applied with ``apply``:
    ``session.apply`` when None), if any was not yet."""
    action = reveal_action(session, by)
    return None if action is None else (apply or session.apply)(action)


__all__ = ["CLOSED", "Mix", "OPEN", "ORDERS_CLOSED", "TurnInfo", "WORDS", "can_close_turn",
           "closed_turns", "contributions", "info", "mark_revealed", "mix_words", "reveal_action",
           "revealable", "scheme_of", "stage", "staged"]

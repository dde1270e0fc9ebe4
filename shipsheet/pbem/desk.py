"""The turn desk: per player, where this turn's orders are (missing, queued, arrived,
applied or refused), from the moderator's record (``session.pbem["orders"]``, DESK.md),
and the turn's stage (``pbem/turns.py``)."""

from __future__ import annotations

from ..model.code_cache import dataclass

from shipsheet.model.errors import RuleViolation
from shipsheet.model.session import Session

from . import record
from .record import APPLIED, ARRIVED, QUEUED, REFUSED

MISSING = "missing"
#: Every status a row may have.
STATUSES = (MISSING, QUEUED, ARRIVED, APPLIED, REFUSED)


@dataclass(frozen=True)
class DeskRow:
    """One player's orders for the turn: ``status`` (missing, arrived, applied, refused),
    the number of the last file received (None when missing), why (a refusal's reason, a
    held correction), and the numbers applied this turn."""

    player: str
    status: str
    seq: int | None = None
    reason: str = ""
    applied: tuple[int, ...] = ()

    def line(self) -> str:
        if self.status == MISSING:
            return f"{self.player}: missing"
        text = f"{self.player}: {self.status} (number {self.seq})"
        if self.status == ARRIVED and self.applied:
            text += f"; number {self.applied[-1]} applied"
        return text + (f": {self.reason}" if self.reason and self.status != APPLIED else "")


def turn_desk(session: Session, turn: int | None = None) -> list[DeskRow]:
    """One row per player, in the record's order, for ``turn`` (the session's turn)."""
    if not record.is_moderator(session):
        raise RuleViolation("This session has no play-by-e-mail players (a turn desk is the "
                            "moderator's).")
    turn = session.turn if turn is None else turn
    rows = []
    for player in record.players(session):
        entry = record.orders_entry(session, player.name, turn)
        if entry is None:
            rows.append(DeskRow(player.name, MISSING))
        else:
            rows.append(DeskRow(player.name, entry.status, entry.seq, entry.reason, entry.applied))
    return rows


def stage_line(session: Session, turn: int | None = None,
               rows: list[DeskRow] | None = None) -> str:
    """The turn's stage in words, and what comes next ("" for a session without stages).
    ``rows``: the turn's :func:`turn_desk`, when the caller has it already."""
    from shipsheet.model.dice import TURN_SET

    from . import stages
    now = stages.stage(session, turn)
    if now is None:
        return ""
    turn = session.turn if turn is None else turn
    about = stages.info(session, turn)
    if about.scheme != TURN_SET and now != stages.CLOSED:
        return ("begun before turns had stages (turn-hmac-v1): orders applied as they "
                "come; next: Close Turn, from which the dice are turn-set-v2")
    if now == stages.OPEN:
        rows = turn_desk(session, turn) if rows is None else rows
        queued = sum(1 for r in rows if r.status == QUEUED)
        return (f"orders open ({queued} queued); next: Close Orders, which fixes the dice's "
                f"contributions and applies the orders")
    if now == stages.ORDERS_CLOSED:
        rolled = session.dice.count - about.first if about.first is not None else 0
        return (f"orders closed, resolving ({rolled} roll(s) so far); next: Close Turn, which "
                f"fixes the rolls and reveals the seed")
    fixed = about.transcript or {}
    return f"closed ({fixed.get('count', 0)} roll(s)); its reports may reveal its seed"


__all__ = ["DeskRow", "MISSING", "STATUSES", "stage_line", "turn_desk"]

"""The turn desk: per player, where this turn's orders are (missing, arrived, applied or
refused), from the moderator's record (``session.pbem["orders"]``, DESK.md)."""

from __future__ import annotations

from dataclasses import dataclass

from shipsheet.model.errors import RuleViolation
from shipsheet.model.session import Session

from . import record
from .record import APPLIED, ARRIVED, REFUSED

MISSING = "missing"
#: Every status a row may have.
STATUSES = (MISSING, ARRIVED, APPLIED, REFUSED)


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


__all__ = ["DeskRow", "MISSING", "STATUSES", "turn_desk"]

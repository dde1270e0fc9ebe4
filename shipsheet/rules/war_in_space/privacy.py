"""What of a War In Space ship only its owner (and the referee or moderator) may see.

[seed] "Players announce their intent to use Damage Control during Energy Allocation ...
Players may announce 'Damage Control' when a Joker is revealed as the Energy Allocation
Card": the card is revealed at Energy Allocation. ShipSheet reads it as all cards revealed
together when the phase ends (house rule WIS-H14): until then a ship's committed Energy
Allocation — the card, Damage Control announced, its dice, the energy they give — is its
owner's (kind ``energy``), and from the next phase on it is public. The repair plan is the
owner's until the Damage Control phase carries it out (kind ``repairs``: the plan is never
shown; what is repaired then is logged as a public line of that phase).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from shipsheet.model.privacy import GamePrivacy

from .game import ENERGY_ALLOCATION

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.log import LogEntry
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

ENERGY, REPAIRS = "energy", "repairs"
_ENERGY_CHANGES = re.compile(r"(Energy Allocation: .*|Roll energy dice.*|Energy dice.*)")
_REPAIR_CHANGES = re.compile(r"(Plan repairs|Cancel planned repairs)")


def _allocating(session: "Session | None", turn: int | None = None) -> bool:
    """Whether the cards of ``turn`` (the session's) are still hidden: its Energy
    Allocation phase has not ended."""
    if session is None:
        return True
    return session.phase == ENERGY_ALLOCATION and (turn is None or turn == session.turn)


class WarInSpacePrivacy(GamePrivacy):
    kinds = {ENERGY: "the Energy Allocation committed (card, Damage Control, dice, energy): "
                     "public once the Energy Allocation phase ends (WIS-H14)",
             REPAIRS: "the repair plan: the owner's until the Damage Control phase carries "
                      "it out"}

    def hidden(self, session: "Session | None", ship: "Ship") -> dict[str, Any]:
        out: dict[str, Any] = {"planned_repairs": None}
        if _allocating(session):
            out.update(energy=None, rolled=None)
        return out

    def revealed(self, session: "Session | None", entry: "LogEntry") -> bool:
        if entry.private == ENERGY:
            return not _allocating(session, entry.turn) or (
                session is not None and session.turn > entry.turn)
        return False

    def classify(self, entry: "LogEntry", headline: "LogEntry | None") -> tuple[str | None, str | None]:
        head = headline.text if headline is not None else entry.text
        if _ENERGY_CHANGES.fullmatch(head):
            return ENERGY, None
        if _REPAIR_CHANGES.fullmatch(head):
            return REPAIRS, None
        return None, None


PRIVACY = WarInSpacePrivacy()

__all__ = ["ENERGY", "PRIVACY", "REPAIRS", "WarInSpacePrivacy"]

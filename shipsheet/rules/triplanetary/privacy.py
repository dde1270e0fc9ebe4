"""What of a Triplanetary ship only its owner (and the referee or moderator) may see.

[seed] "The ship's owner chooses what kind of damage to recover from": the choice is the
owner's, and it stands from turn to turn until changed (house rule TRI-H14), so it is never
shown to others (kind ``recovery``); what a ship recovers at the end of a turn is logged as
a public line of the turn's end. Tracks, fuel, cargo and ordnance are on the ship's
counter for all to see.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from shipsheet.model.privacy import GamePrivacy

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.log import LogEntry
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

RECOVERY = "recovery"
_CHOICE = re.compile(r"Recovery choice(: .*)?")


class TriplanetaryPrivacy(GamePrivacy):
    kinds = {RECOVERY: "the owner's recovery choice: it stands until changed (TRI-H14), "
                       "so it is never public"}

    def hidden(self, session: "Session | None", ship: "Ship") -> dict[str, Any]:
        return {"recovery_choice": []}

    def classify(self, entry: "LogEntry", headline: "LogEntry | None") -> tuple[str | None, str | None]:
        head = headline.text if headline is not None else entry.text
        return (RECOVERY, None) if _CHOICE.fullmatch(head) else (None, None)


PRIVACY = TriplanetaryPrivacy()

__all__ = ["PRIVACY", "RECOVERY", "TriplanetaryPrivacy"]

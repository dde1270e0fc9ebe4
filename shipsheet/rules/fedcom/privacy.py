"""What of a Federation Commander ship only its owner (and the moderator) may see.

[seed 8FC3] "The exceptions that the player wants to make must be spelled out clearly to
the moderator in the most recent SOP": standing orders go to the moderator alone, and no
rule ever makes them public. So a ship's standing orders — this turn's and those copied to
the next — are private, always (kind ``orders``): every line that sets or drops them, and
the notes a volley makes about them. A volley's point that an order decided is public
(the damage is), with the order said only as "the owner's standing order" (house rule
FC-H15): other players learn that an order ranked the box, never which order.
Everything else of a card (damage, turn states, repairs) is public.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from shipsheet.model.privacy import GamePrivacy

from .state import ORDER_LINES

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.log import LogEntry
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

ORDERS = "orders"
#: The words a point's reason says when an order placed the box, as others read it.
OWNERS_ORDER = "the owner's standing order"
#: The changes that set or drop standing orders (their headlines), for logs saved before
#: lines were marked.
_ORDER_CHANGES = re.compile(r"(Set standing orders|Standing orders: .*|Copy orders to next "
                            r"turn|Let orders lapse at end of turn)")
_ORDER_LINE = re.compile(r"(hit first|hit last|frame instead|heavy weapons in the order|"
                         r"standing orders lapsed|orders copied)", re.IGNORECASE)


def public_reason(reason: str) -> str:
    """A DDAP point's reason as those who do not own the ship read it: what an order made of
    it said as "the owner's standing order", never the order itself."""
    if reason.startswith("standing order:"):
        head, sep, rest = reason.partition(";")
        return OWNERS_ORDER + (f";{rest}" if sep else "")
    reason = re.sub(r"\(([^()]*) is type \d+ of \d+ in the order of the standing orders, "
                    r"which ranks first: house rule FC-H13\)",
                    "(the owner's standing order ranks the types first: house rule FC-H13)",
                    reason)
    return reason.replace("(standing order)", f"({OWNERS_ORDER})")


def says_orders(text: str) -> bool:
    """Whether a line tells of the owner's standing orders."""
    return ("standing order" in text or "order of the standing orders" in text
            or bool(_ORDER_LINE.search(text)))


class FedComPrivacy(GamePrivacy):
    kinds = {ORDERS: "the owner's standing orders: never public (8FC3: they go to the "
                     "moderator alone)"}

    def hidden(self, session: "Session | None", ship: "Ship") -> dict[str, Any]:
        return {"orders": {}, "next_orders": None}

    def classify(self, entry: "LogEntry", headline: "LogEntry | None") -> tuple[str | None, str | None]:
        head = headline.text if headline is not None else ""
        if _ORDER_CHANGES.fullmatch(head) or _ORDER_CHANGES.fullmatch(entry.text):
            return ORDERS, None
        text = entry.text
        if text.startswith("Note:") and says_orders(text):
            return ORDERS, None
        if text in ORDER_LINES:  # the turn's end: orders copied or lapsed
            return ORDERS, None
        point = re.fullmatch(r"(Volley \d+, point \d+.*?: .*?) \((.*)\)", text)
        if point and says_orders(point[2]):
            public = f"{point[1]} ({public_reason(point[2])})"
            return (ORDERS, public) if public != text else (None, None)
        return None, None


PRIVACY = FedComPrivacy()

__all__ = ["ORDERS", "OWNERS_ORDER", "PRIVACY", "FedComPrivacy", "public_reason", "says_orders"]

"""Table Link: each player's own sheet on their own phone, live, from the referee's app.

See ``PROTOCOL.md`` beside this file. The ``share`` layer may use the model, the rules and
the sheets (to draw SVG), never the window (``ui``).
"""

from .addresses import Candidate, candidate_addresses
from .link import TableLink
from .seats import PLAYER, REFEREE, SPECTATOR, Seat, SeatBook

__all__ = ["Candidate", "candidate_addresses", "TableLink", "Seat", "SeatBook", "PLAYER",
           "REFEREE", "SPECTATOR"]

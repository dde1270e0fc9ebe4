"""What a player decides for a ship (from a phone or an orders file): see model/decisions.py."""

from __future__ import annotations

from ...model.decisions import GameDecisions

DECISIONS = GameDecisions()

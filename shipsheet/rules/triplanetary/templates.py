"""The designer's starting point for a new class of this game (its ``blank_definition`` piece)."""

from __future__ import annotations


def blank_definition() -> dict:
    """A small valid class to start from, so the designer's preview shows at once."""
    return {"game": "triplanetary", "class": "New ship class", "combat": 2, "defensive_only": False,
            "commercial": False, "fuel": 10, "cargo": 0}

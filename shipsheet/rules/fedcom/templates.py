"""The designer's starting point for a new class of this game (its ``blank_definition`` piece)."""

from __future__ import annotations


def blank_definition() -> dict:
    """A small valid class to start from, so the designer's preview shows at once."""
    return {"game": "fedcom", "class": "New ship class", "damage_control": 2, "frame": 4,
            "shields": [12, 10, 10, 8, 10, 10],
            "boxes": [{"id": "bridge-1", "kind": "bridge"}]}

"""The designer's starting point for a new class of this game (its ``blank_definition`` piece)."""

from __future__ import annotations


def blank_definition() -> dict:
    """A small valid class to start from, so the designer's preview shows at once."""
    return {"game": "war-in-space", "class": "New ship class", "size": "",
            "systems": [{"name": "Reactor", "die": "d8", "boxes": 3},
                        {"name": "Drive", "die": "d8", "boxes": 3},
                        {"name": "Fire Control", "die": "d8", "boxes": 3}],
            "suits": {"spades": ["attack", "movement"], "hearts": ["defense", "attack"],
                      "diamonds": ["attack", "defense"], "clubs": ["movement", "defense"]}}

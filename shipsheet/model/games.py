"""The interface each game's rules module offers to the model, and their registry.

The model never imports a rules module by name at import time: it finds the
module for a game id here, on first use (``shipsheet.rules.<module>`` must
define ``GAME``, an instance of :class:`GameRules`). This keeps the arrows
pointing one way, rules -> model, while the model can still validate a ship
of any game.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .keypath import Node

if TYPE_CHECKING:  # pragma: no cover
    from .session import Session, ActionContext
    from .ship import Ship, ShipClass

GAME_IDS = ("war-in-space", "triplanetary", "fedcom")
GAME_TITLES = {
    "war-in-space": "War In Space",
    "triplanetary": "Triplanetary",
    "fedcom": "Federation Commander",
}
_MODULES = {
    "war-in-space": "shipsheet.rules.war_in_space",
    "triplanetary": "shipsheet.rules.triplanetary",
    "fedcom": "shipsheet.rules.fedcom",
}
#: Keys every ship definition may carry, whatever its game.
COMMON_KEYS = ("game", "class", "sample", "notes")

_registry: dict[str, "GameRules"] = {}


class GameRules:
    """What the model needs from a game. Subclass per game; override as needed."""

    id: str = ""
    title: str = ""
    #: The turn's phases, in order. The session starts each turn at the first.
    phases: tuple[str, ...] = ("Turn",)
    #: Keys a ship definition of this game may have besides COMMON_KEYS.
    class_keys: tuple[str, ...] = ()

    def parse_class(self, node: Node) -> Any:
        """Validate a definition (the root table) and return its parsed spec."""
        node.only_keys(*COMMON_KEYS, *self.class_keys)
        return dict(node.value)

    def initial_state(self, ship_class: "ShipClass") -> dict:
        """The damage state of a new, undamaged ship of this class."""
        return {}

    def check_state(self, ship_class: "ShipClass", node: Node) -> dict:
        """Validate a state read from a session file (``node`` raises SessionFileError)."""
        node.table()
        return dict(node.value)

    def check_options(self, node: Node) -> dict:
        """Validate a session's options read from a file (``node`` raises SessionFileError):
        a game checks the options it reads, so a wrong type is refused at load, not met
        later by a panel or a painter."""
        node.table()
        return dict(node.value)

    def status_chips(self, ship: "Ship") -> list[str]:
        """Short status words for the roster ("Destroyed", "Can't fire", "♦ locked")."""
        return []

    def describe_class(self, ship_class: "ShipClass") -> str:
        """One line describing a class in pickers."""
        return ship_class.name

    def enter_phase(self, session: "Session", phase: str, ctx: "ActionContext") -> None:
        """Called when the session enters ``phase`` (within the phase-change action)."""

    def end_turn(self, session: "Session", ctx: "ActionContext") -> None:
        """Called as a turn ends, before the next turn's first phase."""


def register_game(rules: GameRules) -> None:
    _registry[rules.id] = rules


def get_game(game_id: str) -> GameRules:
    """The rules of ``game_id``; raises KeyError naming the known games."""
    if game_id in _registry:
        return _registry[game_id]
    module = _MODULES.get(game_id)
    if module is None:
        raise KeyError(f'unknown game "{game_id}" (known: {", ".join(GAME_IDS)})')
    rules = importlib.import_module(module).GAME
    _registry[game_id] = rules
    return rules

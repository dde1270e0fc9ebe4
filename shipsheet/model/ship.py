"""Ship classes (definitions) and ships (instances carrying their damage state)."""

from __future__ import annotations

from typing import Iterable

import os
from dataclasses import field
from .code_cache import dataclass
from typing import Any


@dataclass(frozen=True, eq=False)
class ShipClass:
    """A validated ship definition.

    ``data`` is the definition as read (plain TOML/JSON values), embedded in
    session files so they open where the class is not installed; ``spec`` is
    the game module's parsed form of it, which the rules use.
    """

    id: str
    game: str
    name: str
    data: dict
    spec: Any
    source: str = ""

    @property
    def sample(self) -> bool:
        return bool(self.data.get("sample", False))

    def __repr__(self) -> str:
        return f"ShipClass({self.id!r}, {self.name!r})"


def unique_name(base: str, taken: "Iterable[str]") -> str:
    """``base``, or ``base 2``, ``base 3``… — the first not among ``taken`` (case-insensitive):
    the name a new ship is offered, short and its own in the session."""
    base = " ".join(base.split()) or "Ship"
    used = {name.casefold() for name in taken}
    name, n = base, 1
    while name.casefold() in used:
        n += 1
        name = f"{base} {n}"
    return name


def new_id(nbytes: int = 6) -> str:
    """A random hex id (os.urandom: no need to import uuid at start-up)."""
    return os.urandom(nbytes).hex()


def clone(value: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts, lists, scalars); fast."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


@dataclass(eq=False)
class Ship:
    """One ship in play: a name, its class, its side and its state.

    ``state`` holds plain JSON values only (it is saved as is); the game's
    rules module owns its layout.
    """

    name: str
    ship_class: ShipClass
    state: dict
    side: str | None = None
    id: str = field(default_factory=new_id)

    @property
    def game(self) -> str:
        return self.ship_class.game

    @property
    def spec(self) -> Any:
        return self.ship_class.spec

    def __repr__(self) -> str:
        return f"Ship({self.name!r}, {self.ship_class.id!r})"

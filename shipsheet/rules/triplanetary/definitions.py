"""Triplanetary ship definitions: the TOML keys, their validation, the parsed spec.

A definition names one ship type of the ship-type table [2018]::

    game = "triplanetary"
    class = "Frigate"
    combat = 8              # combat strength
    defensive_only = false  # the "D" after the strength: never attacks [2018]
    commercial = false
    fuel = 20               # or "unlimited" (the torch)
    cargo = 40              # tons, or "unlimited" (the orbital base)

Optional flags the rules read: ``dreadnaught`` (may fire with weapons D1–D3
[seed]), ``mine_layer`` (weapon hits only stop it launching mines: transports
and packets [seed]), ``fixed`` (never maneuvers: the orbital base [2018]),
``fuel_store`` (fuel it holds for others: the base's "unlimited store").
Unknown keys are refused, so a typo is reported, never ignored.
"""

from __future__ import annotations

from ...model.code_cache import dataclass

from shipsheet.model.games import COMMON_KEYS
from shipsheet.model.keypath import Node, type_name

UNLIMITED = "unlimited"

#: Keys a Triplanetary definition may have besides ``game``, ``class``, ``sample``, ``notes``.
CLASS_KEYS = ("combat", "defensive_only", "commercial", "fuel", "fuel_store", "cargo",
              "dreadnaught", "mine_layer", "fixed")

#: Largest number accepted for a strength, fuel or cargo (no ship comes close).
MAX_AMOUNT = 100_000


@dataclass(frozen=True)
class TriplanetaryClass:
    """The parsed form of a definition (``ShipClass.spec``). ``None`` amounts mean unlimited."""

    combat: int
    defensive_only: bool = False
    commercial: bool = False
    fuel: int | None = 0
    fuel_store: int | None = 0
    cargo: int | None = 0
    dreadnaught: bool = False
    mine_layer: bool = False
    fixed: bool = False

    @property
    def strength_label(self) -> str:
        """The combat strength as printed on the counter: ``"8"``, ``"1D"``."""
        return f"{self.combat}{'D' if self.defensive_only else ''}"


def _amount(node: Node) -> int | None:
    """A whole number of at least 0, or the text ``"unlimited"`` (returned as None)."""
    value = node.value
    if isinstance(value, str):
        if value.strip().lower() == UNLIMITED:
            return None
        node.fail(f'expected a whole number or "unlimited", found text "{value}"')
    if isinstance(value, bool) or not isinstance(value, int):
        node.fail(f'expected a whole number or "unlimited", found {type_name(value)}')
    return node.int(lo=0, hi=MAX_AMOUNT)


def parse_definition(root: Node) -> TriplanetaryClass:
    """Validate a Triplanetary definition (the root table); errors name file and key path."""
    root.only_keys(*COMMON_KEYS, *CLASS_KEYS)
    combat = root.get("combat").int(lo=0, hi=MAX_AMOUNT)
    flags = {key: root.get(key, False).bool()
             for key in ("defensive_only", "commercial", "dreadnaught", "mine_layer", "fixed")}
    spec = TriplanetaryClass(
        combat=combat,
        fuel=_amount(root.get("fuel")),
        fuel_store=_amount(root.get("fuel_store", 0)),
        cargo=_amount(root.get("cargo")),
        **flags,
    )
    if spec.dreadnaught and spec.defensive_only:
        root.child("dreadnaught", True).fail(
            "a defensive-only ship never fires, so the dreadnaught exception cannot apply "
            "(remove one of dreadnaught and defensive_only)")
    if spec.combat == 0 and not spec.defensive_only:
        root.child("combat", 0).fail(
            "a ship with combat strength 0 cannot attack: mark it defensive_only = true")
    return spec

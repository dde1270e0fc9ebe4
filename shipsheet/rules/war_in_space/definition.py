"""War In Space ship definitions: the SDS as a TOML file, validated with key paths.

A definition names three energy systems (each an undamaged die and a row of
boxes) and the suit table (Primary and Secondary action per suit)::

    game = "war-in-space"
    class = "Vigilant-class Cruiser"
    size = "Cruiser"
    systems = [
      { name = "Reactor", die = "d10", boxes = 4 },
      ...
    ]
    [suits]   # primary, secondary
    spades = ["attack", "movement"]
    ...
"""

from __future__ import annotations

from ...model.code_cache import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping

from shipsheet.model.errors import RuleViolation
from shipsheet.model.games import COMMON_KEYS
from shipsheet.model.keypath import Node

from .terms import ACTIONS, DIE_LADDER, SUITS, SUIT_SYMBOLS

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.ship import Ship

#: Keys a War In Space definition may have besides game/class/sample/notes.
CLASS_KEYS = ("size", "systems", "suits")
SYSTEM_KEYS = ("name", "die", "boxes")
#: [WIS-H1] exactly three energy systems, one per energy die.
SYSTEM_COUNT = 3


def steps_to_zero(die: int) -> int:
    """How many one-type steps take ``die`` down to 0 (d10: d8, d6, d4, 0 -> 4).

    [product]: "A system may have at most as many boxes as steps from its die to "0"".
    """
    return DIE_LADDER.index(die) + 1


@dataclass(frozen=True)
class SystemSpec:
    """One energy system of the SDS: its name, undamaged die (sides) and box count."""

    name: str
    die: int
    boxes: int

    @property
    def ladder(self) -> tuple[int, ...]:
        """The die for 0, 1, 2 ... marked boxes (d10 with 4 boxes: 10, 8, 6, 4, 0); [WIS-H2]."""
        top = DIE_LADDER.index(self.die)
        dice = [DIE_LADDER[top - k] if top - k >= 0 else 0 for k in range(self.boxes + 1)]
        return tuple(dice)


@dataclass(frozen=True)
class SuitActions:
    """A suit's row of the suit table: Primary, Secondary, and the third (Tertiary) action."""

    primary: str
    secondary: str

    @property
    def tertiary(self) -> str:
        """[WIS-H3] The action the suit table leaves out for this suit."""
        return next(a for a in ACTIONS if a not in (self.primary, self.secondary))


@dataclass(frozen=True)
class WarInSpaceClass:
    """The parsed SDS of a War In Space ship class."""

    size: str
    systems: tuple[SystemSpec, ...]
    suits: Mapping[str, SuitActions]

    def suit(self, suit: str) -> SuitActions:
        return self.suits[suit]


def _parse_die(node: Node) -> int:
    text = node.str(max_len=10).lower()
    names = [f"d{d}" for d in DIE_LADDER]
    if text not in names:
        node.fail(f'unknown die "{node.value.strip()}" (expected one of: {", ".join(names)})')
    return int(text[1:])


def _parse_system(node: Node) -> SystemSpec:
    node.table()
    node.only_keys(*SYSTEM_KEYS)
    name = node.get("name").str(max_len=40)
    die_node = node.get("die")
    die = _parse_die(die_node)
    boxes_node = node.get("boxes")
    boxes = boxes_node.int()
    most = steps_to_zero(die)
    if boxes < 1:
        boxes_node.fail(f"a system needs at least 1 box, found {boxes}")
    if boxes > most:
        ladder = ", ".join([f"d{d}" for d in reversed(DIE_LADDER[:DIE_LADDER.index(die)])] + ["0"])
        boxes_node.fail(f"a d{die} system has at most {most} boxes (the steps down to 0: {ladder}), "
                        f"found {boxes}")
    return SystemSpec(name, die, boxes)


def _parse_suits(node: Node) -> Mapping[str, SuitActions]:
    node.table()
    node.only_keys(*SUITS)
    table: dict[str, SuitActions] = {}
    for suit in SUITS:
        row = node.get(suit)
        entries = row.list()
        if len(entries) != 2:
            row.fail(f"expected [primary, secondary]: two actions of {', '.join(ACTIONS)}, "
                     f"found {len(entries)}")
        primary, secondary = (e.str(choices=ACTIONS, max_len=20) for e in entries)
        if primary == secondary:
            row.fail(f'primary and secondary must be two different actions '
                     f'(both are "{primary}") for {SUIT_SYMBOLS[suit]}')
        table[suit] = SuitActions(primary, secondary)
    return MappingProxyType(table)


def parse_definition(root: Node) -> WarInSpaceClass:
    """Validate a War In Space definition (the root table) and return its spec."""
    root.only_keys(*COMMON_KEYS, *CLASS_KEYS)
    size = root.get("size", "").str(nonempty=False, max_len=40)
    systems_node = root.get("systems")
    entries = systems_node.list()
    if len(entries) != SYSTEM_COUNT:
        systems_node.fail(f"a War In Space ship has exactly {SYSTEM_COUNT} energy systems "
                          f"(one per energy die), found {len(entries)}")
    systems = tuple(_parse_system(e) for e in entries)
    seen: dict[str, int] = {}
    for i, system in enumerate(systems):
        key = system.name.casefold()
        if key in seen:
            entries[i].get("name").fail(
                f'"{system.name}" is already the name of systems[{seen[key]}]; '
                f"each system needs its own name")
        if key.isdigit():
            entries[i].get("name").fail("a system's name cannot be a number")
        seen[key] = i
    suits = _parse_suits(root.get("suits"))
    return WarInSpaceClass(size, systems, suits)


def spec_of(ship: "Ship") -> WarInSpaceClass:
    """The ship's parsed SDS; refuses a ship of another game."""
    spec = ship.ship_class.spec
    if not isinstance(spec, WarInSpaceClass):
        raise RuleViolation(f"{ship.name} is a {ship.ship_class.name} of {ship.game}, "
                            f"not a War In Space ship.")
    return spec

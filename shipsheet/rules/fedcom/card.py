"""Federation Commander ship cards: the TOML definition, validated with key paths.

A card names every box with a stable id and a kind, the frame boxes, six
shields, the damage control rating and, for ships with several heavy-weapon
types, the owner's type order [product].

The kind set is **closed but extensible**: a box's kind must be one of
:data:`STANDARD_KINDS` (the kinds every card may use) or be declared by the card
itself in ``extra_kinds = { "fighter-bay" = "systems" }``, which also says how
the kind is repaired. So a typo (``"phasor"``) is refused at load, while a
ship with an unusual system can still be entered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping

from shipsheet.model.errors import RuleViolation
from shipsheet.model.games import COMMON_KEYS
from shipsheet.model.keypath import Node

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.ship import Ship

# -- kinds and repair categories ---------------------------------------------------

#: Repair categories and their cost in repair points per box [FC] (spec "Status and repair").
REPAIR_COSTS: Mapping[str, int] = MappingProxyType({
    "weapons": 4, "power": 3, "systems": 2, "control": 2, "hull": 1,
})

#: The standard kinds, each with its repair category [FC]/[FC-H10].
STANDARD_KINDS: Mapping[str, str] = MappingProxyType({
    "phaser": "weapons",
    "torpedo": "weapons",
    "drone": "weapons",
    "shuttle": "systems",
    "tractor": "systems",
    "transporter": "systems",
    "lab": "systems",
    "probe": "systems",
    "bridge": "control",
    "flag": "control",
    "emergency-bridge": "control",
    "auxiliary-control": "control",
    "left-warp": "power",
    "right-warp": "power",
    "center-warp": "power",
    "impulse": "power",
    "reactor": "power",
    "battery": "power",
    "forward-hull": "hull",
    "aft-hull": "hull",
    "center-hull": "hull",
    "cargo": "hull",
})

#: Weapon kinds (their turn states are fired/unfired; heavy weapons also charge).
WEAPON_KINDS = ("phaser", "torpedo", "drone")

#: Phaser types, in the order the DDAP hits them [seed 8FC4]:
#: "Fired Ph-3, unfired Ph-3, Fired Ph-2, unfired Ph-2, Fired Ph-G, unfired Ph-G,
#: Fired Ph-1, unfired Ph-1, Fired Ph-4, unfired Ph-4."
PHASER_TYPES = ("Ph-3", "Ph-2", "Ph-G", "Ph-1", "Ph-4")

#: Shuttle bay occupants, in the order the DDAP hits them [seed 8FC4]:
#: "Unoccupied, occupied with admin shuttle, occupied with suicide shuttle."
OCCUPANTS = ("empty", "admin", "suicide")

#: Tractor states, in the order the DDAP hits them [seed 8FC4]:
#: "Used and dropped this turn, unused, in use holding object."
TRACTOR_STATES = ("used-dropped", "unused", "holding")

#: Arc widths in degrees [FC-H1] "Arc restriction".
ARC_DEGREES: Mapping[str, int] = MappingProxyType({
    "F": 60, "L": 60, "R": 60, "A": 60, "LF": 60, "RF": 60, "LR": 60, "RR": 60,
    "FA": 120, "RA": 120,
    "FH": 180, "RH": 180, "LS": 180, "RS": 180,
    "FX": 240, "RX": 240,
    "360": 360,
})

_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
_KIND_RE = re.compile(r"^[a-z][a-z0-9-]{0,29}$")

#: Card keys besides the common ones (game, class, sample, notes).
CLASS_KEYS = ("damage_control", "frame", "shields", "heavy_weapon_order", "boxes",
              "extra_kinds", "size_class", "race")

#: Kinds that have a firing arc: weapons, tractors (the sample cards give them arcs) and
#: probe launchers. The card's own kinds (``extra_kinds``) may have one too. Phasers and
#: heavy weapons must give theirs; on any other standard kind an arc means nothing: the
#: loader accepts it (older cards keep loading), ignores it, and :func:`unused_fields`
#: names it.
ARC_KINDS = ("phaser", "torpedo", "drone", "tractor", "probe")
ARC_REQUIRED = ("phaser", "torpedo")

_BOX_KEYS_ALL = ("id", "kind", "label", "arc", "arc_degrees", "count")
_BOX_KEYS_KIND = {
    "phaser": ("type",),
    "torpedo": ("type", "size"),
    "drone": ("type", "drones"),
    "shuttle": ("occupant",),
    "tractor": ("state",),
}
MAX_BOXES = 500
MAX_COUNT = 50


def has_firing_arc(kind: str) -> bool:
    """Does a box of ``kind`` have a firing arc? Weapons, tractors and probes do; so may the
    card's own kinds (``extra_kinds``: anything not standard); the other standard kinds
    (hull, warp, labs, shuttle bays …) do not."""
    return kind in ARC_KINDS or kind not in STANDARD_KINDS


def a_box(kind: str) -> str:
    """``a left-warp box``, ``an aft-hull box``: a kind's box in words."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} box"


def arc_width(name: str) -> int | None:
    """The width in degrees of an arc name (``LF+L`` adds its parts, capped at 360), or None.

    [FC-H1] "Arc restriction": narrower is more restricted [seed 8FC4]."""
    total = 0
    for part in name.split("+"):
        width = ARC_DEGREES.get(part.strip())
        if width is None:
            return None
        total += width
    return min(total, 360)


# -- the parsed card -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class BoxSpec:
    """One box of a card, as defined (its live state is in the ship's state)."""

    id: str
    kind: str
    index: int                      # position on the card (card order)
    label: str = ""
    type: str = ""                  # phaser type (Ph-1 ...) or heavy weapon type (photon ...)
    size: int = 1                   # heavy weapons: smaller is hit first
    arc: str = ""                   # arc name as written, "" when given in degrees or absent
    arc_degrees: int = 360          # restriction for the tie-break; narrower is hit first
    drones: int = 0                 # drone racks: spaces (and drones loaded at start)
    occupant: str = "empty"         # shuttle bays: occupant at start
    tractor: str = "unused"         # tractors: state at start
    has_arc: bool = False           # the card gives a firing arc (name or degrees)

    @property
    def arc_text(self) -> str:
        """The arc as shown on the card: its name, or its width in degrees."""
        if self.arc:
            return self.arc
        return f"{self.arc_degrees}°"

    @property
    def title(self) -> str:
        """A short description for tooltips and the log."""
        bits = [self.label or self.id, self.kind]
        if self.type:
            bits.append(self.type)
        if self.kind == "torpedo":
            bits.append(f"size {self.size}")
        return " ".join(bits)


@dataclass(frozen=True, eq=False)
class FedComClass:
    """A validated Federation Commander card (the ``spec`` of its ShipClass)."""

    name: str
    damage_control: int
    frame: int
    shields: tuple[int, ...]
    heavy_weapon_order: tuple[str, ...]
    boxes: tuple[BoxSpec, ...]
    extra_kinds: Mapping[str, str]
    race: str = ""
    size_class: int | None = None
    box_index: Mapping[str, BoxSpec] = field(default_factory=dict)
    by_kind: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def box(self, box_id: str) -> BoxSpec:
        return self.box_index[box_id]

    @property
    def heavy_types(self) -> tuple[str, ...]:
        """The heavy-weapon types on the card, in card order."""
        return _heavy_types(self.boxes)

    def category(self, kind: str) -> str:
        """The repair category of a kind (weapons, power, systems, control, hull)."""
        return STANDARD_KINDS.get(kind) or self.extra_kinds.get(kind, "systems")

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds on the card, in card order of their first box."""
        return tuple(self.by_kind)


def _heavy_types(boxes) -> tuple[str, ...]:
    """The heavy-weapon types among ``boxes``, in card order."""
    return tuple(dict.fromkeys(b.type for b in boxes if b.kind == "torpedo"))


def known_kinds(extra: Mapping[str, str] | None = None) -> tuple[str, ...]:
    return tuple(STANDARD_KINDS) + tuple(extra or ())


def check_extra_kind(node: Node, kind: str) -> None:
    """Refuse ``kind`` as a card's or chart's own kind unless it is a new, usable name."""
    if not _KIND_RE.match(kind):
        node.fail(f'"{kind}" is not a usable kind name (lower-case letters, digits and "-")')
    if kind in STANDARD_KINDS or kind == "frame":
        node.fail(f'"{kind}" is a standard kind already')


def _parse_extra_kinds(root: Node) -> dict[str, str]:
    extra: dict[str, str] = {}
    node = root.get("extra_kinds", {})
    for key, child in node.items():
        check_extra_kind(child, key)
        extra[key] = child.str(choices=tuple(REPAIR_COSTS))
    return extra


def _parse_arc(node: Node, kind: str, required: bool) -> tuple[str, int]:
    has_arc = node.has("arc")
    has_deg = node.has("arc_degrees")
    if has_arc and has_deg:
        node.child("arc_degrees", None).fail('give either "arc" or "arc_degrees", not both')
    if has_arc:
        arc_node = node.get("arc")
        text = arc_node.str(max_len=40)
        width = arc_width(text)
        if width is None:
            arc_node.fail(f'unknown arc "{text}" (known: {", ".join(ARC_DEGREES)}, '
                          f'or a combination such as "LF+L")')
        return text, width
    if has_deg:
        return "", node.get("arc_degrees").int(lo=1, hi=360)
    if required:
        node.child("arc", None).fail(f'missing: a {kind} needs a firing arc '
                                     f'("arc" or "arc_degrees")')
    return "", 360


def _parse_box(node: Node, index: int, extra: Mapping[str, str]) -> list[dict]:
    """Validate one entry of ``boxes``; return the box fields (several with ``count``)."""
    node.table()
    kind_node = node.get("kind")
    kind = kind_node.str(max_len=30)
    if kind == "frame":
        kind_node.fail('frame boxes are counted by the card\'s "frame" key, not listed as boxes')
    if kind not in STANDARD_KINDS and kind not in extra:  # [FC-H4] a misspelt kind is refused
        kind_node.fail(f'unknown kind "{kind}" (known: {", ".join(known_kinds(extra))}; '
                       f'a ship\'s own kinds go in extra_kinds)')
    node.only_keys(*_BOX_KEYS_ALL, *_BOX_KEYS_KIND.get(kind, ()))
    id_node = node.get("id")
    box_id = id_node.str(max_len=40)
    if not _ID_RE.match(box_id):
        id_node.fail(f'"{box_id}" is not a usable box id (letters, digits, "-", "_" and ".")')
    fields: dict = {"id": box_id, "kind": kind,
                    "label": node.get("label", "").str(nonempty=False, max_len=40)}
    arc, degrees = _parse_arc(node, kind, required=kind in ARC_REQUIRED)
    has_arc = node.has("arc") or node.has("arc_degrees")
    if not has_firing_arc(kind):  # accepted, checked, and ignored (unused_fields names it)
        arc, degrees, has_arc = "", 360, False
    fields["arc"], fields["arc_degrees"], fields["has_arc"] = arc, degrees, has_arc
    if kind == "phaser":
        fields["type"] = node.get("type").str(max_len=10)
        if fields["type"] not in PHASER_TYPES:
            node.get("type").fail(f'unknown phaser type "{fields["type"]}" '
                                  f'(known: {", ".join(sorted(PHASER_TYPES))})')
    elif kind == "torpedo":
        fields["type"] = node.get("type").str(max_len=30)
        fields["size"] = node.get("size", 1).int(lo=1, hi=100)
    elif kind == "drone":
        fields["type"] = node.get("type", "").str(nonempty=False, max_len=30)
        fields["drones"] = node.get("drones").int(lo=0, hi=100)
    elif kind == "shuttle":
        fields["occupant"] = node.get("occupant", "empty").str(choices=OCCUPANTS)
    elif kind == "tractor":
        fields["tractor"] = node.get("state", "unused").str(choices=TRACTOR_STATES)
    count = node.get("count", 1).int(lo=1, hi=MAX_COUNT)
    if count == 1:
        return [fields]
    return [dict(fields, id=i) for i in counted_ids(box_id, count)]


def unused_fields(data: "Mapping | Node") -> list[str]:
    """Fields a card may give but its boxes do not use, one message each, naming the key
    path: ``boxes[3].arc: a left-warp box has no firing arc; ignored``.

    The loader accepts these (cards written before it knew better still load) and ignores
    them; ``shipsheet check`` shows them as warnings and the designer does not write them
    back. ``data`` is the card's root table, as read from the file, or its :class:`Node`
    (the messages then start from the node's key path; the caller names the file).
    Entries the loader would refuse are skipped: the loader says what is wrong with them.
    """
    root = data if isinstance(data, Node) else Node(data)
    if not isinstance(root.value, Mapping) or not isinstance(root.value.get("boxes"), list):
        return []
    found: list[str] = []
    for entry in root.get("boxes").list():
        if not isinstance(entry.value, Mapping):
            continue
        kind = entry.value.get("kind")
        if not isinstance(kind, str) or kind not in STANDARD_KINDS or has_firing_arc(kind):
            continue
        for key in ("arc", "arc_degrees"):
            if key in entry.value:
                found.append(f"{entry.child(key, None).path}: {a_box(kind)} has no firing arc; "
                             f"ignored")
    return found


def card(ship: "Ship") -> FedComClass:
    """The parsed card of a Federation Commander ship (refuses ships of other games)."""
    spec = ship.ship_class.spec
    if not isinstance(spec, FedComClass):
        raise RuleViolation(f"{ship.name} is not a Federation Commander ship.")
    return spec


def counted_ids(box_id: str, count: int) -> list[str]:
    """The ids of an entry written once with ``count``: ``lab`` x3 -> ``lab-1`` … ``lab-3``."""
    return [f"{box_id}-{n}" for n in range(1, count + 1)]


def parse_card(root: Node) -> FedComClass:
    """Validate a card (the root table of its TOML) and return its parsed form."""
    root.only_keys(*COMMON_KEYS, *CLASS_KEYS)
    name = root.get("class").str(max_len=120)
    damage_control = root.get("damage_control").int(lo=0, hi=50)
    frame = root.get("frame").int(lo=1, hi=200)
    shields_node = root.get("shields")
    shields_list = shields_node.list()
    if len(shields_list) != 6:
        shields_node.fail(f"a ship has six shields (#1 to #6), found {len(shields_list)}")
    shields = tuple(s.int(lo=0, hi=500) for s in shields_list)
    race = root.get("race", "").str(nonempty=False, max_len=60)
    size_node = root.get("size_class", None)
    size_class = None if size_node.value is None else size_node.int(lo=1, hi=7)
    extra = _parse_extra_kinds(root)

    boxes: list[BoxSpec] = []
    where: dict[str, Node] = {}  # the entry each id was first used at
    entries = root.get("boxes").list(min_len=1)
    for entry in entries:
        for fields in _parse_box(entry, len(boxes), extra):
            box_id = fields["id"]
            if box_id in where:
                entry.get("id").fail(f'duplicate box id "{box_id}" (first used at {where[box_id].path})')
            if len(boxes) >= MAX_BOXES:
                entry.fail(f"too many boxes (at most {MAX_BOXES})")
            where[box_id] = entry
            boxes.append(BoxSpec(index=len(boxes), **fields))

    heavy = _heavy_types(boxes)
    order: tuple[str, ...] = ()
    if root.has("heavy_weapon_order"):
        order_node = root.get("heavy_weapon_order")
        items = order_node.list()
        seen: list[str] = []
        for item in items:
            t = item.str(max_len=30)
            if t not in heavy:
                item.fail(f'"{t}" is not a heavy-weapon type on this ship '
                          f'(its types: {", ".join(heavy) or "none"})')
            if t in seen:
                item.fail(f'"{t}" is listed twice')
            seen.append(t)
        missing = [t for t in heavy if t not in seen]
        if missing:
            order_node.fail(f'must list every heavy-weapon type of the ship; missing: '
                            f'{", ".join(missing)}')
        order = tuple(seen)
    elif len(heavy) > 1:
        # [seed 8FC4] "In the case of multiple types of weapons on one ship, the owner
        # will need to specify which will be hit first."
        root.child("heavy_weapon_order", None).fail(
            f'missing: this ship has several heavy-weapon types ({", ".join(heavy)}); '
            f'list them in the order they are hit, e.g. heavy_weapon_order = '
            f'[{", ".join(repr(t).replace(chr(39), chr(34)) for t in heavy)}]')
    else:
        order = tuple(heavy)

    by_kind: dict[str, list[str]] = {}
    for b in boxes:
        by_kind.setdefault(b.kind, []).append(b.id)
    return FedComClass(
        name=name, damage_control=damage_control, frame=frame, shields=shields,
        heavy_weapon_order=order, boxes=tuple(boxes), extra_kinds=MappingProxyType(extra),
        race=race, size_class=size_class,
        box_index=MappingProxyType({b.id: b for b in boxes}),
        by_kind=MappingProxyType({k: tuple(v) for k, v in by_kind.items()}),
    )

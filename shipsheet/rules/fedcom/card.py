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
from dataclasses import field
from ...model.code_cache import dataclass
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
#: The keys an entry of ``boxes`` may have, by kind (any other kind: the common ones).
_BOX_KEYS_ALLOWED: Mapping[str, frozenset] = MappingProxyType({
    kind: frozenset(_BOX_KEYS_ALL + own) for kind, own in _BOX_KEYS_KIND.items()})
_BOX_KEYS_COMMON = frozenset(_BOX_KEYS_ALL)
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


def _parse_box(node: Node, extra: Mapping[str, str]) -> tuple[list[str], dict]:
    """Validate one entry of ``boxes``, naming the key path of what is wrong: its box ids
    (several with ``count``) and its other fields (those of a :class:`BoxSpec` but
    ``id`` and ``index``)."""
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
    fields: dict = {"kind": kind, "label": node.get("label", "").str(nonempty=False, max_len=40)}
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
    return ([box_id] if count == 1 else counted_ids(box_id, count)), fields


# -- the quick reading of plain entries ----------------------------------------------------
#
# A card has a few hundred values, and a session may hold thousands of cards (each ship
# its own class): read value by value through a Node each, they were most of a load.
# :func:`_quick_box` reads a plain, valid entry with plain type checks; it returns None for
# anything in doubt, and :func:`_parse_box` then reads that entry and names what is wrong.
# It accepts only what ``_parse_box`` accepts, and returns the same. What it reads is kept
# by the entry's exact content (:func:`_known_entry`), and cards with the same entries
# share their boxes (:func:`_known_boxes`): a BoxSpec and the lookups by id and kind are
# immutable, so no ship can change another's.

def _plain_text(value: object, max_len: int, nonempty: bool = True) -> str | None:
    """What ``Node.str`` returns for a plain ``str`` (its text stripped), or None where it
    would refuse it or ``value`` is not exactly a ``str``."""
    if type(value) is not str:
        return None
    text = value.strip()
    if (nonempty and not text) or len(text) > max_len:
        return None
    return text


def _plain_int(value: object, lo: int, hi: int) -> int | None:
    """What ``Node.int`` returns for a plain ``int`` (never a bool) in ``lo..hi``, or None."""
    if type(value) is int and lo <= value <= hi:
        return value
    return None


def _quick_arc(entry: dict, kind: str) -> tuple[str, int, bool] | None:
    """The arc name, degrees and ``has_arc`` :func:`_parse_box` gives an entry, or None."""
    if "arc" in entry:
        if "arc_degrees" in entry:
            return None
        text = _plain_text(entry["arc"], 40)
        degrees = None if text is None else arc_width(text)
        if degrees is None:
            return None
        arc = text
    elif "arc_degrees" in entry:
        degrees = _plain_int(entry["arc_degrees"], 1, 360)
        if degrees is None:
            return None
        arc = ""
    elif kind in ARC_REQUIRED:
        return None
    else:
        return "", 360, False
    if not has_firing_arc(kind):  # checked, and ignored
        return "", 360, False
    return arc, degrees, True


def _quick_details(entry: dict, kind: str) -> dict | None:
    """The fields of a kind's own keys (``_BOX_KEYS_KIND``), or None."""
    if kind == "phaser":
        type_ = _plain_text(entry.get("type"), 10)
        return {"type": type_} if type_ in PHASER_TYPES else None
    if kind == "torpedo":
        type_, size = _plain_text(entry.get("type"), 30), _plain_int(entry.get("size", 1), 1, 100)
        return None if type_ is None or size is None else {"type": type_, "size": size}
    if kind == "drone":
        type_ = _plain_text(entry.get("type", ""), 30, nonempty=False)
        drones = _plain_int(entry.get("drones"), 0, 100)
        return None if type_ is None or drones is None else {"type": type_, "drones": drones}
    if kind == "shuttle":
        occupant = _plain_text(entry.get("occupant", "empty"), 200)
        return {"occupant": occupant} if occupant in OCCUPANTS else None
    state = _plain_text(entry.get("state", "unused"), 200)  # a tractor
    return {"tractor": state} if state in TRACTOR_STATES else None


def _quick_box(entry: object, extra: Mapping[str, str]) -> tuple[list[str], dict] | None:
    """What :func:`_parse_box` returns for a plain, valid entry, or None (see above)."""
    if type(entry) is not dict:
        return None
    kind = _plain_text(entry.get("kind"), 30)
    if kind is None or kind == "frame" or (kind not in STANDARD_KINDS and kind not in extra):
        return None
    if not entry.keys() <= _BOX_KEYS_ALLOWED.get(kind, _BOX_KEYS_COMMON):
        return None
    box_id = _plain_text(entry.get("id"), 40)
    label = _plain_text(entry.get("label", ""), 40, nonempty=False)
    arc = _quick_arc(entry, kind)
    count = _plain_int(entry.get("count", 1), 1, MAX_COUNT)
    if box_id is None or not _ID_RE.match(box_id) or label is None or arc is None or count is None:
        return None
    fields = {"kind": kind, "label": label, "arc": arc[0], "arc_degrees": arc[1], "has_arc": arc[2]}
    if kind in _BOX_KEYS_KIND:
        details = _quick_details(entry, kind)
        if details is None:
            return None
        fields.update(details)
    return ([box_id] if count == 1 else counted_ids(box_id, count)), fields


class _Entry:
    """A plain, valid entry of ``boxes`` as :func:`_quick_box` reads it, kept for every
    entry alike on any card, with its BoxSpecs by the place of its first box: a session of
    many classes made from one has the same entries, at the same places, thousands of
    times, and they share their frozen BoxSpecs."""

    __slots__ = ("ids", "fields", "_at")

    def __init__(self, ids: list[str], fields: dict):
        self.ids = tuple(ids)
        self.fields = fields  # read only (a BoxSpec's keyword arguments)
        self._at: dict[int, tuple[BoxSpec, ...]] = {}

    def specs(self, start: int) -> tuple[BoxSpec, ...]:
        """Its boxes when the first is the card's box number ``start`` (from 0)."""
        global _made
        specs = self._at.get(start)
        if specs is None:
            specs = self._at[start] = tuple(BoxSpec(id=box_id, index=start + n, **self.fields)
                                            for n, box_id in enumerate(self.ids))
            _made += len(specs)
        return specs


@dataclass(frozen=True, slots=True)
class _Boxes:
    """A card's boxes and what is looked up by them (immutable: cards alike share one)."""

    boxes: tuple[BoxSpec, ...]
    heavy: tuple[str, ...]  # the heavy-weapon types, in card order
    box_index: Mapping[str, BoxSpec]
    by_kind: Mapping[str, tuple[str, ...]]


def _card_boxes(boxes: list[BoxSpec]) -> _Boxes:
    """The boxes, with the heavy-weapon types among them and the boxes by id and kind."""
    by_kind: dict[str, list[str]] = {}
    for b in boxes:
        by_kind.setdefault(b.kind, []).append(b.id)
    return _Boxes(tuple(boxes), _heavy_types(boxes), MappingProxyType({b.id: b for b in boxes}),
                  MappingProxyType({k: tuple(v) for k, v in by_kind.items()}))


#: The entries read so far, by their exact content (:func:`_known_entry`); emptied before
#: a new one is kept once they have made ``_MADE_MAX`` BoxSpecs (a bound on the memory).
_ENTRIES: dict[tuple, _Entry] = {}
_MADE_MAX = 100_000
_made = 0
#: The boxes of cards whose entries are all known, by those entries; emptied with them,
#: or when it holds ``_CARDS_MAX``.
_CARDS: dict[tuple[_Entry, ...], _Boxes] = {}
_CARDS_MAX = 2_000


def _known_entry(entry: object, extra: Mapping[str, str]) -> _Entry | None:
    """The reading of a plain, valid entry of ``boxes``, or None as :func:`_quick_box`
    says (then the entry is read the slow way).

    The key is the entry's items and the exact type of each value, so ``1``, ``1.0`` and
    ``true`` are different entries; a value that cannot be a key (a list, a table) is not
    plain. A reading does not depend on the card's ``extra_kinds`` but for whether its
    kind is known, which is checked again for every card."""
    global _made
    if type(entry) is not dict:
        return None
    key = (tuple(entry.items()), tuple(map(type, entry.values())))
    try:
        known = _ENTRIES.get(key)
    except TypeError:  # unhashable
        return None
    if known is None:
        quick = _quick_box(entry, extra)
        if quick is None:
            return None
        if _made >= _MADE_MAX:
            _ENTRIES.clear()
            _CARDS.clear()
            _made = 0
        known = _ENTRIES[key] = _Entry(*quick)
    elif (kind := known.fields["kind"]) not in STANDARD_KINDS and kind not in extra:
        return None
    return known


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


def _parse_boxes(node: Node, extra: Mapping[str, str]) -> _Boxes:
    """The card's boxes, in card order (entries with ``count`` give several)."""
    entries = node.list(min_len=1)
    return _known_boxes(entries, extra) or _card_boxes(_check_boxes(entries, extra))


def _known_boxes(entries: list[Node], extra: Mapping[str, str]) -> _Boxes | None:
    """The boxes of entries that are all plain and valid (:func:`_known_entry`), no more
    than ``MAX_BOXES``, every id once; else None, and :func:`_check_boxes` says why.
    Cards with the same entries share their boxes."""
    known: list[_Entry] = []
    count = 0
    for node in entries:
        entry = _known_entry(node.value, extra)
        if entry is None:
            return None
        known.append(entry)
        count += len(entry.ids)
        if count > MAX_BOXES:
            return None
    key = tuple(known)
    found = _CARDS.get(key)
    if found is None:
        boxes: list[BoxSpec] = []
        for entry in known:
            boxes += entry.specs(len(boxes))
        found = _card_boxes(boxes)
        if len(found.box_index) != len(boxes):  # an id used twice
            return None
        if len(_CARDS) >= _CARDS_MAX:
            _CARDS.clear()
        _CARDS[key] = found
    return found


def _check_boxes(entries: list[Node], extra: Mapping[str, str]) -> list[BoxSpec]:
    """The boxes, entry by entry and box by box, refusing the first thing wrong."""
    boxes: list[BoxSpec] = []
    where: dict[str, Node] = {}  # the entry each id was first used at
    for entry in entries:
        known = _known_entry(entry.value, extra)
        ids, fields = (known.ids, known.fields) if known else _parse_box(entry, extra)
        for box_id in ids:
            if box_id in where:
                entry.get("id").fail(f'duplicate box id "{box_id}" (first used at {where[box_id].path})')
            if len(boxes) >= MAX_BOXES:
                entry.fail(f"too many boxes (at most {MAX_BOXES})")
            where[box_id] = entry
            boxes.append(BoxSpec(id=box_id, index=len(boxes), **fields))
    return boxes


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

    parsed = _parse_boxes(root.get("boxes"), extra)

    heavy = parsed.heavy
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

    return FedComClass(
        name=name, damage_control=damage_control, frame=frame, shields=shields,
        heavy_weapon_order=order, boxes=parsed.boxes, extra_kinds=MappingProxyType(extra),
        race=race, size_class=size_class, box_index=parsed.box_index, by_kind=parsed.by_kind,
    )

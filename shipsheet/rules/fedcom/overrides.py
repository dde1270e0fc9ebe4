"""Standing orders (SOP): the player's overrides of the DDAP for one ship and one turn.

[seed 8FC3] "The players have the option, at any time PRIOR to the actual damage
being scored, to override the DDAP. ... These overrides must follow all other
normal rules of damage allocation."
[seed 8FC4] "If an order is vague or illegal, the moderator will fall back upon
the default order of damage without contacting the player".

An :class:`Overrides` is plain data; :func:`resolve` checks it against a ship
and returns what can be applied plus a note, in words, for every part that
cannot (the default order is used for that part).
"""

from __future__ import annotations

from dataclasses import field
from ...model.code_cache import dataclass
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from shipsheet.model.errors import RuleViolation
from shipsheet.model.keypath import Node
from shipsheet.model.ship import clone

from .card import FedComClass, card

MAX_IDS = 500


def _ids(value: Any, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    try:
        items = tuple(value)
    except TypeError:
        raise RuleViolation(f"{what} must be a list of box ids, not {value!r}.") from None
    for item in items:
        if not isinstance(item, str):
            raise RuleViolation(f"{what} must list box ids as text, not {item!r}.")
    return items


@dataclass(frozen=True)
class Overrides:
    """A player's standing orders for one ship and one turn [seed 8FC3].

    - ``first`` / ``last``: box ids hit first / last within their kind, in the
      order listed (the first of ``first`` is hit first, the last of ``last``
      is hit last);
    - ``order``: ``{kind: [ids]}``; the boxes named come first in that order,
      the rest follow by the DDAP;
    - ``frame_instead_of_last``: kinds whose last box is spared by taking frame;
    - ``frame_instead_of_skip``: a point that would be skipped is frame at once;
    - ``heavy_weapon_order``: the heavy-weapon type order for this turn.
    """

    first: tuple[str, ...] = ()
    last: tuple[str, ...] = ()
    order: Mapping[str, tuple[str, ...]] | None = None
    frame_instead_of_last: tuple[str, ...] = ()
    frame_instead_of_skip: bool = False
    heavy_weapon_order: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "first", _ids(self.first, "first"))
        object.__setattr__(self, "last", _ids(self.last, "last"))
        object.__setattr__(self, "frame_instead_of_last",
                           _ids(self.frame_instead_of_last, "frame_instead_of_last"))
        if self.heavy_weapon_order is not None:
            object.__setattr__(self, "heavy_weapon_order",
                               _ids(self.heavy_weapon_order, "heavy_weapon_order"))
        if self.order is not None:
            if not isinstance(self.order, Mapping):
                raise RuleViolation(
                    f"order must map a kind to a list of box ids, not {self.order!r}.")
            order = {}
            for kind, ids in self.order.items():
                if not isinstance(kind, str):
                    raise RuleViolation(f"order: a kind must be text, not {kind!r}.")
                order[kind] = _ids(ids, f"order[{kind}]")
            object.__setattr__(self, "order", MappingProxyType(order))
        if not isinstance(self.frame_instead_of_skip, bool):
            raise RuleViolation("frame_instead_of_skip must be true or false.")

    def __bool__(self) -> bool:
        return bool(self.first or self.last or self.order or self.frame_instead_of_last
                    or self.frame_instead_of_skip or self.heavy_weapon_order is not None)

    # -- editing (each gives new orders; the orders editor uses these) ----------------
    def replaced(self, **changes: Any) -> "Overrides":
        """These orders with some fields changed (validated like new orders)."""
        fields = {"first": self.first, "last": self.last, "order": self.order,
                  "frame_instead_of_last": self.frame_instead_of_last,
                  "frame_instead_of_skip": self.frame_instead_of_skip,
                  "heavy_weapon_order": self.heavy_weapon_order}
        fields.update(changes)
        return Overrides(**fields)

    def placed(self, ids: Iterable[str], where: str, row: int | None = None) -> "Overrides":
        """``ids`` hit ``where`` ("first" or "last"), at ``row`` of that list (the end when
        None); taken out of the other list and out of their old place."""
        if where not in ("first", "last"):
            raise RuleViolation(f'Boxes are hit "first" or "last", not "{where}".')
        ids = list(dict.fromkeys(ids))
        target = list(self.first if where == "first" else self.last)
        if row is None:
            row = len(target)
        row -= sum(1 for i in target[:row] if i in ids)  # the moved ones leave their old place
        target = [i for i in target if i not in ids]
        target[row:row] = ids
        other = [i for i in (self.last if where == "first" else self.first) if i not in ids]
        first, last = (target, other) if where == "first" else (other, target)
        return self.replaced(first=tuple(first), last=tuple(last))

    def without(self, ids: Iterable[str]) -> "Overrides":
        """No first/last order for ``ids`` any more."""
        ids = set(ids)
        return self.replaced(first=tuple(i for i in self.first if i not in ids),
                             last=tuple(i for i in self.last if i not in ids))

    def moved(self, ids: Iterable[str], where: str, step: int) -> "Overrides | None":
        """``ids`` (next to each other in ``where``) moved ``step`` places up (−) or down (+);
        None when they cannot move further."""
        current = list(self.first if where == "first" else self.last)
        ids = [i for i in current if i in set(ids)]
        if not ids:
            return None
        row = current.index(ids[0])
        new_row = max(0, min(len(current) - len(ids), row + step))
        if new_row == row:
            return None
        rest = [i for i in current if i not in ids]
        rest[new_row:new_row] = ids
        return self.replaced(**{where: tuple(rest)})

    def with_frame_instead_of_last(self, kind: str, on: bool) -> "Overrides":
        """Spare (or no longer spare) the last box of ``kind`` by taking frame [seed 8FC3]."""
        kinds = [k for k in self.frame_instead_of_last if k != kind] + ([kind] if on else [])
        return self.replaced(frame_instead_of_last=tuple(kinds))

    def heavy_type_moved(self, order: Iterable[str], row: int, step: int) -> "Overrides | None":
        """The heavy-weapon type order ``order`` with the type at ``row`` moved by ``step``."""
        types = list(order)
        if not 0 <= row < len(types) or not 0 <= row + step < len(types):
            return None
        types[row], types[row + step] = types[row + step], types[row]
        return self.replaced(heavy_weapon_order=tuple(types))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Overrides) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(repr(self.to_json()))

    # -- plain data (ship state) ------------------------------------------------
    def to_json(self) -> dict:
        """The orders as plain JSON (only the parts that are set)."""
        data: dict[str, Any] = {}
        if self.first:
            data["first"] = list(self.first)
        if self.last:
            data["last"] = list(self.last)
        if self.order:
            data["order"] = {k: list(v) for k, v in self.order.items()}
        if self.frame_instead_of_last:
            data["frame_instead_of_last"] = list(self.frame_instead_of_last)
        if self.frame_instead_of_skip:
            data["frame_instead_of_skip"] = True
        if self.heavy_weapon_order is not None:
            data["heavy_weapon_order"] = list(self.heavy_weapon_order)
        return data

    @classmethod
    def from_json(cls, data: Mapping | None) -> "Overrides":
        """Orders from plain JSON (as stored in a ship's state)."""
        if not data:
            return cls()
        return cls(first=tuple(data.get("first", ())), last=tuple(data.get("last", ())),
                   order=data.get("order"),
                   frame_instead_of_last=tuple(data.get("frame_instead_of_last", ())),
                   frame_instead_of_skip=bool(data.get("frame_instead_of_skip", False)),
                   heavy_weapon_order=data.get("heavy_weapon_order"))

    @classmethod
    def check_json(cls, node: Node) -> "Overrides":
        """Validate orders read from a file (structure only: ids are checked when used)."""
        node.table()
        node.only_keys("first", "last", "order", "frame_instead_of_last",
                       "frame_instead_of_skip", "heavy_weapon_order")

        def id_list(child: Node) -> tuple[str, ...]:
            return tuple(item.str(max_len=40) for item in child.list(max_len=MAX_IDS))

        order = None
        if node.has("order"):
            order = {kind: id_list(child) for kind, child in node.get("order").items()}
        hwo = node.get("heavy_weapon_order", None)
        return cls(
            first=id_list(node.get("first", [])), last=id_list(node.get("last", [])),
            order=order,
            frame_instead_of_last=id_list(node.get("frame_instead_of_last", [])),
            frame_instead_of_skip=node.get("frame_instead_of_skip", False).bool(),
            heavy_weapon_order=None if hwo.value is None else id_list(hwo))

    def describe(self) -> list[str]:
        """The orders in words, one line per part (for the log and the SOP editor)."""
        lines = []
        if self.first:
            lines.append("hit first: " + ", ".join(self.first))
        if self.last:
            lines.append("hit last: " + ", ".join(self.last))
        for kind, ids in (self.order or {}).items():
            lines.append(f"{kind} order: " + ", ".join(ids))
        if self.frame_instead_of_last:
            lines.append("frame instead of the last box of: "
                         + ", ".join(self.frame_instead_of_last))
        if self.frame_instead_of_skip:
            lines.append("frame instead of skipping a point")
        if self.heavy_weapon_order is not None:
            lines.append("heavy-weapon order: " + ", ".join(self.heavy_weapon_order))
        return lines


def as_overrides(value: "Overrides | Mapping | None") -> "Overrides":
    if value is None:
        return Overrides()
    if isinstance(value, Overrides):
        return value
    if isinstance(value, Mapping):
        try:
            return Overrides.from_json(value)
        except (TypeError, AttributeError) as exc:
            raise RuleViolation(f"Standing orders not understood: {exc}") from None
    raise RuleViolation(f"Standing orders must be an Overrides, not {type(value).__name__}.")


# -- checking orders against a ship ---------------------------------------------------------

@dataclass
class Resolved:
    """The applicable part of some orders for one ship, and notes on the rest."""

    #: kind -> ids placed before the DDAP order, in order (from ``first`` then ``order``)
    front: dict[str, list[str]] = field(default_factory=dict)
    #: kind -> ids placed after the DDAP order, in order (the last one is hit last)
    back: dict[str, list[str]] = field(default_factory=dict)
    frame_instead_of_last: frozenset = frozenset()
    frame_instead_of_skip: bool = False
    heavy_weapon_order: tuple[str, ...] = ()
    #: "standing order" when the type order came from the orders, else "card"
    heavy_order_source: str = "card"
    notes: list[str] = field(default_factory=list)


def resolve(spec: FedComClass, destroyed: Iterable[str], orders: Overrides) -> Resolved:
    """Check ``orders`` against a ship; keep what is legal, note every part that is not."""
    destroyed = set(destroyed)
    out = Resolved(heavy_weapon_order=spec.heavy_weapon_order)
    notes = out.notes
    boxes = spec.box_index

    # [FC-H7] "Vague orders": an id named in more than one place is vague [seed 8FC4];
    # none of its mentions applies.
    mentions: dict[str, list[str]] = {}
    for where, ids in (("first", orders.first), ("last", orders.last),
                       *((f"order[{k}]", v) for k, v in (orders.order or {}).items())):
        for box_id in dict.fromkeys(ids):
            mentions.setdefault(box_id, []).append(where)
    vague = {box_id for box_id, places in mentions.items() if len(places) > 1}
    for box_id in vague:
        notes.append(f'Order for "{box_id}" not applied: it is named in '
                     f'{" and ".join(mentions[box_id])}, which is vague; the DDAP order is used.')

    def usable(box_id: str, where: str, kind: str | None = None) -> bool:
        if box_id in vague:
            return False
        box = boxes.get(box_id)
        if box is None:
            notes.append(f'{where}: "{box_id}" not applied: this ship has no such box.')
            return False
        if kind is not None and box.kind != kind:
            notes.append(f'{where}: "{box_id}" not applied: it is a {box.kind} box, not {kind}.')
            return False
        if box_id in destroyed:
            notes.append(f'{where}: "{box_id}" not applied: that box is already destroyed.')
            return False
        return True

    def dupes(ids: tuple[str, ...], where: str) -> list[str]:
        seen: list[str] = []
        for box_id in ids:
            if box_id in seen:
                notes.append(f'{where}: "{box_id}" is listed twice; only its first place is used.')
            else:
                seen.append(box_id)
        return seen

    for box_id in dupes(orders.first, "first"):
        if usable(box_id, "first"):
            out.front.setdefault(boxes[box_id].kind, []).append(box_id)
    for kind, ids in (orders.order or {}).items():
        where = f"order[{kind}]"
        if kind not in spec.by_kind:
            notes.append(f'{where} not applied: this ship has no {kind} boxes.')
            continue
        for box_id in dupes(ids, where):
            if usable(box_id, where, kind):
                out.front.setdefault(kind, []).append(box_id)
    for box_id in dupes(orders.last, "last"):
        if usable(box_id, "last"):
            out.back.setdefault(boxes[box_id].kind, []).append(box_id)

    kinds = []
    for kind in dict.fromkeys(orders.frame_instead_of_last):
        if kind == "frame":
            notes.append("frame_instead_of_last: \"frame\" not applied: frame is not a system "
                         "whose last box can be spared.")
        elif kind not in spec.by_kind:
            notes.append(f'frame_instead_of_last: "{kind}" not applied: this ship has no '
                         f'{kind} boxes.')
        else:
            kinds.append(kind)
    out.frame_instead_of_last = frozenset(kinds)
    out.frame_instead_of_skip = orders.frame_instead_of_skip

    if orders.heavy_weapon_order is not None:
        types = spec.heavy_types
        given = orders.heavy_weapon_order
        bad = [t for t in given if t not in types]
        if not types:
            notes.append("heavy_weapon_order not applied: this ship has no heavy weapons.")
        elif bad:
            what = "is not a heavy-weapon type" if len(bad) == 1 else "are not heavy-weapon types"
            notes.append(f'heavy_weapon_order not applied: {", ".join(bad)} {what}'
                         f' of this ship (its types: {", ".join(types)}); the card\'s order '
                         f'{", ".join(spec.heavy_weapon_order)} is used.')
        elif len(set(given)) != len(given):
            notes.append(f'heavy_weapon_order not applied: a type is listed twice '
                         f'({", ".join(given)}); the card\'s order is used.')
        elif len(given) != len(types):
            missing = [t for t in types if t not in given]
            notes.append(f'heavy_weapon_order not applied: it must rank every heavy-weapon type; '
                         f'{", ".join(missing)} missing; the card\'s order is used.')
        else:
            out.heavy_weapon_order = tuple(given)
            out.heavy_order_source = "standing order"
    return out


# -- the ship's standing orders, per turn ------------------------------------------------

def set_orders(ship, overrides: "Overrides | Mapping | None") -> list[str]:
    """Give the ship's standing orders for this turn (replacing any); log lines.

    Orders are stored as given; parts that name no such box or are illegal are
    reported when a volley is allocated, and the default order is used [seed 8FC4].
    """
    spec = card(ship)
    orders = as_overrides(overrides)
    # What is stored must load back from a session file: the same checks (as a refusal)
    # and the same normalisation (ids without stray spaces).
    orders = Overrides.check_json(Node(orders.to_json(), "", "standing orders", RuleViolation))
    ship.state["orders"] = orders.to_json()
    lines = orders.describe()
    notes = resolve(spec, ship.state["destroyed"], orders).notes
    return (lines or ["no standing orders: the DDAP applies"]) + [f"Note: {n}" for n in notes]


def copy_orders_forward(ship) -> list[str]:
    """Copy this turn's standing orders to the next turn (they lapse otherwise) [seed 8FC3]:
    "The info would have to be in each and every SOP that you want it to apply"."""
    card(ship)
    orders = ship.state["orders"]
    if not orders:
        raise RuleViolation(f"{ship.name} has no standing orders this turn to copy.")
    ship.state["next_orders"] = clone(orders)
    words = "; ".join(Overrides.from_json(orders).describe())
    return [f"standing orders copied to the next turn: {words}"]


def cancel_copy_forward(ship) -> list[str]:
    """Undo a "copy to next turn": the orders will lapse at the end of this turn."""
    card(ship)
    if ship.state["next_orders"] is None:
        raise RuleViolation(f"{ship.name}'s orders are not copied to the next turn.")
    ship.state["next_orders"] = None
    return ["standing orders will lapse at the end of this turn"]


def orders_of(ship) -> Overrides:
    """The ship's standing orders this turn."""
    return Overrides.from_json(ship.state.get("orders"))


__all__ = ["Overrides", "Resolved", "as_overrides", "cancel_copy_forward", "copy_orders_forward",
           "orders_of", "resolve", "set_orders"]

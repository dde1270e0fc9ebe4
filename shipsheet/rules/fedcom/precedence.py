"""The DDAP's order of precedence: which box of a kind is hit [seed 8FC4].

For one kind, the intact boxes are ranked by their kind's line of the 8FC4
table (with the turn states), then by firing arc (most restricted first),
and the boxes still equal form a *tie group*, hit in random order (the
session's dice) or, without dice, in card order. Standing orders put named
boxes in front of (``first``, ``order``) or behind (``last``) that ranking.

:class:`KindQueue` is the working form used while a volley is allocated:
built once per kind per volley, then each hit takes the next box in O(1)
(apart from random tie-breaks).
"""

from __future__ import annotations

import weakref
from typing import Any, Mapping

from shipsheet.model.text import ordinal

from .card import OCCUPANTS, PHASER_TYPES, TRACTOR_STATES, WEAPON_KINDS, BoxSpec, FedComClass
from .overrides import Resolved
from .state import turn_states

_PHASER_RANK = {t: i for i, t in enumerate(PHASER_TYPES)}
_OCCUPANT_RANK = {o: i for i, o in enumerate(OCCUPANTS)}
_TRACTOR_RANK = {t: i for i, t in enumerate(TRACTOR_STATES)}
#: [seed 8FC4] "HEAVY WEAPONS : Smallest Fired, smallest charging, smallest unfired."
_HEAVY_STATE_RANK = {"fired": 0, "charging": 1, "unfired": 2}
_OCCUPANT_WORDS = {"empty": "unoccupied", "admin": "admin shuttle", "suicide": "suicide shuttle"}
_TRACTOR_WORDS = {"used-dropped": "used and dropped this turn", "unused": "unused",
                  "holding": "in use holding an object"}


def ddap_rank(box: BoxSpec, turn: Mapping[str, str], drones: Mapping[str, int],
              occupants: Mapping[str, str], heavy_rank: Mapping[str, int],
              heavy_source: str = "card") -> tuple[tuple, str]:
    """The box's place in its kind's 8FC4 line (lower is hit first) and that line in words."""
    kind = box.kind
    state = turn.get(box.id) or turn_states(kind)[0]
    if kind == "phaser":
        # [seed 8FC4] "PHASERS : Fired Ph-3, unfired Ph-3, Fired Ph-2, unfired Ph-2, Fired
        # Ph-G, unfired Ph-G, Fired Ph-1, unfired Ph-1, Fired Ph-4, unfired Ph-4."
        fired = state == "fired"
        return ((_PHASER_RANK[box.type], 0 if fired else 1),
                f"DDAP phasers: {'fired' if fired else 'unfired'} {box.type}")
    if kind == "torpedo":
        # [seed 8FC4] "Smallest Fired, smallest charging, smallest unfired. In the case of
        # multiple types of weapons on one ship, the owner will need to specify which will
        # be hit first." [FC-H13] how the two combine is our reading: the type order ranks
        # first, fired/charging/unfired and size within a type.
        t = heavy_rank.get(box.type, len(heavy_rank))
        words = f"DDAP heavy weapons: {state} {box.type}, size {box.size}"
        if len(heavy_rank) > 1:
            source = ("order of the standing orders" if heavy_source == "standing order"
                      else heavy_source + " order")
            words += (f" ({box.type} is type {t + 1} of {len(heavy_rank)} in the {source}, "
                      "which ranks first: house rule FC-H13)")
        return (t, _HEAVY_STATE_RANK.get(state, 2), box.size), words
    if kind == "drone":
        # [seed 8FC4] "Hit ones that have Fired/Launched on the current turn prior to ones
        # that have not, and within each category, the one with the least spaces of
        # available drones." [FC-H14] read as the fewest drones left.
        launched = state == "launched"
        left = drones.get(box.id, box.drones)
        return ((0 if launched else 1, left),
                f"DDAP drone racks: {'launched' if launched else 'not launched'} this turn, "
                f"{left} drone{'s' if left != 1 else ''} left")
    if kind == "shuttle":
        # [seed 8FC4] "SHUTTLE BAYS : Unoccupied, occupied with admin shuttle, occupied
        # with suicide shuttle."
        occ = occupants.get(box.id, box.occupant)
        return (_OCCUPANT_RANK[occ],), f"DDAP shuttle bays: {_OCCUPANT_WORDS[occ]}"
    if kind == "tractor":
        # [seed 8FC4] "TRACTOR BEAMS : Used and dropped this turn, unused, in use holding object."
        return (_TRACTOR_RANK[state],), f"DDAP tractors: {_TRACTOR_WORDS[state]}"
    # [seed 8FC4] "OTHER SYSTEMS : Used this turn, not used this turn."
    used = state == "used"
    return (0 if used else 1,), f"DDAP other systems: {'used' if used else 'not used'} this turn"


def roll_die(rng: Any, sides: int, reason: str) -> int:
    """Roll one die with ``rng``: the session dice (logged with ``reason``) or any
    object with ``randint`` (e.g. ``random.Random``)."""
    roll = getattr(rng, "roll", None)
    if roll is not None:
        return roll(sides, reason)
    return rng.randint(1, sides)


def random_ties(box: BoxSpec) -> bool:
    """Whether ties among boxes like this one are broken with the dice.

    [seed 8FC4] "In cases where the default or modified order of damage results in
    two or more weapons falling into the same category, hit the one with the most
    restricted arc first. If both arcs are equal, determine randomly."
    [seed 8FC1] the DDAP decides "when there is more than one choice, and that choice
    can affect the battle." [FC-H2] So weapons, and boxes with a firing arc, are
    chosen at random; equal boxes of other kinds (hull, warp, labs ...) are
    interchangeable and taken in card order, without a roll.
    """
    return box.kind in WEAPON_KINDS or box.has_arc


class _Entry:
    """A run of boxes the order cannot separate (a tie group), or one box placed by an order."""

    __slots__ = ("ids", "reason", "random")

    def __init__(self, ids: list[str], reason: str, random: bool):
        self.ids = ids
        self.reason = reason     # the rule that puts these boxes here, in words
        self.random = random     # ties among them are broken with the dice


class KindQueue:
    """The intact boxes of one kind in hit order, consumed as they are hit."""

    __slots__ = ("kind", "entries", "pos", "left")

    def __init__(self, kind: str, entries: list[_Entry]):
        self.kind = kind
        self.entries = entries
        self.pos = 0
        self.left = sum(len(e.ids) for e in entries)

    def take(self, rng: Any = None) -> tuple[str, str]:
        """Hit the next box: return its id and the reason in words. The kind must have one."""
        entries = self.entries
        entry = entries[self.pos]
        ids = entry.ids
        self.left -= 1
        if len(ids) == 1:
            box_id = ids.pop()
            reason = entry.reason
            if self.left == 0:
                reason += f"; the last {self.kind}"
        elif not entry.random:
            box_id = ids.pop(0)
            reason = entry.reason + "; equal boxes, taken in card order"
        elif rng is None:
            box_id = ids.pop(0)
            reason = (f"{entry.reason}; tie among {', '.join([box_id] + ids)} "
                      f"broken in card order (no dice given)")
        else:
            n = len(ids)
            tied = ", ".join(ids)
            roll = roll_die(rng, n, f"random tie-break among {tied}")
            box_id = ids.pop(roll - 1)
            # [seed 8FC4] "If both arcs are equal, determine randomly."
            reason = f"{entry.reason}; random tie-break among {tied}: rolled {roll} of {n}"
        if not ids:
            self.pos += 1
            while self.pos < len(entries) and not entries[self.pos].ids:
                self.pos += 1
        return box_id, reason


#: Per card: hit-order templates by signature (the state that decides the order).
#: A changed state has another signature, so a stale order is never reused.
_templates: "weakref.WeakKeyDictionary[FedComClass, dict]" = weakref.WeakKeyDictionary()
_MAX_TEMPLATES = 1024


def _signature(spec: FedComClass, kind: str, state: Mapping, resolved: Resolved,
               gone: Any) -> tuple:
    ids = spec.by_kind.get(kind, ())
    turn = state["turn"]
    if kind == "drone":
        extra = tuple([state["drones"].get(i) for i in ids])
    elif kind == "shuttle":
        extra = tuple([state["occupant"].get(i) for i in ids])
    elif kind == "torpedo":
        extra = (resolved.heavy_weapon_order, resolved.heavy_order_source)
    else:
        extra = ()
    return (kind, tuple([i in gone for i in ids]), tuple([turn.get(i) for i in ids]), extra,
            tuple(resolved.front.get(kind, ())), tuple(resolved.back.get(kind, ())))


def _template(spec: FedComClass, kind: str, state: Mapping, resolved: Resolved,
              destroyed: Any) -> tuple[tuple, ...]:
    """The hit order of ``kind`` as entries (ids, reason, random tie-breaks).

    [FC-H8] "Order composition": the boxes of ``first`` (as listed), then those of
    ``order``, then the DDAP order, then the boxes of ``last`` (the last listed hit last).
    """
    turn = state["turn"]
    drones = state["drones"]
    occupants = state["occupant"]
    front = resolved.front.get(kind, ())
    back = resolved.back.get(kind, ())
    placed = set(front) | set(back)
    heavy_rank = {t: i for i, t in enumerate(resolved.heavy_weapon_order)}
    ranked = []
    for box_id in spec.by_kind.get(kind, ()):
        if box_id in destroyed or box_id in placed:
            continue
        box = spec.box_index[box_id]
        rank, words = ddap_rank(box, turn, drones, occupants, heavy_rank,
                                resolved.heavy_order_source)
        ranked.append((rank, box.arc_degrees, box.index, box, words))
    ranked.sort(key=_sort_key)
    entries: list[tuple] = []
    for n, box_id in enumerate(front, start=1):
        if box_id not in destroyed:
            entries.append(((box_id,), f"standing order: {ordinal(n)} {kind} to hit",
                            None, 360, True, "", False))
    prev = None
    group: list[str] = []
    for rank, arc, _index, box, words in ranked:
        key = (rank, arc)
        if key == prev:
            group.append(box.id)
            if random_ties(box) and not entries[-1][6]:
                entries[-1] = entries[-1][:6] + (True,)
        else:
            group = [box.id]
            entries.append((group, words, rank, arc, False, box.arc_text, random_ties(box)))
            prev = key
    count = len(back)
    for n, box_id in enumerate(back, start=1):
        if box_id not in destroyed:
            where = "last" if n == count else f"{ordinal(count - n + 1)} from last"
            entries.append(((box_id,), f"standing order: hit {where} among {kind}",
                            None, 360, True, "", False))
    # [seed 8FC4] "hit the one with the most restricted arc first": say so where the arc
    # decided, i.e. where the next entry has the same rank with a wider arc.
    out = []
    for i, (ids, reason, rank, arc, fixed, arc_text, rnd) in enumerate(entries):
        if not fixed and i + 1 < len(entries):
            nxt = entries[i + 1]
            if not nxt[4] and nxt[2] == rank:
                reason = f"{reason}; most restricted arc ({arc_text}, {arc}° before {nxt[3]}°)"
        out.append((tuple(ids), reason, rnd))
    return tuple(out)


def build_queue(spec: FedComClass, kind: str, state: Mapping, resolved: Resolved,
                gone: Any = None) -> KindQueue:
    """The hit order of ``kind`` for a ship in ``state``, with the applicable orders.

    Orders are cached per card by the state that decides them (precomputed once,
    reused while that state is unchanged).
    """
    destroyed = set(state["destroyed"]) if gone is None else gone
    cache = _templates.get(spec)
    if cache is None:
        cache = _templates[spec] = {}
    sig = _signature(spec, kind, state, resolved, destroyed)
    template = cache.get(sig)
    if template is None:
        if len(cache) >= _MAX_TEMPLATES:
            cache.clear()
        template = cache[sig] = _template(spec, kind, state, resolved, destroyed)
    return KindQueue(kind, [_Entry(list(ids), reason, rnd) for ids, reason, rnd in template])


def _sort_key(item: tuple) -> tuple:
    return item[0], item[1], item[2]


__all__ = ["KindQueue", "build_queue", "ddap_rank", "ordinal", "roll_die"]

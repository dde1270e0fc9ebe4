"""The boxes of a Federation Commander ship card: their keys, and what each is and does.

The card (``sheets/fedcom.py``) places three sorts of box, each named here once:

- ``box:<id>`` (:func:`box_key`): a box of the card — weapon, shuttle bay, tractor, system,
  hull. A click sets its next turn state (fired, charging, launched, used …, [FC-H5]); its
  menu sets the other states, the drones left in a rack, a shuttle bay's occupant, and the
  referee's corrections (destroy or restore by hand). A destroyed box has no turn state:
  the rules' refusal (``state.turn_state_refusal``) says why, and its menu restores it. A
  tap on one is the owner's decision (DECIDE).
- ``shield:<n>:<k>`` (:func:`shield_key`): box ``k`` of shield #``n`` (1–6, [FC]). A click
  marks it and the boxes before it down, or regenerates it and the boxes after it
  ("regeneration costs 2 energy per box", entered by hand [FC]): a damage mark (MARK).
- ``frame:<k>`` (:func:`frame_key`): frame box ``k``. A click marks it and the boxes before
  it destroyed, or restores it and those after it: a damage mark (MARK).

:class:`FedComBoxes` answers for any of them (``model.boxes``) with the rules' own words
and action builders (``actions.py``); any other string — a phone may send anything — has
no answer (None). Pure Python, no Qt.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import TYPE_CHECKING

from shipsheet.model.boxes import BoxAnswer, GameBoxes, MenuEntries, key_number
from shipsheet.model.decisions import DECIDE, MARK

from .actions import (mark_box_action, mark_frame_action, mark_shield_action, set_drones_action,
                      set_occupant_action, set_turn_state_action)
from .card import OCCUPANTS, BoxSpec, FedComClass, card
from .precedence import ordinal
from .state import next_state, turn_state, turn_state_refusal, turn_states
from .status import repair_cost
from .volley import explain_order, resolved_orders
from .words import KIND_NOUNS, OCCUPANT_WORDS, SHIELD_NAMES, state_word

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

#: The sorts of key (the part before the first ":").
BOX, SHIELD, FRAME = "box", "shield", "frame"
_SEP = ":"
#: Shields are numbered 1 to 6 [FC].
SHIELDS = range(1, 7)
#: The most digits a box number of a key may have (a card has at most a few hundred boxes).
_DIGITS = 6


def box_key(box_id: str) -> str:
    """The key of the card's box ``box_id``: ``box:ph-1``."""
    return f"{BOX}{_SEP}{box_id}"


def shield_key(shield: int, k: int) -> str:
    """The key of box ``k`` (from 1) of shield #``shield``: ``shield:1:5``."""
    return f"{SHIELD}{_SEP}{shield}{_SEP}{k}"


def frame_key(k: int) -> str:
    """The key of frame box ``k`` (from 1): ``frame:2``."""
    return f"{FRAME}{_SEP}{k}"


def _number(text: str) -> int | None:
    """A box number as a key writes it (from 1), else None."""
    n = key_number(text, _DIGITS)
    return n if n else None


#: Keys at most this long have their reading kept (``_parse``): every key a card places is
#: far shorter; a phone's longer string is read each time, never kept.
_KEPT_KEY = 64


def parse_key(key: object) -> tuple | None:
    """What a key names, by its form alone (not checked against a card): ``(BOX, id)``,
    ``(SHIELD, n, k)`` or ``(FRAME, k)``; None for anything else."""
    if not isinstance(key, str):
        return None
    if len(key) <= _KEPT_KEY:
        return _parse_kept(key)
    return _parse(key)


@lru_cache(maxsize=4096)
def _parse_kept(key: str) -> tuple | None:
    """:func:`_parse`, kept: a phone's sheet asks for every box's answer at each change."""
    return _parse(key)


def _parse(key: str) -> tuple | None:
    sort, sep, rest = key.partition(_SEP)
    if not sep:
        return None
    if sort == BOX:
        return (BOX, rest) if rest else None
    if sort == FRAME:
        k = _number(rest)
        return None if k is None else (FRAME, k)
    if sort == SHIELD:
        shield, sep, box = rest.partition(_SEP)
        n, k = _number(shield), _number(box)
        if not sep or n is None or k is None or n not in SHIELDS:
            return None
        return (SHIELD, n, k)
    return None


def _located(spec: FedComClass, key: str) -> tuple | None:
    """What ``key`` names on the card ``spec``: ``(BOX, box)``, ``(SHIELD, n, k, size)`` or
    ``(FRAME, k)``; None when the card has no such box (the one place :meth:`FedComBoxes.answer`
    and :meth:`FedComBoxes.says` agree on which keys are boxes)."""
    parsed = parse_key(key)
    if parsed is None:
        return None
    if parsed[0] == BOX:
        box = spec.box_index.get(parsed[1])
        return None if box is None else (BOX, box)
    if parsed[0] == SHIELD:
        _, n, k = parsed
        size = spec.shields[n - 1]
        return (SHIELD, n, k, size) if k <= size else None
    return parsed if parsed[1] <= spec.frame else None


class FedComBoxes(GameBoxes):
    """The answers for the card's boxes (see the module's docstring)."""

    def answer(self, session: "Session | None", ship: "Ship", key: str, *,
               places: dict | None = None) -> BoxAnswer | None:
        """``places``: the DDAP places found so far for these answers, by kind (shared by
        :meth:`answers`: a kind's hit order is worked out once, not once per box)."""
        spec = card(ship)
        found = _located(spec, key)
        if found is None:
            return None
        if found[0] == BOX:
            return _box_answer(ship, spec, found[1], places)
        if found[0] == SHIELD:
            return _shield_answer(ship, spec, found[1], found[2])
        return _frame_answer(ship, spec, found[1])

    def answers(self, session: "Session | None", ship: "Ship",
                keys: "list[str]") -> "list[BoxAnswer | None]":
        places: dict = {}
        return [self.answer(session, ship, key, places=places) for key in keys]

    def says(self, session: "Session | None", ship: "Ship", keys: "list[str]") -> list:
        """What each box's words are worked out from (``GameBoxes.says``): a shield box's
        what :func:`_shield_words` reads, a frame box's what :func:`_frame_answer` reads, a
        card box's :func:`_box_says`; None for a key the card has no box for."""
        spec = card(ship)
        st = ship.state
        places: dict = {}
        out = []
        for key in keys:
            found = _located(spec, key)
            if found is not None:
                if found[0] == BOX:
                    box = found[1]
                    state = None if box.id in st["destroyed"] else turn_state(ship, box.id)
                    found = _box_says(ship, spec, box, state, places)
                elif found[0] == SHIELD:
                    found = (*found, st["shield_damage"][found[1] - 1])
                else:
                    found = (FRAME, found[1], spec.frame, st["frame_hits"])
            out.append(found)
        return out


# -- shields and frame: tally marks -------------------------------------------------------

def _shield_answer(ship: "Ship", spec: FedComClass, n: int, k: int) -> BoxAnswer:
    """Box ``k`` of shield #``n``: a click marks boxes down to it, or regenerates from it
    [FC] "Shields regenerate at 2 energy per box" (by hand: volleys mark shields)."""
    size, down = spec.shields[n - 1], ship.state["shield_damage"][n - 1]
    label, where, target, tooltip = _shield_words(n, k, size, down)
    return BoxAnswer(label, state=where, right=MARK, tooltip=tooltip,
                     click=partial(mark_shield_action, ship, n, target))


@lru_cache(maxsize=4096)
def _shield_words(n: int, k: int, size: int, down: int) -> tuple[str, str, int, str]:
    """Box ``k`` of shield #``n`` (of ``size`` boxes, ``down`` of them down): its label, up
    or down, the boxes down after a click, and its tooltip. Kept: a card's shields are
    a hundred-odd boxes, answered again at every change of a phone's sheet."""
    if k <= down:
        click = f"regenerate boxes {k}–{down}" if k < down else f"regenerate box {k}"
        where, target = "down", k - 1
    else:
        click = f"mark boxes {down + 1}–{k} down" if k > down + 1 else f"mark box {k} down"
        where, target = "up", k
    label = f"Shield #{n} ({SHIELD_NAMES[n]}), box {k} of {size}"
    tooltip = (f"{label}: {where}\n"
               f"{size - down} of {size} boxes up\n"
               f"Click: {click} (by hand: volleys mark shields themselves; regeneration costs "
               f"2 energy per box)")
    return label, where, target, tooltip


def _frame_answer(ship: "Ship", spec: FedComClass, k: int) -> BoxAnswer:
    """Frame box ``k``: a click marks the frame destroyed up to it, or restores from it;
    [FC] a frame hit with no frame box left destroys the ship."""
    hits = ship.state["frame_hits"]
    if k <= hits:
        target, what = k - 1, (f"restore boxes {k}–{hits}" if k < hits else f"restore box {k}")
    else:
        target, what = k, (f"mark boxes {hits + 1}–{k} destroyed" if k > hits + 1
                           else f"mark box {k} destroyed")
    where = "destroyed" if k <= hits else "intact"
    label = f"Frame box {k} of {spec.frame}"
    tooltip = (f"{label}: {where}\n"
               f"{spec.frame - hits} of {spec.frame} frame boxes left; a frame hit with none "
               f"left destroys the ship\n"
               f"Click: {what} (by hand: volleys mark frame themselves)")
    return BoxAnswer(label, state=where, right=MARK, tooltip=tooltip,
                     click=partial(mark_frame_action, ship, target))


# -- the card's boxes: turn states and corrections ------------------------------------------

def _box_says(ship: "Ship", spec: FedComClass, box: BoxSpec, state: str | None,
              places: dict | None = None) -> tuple:
    """Everything :func:`_box_answer`'s words are worked out from (``GameBoxes.says``): the
    box itself (its title, kind and drones), its turn state (None: destroyed, which its
    refusal and click follow), and what :func:`_box_tooltip` and :func:`_box_menu` read of
    the ship: a destroyed box's repair cost and the points paid toward it; an intact one's
    drones left, its bay's occupant and its place in the DDAP hit order."""
    st = ship.state
    if state is None:
        repair = st.get("repair")
        paid = repair["points"] if repair and repair.get("box") == box.id else None
        return (BOX, box, None, repair_cost(spec, box.id), paid)
    return (BOX, box, state,
            st["drones"].get(box.id, box.drones) if box.kind == "drone" else None,
            st["occupant"].get(box.id, box.occupant) if box.kind == "shuttle" else None,
            _hit_place(ship, box, places))


def _box_title(box: BoxSpec) -> str:
    """The box in one line: "ph-5 · phaser · Ph-3 · arc 360 (360°)"."""
    bits = [box.id, box.kind]
    if box.type:
        bits.append(box.type)
    if box.kind == "torpedo":
        bits.append(f"size {box.size}")
    if box.has_arc:
        bits.append(f"arc {box.arc_text} ({box.arc_degrees}°)")
    return " · ".join(bits)


def _box_answer(ship: "Ship", spec: FedComClass, box: BoxSpec, places: dict | None = None) -> BoxAnswer:
    """A box of the card: a click sets its next turn state [FC-H5]; a destroyed one has none
    (the rules' refusal says so). A tap is the owner's decision."""
    destroyed = box.id in ship.state["destroyed"]
    state = None if destroyed else turn_state(ship, box.id)
    refusal = turn_state_refusal(ship, box.id) if destroyed else None  # the rules' words
    click = None
    if refusal is None:
        click = partial(set_turn_state_action, ship, box.id, next_state(box.kind, state))
    return BoxAnswer(_box_title(box), state="destroyed" if destroyed else state_word(box.kind, state),
                     right=DECIDE, click=click, refusal=refusal,
                     tooltip=partial(_box_tooltip, ship, spec, box, state, places),
                     menu=partial(_box_menu, ship, box, state))


#: In a ``places`` table (:func:`_hit_place`), beside the kinds: the ship's standing orders
#: resolved against it.
_RESOLVED = object()


def _hit_place(ship: "Ship", box: BoxSpec, places: dict | None = None) -> tuple[int, int, str] | None:
    """(place, of how many, why) of the box in the DDAP hit order of its kind now [seed 8FC4],
    standing orders applied [seed 8FC3]; None when it is not in it. ``places``: the places
    of each kind worked out already for the same answers, kept there."""
    found = None if places is None else places.get(box.kind)
    if found is None:
        resolved = None
        if places is not None:  # the orders checked once for all the kinds asked
            resolved = places.get(_RESOLVED)
            if resolved is None:
                resolved = places[_RESOLVED] = resolved_orders(ship)
        order, _notes = explain_order(ship, box.kind, resolved=resolved)
        found = {}
        for n, (box_id, why) in enumerate(order, 1):
            found.setdefault(box_id, (n, len(order), why))
        if places is not None:
            places[box.kind] = found
    return found.get(box.id)


def _box_tooltip(ship: "Ship", spec: FedComClass, box: BoxSpec, state: str | None,
                 places: dict | None = None) -> str:
    st = ship.state
    kind = box.kind
    lines = [_box_title(box)]
    if state is None:  # destroyed
        cost = repair_cost(spec, box.id)  # [FC] repair costs by category
        repair = st.get("repair")
        if repair and repair.get("box") == box.id:  # [FC-H10] points carried toward it
            lines.append(f"Destroyed; under repair: {repair['points']} of {cost} points paid")
        else:
            lines.append(f"Destroyed; repair costs {cost} points")
        lines.append("Right-click: restore by hand (a referee's correction)")
        return "\n".join(lines)
    status_bits = [f"Intact; {state_word(kind, state)} this turn"]
    if kind == "drone":
        status_bits.append(f"{st['drones'].get(box.id, box.drones)} of {box.drones} drones left")
    if kind == "shuttle":
        status_bits.append(f"holds: {OCCUPANT_WORDS[st['occupant'].get(box.id, box.occupant)]}")
    lines.append(" · ".join(status_bits))
    place = _hit_place(ship, box, places)
    if place is not None:
        n, total, why = place
        noun = KIND_NOUNS.get(kind, f"{kind} boxes")
        lines.append(f"DDAP: {ordinal(n)} of {total} {noun} to be hit ({why})")
    lines.append(f"Click: set {state_word(kind, next_state(kind, state))}. Right-click: more")
    return "\n".join(lines)


def _box_menu(ship: "Ship", box: BoxSpec, state: str | None) -> MenuEntries:
    st = ship.state
    kind = box.kind
    if state is None:
        return [(f"Restore {box.id} by hand (correction)", partial(mark_box_action, ship, box.id, False))]
    nxt = next_state(kind, state)
    menu: MenuEntries = []
    for other in turn_states(kind):
        if other not in (state, nxt):
            menu.append((f"Set {state_word(kind, other)}",
                         partial(set_turn_state_action, ship, box.id, other)))
    if kind == "drone":
        left = st["drones"].get(box.id, box.drones)
        for n in range(box.drones, -1, -1):
            if n != left:
                menu.append((f"{n} drone{'s' if n != 1 else ''} left",
                             partial(set_drones_action, ship, box.id, n)))
    if kind == "shuttle":
        occ = st["occupant"].get(box.id, box.occupant)
        for other in OCCUPANTS:  # [seed 8FC4] unoccupied, admin, suicide
            if other != occ:
                menu.append((f"Holds: {OCCUPANT_WORDS[other]}",
                             partial(set_occupant_action, ship, box.id, other)))
    menu.append((f"Destroy {box.id} by hand (correction)", partial(mark_box_action, ship, box.id, True)))
    return menu


BOXES = FedComBoxes()

__all__ = ["BOX", "BOXES", "FRAME", "SHIELD", "FedComBoxes", "box_key", "frame_key", "parse_key",
           "shield_key"]

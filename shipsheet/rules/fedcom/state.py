"""A Federation Commander ship's live state: damage, turn states, loads, orders, repair.

The state is plain JSON (saved verbatim in session files)::

    {"destroyed": ["ph-1", ...],        # box ids destroyed, in the order they fell
     "frame_hits": 0,                    # frame boxes destroyed
     "ship_destroyed": false,            # a frame hit with no frame box left [FC]
     "shield_damage": [0, 0, 0, 0, 0, 0],
     "turn": {"ph-1": "fired", ...},     # turn states that differ from the default
     "drones": {"drone-1": 4, ...},      # drones left per rack
     "occupant": {"shuttle-1": "admin"}, # shuttle bay occupants
     "orders": {...},                    # this turn's standing orders (Overrides.to_json)
     "next_orders": null,                # orders copied forward to the next turn
     "repair": null,                     # {"box": id, "points": n}: the box under repair
     "repair_spent": 0,                  # repair points used this turn
     "volleys": 0}                       # volleys applied (numbers the log's volleys)

Rule functions here change a ship directly, after checking everything
(RuleViolation, nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.errors import RuleViolation
from shipsheet.model.keypath import Node

from .card import OCCUPANTS, TRACTOR_STATES, FedComClass, card
from .overrides import Overrides
from .status import repair_cost

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.ship import Ship, ShipClass

#: Turn states per kind; the first is the default [product].
#: Heavy weapons: "fired, charging or unfired"; phasers do not hold a charge
#: from turn to turn in this reading [FC-H5], so they are fired or unfired.
#: Drone racks: "launched this turn or not" ("fired" is accepted for "launched").
#: Tractors: [seed 8FC4] "Used and dropped this turn, unused, in use holding object."
#: Other systems: "used this turn or not".
TURN_STATES = {
    "phaser": ("unfired", "fired"),
    "torpedo": ("unfired", "fired", "charging"),
    "drone": ("unfired", "launched"),
    "tractor": ("unused", "used-dropped", "holding"),
}
OTHER_TURN_STATES = ("unused", "used")
#: States that survive the end of the turn [FC-H5]: a charging weapon keeps its
#: charge (spec: "It resets at end of turn (charging persists)"), a tractor
#: holding an object still holds it. Everything else returns to its default.
PERSISTENT_STATES = ("charging", "holding")

STATE_KEYS = ("destroyed", "frame_hits", "ship_destroyed", "shield_damage", "turn", "drones",
              "occupant", "orders", "next_orders", "repair", "repair_spent", "volleys")


def turn_states(kind: str) -> tuple[str, ...]:
    """The turn states a box of ``kind`` can be in; the first is the default."""
    return TURN_STATES.get(kind, OTHER_TURN_STATES)


def initial_state(ship_class: "ShipClass") -> dict:
    """The state of a new, undamaged ship of this class."""
    spec: FedComClass = ship_class.spec
    turn = {b.id: b.tractor for b in spec.boxes if b.kind == "tractor" and b.tractor != "unused"}
    return {
        "destroyed": [],
        "frame_hits": 0,
        "ship_destroyed": False,
        "shield_damage": [0] * 6,
        "turn": turn,
        "drones": {b.id: b.drones for b in spec.boxes if b.kind == "drone"},
        "occupant": {b.id: b.occupant for b in spec.boxes if b.kind == "shuttle"},
        "orders": {},
        "next_orders": None,
        "repair": None,
        "repair_spent": 0,
        "volleys": 0,
    }


# -- reading the state -----------------------------------------------------------

def is_destroyed(ship: "Ship", box_id: str) -> bool:
    return box_id in ship.state["destroyed"]


def turn_state(ship: "Ship", box_id: str) -> str:
    """The box's turn state (its kind's default when never set)."""
    spec = card(ship)
    box = _box(spec, box_id)
    return ship.state["turn"].get(box_id, turn_states(box.kind)[0])


def boxes_used_this_turn(ship: "Ship") -> frozenset[str]:
    """The boxes set this turn to other than their kind's default turn state [FC-H5]
    (:func:`turn_state`, for the whole card at once: only the boxes set are read)."""
    index = card(ship).box_index
    return frozenset(box_id for box_id, state in ship.state["turn"].items()
                     if box_id in index and state != turn_states(index[box_id].kind)[0])


def drones_left(ship: "Ship", box_id: str) -> int:
    return ship.state["drones"][box_id]


def occupant(ship: "Ship", box_id: str) -> str:
    return ship.state["occupant"][box_id]


def shield_left(ship: "Ship", shield: int) -> int:
    """Boxes of shield #``shield`` (1..6) not yet destroyed."""
    spec = card(ship)
    _check_shield(shield)
    return spec.shields[shield - 1] - ship.state["shield_damage"][shield - 1]


def frame_left(ship: "Ship") -> int:
    return card(ship).frame - ship.state["frame_hits"]


def _box(spec: FedComClass, box_id: str):
    try:
        return spec.box_index[box_id]
    except (KeyError, TypeError):
        raise RuleViolation(f'There is no box "{box_id}" on this ship.') from None


def _box_of_kind(ship: "Ship", box_id: str, kind: str, what: str):
    """The box ``box_id``, which must be of ``kind`` (``what`` names that kind in a refusal)."""
    box = _box(card(ship), box_id)
    if box.kind != kind:
        raise RuleViolation(f"{box_id} is not {what}.")
    return box


def _check_shield(shield: object) -> int:
    if isinstance(shield, bool) or not isinstance(shield, int) or not 1 <= shield <= 6:
        raise RuleViolation(f"A ship's shields are numbered 1 to 6, not {shield!r}.")
    return shield


# -- changing it (checked first) ----------------------------------------------------

def next_state(kind: str, state: str) -> str:
    """The turn state a click on a box sets: the one after ``state`` in its kind's list, round."""
    states = turn_states(kind)
    return states[(states.index(state) + 1) % len(states)]


def set_turn_state(ship: "Ship", box_id: str, state: str) -> str:
    """Set a box's turn state this turn (fired/charging/unfired, launched, used, tractor states).

    Returns a log line. Refuses a state the box's kind cannot have.
    """
    spec = card(ship)
    box = _box(spec, box_id)
    allowed = turn_states(box.kind)
    if box.kind == "drone" and state == "fired":
        state = "launched"  # [seed 8FC4] "Fired/Launched"
    if state not in allowed:
        what = {"phaser": "A phaser", "torpedo": "A heavy weapon", "drone": "A drone rack",
                "tractor": "A tractor"}.get(box.kind, f"A {box.kind} box")
        raise RuleViolation(f'{what} ({box_id}) can be {", ".join(allowed)}; not "{state}".')
    why = turn_state_refusal(ship, box_id)
    if why:
        raise RuleViolation(why)
    old = ship.state["turn"].get(box_id, allowed[0])
    if state == allowed[0]:
        ship.state["turn"].pop(box_id, None)
    else:
        ship.state["turn"][box_id] = state
    return f"{box_id}: {old} → {state}"


def turn_state_refusal(ship: "Ship", box_id: str) -> str | None:
    """Why ``box_id`` cannot take a turn state now (it is destroyed), or None: the words the
    sheet shows on the box and the refusal :func:`set_turn_state` raises."""
    if box_id in ship.state["destroyed"]:
        return (f"{box_id} is destroyed, so it has no turn state: repair it first (Actions "
                f"panel), or right-click it to restore it by hand.")
    return None


def set_drones(ship: "Ship", box_id: str, drones: int) -> str:
    """Set the drones left in a drone rack (0 up to its spaces)."""
    box = _box_of_kind(ship, box_id, "drone", "a drone rack")
    if isinstance(drones, bool) or not isinstance(drones, int) or not 0 <= drones <= box.drones:
        raise RuleViolation(f"{box_id} holds 0 to {box.drones} drones, not {drones!r}.")
    old = ship.state["drones"][box_id]
    ship.state["drones"][box_id] = drones
    return f"{box_id}: {old} → {drones} drones left"


def set_occupant(ship: "Ship", box_id: str, occupant_: str) -> str:
    """Set what occupies a shuttle bay: empty, admin or suicide."""
    _box_of_kind(ship, box_id, "shuttle", "a shuttle bay")
    if occupant_ not in OCCUPANTS:
        raise RuleViolation(f'A shuttle bay holds {", ".join(OCCUPANTS)}; not "{occupant_}".')
    old = ship.state["occupant"][box_id]
    ship.state["occupant"][box_id] = occupant_
    return f"{box_id}: {old} → {occupant_}"


def mark_box(ship: "Ship", box_id: str, destroyed: bool = True) -> str:
    """Mark a box destroyed (or intact again) by hand: a referee's correction."""
    spec = card(ship)
    _box(spec, box_id)
    lost = ship.state["destroyed"]
    if destroyed:
        if box_id in lost:
            raise RuleViolation(f"{box_id} is already destroyed.")
        lost.append(box_id)
        ship.state["turn"].pop(box_id, None)
        return f"{box_id} destroyed (by hand)"
    if box_id not in lost:
        raise RuleViolation(f"{box_id} is not destroyed.")
    lost.remove(box_id)
    repair = ship.state["repair"]
    if repair and repair["box"] == box_id:
        ship.state["repair"] = None
    return f"{box_id} intact again (by hand)"


def mark_frame(ship: "Ship", hits: int) -> str:
    """Set the number of frame boxes destroyed by hand (0 up to the card's frame)."""
    spec = card(ship)
    if isinstance(hits, bool) or not isinstance(hits, int) or not 0 <= hits <= spec.frame:
        raise RuleViolation(f"This ship has {spec.frame} frame boxes; "
                            f"{hits!r} cannot be destroyed.")
    old = ship.state["frame_hits"]
    ship.state["frame_hits"] = hits
    if hits < spec.frame:
        ship.state["ship_destroyed"] = False
    return f"frame destroyed: {old} → {hits} of {spec.frame}"


def mark_shield(ship: "Ship", shield: int, damage: int) -> str:
    """Set the boxes of one shield destroyed by hand (shield regeneration is entered so) [FC]."""
    spec = card(ship)
    _check_shield(shield)
    size = spec.shields[shield - 1]
    if isinstance(damage, bool) or not isinstance(damage, int) or not 0 <= damage <= size:
        raise RuleViolation(f"Shield #{shield} has {size} boxes; {damage!r} cannot be destroyed.")
    old = ship.state["shield_damage"][shield - 1]
    ship.state["shield_damage"][shield - 1] = damage
    line = f"shield #{shield}: {size - old} → {size - damage} of {size} left"
    if damage < old:
        # [FC] "Shields regenerate at 2 energy per box (entered by hand)."
        line += f" (regenerated {old - damage} boxes, {2 * (old - damage)} energy)"
    return line


#: The end of the turn's lines about a ship's standing orders (private to its owner:
#: ``privacy.py``, house rule FC-H15).
ORDERS_COPIED = "standing orders copied to the new turn"
ORDERS_LAPSED = "standing orders lapsed"
ORDER_LINES = (ORDERS_COPIED, ORDERS_LAPSED)


def end_turn(ship: "Ship") -> list[str]:
    """End the turn for one ship: turn states reset (charging and holding persist),
    standing orders lapse unless copied forward, unspent repair points are lost.

    Returns the log lines saying what changed.
    """
    spec = card(ship)
    st = ship.state
    lines: list[str] = []
    kept = {}
    reset = 0
    for box_id, value in st["turn"].items():
        if value in PERSISTENT_STATES and box_id in spec.box_index:
            kept[box_id] = value
        else:
            reset += 1
    st["turn"] = kept
    if reset:
        still = ", ".join(f"{k} {v}" for k, v in kept.items())
        lines.append(f"turn states reset ({reset} box{'es' if reset != 1 else ''})"
                     + (f"; still {still}" if kept else ""))
    # [seed 8FC3] "The info would have to be in each and every SOP that you want it
    # to apply, otherwise the DDAP will be used."
    if st["next_orders"] is not None:
        st["orders"] = st["next_orders"]
        lines.append(ORDERS_COPIED)
    elif st["orders"]:
        st["orders"] = {}
        lines.append(ORDERS_LAPSED)
    st["next_orders"] = None
    st["repair_spent"] = 0
    return lines


# -- validating a state read from a file ------------------------------------------------

def check_state(ship_class: "ShipClass", node: Node) -> dict:
    """Validate a state read from a session file; ``node.fail`` raises SessionFileError."""

    spec: FedComClass = ship_class.spec
    node.table()
    node.only_keys(*STATE_KEYS)
    state = initial_state(ship_class)

    destroyed_node = node.get("destroyed", [])
    seen: set[str] = set()
    for item in destroyed_node.list(max_len=len(spec.boxes)):
        box_id = item.str(max_len=40)
        if box_id not in spec.box_index:
            item.fail(f'no box "{box_id}" on a {spec.name}')
        if box_id in seen:
            item.fail(f'"{box_id}" is listed twice')
        seen.add(box_id)
    state["destroyed"] = list(destroyed_node.value)

    state["frame_hits"] = node.get("frame_hits", 0).int(lo=0, hi=spec.frame)
    state["ship_destroyed"] = node.get("ship_destroyed", False).bool()
    if state["ship_destroyed"] and state["frame_hits"] < spec.frame:
        node.get("ship_destroyed").fail("a ship is destroyed only when all its frame is gone")

    shields = node.get("shield_damage", [0] * 6)
    items = shields.list()
    if len(items) != 6:
        shields.fail(f"six shields expected, found {len(items)}")
    state["shield_damage"] = [item.int(lo=0, hi=spec.shields[i]) for i, item in enumerate(items)]

    turn = {}
    for box_id, child in node.get("turn", {}).items():
        if box_id not in spec.box_index:
            child.fail(f'no box "{box_id}" on a {spec.name}')
        states = turn_states(spec.box_index[box_id].kind)
        value = child.str(choices=states)
        if value != states[0]:
            turn[box_id] = value
    state["turn"] = turn

    drones_node = node.get("drones", state["drones"])
    drones = {}
    for box_id, child in drones_node.items():
        box = spec.box_index.get(box_id)
        if box is None or box.kind != "drone":
            child.fail(f'no drone rack "{box_id}" on a {spec.name}')
        drones[box_id] = child.int(lo=0, hi=box.drones)
    state["drones"].update(drones)

    occ_node = node.get("occupant", state["occupant"])
    for box_id, child in occ_node.items():
        box = spec.box_index.get(box_id)
        if box is None or box.kind != "shuttle":
            child.fail(f'no shuttle bay "{box_id}" on a {spec.name}')
        state["occupant"][box_id] = child.str(choices=OCCUPANTS)

    for key in ("orders", "next_orders"):
        child = node.get(key, None if key == "next_orders" else {})
        if child.value is None and key == "next_orders":
            state[key] = None
            continue
        state[key] = Overrides.check_json(child).to_json()

    repair = node.get("repair", None)
    if repair.value is not None:
        repair.only_keys("box", "points")
        box_id = repair.get("box").str(max_len=40)
        if box_id not in seen:
            repair.get("box").fail(f'"{box_id}" is not a destroyed box of this ship')
        cost = repair_cost(spec, box_id)
        points = repair.get("points").int(lo=1, hi=cost - 1)
        state["repair"] = {"box": box_id, "points": points}
    state["repair_spent"] = node.get("repair_spent", 0).int(lo=0, hi=spec.damage_control)
    state["volleys"] = node.get("volleys", 0).int(lo=0, hi=10**9)
    return state


__all__ = ["OTHER_TURN_STATES", "PERSISTENT_STATES", "TRACTOR_STATES", "TURN_STATES", "card",
           "check_state", "drones_left", "end_turn", "frame_left", "initial_state",
           "is_destroyed", "mark_box", "mark_frame", "mark_shield", "occupant", "set_drones",
           "set_occupant", "set_turn_state", "shield_left", "turn_state", "turn_states"]

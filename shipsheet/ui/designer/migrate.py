"""Update ships in a session to an edited class, carrying their damage over. No Qt.

A ship keeps its own copy of its class, so editing a class never changes a
ship in play. Moving ships to the new version is an explicit action
(:func:`update_ships_action`, one undo step) that carries each ship's state
over where the two versions still match, and says what could not be matched:

- War In Space: systems by name (marked boxes, up to the new box count) and
  the critical suits; this turn's energy, rolled dice and planned repairs
  stay only when the systems are unchanged in name and order.
- Triplanetary: the damage tracks as they are; fuel and cargo up to the new
  capacities.
- Federation Commander: boxes by id (destroyed, turn state, drones left,
  shuttle occupant, the box under repair); frame and shield damage up to the
  new sizes; standing orders (ids the new card lacks are reported).

Every new state is checked with the game's own session-file validation
before anything changes, so the session always saves and reopens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from shipsheet.model.actions import Action
from shipsheet.model.errors import RuleViolation, SessionFileError
from shipsheet.model.games import get_game
from shipsheet.model.keypath import Node
from shipsheet.model.ship import Ship, ShipClass, clone

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import ActionContext, Session


@dataclass
class ShipUpdate:
    """What updating one ship does: its new state, what was kept, what could not be matched."""

    ship_id: str
    ship_name: str
    state: dict
    kept: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)

    def lines(self, named: bool = True) -> list[str]:
        """The report in words; ``named`` starts each line with the ship's name."""
        who = f"{self.ship_name}: " if named else ""
        out = [f"{who}kept {'; '.join(self.kept)}" if self.kept
               else f"{who}no damage to carry over"]
        out += [f"{who}not matched: {line}" for line in self.unmatched]
        return out


def carry_over(ship: Ship, new_class: ShipClass) -> ShipUpdate:
    """The state ``ship`` would have as a ``new_class``, and the report; changes nothing."""
    if ship.game != new_class.game:
        raise RuleViolation(f"{ship.name} is a {ship.game} ship; {new_class.name} is a "
                            f"{new_class.game} class.")
    rules = get_game(new_class.game)
    fresh = rules.initial_state(new_class)
    old = clone(ship.state)
    update = ShipUpdate(ship.id, ship.name, fresh)
    carry = _CARRIERS.get(new_class.game)
    if carry is not None:
        carry(ship.ship_class, old, new_class, update)
    _check(update, new_class)
    return update


def _check(update: ShipUpdate, new_class: ShipClass) -> None:
    """The game's session-file validation of the new state (raises RuleViolation)."""
    rules = get_game(new_class.game)
    try:
        update.state = rules.check_state(
            new_class, Node(clone(update.state), update.ship_name, "", SessionFileError))
    except SessionFileError as exc:
        raise RuleViolation(f"{update.ship_name} cannot be updated to {new_class.name}: {exc}") from None


# -- War In Space ----------------------------------------------------------------------------

def _wis(old_class: ShipClass, old: dict, new_class: ShipClass, up: ShipUpdate) -> None:
    from shipsheet.rules.war_in_space.terms import SUIT_SYMBOLS
    old_systems = old_class.spec.systems
    new_systems = new_class.spec.systems
    new_index = {s.name.casefold(): i for i, s in enumerate(new_systems)}
    marks = list(up.state["marks"])
    for i, system in enumerate(old_systems):
        m = old["marks"][i] if i < len(old.get("marks", [])) else 0
        j = new_index.get(system.name.casefold())
        if j is None:
            if m:
                up.unmatched.append(f'system "{system.name}" ({_n(m, "marked box")}) is not on '
                                    f"the new class")
            continue
        room = new_systems[j].boxes
        marks[j] = min(m, room)
        if m:
            up.kept.append(f"{new_systems[j].name} {_n(marks[j], 'marked box')}")
        if m > room:
            up.unmatched.append(f"{system.name}: {_n(m, 'marked box')}, the new class has "
                                f"{_n(room, 'box')}; {_n(m - room, 'mark')} dropped")
    up.state["marks"] = marks
    crits = {s: bool(v) for s, v in old.get("criticals", {}).items() if s in up.state["criticals"]}
    up.state["criticals"].update(crits)
    locked = [SUIT_SYMBOLS[s] for s, v in crits.items() if v]
    if locked:
        up.kept.append("critical hits " + " ".join(locked))

    same = [s.name.casefold() for s in old_systems] == [s.name.casefold() for s in new_systems]
    turn = {k: old.get(k) for k in ("energy", "rolled", "planned_repairs")}
    if any(v is not None for v in turn.values()):
        trial = dict(up.state, **(turn if same else {}))
        if same and _valid(new_class, trial, up.ship_name):
            up.state.update(turn)
            up.kept.append("this turn's energy")
        else:
            up.unmatched.append("this turn's energy allocation (dice, card, planned repairs) was "
                                "cleared: it does not fit the new systems; allocate again")


# -- Triplanetary ---------------------------------------------------------------------------------

def _triplanetary(old_class: ShipClass, old: dict, new_class: ShipClass, up: ShipUpdate) -> None:
    from shipsheet.rules.triplanetary.state import ALL_TRACKS, TRACK_TITLES
    spec = new_class.spec
    levels = []
    for track in ALL_TRACKS:
        level = old.get(track, 0)
        up.state[track] = level
        if level:
            levels.append(f"{TRACK_TITLES[track]} D{level}")
    for flag in ("eliminated", "recovered"):
        up.state[flag] = bool(old.get(flag, False))
    if up.state["eliminated"]:
        levels.insert(0, "eliminated")
    if levels:
        up.kept.append(", ".join(levels))

    fuel = old.get("fuel")
    if spec.fuel is None:
        up.state["fuel"] = None
        if fuel is not None:
            up.kept.append("fuel: now unlimited")
    elif fuel is None:
        up.state["fuel"] = spec.fuel
        up.unmatched.append(f"fuel was unlimited; the new class holds {spec.fuel}: tanks full")
    else:
        up.state["fuel"] = min(fuel, spec.fuel)
        up.kept.append(f"fuel {up.state['fuel']}")
        if fuel > spec.fuel:
            up.unmatched.append(f"fuel {fuel} is more than the new capacity {spec.fuel}: "
                                f"{fuel - spec.fuel} lost")
    cargo = old.get("cargo", 0)
    room = cargo if spec.cargo is None else min(cargo, spec.cargo)
    up.state["cargo"] = room
    if cargo:
        up.kept.append(f"cargo {room} t")
    if room < cargo:
        up.unmatched.append(f"cargo {cargo} t is more than the new hold of {spec.cargo} t: "
                            f"{cargo - room} t left behind")


# -- Federation Commander -------------------------------------------------------------------------

def _fedcom(old_class: ShipClass, old: dict, new_class: ShipClass, up: ShipUpdate) -> None:
    from shipsheet.rules.fedcom.state import turn_states
    from shipsheet.rules.fedcom.status import repair_cost
    spec = new_class.spec
    st = up.state
    boxes = spec.box_index

    destroyed = [b for b in old.get("destroyed", []) if b in boxes]
    lost = [b for b in old.get("destroyed", []) if b not in boxes]
    st["destroyed"] = destroyed
    if destroyed:
        up.kept.append(f"{_n(len(destroyed), 'destroyed box', 'destroyed boxes')} "
                       f"({_some(destroyed)})")
    if lost:
        up.unmatched.append(f"destroyed {', '.join(lost)}: no box with that id on the new card")

    for box_id in old_class.spec.box_index:
        if box_id in boxes:  # a box both cards have: its turn state is the ship's, not the card's
            st["turn"].pop(box_id, None)
    for box_id, value in old.get("turn", {}).items():
        box = boxes.get(box_id)
        if box is None or box_id in destroyed:
            continue
        if value in turn_states(box.kind):
            st["turn"][box_id] = value
        else:
            up.unmatched.append(f'{box_id} was "{value}" this turn; a {box.kind} cannot be')
    for box_id, left in old.get("drones", {}).items():
        box = boxes.get(box_id)
        if box is None or box.kind != "drone":
            continue
        st["drones"][box_id] = min(left, box.drones)
        if left > box.drones:
            up.unmatched.append(f"{box_id} held {left} drones; the new rack holds {box.drones}")
    for box_id, who in old.get("occupant", {}).items():
        box = boxes.get(box_id)
        if box is not None and box.kind == "shuttle":
            st["occupant"][box_id] = who

    frame = old.get("frame_hits", 0)
    st["frame_hits"] = min(frame, spec.frame)
    if frame:
        up.kept.append(f"frame {st['frame_hits']} destroyed")
    if frame > spec.frame:
        up.unmatched.append(f"{frame} frame boxes destroyed; the new card has {spec.frame}")
    st["ship_destroyed"] = bool(old.get("ship_destroyed")) and st["frame_hits"] >= spec.frame
    if old.get("ship_destroyed") and not st["ship_destroyed"]:
        up.unmatched.append("the ship was destroyed; with more frame on the new card it is not")

    shields = list(old.get("shield_damage", [0] * 6))[:6]
    shields += [0] * (6 - len(shields))
    for i, damage in enumerate(shields):
        st["shield_damage"][i] = min(damage, spec.shields[i])
        if damage > spec.shields[i]:
            up.unmatched.append(f"shield #{i + 1}: {damage} boxes down; the new shield has "
                                f"{spec.shields[i]}")
    down = [f"#{i + 1} {d}" for i, d in enumerate(st["shield_damage"]) if d]
    if down:
        up.kept.append("shield damage " + ", ".join(down))

    for key in ("orders", "next_orders"):
        orders = old.get(key)
        if orders is None:
            continue
        st[key] = orders
        named = []
        for part in ("first", "last"):
            named += list(orders.get(part, []))
        for ids in (orders.get("order") or {}).values():
            named += list(ids)
        missing = sorted({b for b in named if b not in boxes})
        if missing:
            up.unmatched.append(f"standing orders name {', '.join(missing)}, not on the new card "
                                f"(those orders will be ignored)")
    if old.get("orders"):
        up.kept.append("standing orders")

    repair = old.get("repair")
    if repair:
        box_id = repair.get("box")
        if box_id in destroyed and repair.get("points", 0) < repair_cost(spec, box_id):
            st["repair"] = dict(repair)
            up.kept.append(f"repair of {box_id} under way")
        else:
            up.unmatched.append(f"the repair of {box_id} under way was dropped")
    st["repair_spent"] = min(old.get("repair_spent", 0), spec.damage_control)
    st["volleys"] = old.get("volleys", 0)


_CARRIERS = {"war-in-space": _wis, "triplanetary": _triplanetary, "fedcom": _fedcom}


def _valid(new_class: ShipClass, state: dict, name: str) -> bool:
    try:
        get_game(new_class.game).check_state(new_class, Node(clone(state), name, "", SessionFileError))
    except SessionFileError:
        return False
    return True


def _some(ids: list[str], most: int = 8) -> str:
    """``a, b, c`` or ``a, b, … and 12 more``."""
    if len(ids) <= most:
        return ", ".join(ids)
    return ", ".join(ids[:most]) + f" and {len(ids) - most} more"


def _n(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + ('es' if word.endswith('x') else 's'))}"


# -- the session action --------------------------------------------------------------------------

def ships_of_class(session: "Session", class_ids: Iterable[str]) -> list[Ship]:
    """The ships in ``session`` whose class id is one of ``class_ids``."""
    wanted = set(class_ids)
    return [s for s in session.ships if s.ship_class.id in wanted]


class UpdateShipsAction(Action):
    """"Update 3 ships to Vigilant-class Cruiser": one undo step for all of them.

    The ships are replaced by new Ship objects (same id, name and side) holding
    the new class and the carried-over state, so undo (which restores the
    session's list of ship objects and their states) brings the old class back
    too. After applying, :attr:`reports` holds one :class:`ShipUpdate` per ship.
    """

    def __init__(self, ship_ids: Iterable[str], new_class: ShipClass):
        self.ship_ids = tuple(dict.fromkeys(ship_ids))
        self.new_class = new_class
        count = len(self.ship_ids)
        self.name = f"Update {count} ship{'s' if count != 1 else ''} to {new_class.name}"
        self.reports: list[ShipUpdate] = []

    def touches(self, session: "Session") -> Iterable[str]:
        return self.ship_ids

    def apply(self, session: "Session", ctx: "ActionContext") -> None:
        if not self.ship_ids:
            raise RuleViolation("No ships to update.")
        if self.new_class.game != session.game:
            raise RuleViolation(f"{self.new_class.name} is a {self.new_class.game} class; this "
                                f"session plays {session.game}.")
        ships = [session.ship(i) for i in self.ship_ids]
        reports = [carry_over(ship, self.new_class) for ship in ships]  # all checked first
        for ship, report in zip(ships, reports):
            index = session.ships.index(ship)
            session.ships[index] = Ship(ship.name, self.new_class, report.state, ship.side, ship.id)
            for line in report.lines(named=False):  # the log names the ship itself
                ctx.log(line, ship=ship.id)
        self.reports = reports


def update_ships_action(ship_ids: Iterable[str], new_class: ShipClass) -> UpdateShipsAction:
    """The action that moves the given ships to ``new_class``, keeping what damage matches."""
    return UpdateShipsAction(ship_ids, new_class)


__all__ = ["ShipUpdate", "UpdateShipsAction", "carry_over", "ships_of_class",
           "update_ships_action"]

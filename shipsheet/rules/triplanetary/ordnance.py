"""Ordnance: what a ship may launch, launching it, and the launches still in flight.

The seed speaks of ordnance only through what stops it: "A ship with any weapon damage
cannot fire any weapon or drop ordnance" (a dreadnaught at D1–D3 still fires), and
"Weapon hits on transports and packets have no effect except to prevent their launching
mines". So the source is checked **at launch** (:func:`check_launch`), with those words.
What the texts leave out is our reading, each labelled:

- [TRI-H17] which ordnance a type launches: warships and the orbital base launch
  torpedoes, mines and nukes; transports and packets (the seed's mine layers) launch
  mines only; the other defensive-only ships none [TRI-H6];
- [TRI-H18] ordnance is launched in the Ordnance phase, one launch per ship per turn;
  how many a counter carries is not tracked (the texts give no number);
- [TRI-H19] a torpedo or mine attack names its launch, or its source ship, checked as if
  it launched then;
- [TRI-H20] nukes: launched and checked like the rest; the Advanced Combat System has no
  nuke table, so the referee marks a nuke's effect by hand.
"""

from __future__ import annotations

from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from .rulings import Rulings
from .state import MAX_IN_FLIGHT, MAX_LAUNCH_NUMBER, ORDNANCE, ORDNANCE_KINDS
from .tracks import DREADNAUGHT_FIRES_UP_TO, _refuse_destroyed, status

#: Ordnance kinds an attack on the other-damage table may come from.
ATTACKING_ORDNANCE = ("torpedo", "mine")


def _kind(kind: str) -> str:
    if kind not in ORDNANCE_KINDS:
        raise RuleViolation(f'Unknown ordnance "{kind}" (expected one of: '
                            f'{", ".join(ORDNANCE_KINDS)}).')
    return kind


def launchable_kinds(ship: Ship) -> tuple[str, ...]:
    """[TRI-H17] The ordnance the ship's type launches at all, damage aside."""
    spec = ship.ship_class.spec
    if spec.mine_layer:
        return ("mine",)
    if spec.defensive_only:  # [TRI-H6]
        return ()
    return ORDNANCE_KINDS


def check_launch(ship: Ship, kind: str) -> None:
    """Refuse a launch of ``kind`` the rules forbid the ship now, in the rule's words.

    The type [TRI-H17]; then the damage: [seed] "A ship with any weapon damage cannot fire
    any weapon or drop ordnance"; [seed] transports and packets: weapon hits "prevent their
    launching mines"; [TRI-H24] the dreadnaught exception names firing only; [2018]
    standard combat: "A disabled ship cannot ... launch ordnance"; [TRI-H7] a ship out of
    play launches nothing.
    """
    _kind(kind)
    _refuse_destroyed(ship, "launch ordnance")
    spec = ship.ship_class.spec
    name, type_name = ship.name, ship.ship_class.name
    allowed = launchable_kinds(ship)
    if kind not in allowed:
        if not allowed:
            raise RuleViolation(f"{name} is a {type_name} ({spec.strength_label}), defensive "
                                "only: it drops no ordnance (house rule TRI-H6).")
        raise RuleViolation(f"A {type_name} launches {' and '.join(k + 's' for k in allowed)} "
                            f"only, not {kind}s (house rule TRI-H17).")
    st = status(ship)
    standard = int(ship.state.get("standard", 0) or 0)
    if standard:
        raise RuleViolation(f"{name} is disabled (standard combat D{standard}): a disabled "
                            "ship cannot maneuver, launch ordnance or attack.")
    if spec.mine_layer:
        if not st.can_launch_mines:
            raise RuleViolation(f"Weapon hits on transports and packets prevent their launching "
                                f"mines: {name}'s weapons are at D{st.weapon}.")
        return
    if not st.can_drop_ordnance:
        if spec.dreadnaught and st.weapon <= DREADNAUGHT_FIRES_UP_TO:
            raise RuleViolation(
                f"{name}'s weapons are at D{st.weapon}: a dreadnaught can still fire at D1 "
                "through D3, but drops no ordnance (house rule TRI-H24).")
        raise RuleViolation(f"A ship with any weapon damage cannot fire any weapon or drop "
                            f"ordnance: {name}'s weapons are at D{st.weapon}.")


def check_launch_timing(ship: Ship, phase: str, *, out_of_phase: bool = False,
                        second_launch: bool = False) -> list[str]:
    """[TRI-H18] In the Ordnance phase, one launch a turn; each may be overridden by the
    referee (returned as words for the log)."""
    rulings = Rulings()
    rulings.require(phase == ORDNANCE, out_of_phase,
                    f"Ordnance is launched in the {ORDNANCE} phase; this is the {phase} phase "
                    "(house rule TRI-H18). The referee may rule it “out of phase”.",
                    f"out of phase ({phase}): referee's ruling")
    rulings.require(int(ship.state.get("launches", 0) or 0) == 0, second_launch,
                    f"{ship.name} has launched ordnance this turn already: one launch a turn "
                    "(house rule TRI-H18). The referee may allow a “second launch”.",
                    "second launch this turn: referee's ruling")
    return rulings.words


def launch(ship: Ship, kind: str, turn: int) -> dict:
    """Record a launch of ``kind`` on ``turn`` (checked by :func:`check_launch` first):
    the ship's launch count goes up and the ordnance is in flight. Returns its entry
    ``{"n", "kind", "turn"}``."""
    check_launch(ship, kind)
    flight = ship.state.setdefault("ordnance", [])
    if len(flight) >= MAX_IN_FLIGHT:
        raise RuleViolation(f"{ship.name} has {len(flight)} launches in flight; ShipSheet "
                            f"keeps at most {MAX_IN_FLIGHT} (remove the spent ones).")
    n = int(ship.state.get("next_launch", 1) or 1)
    if n > MAX_LAUNCH_NUMBER:
        raise RuleViolation(f"{ship.name} has made {MAX_LAUNCH_NUMBER} launches; "
                            "ShipSheet numbers no more.")
    entry = {"n": n, "kind": kind, "turn": int(turn)}
    flight.append(entry)
    ship.state["next_launch"] = n + 1
    ship.state["launches"] = int(ship.state.get("launches", 0) or 0) + 1
    return dict(entry)


def in_flight(ship: Ship, kind: str | None = None) -> list[dict]:
    """The ship's launches not yet spent (of ``kind``), oldest first."""
    return [dict(e) for e in ship.state.get("ordnance", ()) if kind is None or e["kind"] == kind]


def find_launch(ship: Ship, n: int, kind: str | None = None) -> dict:
    """Launch ``n`` of the ship, still in flight (and of ``kind``); refused otherwise."""
    for entry in ship.state.get("ordnance", ()):
        if entry["n"] == n:
            if kind is not None and entry["kind"] != kind:
                raise RuleViolation(f"{ship.name}'s launch {n} is a {entry['kind']}, "
                                    f"not a {kind}.")
            return dict(entry)
    raise RuleViolation(f"{ship.name} has no launch {n} in flight.")


def spend(ship: Ship, n: int) -> dict:
    """Take launch ``n`` out of flight (it attacked, missed, or left the map)."""
    entry = find_launch(ship, n)
    ship.state["ordnance"] = [e for e in ship.state["ordnance"] if e["n"] != n]
    return entry


def describe_launch(ship: Ship, entry: dict) -> str:
    """``"Kite's mine 1 (turn 2)"``."""
    return f"{ship.name}'s {entry['kind']} {entry['n']} (turn {entry['turn']})"


__all__ = ["ATTACKING_ORDNANCE", "check_launch", "check_launch_timing", "describe_launch",
           "find_launch", "in_flight", "launch", "launchable_kinds", "spend"]


def damage_summary(ship: Ship) -> list[str]:
    """The ship's damage in a few lines of plain text (a turn report's, under its status
    words): its tracks, fuel and cargo, and its ordnance in flight."""
    from .tracks import describe_levels
    lines = [f"Tracks: {describe_levels(ship)}"]
    fuel, cargo = ship.state.get("fuel"), ship.state.get("cargo")
    lines.append(f"Fuel {'unlimited' if fuel is None else fuel}, cargo {cargo or 0} t")
    flying = in_flight(ship)
    if flying:
        lines.append("In flight: " + ", ".join(f"{e['kind']} {e['n']} (turn {e['turn']})"
                                               for e in flying))
    return lines

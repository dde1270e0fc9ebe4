"""The layout of a Triplanetary ship's state (plain JSON, saved verbatim).

::

    {"weapon": 0, "drive": 0, "structure": 0,   # ACS D-levels [seed]
     "standard": 0, "eliminated": false,         # standard combat: one D track, E [2018]
     "recovered": false,                         # has recovered 1 D since its last end of turn
     "recovery_choice": [],                      # the owner's choice of track(s) [TRI-H14]
     "fired": false,                             # fired guns in this turn's Combat phase [TRI-H16]
     "launches": 0,                              # ordnance launched this turn [TRI-H18]
     "ordnance": [],                             # launched, not yet spent: {"n", "kind", "turn"}
     "next_launch": 1,                           # the number the next launch gets
     "lost": false,                              # lost at the map edge (out of play)
     "captured_from": null,                      # the side it belonged to before a capture
     "fuel": 20, "cargo": 0}                     # fuel left (null: unlimited), cargo carried (t)

[TRI-H10] Both combat systems' tracks are always present; the session option decides
which one attacks add to, and :func:`status` reads both, so a ship's status
never depends on anything but its own state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.keypath import Node

from .definitions import MAX_AMOUNT, TriplanetaryClass

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.ship import ShipClass

#: The Advanced Combat System's three tracks [seed].
TRACKS = ("weapon", "drive", "structure")
#: The standard combat option's single disabled track [2018].
STANDARD_TRACK = "standard"
#: Every track a ship may recover on.
ALL_TRACKS = (*TRACKS, STANDARD_TRACK)
TRACK_TITLES = {"weapon": "Weapons", "drive": "Drive", "structure": "Structure",
                "standard": "Disabled"}


#: [TRI-H1] one session turn is one game turn, in these phases; recovery closes it.
MOVEMENT, ORDNANCE, COMBAT, RECOVERY_PHASE = "Movement", "Ordnance", "Combat", "Recovery"
PHASES = (MOVEMENT, ORDNANCE, COMBAT, RECOVERY_PHASE)


def track_title(track: str) -> str:
    """A track in words: "Weapons", "Drive", "Structure", "Disabled"."""
    return TRACK_TITLES.get(track, track)


#: A D-level above this is refused in a session file (no ship takes 10,000 hits).
MAX_LEVEL = 10_000

#: The ordnance a ship may launch [2018]: the seed's "drop ordnance", "launching mines".
ORDNANCE_KINDS = ("torpedo", "mine", "nuke")
#: Ordnance in flight kept per ship, at most (a session file keeps no more).
MAX_IN_FLIGHT = 200
#: The largest launch number and side-name length a session file may hold.
MAX_LAUNCH_NUMBER = 1_000_000
MAX_SIDE_LENGTH = 80

STATE_KEYS = (*ALL_TRACKS, "eliminated", "recovered", "recovery_choice", "fired", "launches",
              "ordnance", "next_launch", "lost", "captured_from", "fuel", "cargo")


def new_state(spec: TriplanetaryClass) -> dict:
    """The state of a new, undamaged ship: all tracks D0, full fuel, empty hold."""
    return {"weapon": 0, "drive": 0, "structure": 0, "standard": 0, "eliminated": False,
            "recovered": False, "recovery_choice": [], "fired": False, "launches": 0,
            "ordnance": [], "next_launch": 1, "lost": False, "captured_from": None,
            "fuel": spec.fuel, "cargo": 0}


def check_state(ship_class: "ShipClass", node: Node) -> dict:
    """Validate a state read from a session file; missing keys take the new-ship value."""
    spec: TriplanetaryClass = ship_class.spec
    node.table()
    node.only_keys(*STATE_KEYS)
    state = new_state(spec)
    for track in ALL_TRACKS:
        state[track] = node.get(track, 0).int(lo=0, hi=MAX_LEVEL)
    for flag in ("eliminated", "recovered", "fired", "lost"):
        state[flag] = node.get(flag, False).bool()
    choice = []
    for item in node.get("recovery_choice", []).list(max_len=len(TRACKS)):
        track = item.str(choices=TRACKS)
        if track in choice:
            item.fail(f'"{track}" is listed twice')
        choice.append(track)
    state["recovery_choice"] = choice
    state["launches"] = node.get("launches", 0).int(lo=0, hi=MAX_LAUNCH_NUMBER)
    state["next_launch"] = node.get("next_launch", 1).int(lo=1, hi=MAX_LAUNCH_NUMBER)
    flight, numbers = [], set()
    for item in node.get("ordnance", []).list(max_len=MAX_IN_FLIGHT):
        item.only_keys("n", "kind", "turn")
        n = item.get("n").int(lo=1, hi=MAX_LAUNCH_NUMBER)
        if n in numbers:
            item.fail(f"launch number {n} is listed twice")
        numbers.add(n)
        flight.append({"n": n, "kind": item.get("kind").str(choices=ORDNANCE_KINDS),
                       "turn": item.get("turn").int(lo=1, hi=MAX_LAUNCH_NUMBER)})
    state["ordnance"] = flight
    if numbers and max(numbers) >= state["next_launch"]:
        state["next_launch"] = max(numbers) + 1
    captured = node.get("captured_from", None)
    state["captured_from"] = (None if captured.value is None
                              else captured.str(nonempty=False, max_len=MAX_SIDE_LENGTH))
    if node.has("fuel"):
        fuel = node.get("fuel")
        if spec.fuel is None:
            if fuel.value is not None:
                fuel.fail(f"a {ship_class.name} has unlimited fuel; expected null, "
                          f"found {fuel.value!r}")
        else:
            state["fuel"] = fuel.int(lo=0, hi=spec.fuel)
    if node.has("cargo"):
        state["cargo"] = node.get("cargo").int(
            lo=0, hi=MAX_AMOUNT if spec.cargo is None else spec.cargo)
    return state

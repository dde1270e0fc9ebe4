"""The layout of a Triplanetary ship's state (plain JSON, saved verbatim).

::

    {"weapon": 0, "drive": 0, "structure": 0,   # ACS D-levels [seed]
     "standard": 0, "eliminated": false,         # standard combat: one D track, E [2018]
     "recovered": false,                         # has recovered 1 D since its last end of turn
     "fuel": 20, "cargo": 0}                     # fuel left (null: unlimited), cargo carried (t)

Both combat systems' tracks are always present; the session option decides
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


def track_title(track: str) -> str:
    """A track in words: "Weapons", "Drive", "Structure", "Disabled"."""
    return TRACK_TITLES.get(track, track)


#: A D-level above this is refused in a session file (no ship takes 10,000 hits).
MAX_LEVEL = 10_000

STATE_KEYS = (*ALL_TRACKS, "eliminated", "recovered", "fuel", "cargo")


def new_state(spec: TriplanetaryClass) -> dict:
    """The state of a new, undamaged ship: all tracks D0, full fuel, empty hold."""
    return {"weapon": 0, "drive": 0, "structure": 0, "standard": 0, "eliminated": False,
            "recovered": False, "fuel": spec.fuel, "cargo": 0}


def check_state(ship_class: "ShipClass", node: Node) -> dict:
    """Validate a state read from a session file; missing keys take the new-ship value."""
    spec: TriplanetaryClass = ship_class.spec
    node.table()
    node.only_keys(*STATE_KEYS)
    state = new_state(spec)
    for track in ALL_TRACKS:
        state[track] = node.get(track, 0).int(lo=0, hi=MAX_LEVEL)
    for flag in ("eliminated", "recovered"):
        state[flag] = node.get(flag, False).bool()
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

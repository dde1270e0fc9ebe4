"""Triplanetary: carrying a ship's state over to a new version of its class.

The game's ``carry_over`` piece: see :func:`shipsheet.model.update.carry_over`.

The damage tracks as they are; fuel and cargo up to the new capacities.
"""

from __future__ import annotations

from shipsheet.model.ship import ShipClass
from shipsheet.model.update import ShipUpdate

from .state import ALL_TRACKS, TRACK_TITLES


def carry_over(old_class: ShipClass, old: dict, new_class: ShipClass, up: ShipUpdate) -> None:
    """The D-levels as they are; fuel and cargo up to the new capacities."""
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

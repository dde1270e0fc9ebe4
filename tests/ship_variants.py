"""Sessions of many ships made from one, for the load tests and benchmarks."""

from __future__ import annotations

import json


def ship_variants(ship: dict, count: int, vary) -> list[dict]:
    """``count`` copies of the saved ``ship``, each with its own id and name, and
    ``vary(class_data, i)`` applied to its class."""
    ships = []
    for i in range(count):
        s = json.loads(json.dumps(ship))
        s["id"], s["name"] = f"s{i}", f"Ship {i}"
        vary(s["class"], i)
        ships.append(s)
    return ships

"""Sessions of many ships made from one, and the biggest card, for the load and repaint
tests and the benchmarks."""

from __future__ import annotations

import json
import tomllib

#: The card limit: the most boxes a Federation Commander card may have.
CARD_BOXES = 500


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


def biggest_fedcom_card():
    """The sample dreadnought with its cargo grown until the card has ``CARD_BOXES`` boxes."""
    from shipsheet.model.library import parse_ship_class
    from shipsheet.model.paths import resources_dir
    data = tomllib.loads((resources_dir() / "ships/fedcom/sample-dreadnought.toml").read_text())
    data["class"] = "Benchmark Dreadnought"
    extra = CARD_BOXES - len(parse_ship_class(data, "bench.toml").spec.boxes)
    for n, start in enumerate(range(0, extra, 50)):
        data["boxes"].append({"id": f"cargo-x{n}", "kind": "cargo", "count": min(50, extra - start)})
    cls = parse_ship_class(data, "bench.toml")
    assert len(cls.spec.boxes) == CARD_BOXES
    return cls

"""Load time linear in the ship count (the hostile-input audit's finding 8): time per ship
of a big file against a file a tenth its size, on the same machine.

2,000 ships took 11.5 s and 5,000 took 68 s when each ship's class was found by a linear
scan: per ship, ten times the ships cost ten times as much. ``make test`` checks what such
files load as (tests/model/test_untrusted_files.py), without a clock."""

from __future__ import annotations

import gc
import json

from shipsheet.model import Session, get_class, load_session, new_ship, save_session
from shipsheet.model.paths import resources_dir
from shipsheet.model.storage import parse_session_bytes

from ship_variants import ship_variants
from timing import best

#: Per ship, the big file against the small one. Linear is 1x in principle; 5,000 ships
#: measure 1.5-2.1x against 500 here (the bigger heap costs the collector and the caches:
#: 1.2-1.5x with the collector off). A scan per ship, as before, is about 10x.
FLAT = 3.0
#: The variants, 600 against 60: 1.1-1.2x measured; comparing each class with every one
#: before it (``_ClassCache`` without its lookup by text) measures 2.3x.
FLAT_VARIANTS = 1.5


def _best(fn, runs=5) -> float:
    return best(fn, runs)


def _per_ship(small, big, load) -> tuple[float, float]:
    """Best time per ship of ``load(small)`` and ``load(big)`` ((count, file) pairs), warmed
    and measured in turn, so a slow moment of the machine hits both."""
    load(small[1])
    load(big[1])
    small_t, big_t = float("inf"), float("inf")
    for _ in range(3):
        small_t = min(small_t, _best(lambda: load(small[1])))
        big_t = min(big_t, _best(lambda: load(big[1]), runs=2))
    return small_t / small[0], big_t / big[0]


def test_five_thousand_ships_load_in_linear_time(report, tmp_path):
    classes = [get_class(c) for c in ("fedcom/sample-heavy-cruiser", "fedcom/sample-frigate",
                                      "fedcom/sample-dreadnought")]

    def armada(count):
        session = Session("fedcom", name="Armada")
        for i in range(count):
            session.ships.append(new_ship(classes[i % 3], f"Ship {i}"))
        path = tmp_path / f"armada-{count}.shipsheet"
        save_session(session, path)
        return count, path

    small, big = _per_ship(armada(500), armada(5000), load_session)
    ratio = big / small
    report.add("Load of 5,000 ships (3 classes), time per ship vs a 500-ship file",
               f"{big * 1e6:.0f} us vs {small * 1e6:.0f} us = {ratio:.2f}x "
               f"({big * 5000:.2f} s the file)", f"<= {FLAT:g}x (a scan per ship: ~10x)",
               ratio <= FLAT)
    assert ratio <= FLAT


def test_different_classes_under_one_id_load_in_linear_time(report):
    """A hostile file: every ship's class a little different, all claiming one id, and
    different in its last key (a class compared with another is read to the end)."""
    data = json.loads((resources_dir() / "samples" / "fedcom.shipsheet").read_text("utf-8"))
    ship = data["ships"][0]

    def last_key(cls, i):
        cls.pop("notes", None)
        cls["notes"] = f"variant {i}"  # the last key

    def variants(count):
        data["ships"] = ship_variants(ship, count, last_key)
        return count, json.dumps(data).encode("utf-8")

    small, big = _per_ship(variants(60), variants(600),
                           lambda raw: parse_session_bytes(raw, "variants.shipsheet"))
    ratio = big / small
    report.add("Load of 600 ships, each its own class under one id, time per ship vs 60 such ships",
               f"{big * 1e6:.0f} us vs {small * 1e6:.0f} us = {ratio:.2f}x",
               f"<= {FLAT_VARIANTS:g}x (a scan per ship: 2.3x)", ratio <= FLAT_VARIANTS)
    assert ratio <= FLAT_VARIANTS


def _without_collector(fn, *args):
    was = gc.isenabled()
    gc.disable()
    try:
        return fn(*args)
    finally:
        if was:
            gc.enable()


#: Distinct classes, per ship: the file of 5,000 against the file of 100.
FLAT_DISTINCT = 1.5
#: A load of distinct classes against ``json.loads`` of the same bytes.
JSON_RATIO = 6.0


def test_distinct_classes_from_100_to_5000_ships_per_ship_and_against_json(report):
    """Every ship its own class (each one parsed and checked), 100, 1,000 and 5,000 ships
    (the ship limit: a bigger session is refused at save, naming it): time per ship, and
    the load of 5,000 against plain ``json.loads`` of the same file."""
    data = json.loads((resources_dir() / "samples" / "fedcom.shipsheet").read_text("utf-8"))
    ship = data["ships"][0]

    def distinct(count):
        data["ships"] = ship_variants(ship, count, lambda cls, i: cls.update({"class": f"Class {i}"}))
        return count, json.dumps(data).encode("utf-8")

    files = {n: distinct(n) for n in (100, 1000, 5000)}

    def load(raw):
        return parse_session_bytes(raw, "distinct.shipsheet")
    small, middle = _per_ship(files[100], files[1000], load)
    _small, big = _per_ship(files[100], files[5000], load)
    raw = files[5000][1]
    json_t = min(_best(lambda: json.loads(raw)) for _ in range(3))
    json_paused = min(_best(lambda: _without_collector(json.loads, raw)) for _ in range(3))
    load_t = big * 5000
    ratio, against = big / small, load_t / json_t
    report.add("Load of distinct classes, time per ship: 100 / 1,000 / 5,000 ships",
               f"{small * 1e6:.0f} / {middle * 1e6:.0f} / {big * 1e6:.0f} us = "
               f"{ratio:.2f}x (5,000 vs 100)", f"<= {FLAT_DISTINCT:g}x", ratio <= FLAT_DISTINCT)
    report.add("Load of 5,000 distinct classes vs json.loads of the same file",
               f"{load_t:.2f} s vs {json_t:.3f} s = {against:.1f}x", f"<= {JSON_RATIO:g}x",
               against <= JSON_RATIO)
    report.add("Reference: the same against json.loads with the cycle collector paused too "
               "(a load pauses it: storage._collector_paused)",
               f"{load_t:.2f} s vs {json_paused:.3f} s = {load_t / json_paused:.1f}x", "none",
               None)
    assert ratio <= FLAT_DISTINCT

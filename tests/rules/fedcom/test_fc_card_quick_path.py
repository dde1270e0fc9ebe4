"""A card's plain entries are read the quick way (``card._quick_box``, kept by content and
shared between cards alike); anything in doubt is read value by value (``_parse_box``),
which names what is wrong. The two must agree: the quick way accepts only what the slow
way accepts, and gives the same boxes. Checked on thousands of entries mutated at random
from the sample cards' own (seeded: the same every run)."""

from __future__ import annotations

import dataclasses
import random
import tomllib

import pytest

from shipsheet.model import ShipDefinitionError
from shipsheet.model.keypath import Node
from shipsheet.model.library import parse_ship_class
from shipsheet.model.paths import resources_dir
from shipsheet.rules.fedcom import card

SAMPLES = ["sample-heavy-cruiser", "sample-frigate", "sample-drone-cruiser", "sample-dreadnought"]
#: Values a mutation puts in place of one: of every type a TOML file can hold, edge cases.
ODD = [None, "", " ", "Ph-1", " Ph-3 ", "photon", "x" * 41, "360", "FA", "LS+RS", "bogus", 0, 1,
       -1, 4, 50, 51, 360, 361, 1.0, True, False, [], ["a"], {}, {"a": 1}, "admin", "holding",
       "ph 1", "ph-1\n", "lab", "cargo", "frame", "phaser", "torpedo", "drone", "shuttle",
       "tractor", "my-kind"]
KEYS = ["id", "kind", "label", "arc", "arc_degrees", "count", "type", "size", "drones",
        "occupant", "state", "extra"]
EXTRA = {"my-kind": "systems"}


def _entries() -> list[dict]:
    entries = []
    for stem in SAMPLES:
        data = tomllib.loads((resources_dir() / f"ships/fedcom/{stem}.toml").read_text())
        entries += data["boxes"]
    return entries


def _mutated(rng: random.Random, entry: dict) -> dict:
    entry = dict(entry)
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(KEYS)
        if rng.random() < 0.25:
            entry.pop(key, None)
        else:
            entry[key] = rng.choice(ODD)
    return entry


def _slow(entry):
    try:
        return card._parse_box(Node(entry, "test.toml"), EXTRA)
    except ShipDefinitionError:
        return None


def test_the_quick_reading_accepts_only_what_the_slow_one_accepts_and_reads_the_same():
    rng = random.Random(28)
    base = _entries()
    quick_read = refused = 0
    for n in range(6000):
        entry = _mutated(rng, rng.choice(base)) if n >= len(base) else base[n]
        quick = card._quick_box(entry, EXTRA)
        slow = _slow(entry)
        if quick is not None:
            quick_read += 1
            assert slow is not None, entry  # never accepts what the slow way refuses
            assert quick == slow, entry
        refused += slow is None
    assert quick_read > 500 and refused > 1000  # both sides of the line were tried


@pytest.mark.parametrize("stem", SAMPLES)
def test_a_card_read_with_what_is_kept_is_the_card_read_afresh(stem, monkeypatch):
    data = tomllib.loads((resources_dir() / f"ships/fedcom/{stem}.toml").read_text())
    first = parse_ship_class(data, "a.toml").spec
    again = parse_ship_class(data, "b.toml").spec  # from what the first reading kept
    monkeypatch.setattr(card, "_ENTRIES", {})
    monkeypatch.setattr(card, "_CARDS", {})
    fresh = parse_ship_class(data, "c.toml").spec
    assert _fields(first) == _fields(again) == _fields(fresh)
    assert again.boxes is first.boxes  # shared: frozen boxes, read-only lookups
    with pytest.raises(TypeError):
        again.box_index["ph-1"] = None


def _fields(spec) -> dict:
    """A card's fields (a card compares by identity)."""
    return {f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)}


def test_a_duplicate_id_among_plain_entries_is_refused_naming_where_it_was_first_used():
    data = tomllib.loads((resources_dir() / "ships/fedcom/sample-frigate.toml").read_text())
    data["boxes"].append(dict(data["boxes"][0]))
    with pytest.raises(ShipDefinitionError, match=r'duplicate box id ".*" \(first used at boxes\[0\]\)'):
        parse_ship_class(data, "dup.toml")

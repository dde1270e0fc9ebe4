"""Issue 17: a field a box's kind does not use (an arc on a warp box) still loads, is
ignored, and is named by ``card.unused_fields`` with its key path (``shipsheet check``
shows it as a warning); the card's arc rules are unchanged for the kinds that have one."""

from __future__ import annotations

import tomllib

import pytest

from shipsheet.model.keypath import Node
from shipsheet.model.library import load_ship_class
from shipsheet.model.paths import resources_dir
from shipsheet.rules.fedcom.card import has_firing_arc, unused_fields
from shipsheet.rules.fedcom.precedence import random_ties

CARD = '''game = "fedcom"
class = "Old Card"
damage_control = 2
frame = 3
shields = [16, 12, 12, 10, 12, 12]
extra_kinds = { "fighter-bay" = "systems" }
boxes = [
  { id = "bridge-1", kind = "bridge" },
  { id = "ph-1", kind = "phaser", type = "Ph-1", arc = "FA" },
  { id = "tractor-1", kind = "tractor", arc = "FH" },
  { id = "left-warp", kind = "left-warp", count = 2, arc = "FA" },
  { id = "aft-hull-1", kind = "aft-hull", arc_degrees = 120 },
  { id = "probe-1", kind = "probe", arc = "FA" },
  { id = "fighter-bay-1", kind = "fighter-bay", arc = "RA" },
  { id = "drone-1", kind = "drone", drones = 4, arc = "360" },
]
'''


def test_an_arc_on_a_kind_without_one_loads_and_is_ignored(tmp_path):
    path = tmp_path / "old-card.toml"
    path.write_text(CARD, "utf-8")
    spec = load_ship_class(path).spec  # existing cards keep loading
    for box_id in ("left-warp-1", "left-warp-2", "aft-hull-1"):
        box = spec.box(box_id)
        # Ignored: no arc on the sheet, and no arc or dice in the DDAP's tie-breaks
        # ([FC-H2]: "Equal boxes of other kinds (hull, warp ...) are ... taken in card order").
        assert (box.has_arc, box.arc, box.arc_degrees) == (False, "", 360)
        assert not random_ties(box)
    # Kinds with a firing arc keep theirs, the card's own kinds included.
    assert spec.box("ph-1").arc == "FA" and spec.box("tractor-1").arc == "FH"
    assert spec.box("probe-1").arc == "FA" and spec.box("fighter-bay-1").arc == "RA"
    assert spec.box("drone-1").arc_degrees == 360 and spec.box("drone-1").has_arc


def test_unused_fields_names_each_by_its_key_path():
    data = tomllib.loads(CARD)
    assert unused_fields(data) == [
        "boxes[3].arc: a left-warp box has no firing arc; ignored",
        "boxes[4].arc_degrees: an aft-hull box has no firing arc; ignored",
    ]
    # Given a Node, the paths start from the node's own.
    assert unused_fields(Node(data, "old-card.toml"))[0].startswith("boxes[3].arc: ")


def test_unused_fields_finds_nothing_in_the_bundled_cards_or_in_what_it_cannot_read():
    for path in sorted((resources_dir() / "ships" / "fedcom").glob("*.toml")):
        assert unused_fields(tomllib.loads(path.read_text("utf-8"))) == [], path.name
    # What the loader refuses is the loader's to name: no crash, no warning.
    assert unused_fields({"boxes": "none"}) == []
    assert unused_fields({"boxes": [3, {"kind": 4, "arc": "FA"}, {"id": "x"}]}) == []
    assert unused_fields([]) == []


@pytest.mark.parametrize("kind, has", [
    ("phaser", True), ("torpedo", True), ("drone", True), ("tractor", True), ("probe", True),
    ("fighter-bay", True),  # a card's own kind may have one
    ("left-warp", False), ("forward-hull", False), ("lab", False), ("shuttle", False),
    ("transporter", False), ("bridge", False), ("battery", False),
])
def test_which_kinds_have_a_firing_arc(kind, has):
    assert has_firing_arc(kind) is has

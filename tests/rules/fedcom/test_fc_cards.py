"""Ship cards: the sample cards load; malformed cards are refused naming file and key path."""

from pathlib import Path

import pytest

from shipsheet.model import ShipDefinitionError, get_class, list_classes, new_ship
from shipsheet.model.library import load_ship_class
from shipsheet.rules.fedcom import GAME, arc_width

SAMPLES = ["sample-heavy-cruiser", "sample-frigate", "sample-drone-cruiser",
           "sample-dreadnought"]

GOOD = '''game = "fedcom"
class = "Test Cruiser"
damage_control = 4
frame = 6
shields = [30, 24, 24, 24, 24, 24]
heavy_weapon_order = ["photon", "disruptor"]
boxes = [
  { id = "ph-1", kind = "phaser", type = "Ph-1", arc = "FA" },
  { id = "ph-5", kind = "phaser", type = "Ph-3", arc = "360" },
  { id = "photon-1", kind = "torpedo", type = "photon", size = 1, arc = "FA" },
  { id = "disruptor-1", kind = "torpedo", type = "disruptor", size = 1, arc = "FX" },
  { id = "drone-1", kind = "drone", drones = 4, arc = "360" },
  { id = "shuttle-1", kind = "shuttle", occupant = "admin" },
  { id = "tractor-1", kind = "tractor" },
  { id = "lab-1", kind = "lab" },
]
'''


def write(tmp_path: Path, text: str, name: str = "ca.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("stem", SAMPLES)
def test_each_sample_card_loads_and_is_labelled_a_sample(stem):
    cls = get_class(f"fedcom/{stem}")
    assert cls.sample and "Sample" in cls.name and "not an official" in cls.data["notes"]
    ship = new_ship(cls, "Test")
    assert ship.state["destroyed"] == [] and ship.state["shield_damage"] == [0] * 6
    assert GAME.describe_class(cls).startswith(cls.name)


def test_the_heavy_cruiser_sample_has_several_heavy_types_and_varied_phasers():
    spec = get_class("fedcom/sample-heavy-cruiser").spec
    assert spec.heavy_weapon_order == ("photon", "disruptor")
    phasers = [b for b in spec.boxes if b.kind == "phaser"]
    assert len({b.type for b in phasers}) >= 3 and len({b.arc for b in phasers}) >= 4


def test_the_library_lists_the_samples():
    ids = {c.id for c in list_classes("fedcom")}
    assert {f"fedcom/{s}" for s in SAMPLES} <= ids


def test_the_issue_example_card_loads(tmp_path):
    cls = load_ship_class(write(tmp_path, GOOD))
    assert cls.id == "fedcom/ca"
    spec = cls.spec
    assert spec.box("drone-1").drones == 4 and spec.box("shuttle-1").occupant == "admin"
    assert spec.box("ph-1").arc_degrees == 120 and spec.shields == (30, 24, 24, 24, 24, 24)


def test_count_expands_into_numbered_boxes(tmp_path):
    text = GOOD.replace('{ id = "lab-1", kind = "lab" },', '{ id = "lab", kind = "lab", count = 3 },')
    spec = load_ship_class(write(tmp_path, text)).spec
    assert spec.by_kind["lab"] == ("lab-1", "lab-2", "lab-3")


def test_extra_kinds_declare_a_ships_own_systems(tmp_path):
    text = GOOD.replace('{ id = "lab-1", kind = "lab" },', '{ id = "fb-1", kind = "fighter-bay" },')
    with pytest.raises(ShipDefinitionError, match=r'boxes\[7\]\.kind: unknown kind "fighter-bay"'):
        load_ship_class(write(tmp_path, text))
    text = text.replace("boxes = [", 'extra_kinds = { "fighter-bay" = "weapons" }\nboxes = [')
    spec = load_ship_class(write(tmp_path, text)).spec
    assert spec.category("fighter-bay") == "weapons"


@pytest.mark.parametrize("arc, width", [("F", 60), ("LF", 60), ("FA", 120), ("RA", 120),
                                        ("FH", 180), ("LS", 180), ("FX", 240), ("RX", 240),
                                        ("360", 360), ("LF+L", 120), ("FX+RX", 360),
                                        ("FQ", None)])
def test_arc_widths(arc, width):
    """Arc restriction [house]: widths from the name; a combination adds, capped at 360."""
    assert arc_width(arc) == width


@pytest.mark.parametrize("old, new, message", [
    ('type = "Ph-3", arc = "360"', 'type = "Ph-3", arc = "FQ"',
     'ca.toml: boxes[1].arc: unknown arc "FQ"'),
    ('id = "ph-5"', 'id = "ph-1"', 'ca.toml: boxes[1].id: duplicate box id "ph-1" '
                                   '(first used at boxes[0])'),
    ('kind = "lab"', 'kind = "labb"', 'ca.toml: boxes[7].kind: unknown kind "labb"'),
    ('heavy_weapon_order = ["photon", "disruptor"]\n', '',
     "ca.toml: heavy_weapon_order: missing: this ship has several heavy-weapon types "
     "(photon, disruptor)"),
    ('heavy_weapon_order = ["photon", "disruptor"]', 'heavy_weapon_order = ["photon"]',
     "ca.toml: heavy_weapon_order: must list every heavy-weapon type of the ship; missing: "
     "disruptor"),
    ('heavy_weapon_order = ["photon", "disruptor"]', 'heavy_weapon_order = ["photon", "plasma"]',
     'ca.toml: heavy_weapon_order[1]: "plasma" is not a heavy-weapon type on this ship'),
    ('type = "Ph-1"', 'type = "Ph-7"', 'ca.toml: boxes[0].type: unknown phaser type "Ph-7"'),
    ('occupant = "admin"', 'occupant = "pilot"',
     'ca.toml: boxes[5].occupant: unknown value "pilot" (expected one of: empty, admin, suicide)'),
    ('{ id = "tractor-1", kind = "tractor" }', '{ id = "tractor-1", kind = "tractor", state = "on" }',
     'ca.toml: boxes[6].state: unknown value "on" (expected one of: used-dropped, unused, holding)'),
    ("frame = 6", "frame = 0", "ca.toml: frame: 0 is too small (at least 1)"),
    ("shields = [30, 24, 24, 24, 24, 24]", "shields = [30, 24, 24, 24, 24]",
     "ca.toml: shields: a ship has six shields (#1 to #6), found 5"),
    ("damage_control = 4\n", "", "ca.toml: damage_control: missing"),
    ("damage_control = 4", "damage_control = -1", "ca.toml: damage_control: -1 is too small"),
    ('{ id = "ph-5", kind = "phaser", type = "Ph-3", arc = "360" }',
     '{ id = "ph-5", kind = "phaser", type = "Ph-3" }',
     "ca.toml: boxes[1].arc: missing: a phaser needs a firing arc"),
    ('drones = 4', 'drones = 4, occupant = "admin"', "ca.toml: boxes[4].occupant: unknown key"),
    ('kind = "lab"', 'kind = "frame"', "ca.toml: boxes[7].kind: frame boxes are counted"),
    ("boxes = [", "boxxes = [", "ca.toml: boxxes: unknown key"),
    ('arc = "FX"', 'arc = "FX", arc_degrees = 240', 'ca.toml: boxes[3].arc_degrees: give either'),
])
def test_malformed_cards_are_refused_naming_file_and_key_path(tmp_path, old, new, message):
    """[product]: "Loading validates every field and reports the file and the key path of
    the first error (ships/fedcom/ca.toml: boxes[12].arc: unknown arc "FQ")"."""
    assert old in GOOD
    with pytest.raises(ShipDefinitionError) as info:
        load_ship_class(write(tmp_path, GOOD.replace(old, new, 1)))
    assert str(info.value).startswith(message)


def test_not_toml_at_all(tmp_path):
    with pytest.raises(ShipDefinitionError, match=r"^ca\.toml: not valid TOML"):
        load_ship_class(write(tmp_path, "boxes = [ { id = "))

"""Ship definitions: the bundled sample classes load, malformed files are refused with key paths."""

import pytest

from shipsheet.model import ShipDefinitionError, get_class, list_classes, load_ship_class, new_ship
from shipsheet.model.library import library_problems
from shipsheet.rules.war_in_space import GAME, current_die, locked_suits

CRUISER = """\
game = "war-in-space"
class = "Test Cruiser"
size = "Cruiser"
systems = [
  { name = "Reactor", die = "d10", boxes = 4 },
  { name = "Drive", die = "d8", boxes = 3 },
  { name = "Fire Control", die = "d8", boxes = 3 },
]
[suits]
spades = ["attack", "movement"]
hearts = ["defense", "attack"]
diamonds = ["attack", "defense"]
clubs = ["movement", "defense"]
"""

SAMPLES = {
    # stem: (size, [(system, die, boxes)])
    "escort": ("Escort", [("Reactor", 6, 2), ("Drive", 8, 3), ("Fire Control", 4, 1)]),
    "frigate": ("Frigate", [("Reactor", 8, 3), ("Drive", 8, 2), ("Fire Control", 6, 2)]),
    "cruiser": ("Cruiser", [("Reactor", 10, 4), ("Drive", 8, 3), ("Fire Control", 8, 3)]),
    "battleship": ("Battleship", [("Reactor", 12, 5), ("Drive", 6, 2), ("Fire Control", 10, 4)]),
}


@pytest.mark.parametrize("stem", sorted(SAMPLES))
def test_sample_class_loads_as_an_undamaged_labelled_sample(stem):
    size, systems = SAMPLES[stem]
    cls = get_class(f"war-in-space/{stem}")
    assert cls.game == "war-in-space"
    assert cls.sample, "bundled classes are our own designs, labelled as samples"
    assert cls.spec.size == size
    assert [(s.name, s.die, s.boxes) for s in cls.spec.systems] == systems
    ship = new_ship(cls, "Test")
    assert [current_die(ship, name) for name, _, _ in systems] == [d for _, d, _ in systems]
    assert locked_suits(ship) == []
    assert GAME.status_chips(ship) == []


def test_samples_have_different_sizes_and_none_is_skipped():
    classes = list_classes("war-in-space")
    assert {c.id for c in classes} >= {f"war-in-space/{s}" for s in SAMPLES}
    assert len({c.spec.size for c in classes}) >= 4
    assert not [p for p in library_problems() if p.startswith("war-in-space/")]


def test_cruiser_diamonds_row_is_the_seed_figure_1_ship():
    """Seed: "if the ship in Figure 1 played a 4 of diamonds ... the next highest die would be
    used for Attack actions, and the remaining die would be spent on Defense"."""
    row = get_class("war-in-space/cruiser").spec.suit("diamonds")
    assert (row.primary, row.secondary, row.tertiary) == ("attack", "defense", "movement")


def test_a_well_formed_file_loads(tmp_path):
    path = tmp_path / "cruiser.toml"
    path.write_text(CRUISER, encoding="utf-8")
    cls = load_ship_class(path)
    assert cls.id == "war-in-space/cruiser"
    assert cls.name == "Test Cruiser"
    # [product]: "A system may have at most as many boxes as steps from its die to "0"
    # (d10: d8, d6, d4, 0 -> 4 boxes)".
    assert cls.spec.systems[0].ladder == (10, 8, 6, 4, 0)


def test_size_is_optional_free_text(tmp_path):
    path = tmp_path / "odd.toml"
    path.write_text(CRUISER.replace('size = "Cruiser"', 'size = "Light carrier (refit)"'),
                    encoding="utf-8")
    assert load_ship_class(path).spec.size == "Light carrier (refit)"
    path.write_text(CRUISER.replace('size = "Cruiser"\n', ""), encoding="utf-8")
    assert load_ship_class(path).spec.size == ""


MALFORMED = [
    ("unknown die",
     lambda t: t.replace('name = "Drive", die = "d8"', 'name = "Drive", die = "d7"'),
     'cruiser.toml: systems[1].die: unknown die "d7" (expected one of: d4, d6, d8, d10, d12)'),
    ("more boxes than steps down to 0",
     lambda t: t.replace('die = "d10", boxes = 4', 'die = "d10", boxes = 5'),
     "cruiser.toml: systems[0].boxes: a d10 system has at most 4 boxes "
     "(the steps down to 0: d8, d6, d4, 0), found 5"),
    ("no boxes",
     lambda t: t.replace('die = "d8", boxes = 3 },\n  { name = "Fire',
                         'die = "d8", boxes = 0 },\n  { name = "Fire'),
     "cruiser.toml: systems[1].boxes: a system needs at least 1 box, found 0"),
    ("two systems",
     lambda t: t.replace('  { name = "Fire Control", die = "d8", boxes = 3 },\n', ""),
     "cruiser.toml: systems: a War In Space ship has exactly 3 energy systems "
     "(one per energy die), found 2"),
    ("four systems",
     lambda t: t.replace('  { name = "Fire Control", die = "d8", boxes = 3 },\n',
                         '  { name = "Fire Control", die = "d8", boxes = 3 },\n'
                         '  { name = "Shields", die = "d6", boxes = 2 },\n'),
     "cruiser.toml: systems: a War In Space ship has exactly 3 energy systems "
     "(one per energy die), found 4"),
    ("same action twice",
     lambda t: t.replace('hearts = ["defense", "attack"]', 'hearts = ["attack", "attack"]'),
     'cruiser.toml: suits.hearts: primary and secondary must be two different actions '
     '(both are "attack") for ♥'),
    ("damage control in the suit table",
     lambda t: t.replace('clubs = ["movement", "defense"]', 'clubs = ["movement", "damage control"]'),
     'cruiser.toml: suits.clubs[1]: unknown value "damage control" '
     '(expected one of: attack, defense, movement)'),
    ("three actions for a suit",
     lambda t: t.replace('spades = ["attack", "movement"]', 'spades = ["attack", "movement", "defense"]'),
     "cruiser.toml: suits.spades: expected [primary, secondary]: two actions of attack, defense, "
     "movement, found 3"),
    ("a suit missing",
     lambda t: t.replace('clubs = ["movement", "defense"]\n', ""),
     "cruiser.toml: suits.clubs: missing"),
    ("a fifth suit",
     lambda t: t + 'stars = ["attack", "defense"]\n',
     "cruiser.toml: suits.stars: unknown key"),
    ("unknown top-level key",
     lambda t: t.replace('size = "Cruiser"', 'size = "Cruiser"\nspeed = 6'),
     "cruiser.toml: speed: unknown key"),
    ("unknown system key",
     lambda t: t.replace('die = "d10", boxes = 4', 'die = "d10", boxes = 4, arc = "F"'),
     "cruiser.toml: systems[0].arc: unknown key"),
    ("two systems with one name",
     lambda t: t.replace('name = "Fire Control"', 'name = "drive"'),
     'cruiser.toml: systems[2].name: "drive" is already the name of systems[1]; '
     "each system needs its own name"),
    ("boxes as text",
     lambda t: t.replace('boxes = 4', 'boxes = "4"'),
     "cruiser.toml: systems[0].boxes: expected a whole number, found text"),
    ("no suit table",
     lambda t: t.split("[suits]")[0],
     "cruiser.toml: suits: missing"),
]


@pytest.mark.parametrize("what, mutate, message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_definition_is_refused_with_file_and_key_path(tmp_path, what, mutate, message):
    path = tmp_path / "cruiser.toml"
    path.write_text(mutate(CRUISER), encoding="utf-8")
    with pytest.raises(ShipDefinitionError) as exc:
        load_ship_class(path)
    assert str(exc.value) == message


def test_die_names_are_case_insensitive(tmp_path):
    path = tmp_path / "caps.toml"
    path.write_text(CRUISER.replace('"d10"', '"D10"'), encoding="utf-8")
    assert load_ship_class(path).spec.systems[0].die == 10

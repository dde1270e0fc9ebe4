"""The ten bundled ship types, malformed definitions, and states read from session files."""

import json

import pytest

from shipsheet.model import (SessionFileError, ShipDefinitionError, get_class, list_classes,
                             load_session, load_ship_class, new_ship, save_session, Session)
from shipsheet.model.library import library_problems
from shipsheet.rules.triplanetary import GAME, apply_damage, damage_action, status

# The ship-type table [2018], as printed.
SPEC_TYPES = """
| Transport | 1D | 10 | 50 | commercial |
| Packet | 2 | 10 | 50 | commercial, armed |
| Tanker | 1D | 50 | 0 | commercial |
| Liner | 2D | 10 | 0 | commercial |
| Corvette | 2 | 20 | 5 | warship |
| Corsair | 4 | 20 | 10 | warship |
| Frigate | 8 | 20 | 40 | warship |
| Dreadnaught | 15 | 15 | 50 | warship |
| Torch | 8 | unlimited | 10 | warship |
| Orbital Base | 16 | 0 (unlimited store) | unlimited | fixed |
"""
STEMS = ["transport", "packet", "tanker", "liner", "corvette", "corsair", "frigate",
         "dreadnaught", "torch", "orbital-base"]


def _rows():
    for stem, line in zip(STEMS, SPEC_TYPES.strip().splitlines()):
        name, combat, fuel, cargo, notes = [c.strip() for c in line.strip("|").split("|")]
        yield stem, name, combat, fuel, cargo, notes


@pytest.mark.parametrize("stem,name,combat,fuel,cargo,notes", list(_rows()))
def test_each_of_the_ten_types_loads_with_the_spec_values(stem, name, combat, fuel, cargo,
                                                          notes):
    cls = get_class(f"triplanetary/{stem}")
    spec = cls.spec
    assert cls.name == name and cls.game == "triplanetary"
    assert spec.strength_label == combat
    assert spec.defensive_only == combat.endswith("D")
    assert spec.commercial == notes.startswith("commercial")
    assert spec.fuel == (None if fuel == "unlimited" else int(fuel.split()[0]))
    assert spec.cargo == (None if cargo == "unlimited" else int(cargo))
    assert spec.fixed == (notes == "fixed")
    assert spec.dreadnaught == (stem == "dreadnaught")
    # [seed] "Weapon hits on transports and packets ..."
    assert spec.mine_layer == (stem in ("transport", "packet"))
    assert "our own data entry" in cls.data["notes"].lower()
    ship = new_ship(cls, "Test")
    assert status(ship).weapon == 0 and ship.state["fuel"] == spec.fuel


def test_the_library_lists_exactly_the_ten_and_has_no_problems():
    assert sorted(c.id for c in list_classes("triplanetary")) == sorted(
        f"triplanetary/{s}" for s in STEMS)
    assert not [p for p in library_problems() if p.startswith("triplanetary/")]


def test_orbital_base_store_and_torch_fuel():
    assert get_class("triplanetary/orbital-base").spec.fuel_store is None   # unlimited store
    assert get_class("triplanetary/torch").spec.fuel is None
    assert GAME.describe_class(get_class("triplanetary/torch")) == \
        "Torch — combat 8, fuel unlimited, cargo 10 t"


GOOD = 'game = "triplanetary"\nclass = "Raider"\ncombat = 6\nfuel = 20\ncargo = 5\n'


@pytest.mark.parametrize("text,message", [
    (GOOD.replace("combat = 6", 'combat = "six"'),
     "frigate.toml: combat: expected a whole number, found text"),
    (GOOD + "feul = 3\n", "frigate.toml: feul: unknown key"),
    (GOOD.replace("fuel = 20", 'fuel = "lots"'),
     'frigate.toml: fuel: expected a whole number or "unlimited", found text "lots"'),
    (GOOD.replace("cargo = 5", "cargo = -5"), "frigate.toml: cargo: -5 is too small (at least 0)"),
    (GOOD.replace("combat = 6\n", ""), "frigate.toml: combat: missing"),
    (GOOD + 'defensive_only = "yes"\n',
     "frigate.toml: defensive_only: expected true or false, found text"),
    (GOOD + "defensive_only = true\ndreadnaught = true\n",
     "frigate.toml: dreadnaught: a defensive-only ship never fires"),
    (GOOD.replace("combat = 6", "combat = 0"),
     "frigate.toml: combat: a ship with combat strength 0 cannot attack"),
    (GOOD.replace("fuel = 20", "fuel = 2.5"),
     'frigate.toml: fuel: expected a whole number or "unlimited", found a decimal number'),
    (GOOD + "fixed = 1\n", "frigate.toml: fixed: expected true or false, found a whole number"),
])
def test_malformed_definitions_name_file_and_key(tmp_path, text, message):
    path = tmp_path / "frigate.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ShipDefinitionError) as info:
        load_ship_class(path)
    assert str(info.value).startswith(message)


def test_a_users_own_type_in_the_same_format(tmp_path):
    path = tmp_path / "raider.toml"
    path.write_text(GOOD + 'fuel_store = 30\nmine_layer = true\nnotes = "home-made"\n')
    cls = load_ship_class(path)
    assert cls.id == "triplanetary/raider" and cls.spec.combat == 6 and cls.spec.mine_layer


def _session_file(tmp_path, state):
    s = Session("triplanetary", seed=1)
    s.add_ship(new_ship(get_class("triplanetary/frigate"), "Ajax"))
    path = tmp_path / "s.shipsheet"
    save_session(s, path)
    data = json.loads(path.read_text())
    data["ships"][0]["state"] = state
    path.write_text(json.dumps(data))
    return path


def test_state_round_trips_through_a_session_file(tmp_path):
    s = Session("triplanetary", seed=1)
    a = s.add_ship(new_ship(get_class("triplanetary/frigate"), "Ajax"))
    s.apply(damage_action(a, weapon=2, structure=1))
    path = tmp_path / "s.shipsheet"
    save_session(s, path)
    back = load_session(path)
    assert back.ships[0].state == a.state
    assert status(back.ships[0]).weapon == 2


@pytest.mark.parametrize("state,message", [
    ([], "expected a table"),
    ({"weapon": -1}, "weapon: -1 is too small"),
    ({"drive": "2"}, "drive: expected a whole number"),
    ({"structure": 10 ** 9}, "structure: 1000000000 is too large"),
    ({"recovered": 1}, "recovered: expected true or false"),
    ({"fuel": 21}, "fuel: 21 is too large (at most 20)"),
    ({"cargo": 41}, "cargo: 41 is too large (at most 40)"),
    ({"hull": 3}, "hull: unknown key"),
])
def test_hostile_states_are_refused_clearly(tmp_path, state, message):
    with pytest.raises(SessionFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_session(_session_file(tmp_path, state))


def test_missing_state_keys_take_the_new_ship_values(tmp_path):
    back = load_session(_session_file(tmp_path, {"weapon": 3}))
    assert back.ships[0].state["drive"] == 0 and back.ships[0].state["fuel"] == 20
    assert status(back.ships[0]).weapon == 3


def test_unlimited_fuel_state_must_be_null(tmp_path):
    s = Session("triplanetary", seed=1)
    s.add_ship(new_ship(get_class("triplanetary/torch"), "Blaze"))
    path = tmp_path / "t.shipsheet"
    save_session(s, path)
    data = json.loads(path.read_text())
    data["ships"][0]["state"]["fuel"] = 5
    path.write_text(json.dumps(data))
    with pytest.raises(SessionFileError, match="unlimited fuel"):
        load_session(path)


def test_apply_damage_on_loaded_ship(tmp_path):
    back = load_session(_session_file(tmp_path, {"structure": 5}))
    apply_damage(back.ships[0], structure=1)
    assert status(back.ships[0]).destroyed

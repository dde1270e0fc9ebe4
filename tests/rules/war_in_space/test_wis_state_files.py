"""Ship state in session files: saved and read back as is; hostile states refused clearly."""

import json

import pytest

from shipsheet.model import Session, SessionFileError, load_session, save_session
from shipsheet.model.storage import session_from_data, session_to_data
from shipsheet.rules.war_in_space import GAME, HOUSE_RULES, PHASES, current_die, house_rule
from shipsheet.rules.war_in_space.sample import build_sample_session


@pytest.fixture(scope="module")
def sample():
    return build_sample_session()


def test_sample_session_is_built_through_actions(sample):
    """HACKING: two sides, 4-6 ships in varied states of damage, a fixed seed, a name."""
    assert sample.name
    assert len(sample.sides) == 2
    assert 4 <= len(sample.ships) <= 6
    chips = {s.name: GAME.status_chips(s) for s in sample.ships}
    assert chips["Harrier"] == ["Dead in space"]
    assert chips["Vigilant"] == ["♦ locked"]
    assert chips["Kestrel"] == []
    assert all(not e.undone for e in sample.log)
    assert (sample.undo_step() is not None)


def test_sample_session_is_reproducible():
    a, b = build_sample_session(), build_sample_session()
    assert [s.state for s in a.ships] == [s.state for s in b.ships]


def test_sample_session_saves_and_loads_unchanged(sample, tmp_path):
    path = tmp_path / "sample.shipsheet"
    save_session(sample, path)
    loaded = load_session(path)
    assert [s.state for s in loaded.ships] == [s.state for s in sample.ships]
    assert loaded.phase == sample.phase
    # The cruiser's repairs, planned in Energy Allocation, still happen after loading.
    vigilant = loaded.ship("Vigilant")
    assert current_die(vigilant, "Drive") == 4
    loaded.next_phase()
    assert loaded.phase == "Damage Control"
    assert current_die(vigilant, "Drive") == 6


def _with_state(sample, edit):
    data = json.loads(json.dumps(session_to_data(sample)))
    ship = next(s for s in data["ships"] if s["name"] == "Vigilant")
    index = data["ships"].index(ship)
    edit(ship["state"])
    return data, index


HOSTILE = [
    ("an unknown key", lambda s: s.update(shields=3), "state.shields: unknown key"),
    ("marks missing", lambda s: s.pop("marks"), "state.marks: missing"),
    ("two marks", lambda s: s.update(marks=[0, 1]), "state.marks: expected 3 entries"),
    ("more marks than boxes", lambda s: s.update(marks=[5, 0, 0]),
     "state.marks[0]: 5 is too large (at most 4)"),
    ("negative marks", lambda s: s.update(marks=[0, -1, 0]), "state.marks[1]: -1 is too small"),
    ("marks as text", lambda s: s.update(marks="lots"), "state.marks: expected a list"),
    ("a suit missing", lambda s: s["criticals"].pop("clubs"), "state.criticals.clubs: missing"),
    ("a critical as a number", lambda s: s["criticals"].update(hearts=1),
     "state.criticals.hearts: expected true or false"),
    ("a bad card", lambda s: s["energy"].update(card="14D"), "state.energy.card:"),
    ("a die above its type", lambda s: s["energy"].update(dice=[11, 3, 6]),
     "state.energy.dice[0]: 11 is too large"),
    ("energy not adding up", lambda s: s["energy"].update(defense=30),
     "state.energy: the energy (45) does not add up to the dice (18)"),
    ("negative energy", lambda s: s["energy"].update(attack=-3), "state.energy.attack: -3 is too small"),
    ("more spent than there was", lambda s: s["energy"].update(damage_control_spent=16),
     "state.energy.damage_control_spent: 16 is too large (at most 15)"),
    ("DC energy without DC", lambda s: s["energy"].update(damage_control_announced=False),
     "state.energy.damage_control: Damage Control energy without Damage Control announced"),
    ("a plan beyond the energy", lambda s: s["planned_repairs"].update(boxes=[4, 1, 0]),
     "state.planned_repairs: the planned repairs cost 28 energy, more than the 15"),
    ("a plan without energy", lambda s: s.update(energy=None),
     "state.planned_repairs: repairs are planned but no energy was committed this turn"),
    ("a critical planned twice", lambda s: s["planned_repairs"].update(criticals=["diamonds"] * 2),
     'state.planned_repairs.criticals[1]: "diamonds" is listed twice'),
    ("a roll after the commit", lambda s: s.update(rolled=[1, 1, 1]),
     "state.rolled: dice rolled for a turn whose energy is already committed"),
    ("nested junk", lambda s: s.update(energy=[[[]]]), "state.energy: expected a table"),
]


@pytest.mark.parametrize("what, edit, message", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_state_is_refused_with_its_key_path(sample, what, edit, message):
    data, index = _with_state(sample, edit)
    with pytest.raises(SessionFileError) as exc:
        session_from_data(data, "battle.shipsheet")
    assert str(exc.value).startswith(f"battle.shipsheet: ships[{index}].")
    assert message in str(exc.value)


def test_an_old_state_without_the_optional_keys_reads(sample):
    data, _ = _with_state(sample, lambda s: [s.pop(k) for k in ("rolled", "planned_repairs")])
    loaded = session_from_data(data, "old.shipsheet")
    assert loaded.ship("Vigilant").state["planned_repairs"] is None


def test_phases_are_the_turn_sequence():
    """Spec [house]: Energy Allocation, Movement, Damage Control ("after movement" [seed]),
    Combat."""
    assert PHASES == ("Energy Allocation", "Movement", "Damage Control", "Combat")
    assert Session("war-in-space").phase == "Energy Allocation"


def test_house_rules_are_listed_for_the_help():
    """[product]: "House rules must be visible in the UI ... never silent"."""
    topics = [rule.topic for rule in HOUSE_RULES]
    for topic in ("Jokers are never locked", "Allocation without Damage Control",
                  "Unspent energy is lost", "Dead in space", "A system at 0", "Turn sequence"):
        assert topic in topics
    assert "Tertiary" in house_rule("tertiary action")
    assert house_rule("WIS-H3") == house_rule("Tertiary action")
    assert house_rule("WIS-H3").startswith("House rule WIS-H3 (Tertiary action): ")
    with pytest.raises(KeyError):
        house_rule("no such rule")

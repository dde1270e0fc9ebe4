"""The game's hooks: phases, end of turn, roster chips, fuel and cargo, the sample, the
house rules list, and the public names of the issue."""

import subprocess
import sys

import pytest

from shipsheet.model import RuleViolation, Session, get_class, get_game, new_ship
from shipsheet.rules import triplanetary as tp
from shipsheet.rules.triplanetary.sample import build_sample_session


def ship(stem, name=None):
    return new_ship(get_class(f"triplanetary/{stem}"), name or stem)


def test_public_names_of_the_issue():
    for name in ("odds_column", "gun_hits", "other_hits", "damage_for_roll", "Damage",
                 "apply_damage", "recover", "maintain", "end_turn", "status", "Status",
                 "resolve_attack", "AttackResult", "GAME"):
        assert hasattr(tp, name), name
    assert get_game("triplanetary") is tp.GAME


def test_phases_end_with_recovery_and_the_turn_end_resets_recovery():
    """[TRI-H1] phases Movement, Ordnance, Combat, Recovery; GAME.end_turn resets the limit."""
    assert tp.GAME.phases == ("Movement", "Ordnance", "Combat", "Recovery")
    s = Session("triplanetary", seed=2)
    a = s.add_ship(ship("frigate", "Ajax"))
    s.apply(tp.damage_action(a, weapon=2))
    s.next_phase(); s.next_phase(); s.next_phase()
    assert s.phase == "Recovery"
    assert "Ajax: will recover 1 D at the end of the turn (the only track it can recover): " \
        "weapons D2 → D1" in s.log_text()
    s.apply(tp.recover_action(a, "weapon"))
    assert tp.recovered_this_turn(a)
    s.next_phase()
    assert (s.turn, s.phase) == (2, "Movement") and not tp.recovered_this_turn(a)


def test_standard_track_recovers_by_itself_at_the_end_of_the_turn():
    s = Session("triplanetary", seed=2)
    a = s.add_ship(ship("frigate", "Ajax"))
    s.apply(tp.combat_option_action("standard"))
    while s.phase != tp.COMBAT:
        s.next_phase()
    s.apply(tp.attack(a, s.add_ship(ship("corsair", "Kite")), to_hit_roll=4))  # 2:1, 4: D3
    kite = s.ship("Kite")
    assert tp.standard_level(kite) == 3
    s.next_turn()
    assert tp.standard_level(kite) == 2
    assert "recovers 1 D (standard combat: the single disabled track, house rule TRI-H9): " \
        "disabled D3 → D2" in s.log_text()
    assert "Disabled D2" in tp.status_chips(kite)


def test_fuel_and_cargo_trackers():
    """[product]: "The sheet shows fuel and cargo as trackable boxes or counters."
    Frigate: fuel 20, cargo 40 t; torch: unlimited fuel."""
    f = ship("frigate")
    assert tp.set_fuel(f, 13) == 13 and f.state["fuel"] == 13
    with pytest.raises(RuleViolation, match="at most 20 fuel"):
        tp.set_fuel(f, 21)
    with pytest.raises(RuleViolation, match="at most 40 t"):
        tp.set_cargo(f, 41)
    assert tp.set_cargo(f, 40) == 40
    with pytest.raises(RuleViolation, match="unlimited fuel"):
        tp.set_fuel(ship("torch"), 3)
    assert tp.set_cargo(ship("orbital-base"), 5000) == 5000
    s = Session("triplanetary", seed=1)
    a = s.add_ship(ship("tanker", "Fat Boy"))
    s.apply(tp.fuel_action(a, 12))
    s.apply(tp.cargo_action(a, 0))
    assert a.state["fuel"] == 12
    s.undo(); s.undo()
    assert a.state["fuel"] == 50


def test_sample_session():
    s = build_sample_session()
    assert s.name and s.game == "triplanetary"
    assert 4 <= len(s.ships) <= 6 and len(s.sides) == 2
    frigates = [x for x in s.ships if x.ship_class.id == "triplanetary/frigate"]
    assert any(tp.is_damaged(x) for x in frigates)
    assert len({tp.describe_levels(x) for x in s.ships}) >= 3
    assert build_sample_session().ships[0].state == s.ships[0].state   # fixed seed, same ships


def test_house_rules_list():
    assert len(tp.HOUSE_RULES) >= 5
    topics = [rule.topic for rule in tp.HOUSE_RULES]
    assert "Several targets" in topics and len(set(topics)) == len(topics)
    assert all(isinstance(rule.text, str) and len(rule.text) > 20 for rule in tp.HOUSE_RULES)
    assert tp.house_rule("TRI-H13").startswith("House rule TRI-H13 (Default recovery choice): ")


def test_no_qt_import():
    code = ("import sys; import shipsheet.rules.triplanetary, "
            "shipsheet.rules.triplanetary.sample; "
            "print(any(m.startswith('PySide') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"

"""Standard combat (the session option): the D1–D5/E table and its single track.

Expected values are the standard-combat table [2018] as printed (copied below).
"""

import pytest

from shipsheet.model import RuleViolation, Session, get_class, new_ship
from shipsheet.rules.triplanetary import (apply_attack, apply_standard, attack,
                                          combat_option_action, combat_system, end_turn,
                                          maintain, recover, resolve_attack, resolve_other,
                                          standard_gun_result, standard_level,
                                          standard_other_result, status)

SPEC_STANDARD = """
| roll | 1:4 | 1:2 | 1:1 | 2:1 | 3:1 | 4:1 |
| 1 | – | – | – | – | – | D2 |
| 2 | – | – | – | – | D2 | D3 |
| 3 | – | – | – | D2 | D3 | D4 |
| 4 | – | – | D2 | D3 | D4 | D5 |
| 5 | – | D2 | D3 | D4 | D5 | E |
| 6 | D1 | D3 | D4 | D5 | E | E |
"""


def _cells():
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in SPEC_STANDARD.strip().splitlines()]
    header = rows[0][1:]
    for row in rows[1:]:
        for column, cell in zip(header, row[1:]):
            yield column, int(row[0]), None if cell == "–" else cell


@pytest.mark.parametrize("column,roll,result", list(_cells()))
def test_standard_gun_table_cell(column, roll, result):
    """[2018] standard combat: "the gun table's cell is a disable result"."""
    assert standard_gun_result(column, roll) == result


# "Other damage: Torpedo 2–4 D1, 5 D2, 6 D3; Mine 5–6 D2; Asteroid 5 D1, 6 D2;
#  Ram 3–4 D1, 5 D3, 6 D5."
SPEC_OTHER = {
    "torpedo": {1: None, 2: "D1", 3: "D1", 4: "D1", 5: "D2", 6: "D3"},
    "mine": {1: None, 2: None, 3: None, 4: None, 5: "D2", 6: "D2"},
    "asteroid": {1: None, 2: None, 3: None, 4: None, 5: "D1", 6: "D2"},
    "ram": {1: None, 2: None, 3: "D1", 4: "D1", 5: "D3", 6: "D5"},
}


@pytest.mark.parametrize("kind,roll", [(k, r) for k in SPEC_OTHER for r in range(1, 7)])
def test_standard_other_damage(kind, roll):
    """[2018] "Other damage: Torpedo 2–4 D1, 5 D2, 6 D3; Mine 5–6 D2; Asteroid 5 D1, 6 D2;
    Ram 3–4 D1, 5 D3, 6 D5." """
    assert standard_other_result(kind, roll) == SPEC_OTHER[kind][roll]


def test_standard_limits_and_no_column():
    assert standard_gun_result(None, 6) is None
    assert standard_gun_result("4:1", 0) is None
    assert standard_gun_result("1:4", 9) == "D1"


def _ship(stem, name="X"):
    return new_ship(get_class(f"triplanetary/{stem}"), name)


def test_results_accumulate_on_one_track_and_d6_destroys():
    """[2018] "D-results accumulate on one track; D6 or more, or E, destroys the ship." """
    frigate = _ship("frigate")
    apply_standard(frigate, "D2")
    apply_standard(frigate, "D3")
    assert standard_level(frigate) == 5
    st = status(frigate)
    assert not st.destroyed and st.weapon == st.drive == st.structure == 0
    apply_standard(frigate, "D1")
    assert status(frigate).destroyed
    with pytest.raises(RuleViolation, match="destroyed"):
        apply_standard(frigate, "D1")


def test_e_destroys():
    corsair = _ship("corsair")
    apply_standard(corsair, "E")
    assert status(corsair).destroyed and not status(corsair).disabled


def test_a_disabled_ship_cannot_maneuver_launch_or_attack():
    """[2018] "A disabled ship cannot maneuver, launch ordnance or attack (dreadnaughts may
    still fire guns)." """
    frigate = _ship("frigate")
    apply_standard(frigate, "D2")
    st = status(frigate)
    assert not (st.can_maneuver or st.can_fire or st.can_drop_ordnance or st.can_launch_mines)
    assert st.disabled
    dread = _ship("dreadnaught")
    apply_standard(dread, "D4")
    st = status(dread)
    assert st.can_fire and not st.can_maneuver and not st.can_drop_ordnance
    assert not st.disabled  # it can still fire, so it is not lootable


def test_recovery_one_d_per_turn_and_maintenance():
    """[2018] "Recovery 1 D per turn; maintenance at a base repairs all." """
    frigate = _ship("frigate")
    apply_standard(frigate, "D3")
    assert end_turn(frigate) == ["recovers 1 D (standard combat: the single disabled track, "
                                 "house rule TRI-H9): disabled D3 → D2"]
    assert standard_level(frigate) == 2
    recover(frigate, "standard", phase="Recovery")  # recovered by hand this turn...
    assert standard_level(frigate) == 1
    assert end_turn(frigate) == []         # ...so the end of turn adds nothing
    assert standard_level(frigate) == 1
    maintain(frigate)
    assert standard_level(frigate) == 0 and status(frigate).can_fire


def test_session_option_switches_attacks_to_the_standard_table():
    s = Session("triplanetary", seed=3)
    frigate = s.add_ship(_ship("frigate", "Ajax"), "A")
    corsair = s.add_ship(_ship("corsair", "Kite"), "B")
    while s.phase != "Combat":
        s.next_phase()
    assert combat_system(s) == "advanced"
    s.apply(combat_option_action("standard"))
    assert s.options["combat"] == "standard"
    with pytest.raises(RuleViolation, match="already"):
        s.apply(combat_option_action("standard"))
    # 8 vs 4 is 2:1; roll 5 on 2:1 is D4.
    result = resolve_attack([frigate], [corsair], to_hit_roll=5, session=s)
    assert result.combat == "standard" and result.standard_result == "D4"
    assert result.hits == 0 and result.damage_rolls == ()
    s.apply(apply_attack(result))
    assert standard_level(corsair) == 4 and status(corsair).weapon == 0
    s.apply(attack([frigate], [corsair], to_hit_roll=6,   # 2:1, 6: D5 -> 9: destroyed
                   second_attack=True))
    assert status(corsair).destroyed
    s.undo()
    assert standard_level(corsair) == 4
    other = resolve_other("ram", [corsair], to_hit_roll=6, session=s)
    assert other.standard_result == "D5"
    with pytest.raises(RuleViolation, match="no damage rolls"):
        resolve_attack([frigate], [corsair], to_hit_roll=5, damage_rolls=[3], session=s,
                       second_attack=True)
    with pytest.raises(RuleViolation):
        combat_option_action("simple")


def test_standard_result_marked_by_hand_is_one_undoable_action():
    """[2018] "D-results accumulate on one track; D6 or more, or E, destroys the ship." """
    from shipsheet.model import Session, get_class, new_ship
    from shipsheet.rules.triplanetary import is_destroyed, standard_result_action
    session = Session("triplanetary")
    ship = session.add_ship(new_ship(get_class("triplanetary/frigate"), "Nike"))
    session.apply(standard_result_action(ship, "D3"))
    session.apply(standard_result_action(ship, "D3"))
    assert ship.state["standard"] == 6 and is_destroyed(ship)
    session.undo()
    assert ship.state["standard"] == 3 and not is_destroyed(ship)
    change = session.apply(standard_result_action(ship, "E"))
    assert change.name == "Mark E (eliminated)" and is_destroyed(ship)

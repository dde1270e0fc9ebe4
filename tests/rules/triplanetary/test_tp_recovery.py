"""Recovery (1 D per turn, owner's choice), maintenance at a base, end of turn."""

import pytest

from shipsheet.model import RuleViolation, Session, get_class, new_ship
from shipsheet.rules.triplanetary import (apply_damage, end_turn, maintain, maintain_action,
                                          mark_level, mark_level_action, recover,
                                          recover_action, recoverable_tracks,
                                          recovered_this_turn, status)

R = "Recovery"  # recovering now is allowed in the Recovery phase [TRI-H1]


def ship(stem="frigate", **damage):
    s = new_ship(get_class(f"triplanetary/{stem}"), "Ajax")
    if damage:
        apply_damage(s, **damage)
    return s


def test_recover_one_d_on_the_owners_track():
    """[seed] "A ship recovers from 1 D a turn ... The ship's owner chooses what kind of
    damage to recover from." """
    s = ship(weapon=2, drive=1, structure=3)
    assert recover(s, "structure", phase=R) == 2
    st = status(s)
    assert (st.weapon, st.drive, st.structure) == (2, 1, 2)


def test_recovering_now_outside_the_recovery_phase_is_refused():
    """[TRI-H1] "Recovery closes the turn": in the Movement phase the owner sets a choice
    instead, and the refusal says so."""
    s = Session("triplanetary", seed=1)
    a = s.add_ship(ship(weapon=2))
    for phase in ("Movement", "Ordnance", "Combat"):
        assert s.phase == phase
        with pytest.raises(RuleViolation, match=f"this is the {phase} phase.*Choose the track"):
            s.apply(recover_action(a, "weapon"))
        with pytest.raises(RuleViolation, match="Recovery phase"):
            s.apply(mark_level_action(a, "weapon", 1))
        s.next_phase()
    s.apply(recover_action(a, "weapon"))
    assert status(a).weapon == 1


def test_recovery_applies_at_once():
    s = ship(weapon=1)
    assert not status(s).can_fire
    recover(s, "weapon", phase=R)
    assert status(s).can_fire


def test_second_recovery_in_a_turn_refused_until_end_of_turn():
    s = ship(weapon=2, drive=2)
    recover(s, "weapon", phase=R)
    before = dict(s.state)
    with pytest.raises(RuleViolation, match="already recovered"):
        recover(s, "drive", phase=R)
    assert s.state == before
    assert recoverable_tracks(s) == []
    assert end_turn(s) == []  # it recovered this turn: nothing more at the end
    assert not recovered_this_turn(s)
    assert recover(s, "drive", phase=R) == 1


@pytest.mark.parametrize("track", ["weapon", "drive", "structure"])
def test_recovering_a_track_at_d0_is_refused(track):
    s = ship(**{t: 1 for t in ("weapon", "drive", "structure") if t != track})
    with pytest.raises(RuleViolation, match="D0"):
        recover(s, track, phase=R)
    assert not recovered_this_turn(s)


def test_weapons_d6_only_at_a_base():
    """[seed] "A ship whose weapons reach D6 or below can no longer repair them; it must get
    back to a base to recover its weapon capability." """
    s = ship(weapon=6, drive=1)
    with pytest.raises(RuleViolation, match="base"):
        recover(s, "weapon", phase=R)
    assert recoverable_tracks(s) == ["drive"]
    maintain(s)
    assert status(s).weapon == 0 and status(s).can_fire


def test_drive_d6_never_by_recovery():
    """[seed] "A ship whose drive reaches D6 or below may not be repaired"."""
    s = ship(drive=7)
    with pytest.raises(RuleViolation, match="cannot be repaired"):
        recover(s, "drive", phase=R)
    assert status(s).drive == 7


def test_weapons_at_d5_can_still_recover():
    s = ship(weapon=5)
    assert recover(s, "weapon", phase=R) == 4


def test_destroyed_ship_cannot_recover_or_be_maintained():
    """[2018] maintenance restores "unless destroyed"."""
    s = ship(structure=6, weapon=1)
    with pytest.raises(RuleViolation, match="destroyed"):
        recover(s, "weapon", phase=R)
    with pytest.raises(RuleViolation, match="destroyed"):
        maintain(s)
    before = dict(s.state)
    assert end_turn(s) == [] and s.state == before


def test_unknown_track_refused():
    with pytest.raises(RuleViolation, match="laser"):
        recover(ship(weapon=1), "laser", phase=R)


def test_maintenance_restores_every_track_drive_d6_included():
    """[seed] "A ship which reaches a base and undergoes maintenance is immediately restored
    to full operating status." """
    s = ship(weapon=7, drive=6, structure=5)
    st = maintain(s)
    assert (st.weapon, st.drive, st.structure) == (0, 0, 0)
    assert st.can_fire and st.can_maneuver and not st.lost_at_map_edge


def test_maintenance_of_an_undamaged_ship_refused():
    with pytest.raises(RuleViolation, match="undamaged"):
        maintain(ship())


def test_mark_level_clicks():
    s = ship()
    assert mark_level(s, "weapon", 3, phase=R) == "weapons D0 → D3"
    assert mark_level(s, "weapon", 2, phase=R).startswith("recovers 1 D")
    with pytest.raises(RuleViolation, match="1 D per turn"):
        mark_level(s, "weapon", 1, phase=R)        # already recovered this turn
    end_turn(s)
    with pytest.raises(RuleViolation, match="Recovery phase.*TRI-H1"):
        mark_level(s, "weapon", 1, phase="Movement")
    with pytest.raises(RuleViolation, match="D2 to D1 only"):
        mark_level(s, "weapon", 0, phase=R)
    with pytest.raises(RuleViolation, match="already at D2"):
        mark_level(s, "weapon", 2, phase=R)


def to_recovery(session):
    while session.phase != R:
        session.next_phase()


def test_actions_in_a_session_and_end_of_turn_resets_the_limit():
    s = Session("triplanetary", seed=1)
    a = s.add_ship(ship(weapon=2, drive=1))
    to_recovery(s)
    s.apply(recover_action(a, "weapon"))
    assert "Recover 1 weapons D" == s.undo_status().undo
    with pytest.raises(RuleViolation):
        s.apply(recover_action(a, "drive"))
    s.next_turn()          # GAME.end_turn resets every ship's limit
    to_recovery(s)
    s.apply(recover_action(a, "drive"))
    assert status(a).drive == 0
    s.apply(mark_level_action(a, "structure", 2))
    s.apply(maintain_action(a))
    assert status(a).weapon == status(a).structure == 0
    s.undo()
    assert status(a).structure == 2 and status(a).weapon == 1
    assert "Maintenance at a base" not in s.log_text()
    assert "Maintenance at a base (undone)" in s.log_text(include_undone=True)


def test_d_levels_stop_where_a_session_file_can_keep_them():
    """[house] A track stops at D10000: what the rules accept must save and open again."""
    from shipsheet.model import get_class, new_ship
    from shipsheet.rules.triplanetary import apply_damage, add_standard
    ship = new_ship(get_class("triplanetary/frigate"), "Nike")
    apply_damage(ship, weapon=9_999)
    with pytest.raises(RuleViolation, match="would reach D10001; ShipSheet keeps D-levels up to D10000"):
        apply_damage(ship, weapon=2)
    assert ship.state["weapon"] == 9_999
    with pytest.raises(RuleViolation, match="up to D10000"):
        add_standard(ship, 10_001)
    assert ship.state["standard"] == 0

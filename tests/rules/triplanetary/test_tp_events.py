"""Lost at the map edge, looted, captured: events with a log line each, one undo step each.

[seed] "A ship whose drive reaches D6 or below may not be repaired; it will be lost when it
reaches the edge of the map." [seed] "A ship is considered "disabled" and lootable/
capturable only if it can neither maneuver nor fire."
"""

import pytest

from shipsheet.model import RuleViolation
from shipsheet.model.storage import parse_session_bytes, session_to_bytes
from shipsheet.rules import triplanetary as tp

from tp_helpers import add


# -- lost at the map edge -----------------------------------------------------------------

def test_a_ship_with_its_drive_at_d6_is_lost_at_the_map_edge(session):
    kite = add(session, "corsair", "Kite", "Pirates", drive=6)
    session.apply(tp.lose_at_map_edge_action(kite))
    assert tp.is_lost(kite) and tp.out_of_play(kite) == "lost at the map edge"
    assert tp.status_chips(kite) == ["Lost at map edge"]
    st = tp.status(kite)
    assert st.lost and not (st.can_fire or st.can_maneuver or st.disabled or st.destroyed)
    assert "lost at the map edge (drive D6)" in session.log_text()
    session.undo()
    assert not tp.is_lost(kite)


def test_a_ship_that_can_still_steer_is_not_lost_unless_the_referee_rules_it(session):
    kite = add(session, "corsair", "Kite", "Pirates", drive=2)
    with pytest.raises(RuleViolation, match="drive is at D2.*referee may rule it lost.*TRI-H25"):
        session.apply(tp.lose_at_map_edge_action(kite))
    session.apply(tp.lose_at_map_edge_action(kite, referee=True))
    assert session.undo_status().undo == "Lost at the map edge (referee)"
    assert "by the referee's ruling (drive D2; house rule TRI-H25)" in session.log_text()


def test_a_lost_ship_is_out_of_play(session):
    kite = add(session, "corsair", "Kite", "Pirates", drive=7)
    ajax = add(session, "frigate", "Ajax")
    session.apply(tp.lose_at_map_edge_action(kite))
    while session.phase != tp.COMBAT:
        session.next_phase()
    with pytest.raises(RuleViolation, match="Kite is already lost at the map edge"):
        session.apply(tp.attack(ajax, kite, to_hit_roll=6))
    with pytest.raises(RuleViolation, match="lost at the map edge: it cannot take further"):
        session.apply(tp.damage_action(kite, weapon=1))
    with pytest.raises(RuleViolation, match="lost"):
        session.apply(tp.lose_at_map_edge_action(kite))


def test_an_orbital_base_never_reaches_the_edge(session):
    base = add(session, "orbital-base", "Phobos")
    with pytest.raises(RuleViolation, match="never moves"):
        session.apply(tp.lose_at_map_edge_action(base, referee=True))


def test_lost_saves_and_opens_again(session):
    kite = add(session, "corsair", "Kite", "Pirates", drive=6)
    session.apply(tp.lose_at_map_edge_action(kite))
    again = parse_session_bytes(session_to_bytes(session))
    assert tp.is_lost(again.ship(kite.id))


# -- looting ----------------------------------------------------------------------------------

def test_a_disabled_ship_is_looted_up_to_the_looters_hold(session):
    """A transport (1D) with drive D1 can neither maneuver nor fire: disabled [TRI-H23]. A
    corsair holds 10 t [2018]."""
    mule = add(session, "transport", "Ceres Mule", drive=1)
    session.apply(tp.cargo_action(mule, 50))
    kite = add(session, "corsair", "Kite", "Pirates")
    assert tp.status(mule).disabled
    with pytest.raises(RuleViolation, match="Kite has room for 10 t.*TRI-H26"):
        session.apply(tp.loot_action(kite, mule, 11))
    session.apply(tp.loot_action(kite, mule, 10))
    assert (mule.state["cargo"], kite.state["cargo"]) == (40, 10)
    assert session.undo_status().undo == "Kite loots Ceres Mule"
    assert "looted by Kite: 10 t taken; 40 t left" in session.log_text()
    session.undo()
    assert (mule.state["cargo"], kite.state["cargo"]) == (50, 0)


def test_only_a_disabled_ship_is_lootable(session):
    """[seed] "disabled ... only if it can neither maneuver nor fire. Structure damage does
    not make a ship any more or less lootable.\""""
    ajax = add(session, "frigate", "Ajax", weapon=1, structure=4)   # still maneuvers
    session.apply(tp.cargo_action(ajax, 20))
    kite = add(session, "corsair", "Kite", "Pirates")
    with pytest.raises(RuleViolation, match="lootable/capturable only if it can neither "
                                            "maneuver nor fire: Ajax still can"):
        session.apply(tp.loot_action(kite, ajax, 5))
    with pytest.raises(RuleViolation, match="Ajax still can"):
        session.apply(tp.capture_action(kite, ajax))


def test_an_orbital_base_with_a_weapon_hit_is_disabled(session):
    """[TRI-H22] a base never maneuvers: one weapon hit leaves it able to do neither."""
    base = add(session, "orbital-base", "Phobos", weapon=1)
    assert tp.status(base).disabled


def test_a_disabled_looter_loots_nothing_and_tons_are_checked(session):
    mule = add(session, "transport", "Mule", drive=1)
    session.apply(tp.cargo_action(mule, 30))
    wreck = add(session, "transport", "Hulk", "Pirates", drive=1)
    kite = add(session, "corsair", "Kite", "Pirates")
    with pytest.raises(RuleViolation, match="Hulk is disabled itself"):
        session.apply(tp.loot_action(wreck, mule, 5))
    for tons, words in ((0, "at least 1"), (31, "carries 30 t")):
        with pytest.raises(RuleViolation, match=words):
            session.apply(tp.loot_action(kite, mule, tons))


# -- capture ---------------------------------------------------------------------------------

def test_a_disabled_ship_is_captured_and_changes_side(session):
    mule = add(session, "transport", "Ceres Mule", "Mars Patrol", drive=1)
    kite = add(session, "corsair", "Kite", "Pirates")
    session.apply(tp.capture_action(kite, mule))
    assert mule.side == "Pirates" and mule.state["captured_from"] == "Mars Patrol"
    assert "Captured (was Mars Patrol)" in tp.status_chips(mule)
    assert tp.levels(mule)["drive"] == 1                          # it keeps its damage
    assert "Ceres Mule captured by Kite: now on Pirates's side (was Mars Patrol)" in session.log_text()
    again = parse_session_bytes(session_to_bytes(session)).ship(mule.id)
    assert again.side == "Pirates" and again.state["captured_from"] == "Mars Patrol"
    session.undo()
    assert mule.side == "Mars Patrol" and mule.state["captured_from"] is None
    with pytest.raises(RuleViolation, match="already on Pirates's side"):
        session.apply(tp.capture_action(add(session, "frigate", "Raven", "Pirates"),
                                        add(session, "transport", "Own", "Pirates", drive=1)))

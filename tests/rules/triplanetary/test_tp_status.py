"""Every row of the table of the three damage tracks, quoting the seed."""

import dataclasses

import pytest

from shipsheet.model import RuleViolation, get_class, new_ship
from shipsheet.rules.triplanetary import GAME, Status, apply_damage, status, status_chips


def ship(stem, **damage):
    s = new_ship(get_class(f"triplanetary/{stem}"), stem.capitalize())
    if any(damage.values()):
        apply_damage(s, **damage)
    return s


def test_status_has_exactly_the_issues_fields():
    assert [f.name for f in dataclasses.fields(Status)] == [
        "can_fire", "can_drop_ordnance", "can_launch_mines", "can_maneuver", "destroyed",
        "disabled", "weapons_repairable", "drive_repairable", "lost_at_map_edge",
        "weapon", "drive", "structure", "lost"]


def test_undamaged_warship_can_do_everything():
    st = status(ship("frigate"))
    assert st.can_fire and st.can_drop_ordnance and st.can_launch_mines and st.can_maneuver
    assert not (st.destroyed or st.disabled or st.lost_at_map_edge)
    assert (st.weapon, st.drive, st.structure) == (0, 0, 0)


@pytest.mark.parametrize("level", [1, 2, 5, 6, 8])
def test_any_weapon_damage_stops_fire_and_ordnance(level):
    """[seed] "A ship with any weapon damage cannot fire any weapon or drop ordnance." """
    st = status(ship("frigate", weapon=level))
    assert not st.can_fire and not st.can_drop_ordnance and not st.can_launch_mines
    assert st.can_maneuver and not st.disabled
    assert st.weapon == level


@pytest.mark.parametrize("level", [1, 2, 3])
def test_dreadnaught_fires_at_weapons_d1_to_d3(level):
    """[seed] "Exception: A dreadnaught can still fire if its weapon damage status is D1
    through D3." (fire, not drop ordnance)"""
    st = status(ship("dreadnaught", weapon=level))
    assert st.can_fire
    assert not st.can_drop_ordnance and not st.can_launch_mines


@pytest.mark.parametrize("level", [4, 5, 6])
def test_dreadnaught_cannot_fire_at_weapons_d4(level):
    """[seed] the exception covers "D1 through D3" only: from D4 the dreadnaught cannot fire."""
    st = status(ship("dreadnaught", weapon=level))
    assert not st.can_fire and not st.can_drop_ordnance


def test_dreadnaught_at_d3_and_d4_roster_words():
    assert "No ordnance" in status_chips(ship("dreadnaught", weapon=3))
    assert "Can't fire" not in status_chips(ship("dreadnaught", weapon=3))
    assert "Can't fire" in status_chips(ship("dreadnaught", weapon=4))


@pytest.mark.parametrize("level", [1, 3, 6])
def test_packet_weapon_hits_only_stop_mines(level):
    """[seed] "Weapon hits on transports and packets have no effect except to prevent
    their launching mines." The packet (2, armed) still fires and drops ordnance."""
    before = status(ship("packet"))
    after = status(ship("packet", weapon=level))
    assert before.can_launch_mines and not after.can_launch_mines
    assert after.can_fire and after.can_drop_ordnance and after.can_maneuver
    assert "No mines" in status_chips(ship("packet", weapon=level))


def test_transport_weapon_hits_only_stop_mines():
    """Same seed line; the transport is 1D (defensive only), so it never fires at all."""
    before = status(ship("transport"))
    after = status(ship("transport", weapon=2))
    assert before.can_launch_mines and not after.can_launch_mines
    assert not before.can_fire and not after.can_fire
    assert after.can_maneuver and not after.disabled


def test_weapons_d6_repaired_only_at_a_base_and_still_defend():
    """[seed] "A ship whose weapons reach D6 or below can no longer repair them; it must get
    back to a base ... It still defends normally." """
    assert status(ship("frigate", weapon=5)).weapons_repairable
    st = status(ship("frigate", weapon=6))
    assert not st.weapons_repairable and not st.destroyed
    assert "Weapons: base only" in status_chips(ship("frigate", weapon=6))


@pytest.mark.parametrize("level", [1, 4])
def test_any_drive_damage_stops_maneuver(level):
    """[seed] "A ship with any drive damage cannot maneuver." """
    st = status(ship("corsair", drive=level))
    assert not st.can_maneuver and st.can_fire and not st.disabled
    assert st.drive_repairable and not st.lost_at_map_edge


def test_drive_d6_unrepairable_and_lost_at_map_edge():
    """[seed] "A ship whose drive reaches D6 or below may not be repaired; it will be lost
    when it reaches the edge of the map." """
    assert not status(ship("corsair", drive=5)).lost_at_map_edge
    st = status(ship("corsair", drive=6))
    assert st.lost_at_map_edge and not st.drive_repairable and not st.destroyed
    assert "Lost if it reaches the edge" in status_chips(ship("corsair", drive=7))


def test_structure_d6_destroys():
    """[seed] "if structure reaches D6 or below, the ship explodes or falls apart, and is
    lost." """
    assert not status(ship("frigate", structure=5)).destroyed
    st = status(ship("frigate", structure=6))
    assert st.destroyed
    assert not (st.can_fire or st.can_maneuver or st.can_drop_ordnance or st.can_launch_mines)
    assert not st.disabled  # a destroyed ship is not "disabled" (nothing to loot)
    assert status_chips(ship("frigate", structure=6)) == ["Destroyed"]


def test_structure_alone_changes_nothing_else():
    """[seed] "Structure hits have no immediate effect on weapons or drives"."""
    st = status(ship("frigate", structure=5))
    assert st.can_fire and st.can_maneuver and st.can_drop_ordnance


def test_disabled_only_when_it_can_neither_maneuver_nor_fire():
    """[seed] "A ship is considered "disabled" and lootable/capturable only if it can
    neither maneuver nor fire." """
    assert not status(ship("frigate", weapon=1)).disabled
    assert not status(ship("frigate", drive=1)).disabled
    assert status(ship("frigate", weapon=1, drive=1)).disabled
    assert "Disabled" in status_chips(ship("frigate", weapon=1, drive=1))
    # a dreadnaught at weapons D2 still fires: not lootable even with its drive out
    assert not status(ship("dreadnaught", weapon=2, drive=1)).disabled
    assert status(ship("dreadnaught", weapon=4, drive=1)).disabled


@pytest.mark.parametrize("structure", [0, 1, 5])
def test_structure_damage_does_not_change_lootability(structure):
    """[seed] "Structure damage does not make a ship any more or less lootable." """
    extra = {"structure": structure} if structure else {}
    assert status(ship("frigate", weapon=1, drive=1, **extra)).disabled
    assert not status(ship("frigate", weapon=1, **extra)).disabled


def test_defensive_only_ship_never_fires_so_a_stopped_one_is_disabled():
    """[2018] "D": "the ship may never attack or counterattack"; issue: "a D ship that cannot
    maneuver is disabled"."""
    for stem in ("transport", "tanker", "liner"):
        assert not status(ship(stem)).can_fire
        assert not status(ship(stem)).disabled
        assert status(ship(stem, drive=1)).disabled
        assert "Can't fire" not in status_chips(ship(stem))


def test_orbital_base_never_maneuvers():
    """[2018] the orbital base is fixed: it never maneuvers; so it is disabled once it
    cannot fire."""
    st = status(ship("orbital-base"))
    assert not st.can_maneuver and st.can_fire and not st.disabled
    assert "Can't maneuver" not in status_chips(ship("orbital-base"))
    assert status(ship("orbital-base", weapon=1)).disabled
    assert not status(ship("orbital-base", drive=6)).lost_at_map_edge


def test_damage_to_a_destroyed_ship_is_refused():
    wreck = ship("frigate", structure=6)
    before = dict(wreck.state)
    with pytest.raises(RuleViolation, match="destroyed"):
        apply_damage(wreck, weapon=1)
    assert wreck.state == before


@pytest.mark.parametrize("bad", [{"weapon": -1}, {"drive": 1.5}, {"structure": "2"}, {}])
def test_bad_damage_is_refused(bad):
    s = ship("frigate")
    with pytest.raises(RuleViolation):
        apply_damage(s, **bad)
    assert status(s).weapon == 0


def test_game_chips_are_the_module_chips():
    s = ship("frigate", weapon=2, drive=1)
    assert GAME.status_chips(s) == ["Disabled", "Can't fire", "Can't maneuver",
                                    "Weapons D2", "Drive D1"]


def test_house_readings_the_text_leaves_open_are_applied_as_labelled():
    """[seed] "Weapon hits on transports and packets have no effect except to prevent their
    launching mines": a packet at weapons D6 still fires [TRI-H21]. A transport never fires,
    so a drive hit leaves it disabled [TRI-H23]; a base never maneuvers, so a weapon hit
    does [TRI-H22]; a dreadnaught at D2 fires but drops no ordnance [TRI-H24]."""
    packet = status(ship("packet", weapon=6))
    assert packet.can_fire and not packet.can_launch_mines and not packet.weapons_repairable
    assert status(ship("transport", drive=1)).disabled
    assert status(ship("orbital-base", weapon=1)).disabled
    dread = status(ship("dreadnaught", weapon=2))
    assert dread.can_fire and not dread.can_drop_ordnance

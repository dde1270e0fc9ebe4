"""Updating ships to an edited class: damage carried over where it still matches (no Qt).

Issue 9: "'Update ships in this session' is an explicit action that carries each
ship's damage over where boxes still match and reports what could not be matched."
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from shipsheet.model import RuleViolation, Session, get_class, new_ship
from shipsheet.model.library import parse_ship_class
from shipsheet.model.ship import clone
from shipsheet.model.storage import session_from_data, session_to_data
from shipsheet.rules import fedcom
from shipsheet.rules.triplanetary.actions import damage_action, fuel_action
from shipsheet.rules.war_in_space.actions import (commit_energy_action, mark_critical_action,
                                                  mark_system_box_action)
from shipsheet.model.update import carry_over, ships_of_class, update_ships_action


def edited(class_id: str, change) -> object:
    """The library class ``class_id`` after ``change(data)``, under the same id."""
    cls = get_class(class_id)
    data = clone(cls.data)
    change(data)
    return parse_ship_class(data, "edited.toml", class_id)


def reopened(session: Session) -> Session:
    """The session as it reads back from its file (the new state must validate)."""
    return session_from_data(session_to_data(session))


def test_the_module_imports_no_qt():
    code = ("import sys, shipsheet.model.update, shipsheet.rules.fedcom.card_entries, "
            "shipsheet.model.classfiles, shipsheet.rules.fedcom.chart_files; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')]; "
            "assert not bad, bad")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


# -- War In Space: systems by name, critical suits ---------------------------------------------

def test_war_in_space_systems_match_by_name_and_criticals_carry_over():
    """The cruiser: Reactor d10 with 4 boxes, Drive d8 3, Fire Control d8 3 (cruiser.toml)."""
    session = Session("war-in-space", seed=1)
    ship = session.add_ship(new_ship(get_class("war-in-space/cruiser"), "Vigilant"))
    for system in ("Reactor", "Reactor", "Reactor", "Drive", "Fire Control"):
        session.apply(mark_system_box_action(ship, system))
    session.apply(mark_critical_action(ship, "diamonds"))

    def change(data):
        # Reactor down to d6 (2 boxes), Drive renamed Engines, Fire Control reordered first.
        data["systems"] = [{"name": "Fire Control", "die": "d8", "boxes": 3},
                           {"name": "Reactor", "die": "d6", "boxes": 2},
                           {"name": "Engines", "die": "d8", "boxes": 3}]
    new_class = edited("war-in-space/cruiser", change)
    up = carry_over(ship, new_class)
    assert up.state["marks"] == [1, 2, 0]  # Fire Control 1, Reactor 3 -> 2 (its 2 boxes), Engines 0
    assert up.state["criticals"]["diamonds"] is True
    assert "critical hits ♦" in up.kept
    assert up.unmatched == [
        'Reactor: 3 marked boxes, the new class has 2 boxes; 1 mark dropped',
        'system "Drive" (1 marked box) is not on the new class']
    assert ship.state["marks"] == [3, 1, 1]  # carry_over changes nothing by itself


def test_war_in_space_energy_stays_only_while_the_systems_are_the_same():
    session = Session("war-in-space", seed=1)
    ship = session.add_ship(new_ship(get_class("war-in-space/cruiser"), "Vigilant"))
    # Seed worked example: the 4♦ with Damage Control; dice 5, 3, 2.
    session.apply(commit_energy_action(ship, "4D", [5, 3, 2], damage_control=True))
    same = edited("war-in-space/cruiser", lambda d: d.update(size="Heavy Cruiser"))
    kept = carry_over(ship, same)
    assert kept.state["energy"]["card"] == "4D" and "this turn's energy" in kept.kept
    renamed = edited("war-in-space/cruiser",
                     lambda d: d["systems"][1].update(name="Engines"))
    cleared = carry_over(ship, renamed)
    assert cleared.state["energy"] is None
    assert any("energy allocation" in line for line in cleared.unmatched)


# -- Triplanetary: tracks as they are, fuel and cargo up to the new capacity -------------------

def test_triplanetary_tracks_kept_fuel_capped_at_the_new_tanks():
    """Frigate: combat 8, fuel 20, cargo 40 (frigate.toml)."""
    session = Session("triplanetary", seed=1)
    ship = session.add_ship(new_ship(get_class("triplanetary/frigate"), "Nike"))
    session.apply(damage_action(ship, weapon=1, drive=2))
    session.apply(fuel_action(ship, 18))
    new_class = edited("triplanetary/frigate", lambda d: d.update(fuel=15, cargo=10))
    up = carry_over(ship, new_class)
    assert (up.state["weapon"], up.state["drive"], up.state["structure"]) == (1, 2, 0)
    assert up.state["fuel"] == 15
    assert "fuel 18 is more than the new capacity 15: 3 lost" in up.unmatched
    assert "Weapons D1, Drive D2" in up.kept


def test_triplanetary_unlimited_fuel_becomes_full_tanks():
    """Torch: fuel unlimited (torch.toml); as a limited design it starts with full tanks."""
    ship = new_ship(get_class("triplanetary/torch"), "Torch 1")
    up = carry_over(ship, edited("triplanetary/torch", lambda d: d.update(fuel=30)))
    assert up.state["fuel"] == 30
    assert up.unmatched == ["fuel was unlimited; the new class holds 30: tanks full"]


# -- Federation Commander: boxes by id ----------------------------------------------------------

def fedcom_session():
    session = Session("fedcom", seed=4)
    ship = session.add_ship(new_ship(get_class("fedcom/sample-heavy-cruiser"), "Excalibur"))
    for box in ("ph-1", "ph-9", "lab-2", "photon-1"):
        session.apply(fedcom.mark_box_action(ship, box))
    session.apply(fedcom.mark_shield_action(ship, 1, 28))
    session.apply(fedcom.mark_frame_action(ship, 2))
    session.apply(fedcom.set_turn_state_action(ship, "ph-2", "fired"))
    session.apply(fedcom.set_drones_action(ship, "drone-1", 1))
    return session, ship


def drop_ph9_and_shrink_shield_1(data):
    data["boxes"] = [b for b in data["boxes"] if b["id"] != "ph-9"]
    data["shields"] = [24, 24, 24, 20, 24, 24]


def test_fedcom_boxes_match_by_id_and_the_rest_is_reported():
    """Heavy cruiser: shield #1 has 30 boxes, frame 6 (sample-heavy-cruiser.toml)."""
    session, ship = fedcom_session()
    new_class = edited("fedcom/sample-heavy-cruiser", drop_ph9_and_shrink_shield_1)
    up = carry_over(ship, new_class)
    assert up.state["destroyed"] == ["ph-1", "lab-2", "photon-1"]
    assert up.state["turn"] == {"ph-2": "fired"}
    assert up.state["drones"]["drone-1"] == 1
    assert up.state["frame_hits"] == 2
    assert up.state["shield_damage"] == [24, 0, 0, 0, 0, 0]
    assert up.unmatched == [
        "destroyed ph-9: no box with that id on the new card",
        "shield #1: 28 boxes down; the new shield has 24"]


def test_the_update_is_one_undo_step_and_reopens_from_file():
    session, ship = fedcom_session()
    old_class = ship.ship_class
    new_class = edited("fedcom/sample-heavy-cruiser", drop_ph9_and_shrink_shield_1)
    steps = len(session._undo)
    action = update_ships_action([ship.id], new_class)
    session.apply(action)
    assert len(session._undo) == steps + 1
    assert session.undo_status().undo == "Update 1 ship to Sample Heavy Cruiser"
    now = session.ship(ship.id)
    assert now.ship_class is new_class and now.name == "Excalibur"
    assert now.state["destroyed"] == ["ph-1", "lab-2", "photon-1"]
    assert [r.unmatched for r in action.reports][0][0].startswith("destroyed ph-9")
    log = session.log_text()
    assert "Excalibur: not matched: destroyed ph-9: no box with that id on the new card" in log
    again = reopened(session)
    assert again.ship(ship.id).state["destroyed"] == ["ph-1", "lab-2", "photon-1"]
    session.undo()
    back = session.ship(ship.id)
    assert back.ship_class is old_class
    assert back.state["destroyed"] == ["ph-1", "ph-9", "lab-2", "photon-1"]
    session.redo()
    assert session.ship(ship.id).ship_class is new_class


def test_ships_of_class_and_refusals():
    session, ship = fedcom_session()
    other = session.add_ship(new_ship(get_class("fedcom/sample-frigate"), "Kestrel"))
    assert ships_of_class(session, {"fedcom/sample-heavy-cruiser"}) == [ship]
    wis = get_class("war-in-space/cruiser")
    with pytest.raises(RuleViolation, match="a fedcom ship; Vigilant-class Cruiser is a war-in-space"):
        carry_over(other, wis)
    before = session_to_data(session)
    with pytest.raises(RuleViolation):
        session.apply(update_ships_action([ship.id], wis))
    assert session_to_data(session) == before

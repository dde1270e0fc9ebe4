"""Crippled, destroyed, frame left, and the repair phase [FC]."""

import pytest

from fc_helpers import box, heavy, make_ship, phaser, uniform_chart
from shipsheet.model import RuleViolation
from shipsheet.rules.fedcom import (apply_repair, apply_volley, allocate_volley, end_turn,
                                    mark_box, mark_shield, plan_repair, repair_cost, status,
                                    status_chips)

# 6 boxes + frame 2 = 8 non-shield boxes: crippled at 4 destroyed.
SMALL = [box("bridge-1", "bridge"), box("lab-1", "lab"), box("lab-2", "lab"),
         box("h1", "forward-hull"), box("h2", "forward-hull"), box("cargo-1", "cargo")]


def test_crippled_at_half_of_the_non_shield_boxes():
    """[FC]: "Crippled: internal damage to at least half of all non-shield boxes."
    ([house] the frame counts among them.)"""
    ship = make_ship(SMALL, frame=2)
    for b in ("lab-1", "lab-2"):
        mark_box(ship, b)
    ship.state["frame_hits"] = 1
    assert not status(ship).crippled and status(ship).boxes_destroyed == 3
    mark_box(ship, "h1")
    s = status(ship)
    assert s.crippled and (s.boxes_destroyed, s.boxes_total) == (4, 8)
    assert status_chips(ship)[:2] == ["Crippled", "Frame 1/2"]


def test_destroyed_by_a_frame_hit_with_no_frame_left():
    """[FC]: "Destroyed: a frame hit when every frame box is already destroyed." """
    ship = make_ship(SMALL, frame=1)
    result = allocate_volley(ship, 10, rolls=[1, 1], chart=uniform_chart("probe", last="probe/frame"))
    apply_volley(ship, result)
    assert status(ship).frame_left == 0 and not status(ship).destroyed
    assert status_chips(ship) == ["Frame 0/1"]
    result = allocate_volley(ship, 10, rolls=[1, 1], chart=uniform_chart("probe", last="probe/frame"))
    apply_volley(ship, result)
    assert status(ship).destroyed and status_chips(ship) == ["Destroyed"]


def test_shield_down_chip():
    ship = make_ship(SMALL, shields=(10, 10, 10, 10, 10, 10))
    ship.state["shield_damage"][3] = 10
    assert status_chips(ship) == ["Shield #4 down"]


@pytest.mark.parametrize("kind, cost", [
    ("phaser", 4), ("torpedo", 4), ("drone", 4),                               # weapons 4
    ("left-warp", 3), ("right-warp", 3), ("impulse", 3), ("reactor", 3), ("battery", 3),
    ("lab", 2), ("transporter", 2), ("tractor", 2), ("shuttle", 2), ("probe", 2),  # systems 2
    ("bridge", 2),                                                              # control 2
    ("forward-hull", 1), ("aft-hull", 1), ("cargo", 1),                         # hull/cargo 1
])
def test_repair_costs(kind, cost):
    """[FC]: "a box costs weapons 4, power (warp, impulse, reactor, battery) 3, ship
    systems 2, control 2, hull and cargo 1"."""
    extra = {"phaser": {"type": "Ph-1", "arc": "FA"}, "torpedo": {"type": "photon", "arc": "FA"},
             "drone": {"drones": 4}}.get(kind, {})
    ship = make_ship([box("x", kind, **extra)], damage_control=4)
    assert repair_cost(ship.ship_class.spec, "x") == cost
    mark_box(ship, "x")
    plan = plan_repair(ship, ["x"])
    assert plan.repaired == ["x"] and plan.used == cost


def test_repair_points_equal_the_damage_control_rating_and_are_spent_in_order():
    """[FC]: "repair points equal to the damage control rating, not reduced by damage"."""
    ship = make_ship(SMALL + [phaser("ph-1", "Ph-1")], damage_control=4)
    for b in ("lab-1", "h1", "h2", "bridge-1", "ph-1"):
        mark_box(ship, b)
    plan = plan_repair(ship, ["lab-1", "h1", "h2", "bridge-1"])  # 2 + 1 + 1 = 4, then none
    assert plan.repaired == ["lab-1", "h1", "h2"] and plan.used == 4
    assert plan.steps[3].line == "bridge-1 not reached: no repair points left"
    apply_repair(ship, plan)
    assert sorted(ship.state["destroyed"]) == ["bridge-1", "ph-1"]
    with pytest.raises(RuleViolation):   # the plan is stale now
        apply_repair(ship, plan)
    assert plan_repair(ship, ["bridge-1"]).available == 0


def test_points_carry_only_toward_the_box_under_repair():
    """[FC]: "points carry across turns only toward finishing the box under repair;
    other unused points are lost." A Ph-1 (4) with a rating of 3: 3 now, 1 next turn."""
    ship = make_ship(SMALL + [phaser("ph-1", "Ph-1"), heavy("photon-1", "photon")],
                     damage_control=3)
    for b in ("ph-1", "photon-1", "h1"):
        mark_box(ship, b)
    lines = apply_repair(ship, ["ph-1"])
    assert lines[0] == "ph-1 under repair: 3 of 4 points (carried to the next turn)"
    assert ship.state["repair"] == {"box": "ph-1", "points": 3}
    end_turn(ship)
    plan = plan_repair(ship, ["ph-1", "h1"])
    assert [s.paid for s in plan.steps] == [1, 1] and plan.repaired == ["ph-1", "h1"]
    assert plan.steps[0].line == "ph-1 repaired (1 of 4 points, 3 carried)"
    apply_repair(ship, plan)
    assert ship.state["repair"] is None
    assert ship.state["destroyed"] == ["photon-1"]


def test_unused_points_are_lost_at_end_of_turn():
    ship = make_ship(SMALL, damage_control=4)
    mark_box(ship, "h1")
    apply_repair(ship, ["h1"])                          # 1 of 4 used
    mark_box(ship, "lab-1")
    assert plan_repair(ship, ["lab-1"]).available == 3  # same turn: 3 left
    end_turn(ship)
    assert plan_repair(ship, ["lab-1"]).available == 4  # next turn: the full rating


def test_starting_another_box_drops_the_carried_points():
    """[house] one box is under repair at a time."""
    ship = make_ship(SMALL + [phaser("ph-1", "Ph-1"), heavy("photon-1", "photon")],
                     damage_control=2)
    mark_box(ship, "ph-1")
    mark_box(ship, "photon-1")
    apply_repair(ship, ["ph-1"])
    end_turn(ship)
    plan = plan_repair(ship, ["photon-1"])
    assert plan.under_repair == {"box": "photon-1", "points": 2}
    assert plan.notes == ("ph-1: its 2 carried repair points are lost (another box is now "
                          "under repair)",)


def test_repair_refusals():
    ship = make_ship(SMALL)
    with pytest.raises(RuleViolation, match="not destroyed"):
        plan_repair(ship, ["lab-1"])
    with pytest.raises(RuleViolation, match="no box"):
        plan_repair(ship, ["zz"])
    with pytest.raises(RuleViolation, match="Frame"):
        plan_repair(ship, ["frame"])
    mark_box(ship, "lab-1")
    with pytest.raises(RuleViolation, match="twice"):
        plan_repair(ship, ["lab-1", "lab-1"])


def test_shields_regenerate_by_hand_at_2_energy_per_box():
    """[FC]: "Shields regenerate at 2 energy per box (entered by hand)." """
    ship = make_ship(SMALL)
    mark_shield(ship, 1, 5)
    line = mark_shield(ship, 1, 2)
    assert ship.state["shield_damage"] == [2, 0, 0, 0, 0, 0]
    assert line == "shield #1: 15 → 18 of 20 left (regenerated 3 boxes, 6 energy)"

"""The DDAP's order of precedence [seed 8FC4], one test per line of the table."""

import random

import pytest

from fc_helpers import box, heavy, make_class, make_ship, phaser
from shipsheet.model import RuleViolation, ShipDefinitionError
from shipsheet.rules.fedcom import (Overrides, boxes_used_this_turn, explain_order, hit_order,
                                    set_drones, set_occupant, set_turn_state, turn_state,
                                    turn_states)


def test_phasers_follow_the_8fc4_line():
    """8FC4: "PHASERS : Fired Ph-3, unfired Ph-3, Fired Ph-2, unfired Ph-2, Fired Ph-G,
    unfired Ph-G, Fired Ph-1, unfired Ph-1, Fired Ph-4, unfired Ph-4." """
    # Card order deliberately the reverse of the hit order; all arcs equal.
    types = ["Ph-4", "Ph-1", "Ph-G", "Ph-2", "Ph-3"]
    boxes = []
    for t in types:
        boxes.append(phaser(f"{t}-unfired", t))
        boxes.append(phaser(f"{t}-fired", t))
    ship = make_ship(boxes)
    for t in types:
        set_turn_state(ship, f"{t}-fired", "fired")
    assert hit_order(ship, "phaser") == [
        "Ph-3-fired", "Ph-3-unfired", "Ph-2-fired", "Ph-2-unfired", "Ph-G-fired",
        "Ph-G-unfired", "Ph-1-fired", "Ph-1-unfired", "Ph-4-fired", "Ph-4-unfired"]


def test_heavy_weapons_smallest_fired_then_charging_then_unfired():
    """8FC4: "HEAVY WEAPONS : Smallest Fired, smallest charging, smallest unfired." """
    ship = make_ship([heavy("u1", "photon", 1), heavy("c2", "photon", 2),
                      heavy("f2", "photon", 2), heavy("c1", "photon", 1),
                      heavy("f1", "photon", 1), heavy("u2", "photon", 2)])
    for b in ("f1", "f2"):
        set_turn_state(ship, b, "fired")
    for b in ("c1", "c2"):
        set_turn_state(ship, b, "charging")
    assert hit_order(ship, "torpedo") == ["f1", "f2", "c1", "c2", "u1", "u2"]


def test_several_heavy_types_follow_the_owners_order_first():
    """8FC4: "In the case of multiple types of weapons on one ship, the owner will need to
    specify which will be hit first." That the type order ranks before the fired/charging/
    unfired state is our reading, and every place it decides says so (house rule FC-H13)."""
    boxes = [heavy("photon-1", "photon"), heavy("disruptor-1", "disruptor"),
             heavy("photon-2", "photon", 2)]
    ship = make_ship(boxes, heavy_weapon_order=["disruptor", "photon"])
    set_turn_state(ship, "photon-1", "fired")
    assert hit_order(ship, "torpedo") == ["disruptor-1", "photon-1", "photon-2"]
    reasons = [why for _box, why in explain_order(ship, "torpedo")[0]]
    assert all("house rule FC-H13" in why for why in reasons)
    ship2 = make_ship(boxes, heavy_weapon_order=["photon", "disruptor"])
    assert hit_order(ship2, "torpedo") == ["photon-1", "photon-2", "disruptor-1"]


def test_several_heavy_types_without_an_order_are_refused():
    """8FC4: "the owner will need to specify which will be hit first" -> refused at load,
    naming heavy_weapon_order."""
    with pytest.raises(ShipDefinitionError, match=r"^test\.toml: heavy_weapon_order: "):
        make_class([heavy("photon-1", "photon"), heavy("disruptor-1", "disruptor")])


def test_drone_racks_launched_first_then_fewest_drones():
    """8FC4: "DRONE RACKS : Hit ones that have Fired/Launched on the current turn prior to
    ones that have not, and within each category, the one with the least spaces of
    available drones." """
    ship = make_ship([box("a", "drone", drones=4), box("b", "drone", drones=4),
                      box("c", "drone", drones=6), box("d", "drone", drones=6)])
    set_drones(ship, "a", 1)   # not launched, 1 left
    set_drones(ship, "c", 3)   # launched, 3 left
    set_turn_state(ship, "c", "launched")
    set_turn_state(ship, "d", "fired")   # "Fired/Launched": fired counts as launched
    # launched: c (3 left) before d (6 left); not launched: a (1) before b (4)
    assert hit_order(ship, "drone") == ["c", "d", "a", "b"]


def test_shuttle_bays_unoccupied_then_admin_then_suicide():
    """8FC4: "SHUTTLE BAYS : Unoccupied, occupied with admin shuttle, occupied with suicide
    shuttle." """
    ship = make_ship([box("s1", "shuttle", occupant="suicide"),
                      box("s2", "shuttle", occupant="admin"), box("s3", "shuttle")])
    assert hit_order(ship, "shuttle") == ["s3", "s2", "s1"]
    set_occupant(ship, "s1", "empty")   # the suicide shuttle launched
    assert hit_order(ship, "shuttle") == ["s1", "s3", "s2"]


def test_tractors_used_and_dropped_then_unused_then_holding():
    """8FC4: "TRACTOR BEAMS : Used and dropped this turn, unused, in use holding object." """
    ship = make_ship([box("t1", "tractor", state="holding"), box("t2", "tractor"),
                      box("t3", "tractor")])
    set_turn_state(ship, "t3", "used-dropped")
    assert hit_order(ship, "tractor") == ["t3", "t2", "t1"]


def test_other_systems_used_this_turn_first():
    """8FC4: "OTHER SYSTEMS : Used this turn, not used this turn." """
    ship = make_ship([box("tr1", "transporter"), box("tr2", "transporter"),
                      box("tr3", "transporter")])
    set_turn_state(ship, "tr3", "used")
    assert hit_order(ship, "transporter")[0] == "tr3"
    assert sorted(hit_order(ship, "transporter")[1:]) == ["tr1", "tr2"]


def test_most_restricted_arc_first_among_equals():
    """8FC4: "UNDETERMINABLE : ... hit the one with the most restricted arc first." Arc
    widths [house]: 360 is 360°, FX 240°, FA 120°, LF 60°, LF+L 120°."""
    ship = make_ship([phaser("wide", "Ph-1", "360"), phaser("fx", "Ph-1", "FX"),
                      phaser("fa", "Ph-1", "FA"), phaser("lf", "Ph-1", "LF"),
                      {"id": "deg", "kind": "phaser", "type": "Ph-1", "arc_degrees": 200}])
    assert hit_order(ship, "phaser") == ["lf", "fa", "deg", "fx", "wide"]
    order, _notes = explain_order(ship, "phaser")
    assert "most restricted arc" in order[0][1]


def test_the_arc_breaks_ties_only_within_a_category():
    """The arc decides only among boxes the 8FC4 line leaves equal: a fired 360° Ph-1 is
    still hit before an unfired FA Ph-1."""
    ship = make_ship([phaser("fa", "Ph-1", "FA"), phaser("wide", "Ph-1", "360")])
    set_turn_state(ship, "wide", "fired")
    assert hit_order(ship, "phaser") == ["wide", "fa"]


def test_equal_arcs_are_broken_randomly_and_reproducibly():
    """8FC4: "If both arcs are equal, determine randomly." Same seed, same result;
    without dice the tie falls in card order."""
    boxes = [phaser(f"ph-{n}", "Ph-1", "FA") for n in range(1, 7)]
    ship = make_ship(boxes)
    assert hit_order(ship, "phaser") == [f"ph-{n}" for n in range(1, 7)]
    orders = {tuple(hit_order(ship, "phaser", rng=random.Random(seed))) for seed in range(12)}
    assert len(orders) > 1                      # the dice do decide
    for seed in range(5):
        assert (hit_order(ship, "phaser", rng=random.Random(seed))
                == hit_order(ship, "phaser", rng=random.Random(seed)))
    first, notes = explain_order(ship, "phaser", rng=random.Random(3))
    assert "random tie-break among ph-1, ph-2, ph-3, ph-4, ph-5, ph-6" in first[0][1]
    assert notes == []


def test_random_tie_break_uses_the_session_dice_and_logs_the_roll():
    """8FC4 ties at random, "from the session's seeded dice, logged" (spec)."""
    from shipsheet.model import Dice
    ship = make_ship([phaser("a", "Ph-3", "FA"), phaser("b", "Ph-3", "FA")])
    rolls = []
    dice = Dice(42)
    dice.on_roll = lambda sides, value, reason, typed: rolls.append((sides, value, reason))
    order = hit_order(ship, "phaser", rng=dice)
    assert rolls and rolls[0][0] == 2 and "random tie-break among a, b" in rolls[0][2]
    assert order[0] == ["a", "b"][rolls[0][1] - 1]
    assert hit_order(ship, "phaser", rng=Dice(42)) == order


def test_equal_non_weapon_boxes_are_taken_in_card_order_without_a_roll():
    """[house] from 8FC1 ("that choice can affect the battle") and 8FC4 ("two or more
    weapons"): interchangeable hull boxes need no roll."""
    ship = make_ship([box("h1", "forward-hull"), box("h2", "forward-hull")])
    rng = random.Random(0)
    state = rng.getstate()
    assert hit_order(ship, "forward-hull", rng=rng) == ["h1", "h2"]
    assert rng.getstate() == state


def test_destroyed_boxes_are_not_in_the_order():
    ship = make_ship([phaser("a", "Ph-1"), phaser("b", "Ph-3")])
    ship.state["destroyed"].append("b")
    assert hit_order(ship, "phaser") == ["a"]
    assert hit_order(ship, "lab") == []


def test_turn_states_are_checked_per_kind():
    """Spec "Turn state": weapons fired/charging/unfired, drone racks launched, other
    systems used; tractors used-dropped/unused/holding."""
    ship = make_ship([phaser("p", "Ph-1"), heavy("t", "photon"), box("l", "lab"),
                      box("tr", "tractor")])
    with pytest.raises(RuleViolation, match="phaser"):
        set_turn_state(ship, "p", "charging")
    with pytest.raises(RuleViolation, match="lab"):
        set_turn_state(ship, "l", "fired")
    with pytest.raises(RuleViolation, match="tractor"):
        set_turn_state(ship, "tr", "used")
    with pytest.raises(RuleViolation, match='no box "zz"'):
        set_turn_state(ship, "zz", "used")
    set_turn_state(ship, "t", "charging")
    set_turn_state(ship, "l", "used")
    assert ship.state["turn"] == {"t": "charging", "l": "used"}
    # The card's boxes used this turn, read at once (the card draws its rows so), say what
    # each box says.
    used = boxes_used_this_turn(ship)
    assert [b in used for b in ("p", "t", "l", "tr")] == [
        turn_state(ship, b) != turn_states(ship.ship_class.spec.box(b).kind)[0]
        for b in ("p", "t", "l", "tr")] == [False, True, True, False]


def test_overrides_do_not_change_the_default_when_empty():
    ship = make_ship([phaser("a", "Ph-1"), phaser("b", "Ph-3")])
    assert hit_order(ship, "phaser", overrides=Overrides()) == ["b", "a"]

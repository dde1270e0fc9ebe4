"""Standing orders (SOP) [seed 8FC3]: each override, and each order not applied and why."""

import pytest

from fc_helpers import box, heavy, make_ship, phaser, uniform_chart
from shipsheet.model import RuleViolation
from shipsheet.rules.fedcom import (Overrides, allocate_volley, copy_orders_forward, end_turn,
                                    explain_order, hit_order, set_orders, standing_orders)

PHASERS = [phaser("ph-1", "Ph-1", "FA"), phaser("ph-2", "Ph-1", "FA"),
           phaser("ph-3", "Ph-1", "FA"), phaser("ph-5", "Ph-3", "360")]


def test_last_puts_the_named_box_last():
    """8FC3's example: "you want the 360º Ph-3 (#5) to be the LAST phaser damaged"."""
    ship = make_ship(PHASERS)
    assert hit_order(ship, "phaser")[0] == "ph-5"          # DDAP: Ph-3 first
    order = hit_order(ship, "phaser", overrides=Overrides(last=["ph-5"]))
    assert order == ["ph-1", "ph-2", "ph-3", "ph-5"]


def test_last_and_first_keep_the_listed_order():
    """Issue 6: "the first of first is hit first, the last of last is hit last"."""
    ship = make_ship(PHASERS)
    o = Overrides(first=["ph-3", "ph-2"], last=["ph-5", "ph-1"])
    assert hit_order(ship, "phaser", overrides=o) == ["ph-3", "ph-2", "ph-5", "ph-1"]
    reasons = [r for _, r in explain_order(ship, "phaser", overrides=o)[0]]
    assert reasons[0] == "standing order: 1st phaser to hit"
    assert reasons[-1].startswith("standing order: hit last among phaser")


def test_an_order_per_kind_comes_first_then_the_ddap():
    """Issue 6: "boxes it names come first in that order, the rest follow by the DDAP"."""
    ship = make_ship(PHASERS)
    o = Overrides(order={"phaser": ["ph-2", "ph-1"]})
    assert hit_order(ship, "phaser", overrides=o) == ["ph-2", "ph-1", "ph-5", "ph-3"]


def test_frame_instead_of_the_last_box():
    """8FC3: "a player may wish to take frame damage instead of the last shuttle box." """
    ship = make_ship([box("s1", "shuttle"), box("s2", "shuttle")], frame=3)
    o = Overrides(frame_instead_of_last=["shuttle"])
    result = allocate_volley(ship, 3, rolls=[1], overrides=o, chart=uniform_chart("shuttle"))
    assert [(p.outcome, p.box) for p in result.points] == [
        ("hit", "s1"), ("frame", "frame"), ("frame", "frame")]
    assert "frame instead of the last shuttle (standing order)" in result.points[1].reason
    assert result.hits == ["s1"] and result.frame_hits == 2


def test_frame_instead_of_skipping():
    """8FC2: "...or instead of skipping a damage point": frame at once, not re-allocated."""
    ship = make_ship([box("b", "bridge")], frame=3)
    result = allocate_volley(ship, 2, rolls=[1], chart=uniform_chart("lab"),
                             overrides=Overrides(frame_instead_of_skip=True))
    assert [(p.attempt, p.outcome) for p in result.points] == [(1, "frame"), (1, "frame")]
    assert result.rolls == [1]


def test_heavy_weapon_order_override():
    ship = make_ship([heavy("photon-1", "photon"), heavy("disruptor-1", "disruptor")],
                     heavy_weapon_order=["photon", "disruptor"])
    o = Overrides(heavy_weapon_order=["disruptor", "photon"])
    assert hit_order(ship, "torpedo", overrides=o) == ["disruptor-1", "photon-1"]
    reasons = [r for _, r in explain_order(ship, "torpedo", overrides=o)[0]]
    assert "standing order" in reasons[0]


def test_standing_orders_are_used_when_none_are_given():
    ship = make_ship(PHASERS)
    set_orders(ship, Overrides(last=["ph-5"]))
    assert standing_orders(ship) == Overrides(last=("ph-5",))
    assert hit_order(ship, "phaser")[-1] == "ph-5"
    assert hit_order(ship, "phaser", overrides=Overrides())[0] == "ph-5"


def test_orders_lapse_at_end_of_turn_unless_copied():
    """8FC3: "The info would have to be in each and every SOP that you want it to apply,
    otherwise the DDAP will be used." """
    ship = make_ship(PHASERS)
    set_orders(ship, {"last": ["ph-5"]})
    end_turn(ship)
    assert ship.state["orders"] == {} and hit_order(ship, "phaser")[0] == "ph-5"
    set_orders(ship, {"last": ["ph-5"]})
    copy_orders_forward(ship)
    assert end_turn(ship) == ["standing orders copied to the new turn"]
    assert hit_order(ship, "phaser")[-1] == "ph-5"
    end_turn(ship)                       # not copied again: lapses
    assert ship.state["orders"] == {}
    with pytest.raises(RuleViolation, match="no standing orders"):
        copy_orders_forward(ship)


# -- orders not applied [seed 8FC4]: "If an order is vague or illegal, the moderator will
#    fall back upon the default order of damage" -----------------------------------------------

@pytest.mark.parametrize("orders, message", [
    (Overrides(last=["ph-9"]), 'last: "ph-9" not applied: this ship has no such box.'),
    (Overrides(first=["lab-7"]), 'first: "lab-7" not applied: this ship has no such box.'),
    (Overrides(order={"phaser": ["lab-1"]}),
     'order[phaser]: "lab-1" not applied: it is a lab box, not phaser.'),
    (Overrides(order={"drone": ["ph-1"]}), "order[drone] not applied: this ship has no drone boxes."),
    (Overrides(first=["ph-1"], last=["ph-1"]),
     'Order for "ph-1" not applied: it is named in first and last, which is vague; '
     'the DDAP order is used.'),
    (Overrides(last=["ph-2", "ph-2"]), 'last: "ph-2" is listed twice; only its first place is used.'),
    (Overrides(frame_instead_of_last=["shuttle"]),
     'frame_instead_of_last: "shuttle" not applied: this ship has no shuttle boxes.'),
    (Overrides(frame_instead_of_last=["frame"]),
     'frame_instead_of_last: "frame" not applied: frame is not a system whose last box can '
     'be spared.'),
    (Overrides(heavy_weapon_order=["plasma-F", "photon"]),
     "heavy_weapon_order not applied: plasma-F is not a heavy-weapon type of this ship "
     "(its types: photon, disruptor); the card's order photon, disruptor is used."),
    (Overrides(heavy_weapon_order=["disruptor"]),
     "heavy_weapon_order not applied: it must rank every heavy-weapon type; photon missing; "
     "the card's order is used."),
    (Overrides(heavy_weapon_order=["disruptor", "disruptor"]),
     "heavy_weapon_order not applied: a type is listed twice (disruptor, disruptor); the "
     "card's order is used."),
])
def test_each_ignored_order_is_noted_and_the_default_used(orders, message):
    ship = make_ship(PHASERS + [box("lab-1", "lab"), heavy("photon-1", "photon"),
                                heavy("disruptor-1", "disruptor")],
                     heavy_weapon_order=["photon", "disruptor"])
    result = allocate_volley(ship, 1, rolls=[1], overrides=orders, chart=uniform_chart("phaser"))
    assert message in result.notes
    assert any(line == f"Note: {message}" for line in result.lines())
    # the default order where the order was not applied
    assert hit_order(ship, "torpedo", overrides=orders) == ["photon-1", "disruptor-1"]


def test_an_order_naming_a_destroyed_box_is_noted():
    ship = make_ship(PHASERS)
    ship.state["destroyed"].append("ph-5")
    result = allocate_volley(ship, 1, rolls=[1], overrides=Overrides(last=["ph-5"]),
                             chart=uniform_chart("phaser"))
    assert 'last: "ph-5" not applied: that box is already destroyed.' in result.notes


def test_heavy_order_on_a_ship_without_heavy_weapons_is_noted():
    ship = make_ship(PHASERS)
    result = allocate_volley(ship, 1, rolls=[1], chart=uniform_chart("phaser"),
                             overrides=Overrides(heavy_weapon_order=["photon"]))
    assert result.notes == ["heavy_weapon_order not applied: this ship has no heavy weapons."]


def test_frame_orders_are_not_applied_when_no_frame_is_left():
    """[house] Taking frame with no frame left would destroy the ship: not applied, noted."""
    ship = make_ship([box("lab-1", "lab")], frame=2)
    ship.state["frame_hits"] = 2
    o = Overrides(frame_instead_of_last=["lab"], frame_instead_of_skip=True)
    result = allocate_volley(ship, 2, rolls=[1, 1], overrides=o, chart=uniform_chart("lab"))
    assert [p.outcome for p in result.points] == ["hit", "skipped", "lost"]
    assert result.notes == [
        'frame_instead_of_last: "lab" not applied to the last lab: no frame box is left, so '
        'frame damage would destroy the ship.',
        "frame_instead_of_skip not applied: no frame box is left, so frame damage would "
        "destroy the ship."]


def test_malformed_orders_are_refused_when_given():
    with pytest.raises(RuleViolation, match="box ids"):
        Overrides(first=[1, 2])
    with pytest.raises(RuleViolation, match="kind"):
        Overrides(order=["ph-1"])
    with pytest.raises(RuleViolation, match="true or false"):
        Overrides(frame_instead_of_skip="yes")


def test_orders_round_trip_as_plain_data():
    o = Overrides(first=["a"], last=["b", "c"], order={"lab": ["l1"]},
                  frame_instead_of_last=["shuttle"], frame_instead_of_skip=True,
                  heavy_weapon_order=["photon"])
    assert Overrides.from_json(o.to_json()) == o
    assert Overrides.from_json({}) == Overrides() and not Overrides()


def test_the_orders_editor_edits_through_overrides_methods():
    """The editor asks the rules for each edit: place, take away, move, frame, heavy order."""
    o = Overrides(first=("ph-1",), last=("ph-2", "ph-3"))
    assert o.placed(["ph-3"], "first", 0) == Overrides(first=("ph-3", "ph-1"), last=("ph-2",))
    assert o.placed(["ph-1"], "last") == Overrides(last=("ph-2", "ph-3", "ph-1"))
    assert o.without(["ph-2"]) == Overrides(first=("ph-1",), last=("ph-3",))
    assert o.moved(["ph-3"], "last", -1) == Overrides(first=("ph-1",), last=("ph-3", "ph-2"))
    assert o.moved(["ph-2"], "last", -1) is None  # already at the top
    assert o.with_frame_instead_of_last("lab", True).frame_instead_of_last == ("lab",)
    assert o.with_frame_instead_of_last("lab", True).with_frame_instead_of_last("lab", False) == o
    assert o.heavy_type_moved(["photon", "disruptor"], 1, -1).heavy_weapon_order == ("disruptor", "photon")
    with pytest.raises(RuleViolation, match='"first" or "last"'):
        o.placed(["ph-1"], "middle")

"""Allocating a volley: shields and burn-through [FC], the chart, 8FC2's frame rules,
skipped points [FC]/[house], rolls and dice."""

import random

import pytest

from fc_helpers import box, chart, heavy, make_ship, phaser, uniform_chart
from shipsheet.model import RuleViolation
from shipsheet.model.ship import clone
from shipsheet.rules.fedcom import allocate_volley, apply_volley, set_turn_state, status

LABS = [box("lab-1", "lab"), box("lab-2", "lab")]


def outcomes(result):
    return [(p.point, p.outcome, p.box) for p in result.points]


# -- 8FC2: frame ---------------------------------------------------------------------

def test_the_last_lab_is_hit_not_the_frame():
    """8FC2: "It will not be used in place of the last box of a given system (i.e., the
    last lab will be hit instead of frame damage)"."""
    ship = make_ship([box("lab-1", "lab")], frame=3)
    result = allocate_volley(ship, 10, rolls=[1, 1], chart=uniform_chart("lab", last="lab/frame"))
    assert result.points[0].box == "lab-1" and result.points[0].outcome == "hit"
    assert "the last lab" in result.points[0].reason
    # the next nine find no lab: columns 2-9 skipped, column 10 takes its alternate, frame
    assert [p.outcome for p in result.points[1:10]] == ["skipped"] * 8 + ["frame"]
    assert result.frame_hits == 1


def test_frame_only_as_the_alternate_of_column_10():
    """8FC2: "Frame damage will only be scored (by this procedure) as the alternate to the
    last damage point on a given Damage Allocation Chart." Columns 1-9 name frame nowhere,
    so with no lab left they skip; column 10 ("lab/frame") scores frame."""
    ship = make_ship([box("bridge-1", "bridge")], frame=3)
    result = allocate_volley(ship, 10, rolls=[2, 2], chart=uniform_chart("lab", last="lab/frame"))
    first = result.points[:10]
    assert [p.column for p in first] == list(range(1, 11))
    assert [p.outcome for p in first] == ["skipped"] * 9 + ["frame"]
    assert first[9].box == "frame" and "column 10" in first[9].reason
    assert result.frame_hits == 1


def test_skip_when_primary_and_alternate_are_both_gone():
    """8FC2: "if both the primary and alternate systems are destroyed/unavailable, the
    damage point will be skipped instead of scoring frame damage." """
    ship = make_ship([box("bridge-1", "bridge")])
    result = allocate_volley(ship, 1, rolls=[1, 1], chart=uniform_chart("torpedo/lab"))
    assert result.points[0].outcome == "skipped"
    assert result.points[0].reason.startswith("no torpedo left and no lab left")
    assert result.frame_hits == 0


def test_the_alternate_is_hit_when_the_primary_is_gone():
    """[product]: "Else, if the alternate is available, hit it"."""
    ship = make_ship([box("lab-1", "lab")])
    result = allocate_volley(ship, 1, rolls=[1], chart=uniform_chart("torpedo/lab"))
    assert outcomes(result) == [(1, "hit", "lab-1")]
    assert "alternate lab" in result.points[0].reason


# -- 8FC1: the chart names the kind, the order of precedence the box -------------------------

def test_the_chart_calls_for_phaser_damage_and_the_order_of_precedence_picks_the_phaser():
    """8FC1: "The Damage Allocation Charts are still used." "For example: The Damage
    Allocation Charts call for Phaser Damage. Rather than stop and ask the player which
    phaser to damage, the moderator will simply follow the Order of Precedence (below) to
    determine which phaser gets the hit." The ship of 8FC3's example: FA arc Ph-1s and the
    360º Ph-3 (phaser #5); one Ph-1 fired this turn."""
    ship = make_ship([phaser("ph-1", "Ph-1", "FA"), phaser("ph-2", "Ph-1", "FA"),
                      phaser("ph-5", "Ph-3", "360")])
    set_turn_state(ship, "ph-2", "fired")
    result = allocate_volley(ship, 3, rolls=[1], chart=uniform_chart("phaser"))
    # 8FC4: "Fired Ph-3, unfired Ph-3, ..., Fired Ph-1, unfired Ph-1"
    assert outcomes(result) == [(1, "hit", "ph-5"), (2, "hit", "ph-2"), (3, "hit", "ph-1")]
    assert [p.cell for p in result.points] == ["phaser"] * 3
    assert result.points[0].reason.startswith("DDAP phasers: unfired Ph-3")
    assert result.points[1].reason.startswith("DDAP phasers: fired Ph-1")


def test_skipped_points_are_reallocated_after_the_last_point_with_fresh_rolls():
    """Spec [FC]: "Skipped points are added to the end of the volley and allocated once
    more with fresh rolls", in new groups using columns 1, 2, ..."""
    rows = [["lab"] * 10] + [["bridge"] * 10] * 5
    ship = make_ship([box(f"bridge-{n}", "bridge") for n in range(1, 6)])
    result = allocate_volley(ship, 3, rolls=[1, 2], chart=chart(rows))
    assert [(p.point, p.attempt, p.roll, p.column, p.outcome) for p in result.points] == [
        (1, 1, 1, 1, "skipped"), (2, 1, 1, 2, "skipped"), (3, 1, 1, 3, "skipped"),
        (1, 2, 2, 1, "hit"), (2, 2, 2, 2, "hit"), (3, 2, 2, 3, "hit")]
    assert result.rolls == [1, 2]


def test_a_point_skipped_a_second_time_is_lost():
    """[house] "a point skipped a second time is lost"."""
    ship = make_ship([box("bridge-1", "bridge")])
    result = allocate_volley(ship, 2, rolls=[1, 1], chart=uniform_chart("lab"))
    assert [(p.attempt, p.outcome) for p in result.points] == [
        (1, "skipped"), (1, "skipped"), (2, "lost"), (2, "lost")]
    assert "skipped a second time" in result.points[-1].reason


def test_skipped_points_come_after_every_original_point():
    """Re-allocated groups follow the volley's last point, even across several groups."""
    rows = [["lab"] + ["bridge"] * 9] * 6
    ship = make_ship([box(f"b{n}", "bridge") for n in range(30)])
    result = allocate_volley(ship, 12, rolls=[1, 1, 1], chart=chart(rows))
    assert [(p.point, p.attempt) for p in result.points] == (
        [(n, 1) for n in range(1, 13)] + [(1, 2), (11, 2)])
    # point 1 lands in column 1 again (lab): lost; point 11 in column 2 (bridge): hit
    assert [p.outcome for p in result.points[-2:]] == ["lost", "hit"]
    assert [p.column for p in result.points[-2:]] == [1, 2]


# -- groups and rolls ----------------------------------------------------------------------

def test_one_roll_per_ten_points_or_fraction():
    """Spec [FC]: "one d6 per 10 points or fraction selects a row; the points of that group
    use columns 1, 2, ... 10 in order." Leftover rolls are ignored."""
    ship = make_ship([box(f"h{n}", "forward-hull") for n in range(40)])
    result = allocate_volley(ship, 23, rolls=[4, 5, 6, 1, 2], chart=uniform_chart("forward-hull"))
    assert result.rolls == [4, 5, 6]
    assert [p.column for p in result.points] == list(range(1, 11)) * 2 + [1, 2, 3]
    assert [p.row for p in result.points] == [4] * 10 + [5] * 10 + [6] * 3


def test_the_roll_selects_the_row():
    rows = [[k] * 10 for k in ("bridge", "lab", "cargo", "probe", "impulse", "reactor")]
    ship = make_ship([box(k, k) for k in ("bridge", "lab", "cargo", "probe", "impulse",
                                          "reactor")])
    for roll, kind in enumerate(("bridge", "lab", "cargo", "probe", "impulse", "reactor"), 1):
        result = allocate_volley(ship, 1, rolls=[roll], chart=chart(rows))
        assert result.points[0].box == kind and result.points[0].cell == kind


def test_the_rng_rolls_every_row_when_none_is_typed():
    ship = make_ship([box(f"h{n}", "forward-hull") for n in range(40)])
    ch = uniform_chart("forward-hull")
    a = allocate_volley(ship, 25, chart=ch, rng=random.Random(5))
    b = allocate_volley(ship, 25, chart=ch, rng=random.Random(5))
    assert len(a.rolls) == 3 and a.rolls == b.rolls and a.typed == 0
    with pytest.raises(RuleViolation, match="group 1"):
        allocate_volley(ship, 25, chart=ch)
    # Typed rolls too few are refused, never topped up from the dice (issue 31):
    # tests/rules/fedcom/test_fc_typed_shortfall.py.


def test_impossible_rolls_are_refused():
    ship = make_ship(LABS)
    with pytest.raises(RuleViolation, match="d6 shows 1 to 6; 7 is impossible"):
        allocate_volley(ship, 5, rolls=[7])
    with pytest.raises(RuleViolation):
        allocate_volley(ship, -1, rolls=[1])


# -- shields and burn-through [FC] -------------------------------------------------------------

@pytest.mark.parametrize("shield_left, damage, to_shield, internal, burn", [
    (20, 9, 9, 0, False),     # under 10 and not penetrating: no internal
    (20, 12, 11, 1, True),    # 10 or more, not penetrating: exactly one internal point
    (20, 20, 19, 1, True),    # [FC answer] 20 on a 20-box shield: 19 + 1 burn-through
    (20, 25, 20, 5, False),   # penetrating: the rest is internal
    (5, 10, 5, 5, False),
    (0, 4, 0, 4, False),      # a down shield: all internal
])
def test_shield_first_with_burn_through(shield_left, damage, to_shield, internal, burn):
    """Spec [FC]: "Damage to a shield fills that shield's boxes first; the rest is
    internal. A volley of 10 or more that does not penetrate still scores exactly one
    internal point (burn-through)." """
    ship = make_ship([box(f"h{n}", "forward-hull") for n in range(30)],
                     shields=(20, 20, 20, 20, 20, 20))
    ship.state["shield_damage"][2] = 20 - shield_left
    result = allocate_volley(ship, damage, shield=3, rng=random.Random(1),
                             chart=uniform_chart("forward-hull"))
    assert (result.shield_points, result.internal, result.burn_through) == (
        to_shield, internal, burn)
    assert len(result.points) == internal
    apply_volley(ship, result)
    assert ship.state["shield_damage"][2] == 20 - shield_left + to_shield


def test_no_shield_means_all_internal():
    ship = make_ship([box(f"h{n}", "forward-hull") for n in range(30)])
    result = allocate_volley(ship, 7, rolls=[1], chart=uniform_chart("forward-hull"))
    assert result.shield is None and result.internal == 7 and len(result.hits) == 7


def test_bad_shield_number_is_refused():
    ship = make_ship(LABS)
    with pytest.raises(RuleViolation, match="1 to 6"):
        allocate_volley(ship, 5, shield=7, rolls=[1])


# -- results, applying, destruction ------------------------------------------------------------

def test_allocating_changes_nothing_until_applied():
    """Issue 6: "It changes nothing until applied"."""
    ship = make_ship(LABS, frame=2)
    before = clone(ship.state)
    result = allocate_volley(ship, 22, shield=1, rolls=[1, 2], chart=uniform_chart("lab"))
    assert ship.state == before
    lines = apply_volley(ship, result)
    assert sorted(ship.state["destroyed"]) == ["lab-1", "lab-2"]
    assert ship.state["shield_damage"][0] == 20
    assert lines[0].startswith("22 damage; shield #1 took 20; 2 internal; 2 boxes hit")
    assert lines[1].startswith("Volley 1, point 1: roll 1, row 1, column 1, lab: lab-")


def test_each_record_carries_roll_row_column_cell_box_outcome_reason():
    ship = make_ship([heavy("photon-1", "photon")])
    p = allocate_volley(ship, 1, rolls=[6], chart=uniform_chart("torpedo/lab")).points[0]
    assert (p.point, p.attempt, p.roll, p.row, p.column, p.cell, p.box, p.outcome) == (
        1, 1, 6, 6, 1, "torpedo/lab", "photon-1", "hit")
    assert "DDAP heavy weapons: unfired photon, size 1" in p.reason


def test_a_stale_result_is_refused():
    ship = make_ship(LABS)
    result = allocate_volley(ship, 1, rolls=[1], chart=uniform_chart("lab"))
    apply_volley(ship, result)
    with pytest.raises(RuleViolation, match="allocate it again"):
        apply_volley(ship, result)
    other = make_ship(LABS, name="Other")
    with pytest.raises(RuleViolation, match="another ship"):
        apply_volley(other, result)


def test_a_frame_hit_with_no_frame_left_destroys_the_ship():
    """Spec [FC]: "Destroyed: a frame hit when every frame box is already destroyed." The
    rest of the volley is lost."""
    ship = make_ship([box("bridge-1", "bridge")], frame=1)
    rows = [["lab"] * 9 + ["lab/frame"]] * 6
    result = allocate_volley(ship, 20, rolls=[1, 1, 1], chart=chart(rows))
    frames = [p for p in result.points if p.outcome == "frame"]
    assert len(frames) == 2 and "the ship is destroyed" in frames[1].reason
    assert result.frame_hits == 1 and result.destroys_ship
    assert all(p.outcome == "lost" for p in result.points[20:])
    apply_volley(ship, result)
    assert status(ship).destroyed and status(ship).frame_left == 0
    with pytest.raises(RuleViolation, match="already destroyed"):
        allocate_volley(ship, 5, rolls=[1])


def test_the_training_chart_is_the_default():
    ship = make_ship([box("bridge-1", "bridge")])
    result = allocate_volley(ship, 1, rolls=[1])   # training chart row 1, column 1: bridge
    assert result.points[0].box == "bridge-1" and "not the official" in result.chart


def test_large_volley_accounts_for_every_point():
    ship = make_ship([phaser(f"ph-{n}", "Ph-1") for n in range(8)]
                     + [box(f"h{n}", "forward-hull") for n in range(20)], frame=50)
    result = allocate_volley(ship, 100, rng=random.Random(9))
    final = {}
    for p in result.points:
        final[p.point] = p.outcome
    assert sorted(final) == list(range(1, 101))
    assert set(final.values()) <= {"hit", "frame", "lost"}
    assert len(result.hits) == sum(1 for o in final.values() if o == "hit")

"""Properties of the DDAP that hold for any volley on any sample card (hypothesis)."""

from hypothesis import given, settings, strategies as st

from shipsheet.model import get_class, new_ship
from shipsheet.rules.fedcom import Overrides, allocate_volley, apply_volley, hit_order, status

STEMS = ["sample-heavy-cruiser", "sample-frigate", "sample-drone-cruiser", "sample-dreadnought"]


@settings(max_examples=60, deadline=None)
@given(stem=st.sampled_from(STEMS), damage=st.integers(0, 120),
       shield=st.one_of(st.none(), st.integers(1, 6)),
       rolls=st.lists(st.integers(1, 6), min_size=0, max_size=30),
       skip_frame=st.booleans(), seed=st.integers(0, 2**16))
def test_every_point_is_accounted_for_and_only_intact_boxes_are_hit(
        stem, damage, shield, rolls, skip_frame, seed):
    import random
    ship = new_ship(get_class(f"fedcom/{stem}"), "P")
    apply_volley(ship, allocate_volley(ship, 15, rolls=[3, 3, 3, 3], rng=random.Random(seed)))
    before = set(ship.state["destroyed"])
    frame_before = ship.state["frame_hits"]
    rolls = rolls + [random.Random(seed).randint(1, 6) for _ in range(30)]  # never too few
    result = allocate_volley(ship, damage, shield=shield, rolls=rolls, rng=random.Random(seed),
                             overrides=Overrides(frame_instead_of_skip=skip_frame))
    final = {}
    for p in result.points:
        assert p.outcome in ("hit", "frame", "skipped", "lost")
        assert p.attempt in (1, 2) and (p.outcome != "skipped" or p.attempt == 1)
        final[p.point] = p.outcome
    assert sorted(final) == list(range(1, result.internal + 1))
    assert "skipped" not in final.values()            # every skip was re-allocated
    assert len(set(result.hits)) == len(result.hits) and not before & set(result.hits)
    assert result.rolls[:len(rolls)] == rolls[:len(result.rolls)]
    assert result.shield_points + result.internal == damage
    apply_volley(ship, result)
    assert ship.state["frame_hits"] == frame_before + result.frame_hits
    assert status(ship).frame_left >= 0
    # the hit order of every kind lists exactly the intact boxes
    spec = ship.ship_class.spec
    for kind, ids in spec.by_kind.items():
        assert sorted(hit_order(ship, kind)) == sorted(i for i in ids
                                                       if i not in ship.state["destroyed"])

"""Random sequences of damage, recovery, choices, maintenance and end of turn keep the tracks
sane, and the end of a turn never lets a recovery lapse."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shipsheet.model import RuleViolation, get_class, new_ship
from shipsheet.rules.triplanetary import (ALL_TRACKS, TRACKS, apply_damage, apply_standard,
                                          choose_recovery, end_turn, maintain, recover,
                                          recoverable_tracks, status)

STEMS = ["transport", "packet", "tanker", "liner", "corvette", "corsair", "frigate",
         "dreadnaught", "torch", "orbital-base"]

small = st.integers(min_value=-1, max_value=4)
steps = st.one_of(
    st.tuples(st.just("damage"), small, small, small),
    st.tuples(st.just("standard"), st.sampled_from(["D1", "D2", "D3", "D4", "D5", "E"])),
    st.tuples(st.just("recover"), st.sampled_from([*ALL_TRACKS, "hull"])),
    st.tuples(st.just("maintain")),
    st.tuples(st.just("choose"), st.lists(st.sampled_from([*TRACKS, "hull"]), max_size=3)),
    st.tuples(st.just("end_turn")),
)


@settings(max_examples=150, deadline=None)
@given(stem=st.sampled_from(STEMS), ops=st.lists(steps, max_size=25))
def test_random_sequences_never_go_negative_nor_touch_a_wreck(stem, ops):
    ship = new_ship(get_class(f"triplanetary/{stem}"), "Random")
    recovered = False
    for op in ops:
        before = dict(ship.state)
        was_destroyed = status(ship).destroyed
        try:
            if op[0] == "damage":
                apply_damage(ship, weapon=op[1], drive=op[2], structure=op[3])
            elif op[0] == "standard":
                apply_standard(ship, op[1])
            elif op[0] == "recover":
                recover(ship, op[1], phase="Recovery")
                assert not recovered, "two recoveries in one turn"
                recovered = True
            elif op[0] == "maintain":
                maintain(ship)
            elif op[0] == "choose":
                choose_recovery(ship, op[1] or None)
            else:
                owed = bool(recoverable_tracks(ship))
                total = sum(ship.state[t] for t in ALL_TRACKS)
                lines = end_turn(ship)
                if owed:  # [seed] "A ship recovers from 1 D a turn": never a silent forfeit
                    assert sum(ship.state[t] for t in ALL_TRACKS) == total - 1 and lines
                recovered = False
        except RuleViolation:
            assert ship.state == before, f"{op} was refused but changed the ship"
        if was_destroyed:
            assert ship.state == before, f"{op} acted on a destroyed ship"
        assert all(ship.state[t] >= 0 for t in ALL_TRACKS)
        st_ = status(ship)
        if st_.destroyed:
            assert not (st_.disabled or st_.can_fire or st_.can_maneuver
                        or st_.can_drop_ordnance or st_.can_launch_mines)
        assert st_.disabled == (not st_.destroyed and not st_.can_fire and not st_.can_maneuver)
        if ship.ship_class.spec.defensive_only:
            assert not st_.can_fire
        if ship.ship_class.spec.fixed:
            assert not st_.can_maneuver

"""Federation Commander: 1,000 random action sequences from the sample session, undo/redo
interleaved.

Every step is an action of ``shipsheet.rules.fedcom.actions`` (volleys, repairs, turn
states, drones, shuttle occupants, the referee's box/frame/shield corrections, standing
orders, copying them forward, the chart) or ``NextPhase`` / ``NextTurn``, with random
arguments, legal and illegal; or an undo, a redo, an undo followed by a redo. After
every step (see README.md):

- boxes are destroyed only from intact ones: the destroyed list names real boxes, none
  twice, and an accepted volley only appends boxes that were intact (spec: "If the ship
  has an intact box of the primary kind, hit one");
- frame hits stay between 0 and the card's frame; a ship is marked destroyed only with
  every frame box gone ([FC] "Destroyed: a frame hit when every frame box is already
  destroyed"), and only a volley destroys it;
- shield damage within each shield's boxes; drones within each rack; the box under repair
  is a destroyed box with fewer points than its cost; repair points spent within the
  damage control rating ([FC] "repair points equal to the damage control rating");
- a destroyed ship takes no further volleys and no repairs: both are refused with
  RuleViolation and change nothing;
- a volley does what ``preview_volley`` showed just before (its documented promise):
  same refusal, or the same boxes, frame and destruction;
- the state reads back unchanged through the session-file validator;
- a refused action changes nothing; undo/redo restore the saved bytes (rel_helpers).
"""

import pytest
from hypothesis import given, strategies as st

from shipsheet.model import RuleViolation, Session, get_class, new_ship
from shipsheet.rules.fedcom import (OCCUPANTS, Overrides, cancel_copy_orders_action,
                                    copy_orders_action, mark_box_action, mark_frame_action,
                                    mark_shield_action, preview_volley, repair_action,
                                    repair_cost, set_chart_action, set_drones_action,
                                    set_occupant_action, set_orders_action,
                                    set_turn_state_action, status, volley_action)
from shipsheet.rules.fedcom.sample import build_sample_session
from shipsheet.rules.fedcom.state import turn_states

from rel_helpers import (SEQUENCE_SETTINGS, GameDriver, Stats, Step, assert_refused_or_reopens,
                         assert_state_is_a_valid_file_state, phase_step, run_sequence,
                         session_bytes, ship_index)

KINDS = ["volley", "repair", "turn state", "drones", "occupant", "mark box", "mark frame",
         "mark shield", "orders", "copy orders", "cancel copy", "chart"]
STEP_KINDS = st.sampled_from(KINDS * 2 + ["volley"] * 6 + ["repair"] * 2 + ["phase"] * 5)
STATES = st.sampled_from(["unfired", "fired", "charging", "launched", "unused", "used",
                          "used-dropped", "holding", "broken"])
ODD_IDS = ["ph-99", "", " ph-1", "frame", "x" * 41]
POINTS = st.one_of(st.integers(0, 12), st.integers(13, 80), st.sampled_from([-1, 10**6]))
SHIELD = st.one_of(st.none(), st.integers(1, 6), st.sampled_from([0, 7]))
ROLLS = st.one_of(st.none(), st.lists(st.integers(1, 6), max_size=8),
                  st.lists(st.integers(0, 7), max_size=3))
CHART = st.sampled_from([None, None, None, "training", "no-such-chart"])
_per_class: dict = {}


def _class_strategies(ship):
    """Strategies that depend on the ship's card (built once per class)."""
    spec = ship.ship_class.spec
    key = ship.ship_class.id
    if key not in _per_class:
        ids = [b.id for b in spec.boxes]
        box = st.one_of(st.sampled_from(ids), st.sampled_from(ODD_IDS))
        id_list = st.lists(box, max_size=3)
        kinds = st.sampled_from([*spec.by_kind, "frame", "warp", "", " phaser"])
        overrides = st.builds(
            Overrides, first=id_list, last=id_list,
            order=st.one_of(st.none(), st.dictionaries(kinds, id_list, max_size=2)),
            frame_instead_of_last=st.lists(kinds, max_size=2),
            frame_instead_of_skip=st.booleans(),
            heavy_weapon_order=st.one_of(st.none(), st.lists(
                st.sampled_from([*spec.heavy_types, "plasma-X"]), max_size=3)))
        orders = st.one_of(st.none(), overrides, overrides.map(Overrides.to_json),
                           st.sampled_from([{"first": 5}, {"order": ["ph-1"]}, {"last": [None]}]))
        racks = [b.id for b in spec.boxes if b.kind == "drone"] or ["ph-1"]
        bays = [b.id for b in spec.boxes if b.kind == "shuttle"] or ["ph-1"]
        _per_class[key] = dict(
            box=box, kinds=kinds, orders=orders,
            rack=st.one_of(st.sampled_from(racks), st.sampled_from(racks), box),
            bay=st.one_of(st.sampled_from(bays), st.sampled_from(bays), box),
            volley_orders=st.one_of(st.none(), st.none(), st.none(), overrides),
            frame=st.integers(-1, spec.frame + 1),
            shield_damage=st.integers(-1, max(spec.shields) + 1),
            drones=st.integers(-1, max([b.drones for b in spec.boxes] + [0]) + 1))
    return _per_class[key]


class FedCom(GameDriver):
    kinds = KINDS + ["next phase", "next turn"]

    def __init__(self, stats: Stats):
        self.stats = stats

    def draw_step(self, data, session) -> Step:
        kind = data.draw(STEP_KINDS, label="action")
        if kind == "phase":
            return phase_step(data)
        if kind == "chart":
            chart = data.draw(st.sampled_from(["training", "no-such-chart"]), label="chart")
            return Step(f"chart {chart!r}", kind, lambda: set_chart_action(chart))
        ship = session.ships[ship_index(data, session)]
        s = _class_strategies(ship)
        label = f"{kind} on {ship.name}"
        one = (ship.id,)
        if kind == "volley":
            args = dict(points=data.draw(POINTS, label="points"),
                        shield=data.draw(SHIELD, label="shield"),
                        rolls=data.draw(ROLLS, label="rolls"),
                        overrides=data.draw(s["volley_orders"], label="overrides"),
                        chart=data.draw(CHART, label="chart"))
            points = args.pop("points")
            return Step(f"{label}: {points} points, {args}", kind,
                        lambda: volley_action(ship, points, **args), one, dict(args, points=points))
        if kind == "repair":
            lost = st.sampled_from(ship.state["destroyed"] or ["ph-99"])
            ids = data.draw(st.lists(st.one_of(lost, s["box"]), min_size=1, max_size=3),
                            label="boxes")
            return Step(f"{label}: {ids}", kind, lambda: repair_action(ship, ids), one)
        if kind == "turn state":
            box, state = data.draw(s["box"], label="box"), data.draw(STATES, label="state")
            return Step(f"{label}: {box!r} {state!r}", kind,
                        lambda: set_turn_state_action(ship, box, state), one)
        if kind == "drones":
            box, n = data.draw(s["rack"], label="box"), data.draw(s["drones"], label="drones")
            return Step(f"{label}: {box!r} {n}", kind, lambda: set_drones_action(ship, box, n), one)
        if kind == "occupant":
            box = data.draw(s["bay"], label="box")
            who = data.draw(st.sampled_from([*OCCUPANTS, "pilot"]), label="occupant")
            return Step(f"{label}: {box!r} {who!r}", kind,
                        lambda: set_occupant_action(ship, box, who), one)
        if kind == "mark box":
            box = data.draw(s["box"], label="box")
            destroyed = data.draw(st.booleans(), label="destroyed")
            return Step(f"{label}: {box!r} destroyed={destroyed}", kind,
                        lambda: mark_box_action(ship, box, destroyed), one)
        if kind == "mark frame":
            hits = data.draw(s["frame"], label="frame hits")
            return Step(f"{label}: {hits}", kind, lambda: mark_frame_action(ship, hits), one)
        if kind == "mark shield":
            shield = data.draw(st.integers(0, 7), label="shield")
            damage = data.draw(s["shield_damage"], label="damage")
            return Step(f"{label}: #{shield} {damage}", kind,
                        lambda: mark_shield_action(ship, shield, damage), one)
        if kind == "orders":
            orders = data.draw(s["orders"], label="orders")
            return Step(f"{label}: {orders!r}", kind, lambda: set_orders_action(ship, orders), one)
        if kind == "copy orders":
            return Step(label, kind, lambda: copy_orders_action(ship), one)
        return Step(label, kind, lambda: cancel_copy_orders_action(ship), one)

    def check(self, session) -> None:
        for ship in session.ships:
            spec = ship.ship_class.spec
            state = ship.state
            lost = state["destroyed"]
            assert len(set(lost)) == len(lost), f"{ship.name}: a box destroyed twice: {lost}"
            assert all(b in spec.box_index for b in lost), f"{ship.name}: unknown box in {lost}"
            frame = state["frame_hits"]
            assert 0 <= frame <= spec.frame, f"{ship.name}: frame hits {frame} of {spec.frame}"
            assert not state["ship_destroyed"] or state["frame_hits"] == spec.frame
            assert status(ship).frame_left >= 0
            for damage, size in zip(state["shield_damage"], spec.shields):
                assert 0 <= damage <= size, f"{ship.name}: shield damage {damage} of {size}"
            for rack, n in state["drones"].items():
                assert 0 <= n <= spec.box_index[rack].drones
            for box_id, value in state["turn"].items():
                assert box_id not in lost, f"{ship.name}: destroyed {box_id} is {value!r}"
                assert value in turn_states(spec.box_index[box_id].kind)[1:]
            repair = state["repair"]
            if repair is not None:
                assert repair["box"] in lost
                assert 1 <= repair["points"] < repair_cost(spec, repair["box"])
            assert 0 <= state["repair_spent"] <= spec.damage_control
            assert_state_is_a_valid_file_state(session, ship)

    def before(self, session, step):
        ships = {s.id: (list(s.state["destroyed"]), s.state["frame_hits"],
                        list(s.state["shield_damage"]), s.state["ship_destroyed"])
                 for s in session.ships}
        preview = None
        if step.kind == "volley":
            args = dict(step.args)
            ship = session.ship(step.ships[0])
            try:
                preview = preview_volley(session, ship, args.pop("points"), **args)
            except RuleViolation as exc:
                preview = exc
        return ships, preview

    def after_refusal(self, memo, session, step, exc) -> None:
        ships, preview = memo
        if step.kind in ("volley", "repair") and ships[step.ships[0]][3]:
            self.stats.events[f"{step.kind} on a destroyed ship refused"] += 1
        if step.kind == "volley":
            assert isinstance(preview, RuleViolation), \
                f"preview_volley allowed {step.label!r} but the action refused it: {exc}"

    def after_apply(self, memo, session, step) -> None:
        ships, preview = memo
        for ship in session.ships:
            lost, frame, shields, destroyed = ships[ship.id]
            if ship.state["ship_destroyed"] and not destroyed:
                assert step.kind == "volley" and step.ships == (ship.id,), \
                    f"{ship.name} destroyed by {step.label!r}"
        if step.kind not in ("volley", "repair"):
            return
        ship = session.ship(step.ships[0])
        lost, frame, shields, destroyed = ships[ship.id]
        assert not destroyed, f"{step.label!r} was accepted on destroyed {ship.name}"
        if step.kind == "repair":
            return
        assert not isinstance(preview, RuleViolation), \
            f"preview_volley refused {step.label!r} ({preview}) but the action was accepted"
        new = ship.state["destroyed"][len(lost):]
        assert ship.state["destroyed"][:len(lost)] == lost and not set(new) & set(lost)
        assert new == preview.hits, f"the volley hit {new}, its preview showed {preview.hits}"
        assert ship.state["frame_hits"] == frame + preview.frame_hits
        assert ship.state["ship_destroyed"] == preview.destroys_ship
        assert all(a >= b for a, b in zip(ship.state["shield_damage"], shields))


def _copied_orders(session):
    """Resolute's standing orders copied to the next turn (so "cancel copy" has a target)."""
    session.apply(copy_orders_action(session.ship("Resolute")))


def _wreck(session):
    """Lance (a frigate, frame 3) with every frame box gone takes a volley of 10 on row 1:
    column 10 is "lab/frame", no lab left, no frame left: destroyed ([FC] "Destroyed: a
    frame hit when every frame box is already destroyed")."""
    lance = session.ship("Lance")
    session.apply(mark_frame_action(lance, 3))
    session.apply(volley_action(lance, 10, rolls=[1]))
    assert lance.state["ship_destroyed"]


STATS = Stats()
TEMPLATES = [session_bytes(build_sample_session),
             session_bytes(build_sample_session, _copied_orders, _wreck)]


@SEQUENCE_SETTINGS
@given(st.data())
def _sequences(data):
    run_sequence(data, TEMPLATES, FedCom(STATS), STATS)


def test_random_sequences_with_undo_redo_keep_the_fedcom_invariants():
    """1,000 sequences of 5-15 steps; every invariant after every step (module docstring)."""
    _sequences()
    print("\nFederation Commander:", STATS.summary())
    STATS.assert_exercised(FedCom.kinds, never_refused=("next phase", "next turn"))
    assert STATS.events["volley on a destroyed ship refused"] >= 50, STATS.summary()


@pytest.mark.parametrize("orders", [Overrides(last=("",)), Overrides(first=(" ph-1",)),
                                    Overrides(last=("x" * 41,)),
                                    Overrides(frame_instead_of_last=("",))],
                         ids=["empty id", "id with a space", "41-character id", "empty kind"])
def test_standing_orders_the_rules_accept_are_saved_and_open_again(orders):
    """Found by the property above (issue 8): ``set_orders`` stored box ids that the
    session-file validator (``Overrides.check_json``) refuses ("" or over 40 characters:
    "ships[0].state.orders.last[0]: must not be empty") or reads back changed (" ph-1"
    -> "ph-1"), so a saved session could not be opened again. Fixed meanwhile in
    ``overrides.set_orders``, which now applies the file's checks; kept as a regression
    test: refused and nothing changed, or saved and opened to the same bytes."""
    session = Session("fedcom", name="Regression", seed=1)
    ship = session.add_ship(new_ship(get_class("fedcom/sample-frigate"), "Swift"), "Blue")
    assert_refused_or_reopens(session, lambda: set_orders_action(ship, orders))

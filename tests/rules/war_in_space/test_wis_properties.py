"""Random play never breaks the rules' invariants; random state files never crash the reader."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipsheet.model import RuleViolation, Session, SessionFileError, get_class, new_ship
from shipsheet.model.keypath import Node
from shipsheet.model.ship import clone
from shipsheet.rules.war_in_space import (GAME, cancel_repairs_action, commit_energy_action,
                                          correct_mark_action, current_die, locked_suits,
                                          mark_critical_action, mark_system_box_action,
                                          plan_repairs_action, remaining_damage_control,
                                          roll_energy_action)

STEMS = ("escort", "frigate", "cruiser", "battleship")
CARDS = [f"{r}{s}" for r in ("A", "2", "5", "10", "J", "K") for s in "SHDC"] + ["JOKER"]
ACTION_WORDS = ("attack", "defense", "movement")

operation = st.one_of(
    st.tuples(st.just("box"), st.integers(0, 2)),
    st.tuples(st.just("critical"), st.sampled_from("SHDC")),
    st.tuples(st.just("correct box"), st.integers(0, 2)),
    st.tuples(st.just("correct critical"), st.sampled_from("SHDC")),
    st.tuples(st.just("roll")),
    st.tuples(st.just("commit"), st.sampled_from(CARDS), st.booleans(),
              st.lists(st.sampled_from(ACTION_WORDS), min_size=3, max_size=3)),
    st.tuples(st.just("plan"), st.integers(0, 2), st.integers(0, 2),
              st.lists(st.sampled_from("SHDC"), max_size=2, unique=True)),
    st.tuples(st.just("plan"), st.integers(0, 2), st.integers(1, 2), st.just([])),
    st.tuples(st.just("commit"), st.sampled_from(["JOKER", "QD", "KC"]), st.just(True),
              st.just([])),
    st.tuples(st.just("cancel")),
    st.tuples(st.just("next phase")),
    st.tuples(st.just("next phase")),
    st.tuples(st.just("undo")),
)


def _action(ship, op):
    kind = op[0]
    if kind == "box":
        return mark_system_box_action(ship, op[1])
    if kind == "critical":
        return mark_critical_action(ship, op[1])
    if kind == "correct box":
        return correct_mark_action(ship, op[1])
    if kind == "correct critical":
        return correct_mark_action(ship, suit=op[1])
    if kind == "roll":
        return roll_energy_action(ship)
    if kind == "commit":
        _, card, dc, assignment = op
        return commit_energy_action(ship, card, damage_control=dc,
                                    joker_assignment=assignment if card == "JOKER" and not dc
                                    else None)
    if kind == "plan":
        return plan_repairs_action(ship, boxes={op[1]: op[2]}, criticals=op[3])
    return cancel_repairs_action(ship)


def _check_invariants(session):
    for ship in session.ships:
        for i, system in enumerate(ship.spec.systems):
            die = current_die(ship, i)
            # Seed: "Ships may not "repair" themselves to perform at higher than their
            # original, undamaged capabilities!"
            assert die <= system.die
            assert 0 <= ship.state["marks"][i] <= system.boxes
        energy = ship.state["energy"]
        if energy is not None:
            assert all(energy[k] >= 0 for k in ("attack", "defense", "movement", "damage_control"))
            assert remaining_damage_control(ship) >= 0
        # The state always reads back as a valid session state.
        assert GAME.check_state(ship.ship_class, Node(clone(ship.state), "t", "state",
                                                      SessionFileError)) == ship.state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stem=st.sampled_from(STEMS), seed=st.integers(0, 99),
       damage=st.lists(st.integers(0, 2), max_size=6),
       ops=st.lists(operation, min_size=5, max_size=40))
def test_random_play_keeps_dice_and_energy_within_the_rules(stem, seed, damage, ops):
    session = Session("war-in-space", seed=seed)
    ship = session.add_ship(new_ship(get_class(f"war-in-space/{stem}"), "Test"), "Blue")
    for op in [("box", system) for system in damage] + ops:
        try:
            if op[0] == "next phase":
                session.next_phase()
            elif op[0] == "undo":
                session.undo()
            else:
                session.apply(_action(ship, op))
        except RuleViolation:
            pass
        _check_invariants(session)


json_value = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)


@settings(max_examples=80, deadline=None)
@given(key=st.sampled_from(["marks", "criticals", "energy", "planned_repairs", "rolled",
                            "extra"]),
       value=json_value)
def test_a_hostile_state_gives_a_clear_error_and_never_another_exception(key, value):
    cls = get_class("war-in-space/cruiser")
    state = GAME.initial_state(cls)
    state[key] = value
    try:
        checked = GAME.check_state(cls, Node(state, "f.shipsheet", "state", SessionFileError))
    except SessionFileError as exc:
        assert str(exc).startswith("f.shipsheet: state")
    else:
        assert checked[key] == value



turn = st.tuples(
    st.lists(st.one_of(st.tuples(st.just("box"), st.integers(0, 2)),
                       st.tuples(st.just("critical"), st.sampled_from("SHDC"))), max_size=4),
    st.sampled_from(CARDS), st.booleans(),
    st.lists(st.sampled_from(ACTION_WORDS), min_size=3, max_size=3),
    st.booleans(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stem=st.sampled_from(STEMS), seed=st.integers(0, 99), turns=st.lists(turn, max_size=6),
       data=st.data())
def test_random_turns_with_repairs_keep_dice_and_energy_within_the_rules(stem, seed, turns, data):
    """Whole turns: damage, a card, a plan of what is damaged, then the Damage Control phase."""
    session = Session("war-in-space", seed=seed)
    ship = session.add_ship(new_ship(get_class(f"war-in-space/{stem}"), "Test"), "Blue")
    for damage, card, dc, assignment, undo in turns:
        for op in [*damage, ("commit", card, dc, assignment)]:
            try:
                session.apply(_action(ship, op))
            except RuleViolation:
                pass
            _check_invariants(session)
        boxes = {i: data.draw(st.integers(0, marks + 1))
                 for i, marks in enumerate(ship.state["marks"]) if marks}
        suits = data.draw(st.lists(st.sampled_from(locked_suits(ship) or ["S"]), unique=True,
                                   max_size=2))
        try:
            session.apply(plan_repairs_action(ship, boxes=boxes, criticals=suits))
        except RuleViolation:
            pass
        _check_invariants(session)
        session.next_phase()
        session.next_phase()  # Damage Control: planned repairs take effect
        _check_invariants(session)
        if undo:
            session.undo()
            _check_invariants(session)
        session.next_turn()
        _check_invariants(session)

"""War In Space: 1,000 random action sequences from the sample session, undo/redo interleaved.

Every step is an action of ``shipsheet.rules.war_in_space.actions`` (or ``NextPhase`` /
``NextTurn``) with random arguments, legal and illegal, or an undo, a redo, or an undo
followed by a redo. After every step (see README.md for the full list):

- no system's die is above its undamaged type, and each marked box is one type down
  (spec: "click a system box to mark it (the die steps down)"; seed: a repaired box lets
  the player "roll one die type higher"; the seed's "Ships may not 'repair' themselves to
  perform at higher than their original, undamaged capabilities!");
- marks stay within the system's boxes; no energy amount is negative; Damage Control
  spent never exceeds the Damage Control energy; committed energy adds up to the dice;
- the state reads back unchanged through the session-file validator;
- a refused action changes nothing; undo/redo restore the saved bytes (rel_helpers).
"""

from dataclasses import replace

from hypothesis import given, strategies as st

from shipsheet.model.actions import NextTurn
from shipsheet.rules.war_in_space import (ACTIONS, BOX_COST, CRITICAL_COST, DIE_LADDER,
                                          allocate_energy, cancel_repairs_action,
                                          commit_allocation_action, commit_energy_action,
                                          correct_mark_action, current_die, mark_critical_action,
                                          mark_system_box_action, plan_repairs_action,
                                          remaining_damage_control, roll_energy_action,
                                          rolled_dice)
from shipsheet.rules.war_in_space.sample import build_sample_session

from rel_helpers import (SEQUENCE_SETTINGS, GameDriver, Stats, Step,
                         assert_state_is_a_valid_file_state,
                         phase_step, run_sequence, session_bytes, ship_index)

DC = "damage_control"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_WORDS = ["S", "H", "D", "C", "♠", "♦", "hearts", "Clubs", "X", "", "joker"]
CARDS = st.one_of(
    st.builds(lambda r, s: r + s, st.sampled_from(RANKS),
              st.sampled_from(["S", "H", "D", "C", "♥"])),
    st.sampled_from(["JOKER", "Joker", "1Z", "11H", "", "K", "QX"]))
ACTION_WORDS = ["attack", "defense", "movement", "Defence", "damage control", "warp"]


def _ladder_die(undamaged: int, marks: int) -> int:
    """The die after ``marks`` one-type steps down from ``undamaged`` (0 below d4)."""
    top = DIE_LADDER.index(undamaged)
    return DIE_LADDER[top - marks] if marks <= top else 0


KINDS = ["mark box", "mark critical", "correct mark", "commit energy", "commit allocation",
         "roll energy", "plan repairs", "cancel repairs"]
STEP_KINDS = st.sampled_from(KINDS * 2 + ["phase"] * 5)
SUITS = st.sampled_from(SUIT_WORDS)
SUIT_OR_SYSTEM = st.booleans()
BOOLS = st.booleans()
JOKER = st.one_of(st.none(), st.none(), st.none(),
                  st.lists(st.sampled_from(ACTION_WORDS), min_size=2, max_size=4))
ANY_DICE = st.one_of(st.lists(st.integers(-1, 13), min_size=3, max_size=3),
                     st.lists(st.integers(1, 6), min_size=0, max_size=4))
TAMPER = st.sampled_from([None, None, "attack", DC])
CRITICALS = st.one_of(st.none(), SUITS, st.lists(SUITS, max_size=3))
_per_class: dict = {}


def _class_strategies(ship):
    """Strategies that depend on the ship's systems (built once per class)."""
    key = ship.ship_class.id
    if key not in _per_class:
        names = [s.name for s in ship.ship_class.spec.systems]
        systems = st.one_of(st.sampled_from(names), st.sampled_from(names).map(str.lower),
                            st.integers(-1, 3), st.sampled_from(["Shields", "", " drive "]))
        boxes = st.one_of(st.none(), st.dictionaries(
            st.one_of(st.sampled_from(names), st.integers(-1, 3)), st.integers(-1, 3), max_size=3))
        _per_class[key] = (systems, st.one_of(st.none(), systems), boxes)
    return _per_class[key]


def _legal_dice(ship):
    """Dice each possible on its system's current die now (0 for a system at 0)."""
    return st.tuples(*(st.integers(1, d) if d else st.just(0)
                       for d in (current_die(ship, i) for i in range(3)))).map(list)


class WarInSpace(GameDriver):
    kinds = KINDS + ["next phase", "next turn"]

    def draw_step(self, data, session) -> Step:
        kind = data.draw(STEP_KINDS, label="action")
        if kind == "phase":
            return phase_step(data)
        ship = session.ships[ship_index(data, session)]
        systems, system_or_none, boxes_st = _class_strategies(ship)
        label = f"{kind} on {ship.name}"
        if kind == "mark box":
            system = data.draw(systems, label="system")
            return Step(f"{label}: {system!r}", kind, lambda: mark_system_box_action(ship, system),
                        (ship.id,))
        if kind == "mark critical":
            suit = data.draw(SUITS, label="suit")
            return Step(f"{label}: {suit!r}", kind, lambda: mark_critical_action(ship, suit),
                        (ship.id,))
        if kind == "correct mark":
            if data.draw(SUIT_OR_SYSTEM, label="a suit"):
                suit = data.draw(SUITS, label="suit")
                return Step(f"{label}: suit {suit!r}", kind,
                            lambda: correct_mark_action(ship, suit=suit), (ship.id,))
            system = data.draw(system_or_none, label="system")
            return Step(f"{label}: {system!r}", kind, lambda: correct_mark_action(ship, system),
                        (ship.id,))
        if kind in ("commit energy", "commit allocation"):
            card = data.draw(CARDS, label="card")
            how = data.draw(st.integers(0, 2), label="dice: 0 session, 1 legal now, 2 any")
            dice = None if how == 0 else data.draw(_legal_dice(ship) if how == 1 else ANY_DICE,
                                                  label="dice")
            dc = data.draw(BOOLS, label="damage control")
            joker = data.draw(JOKER, label="joker")
            args = f"{card!r}, dice {dice}, damage_control={dc}, joker_assignment={joker}"
            if kind == "commit energy":
                return Step(f"{label}: {args}", kind,
                            lambda: commit_energy_action(ship, card, dice, damage_control=dc,
                                                         joker_assignment=joker), (ship.id,))
            tamper = data.draw(TAMPER, label="tamper")

            def build():
                values = dice if dice is not None else (rolled_dice(ship) or (1, 1, 1))
                allocation = allocate_energy(ship, card, values, damage_control=dc,
                                             joker_assignment=joker)
                if tamper:
                    allocation = replace(allocation, **{tamper: getattr(allocation, tamper) + 1})
                return commit_allocation_action(ship, allocation)

            return Step(f"{label}: {args}, tampered {tamper}", kind, build, (ship.id,))
        if kind == "roll energy":
            return Step(label, kind, lambda: roll_energy_action(ship), (ship.id,))
        if kind == "plan repairs":
            boxes = data.draw(boxes_st, label="boxes")
            crits = data.draw(CRITICALS, label="criticals")
            return Step(f"{label}: boxes {boxes}, criticals {crits!r}", kind,
                        lambda: plan_repairs_action(ship, boxes, crits), (ship.id,))
        return Step(label, kind, lambda: cancel_repairs_action(ship), (ship.id,))

    def check(self, session) -> None:
        for ship in session.ships:
            spec = ship.ship_class.spec
            state = ship.state
            for i, system in enumerate(spec.systems):
                marks = state["marks"][i]
                assert 0 <= marks <= system.boxes, f"{ship.name} {system.name}: {marks} marks"
                die = current_die(ship, i)
                assert die <= system.die, f"{ship.name} {system.name}: d{die} above d{system.die}"
                assert die == _ladder_die(system.die, marks)
            energy = state["energy"]
            if energy is not None:
                for key in (*ACTIONS, DC, "damage_control_spent"):
                    assert energy[key] >= 0, f"{ship.name}: negative energy {key}={energy[key]}"
                assert energy["damage_control_spent"] <= energy[DC]
                assert remaining_damage_control(ship) >= 0
                assert sum(energy[k] for k in (*ACTIONS, DC)) == sum(energy["dice"])
                assert all(0 <= v <= s.die for v, s in zip(energy["dice"], spec.systems))
            if state["rolled"] is not None:
                assert energy is None
                assert all(0 <= v <= s.die for v, s in zip(state["rolled"], spec.systems))
            plan = state["planned_repairs"]
            if plan is not None:
                cost = BOX_COST * sum(plan["boxes"]) + CRITICAL_COST * len(plan["criticals"])
                assert energy is not None and cost <= remaining_damage_control(ship)
            assert_state_is_a_valid_file_state(session, ship)

    def before(self, session, step):
        return session.turn

    def after_apply(self, turn, session, step) -> None:
        if session.turn != turn:
            # [house] "Energy not spent this turn is lost at end of turn"; plans dropped.
            for ship in session.ships:
                assert ship.state["energy"] is None and ship.state["rolled"] is None
                assert ship.state["planned_repairs"] is None


STATS = Stats()
TEMPLATES = [session_bytes(build_sample_session),
             # the same fleet at the start of turn 3: nothing committed yet
             session_bytes(build_sample_session, lambda s: s.apply(NextTurn()))]


@SEQUENCE_SETTINGS
@given(st.data())
def _sequences(data):
    run_sequence(data, TEMPLATES, WarInSpace(), STATS)


def test_random_sequences_with_undo_redo_keep_the_war_in_space_invariants():
    """1,000 sequences of 5-15 steps; every invariant after every step (module docstring)."""
    _sequences()
    print("\nWar In Space:", STATS.summary())
    STATS.assert_exercised(WarInSpace.kinds, never_refused=("next phase", "next turn"))

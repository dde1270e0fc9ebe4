"""Triplanetary: 1,000 random action sequences from the sample session, undo/redo interleaved.

Every step is an action of ``shipsheet.rules.triplanetary.actions`` (gun attacks resolved
ahead or inside the action, with or without the referee's timing overrides; other damage
with or without a source or launch; hand-marked damage, recovery, the recovery choice,
track clicks, maintenance, fuel, cargo, the combat option, launching ordnance, lost at the
map edge, looting, capture) or ``NextPhase`` / ``NextTurn``, with random arguments, legal
and illegal; or an undo, a redo, an undo followed by a redo. The sequences start from the
sample in its Movement, Combat and Recovery phases. After every step (see README.md):

- no D-level is below 0 (seed: "Hits add to them"; "A ship recovers from 1 D a turn");
  fuel and cargo stay within the ship type's figures [2018];
- a ship out of play — destroyed (seed: "if structure reaches D6 or below, the ship
  explodes"; [2018] "D6 or more, or E, destroys the ship") or lost at the map edge
  [TRI-H7] — takes no further action: every action that names it (as the ship, an
  attacker, a source, a looter or a target) is refused with RuleViolation and changes
  nothing, and no other step (end of turn included) changes its state;
- after the end of a turn no ship that is still alive keeps its "recovered" mark (seed:
  "A ship recovers from 1 D a turn");
- the state reads back unchanged through the session-file validator;
- a refused action changes nothing; undo/redo restore the saved bytes (rel_helpers).

The sequences found a bug (README.md, "Bugs found" 1): the rules accepted D-levels and a
cargo that the session-file validator refuses. Fixed in the rules (``tracks``: D-levels
stop at D10000, cargo at 100,000 t, [house]); its minimal forms are kept as the
regression tests at the end of this file.
"""

import random

import pytest
from hypothesis import given, strategies as st

from shipsheet.model import Session, get_class, new_ship
from shipsheet.model.ship import clone
from shipsheet.rules.triplanetary import (ALL_TRACKS, ORDNANCE_KINDS, OTHER_KINDS, TRACKS,
                                          apply_attack, attack, capture_action, cargo_action,
                                          choose_recovery_action, combat_option_action,
                                          damage_action, fuel_action, launch_ordnance_action,
                                          levels, lose_at_map_edge_action, loot_action,
                                          maintain_action, mark_level_action, other_damage,
                                          out_of_play, recover_action, resolve_attack, status)
from shipsheet.rules.triplanetary.sample import build_sample_session

from rel_helpers import (SEQUENCE_SETTINGS, GameDriver, Stats, Step, assert_refused_or_reopens,
                         assert_state_is_a_valid_file_state, phase_step, run_sequence,
                         session_bytes, ship_index)

KINDS = ["attack (resolved first)", "attack", "other damage", "damage", "recover",
         "mark level", "maintain", "fuel", "cargo", "combat option", "choose", "launch",
         "lost", "loot", "capture"]
STEP_KINDS = st.sampled_from(KINDS * 2 + ["attack", "damage", "mark level"] + ["phase"] * 4)
SHIP_LISTS = st.one_of(st.lists(st.integers(0, 5), min_size=1, max_size=2),
                       st.lists(st.integers(0, 5), min_size=0, max_size=3))
DEFENDER_LISTS = st.lists(st.integers(0, 5), min_size=1, max_size=2)
#: D-levels to add: mostly small, sometimes a number no game reaches (10,000 is the most
#: a session file accepts).
AMOUNT = st.one_of(st.just(0), st.just(0), st.integers(-1, 7), st.sampled_from([10_000, 10_001]))
TRACK = st.sampled_from([*ALL_TRACKS, "shields"])
ROLL = st.one_of(st.none(), st.integers(1, 6), st.integers(0, 7))
ROLLS = st.one_of(st.none(), st.none(), st.lists(st.integers(1, 6), max_size=3),
                  st.lists(st.integers(0, 7), max_size=4))
GUN_OPTIONS = st.one_of(st.just({}), st.just({}), st.fixed_dictionaries({}, optional={
    "range": st.integers(-1, 5), "relative_velocity": st.integers(-1, 6),
    "heroic": st.booleans(), "strength": st.integers(-1, 30), "defense": st.integers(-1, 20),
    "combat": st.sampled_from(["advanced", "standard", "classic"]),
    "distribute": st.sampled_from(["each", "in-turn", "all"]),
    "out_of_phase": st.booleans(), "second_attack": st.booleans()}))
OTHER_OPTIONS = st.one_of(st.just({}), st.fixed_dictionaries({}, optional={
    "modifier": st.integers(-3, 3), "combat": st.sampled_from(["advanced", "standard", "classic"]),
    "distribute": st.sampled_from(["each", "in-turn", "all"]),
    "no_source": st.booleans(), "launch": st.integers(0, 3)}))
KIND_OF_DAMAGE = st.sampled_from([*OTHER_KINDS, "laser"])


def _ships(session, indexes):
    return [session.ships[i % len(session.ships)] for i in indexes]


class Triplanetary(GameDriver):
    kinds = KINDS + ["next phase", "next turn"]

    def __init__(self, stats: Stats):
        self.stats = stats

    def draw_step(self, data, session) -> Step:
        kind = data.draw(STEP_KINDS, label="action")
        if kind == "phase":
            return phase_step(data)
        if kind in ("attack (resolved first)", "attack"):
            attackers = _ships(session, data.draw(SHIP_LISTS, label="attackers"))
            defenders = _ships(session, data.draw(DEFENDER_LISTS, label="targets"))
            opts = dict(data.draw(GUN_OPTIONS, label="options"))
            # The referee's timing rulings as often as not: attacks outside the Combat phase
            # and second attacks are then accepted too, so every path is exercised.
            for ruling in ("out_of_phase", "second_attack"):
                opts.setdefault(ruling, data.draw(st.booleans(), label=ruling))
            opts["to_hit_roll"] = data.draw(ROLL, label="to-hit roll")
            opts["damage_rolls"] = data.draw(ROLLS, label="damage rolls")
            ids = tuple(s.id for s in attackers + defenders)
            label = (f"{kind}: {[s.name for s in attackers]} on {[s.name for s in defenders]}, "
                     f"{opts}")
            if kind == "attack":
                return Step(label, kind, lambda: attack(attackers, defenders, **opts), ids)
            # Resolved ahead (as a dialog previews it), rolls not given drawn from private dice.
            seed = data.draw(st.integers(0, 2**16), label="private dice seed")
            return Step(f"{label}, private dice seed {seed}", kind,
                        lambda: apply_attack(resolve_attack(attackers, defenders,
                                                            rng=random.Random(seed), **opts)), ids)
        if kind == "other damage":
            what = data.draw(KIND_OF_DAMAGE, label="kind")
            defenders = _ships(session, data.draw(DEFENDER_LISTS, label="targets"))
            sources = _ships(session, data.draw(st.lists(st.integers(0, 5), max_size=2),
                                                label="sources"))
            opts = dict(data.draw(OTHER_OPTIONS, label="options"))
            opts["to_hit_roll"] = data.draw(ROLL, label="to-hit roll")
            opts["damage_rolls"] = data.draw(ROLLS, label="damage rolls")
            return Step(f"{what} on {[s.name for s in defenders]} from "
                        f"{[s.name for s in sources]}, {opts}", kind,
                        lambda: other_damage(what, defenders, sources=sources, **opts),
                        tuple(s.id for s in defenders + sources))
        if kind in ("loot", "capture"):
            actor, target = _ships(session, data.draw(st.lists(st.integers(0, 5), min_size=2,
                                                               max_size=2), label="pair"))
            if kind == "capture":
                return Step(f"{actor.name} captures {target.name}", kind,
                            lambda: capture_action(actor, target), (actor.id, target.id))
            # Half the time aim at what looting needs (a disabled ship with cargo, as much as
            # it carries): blind pairs are almost always refused, and an action that is never
            # accepted proves nothing (assert_exercised).
            lootable = [s for s in session.ships if s.id != actor.id and s.state.get("cargo")
                        and status(s).disabled]
            if lootable and data.draw(st.booleans(), label="aim at a lootable ship"):
                target = lootable[data.draw(st.integers(0, len(lootable) - 1), label="lootable")]
                tons = data.draw(st.integers(1, int(target.state["cargo"])), label="tons")
            else:
                tons = data.draw(st.integers(-1, 60), label="tons")
            return Step(f"{actor.name} loots {tons} t from {target.name}", kind,
                        lambda: loot_action(actor, target, tons), (actor.id, target.id))
        if kind == "combat option":
            system = data.draw(st.sampled_from(["advanced", "standard", "classic"]), label="system")
            return Step(f"combat option {system!r}", kind, lambda: combat_option_action(system))
        ship = session.ships[ship_index(data, session)]
        label = f"{kind} on {ship.name}"
        if kind == "damage":
            w, d, s = (data.draw(AMOUNT, label=t) for t in ("weapon", "drive", "structure"))
            return Step(f"{label}: weapon {w}, drive {d}, structure {s}", kind,
                        lambda: damage_action(ship, weapon=w, drive=d, structure=s), (ship.id,))
        if kind == "recover":
            track = data.draw(TRACK, label="track")
            return Step(f"{label}: {track}", kind, lambda: recover_action(ship, track), (ship.id,))
        if kind == "mark level":
            track = data.draw(TRACK, label="track")
            level = data.draw(st.one_of(st.integers(-1, 8), st.just(10_001)), label="level")
            return Step(f"{label}: {track} D{level}", kind,
                        lambda: mark_level_action(ship, track, level), (ship.id,))
        if kind == "maintain":
            return Step(label, kind, lambda: maintain_action(ship), (ship.id,))
        if kind == "choose":
            tracks = data.draw(st.one_of(st.none(), st.sampled_from([*TRACKS, "standard", "hull"]),
                                         st.lists(st.sampled_from(TRACKS), max_size=3)),
                               label="tracks")
            return Step(f"{label}: {tracks}", kind, lambda: choose_recovery_action(ship, tracks),
                        (ship.id,))
        if kind == "launch":
            what = data.draw(st.sampled_from([*ORDNANCE_KINDS, "laser"]), label="ordnance")
            flags = dict(out_of_phase=data.draw(st.booleans(), label="out of phase"),
                         second_launch=data.draw(st.booleans(), label="second launch"))
            return Step(f"{label}: {what} {flags}", kind,
                        lambda: launch_ordnance_action(ship, what, **flags), (ship.id,))
        if kind == "lost":
            referee = data.draw(st.booleans(), label="referee")
            return Step(f"{label}: referee {referee}", kind,
                        lambda: lose_at_map_edge_action(ship, referee=referee), (ship.id,))
        amount = data.draw(st.one_of(st.integers(-1, 55), st.sampled_from([100_000, 100_001])),
                           label="amount")
        builder = fuel_action if kind == "fuel" else cargo_action
        return Step(f"{label}: {amount}", kind, lambda: builder(ship, amount), (ship.id,))

    def check(self, session) -> None:
        for ship in session.ships:
            spec = ship.ship_class.spec
            for track, level in levels(ship).items():
                assert level >= 0, f"{ship.name}: {track} at D{level}"
            fuel, cargo = ship.state["fuel"], ship.state["cargo"]
            assert (fuel is None) if spec.fuel is None else 0 <= fuel <= spec.fuel
            assert 0 <= cargo and (spec.cargo is None or cargo <= spec.cargo)
            st_ = status(ship)
            if st_.destroyed:
                assert not (st_.can_fire or st_.can_maneuver or st_.can_drop_ordnance)
            assert_state_is_a_valid_file_state(session, ship)

    def before(self, session, step):
        wrecks = {s.id: clone(s.state) for s in session.ships if out_of_play(s)}
        return session.turn, wrecks

    def after_refusal(self, memo, session, step, exc) -> None:
        if any(sid in memo[1] for sid in step.ships):
            self.stats.events["action naming a destroyed ship refused"] += 1

    def after_apply(self, memo, session, step) -> None:
        turn, wrecks = memo
        acting = [sid for sid in step.ships if sid in wrecks]
        assert not acting, f"{step.label!r} was accepted although {acting} is destroyed"
        for ship in session.ships:
            if ship.id in wrecks:
                assert ship.state == wrecks[ship.id], f"{step.label!r} changed wreck {ship.name}"
            elif session.turn != turn:
                assert not ship.state["recovered"], f"{ship.name} keeps its recovery mark"


def _wreck(session):
    """Raven (a frigate) takes structure D6: destroyed (seed: "D6 or below ... explodes")."""
    session.apply(damage_action(session.ship("Raven"), structure=6))


def _to(phase):
    def step(session):
        while session.phase != phase:
            session.next_phase()
    step.__name__ = f"to {phase}"
    return step


def _standard_and_eliminated(session):
    """The standard combat option, and Kite's disabled track clicked to D6: destroyed
    ([2018] "D6 or more, or E, destroys the ship")."""
    session.apply(combat_option_action("standard"))
    session.apply(mark_level_action(session.ship("Kite"), "standard", 6))


STATS = Stats()
def _lost(session):
    """Kite's drive at D6, and Kite lost at the map edge [seed]: out of play [TRI-H7]."""
    from shipsheet.rules.triplanetary import lose_at_map_edge_action
    kite = session.ship("Kite")
    session.apply(damage_action(kite, drive=6))
    session.apply(lose_at_map_edge_action(kite))


TEMPLATES = [session_bytes(build_sample_session),
             session_bytes(build_sample_session, _to("Combat")),
             session_bytes(build_sample_session, _to("Ordnance"), _lost),
             session_bytes(build_sample_session, _to("Recovery")),
             session_bytes(build_sample_session, _wreck),
             session_bytes(build_sample_session, _wreck, _standard_and_eliminated, _to("Combat"))]


@SEQUENCE_SETTINGS
@given(st.data())
def _sequences(data):
    run_sequence(data, TEMPLATES, Triplanetary(STATS), STATS)


def test_random_sequences_with_undo_redo_keep_the_triplanetary_invariants():
    """1,000 sequences of 5-15 steps; every invariant after every step (module docstring)."""
    _sequences()
    print("\nTriplanetary:", STATS.summary())
    STATS.assert_exercised(Triplanetary.kinds, never_refused=("next phase", "next turn"))
    assert STATS.events["action naming a destroyed ship refused"] >= 100, STATS.summary()


# -- the bug the property found (fixed; kept as regression tests) ------------------------

def _fresh(stem: str):
    session = Session("triplanetary", name="Regression", seed=1)
    ship = session.add_ship(new_ship(get_class(f"triplanetary/{stem}"), "Target"), "Red")
    return session, ship


@pytest.mark.parametrize("stem, build", [
    ("frigate", lambda ship: damage_action(ship, weapon=10_001)),
    ("frigate", lambda ship: damage_action(ship, structure=10_001)),
    ("frigate", lambda ship: mark_level_action(ship, "standard", 10_001)),
    ("orbital-base", lambda ship: cargo_action(ship, 100_001)),
], ids=["damage weapon D10001", "damage structure D10001", "click disabled D10001",
        "orbital base cargo 100001 t"])
def test_what_the_rules_accept_is_saved_and_opens_again(stem, build):
    """Minimal form of the failure of the property above (issue 8, reliability suite).

    Every change the rules accept must leave a session that reopens: a file the user
    saved must never be refused by the same ShipSheet. ``tracks.apply_damage`` /
    ``add_standard`` added any number of D-levels and ``set_cargo`` took any tonnage on a
    ship of unlimited cargo, but ``state.check_state`` refuses a D-level above
    ``MAX_LEVEL`` (10,000) and a cargo above ``MAX_AMOUNT`` (100,000 t): the session
    saved, then "x.shipsheet: ships[0].state.weapon: 10001 is too large (at most 10000)"
    (also by accumulation: two hits of D5,001). The rule functions now refuse such
    numbers; either way: refused and nothing changed, or saved and opened to the same
    bytes.
    """
    session, ship = _fresh(stem)
    assert_refused_or_reopens(session, lambda: build(ship))

"""When guns fire (the Combat phase, once a phase) and ordnance: checked at launch, named by
its attack, spent by it."""

import pytest

from shipsheet.model import RuleViolation
from shipsheet.rules import triplanetary as tp

from tp_helpers import add


def to(session, phase):
    while session.phase != phase:
        session.next_phase()


# -- guns: the Combat phase, once per phase [TRI-H15, TRI-H16] -------------------------------

def test_gun_attacks_outside_the_combat_phase_are_refused(session):
    ajax, kite = add(session, "frigate", "Ajax"), add(session, "corsair", "Kite", "Pirates")
    for phase in ("Movement", "Ordnance", "Recovery"):
        to(session, phase)
        with pytest.raises(RuleViolation, match=f"Combat phase; this is the {phase} phase.*TRI-H15"):
            session.apply(tp.attack(ajax, kite, to_hit_roll=6, damage_rolls=[3, 3]))
    assert tp.levels(kite)["structure"] == 0


def test_the_referee_may_allow_an_attack_out_of_phase_and_the_log_says_so(session):
    ajax, kite = add(session, "frigate", "Ajax"), add(session, "corsair", "Kite", "Pirates")
    session.apply(tp.attack(ajax, kite, to_hit_roll=6, damage_rolls=[3, 3], out_of_phase=True))
    assert tp.levels(kite)["structure"] == 2
    assert "Referee: gun attack out of phase (Movement): referee's ruling" in session.log_text()


def test_a_ship_fires_once_per_combat_phase_and_a_counter_attack_is_its_own(session):
    """Kite attacks Ajax; Ajax counter-attacks Kite in the same phase (it has not fired); a
    second attack by Kite is refused unless the referee ticks "second attack"."""
    ajax = add(session, "frigate", "Ajax")
    kite = add(session, "corsair", "Kite", "Pirates")
    to(session, tp.COMBAT)
    session.apply(tp.attack(kite, ajax, to_hit_roll=1))          # 4 vs 8: 1:2, a 1 misses
    session.apply(tp.attack(ajax, kite, to_hit_roll=6, damage_rolls=[3, 3]))  # counter-attack
    with pytest.raises(RuleViolation, match="Kite has fired in this Combat phase already.*TRI-H16"):
        session.apply(tp.attack(kite, ajax, to_hit_roll=6))
    session.apply(tp.attack(kite, ajax, to_hit_roll=5, damage_rolls=[2], second_attack=True))
    assert "Referee: second attack this Combat phase for Kite" in session.log_text()
    session.next_turn()
    to(session, tp.COMBAT)
    session.apply(tp.attack(kite, ajax, to_hit_roll=1))          # a new Combat phase


def test_undoing_an_attack_gives_the_ship_its_fire_back(session):
    ajax, kite = add(session, "frigate", "Ajax"), add(session, "corsair", "Kite", "Pirates")
    to(session, tp.COMBAT)
    session.apply(tp.attack(ajax, kite, to_hit_roll=1))
    session.undo()
    session.apply(tp.attack(ajax, kite, to_hit_roll=1))


def test_the_plan_preview_refuses_out_of_phase_with_the_same_words(session):
    from shipsheet.rules.triplanetary.planning import AttackPlan, Die
    ajax, kite = add(session, "frigate", "Ajax"), add(session, "corsair", "Kite", "Pirates")
    plan = AttackPlan(attackers=[ajax], targets=[kite], to_hit=Die(6), damage=[Die(3), Die(3)])
    assert "TRI-H15" in plan.work_out(session).problem
    plan.out_of_phase = True
    assert plan.work_out(session).result is not None
    session.apply(plan.action())
    assert "out of phase" in session.log_text()


# -- launching ordnance: checked at launch, with the rule's words ----------------------------

@pytest.mark.parametrize("stem, damage, kind, words", [
    ("frigate", {"weapon": 1}, "torpedo",
     "A ship with any weapon damage cannot fire any weapon or drop ordnance"),
    ("frigate", {"weapon": 1}, "mine", "cannot fire any weapon or drop ordnance"),
    ("transport", {"weapon": 1}, "mine",
     "Weapon hits on transports and packets prevent their launching mines"),
    ("packet", {"weapon": 2}, "mine", "prevent their launching mines"),
    ("dreadnaught", {"weapon": 2}, "torpedo", "dreadnaught can still fire at D1 through D3, but "
                                              "drops no ordnance .house rule TRI-H24"),
    ("tanker", {}, "mine", "defensive only: it drops no ordnance .house rule TRI-H6"),
    ("transport", {}, "torpedo", "A Transport launches mines only, not torpedos .house rule TRI-H17"),
])
def test_a_launch_the_rules_forbid_is_refused_with_their_words(session, stem, damage, kind, words):
    ship = add(session, stem, "Source", **damage)
    to(session, tp.ORDNANCE)
    before = dict(ship.state)
    with pytest.raises(RuleViolation, match=words):
        session.apply(tp.launch_ordnance_action(ship, kind))
    assert ship.state == before


def test_what_each_type_may_launch(session):
    """[TRI-H17] warships and the base: torpedoes, mines, nukes; transports and packets:
    mines; tankers and liners: none."""
    kinds = {stem: tp.launchable_kinds(add(session, stem, stem))
             for stem in ("frigate", "orbital-base", "transport", "packet", "tanker", "liner")}
    assert kinds == {"frigate": ("torpedo", "mine", "nuke"),
                     "orbital-base": ("torpedo", "mine", "nuke"),
                     "transport": ("mine",), "packet": ("mine",), "tanker": (), "liner": ()}


def test_launches_are_numbered_one_a_turn_in_the_ordnance_phase(session):
    kite = add(session, "corsair", "Kite", "Pirates")
    with pytest.raises(RuleViolation, match="Ordnance phase; this is the Movement phase.*TRI-H18"):
        session.apply(tp.launch_ordnance_action(kite, "mine"))
    to(session, tp.ORDNANCE)
    session.apply(tp.launch_ordnance_action(kite, "mine"))
    with pytest.raises(RuleViolation, match="launched ordnance this turn already.*TRI-H18"):
        session.apply(tp.launch_ordnance_action(kite, "torpedo"))
    session.apply(tp.launch_ordnance_action(kite, "torpedo", second_launch=True))
    assert [(e["n"], e["kind"], e["turn"]) for e in tp.in_flight(kite)] == [
        (1, "mine", 1), (2, "torpedo", 1)]
    assert "Referee: second launch this turn: referee's ruling" in session.log_text()
    session.next_turn()
    to(session, tp.ORDNANCE)
    session.apply(tp.launch_ordnance_action(kite, "nuke"))
    assert "launches nuke 3 (its effect is marked by hand: house rule TRI-H20)" in session.log_text()


# -- an ordnance attack names its launch or its source [TRI-H19] -----------------------------

def test_an_ordnance_attack_spends_its_launch(session):
    kite = add(session, "corsair", "Kite", "Pirates")
    mule = add(session, "transport", "Ceres Mule")
    to(session, tp.ORDNANCE)
    session.apply(tp.launch_ordnance_action(kite, "mine"))
    session.next_turn()
    session.apply(tp.other_damage("mine", mule, sources=kite, launch=1, to_hit_roll=6,
                                  damage_rolls=[2, 1]))
    assert tp.in_flight(kite) == []
    assert "Kite's mine 1 (turn 1) is spent" in session.log_text()
    with pytest.raises(RuleViolation, match="Kite has no launch 1 in flight"):
        session.apply(tp.other_damage("mine", mule, sources=kite, launch=1, to_hit_roll=6))
    session.undo()
    assert [e["n"] for e in tp.in_flight(kite)] == [1]


def test_an_ordnance_attack_is_refused_for_its_source(session):
    """[seed] "A ship with any weapon damage cannot fire any weapon or drop ordnance": a
    torpedo from a frigate at weapons D1 is refused, its source checked as at launch."""
    ajax = add(session, "frigate", "Ajax", weapon=1)
    kite = add(session, "corsair", "Kite", "Pirates")
    with pytest.raises(RuleViolation, match="cannot fire any weapon or drop ordnance: Ajax"):
        session.apply(tp.other_damage("torpedo", kite, sources=ajax, to_hit_roll=6))
    with pytest.raises(RuleViolation, match="names its launch or the ship that launched it"):
        session.apply(tp.other_damage("torpedo", kite, to_hit_roll=6))
    assert tp.levels(kite)["structure"] == 0
    session.apply(tp.other_damage("mine", kite, no_source=True, to_hit_roll=1))
    assert "Referee: mine with no source named: referee's ruling" in session.log_text()


def test_a_launch_of_the_wrong_kind_is_refused(session):
    kite = add(session, "corsair", "Kite", "Pirates")
    ajax = add(session, "frigate", "Ajax")
    to(session, tp.ORDNANCE)
    session.apply(tp.launch_ordnance_action(kite, "mine"))
    with pytest.raises(RuleViolation, match="launch 1 is a mine, not a torpedo"):
        session.apply(tp.other_damage("torpedo", ajax, sources=kite, launch=1, to_hit_roll=6))


def test_ordnance_in_flight_may_be_removed_and_saves(session):
    from shipsheet.model.storage import parse_session_bytes, session_to_bytes
    kite = add(session, "corsair", "Kite", "Pirates")
    to(session, tp.ORDNANCE)
    session.apply(tp.launch_ordnance_action(kite, "torpedo"))
    again = parse_session_bytes(session_to_bytes(session)).ship(kite.id)
    assert tp.in_flight(again) == [{"n": 1, "kind": "torpedo", "turn": 1}]
    session.apply(tp.remove_ordnance_action(kite, 1))
    assert tp.in_flight(kite) == [] and kite.state["next_launch"] == 2


def test_a_ship_out_of_play_is_the_source_of_no_attack(session):
    """Found by the reliability sequences: an asteroid or ram attack recorded a lost ship as
    its source. [TRI-H7] a ship out of play can do nothing."""
    raven = add(session, "frigate", "Raven", "Pirates")
    mule = add(session, "transport", "Ceres Mule")
    session.apply(tp.lose_at_map_edge_action(raven, referee=True))
    for kind in ("ram", "asteroid", "mine"):
        with pytest.raises(RuleViolation, match="Raven is lost at the map edge: it cannot be "
                                                "the source of an attack"):
            session.apply(tp.other_damage(kind, mule, sources=raven, to_hit_roll=6))
    assert tp.levels(mule)["drive"] == 0

"""Attack resolution: odds, modifiers, rolls typed or drawn, several targets, refusals,
and an attack applied through a Session as one undo step."""

import random

import pytest

from shipsheet.model import Dice, RuleViolation, Session, get_class, new_ship
from shipsheet.rules.triplanetary import (Damage, apply_attack, apply_damage, attack,
                                          other_damage, resolve_attack, resolve_other, status)


def combat_session(seed):
    """A session in the Combat phase, where gun attacks are made [TRI-H15]."""
    s = Session("triplanetary", seed=seed)
    while s.phase != "Combat":
        s.next_phase()
    return s


def ship(stem, name=None, **damage):
    s = new_ship(get_class(f"triplanetary/{stem}"), name or stem.capitalize())
    if damage:
        apply_damage(s, **damage)
    return s


def test_gun_attack_with_typed_dice():
    """[seed] "Two die rolls are made for each attack. The first roll determines if any hits
    are scored ... Then a damage roll is made for each hit." Frigate 8 vs corsair 4 is 2:1;
    a 6 on 2:1 is 2 hits; damage 3 is "1 structure D", 5 is "1 weapon D, 1 drive D"."""
    frigate, corsair = ship("frigate"), ship("corsair")
    r = resolve_attack([frigate], [corsair], to_hit_roll=6, damage_rolls=[3, 5])
    assert (r.attack, r.defense, r.column, r.roll, r.modified_roll, r.hits) == \
        (8, 4, "2:1", 6, 6, 2)
    assert [(d.roll, d.damage) for d in r.damage_rolls] == [
        (3, Damage(structure=1)), (5, Damage(weapon=1, drive=1))]
    (t,) = r.targets
    assert t.damage == Damage(weapon=1, drive=1, structure=1)
    assert (t.before.weapon, t.after.weapon, t.after.drive, t.after.structure) == (0, 1, 1, 1)
    assert t.after.disabled and not t.before.disabled
    # nothing applied yet
    assert status(corsair).weapon == 0
    assert r.headline() == "Guns 8 vs 4 (2:1), roll 6: 2 hits"


def test_modifiers_applied_to_the_to_hit_roll():
    """[2018] "−1 per hex of range; −1 per hex of relative velocity beyond 2; +1 for a heroic
    ship." 8 vs 8 is 1:1: roll 6 at range 2, velocity 3, heroic: 6 − 2 − 1 + 1 = 4 -> 1 hit."""
    a, b = ship("frigate", "A"), ship("frigate", "B")
    r = resolve_attack(a, b, range=2, relative_velocity=3, heroic=True, to_hit_roll=6,
                       damage_rolls=[1])
    assert (r.modifier, r.modified_roll, r.hits) == (-2, 4, 1)
    assert r.headline() == "Guns 8 vs 8 (1:1), roll 6 − 2 = 4: 1 hit"
    # Each modifier with its reason, as the attack dialog shows them (it computes none).
    assert r.modifiers == (("range 2", -2), ("relative velocity 3", -1), ("heroic", 1))


def test_strengths_add_and_say_whose_they_are():
    """[2018] "Ships attacking or defending together add their strengths": frigate 8 and
    corsair 4 attack at 12."""
    from shipsheet.rules.triplanetary import combined_strength
    total, parts = combined_strength([ship("frigate", "Kite"), ship("corsair", "Wasp")])
    assert total == 12 and [name for name, _ in parts] == ["Kite", "Wasp"]
    assert parts[0][1] == ship("frigate").ship_class.spec.strength_label


def test_other_damage_keeps_the_referees_modifier_with_its_reason():
    r = resolve_other("torpedo", ship("corsair"), modifier=-1, to_hit_roll=4, damage_rolls=[1],
                      sources=ship("frigate"))
    assert r.modifiers == (("die modifier (house rule TRI-H5)", -1),)


def test_modified_roll_below_1_has_no_effect():
    """[2018] "A modified roll below 1 has no effect" — even on 4:1 where a 1 hits."""
    r = resolve_attack(ship("dreadnaught"), ship("corvette"), range=3, to_hit_roll=3)
    assert (r.column, r.modified_roll, r.hits) == ("4:1", 0, 0)
    assert r.no_effect and r.targets[0].after == r.targets[0].before


def test_less_than_full_strength():
    """[2018] "A ship may attack at less than its full strength." Frigate at 4 vs frigate 8
    is 1:2; a 5 on 1:2 is 1 hit."""
    r = resolve_attack(ship("frigate", "A"), ship("frigate", "B"), strength=4, to_hit_roll=5,
                       damage_rolls=[2])
    assert (r.attack, r.full_strength, r.column, r.hits) == (4, 8, "1:2", 1)
    assert r.headline().startswith("Guns 4 of 8 vs 8 (1:2)")
    with pytest.raises(RuleViolation, match="full strength is 8"):
        resolve_attack(ship("frigate", "A"), ship("frigate", "B"), strength=9, to_hit_roll=5)
    with pytest.raises(RuleViolation):
        resolve_attack(ship("frigate", "A"), ship("frigate", "B"), strength=0, to_hit_roll=5)


def test_several_attackers_and_targets_add_their_strengths():
    """[2018] "Several attackers add their strengths; several targets attacked together in one
    hex add theirs." Corsair 4 + corvette 2 = 6 vs transport 1 + tanker 1 = 2: 3:1."""
    r = resolve_attack([ship("corsair"), ship("corvette")], [ship("transport"), ship("tanker")],
                       to_hit_roll=2, damage_rolls=[6])
    assert (r.attack, r.defense, r.column, r.hits) == (6, 2, "3:1", 1)


def test_each_target_takes_every_damage_roll_by_default():
    """[house] several targets: each damage roll applies to each target."""
    t1, t2 = ship("transport", "T1"), ship("tanker", "T2")
    r = resolve_attack(ship("frigate"), [t1, t2], to_hit_roll=4, damage_rolls=[2, 3])
    assert r.distribute == "each"
    assert [t.damage for t in r.targets] == [Damage(drive=1, structure=1)] * 2


def test_damage_rolls_dealt_in_turn():
    """[house] distribute="in-turn": one damage roll per target, first target first."""
    t1, t2 = ship("transport", "T1"), ship("tanker", "T2")
    # 8 vs 2 is 4:1; a 6 is 3 hits.
    r = resolve_attack(ship("frigate"), [t1, t2], to_hit_roll=6, damage_rolls=[1, 2, 3],
                       distribute="in-turn")
    assert [t.damage for t in r.targets] == [Damage(weapon=1, structure=1), Damage(drive=1)]
    assert [d.targets for d in r.damage_rolls] == [(t1.id,), (t2.id,), (t1.id,)]


def test_worse_than_1_to_4_needs_no_roll():
    """[2018] "worse than 1:4 has no effect"."""
    r = resolve_attack(ship("corvette"), ship("orbital-base"))   # 2 vs 16
    assert r.column is None and r.roll is None and r.no_effect
    assert r.headline() == "Guns 2 vs 16 (worse than 1:4): no effect"


def test_rolls_drawn_from_the_session_dice_are_reproducible():
    a, b = ship("frigate", "A"), ship("corsair", "B")
    r1 = resolve_attack(a, b, rng=Dice(seed=42))
    r2 = resolve_attack(a, b, rng=Dice(seed=42))
    assert r1 == r2
    assert all(d.rolled for d in r1.damage_rolls) and r1.roll_rolled
    assert len(r1.damage_rolls) == r1.hits
    # any object with randint will do
    r3 = resolve_attack(a, b, rng=random.Random(1))
    assert 1 <= r3.roll <= 6


def test_typed_and_drawn_damage_rolls_mix():
    a, b = ship("dreadnaught"), ship("corvette")     # 15 vs 2: 4:1; a 6 is 3 hits
    r = resolve_attack(a, b, to_hit_roll=6, damage_rolls=[1], rng=Dice(seed=5))
    assert [d.rolled for d in r.damage_rolls] == [False, True, True]


@pytest.mark.parametrize("kw,match", [
    ({"to_hit_roll": 7}, "impossible"),
    ({"to_hit_roll": 0}, "impossible"),
    ({"to_hit_roll": "6"}, "whole number"),
    ({"to_hit_roll": 6, "damage_rolls": [3, 9]}, "impossible"),
    ({"to_hit_roll": 6, "damage_rolls": [3, 3, 3]}, "2 hits need 2 damage rolls"),
    ({"to_hit_roll": 6, "damage_rolls": [3]}, "give 2 damage rolls"),
    ({}, "to-hit roll"),
    ({"to_hit_roll": 6, "range": -1}, "range"),
    ({"to_hit_roll": 6, "combat": "fancy"}, "combat system"),
    ({"to_hit_roll": 6, "distribute": "random"}, "distribute"),
])
def test_bad_rolls_and_options_refused(kw, match):
    with pytest.raises(RuleViolation, match=match):
        resolve_attack(ship("frigate"), ship("corsair"), **kw)


def test_defensive_only_ship_may_never_attack():
    """[2018] "D" after the combat strength: "the ship may never attack or counterattack"."""
    with pytest.raises(RuleViolation, match="defensive only"):
        resolve_attack(ship("liner"), ship("corvette"), to_hit_roll=6)


def test_ship_that_cannot_fire_may_not_attack():
    """[seed] "A ship with any weapon damage cannot fire any weapon"."""
    with pytest.raises(RuleViolation, match="cannot fire"):
        resolve_attack([ship("frigate", weapon=1)], ship("corsair"), to_hit_roll=6)
    # the dreadnaught exception: D3 still fires (15 vs 4: 3:1, a 2 is 1 hit)
    r = resolve_attack(ship("dreadnaught", weapon=3), ship("corsair"), to_hit_roll=2,
                       damage_rolls=[1])
    assert r.hits == 1


def test_weapons_d6_still_defends_normally():
    """[seed] "A ship whose weapons reach D6 or below can no longer repair them ... It still
    defends normally." A frigate (8) at weapons D6 still defends at 8: dreadnaught 15 against
    it is 1:1; a 4 on 1:1 is 1 hit."""
    r = resolve_attack(ship("dreadnaught"), ship("frigate", weapon=6), to_hit_roll=4,
                       damage_rolls=[3])
    assert (r.defense, r.column, r.hits) == (8, "1:1", 1)


def test_destroyed_ships_neither_attack_nor_are_attacked():
    with pytest.raises(RuleViolation, match="destroyed"):
        resolve_attack(ship("frigate", structure=6), ship("corsair"), to_hit_roll=6)
    with pytest.raises(RuleViolation, match="already destroyed"):
        resolve_attack(ship("frigate"), ship("corsair", structure=6), to_hit_roll=6)


def test_no_ship_on_both_sides():
    a = ship("frigate")
    with pytest.raises(RuleViolation, match="itself"):
        resolve_attack(a, [a], to_hit_roll=6)


def test_other_damage_torpedo():
    """[seed] Other damage, Torps: a 6 is 3 hits."""
    target = ship("frigate")
    r = resolve_other("torpedo", target, to_hit_roll=6, damage_rolls=[3, 3, 3],
                      sources=ship("corsair"))
    assert (r.kind, r.hits, r.column) == ("torpedo", 3, None)
    assert r.targets[0].after.structure == 3
    assert r.headline() == "Torpedo, roll 6: 3 hits"
    with pytest.raises(RuleViolation, match="laser"):
        resolve_other("laser", target, to_hit_roll=6)
    # a referee modifier with the 1–6 limits: 6 + 2 counts as 6; 3 − 3 = 0 is no effect
    assert resolve_other("mine", target, to_hit_roll=6, modifier=2, no_source=True,
                         damage_rolls=[1, 1]).hits == 2
    assert resolve_other("ram", target, to_hit_roll=3, modifier=-3).hits == 0


def test_attack_applied_through_a_session_is_one_undo_step():
    """The issue: "One Apply = one undo step = one log entry per target"."""
    s = combat_session(7)
    dread = s.add_ship(ship("dreadnaught", "Vigilant"), "Mars")
    t1 = s.add_ship(ship("corsair", "Kite"), "Pirates")
    t2 = s.add_ship(ship("corvette", "Wasp"), "Pirates")
    # 15 vs 6: 2:1 (2.5 rounds down); a 5 is 2 hits; 6 = 1 structure D, 1 drive D, 4 = 1
    # weapon D, 1 structure D.
    r = resolve_attack(dread, [t1, t2], to_hit_roll=5, damage_rolls=[6, 4])
    log_before = len(s.log)
    s.apply(apply_attack(r))
    for t in (t1, t2):
        st = status(t)
        assert (st.weapon, st.drive, st.structure) == (1, 1, 2)
    new = s.log[log_before:]
    assert new[0].text == "Gun attack on Kite, Wasp" and new[0].kind == "action"
    per_target = [e for e in new if e.ship in (t1.id, t2.id)]
    assert [e.ship for e in per_target] == [t1.id, t2.id]
    assert "Now weapons D1, drive D1, structure D2." in per_target[0].text
    assert s.undo_status().undo == "Gun attack on Kite, Wasp"
    s.undo()
    assert status(t1).structure == 0 and status(t2).structure == 0
    assert all(e.undone for e in s.log[log_before:])
    s.redo()
    assert status(t2).structure == 2


def test_applying_a_stale_result_is_refused_whole():
    s = combat_session(7)
    a = s.add_ship(ship("frigate", "Ajax"))
    t1 = s.add_ship(ship("corvette", "Wasp"))
    t2 = s.add_ship(ship("corvette", "Gnat"))
    r = resolve_attack(a, [t1, t2], to_hit_roll=6, damage_rolls=[1, 1])   # 8 vs 4: 2:1, 2 hits
    from shipsheet.rules.triplanetary import damage_action
    s.apply(damage_action(t2, structure=6))          # Gnat blows up meanwhile
    with pytest.raises(RuleViolation, match="Gnat is already destroyed"):
        s.apply(apply_attack(r))
    assert status(t1).weapon == 0                    # nothing half-applied


def test_attack_action_rolls_inside_and_undo_rewinds_the_dice():
    s = combat_session(11)
    a = s.add_ship(ship("frigate", "Ajax"))
    t = s.add_ship(ship("corvette", "Wasp"))
    s.apply(attack(a, t))
    first = dict(t.state)
    rolls = [e.text for e in s.log if e.kind == "roll"]
    assert rolls and rolls[0].endswith("for the to-hit roll")
    s.undo()
    s.apply(attack(a, t))
    assert t.state == first                           # same dice again after undo
    s.apply(other_damage("asteroid", t, to_hit_roll=1))
    assert "Asteroid, roll 1: no effect" in s.log_text()


def test_preview_lines_say_what_each_damage_roll_did():
    """For the attack dialog's preview: one line per damage roll that hits the target."""
    t1, t2 = ship("transport", "T1"), ship("tanker", "T2")
    r = resolve_attack(ship("frigate"), [t1, t2], to_hit_roll=6, damage_rolls=[4, 2, 3],
                       distribute="in-turn")
    assert r.lines_for(t1.id) == ["damage roll 1: 4 (typed in) → 1 weapon D, 1 structure D",
                                  "damage roll 3: 3 (typed in) → 1 structure D"]
    assert r.lines_for(t2.id) == ["damage roll 2: 2 (typed in) → 1 drive D"]
    miss = resolve_attack(ship("corvette"), t1, to_hit_roll=1)   # 2 vs 1: 2:1, a 1 misses
    assert miss.lines_for(t1.id) == ["no effect"]


def test_the_referee_may_set_the_defense_strength():
    """[TRI-H28] frigate 8 against a corsair the referee rates at 16: 1:2 instead of 2:1."""
    r = resolve_attack(ship("frigate"), ship("corsair"), defense=16, to_hit_roll=5,
                       damage_rolls=[3])
    assert (r.attack, r.defense, r.column, r.hits) == (8, 16, "1:2", 1)
    with pytest.raises(RuleViolation, match="defense strength"):
        resolve_attack(ship("frigate"), ship("corsair"), defense=-1, to_hit_roll=5)

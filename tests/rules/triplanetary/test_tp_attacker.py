"""Attacks record their attacker: the line of each target names the attacking ship
(``LogEntry.by``), for the play-by-e-mail turn reports; a joint attack gives each
attacker a line of its own; ordnance attacks record their source."""

import pytest

from shipsheet.model import RuleViolation
from shipsheet.model.actions import NextPhase
from shipsheet.rules import triplanetary as tp
from shipsheet.rules.triplanetary.actions import damage_action, standard_result_action

from tp_helpers import add


def to_phase(session, phase):
    while session.phase != phase:
        session.apply(NextPhase())


def test_a_gun_attack_records_its_attacker_on_the_targets_line(session):
    ajax = add(session, "frigate", "Ajax", "Mars")
    kite = add(session, "corsair", "Kite", "Pirates")
    to_phase(session, "Combat")
    start = len(session.log)
    session.apply(tp.attack(ajax, kite, to_hit_roll=6, damage_rolls=[4]))
    target_lines = [e for e in session.log[start:] if e.ship == kite.id]
    assert len(target_lines) == 1 and target_lines[0].by == ajax.id
    assert all(e.by is None for e in session.log[start:] if e.ship != kite.id)


def test_a_joint_attack_names_each_attacker(session):
    ajax = add(session, "frigate", "Ajax", "Mars")
    vigilant = add(session, "dreadnaught", "Vigilant", "Venus")
    kite = add(session, "corsair", "Kite", "Pirates")
    wasp = add(session, "corvette", "Wasp", "Pirates")
    to_phase(session, "Combat")
    start = len(session.log)
    session.apply(tp.attack([ajax, vigilant], [kite, wasp], to_hit_roll=6))
    new = session.log[start:]
    assert [e.by for e in new if e.ship in (kite.id, wasp.id)] == [ajax.id, ajax.id]
    joint = {e.ship: e.text for e in new if e.ship in (ajax.id, vigilant.id)}
    assert joint == {ajax.id: "attacks Kite, Wasp together with Vigilant",
                     vigilant.id: "attacks Kite, Wasp together with Ajax"}


def test_a_mine_attack_records_its_source(session):
    kite = add(session, "corsair", "Kite", "Pirates")
    mule = add(session, "transport", "Mule", "Mars")
    to_phase(session, "Ordnance")
    session.apply(tp.launch_ordnance_action(kite, "mine"))
    to_phase(session, "Combat")
    start = len(session.log)
    session.apply(tp.other_damage("mine", mule, sources=kite, launch=1, to_hit_roll=6,
                                  damage_rolls=[2, 2]))
    target = [e for e in session.log[start:] if e.ship == mule.id]
    assert len(target) == 1 and target[0].by == kite.id


def test_a_mine_with_no_source_records_no_attacker(session):
    mule = add(session, "transport", "Mule", "Mars")
    start = len(session.log)
    session.apply(tp.other_damage("mine", mule, no_source=True, to_hit_roll=6,
                                  damage_rolls=[2, 2]))
    assert all(e.by is None for e in session.log[start:])


def test_damage_marked_by_hand_may_name_its_attacker(session):
    ajax = add(session, "frigate", "Ajax", "Mars")
    kite = add(session, "corsair", "Kite", "Pirates")
    start = len(session.log)
    session.apply(damage_action(kite, weapon=1, attacker=ajax))
    session.apply(standard_result_action(kite, "D2", attacker=ajax.id))
    session.apply(damage_action(kite, drive=1))
    details = [e for e in session.log[start:] if e.kind == "detail"]
    assert [e.by for e in details] == [ajax.id, ajax.id, None]
    assert details[0].text.startswith("1 weapon D")  # the line itself is as before
    with pytest.raises(RuleViolation, match="own attacker"):
        session.apply(damage_action(kite, weapon=1, attacker=kite))
    with pytest.raises(RuleViolation, match="no ship"):
        session.apply(damage_action(kite, weapon=1, attacker="ghost"))

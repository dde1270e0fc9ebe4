"""The owner's recovery choice and the recovery every damaged ship makes when the turn ends.

[seed] "A ship recovers from 1 D a turn, just as in regular combat. The ship's owner
chooses what kind of damage to recover from." Recovery is never a silent forfeit.
"""

import pytest

from shipsheet.model import RuleViolation
from shipsheet.model.storage import parse_session_bytes, session_to_bytes
from shipsheet.rules import triplanetary as tp

from tp_helpers import add


def test_the_owners_choice_is_carried_out_when_the_turn_ends(session):
    """Chosen in the Movement phase; "The ship's owner chooses what kind of damage to recover
    from": drive, although weapons are worse."""
    a = add(session, weapon=3, drive=1)
    session.apply(tp.choose_recovery_action(a, "drive"))
    assert session.undo_status().undo == "Recovery choice: drive"
    assert tp.planned_recovery(a) == ("drive", "owner's choice")
    session.next_turn()
    assert (tp.status(a).weapon, tp.status(a).drive) == (3, 0)
    assert "recovers 1 D (owner's choice): drive D1 → D0" in session.log_text()


def test_with_one_damaged_track_there_is_nothing_to_choose(session):
    a = add(session, structure=2)
    assert not tp.needs_choice(a)
    assert tp.GAME.choices_before_turn_end(session) == []
    session.next_turn()
    assert tp.status(a).structure == 1
    assert "recovers 1 D (the only track it can recover): structure D2 → D1" in session.log_text()


def test_one_track_it_can_recover_is_no_choice_either(session):
    """[seed] weapons at D6 "can no longer repair them": drive is the only track left."""
    a = add(session, weapon=6, drive=2)
    assert tp.planned_recovery(a) == ("drive", "the only track it can recover")
    assert not tp.needs_choice(a)


def test_no_choice_applies_the_stated_default_and_says_so(session):
    """[TRI-H13] the highest D-level; ties in the order drive, weapons, structure."""
    a = add(session, name="Ajax", weapon=1, drive=1, structure=1)
    b = add(session, name="Hermes", weapon=1, structure=4)
    c = add(session, name="Ceres", weapon=2, structure=2)
    assert [s.name for s in tp.GAME.choices_before_turn_end(session)] == ["Ajax", "Hermes", "Ceres"]
    session.next_turn()
    assert (tp.levels(a)["drive"], tp.levels(b)["structure"], tp.levels(c)["weapon"]) == (0, 3, 1)
    text = session.log_text()
    assert text.count("default choice: highest D-level, house rule TRI-H13") == 3 * 2  # noted, done


def test_a_ship_that_recovered_this_turn_recovers_nothing_more(session):
    a = add(session, weapon=2, drive=2)
    while session.phase != tp.RECOVERY_PHASE:
        session.next_phase()
    session.apply(tp.recover_action(a, "weapon"))
    assert tp.planned_recovery(a) is None and not tp.needs_choice(a)
    session.next_turn()
    assert tp.levels(a)["weapon"] == 1 and tp.levels(a)["drive"] == 2


def test_a_choice_of_tracks_in_order_of_preference_stands_from_turn_to_turn(session):
    """[TRI-H14] the first chosen track the ship can recover is used, turn after turn."""
    a = add(session, weapon=2, drive=1, structure=3)
    session.apply(tp.choose_recovery_action(a, ["drive", "weapon"]))
    assert tp.recovery_choice(a) == ("drive", "weapon")
    session.next_turn()   # drive D1 -> D0
    session.next_turn()   # drive is clean: weapons D2 -> D1
    session.next_turn()   # weapons D1 -> D0
    session.next_turn()   # neither left: only structure remains, D3 -> D2
    assert tp.levels(a) == {"weapon": 0, "drive": 0, "structure": 2, "standard": 0}
    assert tp.recovery_choice(a) == ("drive", "weapon")


def test_clearing_the_choice_brings_back_the_default(session):
    a = add(session, weapon=1, drive=2)
    session.apply(tp.choose_recovery_action(a, "weapon"))
    session.apply(tp.choose_recovery_action(a, None))
    assert session.undo_status().undo == "Recovery choice: none (the default applies)"
    assert tp.planned_recovery(a)[1].startswith("default choice")


@pytest.mark.parametrize("tracks, message", [
    ("laser", 'Unknown track "laser"'),
    (["drive", "drive"], "listed twice"),
    ("standard", "needs no choice"),
])
def test_a_bad_choice_is_refused_and_changes_nothing(session, tracks, message):
    a = add(session, weapon=1, drive=1)
    before = dict(a.state)
    with pytest.raises(RuleViolation, match=message):
        session.apply(tp.choose_recovery_action(a, tracks))
    assert a.state == before


def test_the_same_choice_twice_is_refused(session):
    a = add(session, weapon=1, drive=1)
    session.apply(tp.choose_recovery_action(a, "weapon"))
    with pytest.raises(RuleViolation, match="already weapons"):
        session.apply(tp.choose_recovery_action(a, "weapon"))


def test_a_destroyed_ship_has_no_choice_and_recovers_nothing(session):
    a = add(session, weapon=1, structure=6)
    with pytest.raises(RuleViolation, match="destroyed"):
        session.apply(tp.choose_recovery_action(a, "weapon"))
    session.next_turn()
    assert tp.levels(a)["weapon"] == 1


def test_the_choice_is_one_undo_step_and_undoing_the_turn_undoes_the_recovery(session):
    a = add(session, weapon=1, drive=1)
    session.apply(tp.choose_recovery_action(a, "weapon"))
    session.next_turn()
    assert tp.levels(a)["weapon"] == 0
    session.undo()
    assert tp.levels(a)["weapon"] == 1 and tp.recovery_choice(a) == ("weapon",)
    session.undo()
    assert tp.recovery_choice(a) == ()


def test_the_choice_saves_and_opens_again(session):
    a = add(session, weapon=1, drive=1)
    session.apply(tp.choose_recovery_action(a, ["weapon", "drive"]))
    again = parse_session_bytes(session_to_bytes(session))
    assert tp.recovery_choice(again.ship(a.id)) == ("weapon", "drive")


def test_standard_combat_keeps_its_own_rule(session):
    """[TRI-H9] the single disabled track recovers by itself, whatever the choice."""
    a = add(session, name="Ajax")
    kite = add(session, "corsair", "Kite", "Pirates")
    session.apply(tp.combat_option_action("standard"))
    while session.phase != tp.COMBAT:
        session.next_phase()
    session.apply(tp.attack(a, kite, to_hit_roll=4))  # 2:1, roll 4: D3
    assert tp.GAME.choices_before_turn_end(session) == []
    session.next_turn()
    assert tp.standard_level(kite) == 2
    assert "standard combat: the single disabled track, house rule TRI-H9" in session.log_text()


def test_the_disabled_track_shows_under_standard_combat_and_while_a_ship_carries_its_damage(session):
    """[TRI-H9] The recovery views show the single disabled track when the session uses the
    standard table, or while a ship still carries damage from it (the table switched off
    after it hit): it recovers as before. Otherwise the three tracks alone."""
    a = add(session, name="Ajax")
    kite = add(session, "corsair", "Kite", "Pirates")
    three = list(tp.TRACKS)
    assert tp.tracks_shown(session.ships, standard=False) == three
    assert tp.tracks_shown(session.ships, standard=True) == three + [tp.STANDARD_TRACK]
    kite.state[tp.STANDARD_TRACK] = 2
    assert tp.tracks_shown(session.ships, standard=False) == three + [tp.STANDARD_TRACK]
    assert tp.tracks_shown([a], standard=False) == three  # Ajax carries none of it
    assert tp.track_level(kite, tp.STANDARD_TRACK) == 2 and tp.track_level(a, "weapon") == 0


def test_the_recovery_phase_says_what_each_ship_will_recover(session):
    add(session, weapon=2, drive=1)
    while session.phase != tp.RECOVERY_PHASE:
        session.next_phase()
    assert ("Ajax: will recover 1 D at the end of the turn (default choice: highest D-level, "
            "house rule TRI-H13): weapons D2 → D1") in session.log_text()

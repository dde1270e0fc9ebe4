"""A volley records its attacker: every log line about the target names the ship that fired
(``LogEntry.by``), for the play-by-e-mail turn reports. Without an attacker nothing changes."""

import pytest

from shipsheet.model import RuleViolation, Session, get_class, new_ship
from shipsheet.model.storage import parse_session_bytes, session_to_bytes
from shipsheet.rules.fedcom import volley_action


def two_ships():
    session = Session("fedcom", seed=1234)
    target = session.add_ship(new_ship(get_class("fedcom/sample-heavy-cruiser"), "Resolute"), "Blue")
    attacker = session.add_ship(new_ship(get_class("fedcom/sample-drone-cruiser"), "Hornet"), "Red")
    return session, target, attacker


def test_a_volley_with_an_attacker_records_it_on_every_line_about_the_target():
    session, target, attacker = two_ships()
    start = len(session.log)
    change = session.apply(volley_action(target, 24, shield=1, attacker=attacker))
    assert change.name == "Volley of 24 from Hornet at Resolute, shield #1"
    entries = session.log[start:]
    details = [e for e in entries if e.kind == "detail"]
    assert details and all(e.ship == target.id and e.by == attacker.id for e in details)
    assert any(e.text.startswith("Volley 1, point 1:") for e in details)
    assert all(e.ship == target.id for e in entries)  # the log's ship filter is unchanged


def test_an_attacker_given_by_id_is_recorded_too_and_survives_save_and_load():
    session, target, attacker = two_ships()
    start = len(session.log)
    session.apply(volley_action(target, 24, shield=1, rolls=[3], attacker=attacker.id))
    assert session.undo_status().undo == "Volley of 24 at Resolute, shield #1"
    loaded = parse_session_bytes(session_to_bytes(session))
    assert {e.by for e in loaded.log[start:] if e.kind == "detail"} == {attacker.id}


def test_without_an_attacker_the_volley_logs_as_before():
    session, target, _ = two_ships()
    start = len(session.log)
    session.apply(volley_action(target, 24, shield=1, rolls=[3]))
    assert all(e.by is None for e in session.log[start:])


def test_an_unknown_attacker_or_the_target_itself_is_refused_changing_nothing():
    session, target, _ = two_ships()
    before, log = dict(target.state), len(session.log)
    with pytest.raises(RuleViolation, match="no ship"):
        session.apply(volley_action(target, 24, shield=1, rolls=[3], attacker="nobody"))
    with pytest.raises(RuleViolation, match="itself"):
        session.apply(volley_action(target, 24, shield=1, rolls=[3], attacker=target))
    assert target.state == before and len(session.log) == log


def test_undo_marks_the_attackers_lines_undone():
    session, target, attacker = two_ships()
    start = len(session.log)
    session.apply(volley_action(target, 24, shield=1, rolls=[3], attacker=attacker))
    session.undo()
    assert all(e.undone for e in session.log[start:])

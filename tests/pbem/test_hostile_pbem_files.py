"""Hostile play-by-e-mail files: a moderator's session, a player file and an audit bundle with
one value at a time replaced by something no ShipSheet writes (wrong types, huge numbers,
markup, lists for tables). Loading refuses it in words, or verify-dice, the audit, the
turn desk and the import answer with a verdict or a refusal: never an exception of another
kind (a traceback on the command line, a dead slot in the window)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from shipsheet.model.errors import RuleViolation, SessionFileError
from shipsheet.model.storage import session_from_data, session_to_data
from shipsheet.pbem import players as P
from shipsheet.pbem import stages
from shipsheet.pbem import turns as T
from shipsheet.pbem.audit import AuditError, audit, export_bundle
from shipsheet.pbem.desk import stage_line, turn_desk
from shipsheet.pbem.inbox import import_files
from shipsheet.pbem.reports import export_turn_reports
from shipsheet.pbem.verify import verify_session

from pbem_helpers import fedcom_edits, resolve, send_orders, verifiable_game

HOSTILE = [None, -1, 0, 2**70, "x", "<b>x</b>", [], {}, [1, "a"], {"a": 1}, "ab" * 64,
           True, 1.5, "../../etc", ["ab" * 32], {"2": "ab" * 32}]
CASES = 120


def _paths(value, prefix=()):
    """Every (path, value) below ``value``."""
    yield prefix, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value[:30]):
            yield from _paths(item, prefix + (i,))


def _mutated(data, rng, roots):
    """A copy of ``data`` with one value below one of ``roots`` replaced."""
    copy = json.loads(json.dumps(data))
    candidates = [p for root in roots if root in copy for p, _ in _paths(copy[root], (root,))]
    path = rng.choice(candidates)
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = rng.choice(HOSTILE)
    return copy, path


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A Federation Commander game with a closed turn and an open one, its player file and
    its audit bundle (built once for the module)."""
    import os
    tmp = tmp_path_factory.mktemp("hostile")
    os.environ["SHIPSHEET_STATE_DIR"] = str(tmp / "state")
    s, files = verifiable_game("fedcom", tmp / "t2")
    import_files(s, [send_orders(f, fedcom_edits, n, tmp / f"{n}.orders.json")
                     for n, f in files.items()])
    T.close_orders(s)
    resolve(s)
    T.close_turn(s)
    export_turn_reports(s, 2, tmp / "reports", date="2026-12-01")
    export_bundle(s, tmp / "bundle")
    return {"moderator": session_to_data(s),
            "player": session_to_data(P.player_session(s, "Blue")),
            "bundle": tmp / "bundle", "orders": tmp / "Blue.orders.json", "tmp": tmp}


def _load(data):
    try:
        return session_from_data(json.loads(json.dumps(data)))
    except SessionFileError:
        return None


def test_a_hostile_moderators_session_gets_a_verdict_or_a_refusal(game):
    rng = random.Random(25)
    loaded = 0
    for _ in range(CASES):
        data, path = _mutated(game["moderator"], rng, ["pbem", "archive", "log"])
        session = _load(data)
        if session is None:
            continue
        loaded += 1
        try:
            verdict = verify_session(session, pins=False)
            verdict.lines()
        except RuleViolation:
            pass  # a damaged record refused in words
        for step in (lambda: turn_desk(session), lambda: stage_line(session),
                     lambda: stages.info(session, 2), lambda: T.close_orders_action(session),
                     lambda: import_files(session, [game["orders"]])):
            try:
                step()
            except RuleViolation:
                pass
        assert path  # (the case ran)
    assert loaded > CASES // 3


def test_a_hostile_player_file_gets_a_verdict_or_a_refusal(game):
    rng = random.Random(26)
    loaded = 0
    for _ in range(CASES):
        data, path = _mutated(game["player"], rng, ["pbem", "log"])
        session = _load(data)
        if session is None:
            continue
        loaded += 1
        try:
            verify_session(session, pins=False).lines()
        except RuleViolation:
            pass
    assert loaded > CASES // 3


def test_a_hostile_audit_bundle_gets_a_verdict_or_a_refusal(game, tmp_path):
    rng = random.Random(27)
    manifest = json.loads((game["bundle"] / "audit.json").read_text("utf-8"))
    import shutil
    for case in range(CASES // 2):
        folder = tmp_path / f"b{case}"
        shutil.copytree(game["bundle"], folder)
        data, path = _mutated(manifest, rng, list(manifest))
        (folder / "audit.json").write_text(json.dumps(data), "utf-8")
        try:
            audit(folder).lines()
        except AuditError:
            pass
        shutil.rmtree(folder)
    assert path
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "audit.json").write_text("[1, 2]")
    with pytest.raises(AuditError):
        audit(tmp_path / "junk")
    with pytest.raises(AuditError):
        audit(tmp_path / "absent")
    assert Path(game["bundle"]).exists()

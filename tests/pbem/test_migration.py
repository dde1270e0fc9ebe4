"""A game begun with the first verifiable-dice scheme (turn-hmac-v1, before turns had stages
and orders were signed), opened with today's ShipSheet: its turn plays on as it began, the
dice switch to turn-set-v2 when that turn closes, HMAC orders are taken until a player
joins, and verify-dice and the audit say per turn which guarantee held. The files are the
real output of the earlier code (tests/pbem/data/v1-game/README.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from shipsheet.cli import main
from shipsheet.model.dice import TURN_HMAC, TURN_SET
from shipsheet.model.storage import load_session, save_session
from shipsheet.pbem import stages
from shipsheet.pbem.verify import verify_session

from pbem_helpers import resolve

DATA = Path(__file__).parent / "data" / "v1-game"


def _game(tmp_path) -> Path:
    shutil.copytree(DATA, tmp_path / "game")
    return tmp_path / "game"


def _run(capsys, *args):
    code = main([str(a) for a in args])
    got = capsys.readouterr()
    return code, got.out + got.err


def test_the_old_game_opens_verifies_and_plays_its_turn_as_it_began(tmp_path, capsys):
    game = _game(tmp_path)
    moderator = game / "moderator.shipsheet"
    session = load_session(moderator)
    assert session.turn == 3 and session.pbem["dice"]["scheme"] == TURN_HMAC
    assert session.dice.scheme == TURN_HMAC and stages.scheme_of(session, 3) == TURN_HMAC
    verdict = verify_session(session)
    assert verdict.status == "verified", verdict.lines()
    assert any(line.startswith("Turn 2: recomputed and equal (turn-hmac-v1")
               for line in verdict.lines())
    code, out = _run(capsys, "pbem", "desk", moderator)
    assert "begun before turns had stages (turn-hmac-v1)" in out
    # Red, who has not joined, sends HMAC orders from the old player file: applied at once.
    code, out = _run(capsys, "pbem", "export-orders", game / "Red.shipsheet", "-o",
                     tmp_path / "red.orders.json")
    assert code == 0 and "not signed" in out
    assert json.loads((tmp_path / "red.orders.json").read_text())["version"] == 1
    code, out = _run(capsys, "pbem", "import", moderator, tmp_path / "red.orders.json")
    assert code == 0 and "applied as one step" in out, out
    nonces = load_session(moderator).pbem["dice"]["nonces"]["3"]
    assert len(nonces) == 2  # the old scheme: mixed in at import


def test_the_game_switches_at_the_next_turn_and_says_per_turn_what_held(tmp_path, capsys):
    game = _game(tmp_path)
    moderator = game / "moderator.shipsheet"
    code, out = _run(capsys, "pbem", "close-turn", moderator)
    assert code == 0 and "From turn 4 the dice are turn-set-v2" in out, out
    session = load_session(moderator)
    assert session.turn == 4 and session.dice.scheme == TURN_SET
    assert session.pbem["dice"]["v2_from"] == 4
    code, out = _run(capsys, "pbem", "report", moderator, "--turn", 3, "-o", tmp_path / "r")
    assert code == 0
    assert "Seed of turn 3, revealed" in (tmp_path / "r" / "turn-3" / "Red.txt").read_text()
    red = tmp_path / "r" / "turn-3" / "Red.shipsheet"
    # Red joins now; Blue sends HMAC orders (not joined): both taken, only Red's signs.
    assert _run(capsys, "pbem", "join", red)[0] == 0
    code, out = _run(capsys, "pbem", "export-orders", red, "-o", tmp_path / "red4.orders.json")
    assert "signed with your key" in out
    blue = tmp_path / "r" / "turn-3" / "Blue.shipsheet"
    assert _run(capsys, "pbem", "export-orders", blue, "-o", tmp_path / "blue4.orders.json")[0] == 0
    code, out = _run(capsys, "pbem", "import", moderator, red.with_name("Red.join.json"),
                     tmp_path / "red4.orders.json", tmp_path / "blue4.orders.json")
    assert code == 0 and out.count(": queued:") == 2, out
    assert _run(capsys, "pbem", "close-orders", moderator)[0] == 0
    session = load_session(moderator)
    assert session.pbem["dice"]["turns"]["4"]["set"][0][0] == "Red"
    assert session.pbem["dice"]["turns"]["4"]["unsigned"] == ["Blue"]
    resolve(session)
    save_session(session, moderator)
    assert _run(capsys, "pbem", "close-turn", moderator)[0] == 0
    code, out = _run(capsys, "verify-dice", moderator)
    assert code == 0, out
    assert "Turn 2: recomputed and equal (turn-hmac-v1" in out
    assert "Turn 3: recomputed and equal (turn-hmac-v1" in out
    assert "Turn 4: verified" in out and "turn-set-v2: no player could aim a roll" in out
    # The audit: the old turns checked as their scheme allows, and said to be weaker.
    assert _run(capsys, "pbem", "audit-export", moderator, "-o", tmp_path / "bundle")[0] == 0
    code, out = _run(capsys, "pbem", "audit", tmp_path / "bundle")
    assert code == 3, out  # not everything proven: the older turns, Blue's unsigned orders
    assert "turn 2 rolled turn-hmac-v1" in out and "turn 3 rolled turn-hmac-v1" in out
    assert "Turn 2: verified, 3 roll(s)" in out and "Turn 4: verified" in out
    assert "Blue's orders for turn 4 are not signed" in out and "FAILED" not in out

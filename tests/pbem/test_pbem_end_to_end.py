"""A whole game by e-mail, three turns, on the command line, for each game.

The moderator names the players and sends their files. Each player joins (makes a key on
their own machine and sends the join file) — one of them only at the second turn, so
their first orders are unsigned — decides, and sends signed orders. Each turn the
moderator imports them (a tampered and a replayed file among them, refused with reasons),
closes the orders, resolves the turn with the session's verifiable dice, closes the turn
and writes the reports; every player verifies the dice from their own player file with
no other argument. At the end the moderator writes the audit bundle and a tournament
director checks it with the players' pins. A copy of the session with one logged roll
changed fails verify-dice, naming the roll."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shipsheet.cli import main
from shipsheet.model.files import safe_file_name
from shipsheet.model.storage import load_session, save_session

from pbem_helpers import GAMES, resolve

NAMES = {"fedcom": ["Blue", "Red", "Green"], "war-in-space": ["Concord", "Hegemony"],
         "triplanetary": ["Mars Patrol", "Pirates"]}


def _run(capsys, *args) -> tuple[int, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _edits(game):
    return GAMES[game][1]


def _decide(path: Path, game: str, name: str, turn: int) -> None:
    """The player's decisions for the turn (the helpers' edits on the first turn; later
    turns keep what is in force, or decide again where the game asks each turn)."""
    ps = load_session(path)
    if turn == 1 or game == "war-in-space":  # War In Space allocates energy every turn
        _edits(game)(ps, name)
    save_session(ps, path)


@pytest.mark.parametrize("game", ["fedcom", "war-in-space", "triplanetary"])
def test_three_turns_by_e_mail_on_the_command_line(game, tmp_path, capsys):
    build, _ = GAMES[game]
    session = build()
    session.pbem = {}  # the command line names the players
    names = NAMES[game]
    moderator = tmp_path / "moderator.shipsheet"
    save_session(session, moderator)
    code, out = _run(capsys, "pbem", "setup", moderator, *[f"--player={n}={n}" for n in names])
    assert code == 0 and "Dice: verifiable from turn" in out, out
    code, out = _run(capsys, "pbem", "export-players", moderator, "-o", tmp_path / "files-0")
    assert code == 0, out
    # A player's files all take the name made from theirs (model.files.safe_file_name):
    # the first player file, each turn's report and updated file.
    files = {n: tmp_path / "files-0" / f"{safe_file_name(n)}.shipsheet" for n in names}
    late_joiner = names[-1]
    first_turn = load_session(moderator).turn

    for round_ in (1, 2, 3):
        turn = load_session(moderator).turn
        sent, joins = {}, []
        for name in names:
            if round_ == 1 and name != late_joiner or round_ == 2 and name == late_joiner:
                code, out = _run(capsys, "pbem", "join", files[name])
                assert code == 0 and "Your key's fingerprint" in out, out
                joins.append(files[name].with_name(f"{name}.join.json".replace(" ", "_")))
                assert joins[-1].exists(), out
            _decide(files[name], game, name, round_)
            sent[name] = tmp_path / f"{name}-t{turn}.orders.json".replace(" ", "_")
            code, out = _run(capsys, "pbem", "export-orders", files[name], "-o", sent[name])
            assert code == 0, out
            signed = json.loads(sent[name].read_text())["version"] == 2
            assert signed == (name != late_joiner or round_ > 1), (name, round_, out)
        extra = []
        if round_ == 1:  # a tampered file and a replayed one
            data = json.loads(sent[names[0]].read_text())
            data["seq"] += 5
            tampered = tmp_path / "tampered.orders.json"
            tampered.write_text(json.dumps(data))
            extra = [tampered, sent[names[0]]]
        code, out = _run(capsys, "pbem", "import", moderator, *joins, *sent.values(), *extra)
        lines = out.splitlines()
        assert sum(": queued:" in line for line in lines) == len(names), out
        if round_ == 1:
            assert code == 1 and any("tampered.orders.json: REFUSED: not authentic" in line
                                     for line in lines), out
            assert any(": duplicate:" in line for line in lines), out
        else:
            assert code == 0, out
        code, out = _run(capsys, "pbem", "desk", moderator)
        assert f"orders open ({len(names)} queued)" in out, out
        code, out = _run(capsys, "pbem", "close-orders", moderator)
        assert code == 0, out
        m = load_session(moderator)
        resolve(m)
        save_session(m, moderator)
        code, out = _run(capsys, "pbem", "close-turn", moderator)
        assert code == 0 and f"Turn {turn} closed" in out, out
        code, out = _run(capsys, "pbem", "report", moderator, "--turn", turn, "-o",
                         tmp_path / "reports")
        assert code == 0, out
        folder = tmp_path / "reports" / f"turn-{turn}"
        for name in names:
            stem = safe_file_name(name)
            text = (folder / f"{stem}.txt").read_text("utf-8")
            assert all(len(line) <= 72 for line in text.splitlines())
            assert f"Seed of turn {turn}, revealed" in text and "KEYS" in text
            files[name] = folder / f"{stem}.shipsheet"
            code, out = _run(capsys, "verify-dice", files[name])
            assert code == 0, out  # the player's own file, no other argument
            assert f"Turn {turn}: verified" in out
        assert load_session(moderator).pbem["dice"]["turns"][str(turn)]["stage"] == "closed"

    # Everything, by the moderator's file.
    code, out = _run(capsys, "verify-dice", moderator)
    assert code == 0, out
    for t in range(first_turn, first_turn + 3):
        assert f"Turn {t}: verified" in out
    # The tournament director: the bundle and every player's pins.
    pins = []
    for name in names:
        pins.append(tmp_path / f"{name}.pins".replace(" ", "_"))
        code, out = _run(capsys, "pbem", "pins", files[name], "-o", pins[-1])
        assert code == 0, out
    code, out = _run(capsys, "pbem", "audit-export", moderator, "-o", tmp_path / "bundle")
    assert code == 0, out
    args = ["pbem", "audit", tmp_path / "bundle"]
    for path in pins:
        args += ["--pins", path]
    code, out = _run(capsys, *args)
    # The late joiner's first orders were unsigned: said, and not all is proven.
    assert code == 3, out
    assert "not signed" in out and late_joiner in out and "FAILED" not in out
    for t in range(first_turn, first_turn + 3):
        assert f"Turn {t}: verified" in out

    # One logged roll changed in a copy: verify-dice fails and names it.
    raw = json.loads(moderator.read_text("utf-8"))
    rolls = [e for e in raw["log"] if e.get("roll") and e["roll"][0] == 3]
    assert rolls, "the game rolled verifiable dice"
    changed = rolls[-1]
    sides, value = changed["roll"][2], changed["roll"][3]
    changed["roll"][3] = value % sides + 1
    changed["text"] = changed["text"].replace(f": {value}", f": {value % sides + 1}", 1)
    copy = tmp_path / "changed.shipsheet"
    copy.write_text(json.dumps(raw), "utf-8")
    code, out = _run(capsys, "verify-dice", copy)
    assert code == 1 and f"roll #{changed['roll'][1]}" in out, out

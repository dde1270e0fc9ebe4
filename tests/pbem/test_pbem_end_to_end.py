"""A whole turn played by e-mail, on the command line, for each game: the moderator names
three (or two) players, sends their files; each player (scripted) decides and sends
orders; the moderator imports them all with a tampered and a replayed file among them
(both refused, with reasons), runs the turn's attacks with the session's verifiable dice,
writes the turn reports, and anyone can verify the dice — and a copy with one logged roll
changed fails, naming the roll."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from shipsheet.cli import main
from shipsheet.model.storage import load_session, save_session
from shipsheet.pbem import players as P

sys.path.insert(0, str(Path(__file__).parent))
from pbem_helpers import (fedcom_edits, triplanetary_edits,  # noqa: E402
                          war_in_space_edits)

from shipsheet.model.actions import SetSide  # noqa: E402
from shipsheet.model.games import piece  # noqa: E402


def _moderators_session(game):
    s = piece(game, "sample")()
    if game == "fedcom":
        s.apply(SetSide(s.ship("Bastion"), "Green"))
        return s, ["Blue", "Red", "Green"], fedcom_edits
    if game == "war-in-space":
        s.next_turn()
        return s, ["Concord", "Hegemony"], war_in_space_edits
    return s, ["Mars Patrol", "Pirates"], triplanetary_edits


def _attacks(session):
    """The turn's attacks, rolled with the session's (verifiable) dice."""
    if session.game == "fedcom":
        from shipsheet.rules.fedcom.actions import volley_action
        session.apply(volley_action(session.ship("Resolute"), 18, shield=1,
                                    attacker=session.ship("Hornet")))
        session.apply(volley_action(session.ship("Hornet"), 12, shield=1,
                                    attacker=session.ship("Resolute")))
    elif session.game == "triplanetary":
        from shipsheet.model.actions import NextPhase
        from shipsheet.rules import triplanetary as tp
        while session.phase != "Combat":
            session.apply(NextPhase())
        session.apply(tp.attack(session.ship("Kite"), session.ship("Ajax")))
    else:  # War In Space: the energy the orders allocated is rolled at the turn's end
        session.next_turn()


@pytest.mark.parametrize("game", ["fedcom", "war-in-space", "triplanetary"])
def test_a_turn_by_e_mail_on_the_command_line(game, tmp_path, capsys):
    session, names, edits = _moderators_session(game)
    path = tmp_path / "moderator.shipsheet"
    save_session(session, path)
    specs = [f"--player={n}={n}" for n in names]
    assert main(["pbem", "setup", str(path), *specs]) == 0
    assert "Dice: verifiable from turn" in capsys.readouterr().out
    assert main(["pbem", "export-players", str(path), "-o", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    turn = load_session(path).turn

    orders = {}
    for name in names:
        pfile = next((tmp_path / "out").glob(f"{name.replace(' ', '*')}*.shipsheet"))
        ps = load_session(pfile)
        assert ps.pbem["role"] == "player" and "seeds" not in json.dumps(ps.pbem.get("dice", {}))
        edits(ps, name)
        save_session(ps, pfile)
        out = tmp_path / f"{name}.orders.json"
        assert main(["pbem", "export-orders", str(pfile), "--turn", str(turn), "-o", str(out)]) in (0, 1)
        orders[name] = out
    capsys.readouterr()

    first = names[0]
    tampered = tmp_path / "tampered.orders.json"
    data = json.loads(orders[names[1]].read_text())
    data["orders"][0]["values"] = {**data["orders"][0]["values"]}
    data["seq"] = data["seq"] + 5  # a changed field: the MAC no longer matches
    tampered.write_text(json.dumps(data))
    files = [str(tampered)] + [str(orders[n]) for n in names] + [str(orders[first])]
    code = main(["pbem", "import", str(path), *files])
    out = capsys.readouterr().out
    assert code == 1, out  # some refused
    lines = out.splitlines()
    assert any("tampered.orders.json" in line and "refused" in line.lower() for line in lines), out
    assert sum("accepted" in line.lower() for line in lines) == len(names), out
    replay = [line for line in lines if line.count(orders[first].name) and "accepted" not in line.lower()]
    assert replay, out  # the same file again: refused as already received
    moderator = load_session(path)
    assert sum(e.text.startswith("orders from ") and not e.undone for e in moderator.log
               if e.kind == "action") == len(names)

    _attacks(moderator)
    save_session(moderator, path)
    assert main(["pbem", "report", str(path), "--turn", str(turn), "-o", str(tmp_path / "reports")]) == 0
    capsys.readouterr()
    reports = sorted((tmp_path / "reports").rglob("*.txt"))
    assert len(reports) == len(names)
    for report in reports:
        text = report.read_text("utf-8")
        assert all(len(line) <= 72 for line in text.splitlines()), report
        assert text.splitlines()[0].startswith("Subject: ") and f"T{turn} SITREP" in text.splitlines()[0]
        assert "seed" in text.lower()

    assert main(["verify-dice", str(path)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    # One logged roll changed in a copy: verify-dice fails and names it.
    raw = json.loads(path.read_text("utf-8"))
    rolls = [e for e in raw["log"] if e.get("roll") and e["roll"][0] == 2 and not e["roll"][4]]
    assert rolls, "the turn rolled verifiable dice"
    changed = rolls[-1]
    sides, value = changed["roll"][2], changed["roll"][3]
    changed["roll"][3] = value % sides + 1
    changed["text"] = changed["text"].replace(f": {value}", f": {value % sides + 1}", 1)
    copy = tmp_path / "changed.shipsheet"
    copy.write_text(json.dumps(raw), "utf-8")
    assert main(["verify-dice", str(copy)]) == 1
    out = capsys.readouterr().out
    assert f"roll {changed['roll'][1]}" in out or changed["text"][:30] in out, out

"""``shipsheet pbem``: setup, export-players, export-orders, import, desk, from the command
line, each with a clear exit status and message, no display needed."""

import json
import subprocess
import sys

import pytest

from shipsheet.model.files import safe_file_name

from shipsheet.cli import main
from shipsheet.model import load_session
from shipsheet.model.storage import save_session
from shipsheet.pbem.cli import SUBCOMMANDS

from pbem_helpers import GAMES, fingerprint, play

PLAYERS = {
    "fedcom": ["Blue=Resolute,Swift", "Red=Red", "Green=Bastion"],
    "war-in-space": ["Concord=Concord", "Hegemony=Hegemony"],
    "triplanetary": ["Mars Patrol=Mars Patrol", "Pirates=Pirates"],
}


def _session_file(game, tmp_path):
    """The game's sample with its players' sides as the helpers make them, not yet set up."""
    build, _ = GAMES[game]
    s = build()
    s.pbem = {}  # the command line names the players
    path = tmp_path / f"{game}.shipsheet"
    save_session(s, path)
    return path


def _setup(path, players):
    args = ["pbem", "setup", str(path)]
    for p in players:
        args += [p] if p.startswith("--") else ["--player", p]
    return main(args)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_cycle_on_the_command_line(game, tmp_path, capsys):
    path = _session_file(game, tmp_path)
    assert _setup(path, PLAYERS[game]) == 0
    out = capsys.readouterr().out
    assert "Saved" in out
    if game == "fedcom":
        assert "Blue: Resolute, Swift" in out and "Green: Bastion" in out
    folder = tmp_path / "players"
    assert main(["pbem", "export-players", str(path), "-o", str(folder)]) == 0
    names = [p.split("=")[0] for p in PLAYERS[game]]
    # Each named as its player's reports will be ("Mars Patrol": Mars_Patrol.shipsheet).
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{safe_file_name(n)}.shipsheet"
                                                              for n in names)
    capsys.readouterr()

    _, edit = GAMES[game]
    sent = []
    for name in names:
        player_file = folder / f"{safe_file_name(name)}.shipsheet"
        play(player_file, edit, name)
        orders = tmp_path / f"{name}.orders.json"
        assert main(["pbem", "export-orders", str(player_file), "-o", str(orders)]) == 0
        assert f"Wrote {orders}" in capsys.readouterr().out
        assert load_session(player_file).pbem["sent"]  # the number is kept in the player file
        sent.append(orders)

    # One tampered file (a byte of the orders changed) and one replayed (the same file again).
    raw = sent[0].read_bytes()
    at = raw.index(b'"values"') + 20
    bad = tmp_path / "tampered.orders.json"
    bad.write_bytes(raw[:at] + bytes([raw[at] ^ 1]) + raw[at + 1:])
    before = path.read_bytes()
    assert main(["pbem", "import", str(path), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "tampered.orders.json: REFUSED:" in out and "Saved" not in out
    assert path.read_bytes() == before  # nothing changed, nothing saved

    assert main(["pbem", "import", str(path), *map(str, sent), str(sent[0])]) == 1
    out = capsys.readouterr().out.splitlines()
    # Verifiable dice (setup's default): queued until the turn's orders close.
    assert [line.split(": ")[1] for line in out[:len(sent) + 1]] == \
        ["queued"] * len(sent) + ["duplicate"]
    assert out[-1] == f"Saved {path}"
    assert main(["pbem", "desk", str(path)]) == 0
    out = capsys.readouterr().out
    assert "orders open (%d queued)" % len(sent) in out
    for name in names:
        assert f"{name}: queued (number 1)" in out

    assert main(["pbem", "close-orders", str(path)]) == 0
    assert "Close orders for turn" in capsys.readouterr().out
    session = load_session(path)
    turn = session.turn
    assert f"{names[0]}'s orders number 1:" in session.log_text()
    assert main(["pbem", "desk", str(path)]) == 0
    out = capsys.readouterr().out
    assert "orders closed, resolving" in out
    for name in names:
        assert f"{name}: applied (number 1)" in out
    assert main(["pbem", "close-orders", str(path)]) == 1
    assert f"Turn {turn}'s orders are closed already" in capsys.readouterr().err


def test_a_refused_setup_exits_1_and_changes_nothing(tmp_path, capsys):
    path = _session_file("fedcom", tmp_path)
    before = path.read_bytes()
    # Swift is on side Blue: two players would command it.
    assert _setup(path, ["Blue=Blue", "Green=Swift"]) == 1
    assert "Swift would be commanded by Blue and Green" in capsys.readouterr().err
    assert path.read_bytes() == before
    assert _setup(path, ["Blue=Nowhere"]) == 1
    assert '"Nowhere" is neither a side nor a ship' in capsys.readouterr().err


def test_usage_errors_and_unreadable_files_exit_2(tmp_path, capsys):
    assert main(["pbem"]) == 2
    assert "export-players" in capsys.readouterr().err
    assert main(["pbem", "frobnicate"]) == 2
    assert 'unknown command "frobnicate"' in capsys.readouterr().err
    assert main(["pbem", "import"]) == 2
    assert "error:" in capsys.readouterr().err
    assert main(["pbem", "setup", str(tmp_path / "x.shipsheet"), "--player", "nobody"]) == 2
    assert "NAME=SIDE" in capsys.readouterr().err
    junk = tmp_path / "junk.shipsheet"
    junk.write_text("Dear moderator")
    assert main(["pbem", "desk", str(junk)]) == 2
    assert "junk.shipsheet: damaged or truncated" in capsys.readouterr().err
    path = _session_file("fedcom", tmp_path)
    assert main(["pbem", "import", str(path), str(junk)]) == 2  # not set up for e-mail yet
    assert "not played by e-mail" in capsys.readouterr().err
    assert main(["pbem", "export-players", str(path), "-o", str(tmp_path / "out")]) == 1
    assert "Set up the players first" in capsys.readouterr().err
    assert main(["pbem", "--help"]) == 0
    assert main(["pbem", "desk", "--help"]) == 0


def test_import_of_a_player_file_says_what_it_is(tmp_path, capsys):
    path = _session_file("fedcom", tmp_path)
    assert _setup(path, PLAYERS["fedcom"]) == 0
    main(["pbem", "export-players", str(path), "-o", str(tmp_path / "p")])
    capsys.readouterr()
    before = path.read_bytes()
    assert main(["pbem", "import", str(path), str(tmp_path / "p" / "Red.shipsheet")]) == 1
    assert "a player file (Red's session file), not an orders file" in capsys.readouterr().out
    assert path.read_bytes() == before


def test_export_orders_prints_the_warnings(tmp_path, capsys):
    path = _session_file("fedcom", tmp_path)
    assert _setup(path, PLAYERS["fedcom"]) == 0
    main(["pbem", "export-players", str(path), "-o", str(tmp_path / "p")])
    green = tmp_path / "p" / "Green.shipsheet"
    from pbem_helpers import give
    ps = load_session(green)
    give(ps, "Bastion", "orders", first="center-warp-1")
    save_session(ps, green)
    capsys.readouterr()
    out_file = tmp_path / "g.orders.json"
    assert main(["pbem", "export-orders", str(green), "-o", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert "warning: Bastion:" in out and "never reaches it" in out
    assert json.loads(out_file.read_text())["player"] == "Green"
    assert main(["pbem", "export-orders", str(green), "--turn", "9", "-o", str(out_file)]) == 1
    assert "for turn 2" in capsys.readouterr().err


def test_a_correction_replaces_queued_orders_while_they_are_open(tmp_path, capsys):
    path = _session_file("triplanetary", tmp_path)
    assert _setup(path, PLAYERS["triplanetary"]) == 0
    main(["pbem", "export-players", str(path), "-o", str(tmp_path / "p")])
    pf = tmp_path / "p" / "Pirates.shipsheet"
    from pbem_helpers import give
    files = []
    for n, track in enumerate(("structure", "drive")):
        ps = load_session(pf)
        give(ps, "Raven", "recovery", track=track)
        save_session(ps, pf)
        files.append(tmp_path / f"{n}.orders.json")
        assert main(["pbem", "export-orders", str(pf), "-o", str(files[-1])]) == 0
    assert main(["pbem", "import", str(path), str(files[0]), str(files[1])]) == 0
    assert "number 2, replacing number 1" in capsys.readouterr().out
    assert main(["pbem", "import", str(path), str(files[0])]) == 1  # overtaken
    assert main(["pbem", "close-orders", str(path)]) == 0
    from shipsheet.rules.triplanetary.recovery import recovery_choice
    assert recovery_choice(load_session(path).ship("Raven")) == ("drive",)


def test_a_held_correction_is_applied_with_confirm(tmp_path, capsys):
    """Without verifiable dice a file is applied as it comes; a correction after that waits
    for the moderator."""
    path = _session_file("triplanetary", tmp_path)
    assert _setup(path, [*PLAYERS["triplanetary"], "--no-verifiable-dice"]) == 0
    main(["pbem", "export-players", str(path), "-o", str(tmp_path / "p")])
    pf = tmp_path / "p" / "Pirates.shipsheet"
    from pbem_helpers import give
    files = []
    for n, track in enumerate(("structure", "drive")):
        ps = load_session(pf)
        give(ps, "Raven", "recovery", track=track)
        save_session(ps, pf)
        files.append(tmp_path / f"{n}.orders.json")
        assert main(["pbem", "export-orders", str(pf), "-o", str(files[-1])]) == 0
    assert main(["pbem", "import", str(path), str(files[0])]) == 0
    assert main(["pbem", "import", str(path), str(files[1])]) == 1
    capsys.readouterr()
    main(["pbem", "desk", str(path)])
    assert "Pirates: arrived (number 2); number 1 applied" in capsys.readouterr().out
    assert main(["pbem", "import", str(path), str(files[1]), "--confirm"]) == 0
    main(["pbem", "desk", str(path)])
    assert "Pirates: applied (number 2)" in capsys.readouterr().out


def test_the_subcommands_table_and_no_qt(tmp_path):
    assert set(SUBCOMMANDS) >= {"setup", "export-players", "export-orders", "import", "desk"}
    path = _session_file("fedcom", tmp_path)
    code = ("import sys; from shipsheet.cli import main; "
            "rc = main(['pbem', 'setup', sys.argv[1], '--player', 'Blue=Blue', '--player', 'Red=Red']); "
            "rc = rc or main(['pbem', 'desk', sys.argv[1]]); "
            "assert 'PySide6' not in sys.modules, 'Qt imported'; sys.exit(rc)")
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Blue: missing" in run.stdout and "Red: missing" in run.stdout
    assert fingerprint(load_session(path))  # saved and loads

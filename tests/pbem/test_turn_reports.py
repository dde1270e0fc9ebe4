"""Turn reports for the play-by-e-mail desk (DESK.md, "Turn reports"; ``pbem/reports.py``):
one plain-text e-mail body per player of at most 72 columns, the subject line, the attacks
each player's ships made or took, the dice, the files of a turn in their own folder."""

from __future__ import annotations

import os
import types
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from shipsheet.model import RuleViolation, Session, get_class, load_session, new_ship
from shipsheet.model.actions import NextPhase, RenameShip
from shipsheet.model.storage import save_session
from shipsheet.pbem import reports
from shipsheet.pbem.players import set_players_action
from shipsheet.pbem.report_cli import report_command
from shipsheet.pbem.reports import (WIDTH, Report, columns, export_turn_reports, mailto_url,
                                    safe_file_name, turn_report, wrap)
from shipsheet.rules.fedcom import (Overrides, set_chart_action, set_orders_action,
                                    set_turn_state_action, volley_action)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "docs" / "sample-turn-report.txt"
DATE = "2025-03-14"


def fc_game(*, blue_name: str = "Resolute", verifiable: bool = False) -> Session:
    """Three players of Federation Commander, a turn of fire with attackers recorded.

    Blue (Resolute, Swift) and Red (Hornet, Lance) fire at each other; Red also fires at
    Green's Kestrel, which Blue has nothing to do with; each side gives private orders."""
    s = Session("fedcom", name="Operation Sample Hold", seed=6_0806)
    s.apply(set_chart_action("training"))
    ships = {}
    for key, name, side in (("sample-heavy-cruiser", blue_name, "Blue"),
                            ("sample-frigate", "Swift", "Blue"),
                            ("sample-drone-cruiser", "Hornet", "Red"),
                            ("sample-frigate", "Lance", "Red"),
                            ("sample-frigate", "Kestrel", "Green")):
        ships[name] = s.add_ship(new_ship(get_class(f"fedcom/{key}"), name), side)
    s.apply(set_players_action(s, [{"name": "Blue", "sides": ["Blue"]},
                                   {"name": "Red", "sides": ["Red"]},
                                   {"name": "Green", "sides": ["Green"]}]))
    if verifiable:  # every roll the session's: none typed, and none before the orders close
        from shipsheet.pbem.dice import start_verifiable
        from shipsheet.pbem.turns import close_orders
        start_verifiable(s)
        close_orders(s)
    typed = (lambda *rolls: None) if verifiable else (lambda *rolls: list(rolls))
    resolute, swift = ships[blue_name], ships["Swift"]
    hornet, lance, kestrel = ships["Hornet"], ships["Lance"], ships["Kestrel"]
    s.apply(set_orders_action(resolute, Overrides(last=("ph-5",))))
    s.apply(set_orders_action(hornet, Overrides(first=("drone-4",))))       # Red's own
    s.apply(NextPhase())  # Movement
    s.apply(NextPhase())  # Combat
    s.apply(set_turn_state_action(resolute, "photon-1", "fired"))
    s.apply(set_turn_state_action(hornet, "ph-3", "fired"))                # Red's own
    s.apply(volley_action(hornet, 28, shield=1, rolls=typed(4), attacker=resolute))
    s.apply(volley_action(swift, 14, shield=1, rolls=typed(3), attacker=lance))
    s.apply(volley_action(kestrel, 21, shield=2, rolls=typed(5), attacker=hornet))  # not Blue's
    s.apply(volley_action(resolute, 20, shield=2, attacker=hornet))  # the session's dice
    s.apply(set_turn_state_action(swift, "ph-1", "fired"))
    s.undo()                                                               # undone: left out
    s.apply(NextPhase())  # Repair
    if verifiable:
        from shipsheet.pbem.turns import close_turn
        close_turn(s)  # the turn's rolls fixed, its seed revealable
    return s


def body_lines(report: Report) -> list[str]:
    return report.body.splitlines()


def assert_narrow(text: str) -> None:
    for line in text.splitlines():
        assert columns(line) <= WIDTH, (columns(line), line)
        assert line == line.rstrip(), repr(line)


# -- the body --------------------------------------------------------------------------------

def test_the_subject_line_and_the_header():
    s = fc_game()
    report = turn_report(s, "Blue", 1, date=DATE)
    assert report.subject == "Operation Sample Hold T1 SITREP Blue"
    head = body_lines(report)[:8]
    assert "Game:    Federation Commander" in head
    assert "Session: Operation Sample Hold" in head
    assert {"Turn:    1", "Player:  Blue", f"Date:    {DATE}"} <= set(head)
    assert report.text.startswith("Subject: Operation Sample Hold T1 SITREP Blue\n\n")


def test_every_line_is_at_most_72_columns():
    s = fc_game()
    for player in ("Blue", "Red", "Green"):
        report = turn_report(s, player, 1)
        assert_narrow(report.body)
        assert_narrow(report.text)


def test_long_names_and_long_lines_wrap_within_72_columns_without_cutting_words():
    long_name = "The Unconquerable Sunrise Over The Far Reaches Of The Triangulum Galaxy XVII"
    long_name = (long_name + " Extra")[:80]
    s = fc_game(blue_name=long_name)
    assert len(long_name) == 80
    report = turn_report(s, "Blue", 1)
    assert_narrow(report.text)
    # a name wider than a line, with no space to break at, is cut; then still 72 columns
    s.apply(RenameShip(s.ship("Swift"), "W" * 80))
    s.apply(RenameShip(s.ship("Hornet"), "戦" * 40))  # 80 columns of wide characters
    for player in ("Blue", "Red"):
        assert_narrow(turn_report(s, player, 1).text)
    # no word is cut: every word of a wrapped volley line is found whole
    words = [w for line in body_lines(report) for w in line.split()]
    assert "forward-hull-1" not in words or all(w != "forward-" for w in words)
    long_line = " ".join(["supercalifragilistic"] * 12)
    lines = wrap(long_line, 6)
    assert all(columns(line) <= WIDTH for line in lines)
    assert " ".join(" ".join(lines).split()) == long_line
    assert lines[1].startswith(" " * 8) and not lines[1].startswith(" " * 9)


def test_a_word_longer_than_a_line_is_cut_and_nothing_else():
    lines = wrap("short " + "x" * 200 + " tail", 2)
    assert all(columns(line) <= WIDTH for line in lines)
    assert lines[0] == "  short"
    assert "".join(line.strip() for line in lines[1:]) == "x" * 200 + "tail"
    assert lines[-1].split()[-1] == "tail"
    assert [columns(line) for line in lines[1:3]] == [WIDTH, WIDTH]  # cut where the line ends


def test_control_characters_from_a_file_do_not_break_the_layout():
    s = fc_game()
    s.apply(RenameShip(s.ship("Swift"), "Sw\u202eift\x1b[2J"))
    body = turn_report(s, "Blue", 1).body
    assert "\x1b" not in body and "\u202e" not in body
    assert "Sw\\u202eift\\x1b[2J" in body


def test_a_player_sees_their_ships_and_the_attacks_they_made_or_took_only():
    s = fc_game()
    blue = turn_report(s, "Blue", 1).body
    # their own ships' lines
    assert "Resolute: Set standing orders" in blue and "hit last: ph-5" in blue
    assert "Resolute: Set photon-1 fired" in blue
    # the attack Blue made (Resolute at Hornet), whole: headline, rolls, every DDAP point
    assert "Volley of 28 from Resolute at Hornet, shield #1" in blue
    # ... and the one Blue took (Lance at Swift)
    assert "Volley of 14 from Lance at Swift, shield #1" in blue
    flat = " ".join(blue.split())
    assert "Volley 1, point 1: roll 4, row 4, column 1" in flat   # Hornet's first point
    assert "Volley 1, point 1: roll 3, row 3, column 1" in flat   # Swift's first point
    assert "DDAP" in flat
    # not the other players' private lines, nor an attack between two others
    assert "drone-4" not in flat and "Set ph-3 fired" not in flat
    assert "Kestrel" not in flat and "Volley of 21" not in flat
    # Green sees the attack on Kestrel, not the Blue-Red exchange
    green = " ".join(turn_report(s, "Green", 1).body.split())
    assert "Volley of 21 from Hornet at Kestrel, shield #2" in green
    assert "Volley of 28" not in green and "Resolute" not in green
    # Red sees both its attacks and the one it took, and its own orders
    red = " ".join(turn_report(s, "Red", 1).body.split())
    for words in ("Volley of 28 from Resolute at Hornet", "Volley of 14 from Lance at Swift",
                  "Volley of 21 from Hornet at Kestrel", "hit first: drone-4"):
        assert words in red
    assert "hit last: ph-5" not in red and "Set photon-1 fired" not in red


def test_undone_lines_are_left_out():
    s = fc_game()
    blue = turn_report(s, "Blue", 1).body
    assert "Set ph-1 fired" not in blue and "(undone)" not in blue


def test_phase_headings_once_each_in_order():
    s = fc_game()
    lines = body_lines(turn_report(s, "Blue", 1))
    headings = [line for line in lines if line.startswith("[")]
    assert headings == ["[Energy]", "[Movement]", "[Combat]", "[Repair]"]


def test_your_ships_give_each_ships_damage_in_a_few_lines():
    s = fc_game()
    lines = body_lines(turn_report(s, "Blue", 1))
    start = lines.index("YOUR SHIPS")
    part = lines[start:]
    assert any(line.startswith("Resolute (Sample Heavy Cruiser, side Blue)") for line in part)
    assert any(line.startswith("Swift (Sample Frigate, side Blue)") for line in part)
    swift = part[next(i for i, line in enumerate(part) if line.startswith("Swift")):]
    assert any("Internal:" in line for line in swift[:6])
    assert any("Shields: #1 3/16" in line for line in swift[:6])  # 14: 13 and a burn-through
    assert any("Destroyed: reactor-1" in line for line in swift[:6])
    assert "Hornet" not in "\n".join(part)


def test_a_turn_with_nothing_for_the_player_says_so():
    s = fc_game()
    s.apply(NextPhase())  # turn 2, Energy
    body = turn_report(s, "Green", 2).body
    assert "(nothing that concerns your ships)" in body


def test_an_unknown_player_or_turn_is_refused():
    s = fc_game()
    with pytest.raises(RuleViolation, match="no player"):
        turn_report(s, "Purple", 1)
    for turn in (0, 2, -1, "1", True):
        with pytest.raises(RuleViolation, match="no turn"):
            turn_report(s, "Blue", turn)


def test_other_games_summaries():
    from shipsheet.rules.triplanetary.sample import build_sample_session as tp_sample
    from shipsheet.rules.war_in_space.sample import build_sample_session as wis_sample
    for build, needle in ((tp_sample, "Tracks: weapons D"), (wis_sample, "Systems: ")):
        s = build()
        s.apply(set_players_action(s, [{"name": "All", "sides": s.sides}]))
        report = turn_report(s, "All", s.turn)
        assert_narrow(report.text)
        assert needle in report.body


def test_triplanetary_attacks_are_given_to_every_attacker_and_target():
    from shipsheet.rules import triplanetary as tp
    s = Session("triplanetary", name="Belt", seed=3)
    ajax = s.add_ship(new_ship(get_class("triplanetary/frigate"), "Ajax"), "Mars")
    vigilant = s.add_ship(new_ship(get_class("triplanetary/dreadnaught"), "Vigilant"), "Venus")
    kite = s.add_ship(new_ship(get_class("triplanetary/corsair"), "Kite"), "Pirates")
    wasp = s.add_ship(new_ship(get_class("triplanetary/corvette"), "Wasp"), "Pirates")
    s.apply(set_players_action(s, [{"name": "Mars", "sides": ["Mars"]},
                                   {"name": "Venus", "sides": ["Venus"]},
                                   {"name": "Pirates", "sides": ["Pirates"]}]))
    while s.phase != "Combat":
        s.apply(NextPhase())
    s.apply(tp.attack(ajax, kite, to_hit_roll=6, damage_rolls=[4]))
    s.apply(tp.attack([ajax, vigilant], wasp, to_hit_roll=6, second_attack=True))  # joint
    for player in ("Mars", "Pirates"):
        flat = " ".join(turn_report(s, player, 1).body.split())
        assert "Gun attack by Ajax on Kite" in flat and "Kite: damage rolls 4 →" in flat
    for player in ("Mars", "Venus", "Pirates"):
        flat = " ".join(turn_report(s, player, 1).body.split())
        assert "Gun attack by Ajax, Vigilant on Wasp" in flat and "Wasp: damage roll" in flat, player
    venus = " ".join(turn_report(s, "Venus", 1).body.split())
    assert "on Kite" not in venus


# -- the dice ---------------------------------------------------------------------------------

def test_the_dice_section_of_a_closed_turn_reveals_its_seed_and_commits_to_the_next():
    from shipsheet.pbem import dice
    s = fc_game(verifiable=True)
    assert s.turn == 2
    seed, commitment = dice.reveal(s, 1)
    assert dice.commitment(seed) == s.pbem["dice"]["commitments"]["1"]
    body = turn_report(s, "Blue", 1).body
    lines = body.splitlines()
    part = lines[lines.index("DICE"):]
    assert "  " + seed in part and "  " + commitment in part
    fixed = s.pbem["dice"]["turns"]["1"]["transcript"]
    assert "  " + fixed["hash"] in part
    assert any(f"Turn 1's rolls: {fixed['count']}," in line for line in part)
    assert_narrow(body)
    # the next turn's seed itself stays secret
    assert s.pbem["dice"]["seeds"]["2"] not in "".join(body.split())
    assert "DICE" not in turn_report(fc_game(), "Blue", 1).body  # no verifiable dice: none


def test_a_report_of_a_turn_not_closed_gives_its_commitment_only():
    from shipsheet.pbem import dice
    s = fc_game()
    dice.start_verifiable(s)  # turn 1, orders open
    with pytest.raises(dice.DiceError, match="not closed"):
        dice.reveal(s, 1)
    body = " ".join(turn_report(s, "Blue", 1).body.split())
    assert "Turn 1 is not closed yet (orders open): its seed stays secret" in body
    assert s.pbem["dice"]["commitments"]["1"] in body
    assert s.pbem["dice"]["seeds"]["1"] not in body


def test_the_keys_section_lists_every_players_fingerprint():
    from shipsheet.pbem.keys import fingerprint, generate, show_fingerprint
    from shipsheet.pbem.record import PlayerKey, put_keys
    s = fc_game()
    public = generate()[1]
    put_keys(s, "Red", (PlayerKey(public, 1),))
    lines = body_lines(turn_report(s, "Blue", 1))
    part = lines[lines.index("KEYS"):]
    assert f"  Red: {show_fingerprint(fingerprint(public))} (from turn 1)" in part
    assert "  Blue: not joined (orders not signed yet)" in part


def test_a_turn_before_the_dice_became_verifiable_says_so():
    from shipsheet.pbem import dice
    s = fc_game()
    s.apply(NextPhase())  # turn 2
    dice.start_verifiable(s)
    body = turn_report(s, "Blue", 1).body
    assert "before the dice became verifiable" in " ".join(body.split())
    assert_narrow(body)


# -- mailto -----------------------------------------------------------------------------------

def test_mailto_round_trips_through_urllib():
    s = fc_game()
    report = turn_report(s, "Blue", 1)
    url = mailto_url(report, to="blue@example.org")
    parts = urlsplit(url)
    assert parts.scheme == "mailto" and unquote(parts.path) == "blue@example.org"
    query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=True)
    assert query["subject"] == [report.subject]
    assert query["body"][0].replace("\r\n", "\n") == report.body
    assert " " not in url and "\n" not in url and "+" not in url
    hostile = Report("a&b=c?d #e +f", "x&subject=evil\n%0A")
    q = parse_qs(urlsplit(mailto_url(hostile)).query, keep_blank_values=True)
    assert q["subject"] == ["a&b=c?d #e +f"] and q["body"] == ["x&subject=evil\r\n%0A"]


# -- file names and files -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["../x", "a/b", "a\\b", ".hidden", "..", ".", "", "x" * 300,
                                  "/etc/passwd", "C:\\evil", "CON", "nul.txt", "-rf",
                                  "\u202eexe.txt", "Ærø Жук 戦", " ", "a\x00b", "....", "~/x"])
def test_file_names_from_hostile_player_names_are_safe(name):
    stem = safe_file_name(name)
    assert 0 < len(stem) <= reports.MAX_FILE_STEM
    assert stem.isascii() and "/" not in stem and "\\" not in stem and ":" not in stem
    assert not stem.startswith((".", "-")) and not stem.endswith(".")
    assert all(c.isalnum() or c in "._-" for c in stem)
    assert stem.split(".")[0].upper() not in {"CON", "NUL", "PRN", "AUX"}
    assert Path(stem).name == stem and stem not in (".", "..")


def test_safe_file_names_keep_what_they_can():
    assert safe_file_name("Blue") == "Blue"
    assert safe_file_name("../x") == "x"
    assert safe_file_name("a/b") == "a_b"
    assert safe_file_name(".hidden") == "hidden"
    assert safe_file_name("Ærø Fleet") == "AEro_Fleet"
    assert safe_file_name("Élan") == "Elan"
    assert safe_file_name("CON") == "_CON" and safe_file_name("nul.txt") == "_nul.txt"
    # a name in another script: a stem of its own, different for different names
    assert safe_file_name("Жук").startswith("player-")
    assert safe_file_name("Жук") != safe_file_name("Жаба")
    assert len(safe_file_name("x" * 300)) == reports.MAX_FILE_STEM


def fake_player_file(session, name):
    ps = Session(session.game, name=f"{session.title} for {name}")
    return ps


def test_export_writes_one_folder_per_turn_with_each_players_files(tmp_path):
    s = fc_game()
    written = export_turn_reports(s, 1, tmp_path, player_file=fake_player_file, date=DATE)
    folder = tmp_path / "turn-1"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{n}.{ext}" for n in ("Blue", "Red", "Green") for ext in ("txt", "shipsheet"))
    assert set(written) == set(folder.iterdir())
    text = (folder / "Blue.txt").read_text("utf-8")
    lines = text.splitlines()
    assert lines[0] == "Subject: Operation Sample Hold T1 SITREP Blue" and lines[1] == ""
    assert "\n".join(lines[2:]) + "\n" == turn_report(s, "Blue", 1, date=DATE).body
    assert load_session(folder / "Red.shipsheet").name == "Operation Sample Hold for Red"
    s.apply(NextPhase())
    export_turn_reports(s, 2, tmp_path, player_file=fake_player_file)
    assert (tmp_path / "turn-2" / "Green.txt").exists() and (tmp_path / "turn-1").exists()


def test_export_uses_the_player_files_of_pbem_players_by_default(tmp_path):
    s = fc_game()
    export_turn_reports(s, 1, tmp_path, players=["Blue"])
    assert sorted(p.name for p in (tmp_path / "turn-1").iterdir()) == ["Blue.shipsheet", "Blue.txt"]
    ps = load_session(tmp_path / "turn-1" / "Blue.shipsheet")
    assert ps.pbem["role"] == "player" and ps.pbem["player"] == "Blue"
    if os.name == "posix":  # it holds the player's secret
        assert (tmp_path / "turn-1" / "Blue.shipsheet").stat().st_mode & 0o077 == 0
        export_turn_reports(s, 1, tmp_path, players=["Blue"])  # again, over the old files
        assert (tmp_path / "turn-1" / "Blue.shipsheet").stat().st_mode & 0o077 == 0
    assert {x.name for x in ps.ships} == {"Resolute", "Swift"}


def test_exported_names_are_safe_and_distinct(tmp_path):
    s = fc_game()
    s.apply(set_players_action(s, [{"name": ".hidden", "sides": ["Blue"]},
                                   {"name": "CON", "sides": ["Red"]},
                                   {"name": "_hidden", "sides": ["Green"]}]))
    written = export_turn_reports(s, 1, tmp_path, player_file=fake_player_file)
    names = [p.name for p in written if p.suffix == ".txt"]
    assert names == ["hidden.txt", "_CON.txt", "hidden-2.txt"]  # "_hidden" would be "hidden"
    assert all(p.parent == tmp_path / "turn-1" for p in written)
    assert not any(p.name.startswith(".") for p in (tmp_path / "turn-1").iterdir())


def test_export_refuses_a_session_without_players_or_a_turn_not_reached(tmp_path):
    s = Session("fedcom")
    with pytest.raises(RuleViolation, match="no play-by-e-mail players"):
        export_turn_reports(s, 1, tmp_path, player_file=fake_player_file)
    with pytest.raises(RuleViolation, match="no turn"):
        export_turn_reports(fc_game(), 5, tmp_path, player_file=fake_player_file)
    assert not (tmp_path / "turn-5").exists()


def test_the_pdf_of_each_players_ships_when_asked(qapp, tmp_path):
    from shipsheet.printing.pbem_pdf import ships_pdf
    s = fc_game()
    calls = []

    def pdf(session, ship_ids, path):
        calls.append((session, list(ship_ids)))
        return ships_pdf(session, ship_ids, path)

    export_turn_reports(s, 1, tmp_path, player_file=fake_player_file, pdf=pdf,
                        players=["Blue", "Green"])
    blue = tmp_path / "turn-1" / "Blue.pdf"
    assert blue.read_bytes().startswith(b"%PDF")
    assert (tmp_path / "turn-1" / "Green.pdf").read_bytes().startswith(b"%PDF")
    assert [len(ids) for _, ids in calls] == [2, 1]
    assert not (tmp_path / "turn-1" / "Red.pdf").exists()
    with pytest.raises(ValueError):
        ships_pdf(s, ["no-such-ship"], tmp_path / "x.pdf")


# -- the command line -----------------------------------------------------------------------------

def test_the_report_command(tmp_path, capsys):
    s = fc_game()
    path = tmp_path / "game.shipsheet"
    save_session(s, path)
    out = tmp_path / "out"
    assert report_command([str(path), "--turn", "1", "-o", str(out)]) == 0
    assert (out / "turn-1" / "Blue.txt").read_text("utf-8").startswith("Subject: ")
    assert (out / "turn-1" / "Red.shipsheet").exists()
    assert "Blue.txt" in capsys.readouterr().out
    assert report_command([str(path), "--turn", "9", "-o", str(out)]) == 1
    assert "no turn" in capsys.readouterr().err
    assert report_command([str(path), "--turn", "1", "-o", str(out), "--player", "Nobody"]) == 1


def test_the_report_command_with_pdf(qapp, tmp_path):
    """Through the command line, which hands the printing layer's PDF maker down to pbem."""
    from shipsheet.cli import main
    s = fc_game()
    path = tmp_path / "game.shipsheet"
    save_session(s, path)
    assert main(["pbem", "report", str(path), "--turn", "1", "-o", str(tmp_path), "--pdf",
                 "--player", "Red"]) == 0
    assert (tmp_path / "turn-1" / "Red.pdf").read_bytes().startswith(b"%PDF")
    assert report_command([str(path), "--turn", "1", "-o", str(tmp_path / "b"), "--pdf"]) == 1


def test_the_report_command_is_registered_with_the_pbem_commands():
    from shipsheet.pbem.cli import SUBCOMMANDS
    entry = SUBCOMMANDS["report"]
    assert entry is report_command or "report" in repr(entry)


# -- the README's sample ----------------------------------------------------------------------------

def sample_report_text() -> str:
    """Blue's report of turn 1 of :func:`fc_game` with verifiable dice, whose seeds and
    session uid are made reproducible here (``new_seed`` counts), so the sample is the same
    each time it is made."""
    import hashlib
    from unittest import mock

    import shipsheet.model.dice as model_dice
    import shipsheet.pbem.dice as pbem_dice
    made = iter(range(1000))

    def new_seed() -> str:
        return hashlib.sha256(f"sample seed {next(made)}".encode()).hexdigest()


    import shipsheet.model.ship as model_ship
    ids = iter(range(10_000))
    # A roll's key names the session and its purpose the ship: their ids are made fixed too.
    counted = types.SimpleNamespace(urandom=lambda n: hashlib.sha256(
        f"sample id {next(ids)}".encode()).digest()[:n])
    with mock.patch.object(model_dice, "new_seed", new_seed), \
            mock.patch.object(pbem_dice, "new_seed", new_seed), \
            mock.patch.object(model_ship, "os", counted):
        return turn_report(fc_game(verifiable=True), "Blue", 1, date=DATE).text


def test_the_sample_in_docs_is_a_real_report():
    """docs/sample-turn-report.txt is this module's sample game's report, made by the code
    (``SHIPSHEET_WRITE_SAMPLES=1`` writes it again)."""
    text = sample_report_text()
    if os.environ.get("SHIPSHEET_WRITE_SAMPLES") == "1":
        SAMPLE.write_text(text, "utf-8")
    saved = SAMPLE.read_text("utf-8")
    assert saved == text
    assert_narrow(saved)
    assert "DICE" in saved

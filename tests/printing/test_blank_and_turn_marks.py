"""Blank sheets for play on paper, this turn's marks apart, and what paper leaves out (issue 17).

Players who play on paper print a blank sheet of a class; players who mark hits during
simultaneous fire mark them with a single slash and cross them out (X) at the end of the
turn, so the sheet can show this turn's marks apart from earlier ones.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from shipsheet.model import NextTurn
from shipsheet.model.library import get_class
from shipsheet.model.storage import parse_session_bytes, session_to_bytes
from shipsheet.printing import PrintJob, export_pdf
from shipsheet.printing.cli import print_command
from shipsheet.printing.render import _split_log_line
from shipsheet.rules import fedcom, triplanetary as tp, war_in_space as wis
from shipsheet.rules.fedcom.card import card as fc_card
from shipsheet.sheets import painter_for

from test_pdf_export import pdf_text, sample


@pytest.mark.linux_only  # pdf_text: poppler-utils
def test_blank_sheets_from_the_command_line_one_page_per_class(tmp_path):
    out = tmp_path / "blank.pdf"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # no display
    run = subprocess.run([sys.executable, "-m", "shipsheet", "print", "--blank",
                          "war-in-space/cruiser", "--blank", "triplanetary/frigate", "--blank",
                          "fedcom/sample-frigate", "-o", str(out)],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert "3 pages (3 blank)" in run.stdout
    pages = pdf_text(out)
    for page, name in zip(pages, ("Vigilant-class Cruiser", "Frigate", "Sample Frigate")):
        assert "Ship's name" in page and f"{name} · blank sheet" in page
        assert "click" not in page.lower() and "hover" not in page.lower()
    assert "0 of 27 boxes destroyed" in pages[2]


def test_a_blank_sheet_has_every_box_empty(qapp):
    """A fresh ship of the class, no name, no session: nothing marked, nothing chosen."""
    sheet = painter_for(__import__("shipsheet.printing.render", fromlist=["x"]).blank_ship(
        get_class("triplanetary/frigate")), None)
    sheet.size()
    assert sheet.ship.name == "" and not tp.is_damaged(sheet.ship)


def test_an_unknown_class_is_refused_by_name(tmp_path, capsys):
    assert print_command(["--blank", "fedcom/no-such-ship", "-o", str(tmp_path / "x.pdf")]) == 1
    assert 'no class "fedcom/no-such-ship"' in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()
    with pytest.raises(SystemExit):
        print_command(["-o", str(tmp_path / "x.pdf")])  # neither a file nor --blank


@pytest.mark.linux_only  # pdf_text: poppler-utils
def test_paper_gets_no_screen_hints(qapp, tmp_path):
    """Before: "click a box to mark or regenerate", "Click a box: its next state ·
    right-click: more" and "hover it" were printed."""
    for game in ("fedcom", "war-in-space"):
        session = sample(game)
        out = tmp_path / f"{game}.pdf"
        export_pdf(PrintJob(session, list(session.ships)), out)
        text = " ".join(pdf_text(out)).lower()
        assert "click" not in text and "hover" not in text, game


def test_log_lines_wrap_under_their_text():
    assert _split_log_line("T1 Combat |     Kite: hit") == ("T1 Combat |     ", "Kite: hit")
    assert _split_log_line("no bar here") == ("", "no bar here")


# -- this turn's marks ------------------------------------------------------------------------

def test_the_session_keeps_each_ships_state_at_the_start_of_the_turn():
    session = sample("war-in-space")
    ship = session.ships[0]
    start = session.turn_start_state(ship)
    session.apply(wis.mark_system_box_action(ship, "Fire Control"))
    assert session.turn_start_state(ship) == start != ship.state
    again = parse_session_bytes(session_to_bytes(session))
    assert again.turn_start_state(again.ship(ship.id)) == start  # saved and opened again
    session.undo()
    assert ship.state == start
    session.redo()
    session.apply(NextTurn())
    assert session.turn_start_state(ship) == ship.state  # a new turn starts from here
    session.undo()
    assert session.turn_start_state(ship) == start  # undo brings the turn's start back


def test_new_marks_are_a_slash_and_earlier_ones_an_x(qapp):
    """Federation Commander: a box destroyed before this turn and one destroyed in it."""
    session = sample("fedcom")
    ship = next(s for s in session.ships if s.state["destroyed"])
    old = ship.state["destroyed"][0]
    fresh = next(b.id for b in fc_card(ship).boxes
                 if b.id not in ship.state["destroyed"] and b.kind != "frame")
    session.apply(fedcom.mark_box_action(ship, fresh))
    apart = painter_for(ship, session, turn_marks=True)
    assert apart._destroyed_mark(old, True) == "x"
    assert apart._destroyed_mark(fresh, True) == "slash"
    plain = painter_for(ship, session)
    assert plain._destroyed_mark(fresh, True) == plain._destroyed_mark(old, True) == "x"


@pytest.mark.linux_only  # pdf_text: poppler-utils
@pytest.mark.parametrize("game", ["war-in-space", "triplanetary", "fedcom"])
def test_the_turn_marks_page_has_its_key_and_draws_differently(qapp, tmp_path, game):
    session = sample(game)
    ship = session.ships[0]
    if game == "war-in-space":
        session.apply(wis.mark_system_box_action(ship, "Fire Control"))
    elif game == "triplanetary":
        session.apply(tp.damage_action(ship, structure=1))
    else:
        fresh = next(b.id for b in fc_card(ship).boxes if b.id not in ship.state["destroyed"])
        session.apply(fedcom.mark_box_action(ship, fresh))
    plain, apart = tmp_path / "plain.pdf", tmp_path / "apart.pdf"
    export_pdf(PrintJob(session, [ship]), plain)
    export_pdf(PrintJob(session, [ship], turn_marks=True), apart)
    text = pdf_text(apart)[0]
    assert "marked this turn" in text and "marked before this turn" in text
    assert "marked this turn" not in pdf_text(plain)[0]


@pytest.mark.linux_only  # pdf_text: poppler-utils
def test_the_turn_marks_page_has_one_key_to_slash_and_x(qapp, tmp_path):
    """With this turn's marks apart, slash and X say when a box was marked; the card's own
    key ("X destroyed", "slash: shield box down") would contradict the key under the title."""
    session = sample("fedcom")
    ship = session.ships[0]
    plain, apart = tmp_path / "plain.pdf", tmp_path / "apart.pdf"
    export_pdf(PrintJob(session, [ship]), plain)
    export_pdf(PrintJob(session, [ship], turn_marks=True), apart)
    assert "shield box down" in pdf_text(plain)[0]
    text = pdf_text(apart)[0]
    assert "shield box down" not in text and "marked before this turn" in text
    assert "fired, charging, launched or used this turn" in text

"""What goes on paper is what paper can use, and fits the page.

Rendered and looked at (pdftoppm): the Triplanetary counter printed the window's −10 −1 +1 +10
step buttons, a blank orbital base came with "0 t" already written in its cargo box, a long
ship name ran off the page and a long session title ran under the page number."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from shipsheet.printing import PrintJob, export_pdf
from shipsheet.printing.cli import print_command
from shipsheet.sheets import Theme, painter_for

sys.path.insert(0, str(Path(__file__).parent))
from test_pdf_export import _poppler, pdf_text, sample  # noqa: E402,F401  (poppler check)

# Reads the PDFs with poppler-utils, a Debian package make test installs (HACKING.md, Platforms).
pytestmark = pytest.mark.linux_only


def test_a_printed_counter_has_no_step_buttons_but_the_window_keeps_them(qapp, tmp_path):
    session = sample("triplanetary")
    base = session.ship("Phobos Station")
    screen, paper = painter_for(base, session), painter_for(base, session)
    screen.layout()
    paper.record(Theme.print_theme())
    assert {a.key for a in screen.areas} >= {"cargo:-10", "cargo:-1", "cargo:+1", "cargo:+10"}
    assert not [a.key for a in paper.areas if a.key.startswith("cargo:")]
    pdf = tmp_path / "tri.pdf"
    export_pdf(PrintJob(session, [base]), pdf)
    page = pdf_text(pdf)[0]
    assert "0 t" in page and "+10" not in page and "+1 " not in page


def test_a_blank_sheets_counter_is_left_to_write_in(qapp, tmp_path):
    pdf = tmp_path / "blank.pdf"
    assert print_command(["--blank", "triplanetary/orbital-base", "-o", str(pdf)]) == 0
    page = pdf_text(pdf)[0]
    cargo_line = next(line for line in page.splitlines() if line.strip().startswith("CARGO"))
    assert cargo_line.strip() == "CARGO"  # an empty box beside it, no "0 t", no steps


def test_a_long_ship_name_ends_in_an_ellipsis_on_the_page(qapp, tmp_path):
    session = sample("fedcom")
    ship = session.ships[0]
    ship.name = "The Indefatigable Pride of the Outer Colonies Reserve Flotilla Two"
    pdf = tmp_path / "long.pdf"
    export_pdf(PrintJob(session, [ship]), pdf)
    title = pdf_text(pdf)[0].strip().splitlines()[0]
    assert title.startswith("The Indefatigable Pride") and title.rstrip().endswith("...")
    assert ship.name not in pdf_text(pdf)[0]


def test_a_long_title_stops_before_the_page_number(qapp, tmp_path):
    session = sample("fedcom")
    pdf = tmp_path / "title.pdf"
    export_pdf(PrintJob(session, session.ships[:1], title="A" * 40 + " " + "B" * 200,
                        turn_marks=True), pdf)
    footer = [line for line in pdf_text(pdf)[0].splitlines() if "page 1" in line][0]
    assert "..." in footer and footer.rstrip().endswith("page 1")
    assert "printed" not in footer  # the end of the long text gave way to the page number


def test_the_command_says_page_and_ship_in_the_singular_for_one(qapp, tmp_path, capsys):
    pdf = tmp_path / "one.pdf"
    assert print_command([str(Path(sample.__code__.co_filename).parents[2] / "resources"
                              / "samples" / "fedcom.shipsheet"), "--ship", "Resolute",
                          "-o", str(pdf)]) == 0
    assert "1 page (1 ship)" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["fedcom", "triplanetary", "war-in-space"])
def test_every_sample_prints_with_the_name_whole(qapp, tmp_path, game):
    """The samples' names are short: nothing of them is cut."""
    session = sample(game)
    pdf = tmp_path / "s.pdf"
    export_pdf(PrintJob(session, list(session.ships)), pdf)
    for ship, page in zip(session.ships, pdf_text(pdf)):
        assert ship.name in page and "..." not in page.strip().splitlines()[0]

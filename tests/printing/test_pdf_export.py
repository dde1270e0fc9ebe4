"""Filled sheets to PDF: text stays text, one ship per page, marks show, headless CLI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shipsheet.model import load_session
from shipsheet.model.paths import resources_dir
from shipsheet.printing import PrintJob, export_pdf
from shipsheet.printing.cli import print_command

# Reads the PDFs with poppler-utils, a Debian package make test installs (HACKING.md, Platforms).
pytestmark = pytest.mark.linux_only

GAMES = ["war-in-space", "triplanetary", "fedcom"]


@pytest.fixture(autouse=True)
def _poppler():
    assert shutil.which("pdftotext") and shutil.which("pdftoppm"), \
        "these tests need poppler-utils (Debian/Ubuntu: apt-get install poppler-utils); make test installs it (packaging/system_deps.py)"


def sample(game):
    return load_session(resources_dir() / "samples" / f"{game}.shipsheet")


def pdf_text(path: Path) -> list[str]:
    """The text of each page."""
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    import unicodedata
    return [unicodedata.normalize("NFKC", page) for page in out.stdout.split("\f")]


def page_png(pdf: Path, page: int, out: Path):
    from PySide6.QtGui import QImage
    subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", str(page), "-l", str(page), "-singlefile",
                    str(pdf), str(out)], check=True)
    return QImage(str(out) + ".png")


@pytest.mark.parametrize("game", GAMES)
def test_each_sample_session_prints_every_ship_with_name_class_and_state(qapp, tmp_path, game):
    session = sample(game)
    pdf = tmp_path / f"{game}.pdf"
    pages = export_pdf(PrintJob(session, list(session.ships), log=True), pdf)
    assert pages >= len(session.ships) + 1
    texts = pdf_text(pdf)
    for i, ship in enumerate(session.ships):
        page = texts[i]
        assert ship.name in page and ship.ship_class.name in page
        for word in session.rules.status_chips(ship):
            assert word in page, (ship.name, word)
        assert f"Turn {session.turn}, {session.phase}" in page
    assert "Session log" in texts[len(session.ships)]


def test_page_is_not_blank_and_damage_changes_it(qapp, tmp_path):
    from shipsheet.model import Session, get_class, new_ship
    from shipsheet.rules import triplanetary as tp
    session = Session("triplanetary", name="Marks")
    session.add_ship(new_ship(get_class("triplanetary/frigate"), "Nike"))
    clean = tmp_path / "clean.pdf"
    export_pdf(PrintJob(session, list(session.ships)), clean)
    tp.apply_damage(session.ships[0], weapon=2, drive=1, structure=3)
    damaged = tmp_path / "damaged.pdf"
    export_pdf(PrintJob(session, list(session.ships)), damaged)
    a = page_png(clean, 1, tmp_path / "a")
    b = page_png(damaged, 1, tmp_path / "b")
    assert a.size() == b.size()
    dark = sum(1 for y in range(0, a.height(), 2) for x in range(0, a.width(), 2)
               if a.pixelColor(x, y).lightness() < 200)
    assert dark > 100  # ink on the page
    differing = sum(1 for y in range(0, a.height(), 2) for x in range(0, a.width(), 2)
                    if a.pixelColor(x, y) != b.pixelColor(x, y))
    assert differing > 20


def test_letter_and_a4_page_sizes(qapp, tmp_path):
    session = sample("triplanetary")
    for size, width in (("A4", 595), ("Letter", 612)):
        pdf = tmp_path / f"{size}.pdf"
        export_pdf(PrintJob(session, session.ships[:1], page_size=size), pdf)
        head = pdf.read_bytes()
        assert f"/MediaBox [0 0 {width}".encode() in head


def test_cancelled_export_leaves_no_file(qapp, tmp_path):
    from shipsheet.printing.render import Cancelled
    session = sample("fedcom")
    pdf = tmp_path / "cancel.pdf"
    with pytest.raises(Cancelled):
        export_pdf(PrintJob(session, list(session.ships)), pdf, progress=lambda done, total: done < 2)
    assert list(tmp_path.iterdir()) == []


def test_print_command_headless(tmp_path):
    src = resources_dir() / "samples" / "triplanetary.shipsheet"
    session = load_session(src)
    name = session.ships[1].name
    out = tmp_path / "night.pdf"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # no DISPLAY, no QT_QPA_PLATFORM
    run = subprocess.run([sys.executable, "-m", "shipsheet", "print", str(src), "--ship", name, "--log",
                          "-o", str(out)], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    texts = pdf_text(out)
    assert name in texts[0] and "Session log" in texts[1]


def test_print_command_errors(tmp_path, capsys):
    src = resources_dir() / "samples" / "triplanetary.shipsheet"
    assert print_command([str(src), "--ship", "Nobody", "-o", str(tmp_path / "x.pdf")]) == 1
    assert 'no ship "Nobody"' in capsys.readouterr().err
    bad = tmp_path / "bad.shipsheet"
    bad.write_text("{")
    assert print_command([str(bad), "--all", "-o", str(tmp_path / "x.pdf")]) == 1
    assert "bad.shipsheet: damaged or truncated" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()

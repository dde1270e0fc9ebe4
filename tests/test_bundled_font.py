"""One bundled font (issue 30): every sheet is measured in DejaVu Sans from
``resources/fonts/``, whatever fonts the system has, and the phones are served the very
files Qt draws with.

The layout step of every sample ship's sheet (each box's rectangle, the sheet's size, on
the paper and on the phone) and some label widths are worked out in a process of its own
(``bundled_font_worker.py``) three times: with the system's fonts as they are, with none
(fontconfig reading a configuration that names no folder, Qt's font folder empty), and
beside another "DejaVu Sans" whose letters are half as wide again — and must come out the
same to the last decimal."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from shipsheet.sheets.fonts import FAMILY, font_path, register_bundled_fonts, registered_files

WORKER = Path(__file__).resolve().parent / "bundled_font_worker.py"
SUITS = "♠♥♦♣"  # War In Space's suits, on its sheet and in its log


def _layout(env: dict | None = None) -> dict:
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("FONTCONFIG", "QT_QPA_FONTDIR"))}
    run_env["QT_QPA_PLATFORM"] = "offscreen"
    run_env.update(env or {})
    done = subprocess.run([sys.executable, str(WORKER)], env=run_env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def _fontconfig(folder: Path, font_dirs: list[Path]) -> dict:
    """The environment of a process whose fontconfig knows only ``font_dirs``."""
    dirs = "".join(f"<dir>{d}</dir>" for d in font_dirs)
    conf = folder / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
                    f"<fontconfig>{dirs}<cachedir>{folder / 'cache'}</cachedir></fontconfig>\n")
    empty = folder / "qt-fonts"
    empty.mkdir()
    return {"FONTCONFIG_FILE": str(conf), "QT_QPA_FONTDIR": str(empty)}


def _wider(source: Path, target: Path) -> None:
    """A copy of ``source`` with every advance half as wide again: the same family name, other
    widths — another machine's "DejaVu Sans"."""
    data = bytearray(source.read_bytes())
    count = struct.unpack_from(">H", data, 4)[0]
    tables = {bytes(data[12 + 16 * i:16 + 16 * i]): struct.unpack_from(">II", data, 20 + 16 * i)
              for i in range(count)}
    hhea, _ = tables[b"hhea"]
    hmtx, _ = tables[b"hmtx"]
    metrics = struct.unpack_from(">H", data, hhea + 34)[0]
    for i in range(metrics):
        advance = struct.unpack_from(">H", data, hmtx + 4 * i)[0]
        struct.pack_into(">H", data, hmtx + 4 * i, min(65535, advance * 3 // 2))
    target.write_bytes(bytes(data))


@pytest.fixture(scope="module")
def as_installed():
    return _layout()


def _same(layout: dict, reference: dict) -> None:
    assert layout["family"] == FAMILY and layout["suits"]
    assert layout["widths"] == reference["widths"]
    assert layout["sheets"].keys() == reference["sheets"].keys()
    moved = [name for name in reference["sheets"] if layout["sheets"][name] != reference["sheets"][name]]
    assert not moved, f"laid out otherwise: {moved}"


def test_a_sheet_is_laid_out_the_same_with_the_systems_fonts_hidden(as_installed, tmp_path):
    assert len(as_installed["sheets"]) >= 12 and all(s["boxes"] for s in as_installed["sheets"].values())
    _same(_layout(_fontconfig(tmp_path, [])), as_installed)


def test_another_dejavu_sans_on_the_system_changes_nothing(as_installed, tmp_path):
    fonts = tmp_path / "system-fonts"
    fonts.mkdir()
    _wider(font_path(False), fonts / "DejaVuSans.ttf")
    _wider(font_path(True), fonts / "DejaVuSans-Bold.ttf")
    _same(_layout(_fontconfig(tmp_path, [fonts])), as_installed)


def test_the_phone_is_served_the_files_the_sheets_are_drawn_with(qtbot):
    from share.phone import Phone, sample, share, wait

    from shipsheet.share.seats import REFEREE
    session = sample("war-in-space")
    link, (referee,) = share(session, seats=[("Referee", REFEREE, (), ())])
    try:
        phone = Phone(link.url(referee))
        status, _, _ = wait(qtbot, phone.pair)
        assert status == 200
        status, state, _ = wait(qtbot, phone.state)  # the sheets are drawn for it
        assert status == 200 and state["ships"]
        status, css, _ = wait(qtbot, lambda: phone.request("GET", "/static/page.css"))
        faces = re.findall(r'@font-face \{[^}]*font-family: "([^"]+)"; src: url\("([^"]+)"\)[^}]*'
                           r"font-weight: (\d+)", css.decode())
        assert {(family, weight) for family, _, weight in faces} == {(FAMILY, "400"), (FAMILY, "700")}
        for _, url, weight in faces:
            status, body, headers = wait(qtbot, lambda url=url: phone.request("GET", url))
            assert status == 200 and headers["Content-Type"] == "font/ttf"
            assert body == font_path(weight == "700").read_bytes()
    finally:
        link.stop()
    assert registered_files() == (font_path(False), font_path(True))


def test_the_font_has_the_suits(qapp):
    from PySide6.QtGui import QFontInfo, QFontMetricsF, QRawFont

    from shipsheet.sheets.base import sheet_font
    assert register_bundled_fonts() == FAMILY == register_bundled_fonts()
    for bold in (False, True):
        raw = QRawFont(str(font_path(bold)), 12)
        assert raw.familyName() == FAMILY
        assert all(raw.supportsCharacter(ord(suit)) for suit in SUITS)
        font = sheet_font(9, bold)
        assert QFontInfo(font).family() == FAMILY and QFontInfo(font).bold() == bold
        assert all(QFontMetricsF(font).inFontUcs4(ord(suit)) for suit in SUITS)
    licence = (font_path().parent / "LICENSE-DejaVu.txt").read_text("utf-8")
    assert "Bitstream Vera" in licence and "DejaVu changes are in public domain" in licence

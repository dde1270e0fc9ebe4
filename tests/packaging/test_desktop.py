"""Desktop integration: a real X server, the desktop entry, AppStream and MIME files, icons."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
APP_ID = "io.github.shipsheet.ShipSheet"


@pytest.mark.linux_only
def test_real_x_server_draws_the_sheet(tmp_path):
    """Under Xvfb (the xcb platform, not offscreen): the window shows the sample's sheet."""
    assert shutil.which("xvfb-run"), ("needs xvfb (Debian: apt-get install xvfb); make test "
                                      "installs it (packaging/system_deps.py)")
    shot = tmp_path / "screen.png"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = "xcb"
    run = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x900x24", sys.executable,
                          str(Path(__file__).with_name("xvfb_shot.py")),
                          str(ROOT / "resources/samples/fedcom.shipsheet"), str(shot)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    x, y, w, h = map(int, run.stdout.split("canvas")[1].split())
    from PySide6.QtGui import QImage
    image = QImage(str(shot))
    assert image.width() >= 1200
    # The sheet: light paper with dark ink (text and boxes) inside the canvas.
    inked = paper = 0
    for py in range(y + 10, min(y + h, image.height()) - 10, 3):
        for px in range(x + 10, min(x + w, image.width()) - 10, 3):
            light = image.pixelColor(px, py).lightness()
            inked += light < 100
            paper += light > 200
    assert paper > 1000 and inked > 200, (paper, inked)


@pytest.mark.linux_only
def test_desktop_entry_is_valid():
    tool = shutil.which("desktop-file-validate")
    assert tool, "needs desktop-file-utils; make test installs it (packaging/system_deps.py)"
    run = subprocess.run([tool, str(LINUX / f"{APP_ID}.desktop")], capture_output=True, text=True)
    assert run.returncode == 0 and not run.stdout.strip(), run.stdout + run.stderr


@pytest.mark.linux_only
def test_appstream_metainfo_is_valid():
    tool = shutil.which("appstreamcli")
    assert tool, "needs appstream; make test installs it (packaging/system_deps.py)"
    run = subprocess.run([tool, "validate", "--no-net", str(LINUX / f"{APP_ID}.metainfo.xml")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_mime_type_matches_session_files():
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    root = ET.parse(LINUX / "shipsheet-mime.xml").getroot()
    mime = root.find("m:mime-type", ns)
    assert mime.get("type") == "application/x-shipsheet-session"
    assert mime.find("m:glob", ns).get("pattern") == "*.shipsheet"
    desktop = (LINUX / f"{APP_ID}.desktop").read_text()
    assert "MimeType=application/x-shipsheet-session;" in desktop


@pytest.mark.parametrize("size", [16, 24, 32, 48, 64, 128, 256, 512])
def test_icons_in_the_usual_sizes(size):
    from PySide6.QtGui import QImage
    image = QImage(str(ROOT / f"packaging/icons/hicolor/{size}x{size}/apps/{APP_ID}.png"))
    assert (image.width(), image.height()) == (size, size)
    assert (ROOT / f"packaging/icons/hicolor/scalable/apps/{APP_ID}.svg").is_file()

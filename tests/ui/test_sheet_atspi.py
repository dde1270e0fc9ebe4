"""End to end: a screen reader's view of a War In Space sheet, read from outside the app.

The app runs on a real X server (Xvfb) in a D-Bus session of its own with the AT-SPI bus
(Debian's at-spi2-core); ``atspi_reader.py``, run by Debian's python3 with pyatspi, finds
the sheet, reads its boxes' names, states and actions, and activates one. ``linux_only``:
AT-SPI is Linux's accessibility bus (make test installs the packages,
packaging/system_deps.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")
DEBIAN_PYTHON = Path("/usr/bin/python3")

SCRIPT = r"""
set -e
"$LAUNCHER" --launch-immediately &
"$APP_PYTHON" -m shipsheet "$SESSION" &
app=$!
"$DEBIAN_PYTHON" "$READER" ShipSheet "Sheet of Vigilant" "Reactor box 1 of 4" || status=$?
kill $app 2>/dev/null || true
wait $app 2>/dev/null || true
exit ${status:-0}
"""


def _needs() -> None:
    for tool in ("xvfb-run", "dbus-run-session"):
        assert shutil.which(tool), f"needs {tool}; make test installs it (packaging/system_deps.py)"
    assert LAUNCHER.exists(), "needs at-spi2-core; make test installs it (packaging/system_deps.py)"
    probe = subprocess.run([str(DEBIAN_PYTHON), "-c", "import pyatspi"], capture_output=True)
    assert probe.returncode == 0, ("needs Debian's python3-pyatspi; make test installs it "
                                   "(packaging/system_deps.py)")


@pytest.mark.linux_only
def test_a_screen_reader_reads_and_activates_a_war_in_space_sheets_boxes(tmp_path):
    _needs()
    session = tmp_path / "war-in-space.shipsheet"
    shutil.copyfile(ROOT / "resources" / "samples" / "war-in-space.shipsheet", session)
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS",
                        "AT_SPI_BUS_ADDRESS")}
    env.update(QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1",
               LAUNCHER=str(LAUNCHER), APP_PYTHON=sys.executable, SESSION=str(session),
               DEBIAN_PYTHON=str(DEBIAN_PYTHON), READER=str(Path(__file__).with_name("atspi_reader.py")),
               PYTHONPATH=str(ROOT))
    run = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1366x768x24", "dbus-run-session", "--",
                          "bash", "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=150)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-3000:])
    sheet = lines[0]
    assert sheet["sheet"]["name"] == "Sheet of Vigilant"
    boxes = [line["box"] for line in lines if "box" in line]
    assert len(boxes) == sheet["children"] > 20
    names = [b["name"] for b in boxes]
    # Each box by its name and state, in the rules' words for a reader (never "click").
    assert "Reactor box 1 of 4: unmarked" in names
    assert "Reactor die ladder: d10" in names
    reactor = boxes[names.index("Reactor box 1 of 4: unmarked")]
    assert reactor["role"] == "push button"
    assert "focusable" in reactor["states"] and "showing" in reactor["states"]
    assert reactor["actions"][0][0] == "Press"
    assert reactor["actions"][0][1].startswith("Activate to mark damage")
    assert not any("lick" in b["name"] + b["description"] for b in boxes)
    # Activated from outside: the box is marked, and says so.
    after = lines[-1]["after"]
    assert after["name"].startswith("Reactor box 1 of 4") and after["name"] != reactor["name"]

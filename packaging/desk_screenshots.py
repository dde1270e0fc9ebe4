"""The desk on a real X server, as a laptop shows it: 1366×768, light, dark, after a switch
of appearance each way, and at scale 2 (the same screen at twice the pixels).

Run: xvfb-run is started here for each picture (needs Debian's xvfb; make test installs
it). Writes docs/screenshots/desk-*.png, each the X server's whole root window (what a
user sees, window frame left to the window manager: there is none under Xvfb).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"

#: picture -> (Xvfb screen, Qt scale factor, appearance at start, switch to, or None)
PICTURES = {
    "desk-1366-light.png": ("1366x768x24", "1", "light", None),
    "desk-1366-dark.png": ("1366x768x24", "1", "dark", None),
    "desk-1366-light-to-dark.png": ("1366x768x24", "1", "light", "dark"),
    "desk-1366-dark-to-light.png": ("1366x768x24", "1", "dark", "light"),
    "desk-scale-2.png": ("2732x1536x24", "2", "light", None),
}

DRIVER = r"""
import sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from shipsheet.model.autosave import AutosaveStore
from shipsheet.ui.app import Application, make_qapp
from shipsheet.ui.settings import set_setting
from shipsheet.ui.palette import apply_color_scheme

out, start, switch, sample = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
set_setting("appearance", start)
qapp = make_qapp()
apply_color_scheme(qapp, start)
app = Application(qapp, AutosaveStore(Path(out).with_suffix(".autosave")))
window = app.new_window()
window.open_path(sample)
window.show()
window.setGeometry(qapp.primaryScreen().availableGeometry())  # no window manager to maximize

def shoot():
    if switch != "none":
        window.set_appearance(switch)
        QApplication.processEvents()
    QTimer.singleShot(600, grab)

def grab():
    QApplication.processEvents()
    qapp.primaryScreen().grabWindow(0).save(out)
    window.doc.mark_clean()
    qapp.quit()

QTimer.singleShot(1200, shoot)
qapp.exec()
"""


def main() -> int:
    if not shutil.which("xvfb-run"):
        print("needs xvfb-run (Debian: apt-get install xvfb)", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        sample = Path(tmp) / "fedcom.shipsheet"
        shutil.copyfile(ROOT / "resources" / "samples" / "fedcom.shipsheet", sample)
        for name, (screen, scale, start, switch) in PICTURES.items():
            env = {k: v for k, v in os.environ.items()
                   if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
            env.update(QT_QPA_PLATFORM="xcb", QT_SCALE_FACTOR=scale, PYTHONPATH=str(ROOT),
                       SHIPSHEET_CONFIG_DIR=str(Path(tmp) / name / "config"),
                       SHIPSHEET_DATA_DIR=str(Path(tmp) / name / "data"),
                       SHIPSHEET_STATE_DIR=str(Path(tmp) / name / "state"))
            target = Path(tmp) / "shots" / name
            target.parent.mkdir(exist_ok=True)
            subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {screen}", sys.executable, "-c",
                            DRIVER, str(target), start, switch or "none", str(sample)],
                           env=env, check=True, timeout=120)
            shutil.copyfile(target, OUT / name)
            print("wrote", OUT / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())

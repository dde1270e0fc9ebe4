"""macOS opens a double-clicked ``.shipsheet`` by sending the running app a QFileOpenEvent:
ShipSheet's QApplication (shipsheet.ui.app.ShipSheetApplication) opens it in a window.

Run in a process of its own: the suite's QApplication is pytest-qt's, not ours."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from shipsheet.model.paths import resources_dir

SCRIPT = r"""
import json, sys
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication
from shipsheet.model.autosave import AutosaveStore
from shipsheet.ui.app import Application, ShipSheetApplication, make_qapp

qapp = make_qapp()
assert isinstance(qapp, ShipSheetApplication)
application = Application(qapp, AutosaveStore(sys.argv[3]))
window = application.new_window()
assert application.listen_for_file_open()
seen = []
for path in sys.argv[1:3]:
    QApplication.postEvent(qapp, QFileOpenEvent(path))  # as the Finder's open-document event
    for _ in range(20):
        qapp.processEvents()
    seen.append([[w.windowTitle(), str(w.doc.path) if w.doc else None, w.isVisible()]
                 for w in application.windows])
for w in application.windows:
    w.doc.mark_clean()
print(json.dumps({"first_is_the_window": application.windows[0] is window, "seen": seen}))
"""


def test_file_open_event_opens_the_file_then_a_new_window(tmp_path):
    # Copies: opening a file locks it, beside it.
    first = Path(shutil.copy(resources_dir() / "samples" / "fedcom.shipsheet", tmp_path))
    second = Path(shutil.copy(resources_dir() / "samples" / "triplanetary.shipsheet", tmp_path))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(first), str(second), str(tmp_path / "autosave")],
                         capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["first_is_the_window"]
    after_first, after_second = result["seen"]
    # The empty window took the first file ...
    assert [(path, shown) for _, path, shown in after_first] == [(str(first), True)]
    assert "fedcom.shipsheet" in after_first[0][0]
    # ... and the second, with that window busy, opened in a new window beside it.
    assert [(path, shown) for _, path, shown in after_second] == [(str(first), True), (str(second), True)]
    assert "triplanetary.shipsheet" in after_second[1][0]

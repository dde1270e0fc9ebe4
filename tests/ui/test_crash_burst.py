"""Crash in the middle of a burst of changes: at most the last 2 seconds of work are lost.

The app, in its own process, renames a ship every 40 ms ("Nike 1", "Nike 2", ...)
and reports each change with its time; we kill it (SIGKILL) at a random moment
after a couple of seconds of this, and the next start restores the autosave.
"""

from __future__ import annotations

import os
import random
import signal
import time

APP = r"""
import sys, time
from PySide6.QtCore import QTimer
from shipsheet.model import RenameShip
from shipsheet.model.autosave import AutosaveStore
from shipsheet.ui.app import Application, make_qapp
qapp = make_qapp()
application = Application(qapp, AutosaveStore(sys.argv[2]))
window = application.new_window()
window.open_path(sys.argv[1])
n = 0
def change():
    global n
    n += 1
    window.doc.do(RenameShip(window.doc.current_ship, f"Nike {n}"))
    print(n, time.monotonic(), flush=True)
timer = QTimer()
timer.timeout.connect(change)
timer.start(40)
qapp.exec()
"""


def test_kill_during_a_burst_loses_at_most_two_seconds(app, start_app_process, monkeypatch, qtbot):
    proc, _path = start_app_process(APP)
    made: dict[int, float] = {}
    kill_after = random.Random(8).uniform(2.5, 4.0)
    try:
        first = proc.stdout.readline().split()
        made[int(first[0])] = float(first[1])
        started = time.monotonic()
        while time.monotonic() - started < kill_after:
            n, t = proc.stdout.readline().split()
            made[int(n)] = float(t)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        killed_at = time.monotonic()
        proc.wait()
    assert len(made) > 40  # a real burst: a change every 40 ms

    import shipsheet.ui.app as app_module
    monkeypatch.setattr(app_module, "ask_recover", lambda parent, infos: infos[0])
    window = app.new_window()
    qtbot.addWidget(window)
    assert app.recover(window)
    name = window.doc.session.ships[0].name
    saved = int(name.split()[1])
    lost = killed_at - made[saved]
    assert lost <= 2.0, f"the autosave held change {saved} of {max(made)}: {lost:.2f} s of work lost"

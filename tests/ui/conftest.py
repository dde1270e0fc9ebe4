"""pytest-qt fixtures for the window: a user's view of ShipSheet, with no real dialogs.

Modal dialogs would block a test, so message boxes and file pickers are
replaced by fixtures that record what was asked and answer as a user would.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from shipsheet.model.autosave import AutosaveStore
from shipsheet.ui.app import Application, make_qapp


@pytest.fixture
def autosave(tmp_path) -> AutosaveStore:
    return AutosaveStore(tmp_path / "autosave")


@pytest.fixture
def app(qapp, autosave):
    application = Application(make_qapp(), autosave)
    yield application
    for window in list(application.windows):
        if window.doc is not None:
            window.doc.mark_clean()
        window.close()


@pytest.fixture
def window(app, qtbot):
    win = app.new_window()
    qtbot.addWidget(win)
    return win


class Dialogs:
    """Records message boxes; answers questions with ``answer``; file pickers with ``path``."""

    def __init__(self):
        self.shown: list[tuple[str, str, str]] = []
        self.answer = QMessageBox.StandardButton.Discard
        self.path = ""

    def _record(self, kind):
        def show(parent, title, text, *args, **kwargs):
            self.shown.append((kind, title, text))
            return self.answer
        return show


@pytest.fixture(autouse=True)
def dialogs(monkeypatch) -> Dialogs:
    """Autouse: a real modal dialog would block the test run."""
    d = Dialogs()
    for kind in ("warning", "information", "question", "critical"):
        monkeypatch.setattr(QMessageBox, kind, staticmethod(d._record(kind)))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (d.path, "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (d.path, "")))
    return d


@pytest.fixture
def start_app_process(tmp_path, autosave):
    """Start the app in a process of its own on a one-frigate session saved a minute ago.

    ``start(script)`` runs ``script`` (Python) with ``sys.argv[1]`` the session file and
    ``sys.argv[2]`` the autosave folder; returns (process, session path). The process is
    killed (SIGKILL) at the end of the test if the test has not done so: crash tests.
    """
    import os
    import subprocess
    import sys
    import time

    from shipsheet.model import Session, get_class, new_ship, save_session

    procs = []

    def start(script: str):
        path = tmp_path / "patrol.shipsheet"
        session = Session("triplanetary", name="Patrol")
        session.add_ship(new_ship(get_class("triplanetary/frigate"), "Nike"))
        save_session(session, path)
        old = time.time() - 60
        os.utime(path, (old, old))
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        proc = subprocess.Popen([sys.executable, "-c", script, str(path), str(autosave.folder)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        procs.append(proc)
        return proc, path

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()  # SIGKILL; TerminateProcess on Windows
            proc.wait()

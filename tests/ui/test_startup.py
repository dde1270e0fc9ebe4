"""Starting the app on a file: the first thing painted is the session, a bad file is
reported over the window, and the cycle collector is back on once the window is up."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

from PySide6.QtCore import QEvent, QTimer
from PySide6.QtWidgets import QApplication

from shipsheet.model import Session, SessionFileError, get_class, load_session, new_ship, save_session
from shipsheet.ui import app as app_module


def _patrol(tmp_path):
    path = tmp_path / "patrol.shipsheet"
    session = Session("triplanetary", name="Patrol")
    session.add_ship(new_ship(get_class("triplanetary/frigate"), "Nike"))
    save_session(session, path)
    return path


def _run(monkeypatch, path, loaded, inspect):
    """``run_app`` as the command line calls it; ``inspect(window)`` runs in its event loop,
    then the windows close and the loop ends."""
    seen = {}
    made = []
    real_new_window = app_module.Application.new_window

    def new_window(self, *, show=True):
        window = real_new_window(self, show=show)
        made.append(window)
        # What the window holds the moment it is first shown (before its first paint).
        original_show_event = window.showEvent

        def show_event(event):
            seen.setdefault("doc at show", window.doc)
            seen.setdefault("welcome made at show", window._welcome is not None)
            original_show_event(event)
        window.showEvent = show_event
        return window

    def finish():
        window = made[0]
        seen["result"] = inspect(window)
        seen["gc enabled in the loop"] = gc.isenabled()
        if window.doc is not None:
            window.doc.mark_clean()
        window.close()
        QApplication.instance().quit()

    monkeypatch.setattr(app_module.Application, "new_window", new_window)
    QTimer.singleShot(200, finish)
    # finish() ends the loop itself: closing the last window must not post a second quit,
    # which, handled after the loop, would end every later event loop of the test run at once.
    quit_on_close = QApplication.quitOnLastWindowClosed()
    QApplication.setQuitOnLastWindowClosed(False)
    gc.disable()  # as cli.main does
    try:
        app_module.run_app(str(path), loaded=loaded)
    finally:
        gc.enable()
        QApplication.setQuitOnLastWindowClosed(quit_on_close)
    return seen


def test_the_first_window_shown_holds_the_session(qapp, tmp_path, monkeypatch):
    path = _patrol(tmp_path)
    seen = _run(monkeypatch, path, load_session(path), lambda w: w.sheet_view is not None)
    assert seen["doc at show"] is not None and seen["doc at show"].session.title == "Patrol"
    assert seen["welcome made at show"] is False  # the welcome view is never made for a file
    assert seen["result"] is True
    assert seen["gc enabled in the loop"] is True


def test_a_file_that_does_not_load_is_reported_over_the_window(qapp, tmp_path, monkeypatch, dialogs):
    path = tmp_path / "broken.shipsheet"
    path.write_text("not a session", "utf-8")
    error = SessionFileError("broken.shipsheet: damaged or truncated")
    visible_when_told = []

    def record(window):
        return window.isVisible(), type(window.stack.currentWidget()).__name__

    monkeypatch.setattr(app_module.MainWindow, "open_path",
                        _spy_visibility(app_module.MainWindow.open_path, visible_when_told))
    seen = _run(monkeypatch, path, error, record)
    assert visible_when_told == [True]
    assert [(kind, title) for kind, title, _text in dialogs.shown] == [("warning", "Cannot open file")]
    assert "damaged or truncated" in dialogs.shown[0][2]
    assert seen["result"] == (True, "WelcomeView")
    assert path.read_text("utf-8") == "not a session"  # nothing written over it


def _spy_visibility(open_path, into):
    def spy(self, path, loaded=None, **kwargs):
        into.append(self.isVisible())
        return open_path(self, path, loaded, **kwargs)
    return spy


def test_the_command_line_reads_the_file_before_qt_is_imported(tmp_path):
    """Reading first is what lets the model and rules load without PySide6's import hook."""
    path = _patrol(tmp_path)
    code = ("import sys; from shipsheet import cli; s = cli._read_before_qt(sys.argv[1]); "
            "print(type(s).__name__, getattr(s, 'title', '-'), 'PySide6' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                         env=dict(os.environ), check=True).stdout.split()
    assert out == ["Session", "Patrol", "False"]
    bad = tmp_path / "bad.shipsheet"
    bad.write_text("{", "utf-8")
    out = subprocess.run([sys.executable, "-c", code, str(bad)], capture_output=True, text=True,
                         env=dict(os.environ), check=True).stdout.split()
    assert out[0] == "SessionFileError" and out[-1] == "False"


def test_the_first_session_is_freed_once_replaced_although_start_up_froze_it(app, tmp_path, dialogs, qtbot):
    """Start-up freezes what it made out of the cycle collector's reach (ui/collector.py);
    the first session is among it, and must still be freed when another replaces it."""
    import weakref

    from shipsheet.ui import collector
    path = _patrol(tmp_path)
    collector.pause()
    try:
        session = load_session(path)
        window = app.new_window(show=False)
        window.open_path(path, session)
        window.show()
    finally:
        collector.resume()
    try:
        first = weakref.ref(session)
        del session
        assert window.open_sample("fedcom")  # the patrol is replaced
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # the old views go
        assert gc.get_freeze_count() == 0  # thawed at once
        # A moment later the collector takes what was dropped and freezes what is left,
        # so later full collections scan little (a click stays short).
        qtbot.waitUntil(lambda: gc.get_freeze_count() > 0, timeout=5000)
        assert first() is None
        assert gc.isenabled()
        window.doc.mark_clean()
    finally:
        collector.reset()


def test_the_window_has_its_icon_once_painted(window, qtbot):
    """The icon waits for the first paint (its SVG engine loads for it), then is there."""
    qtbot.waitUntil(lambda: not window.windowIcon().isNull(), timeout=5000)
    assert window.windowIcon().pixmap(32, 32).width() == 32


def test_the_file_started_on_is_locked_once_the_window_is_painted(qapp, tmp_path, monkeypatch):
    """Nothing can change or save it before the first paint, so its lock (and the lock's
    library, a seventh of start-up) waits until then; from then on another ShipSheet is
    told it is open here."""
    from shipsheet.model.filelock import LockHolder, SessionLock
    path = _patrol(tmp_path)
    at_show = []

    def record(window):
        return window.doc.lock is not None, SessionLock.acquire(path)
    real_open = app_module.MainWindow.open_path

    def open_path(self, p, loaded=None, **kwargs):
        done = real_open(self, p, loaded, **kwargs)
        at_show.append(self.doc.lock)
        return done
    monkeypatch.setattr(app_module.MainWindow, "open_path", open_path)
    seen = _run(monkeypatch, path, load_session(path), record)
    locked, other = seen["result"]
    assert at_show == [None]  # not yet when the window shows
    assert locked and isinstance(other, LockHolder)  # after its first paint: held, and said so


def test_a_file_open_elsewhere_is_asked_about_over_the_window_that_shows_it(qapp, tmp_path,
                                                                             monkeypatch, dialogs):
    from PySide6.QtWidgets import QMessageBox

    from shipsheet.model.filelock import SessionLock
    path = _patrol(tmp_path)
    elsewhere = SessionLock.acquire(path)
    assert isinstance(elsewhere, SessionLock)
    try:
        for answer, kept in ((QMessageBox.StandardButton.Cancel, False),
                             (QMessageBox.StandardButton.Open, True)):
            dialogs.shown.clear()
            dialogs.answer = answer
            seen = _run(monkeypatch, path, load_session(path), lambda w: (
                w.doc is not None, w.doc.lock if w.doc else None,
                type(w.stack.currentWidget()).__name__))
            assert [(k, t) for k, t, _ in dialogs.shown] == [("question", "File already open")]
            assert seen["doc at show"] is not None  # the session showed; then the question
            has_doc, lock, shown = seen["result"]
            assert has_doc is kept and lock is None
            assert shown == ("SheetView" if kept else "WelcomeView")
    finally:
        elsewhere.release()


def test_the_question_about_a_file_open_elsewhere_shows_its_name_as_plain_text(
        qapp, tmp_path, monkeypatch, dialogs):
    """The question now comes just after the first paint: a file name (or a lock file's
    holder) written as markup still reaches the message box as plain text."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel, QMessageBox

    from shipsheet.model.filelock import SessionLock
    path = tmp_path / "<u>Loud<br>.shipsheet"
    _patrol(tmp_path).rename(path)
    elsewhere = SessionLock.acquire(path)
    shown = []

    def question(parent, title, text, *args, **kwargs):  # a real box, read, then closed
        box = QMessageBox(QMessageBox.Icon.Question, title, text,
                          QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
                          parent)
        box.show()
        QApplication.processEvents()
        label = box.findChild(QLabel, "qt_msgbox_label")
        shown.append((label.textFormat(), label.text()))
        box.close()
        return QMessageBox.StandardButton.Cancel
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    try:
        _run(monkeypatch, path, load_session(path), lambda w: None)
    finally:
        elsewhere.release()
    assert len(shown) == 1 and "<u>Loud<br>.shipsheet" in shown[0][1]
    assert shown[0][0] == Qt.TextFormat.PlainText

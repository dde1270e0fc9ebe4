"""Start the application: windows, crash recovery, the first file."""

from __future__ import annotations

import sys

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from .. import __version__
from ..model.autosave import AutosaveStore
from ..model.errors import SessionFileError
from . import collector
from .main_window import MainWindow


def ask_recover(parent, infos):
    """Ask whether to restore an autosave (the dialogs load only when there is one)."""
    from .dialogs import ask_recover as ask
    return ask(parent, infos)


class Application:
    """Owns the open windows (File > New Window adds one)."""

    def __init__(self, qapp: QApplication, autosave: AutosaveStore | None = None):
        self.qapp = qapp
        self.autosave = autosave if autosave is not None else AutosaveStore()
        self.windows: list[MainWindow] = []

    def new_window(self, *, show: bool = True) -> MainWindow:
        window = MainWindow(self.autosave)
        window.new_window_requested.connect(self.new_window)
        window.destroyed.connect(lambda _=None, w=window: self._forget(w))
        self.windows.append(window)
        if show:
            window.show()
        return window

    def _forget(self, window: MainWindow) -> None:
        if window in self.windows:
            self.windows.remove(window)

    def recover(self, window: MainWindow, infos=None) -> bool:
        """Offer the newest autosave left by a crash; True if one was restored.

        ``infos`` is ``autosave.recoverable()`` when the caller has read it already."""
        infos = self.autosave.recoverable() if infos is None else infos
        if not infos:
            return False
        choice = ask_recover(window, infos)
        if choice is False:
            return False
        if choice is None:  # discarded
            self.autosave.discard(infos[0].uid)
            return False
        try:
            session = choice.load()
        except SessionFileError:
            return False
        window.open_session(session, choice.source if choice.source and choice.source.exists() else None,
                            dirty=True)
        window.show_status(f"Restored the autosave from {choice.time_text}")
        return True


def make_qapp(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance() or QApplication(argv or [sys.argv[0]])
    app.setApplicationName("ShipSheet")
    app.setApplicationDisplayName("ShipSheet")
    app.setOrganizationName("ShipSheet")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("io.github.shipsheet.ShipSheet")
    if not getattr(app, "_shipsheet_scheme", False):
        from .palette import follow_system_scheme
        follow_system_scheme(app)
        app._shipsheet_scheme = True
    return app


class _FirstPaint(QObject):
    """Quits the application once the window has been painted (``--quit-after-startup``)."""

    def __init__(self, window: MainWindow):
        super().__init__(window)
        self.window = window
        window.installEventFilter(self)
        self.done = False

    def eventFilter(self, obj, event) -> bool:
        if not self.done and event.type() == QEvent.Type.Paint:
            self.done = True
            QTimer.singleShot(0, self._quit)
        return False

    def _quit(self) -> None:
        print(f"started: {self.window.windowTitle()}", flush=True)
        QApplication.instance().quit()


def run_app(path: str | None = None, *, quit_after_startup: bool = False, loaded=None) -> int:
    """Start the app (optionally on ``path``); returns the exit code.

    ``loaded`` is the session already read from ``path`` (or the SessionFileError reading it
    gave), as the command line does before Qt is imported."""
    qapp = make_qapp()
    application = Application(qapp)
    # A file is opened before the window shows, so its first paint is the session.
    window = application.new_window(show=False)
    if quit_after_startup:
        # For timing start-up: open the file, paint once, exit. No recovery prompt.
        if path:
            window.open_path(path, loaded)
        _FirstPaint(window)
        window.show()
        collector.resume()
        return qapp.exec()
    restored = False
    infos = application.autosave.recoverable()
    if infos:
        window.show()  # the recovery question is asked over the window
        restored = application.recover(window, infos)
    if path and not restored:
        if isinstance(loaded, SessionFileError):
            window.show()  # why the file did not open is told over the window
        window.open_path(path, loaded)
    window.show()
    collector.resume()
    return qapp.exec()

"""Start the application: windows, crash recovery, the first file."""

from __future__ import annotations

import sys

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QApplication

from ..version import __version__
from ..model import code_cache
from ..model.autosave import AutosaveStore
from ..model.errors import SessionFileError
from ..model.storage import write_atomic
from ..model.games import check_games
from . import collector
from .first_paint import after_first_paint
from .main_window import MainWindow
from .plaintext import install, install_when_painted


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

    def open_from_system(self, path: str) -> MainWindow:
        """A file the system asked us to open (macOS: a ``.shipsheet`` double-clicked in the
        Finder arrives as a ``QFileOpenEvent``): in a window with no session, else a new one."""
        window = next((w for w in self.windows if w.doc is None), None) or self.new_window()
        window.open_path(path)
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def listen_for_file_open(self) -> bool:
        """Open the files the system sends (``QFileOpenEvent``) with :meth:`open_from_system`;
        False when the QApplication is not ours (:class:`ShipSheetApplication`)."""
        if not isinstance(self.qapp, ShipSheetApplication):
            return False
        self.qapp.file_open_requested.connect(self.open_from_system)
        return True

    def _forget(self, window: MainWindow) -> None:
        if window in self.windows:
            self.windows.remove(window)

    def recover(self, window: MainWindow, infos=None) -> bool:
        """Offer every autosave left by a crash (newest first), each on its own: a restored
        one opens in ``window``, the next ones in new windows. True if one was restored.

        ``infos`` is ``autosave.recoverable()`` when the caller has read it already."""
        infos = self.autosave.recoverable() if infos is None else infos
        restored = False
        for info in infos:
            choice = ask_recover(window, [info])
            if choice is False:  # not now: offered again next time
                continue
            if choice is None:  # discarded
                self.autosave.remove_key(info.key)
                continue
            try:
                handle = self.autosave.adopt(info)
            except OSError:
                continue  # another ShipSheet took it meanwhile
            target = window if not restored else self.new_window()
            source = info.source if info.source is not None and info.source.is_file() else None
            lock = target._lock_for(source) if source is not None else None
            target.open_session(info.load(), source if lock is not False else None, dirty=True,
                                autosave=handle, lock=lock or None)
            target.show_status(f"Restored the autosave from {info.time_text}")
            if target.doc is not None:  # shared with the table later: the phones are told
                target.doc.recovered_at = info.time_text
            restored = True
        self.report_store_problems(window)
        return restored

    def report_store_problems(self, window: MainWindow) -> None:
        """Damaged autosave files were set aside: say so once."""
        problems, self.autosave.problems[:] = list(self.autosave.problems), []
        if problems:
            from .dialogs import show_plain_warning
            show_plain_warning(window, "Damaged autosaves set aside",
                               f"ShipSheet set aside {len(problems)} damaged autosave file(s) in "
                               f"{self.autosave.folder}; they are kept but not offered.",
                               "\n".join(problems))


class ShipSheetApplication(QApplication):
    """The QApplication, with the one event macOS sends a running app to open a document
    (a ``.shipsheet`` double-clicked in the Finder, or dropped on the Dock icon) made a
    signal. Only events sent to the application itself pass through this Python method."""

    file_open_requested = Signal(str)

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.FileOpen and event.file():
            self.file_open_requested.emit(event.file())
            return True
        return super().event(event)


def make_qapp(argv: list[str] | None = None, *, guard: bool = True) -> QApplication:
    """The QApplication, named, following the system's colour scheme, with the plain-text
    guard (:mod:`.plaintext`) installed; ``guard=False`` leaves installing it to the caller
    (``run_app`` arms it once the first window has painted)."""
    app = QApplication.instance() or ShipSheetApplication(argv or [sys.argv[0]])
    app.setApplicationName("ShipSheet")
    app.setApplicationDisplayName("ShipSheet")
    app.setOrganizationName("ShipSheet")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("io.github.shipsheet.ShipSheet")
    if not getattr(app, "_shipsheet_scheme", False):
        from .palette import follow_system_scheme
        follow_system_scheme(app)
        app._shipsheet_scheme = True
    if guard:
        install(app)  # labels and tooltips never render text from files as markup
    return app


def _started(window: MainWindow) -> None:
    """``--quit-after-startup``: the window has been painted; say so and exit."""
    print(f"started: {window.windowTitle()}", flush=True)
    QApplication.instance().quit()
    code_cache.save(write_atomic)  # what this start compiled, for the next (after the line timed)


def run_app(path: str | None = None, *, quit_after_startup: bool = False, loaded=None) -> int:
    """Start the app (optionally on ``path``); returns the exit code.

    ``loaded`` is the session already read from ``path`` (or the SessionFileError reading it
    gave), as the command line does before Qt is imported."""
    check_games()  # a game one layer knows and another does not: said now, not at its first sheet
    qapp = make_qapp(guard=False)
    application = Application(qapp)
    application.listen_for_file_open()  # macOS: files double-clicked in the Finder
    # A file is opened before the window shows, so its first paint is the session.
    window = application.new_window(show=False)
    if quit_after_startup:
        # For timing start-up: open the file, paint once, exit. No question is asked (no
        # one would answer it): no recovery prompt, no newer autosave offered.
        install_when_painted(qapp, window)
        if path:
            window.open_path(path, loaded, lock_when_painted=True, offer_newer=False)
        after_first_paint(window, lambda: _started(window))
        window.show()
        collector.resume()
        return qapp.exec()
    restored = False
    infos = application.autosave.recoverable()
    if infos or application.autosave.problems:
        install(qapp)  # the recovery questions come before the window paints
        window.show()  # the recovery question is asked over the window
        restored = application.recover(window, infos)
    # Only the window, and the questions asked over it while the file opens, show first.
    install_when_painted(qapp, window)
    after_first_paint(window, lambda: code_cache.save(write_atomic))  # for the next start
    if path and not restored:
        if isinstance(loaded, SessionFileError):
            window.show()  # why the file did not open is told over the window
        window.open_path(path, loaded, lock_when_painted=True)
    window.show()
    collector.resume()
    return qapp.exec()

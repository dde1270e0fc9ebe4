"""Work put off until a window has first been painted.

Start-up shows the window first. What its first frame does not need runs just after that
paint, before the next event: arming the plain-text filter (:mod:`.plaintext`), the
window's icon and the recent-files list (``MainWindow``), and ``--quit-after-startup``'s
exit (``app.run_app``). A widget's filters see its events newest first, so of several
callbacks on one window the one asked for last runs first.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


class _Once(QObject):
    def __init__(self, widget: QWidget, callback: Callable[[], object], kinds: tuple):
        super().__init__(widget)
        self._callback = callback
        self._kinds = kinds
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() in self._kinds:
            obj.removeEventFilter(self)
            QTimer.singleShot(0, self, self._fire)  # after this paint, children included
        return False

    def _fire(self) -> None:
        self.deleteLater()
        self._callback()


def after_first_paint(widget: QWidget, callback: Callable[[], object], *,
                      or_blocked: bool = False) -> None:
    """Call ``callback`` once ``widget`` has first been painted; with ``or_blocked``, also
    when a modal dialog over it blocks it first (a question asked while a file opens)."""
    kinds = (QEvent.Type.Paint, QEvent.Type.WindowBlocked) if or_blocked else (QEvent.Type.Paint,)
    _Once(widget, callback, kinds)

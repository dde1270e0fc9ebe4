"""The authority's thread, as the server reaches it: Qt's queued signals.

The session is changed on one thread only: the window's UI thread, or the headless host's
main thread (which runs a Qt event loop too: sheets are drawn with Qt). The server thread
calls :meth:`QtAuthority.call`; the function is queued to the thread the authority lives
on and runs there between events, and its result comes back through a
``concurrent.futures.Future``.
"""

from __future__ import annotations

import concurrent.futures
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, Signal

class QtAuthority(QObject):
    """Runs functions on the thread this object lives on (create it there): the
    ``host.Authority`` the server calls."""

    _queued = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._queued.connect(self._run, Qt.ConnectionType.QueuedConnection)

    def call(self, fn: Callable[[], Any]) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._queued.emit((fn, future))
        return future

    def _run(self, item) -> None:
        fn, future = item
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = fn()
        except BaseException as exc:  # handed to the caller, never lost
            future.set_exception(exc)
        else:
            future.set_result(result)

"""The authority's thread, as the server reaches it: Qt's queued signals.

The session is changed on one thread only: the window's UI thread, or the headless host's
main thread (which runs a Qt event loop too: sheets are drawn with Qt). The server thread
calls :meth:`QtAuthority.call`; the function is queued to the thread the authority lives
on and runs there between events, and its result comes back through a
``concurrent.futures.Future``.

A gate (the window's ``SessionDocument``) may hold the calls: while the window asks a
question about the history (Undo of a phone's step), Qt's loop goes on running, and a
phone's request run then would change what the question is about. Held calls wait, in
order, and run once the gate is ``released`` (after the answer was acted on); a phone
whose request waits longer than the server's timeout is told so and sends it again.
"""

from __future__ import annotations

import concurrent.futures
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, Signal

class QtAuthority(QObject):
    """Runs functions on the thread this object lives on (create it there): the
    ``host.Authority`` the server calls."""

    _queued = Signal(object)

    def __init__(self, parent: QObject | None = None, gate: QObject | None = None):
        """``gate``: an object with ``holding`` (true while calls must wait) and a
        ``released`` signal (``ui.document.SessionDocument``), or None."""
        super().__init__(parent)
        self._gate = gate
        self._held: list = []
        self._queued.connect(self._run, Qt.ConnectionType.QueuedConnection)
        if gate is not None:
            # Queued: the held calls run after the code that released the gate returns.
            gate.released.connect(self._release, Qt.ConnectionType.QueuedConnection)

    def call(self, fn: Callable[[], Any]) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._queued.emit((fn, future))
        return future

    def _release(self) -> None:
        held, self._held = self._held, []
        for item in held:
            self._run(item)

    def _run(self, item) -> None:
        if self._gate is not None and (self._gate.holding or self._held):
            self._held.append(item)  # in order: none overtakes one held before it
            if not self._gate.holding:
                self._release()
            return
        fn, future = item
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = fn()
        except BaseException as exc:  # handed to the caller, never lost
            future.set_exception(exc)
        else:
            future.set_result(result)

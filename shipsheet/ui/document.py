"""A session open in a window: the session, its file, its undo stack, its autosave.

Every change the UI makes goes through :meth:`SessionDocument.do`, which
applies the model action (refusals come back as the ``refused`` signal with
the rule's message) and pushes one :class:`ActionCommand` on the session's
QUndoStack, so one click is one undo step.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..model import Action, RuleViolation, Session, save_session
from ..model.autosave import AutosaveHandle, AutosaveStore
from ..model.filelock import DiskState, SessionLock
from ..model.storage import session_to_bytes

#: Autosave this long after the last change ...
AUTOSAVE_DELAY_MS = 700
#: ... but never later than this after the first unsaved one, even during a burst of
#: changes (a crash loses at most about this much work; the promise is 2 s).
AUTOSAVE_MAX_DELAY_MS = 1500

_writer = None  # the one autosave thread, started by the first autosave


def _autosave_writer():
    global _writer
    if _writer is None:
        import concurrent.futures
        _writer = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
    return _writer


class ActionCommand(QUndoCommand):
    """One applied model change on the QUndoStack. The first redo is the push itself."""

    def __init__(self, doc: "SessionDocument", name: str):
        super().__init__(name)
        self.doc = doc
        self._first = True

    def redo(self) -> None:
        """Re-apply; the push itself does nothing (the change was applied before it)."""
        if self._first:
            self._first = False
            return
        self.doc.session.redo()

    def undo(self) -> None:
        self.doc.session.undo()


class SessionDocument(QObject):
    """The session of one window."""

    changed = Signal()  # after every apply, undo, redo, load
    refused = Signal(str)  # a RuleViolation's message
    selection_changed = Signal(object)  # ship id or None
    path_changed = Signal()
    #: An autosave failed (the message) or, with "", worked again after failing.
    autosave_status = Signal(str)
    _autosave_done = Signal(object)  # from the autosave thread: the error or None

    def __init__(self, session: Session, path: str | Path | None = None,
                 autosave: AutosaveStore | None = None, parent: QObject | None = None,
                 autosave_handle: AutosaveHandle | None = None, lock: SessionLock | None = None):
        super().__init__(parent)
        self.session = session
        self.path: Path | None = Path(path) if path else None
        #: The file as it was when opened or last saved (Save checks it has not changed).
        self.disk_state = DiskState.of(self.path) if self.path else None
        #: The lock beside the file while it is open here (None: not locked by this window).
        self.lock = lock
        self.undo_stack = QUndoStack(self)
        self.autosave_store = autosave if autosave is not None else AutosaveStore()
        #: This document's own autosaves: a random key, never anything from the file.
        self.autosave = autosave_handle or self.autosave_store.handle()
        self.autosave_error = ""  # the last autosave's failure, "" when it worked
        self.current_ship_id: str | None = session.ships[0].id if session.ships else None
        #: Asked before every change: why ``action`` may not be applied here, or None (a
        #: play-by-e-mail player file takes only its player's decisions: ``pbem_desk``).
        self.guard: Callable[[Action], str | None] | None = None
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.setInterval(AUTOSAVE_DELAY_MS)
        self._autosave_timer.timeout.connect(self.autosave_now)
        self._pending = None  # the autosave being written (a Future)
        self._pending_since: float | None = None  # when the oldest unsaved change was made
        self._autosave_done.connect(self._on_autosave_done)
        self._listener = lambda change: self._on_model_change()
        session.subscribe(self._listener)

    # -- changes -----------------------------------------------------------
    def do(self, action: Action) -> bool:
        """Apply ``action``; on a refusal emit ``refused`` and return False."""
        try:
            self.apply(action)
        except RuleViolation as exc:
            self.refused.emit(str(exc))
            return False
        return True

    def apply(self, action: Action):
        """Apply ``action`` as one undo step and return the model's Change; a refusal raises
        RuleViolation (for callers that answer someone else: a phone at the table), also
        when the document's :attr:`guard` refuses it."""
        if self.guard is not None:
            why = self.guard(action)
            if why:
                raise RuleViolation(why)
        change = self.session.apply(action)
        self.undo_stack.push(ActionCommand(self, change.name))
        return change

    def _on_model_change(self) -> None:
        self.changed.emit()
        now = time.monotonic()
        if self._pending_since is None:
            self._pending_since = now
        left = AUTOSAVE_MAX_DELAY_MS - (now - self._pending_since) * 1000
        self._autosave_timer.start(int(max(0, min(AUTOSAVE_DELAY_MS, left))))

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    # -- selection ------------------------------------------------------------
    @property
    def current_ship(self):
        for ship in self.session.ships:
            if ship.id == self.current_ship_id:
                return ship
        return None

    def select(self, ship_id: str | None) -> None:
        if ship_id != self.current_ship_id:
            self.current_ship_id = ship_id
            self.selection_changed.emit(ship_id)

    # -- files ------------------------------------------------------------------
    def save(self, path: str | Path | None = None) -> Path:
        """Save (atomically) to ``path`` or the current file; marks the stack clean.

        Raises on failure (OSError, or anything else) and then changes nothing: the
        document stays unsaved and its autosaves stay."""
        target = Path(path) if path else self.path
        if target is None:
            raise ValueError("no file name yet")
        self.flush_autosave()
        save_session(self.session, target)
        if self.path is None or Path(target).resolve() != self.path.resolve():
            self.set_lock(None)  # the old file's lock; the window locks the new one
        self.path = target
        self.disk_state = DiskState.of(target)
        self.undo_stack.setClean()
        self.autosave.discard()
        self.path_changed.emit()
        return target

    def changed_on_disk(self) -> bool:
        """Whether the file was changed or replaced by someone else since it was opened or
        last saved here."""
        return self.path is not None and self.disk_state is not None and self.disk_state.changed(self.path)

    def set_lock(self, lock: SessionLock | None) -> None:
        if self.lock is not None and self.lock is not lock:
            self.lock.release()
        self.lock = lock

    @property
    def display_name(self) -> str:
        return self.path.name if self.path else (self.session.name or "Untitled")

    # -- autosave -----------------------------------------------------------------
    def autosave_now(self) -> None:
        """Serialise now (fast, on this thread) and write on the autosave thread."""
        self._autosave_timer.stop()
        self._pending_since = None
        if not self.dirty:
            return
        try:
            payload = session_to_bytes(self.session)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never lost silently
            self._on_autosave_done(exc)
            return
        handle, session, source = self.autosave, self.session, self.path
        future = _autosave_writer().submit(handle.write, session, source, payload)
        future.add_done_callback(lambda f: self._autosave_done.emit(f.exception()))
        self._pending = future

    def _on_autosave_done(self, error) -> None:
        """Tell the window when autosave fails, and when it works again."""
        message = ""
        if error is not None:
            message = (error.strerror or str(error)) if isinstance(error, OSError) and error.strerror \
                else str(error) or type(error).__name__
        if message != self.autosave_error:
            self.autosave_error = message
            self.autosave_status.emit(message)

    def flush_autosave(self) -> None:
        """Wait for a write in progress (before a save or a close)."""
        if self._pending is not None:
            try:
                self._pending.result(timeout=10)
            except Exception:  # an autosave that failed must never stop a save
                pass
            self._pending = None

    def close(self) -> None:
        """A clean close: no autosave is left to recover, and the file is unlocked."""
        self._autosave_timer.stop()
        self.flush_autosave()
        self.autosave.discard()
        self.set_lock(None)
        self.session.unsubscribe(self._listener)

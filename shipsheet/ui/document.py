"""A session open in a window: the session, its file, its autosave, and its one Undo.

Every change made here — a click, a dialog, the desk's import, a phone at the table — goes
through :meth:`SessionDocument.apply` (or :meth:`~SessionDocument.do`, which turns a refusal
into the ``refused`` signal), which asks the document's :attr:`~SessionDocument.guard` and
then the model's ``Session.apply``: one change, one step of the session's own history. The
window keeps no history of its own: it reads ``Session.undo_status()`` (names, enabled
state, the clean mark), and every Undo — the toolbar's, a dialog's, the referee's phone —
goes through :meth:`SessionDocument.undo`, which asks first when the step was made on a
phone and undoes the step it asked about, whatever arrived while it asked.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence

from ..model import Action, Change, RuleViolation, Session, save_session
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


class SessionDocument(QObject):
    """The session of one window."""

    changed = Signal()  # after every apply, undo, redo, load
    clean_changed = Signal()  # saved, or marked as never saved (the history did not move)
    #: The window's question stopped holding changes from elsewhere (see :meth:`holding`).
    released = Signal()
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
        #: The ships the last change (or its undo) may have changed; None: any of them.
        self.last_touched: frozenset[str] | None = None
        #: The change last made, undone or redone (None: a load, or a change with no step).
        self.last_change: "Change | None" = None
        self.path: Path | None = Path(path) if path else None
        #: The file as it was when opened or last saved (Save checks it has not changed).
        self.disk_state = DiskState.of(self.path) if self.path else None
        #: The lock beside the file while it is open here (None: not locked by this window).
        self.lock = lock
        self.autosave_store = autosave if autosave is not None else AutosaveStore()
        #: This document's own autosaves: a random key, never anything from the file.
        self.autosave = autosave_handle or self.autosave_store.handle()
        self.autosave_error = ""  # the last autosave's failure, "" when it worked
        self._journal = None  # every change on disk at once (model/journal.py), made at the first
        #: When the work restored after a crash was last saved to the autosave (its time in
        #: words), None for a session opened or made here: a table shared is told of it.
        self.recovered_at: str | None = None
        self.current_ship_id: str | None = session.ships[0].id if session.ships else None
        #: Asked before every change: why ``action`` may not be applied here, or None (a
        #: play-by-e-mail player file takes only its player's decisions: ``pbem_desk``).
        self.guard: Callable[[Action], str | None] | None = None
        #: Asked before Undo takes back a step made elsewhere (``Action.seat_name``: a
        #: phone's): True to undo it. Set by the window; None undoes without asking.
        self.ask_undo: Callable[[Change], bool] | None = None
        #: While above 0, the window is asking about the history: changes from elsewhere
        #: wait (``share.authority.QtAuthority`` holds a phone's request until ``released``).
        self.holding = 0
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.setInterval(AUTOSAVE_DELAY_MS)
        self._autosave_timer.timeout.connect(self.autosave_now)
        self._pending = None  # the autosave being written (a Future)
        self._pending_since: float | None = None  # when the oldest unsaved change was made
        self._autosave_done.connect(self._on_autosave_done)
        self._listener = self._on_model_change
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
        return self.session.apply(action)

    def undo(self, step: int | None = None, *, ask: bool = True) -> Change | None:
        """The one Undo. Takes back the session's last step — ``step`` (its ``Change.seq``,
        as ``undo_status().step`` named it to whoever asked), else the last one now — and
        returns it; None when the question was declined. With ``ask``, a step made on a
        phone is undone only if :attr:`ask_undo` says yes, and while it asks, changes from
        elsewhere wait (:meth:`holding`): the step undone is the one the question named.
        Raises RuleViolation when there is nothing to undo or the step is no longer last."""
        change = self.session.undo_step()
        if change is None:
            raise RuleViolation("There is nothing to undo.")
        step = change.seq if step is None else step
        asks = ask and self.ask_undo is not None and change.action.seat_name is not None
        with self.holding_others():
            if asks and change.seq == step and not self.ask_undo(change):
                return None
            return self.session.undo(step)  # refuses a step that is no longer the last

    def redo(self) -> Change:
        """Make the last undone step again (RuleViolation: nothing to redo)."""
        return self.session.redo()

    @contextmanager
    def holding_others(self) -> Iterator[None]:
        """While the window asks about the history (a modal question runs Qt's loop, which
        goes on serving the table's phones): their changes wait until it has been answered
        and acted on. ``released`` is emitted when the last hold ends."""
        self.holding += 1
        try:
            yield
        finally:
            self.holding -= 1
            if not self.holding:
                self.released.emit()

    def mark_clean(self) -> None:
        """The session is as on disk now (saved, or opened again)."""
        self.session.mark_clean()
        self.clean_changed.emit()

    def mark_dirty(self) -> None:
        """Not as on disk at any step (a recovered autosave)."""
        self.session.mark_dirty()
        self.clean_changed.emit()

    @property
    def journal(self):
        """This document's journal (``model.journal.Journal``), beside its autosaves: each
        change is appended and fsynced as it is made, so a crash loses nothing the table
        was told was applied. A new one after every save (its first record is whole)."""
        if self._journal is None:
            from ..model.journal import Journal
            base = self.disk_state.key if self.disk_state is not None else None
            self._journal = Journal(self.autosave_store.folder, self.autosave.key, self.path, base)
        return self._journal

    def durable(self):
        """A future done once every change made so far is on disk (its result: "" or why
        the journal could not be written): the table answers a phone after it."""
        return self.journal.durable()

    def _drop_journal(self) -> None:
        if self._journal is not None:
            self._journal.discard()
            self._journal = None

    def _on_model_change(self, change: "Change | None" = None) -> None:
        # First of all the session's listeners: the change is queued for the disk before
        # the table (subscribed later) takes its snapshot and asks for it to be durable.
        self.journal.record(self.session, change)
        touched = None if change is None else change.action.touches(self.session)
        self.last_touched = None if touched is None else frozenset(touched)
        self.last_change = change
        self.changed.emit()
        now = time.monotonic()
        if self._pending_since is None:
            self._pending_since = now
        left = AUTOSAVE_MAX_DELAY_MS - (now - self._pending_since) * 1000
        self._autosave_timer.start(int(max(0, min(AUTOSAVE_DELAY_MS, left))))

    @property
    def dirty(self) -> bool:
        return self.session.dirty

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
        """Save (atomically) to ``path`` or the current file; marks the session clean.

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
        self.mark_clean()
        self._drop_journal()  # first: its writer must not write the file again after
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
        base = self.disk_state.key if self.disk_state is not None else None
        journal = self.journal
        mark = journal.mark()

        def write():
            path = handle.write(session, source, payload, journal=mark, base=base)
            journal.rebase(mark[1])  # the slot holds these: the journal keeps the later ones
            return path
        future = _autosave_writer().submit(write)
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

    def abandon(self) -> None:
        """Stop without saving and leave the autosave and its journal, as a crash would: the
        next start offers the work back (``shipsheet serve`` when its save failed)."""
        self._autosave_timer.stop()
        self.flush_autosave()
        if self._journal is not None:
            self._journal.close()
        self.autosave.abandon()
        self.session.unsubscribe(self._listener)

    def close(self) -> None:
        """A clean close: no autosave is left to recover, and the file is unlocked."""
        self._autosave_timer.stop()
        self.flush_autosave()
        self._drop_journal()  # first: its writer must not write the file again after
        self.autosave.discard()
        self.set_lock(None)
        self.session.unsubscribe(self._listener)


class HistoryAction(QAction):
    """An Undo or Redo (``word``) for a dialog: the document's one Undo or Redo, its text
    naming the step ("&Undo Volley of 6 at Hornet", as the Edit menu does), enabled only
    when there is one. Its shortcut works while the dialog (``parent``) has the focus.

    ``ship_id``: the dialog is one ship's. The session has one history, so Undo can only
    take back the session's last step; when that step is another ship's (or every ship's),
    the text says so: "Undo the session's last step: Volley of 6 at Hornet" — never a
    step named as if it were this ship's."""

    def __init__(self, doc: SessionDocument, parent, word: str, ship_id: str | None = None):
        super().__init__(f"&{word}", parent)
        from PySide6.QtCore import Qt
        self.doc, self.word, self.ship_id = doc, word, ship_id
        self.setShortcut(QKeySequence.StandardKey.Undo if word == "Undo"
                         else QKeySequence("Ctrl+Shift+Z"))
        self.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.triggered.connect(self.act)
        doc.changed.connect(self.follow)  # a bound method: Qt drops it with this action
        self.follow()
        parent.addAction(self)

    def follow(self) -> None:
        status = self.doc.session.undo_status()
        name = status.undo if self.word == "Undo" else status.redo
        self.setEnabled(name is not None)
        if name and self.word == "Undo" and self.ship_id is not None and not self._ours():
            self.setText(f"&Undo the session's last step: {name}")
            self.setToolTip(f"The session has one Undo: its last step is “{name}”, not a "
                            f"change to this dialog's ship")
            return
        self.setText(f"&{self.word} {name}" if name else f"&{self.word}")
        self.setToolTip(self.text().replace("&", ""))

    def _ours(self) -> bool:
        """The step Undo would take back is a change to this dialog's ship alone."""
        change = self.doc.session.undo_step()
        if change is None:
            return False
        touched = change.action.touches(self.doc.session)
        return touched is not None and set(touched) == {self.ship_id}

    def act(self, _checked: bool = False) -> None:
        try:
            self.doc.undo() if self.word == "Undo" else self.doc.redo()
        except RuleViolation as exc:
            self.doc.refused.emit(str(exc))

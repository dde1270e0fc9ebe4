"""Autosave: each open session's rotating slots in the user state folder, and finding what
to recover after a crash.

Every document autosaves under a **key of its own**, made here at random
(:meth:`AutosaveStore.handle`): nothing a session file contains ever becomes part of a
file name, and two windows (or two ShipSheet processes) with the same file open keep
separate slots, so each one's work survives a crash on its own.

A key's files, all in the store's folder:

``<key>.<n>.shipsheet``
    A slot: the session file as saved, with an ``"autosave"`` entry (key, counter, the
    session's own file, title, and ``base``: what that file was on disk when the work began,
    at its opening or last save — ``filelock.DiskState``). Slots are ordered by that
    **counter**, not by the clock, so two autosaves in one clock tick still order right.
``<key>.journal``
    Every change since the newest slot, fsynced as it is made (``model/journal.py``): a
    crash between two autosaves loses nothing the table was told was applied.
``<key>.lock``
    Held (``flock``) by the process that owns the key for as long as it runs. A key whose
    lock can be taken belongs to a process that is gone: its newest slot is offered back.

**Which crashed work is offered** (:meth:`AutosaveStore.recoverable`): a slot is stale only
when its session's file holds this very work — it was saved from it after the slot (a crash
between the save and the removal of the slots). Not the clock: when another window or
process saved the file after this work began, the file is newer than the slot and the work
is still this document's alone, so it is offered, saying the file was changed elsewhere
since (:attr:`AutosaveInfo.changed_elsewhere`). A file still as it was when the work began
(its ``base``) was not saved from the work; a file that differs is read and compared with
the work, and only the same session in it makes the slot stale (it is then removed).

A slot or lock that cannot be read is **set aside** (renamed ``*.damaged``) and reported in
:attr:`AutosaveStore.problems`; a damaged store never stops ShipSheet from starting.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from .errors import SessionFileError
from .files import read_regular
from .paths import user_state_dir
from .session import Session
from .storage import (MAX_FILE_BYTES, check_savable, check_saved_size, decode_session_json,
                      session_from_data, session_to_bytes, write_atomic)

from .portable import BINARY, LOCK_INFO_AT, NOFOLLOW, NONBLOCK, replace, try_lock, write_at

#: A key: hex digits only (keys made here have 16; older ShipSheets named slots by the
#: session's 32-digit uid, which are still found and offered once).
_KEY = re.compile(r"^[0-9a-f]{16,64}$")
_SLOT = re.compile(r"^([0-9a-f]{16,64})\.(\d{1,3})\.shipsheet$")
_JOURNAL = re.compile(r"^([0-9a-f]{16,64})\.journal$")
META = "autosave"


class AutosaveInfo:
    """One autosave that may be recovered: a key's newest readable slot."""

    __slots__ = ("key", "path", "counter", "saved_at", "source", "title", "session", "journalled",
                 "changed_elsewhere", "file_as_begun")

    def __init__(self, key: str, path: Path, counter: int, saved_at: float, source: Path | None,
                 title: str, session: Session, journalled: int = 0, changed_elsewhere: bool = False):
        self.key = key
        self.path = path
        self.counter = counter
        self.saved_at = saved_at  # the slot file's time (seconds since the epoch)
        self.source = source  # the session's own file, None for an unsaved session
        self.title = title
        self.session = session
        #: Changes replayed from the journal on top of the slot (made after it was written).
        self.journalled = journalled
        #: The session's file was saved elsewhere (another window or program) after this
        #: work began: each holds changes the other does not.
        self.changed_elsewhere = changed_elsewhere
        #: The session's file is as it was when this work began (its ``base``): the work is
        #: newer, whatever the clocks say.
        self.file_as_begun = False

    def load(self) -> Session:
        """The session as autosaved (read when the store was scanned)."""
        return self.session

    @property
    def time_text(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.saved_at))

    def compared(self) -> str:
        """How this autosave stands to the session's own file, in words that are true:
        never saved, the file gone, older than the file, or newer than it."""
        if self.source is None:
            return "holds work on a session that was never saved"
        try:
            saved = self.source.stat().st_mtime
        except OSError:
            return f"holds work on {self.source.name}, which is no longer where it was saved"
        when = time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(saved))
        if self.file_as_begun:
            return f"is newer than the saved file {self.source.name}"
        if self.changed_elsewhere:
            return (f"holds work on {self.source.name} that was never saved, and the file was "
                    f"changed elsewhere since that work began (saved {when}): each has "
                    "changes the other does not")
        if saved > self.saved_at:
            return (f"is older than {self.source.name}, which was saved again since "
                    f"({time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(saved))})")
        return f"is newer than the saved file {self.source.name}"

    def __repr__(self) -> str:
        return f"AutosaveInfo({self.key!r}, {self.title!r}, counter={self.counter})"


class AutosaveHandle:
    """One document's autosaves: its key, its slots and its lock.

    The lock is taken at the first write and held until :meth:`discard`."""

    def __init__(self, store: "AutosaveStore", key: str, counters: dict[int, int] | None = None):
        if not _KEY.match(key):
            raise ValueError(f"not an autosave key: {key!r}")
        self.store = store
        self.key = key
        self._counters = dict(counters or {})  # slot number -> its counter
        self._lock_fd: int | None = None

    @property
    def counter(self) -> int:
        return max(self._counters.values(), default=0)

    def _take_lock(self) -> None:
        if self._lock_fd is not None:
            return
        fd = os.open(self.store.folder / f"{self.key}.lock",
                     os.O_RDWR | os.O_CREAT | NOFOLLOW | BINARY, 0o600)
        try:
            taken = try_lock(fd)
        except OSError:  # a file system without locks: the key's owner is told apart by nothing
            os.close(fd)
            return
        if not taken:
            os.close(fd)
            raise OSError(f"autosave {self.key} is in use by another ShipSheet")
        os.ftruncate(fd, 0)
        write_at(fd, f"\n{os.getpid()}\n".encode(), LOCK_INFO_AT - 1)  # who holds it, to read
        self._lock_fd = fd

    def write(self, session: Session, source: str | Path | None = None,
              payload: bytes | None = None, journal: tuple[str, int] | None = None,
              base: tuple | None = None) -> Path:
        """Write the session to the oldest slot; returns its path. Raises OSError (a full
        disk, a folder that cannot be written) for the caller to show.

        ``payload`` lets a caller serialise on one thread and write on another.
        ``journal``: (the journal's id, its last ticket the payload holds), from
        ``Journal.mark`` when the payload was made: a recovery replays the later records.
        ``base``: what ``source`` was on disk when the work began (``DiskState.key`` at its
        opening or last save), which tells a recovery whether the file changed since."""
        self.store.folder.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        free = [n for n in range(self.store.slots) if n not in self._counters]
        slot = free[0] if free else min(self._counters, key=self._counters.__getitem__)
        counter = self.counter + 1
        meta = {"key": self.key, "counter": counter, "title": session.title,
                "source": str(Path(source).resolve()) if source else None}
        if journal is not None:
            meta["journal"], meta["upto"] = journal
        if base is not None:
            meta["base"] = list(base)
        check_savable(session)
        body = check_saved_size(payload if payload is not None else session_to_bytes(session))
        if not body.startswith(b"{"):
            raise ValueError("a session payload is a JSON object")
        path = self.store.folder / f"{self.key}.{slot}.shipsheet"
        write_atomic(path, b'{"' + META.encode() + b'":' + json.dumps(meta).encode()
                     + (b"," if len(body) > 2 else b"") + body[1:])
        self._counters[slot] = counter
        return path

    def discard(self) -> None:
        """Remove this key's slots and lock (after a save, a clean close, a discarded recovery)."""
        self.store.remove_key(self.key)
        self.abandon()

    def abandon(self) -> None:
        """Let go of the lock and leave the slots, as a crash would (the next start offers
        them). Tests use it to crash a window without killing the process."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


class AutosaveStore:
    """The autosave folder: rotating slots per key, and what can be recovered."""

    def __init__(self, folder: str | Path | None = None, slots: int = 3):
        self._folder = Path(folder) if folder is not None else None
        if slots < 1:
            raise ValueError("at least one autosave slot is needed")
        self.slots = slots
        #: Files set aside as damaged, in words (shown by the window once).
        self.problems: list[str] = []

    @property
    def folder(self) -> Path:
        """The autosave folder (the user state folder is looked up on first use)."""
        if self._folder is None:
            self._folder = user_state_dir() / "autosave"
        return self._folder

    @staticmethod
    def new_key() -> str:
        return os.urandom(8).hex()  # what secrets.token_hex returns

    def handle(self) -> AutosaveHandle:
        """A new document's autosaves, under a fresh key."""
        return AutosaveHandle(self, self.new_key())

    def adopt(self, info: AutosaveInfo) -> AutosaveHandle:
        """Go on autosaving a recovered session under its own key, after its newest slot
        (so a crash right after the recovery loses nothing)."""
        counters = {}
        for slot, counter, _path, _meta in self._slots_of(info.key):
            counters[slot] = counter
        handle = AutosaveHandle(self, info.key, counters)
        handle._take_lock()
        return handle

    def remove_key(self, key: str) -> None:
        """Delete a key's files (names built from the key alone: hex digits, checked)."""
        if not _KEY.match(key):
            raise ValueError(f"not an autosave key: {key!r}")
        names = [f"{key}.{n}.shipsheet" for n in range(max(self.slots, 8))]
        names += [f"{key}.lock", f"{key}.json", f"{key}.journal"]  # .json: the index of older ShipSheets
        for name in names:
            try:
                os.unlink(self.folder / name)
            except OSError:
                pass

    # -- reading -----------------------------------------------------------------
    def _set_aside(self, path: Path, why: str) -> None:
        try:
            replace(path, path.with_name(path.name + ".damaged"))
            self.problems.append(f"{path.name}: {why}; set aside as {path.name}.damaged")
        except OSError as exc:
            self.problems.append(f"{path.name}: {why} (could not set it aside: {exc.strerror or exc})")

    def _slots_of(self, key: str) -> list[tuple[int, int, Path, dict]]:
        """A key's readable slots, newest first: (slot, counter, path, meta)."""
        found = []
        for n in range(max(self.slots, 8)):
            path = self.folder / f"{key}.{n}.shipsheet"
            if not path.exists() and not path.is_symlink():
                continue
            meta = self._meta(path)
            if meta is not None:
                found.append((n, meta["counter"], path, meta))
        return sorted(found, key=lambda f: (f[1], f[2].stat().st_mtime_ns if f[2].exists() else 0),
                      reverse=True)

    def _meta(self, path: Path) -> dict | None:
        """A slot's autosave entry, checked; a slot that cannot be read is set aside."""
        try:
            data = decode_session_json(read_regular(path, MAX_FILE_BYTES), path.name)
        except OSError as exc:
            self._set_aside(path, f"cannot be read ({exc})")
            return None
        except SessionFileError as exc:
            self._set_aside(path, str(exc))
            return None
        meta = data.get(META) if isinstance(data, dict) else None
        if meta is None:  # a slot of an older ShipSheet: ordered by its time
            meta = {"counter": 0, "title": None, "source": None}
        counter = meta.get("counter") if isinstance(meta, dict) else None
        if not isinstance(counter, int) or isinstance(counter, bool) or not 0 <= counter < 2**62:
            self._set_aside(path, "its autosave entry is damaged")
            return None
        upto = meta.get("upto") if isinstance(meta, dict) else None
        journal = meta.get("journal") if isinstance(meta, dict) else None
        if not isinstance(upto, int) or isinstance(upto, bool) or not isinstance(journal, str):
            upto, journal = 0, None
        base = meta.get("base") if isinstance(meta, dict) else None
        if not (isinstance(base, list) and len(base) == 3
                and all(isinstance(v, int) and not isinstance(v, bool) for v in base)):
            base = None
        return {"counter": counter, "title": meta.get("title"), "source": meta.get("source"),
                "data": data, "journal": journal, "upto": upto, "base": base}

    def _holder_alive(self, key: str) -> bool:
        """Whether a running process holds ``key``'s lock."""
        lock = self.folder / f"{key}.lock"
        try:
            fd = os.open(lock, os.O_RDWR | NOFOLLOW | NONBLOCK | BINARY)
        except FileNotFoundError:
            return False
        except OSError:
            self._set_aside(lock, "is not a lock file")
            return False
        try:
            return not try_lock(fd)
        except OSError:  # a file system without locks: every key looks free
            return False
        finally:
            os.close(fd)  # closing drops a lock just taken

    @staticmethod
    def _source(value) -> Path | None:
        """The session's own file, if the entry names a plausible one (an absolute path to
        a ``.shipsheet`` file); anything else is dropped and the session is restored unsaved."""
        if not isinstance(value, str) or not value.endswith(".shipsheet") or "\0" in value:
            return None
        path = Path(value)
        return path if path.is_absolute() else None

    def keys(self) -> list[str]:
        """Every key with slots in the folder (names that are not ours are left alone)."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        return sorted({m.group(1) for m in map(_SLOT.match, names) if m}
                      | {m.group(1) for m in map(_JOURNAL.match, names) if m})

    def _journal_of(self, key: str):
        """The key's journal as read (``journal.JournalRead``) and its time, or (None, 0)."""
        from .journal import MAX_JOURNAL_BYTES, read_journal
        path = self.folder / f"{key}.journal"
        if not path.exists() and not path.is_symlink():
            return None, 0.0
        try:
            read = read_journal(read_regular(path, MAX_JOURNAL_BYTES))
            when = path.stat().st_mtime
        except (OSError, SessionFileError) as exc:
            self._set_aside(path, f"cannot be read ({exc})")
            return None, 0.0
        if read.id is None:
            self._set_aside(path, read.problem)
            return None, 0.0
        if read.problem:
            self.problems.append(f"{path.name}: {read.problem}; the changes before it are recovered")
        return read, when

    def _recovered(self, key: str):
        """The key's newest session as (data, slot path, counter, meta, time, changes
        replayed from the journal), or None: the newest readable slot with the journal's
        later records on it, or the journal alone when no slot was made with it."""
        from .journal import replay
        slots = self._slots_of(key)
        journal, journal_time = self._journal_of(key)
        newest = slots[0] if slots else None
        base = None
        if newest is not None:
            _slot, counter, path, meta = newest
            base = meta["data"]
            base.pop(META, None)
            try:
                saved_at = path.stat().st_mtime
            except OSError:
                saved_at = 0.0
        records = journal.records if journal is not None else []
        if newest is not None and journal is not None and meta["journal"] == journal.id:
            after = meta["upto"]
        elif records and "full" in records[0]:
            base, after = None, 0
            path, counter = self.folder / f"{key}.journal", 0
            meta = {"title": None, "source": journal.source, "base": journal.base}
        else:
            return None if newest is None else (base, path, counter, meta, saved_at, 0)
        data, applied, problem = replay(base, records, after)
        if problem:
            self.problems.append(f"{key}.journal: {problem}; the changes before it are recovered")
        if data is None:
            return None if newest is None else (meta["data"], path, counter, meta, saved_at, 0)
        if applied:
            saved_at = journal_time
        return data, path, counter, meta, saved_at, applied

    def recoverable(self, *, of_file: Path | None = None) -> list[AutosaveInfo]:
        """The newest readable slot of every key no running ShipSheet holds, unless its
        session's own file holds that very work (saved from it after the slot: see the module
        docstring); newest first. Temporary files killed saves left in the folder go first.

        ``of_file``: only the work on the session saved at that file; the others' sessions
        are not built (nor their own files read to compare), however many there are."""
        from .storage import remove_abandoned_temporaries
        remove_abandoned_temporaries(self.folder)
        found = []
        for key in self.keys():
            if self._holder_alive(key):
                continue  # another window or process is working on it
            for _attempt in range(max(self.slots, 8) + 1):
                recovered = self._recovered(key)
                if recovered is None:
                    break
                data, path, counter, meta, saved_at, applied = recovered
                source = self._source(meta["source"])
                if of_file is not None and source != of_file:
                    recovered = None  # another session's work
                    break
                try:
                    session = session_from_data(data, path.name)
                    break
                except SessionFileError as exc:
                    # What cannot be built is set aside (the journal, when it was replayed)
                    # and the key is read again: an older slot may still hold the work.
                    self._set_aside(self.folder / f"{key}.journal" if applied else path, str(exc))
                    recovered = None
            if recovered is None:
                continue
            title = meta["title"] if isinstance(meta["title"], str) else session.title
            info = AutosaveInfo(key, path, counter, saved_at, source, title, session, applied)
            if source is not None:
                stands = _against_file(source, meta.get("base"), session)
                if stands == "holds it":  # saved from this work after the slot: nothing to recover
                    self.remove_key(key)
                    continue
                info.changed_elsewhere = stands == "changed" and meta.get("base") is not None
                info.file_as_begun = stands == "as begun"
            found.append(info)
        return sorted(found, key=lambda i: i.saved_at, reverse=True)

    def newer_than_file(self, path: str | Path) -> AutosaveInfo | None:
        """The newest recoverable autosave of the session saved at ``path``."""
        target = Path(path).resolve()
        return next(iter(self.recoverable(of_file=target)), None)


def _against_file(source: Path, base: list | None, session: Session) -> str:
    """How the session's own file stands to the recovered work: "gone", "as begun" (still
    what it was when the work began: the work is newer), "holds it" (it holds this very
    session: saved from this work) or "changed" (changed since, and not to this work)."""
    from .filelock import DiskState
    from .storage import load_session
    now = DiskState.of(source)
    if now.key is None:
        return "gone"
    if base is not None and now.key == tuple(base):
        return "as begun"
    try:
        on_disk = load_session(source)
    except (SessionFileError, OSError, ValueError):
        return "changed"
    same = session_to_bytes(on_disk) == session_to_bytes(session)
    return "holds it" if same else "changed"

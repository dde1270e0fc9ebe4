"""Who has a session file open, and whether it changed on disk since it was opened.

:class:`SessionLock` is a lock file beside the session file (``.NAME.lock``, as office
programs do), held with the system's file lock (``portable.try_lock``) for as long as the
file is open. The kernel drops the
lock when its process ends, however it ends, so a lock left by a crash is recognised as
stale and simply taken over; the file's content (process, host, time) only says who holds
a live one. Where the folder cannot be written, nothing is locked (nothing can be saved
there either). Taking the lock also removes the temporary files killed saves left in the
file's folder (``storage.remove_abandoned_temporaries``: those no live writer holds).

:class:`DiskState` is what a file looked like when it was opened or saved (inode, size,
modification time): Save compares it with the file now, so a change made meanwhile by
someone else is noticed before it is overwritten.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from .portable import BINARY, LOCK_INFO_AT, NOFOLLOW, NONBLOCK, hostname as _hostname
from .portable import read_at, release_lock_file, try_lock, write_at


def lock_path(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(f".{path.name}.lock")


class LockHolder:
    """Who holds a session file's lock: a process, its host, since when."""

    def __init__(self, pid: int | None, host: str, since: float | None):
        self.pid = pid
        self.host = host
        self.since = since

    @property
    def this_process(self) -> bool:
        return self.pid == os.getpid() and self.host == _hostname()

    def describe(self) -> str:
        if self.this_process:
            return "in another window of this ShipSheet"
        who = f"by ShipSheet (process {self.pid}" if self.pid else "by another ShipSheet ("
        where = f" on {self.host}" if self.host and self.host != _hostname() else ""
        when = (f", since {time.strftime('%Y-%m-%d %H:%M', time.localtime(self.since))}"
                if self.since else "")
        return f"{who}{where}{when})"


class SessionLock:
    """The lock on one open session file (see the module docstring)."""

    def __init__(self, path: Path, fd: int | None):
        self.path = path
        self._fd = fd

    @classmethod
    def acquire(cls, path: str | Path) -> "SessionLock | LockHolder":
        """Lock ``path``; or, when a running ShipSheet has it open, who that is."""
        target = lock_path(Path(path).resolve())
        try:
            fd = os.open(target, os.O_RDWR | os.O_CREAT | NOFOLLOW | NONBLOCK | BINARY, 0o644)
        except OSError:
            return cls(target, None)  # a folder we cannot write: nothing to lock
        try:
            taken = try_lock(fd)
        except OSError:  # a file system without locks: nothing to lock
            os.close(fd)
            return cls(target, None)
        if not taken:
            holder = _read_holder(fd)
            os.close(fd)
            return holder
        info = {"pid": os.getpid(), "host": _hostname(), "since": time.time()}
        try:
            os.ftruncate(fd, 0)
            write_at(fd, b"\n" + json.dumps(info).encode(), LOCK_INFO_AT - 1)
        except OSError:
            pass
        # The file is ours to work on now: what killed saves left beside it goes.
        from .storage import remove_abandoned_temporaries
        remove_abandoned_temporaries(target.parent)
        return cls(target, fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def abandon(self) -> None:
        """Let go of the lock and leave its file, as a crash would (tests)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def release(self) -> None:
        """Remove the lock file and let go (the file is closed)."""
        if self._fd is None:
            return
        release_lock_file(self._fd, self.path)
        self._fd = None


def _read_holder(fd: int) -> LockHolder:
    try:
        text = read_at(fd, 4096, LOCK_INFO_AT).decode("utf-8", "replace").strip()
        data = json.loads(text or "{}")
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    pid = data.get("pid") if isinstance(data.get("pid"), int) else None
    host = data.get("host") if isinstance(data.get("host"), str) else ""
    since = data.get("since") if isinstance(data.get("since"), (int, float)) else None
    if since is not None and not (0 < since < 1e11):
        since = None
    return LockHolder(pid, host[:100], since)


class DiskState:
    """A file's identity and version on disk (inode, size, modification time)."""

    __slots__ = ("key",)

    def __init__(self, key: tuple | None):
        self.key = key

    @classmethod
    def of(cls, path: str | Path) -> "DiskState":
        try:
            st = os.stat(path)
        except OSError:
            return cls(None)
        return cls((st.st_ino, st.st_size, st.st_mtime_ns))

    def changed(self, path: str | Path) -> bool:
        """Whether ``path`` is no longer the file this state was taken of (changed, replaced
        or removed)."""
        return DiskState.of(path).key != self.key

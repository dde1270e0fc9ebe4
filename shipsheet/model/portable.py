"""The one module that hides what differs between Linux, macOS and Windows.

Everything else calls these and never a POSIX-only (or Windows-only) function itself:

- **OS locks** on a file we opened (:func:`try_lock`, :func:`release_lock_file`): the
  ``filelock`` library's descriptor lock — ``flock`` on Linux and macOS, ``LockFileEx`` on
  byte 0 on Windows. The system drops the lock when its process ends, however it ends. On
  Windows the locked byte cannot be read by others, so what a lock file says of its holder
  starts at :data:`LOCK_INFO_AT`, past it.
- **Reading and writing at an offset** (:func:`read_at`, :func:`write_at`): ``os.pread``
  and ``os.pwrite`` exist on POSIX only.
- **File permissions** (:func:`set_mode`): POSIX modes; on Windows a file in the user's
  profile is the user's by its folder's access list, and a mode could only make it
  read-only, so nothing is done.
- **Making a rename durable** (:func:`sync_folder`): POSIX fsyncs the folder; Windows cannot
  open a folder as a file and makes the rename durable itself.
- **Making a write durable** (:func:`full_fsync`): ``fsync``, and on macOS
  ``fcntl(F_FULLFSYNC)``, without which macOS leaves the data in the drive's cache.
- **Putting a file in place** (:func:`replace`): ``os.replace``, retried for about a second
  on Windows when it fails with PermissionError (an antivirus scanner, a search indexer or a
  sync client holding the file open for a moment).
- **Who owns a file** (:func:`owned_by_someone_else`): POSIX compares the owner with the
  user; Windows has no owner id to compare (the profile folder's access list decides).
- **Flags** ``os.open`` takes on some systems only (:data:`NOFOLLOW`, :data:`NONBLOCK`,
  :data:`NOCTTY`, :data:`CLOEXEC`, and Windows' :data:`BINARY`, without which a descriptor
  reads CR LF as LF and stops at Ctrl+Z): 0 where the system has none.
- **The machine's name** (:func:`hostname`).
- **A thread that lets the window's go first** (:func:`lower_this_thread`): Linux's nice
  value of one thread, Windows' thread priority, macOS's quality-of-service class.

A test of a behaviour only one kind of system has checks it under ``if os.name ==
"posix":`` with the reason beside it, and checks the rest everywhere. ``tests/platforms.py``
(``as_platform("win32" | "darwin")``) runs code through this module's Windows and macOS
branches on Linux, with the POSIX-only calls taken away: it proves the branches, not those
systems.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

WINDOWS = sys.platform == "win32"
MACOS = sys.platform == "darwin"
LINUX = sys.platform.startswith("linux")

#: ``os.open`` flags, 0 where the system lacks them (Windows has only BINARY; POSIX all
#: but BINARY).
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
NOCTTY = getattr(os, "O_NOCTTY", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
BINARY = getattr(os, "O_BINARY", 0)
#: Where a lock file's words about its holder start: past the byte Windows locks.
LOCK_INFO_AT = 1
#: How often, and how far apart, :func:`replace` tries again on Windows (about a second).
REPLACE_TRIES = 10
REPLACE_PAUSE = 0.1
#: How much nicer (Linux) a thread that lets the window's go first is than the process.
NICER = 10
#: Windows' ``THREAD_PRIORITY_BELOW_NORMAL`` and macOS's ``QOS_CLASS_UTILITY``.
BELOW_NORMAL = -1
QOS_UTILITY = 0x11


def hostname() -> str:
    """This machine's name, as ``socket.gethostname()`` gives it (on POSIX both read
    ``uname``, which keeps the socket module off the start-up path)."""
    uname = getattr(os, "uname", None)
    if uname is not None:
        return uname().nodename
    import socket
    return socket.gethostname()


def lower_this_thread() -> bool:
    """Let the process's other threads (the window's) have the processor first when the
    machine is busy: the calling thread runs :data:`NICER` nicer than the process on Linux
    (per thread there; never past 19), below normal priority on Windows, at the utility
    quality of service on macOS. Nothing elsewhere. True when lowered; never raises.

    Why: a thread that wakes another (the window's handing a phone's answer to the table's
    loop) may lose the processor to it on a busy machine, for milliseconds; lowered, the
    woken one waits instead. A thread cannot raise itself back (Linux needs privileges for
    that): call it only on a thread that serves in the background for the rest of its life."""
    try:
        if WINDOWS:
            from ctypes import c_int, c_void_p
            kernel32 = _library("kernel32")
            current, set_priority = kernel32.GetCurrentThread, kernel32.SetThreadPriority
            current.restype = c_void_p  # a HANDLE: pointer-sized, not ctypes' default int
            set_priority.argtypes, set_priority.restype = (c_void_p, c_int), c_int
            return bool(set_priority(current(), BELOW_NORMAL))
        if MACOS:
            return _library("System").pthread_set_qos_class_self_np(QOS_UTILITY, 0) == 0
        if LINUX:
            thread = threading.get_native_id()  # Linux keeps a nice value per thread
            nicer = min(19, os.getpriority(os.PRIO_PROCESS, os.getpid()) + NICER)
            if os.getpriority(os.PRIO_PROCESS, thread) < nicer:
                os.setpriority(os.PRIO_PROCESS, thread, nicer)
            return True
    except Exception:  # noqa: BLE001  (a system that refuses, or has no such call: the
        return False   # thread runs as it was, and a pool's thread must start whatever)
    return False


def _library(name: str):
    """The system's library ``name`` through ctypes (Windows' kernel32, macOS's System)."""
    import ctypes
    if WINDOWS:
        return ctypes.WinDLL(name)
    return ctypes.CDLL(f"/usr/lib/lib{name}.dylib")


def try_lock(fd: int) -> bool:
    """Take the OS lock on the open file ``fd`` without waiting: True when taken, False when
    another holder (another process, or another descriptor of this one) has it. OSError
    when the file system has no locks at all.

    The lock is the ``filelock`` library's (imported here, on the first lock: it is not
    needed to start)."""
    from filelock import lock_descriptor
    return lock_descriptor(fd, blocking=False)


def release_lock_file(fd: int, path: Path) -> None:
    """Let go of a lock taken with :func:`try_lock` and remove its file. POSIX removes the
    file while still holding it (no one else can take a lock on a file about to go);
    Windows cannot remove an open file, so it closes first, and removing then fails
    harmlessly if another process has opened it meanwhile."""
    if not WINDOWS:
        try:
            os.unlink(path)
        except OSError:
            pass
        os.close(fd)
        return
    os.close(fd)
    try:
        os.unlink(path)
    except OSError:
        pass


def read_at(fd: int, size: int, offset: int) -> bytes:
    """Up to ``size`` bytes of ``fd`` from ``offset`` (``os.pread`` where there is one)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, size)


def write_at(fd: int, data: bytes, offset: int) -> None:
    """Write ``data`` into ``fd`` at ``offset`` (``os.pwrite`` where there is one)."""
    if hasattr(os, "pwrite"):
        os.pwrite(fd, data, offset)
        return
    os.lseek(fd, offset, os.SEEK_SET)
    os.write(fd, data)


def set_mode(fd: int, mode: int) -> None:
    """Give the open file ``fd`` the permissions ``mode`` (0600: the user's only), on POSIX;
    nothing on Windows (see the module docstring)."""
    if not WINDOWS:
        os.fchmod(fd, mode)


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX: fsync the folder; Windows: nothing to
    do). Errors are ignored: the rename itself has happened."""
    if WINDOWS:
        return
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def full_fsync(fd: int) -> None:
    """Make what was written to ``fd`` durable: ``os.fsync``, and where the system has it
    (macOS) ``fcntl(fd, F_FULLFSYNC)``, which also flushes the drive's own cache (macOS's
    fsync does not). A file system that refuses F_FULLFSYNC (some network ones) gets the
    plain fsync. OSError as ``os.fsync`` raises it."""
    if not WINDOWS:
        import fcntl
        full = getattr(fcntl, "F_FULLFSYNC", None)
        if full is not None:
            try:
                fcntl.fcntl(fd, full)
                return
            except OSError:
                pass
    os.fsync(fd)


def replace(src: str | Path, dst: str | Path) -> None:
    """``os.replace(src, dst)``. On Windows a PermissionError (another program holding
    ``dst`` or ``src`` open for a moment: an antivirus scan, an indexer, a sync client) is
    tried again :data:`REPLACE_TRIES` times, :data:`REPLACE_PAUSE` seconds apart, and
    raised if it persists. Elsewhere a rename never waits for readers."""
    if not WINDOWS:
        os.replace(src, dst)
        return
    for _attempt in range(REPLACE_TRIES - 1):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            time.sleep(REPLACE_PAUSE)
    os.replace(src, dst)


def owned_by_someone_else(st: os.stat_result) -> bool:
    """Whether the file ``st`` describes belongs to another user than the one running
    ShipSheet (POSIX: its owner id; Windows: never said, there is no owner id to compare)."""
    if WINDOWS:
        return False
    getuid = getattr(os, "geteuid", None)
    return getuid is not None and st.st_uid != getuid()


def writable_by_others(st: os.stat_result) -> bool:
    """Whether users other than its owner may write the file ``st`` describes (POSIX: its
    group's or others' write bit; Windows: never said, its rights are not mode bits)."""
    if WINDOWS:
        return False
    return bool(st.st_mode & 0o022)


__all__ = ["BINARY", "CLOEXEC", "LOCK_INFO_AT", "LINUX", "MACOS", "NOCTTY", "NOFOLLOW", "NONBLOCK",
           "REPLACE_PAUSE", "REPLACE_TRIES", "WINDOWS", "full_fsync", "hostname",
           "lower_this_thread", "owned_by_someone_else", "read_at", "release_lock_file", "replace",
           "set_mode", "sync_folder", "try_lock", "write_at", "writable_by_others"]

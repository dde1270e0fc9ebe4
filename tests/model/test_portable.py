"""What differs between Linux, macOS and Windows is hidden in one module
(``shipsheet/model/portable.py``): no other module calls a function only some systems have,
and the session lock it gives holds between processes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shipsheet.model import portable
from shipsheet.model.filelock import LockHolder, SessionLock, lock_path

ROOT = Path(__file__).resolve().parents[2]
#: Calls and modules some systems lack (POSIX-only, or Windows-only), and calls that behave
#: differently enough to need portable's version: ``os.fsync`` (macOS needs F_FULLFSYNC:
#: ``portable.full_fsync``) and ``os.replace``/``os.rename`` (Windows refuses while another
#: program holds the file: ``portable.replace``).
ONE_SYSTEM = re.compile(
    r"\bimport (fcntl|termios|pwd|grp|resource|msvcrt|winreg)\b"
    r"|\bos\.(fchmod|fchown|chown|lchmod|pread|pwrite|uname|getuid|geteuid|getpgid|setsid|"
    r"killpg|fork|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY|O_CLOEXEC|O_BINARY|startfile|"
    r"fsync|fdatasync|replace|rename)\b")


def test_no_module_but_portable_calls_what_only_some_systems_have():
    found = []
    for path in sorted((ROOT / "shipsheet").rglob("*.py")):
        if path.name == "portable.py" and path.parent.name == "model":
            continue
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if ONE_SYSTEM.search(code) and "``" not in code:
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_another_process_holding_a_session_is_named_and_its_lock_dies_with_it(tmp_path):
    session = tmp_path / "night.shipsheet"
    session.write_text("{}")
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from shipsheet.model.filelock import SessionLock; "
         "lock = SessionLock.acquire(sys.argv[1]); print(lock.held, flush=True); "
         "sys.stdin.read()", str(session)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "True"
        seen = SessionLock.acquire(session)
        assert isinstance(seen, LockHolder)
        assert seen.pid == holder.pid and seen.host == portable.hostname()
        assert f"process {holder.pid}" in seen.describe()
    finally:
        holder.kill()  # as a crash ends it: no release
        holder.wait()
    assert lock_path(session).exists()  # left behind, but no longer held
    taken = SessionLock.acquire(session)
    assert isinstance(taken, SessionLock) and taken.held
    taken.release()
    assert not lock_path(session).exists()


def test_reading_and_writing_at_an_offset_without_pread(tmp_path, monkeypatch):
    """Windows has no ``os.pread``/``os.pwrite``: the fallbacks give the same bytes."""
    path = tmp_path / "f"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | portable.BINARY)
    try:
        portable.write_at(fd, b"0123456789", 0)
        expected = portable.read_at(fd, 4, 3)
        monkeypatch.delattr(os, "pread", raising=False)
        monkeypatch.delattr(os, "pwrite", raising=False)
        portable.write_at(fd, b"ab", 8)
        assert portable.read_at(fd, 4, 3) == expected == b"3456"
        assert portable.read_at(fd, 100, 0) == b"01234567ab"
    finally:
        os.close(fd)


def test_a_rename_windows_refuses_for_a_moment_is_tried_again(tmp_path, monkeypatch):
    """An antivirus scanner or a sync client holds a file just written: Windows refuses to
    replace it (PermissionError) for a moment. ``portable.replace`` tries for about a second."""
    src, dst = tmp_path / "new", tmp_path / "old"
    src.write_text("new")
    dst.write_text("old")
    real, calls = os.replace, []

    def busy(a, b):
        calls.append(a)
        if len(calls) < 4:
            raise PermissionError(13, "in use by another process")
        real(a, b)
    monkeypatch.setattr(os, "replace", busy)
    monkeypatch.setattr(portable, "WINDOWS", True)
    monkeypatch.setattr(portable, "REPLACE_PAUSE", 0.001)
    portable.replace(src, dst)
    assert dst.read_text() == "new" and len(calls) == 4
    # Held for good: the PermissionError, after REPLACE_TRIES attempts.
    calls.clear()

    def held(a, b):
        calls.append(a)
        raise PermissionError(13, "held")
    monkeypatch.setattr(os, "replace", held)
    with pytest.raises(PermissionError):
        portable.replace(dst, src)
    assert len(calls) == portable.REPLACE_TRIES
    # Elsewhere a rename does not wait for readers: no retry.
    monkeypatch.setattr(portable, "WINDOWS", False)
    calls.clear()
    with pytest.raises(PermissionError):
        portable.replace(dst, src)
    assert len(calls) == 1


def test_full_fsync_asks_for_f_fullfsync_where_there_is_one(tmp_path, monkeypatch):
    """macOS's fsync leaves the data in the drive's cache; F_FULLFSYNC flushes it. A file
    system refusing F_FULLFSYNC gets the plain fsync."""
    import fcntl
    asked, synced = [], []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    monkeypatch.setattr(fcntl, "F_FULLFSYNC", 51, raising=False)
    monkeypatch.setattr(fcntl, "fcntl", lambda fd, cmd, *a: asked.append((fd, cmd)) or 0)
    fd = os.open(tmp_path / "f", os.O_RDWR | os.O_CREAT)
    try:
        portable.full_fsync(fd)
        assert asked == [(fd, 51)] and synced == []

        def refuse(fd, cmd, *a):
            raise OSError(22, "not supported")
        monkeypatch.setattr(fcntl, "fcntl", refuse)
        portable.full_fsync(fd)
        assert synced == [fd]
        monkeypatch.delattr(fcntl, "F_FULLFSYNC")  # Linux: fsync alone
        portable.full_fsync(fd)
        assert synced == [fd, fd]
    finally:
        os.close(fd)

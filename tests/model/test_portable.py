"""What differs between Linux, macOS and Windows is hidden in one module
(``shipsheet/model/portable.py``): no other module calls a function only some systems have,
and the session lock it gives holds between processes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from shipsheet.model import portable
from shipsheet.model.filelock import LockHolder, SessionLock, lock_path

ROOT = Path(__file__).resolve().parents[2]
#: Calls and modules some systems lack (POSIX-only, or Windows-only).
ONE_SYSTEM = re.compile(
    r"\bimport (fcntl|termios|pwd|grp|resource|msvcrt|winreg)\b"
    r"|\bos\.(fchmod|fchown|chown|lchmod|pread|pwrite|uname|getuid|geteuid|getpgid|setsid|"
    r"killpg|fork|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY|O_CLOEXEC|O_BINARY|startfile)\b")


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

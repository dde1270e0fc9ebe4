"""Platform differences tested here: run code as Windows or macOS would see it, on Linux.

:func:`as_platform` switches ``shipsheet.model.portable``'s branches (its ``WINDOWS``,
``MACOS`` and ``LINUX`` flags, and the copies of its flags other modules imported) and makes
the process look like that system where the code could notice:

``"win32"``
    The POSIX-only calls are gone (``os.fchmod``, ``os.fchown``, ``os.getuid``,
    ``os.geteuid``, ``os.pread``, ``os.pwrite``, ``os.uname``, the ``O_NOFOLLOW``,
    ``O_NONBLOCK``, ``O_NOCTTY`` and ``O_CLOEXEC`` flags): calling one raises
    AttributeError. ``fcntl.fcntl`` fails the test. A folder cannot be opened as a file
    (``os.open`` of a folder raises PermissionError, so a folder fsync is impossible). And
    ``os.replace`` is refused once (PermissionError) for each new file it would put in
    place, as when an antivirus scanner or a sync client holds it for a moment.
    kernel32's ``GetCurrentThread`` and ``SetThreadPriority`` are noted
    (:attr:`FakePlatform.thread_calls`), not made.
``"darwin"``
    ``fcntl.F_FULLFSYNC`` exists, and ``fcntl.fcntl(fd, F_FULLFSYNC)`` is counted
    (:attr:`FakePlatform.full_fsyncs`) and fsyncs: a write made durable without it is not
    durable on a Mac. libSystem's ``pthread_set_qos_class_self_np`` is noted
    (:attr:`FakePlatform.thread_calls`), not made.

**This proves the branches, not Windows or macOS themselves**: the file locks are still
Linux's ``flock`` (``filelock`` chose it at import), files are still Linux's (an open file
can be renamed and removed), and the rules faked are only those named above. It catches
the kind of break where a one-system call slips outside ``portable.py``, or a branch of
``portable.py`` is wrong, on every run on Linux; the real systems are for CI.
"""

from __future__ import annotations

import errno
import os
import sys
from contextlib import contextmanager
from typing import Iterator

from shipsheet.model import portable

PLATFORMS = ("win32", "darwin")
#: What Windows' ``os`` lacks.
POSIX_ONLY = ("fchmod", "fchown", "getuid", "geteuid", "pread", "pwrite", "uname",
              "O_NOFOLLOW", "O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC")
#: ``portable``'s flags that other modules import by name (their copies are switched too).
_FLAGS = ("NOFOLLOW", "NONBLOCK", "NOCTTY", "CLOEXEC")
#: macOS's ``F_FULLFSYNC`` (``<sys/fcntl.h>``).
F_FULLFSYNC = 51


class FakePlatform:
    """What the faked system saw: full fsyncs (macOS) and renames refused once (Windows)."""

    def __init__(self, name: str):
        self.name = name
        self.full_fsyncs = 0
        self.replace_refusals = 0
        #: The system library calls made to lower a thread: (function, arguments...).
        self.thread_calls: list[tuple] = []


#: What the faked ``GetCurrentThread`` returns (Windows' own is the pseudo-handle -2).
CURRENT_THREAD = -2


class _FakeLibrary:
    """A system library (``portable._library``) whose calls are noted, not made."""

    def __init__(self, fake: FakePlatform, name: str, answers: dict):
        self._fake, self._name, self._answers = fake, name, answers

    def __getattr__(self, function: str):
        if function not in self._answers:
            raise AttributeError(f"{self._name} has no {function} here")

        def call(*args):
            self._fake.thread_calls.append((function, *args))
            return self._answers[function]
        setattr(self, function, call)  # as ctypes: the same function each time, its types kept
        return call


def _shipsheet_modules():
    return [m for n, m in list(sys.modules.items())
            if m is not None and (n == "shipsheet" or n.startswith("shipsheet."))]


@contextmanager
def as_platform(monkeypatch, name: str) -> Iterator[FakePlatform]:
    """Run the block as ``name`` ("win32" or "darwin") would see it (the module docstring
    says how far that goes); ``monkeypatch`` undoes it all after the test."""
    if name not in PLATFORMS:
        raise ValueError(f"no such faked platform: {name!r}")
    import fcntl
    fake = FakePlatform(name)
    windows = name == "win32"
    original = {flag: getattr(portable, flag) for flag in _FLAGS}
    flags = {flag: 0 if windows else original[flag] for flag in _FLAGS}
    for module in _shipsheet_modules():
        names = vars(module)
        for system, value in (("WINDOWS", windows), ("MACOS", not windows), ("LINUX", False)):
            if isinstance(names.get(system), bool):  # portable's, or a copy imported by name
                monkeypatch.setattr(module, system, value)
        for flag, value in flags.items():
            if flag in names and names[flag] == original[flag]:
                monkeypatch.setattr(module, flag, value)
    from shipsheet.model import files
    monkeypatch.setattr(files, "_FLAGS", os.O_RDONLY | portable.BINARY
                        | sum(flags[f] for f in ("NONBLOCK", "NOCTTY", "CLOEXEC")))
    real_fcntl = fcntl.fcntl
    libraries = {"kernel32": {"GetCurrentThread": CURRENT_THREAD, "SetThreadPriority": 1}} \
        if windows else {"System": {"pthread_set_qos_class_self_np": 0}}

    loaded: dict[str, _FakeLibrary] = {}

    def library(name: str):
        if name not in libraries:
            raise OSError(f"no library {name} on {fake.name}")
        return loaded.setdefault(name, _FakeLibrary(fake, name, libraries[name]))
    monkeypatch.setattr(portable, "_library", library)
    if windows:
        for attr in POSIX_ONLY:
            monkeypatch.delattr(os, attr, raising=False)
        monkeypatch.delattr(fcntl, "F_FULLFSYNC", raising=False)

        def no_fcntl(*args, **kwargs):
            raise AssertionError("fcntl.fcntl called as if on Windows, which has no fcntl")
        monkeypatch.setattr(fcntl, "fcntl", no_fcntl)

        real_open = os.open

        def open_(path, flags, mode=0o777, *, dir_fd=None):
            if dir_fd is None and os.path.isdir(path):
                raise PermissionError(errno.EACCES, "Permission denied (a folder, on Windows)", str(path))
            return real_open(path, flags, mode, dir_fd=dir_fd)
        monkeypatch.setattr(os, "open", open_)

        real_replace = os.replace
        refused: set[str] = set()

        def replace(src, dst, **kwargs):
            key = os.path.abspath(os.fspath(src))  # each new file, once
            if key not in refused:
                refused.add(key)
                fake.replace_refusals += 1
                raise PermissionError(errno.EACCES, "The process cannot access the file because "
                                      "it is being used by another process", os.fspath(dst))
            return real_replace(src, dst, **kwargs)
        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(portable, "REPLACE_PAUSE", 0.001, raising=False)
    else:
        monkeypatch.setattr(fcntl, "F_FULLFSYNC", F_FULLFSYNC, raising=False)

        def fcntl_(fd, cmd, *args):
            if cmd == F_FULLFSYNC:
                fake.full_fsyncs += 1
                os.fsync(fd)
                return 0
            return real_fcntl(fd, cmd, *args)
        monkeypatch.setattr(fcntl, "fcntl", fcntl_)
    yield fake

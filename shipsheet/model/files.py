"""Reading files that may come from someone else: regular files only, size checked first,
every read bounded.

A file named ``*.shipsheet`` or ``*.toml`` may be a FIFO (opening it would wait for a
writer forever), a device (``/dev/zero`` reads without end), a symlink to either, or a
file of gigabytes. :func:`read_regular` opens without waiting (``O_NONBLOCK``), asks the
open file itself what it is (``fstat``, so a swap after a check cannot fool it), refuses
anything but a regular file, checks the size before reading and never reads more than
the limit allows. Every reader of files in ShipSheet goes through it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .portable import BINARY, CLOEXEC, NOCTTY, NONBLOCK

_FLAGS = os.O_RDONLY | NONBLOCK | NOCTTY | CLOEXEC | BINARY


class UnreadableFile(OSError):
    """A file ShipSheet will not read; ``str()`` says why, in words."""

    def __str__(self) -> str:
        return self.args[0] if self.args else "cannot read the file"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def megabytes(size: int) -> str:
    """A size in words: "1.05 MB", "12 KB", "300 bytes"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.3g} MB"
    if size >= 1024:
        return f"{size / 1024:.3g} KB"
    return f"{size} bytes"


def read_regular(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them.

    Raises :class:`UnreadableFile` (an OSError) for a folder, pipe, device or socket, or
    a file over the limit, and OSError as ``open`` does (missing, no permission)."""
    fd = os.open(path, _FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableFile(f"is {_kind(st.st_mode)}, not a file")
        if st.st_size > max_bytes:
            raise UnreadableFile(f"the file is too large ({megabytes(st.st_size)}; "
                                 f"at most {megabytes(max_bytes)})")
        chunks, left = [], max_bytes + 1
        while left > 0:  # bounded even if the file grows while it is read
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > max_bytes:
            raise UnreadableFile(f"the file is too large (over {megabytes(max_bytes)})")
        return data
    finally:
        os.close(fd)


def problem(exc: OSError) -> str:
    """An OSError in words for a message ("is a pipe, not a file", "No such file ...")."""
    if isinstance(exc, UnreadableFile):
        return str(exc)
    if isinstance(exc, IsADirectoryError):
        return "is a folder, not a file"
    return f"cannot read the file ({exc.strerror or exc})"


def is_regular(path: str | Path) -> bool:
    """Whether ``path`` is a regular file (following symlinks), without opening it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False

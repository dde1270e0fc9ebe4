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
import unicodedata
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


#: Names Windows reserves for devices, whatever the case and extension (``con.txt`` too).
RESERVED_NAMES = frozenset({"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
                            *(f"COM{c}" for c in "0123456789\u00b9\u00b2\u00b3"),
                            *(f"LPT{c}" for c in "0123456789\u00b9\u00b2\u00b3")})
#: Characters no file name may hold on some system (Windows: all of them; POSIX: "/").
FORBIDDEN_CHARS = frozenset('<>:"/\\|?*')
#: Characters that reorder the text round them (Unicode's bidirectional controls): every
#: system takes them in a name, and a name holding one shows what it is not.
_REORDERING = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                        "\u2066\u2067\u2068\u2069")
#: The longest file name (with its extension), in UTF-8 bytes, most file systems take.
MAX_NAME_BYTES = 255


def file_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a file's name on every system ShipSheet runs on (Linux, macOS,
    Windows), in words, or None when it can. The one place these rules are kept: the
    designer's class and chart names, the play-by-e-mail player files and the reports made
    from players' names all ask it.

    Refused: an empty name, ``.`` and ``..``; control characters; the characters that
    reorder the text round them (``\\u202e``: "exe.png" that is an .exe); ``< > : " / \\ | ? *``; a
    trailing dot or space (Windows drops them, so the file would be another's); the names
    Windows reserves for devices (``CON``, ``NUL``, ``COM1``, ``LPT1``…, in any case, with
    any extension: ``nul.toml``); more than 255 bytes."""
    if not name:
        return "a file name must not be empty"
    shown = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                    for c in name)
    if name in (".", ".."):
        return f'"{shown}" cannot be a file name'
    bidi = next((c for c in name if c in _REORDERING), None)
    if bidi is not None:  # "\u202egnp.exe" shows as "exe.png": an extension made to lie
        return (f'"{shown}" cannot be a file name: it holds a character that reorders the '
                "text around it, which makes a name show what it is not")
    bad = next((c for c in name if ord(c) < 32 or ord(c) == 127 or c in FORBIDDEN_CHARS), None)
    if bad is not None:
        what = "a control character" if bad not in FORBIDDEN_CHARS else f'"{bad}"'
        return f'"{shown}" cannot be a file name: it holds {what}, which Windows does not allow'
    if name[-1] in ". ":
        return (f'"{shown}" cannot be a file name: it ends with a '
                f'{"dot" if name[-1] == "." else "space"}, which Windows drops')
    if name.split(".")[0].rstrip(" ").upper() in RESERVED_NAMES:
        return f'"{shown}" cannot be a file name: Windows reserves "{name.split(".")[0]}" for a device'
    if len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        return f"a file name can be at most {MAX_NAME_BYTES} bytes long"
    return None


def safe_file_stem(stem: str) -> str:
    """``stem`` if it can be a file's name on every system (:func:`file_name_problem`),
    else a name made from it that can: forbidden and control characters become ``_``, a
    trailing dot or space goes, a reserved device name gets a leading ``_``, and the name is
    cut to 200 bytes. For names a file already holds (a player's, from an older file)."""
    if file_name_problem(stem) is None:
        return stem
    text = "".join("_" if ord(c) < 32 or ord(c) == 127 or c in FORBIDDEN_CHARS
                   or c in _REORDERING else c for c in stem).rstrip(". ")
    text = text.encode("utf-8", "surrogatepass")[:200].decode("utf-8", "ignore").rstrip(". ")
    if text in ("", ".", "..") or file_name_problem(text) is not None:
        text = "_" + text
    return text if file_name_problem(text) is None else "_"


# -- names made into files that travel ---------------------------------------------------------

#: The longest file name made from a name by :func:`safe_file_name` (before its extension).
MAX_FILE_STEM = 64
_FILE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


#: Latin letters that have no accent to drop, spelled in ASCII.
_SPELLED = str.maketrans({"Æ": "AE", "æ": "ae", "Ø": "O", "ø": "o", "Œ": "OE", "œ": "oe",
                          "ß": "ss", "Ð": "D", "ð": "d", "Þ": "Th", "þ": "th", "Ł": "L",
                          "ł": "l", "Đ": "D", "đ": "d", "ı": "i", "Ŋ": "N", "ŋ": "n"})


def safe_file_name(name: object, limit: int = MAX_FILE_STEM) -> str:
    """A file name (without extension) made from a name, for a file that travels (a
    player's file, orders and join files, turn reports: sent by e-mail, opened on any
    system): ASCII letters, digits,
    ``.``, ``_`` and ``-`` only (accents dropped, anything else ``_``), no leading dot or
    dash, no trailing dot, at most ``limit`` characters, never a name Windows reserves.
    When nothing is left (a name in another script), ``player-`` and 8 hex digits of the
    name's SHA-256, so two such names still differ. No path separator survives, so no name
    becomes a path."""
    original = str(name)
    text = unicodedata.normalize("NFKD", original.translate(_SPELLED))
    text = text.encode("ascii", "ignore").decode("ascii")
    out, gap = [], False
    for ch in text:
        if ch in _FILE_CHARS:
            out.append(ch)
            gap = False
        elif not gap:
            out.append("_")
            gap = True
    stem = "".join(out).lstrip("._-")[:limit].rstrip("._-")
    if not stem.strip("_"):
        import hashlib  # here: it loads OpenSSL's library, which start-up never needs
        digest = hashlib.sha256(original.encode("utf-8", "surrogatepass")).hexdigest()
        return f"player-{digest[:8]}"[:max(limit, 1)]
    if file_name_problem(stem) is not None:  # a name Windows reserves
        stem = ("_" + stem)[:limit].rstrip("._-")
    return stem

"""Text from files, made safe to show where it could do harm (here: a terminal); and
plain text laid out in a fixed number of columns, for what goes by e-mail."""

from __future__ import annotations

import unicodedata


def terminal_safe(text: str) -> str:
    """``text`` with every control and format character escaped (``\\x1b``, ``\\u202e``).

    What ``check`` prints comes from the files it checks: an escape sequence in a ship name
    could otherwise rewrite the line (a fake "OK") or set the terminal's title."""
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000
                       else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def encodable(text: str, stream) -> bool:
    """Whether ``stream`` (a text stream: ``sys.stdout``) can write ``text`` as it is: its
    encoding holds every character (a Windows console redirected to a file is cp1252, which
    has no block characters). A stream without an encoding is taken to take anything."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def plain_where_needed(stream) -> None:
    """Make ``stream`` write what its encoding cannot hold as ASCII escapes (``\\u2026``)
    instead of raising UnicodeEncodeError mid-print: a name from a file, a seat's name, in a
    console or a file whose encoding lacks them."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None and getattr(stream, "errors", "strict") == "strict":
        try:
            reconfigure(errors="backslashreplace")
        except (ValueError, OSError):  # a stream already written to in a way that forbids it
            pass


def name_and_items(text: str) -> tuple[str, list[str]] | None:
    """A command line's ``NAME=A,B,C`` (a seat and its ships, a player and their sides):
    the name and the items, trimmed, empty items dropped; None without a name and ``=``."""
    name, sep, items = text.partition("=")
    if not sep or not name.strip():
        return None
    return name.strip(), [i.strip() for i in items.split(",") if i.strip()]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 22nd (for logs, cards and forms)."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


#: The widest line of text that goes by e-mail: a turn report, the log copied as text.
MAIL_COLUMNS = 72


def columns(text: str) -> int:
    """How many columns ``text`` takes in a fixed-width font (``wcwidth``: a wide East Asian
    character two, a combining mark or a control character none, anything else one)."""
    from wcwidth import wcwidth  # on the first text laid out, not at start-up
    return sum(max(0, wcwidth(ch)) for ch in text)


def _cut(word: str, room: int) -> tuple[str, str]:
    """The longest head of ``word`` that fits ``room`` columns (at least one character)."""
    used = 0
    for i, ch in enumerate(word):
        w = columns(ch)
        if used + w > room and i:
            return word[:i], word[i:]
        used += w
    return word, ""


def wrap_columns(text: str, width: int = MAIL_COLUMNS, first: str = "",
                 rest: str = "") -> list[str]:
    """``text``'s words as lines of at most ``width`` columns (:func:`columns`): the first
    line starts with ``first``, each further one with ``rest``. Words are split at white
    space only (``forward-hull-1`` stays whole); a word longer than a whole line is cut.
    The one wrapper of ShipSheet's plain text: the turn reports and the log copied as text.
    Always at least one line."""
    lines: list[str] = []
    line, empty = first, True
    for word in text.split():
        while word:
            room = width - columns(line) - (0 if empty else 1)
            if columns(word) <= room:
                line += ("" if empty else " ") + word
                empty, word = False, ""
            elif not empty:
                lines.append(line)
                line, empty = rest, True
            else:  # a word longer than a whole line: cut it
                head, word = _cut(word, max(1, room))
                lines.append(line + head)
                line = rest
    if not empty or not lines:
        lines.append(line.rstrip() if empty else line)
    return lines

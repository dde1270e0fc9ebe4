"""A small TOML writer for ship definitions and charts (the standard library only reads TOML).

:func:`dumps` turns plain data (dicts, lists, text, numbers, true/false,
dates and times) into TOML that :mod:`tomllib` reads back to the same data,
laid out for people who edit the file by hand, like the bundled files:

- simple values first, then ``[tables]``, then ``[[arrays of tables]]``;
- a list of small flat tables is written one inline table per line
  (``boxes = [ { id = "ph-1", kind = "phaser" }, ... ]``);
- a list of lists (a chart's rows) one inner list per line, with the
  columns of text aligned;
- text with line breaks as a multi-line string.

Comments can be kept: :func:`extract_comments` reads the comments of a TOML
file (the header block, the lines above a key or table header, and the
comment at the end of a key's line) and :func:`dumps` puts them back beside
the same keys. Keys that no longer exist lose their comments.

No Qt here: the model never imports Qt.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

__all__ = ["Comments", "TomlWriteError", "dumps", "extract_comments", "format_key",
           "format_value"]

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
#: Inline forms longer than this are written over several lines (or as [[tables]]).
LINE_WIDTH = 100
#: A flat table with at most this many keys and a short inline form stays inline.
INLINE_TABLE_KEYS = 4
INLINE_TABLE_WIDTH = 60


class TomlWriteError(ValueError):
    """A value TOML cannot hold (None, an object), named by its key path."""


@dataclass
class Comments:
    """Comments read from a TOML file, by dotted key path (``"fixed"``, ``"suits"``).

    ``header``: the comment lines at the top of the file (before the first key);
    ``before[path]``: the comment lines just above a key or table header;
    ``trailing[path]``: the comment at the end of the key's (first) line.
    Each line is kept as written, ``#`` included.
    """

    header: list[str] = field(default_factory=list)
    before: dict[str, list[str]] = field(default_factory=dict)
    trailing: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.header or self.before or self.trailing)


# -- scalars ------------------------------------------------------------------------

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def _escape(text: str, multiline: bool = False) -> str:
    out = []
    for ch in text:
        if multiline and ch == "\n":
            out.append(ch)
        elif ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return "".join(out)


def _string(text: str, allow_multiline: bool = True) -> str:
    if allow_multiline and "\n" in text:
        # The newline right after the opening quotes is not part of the value.
        return '"""\n' + _escape(text, multiline=True) + '"""'
    return '"' + _escape(text) + '"'


def format_key(key: str) -> str:
    """A key as written: bare when it can be (``arc_degrees``), else quoted."""
    if not isinstance(key, str):
        raise TomlWriteError(f"a key must be text, not {key!r}")
    return key if _BARE_KEY.fullmatch(key) else _string(key, allow_multiline=False)


def _float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = repr(value)
    if not any(c in text for c in ".eE"):
        text += ".0"
    return text


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (str, bool, int, float, _dt.date, _dt.time))


def _scalar(value: Any, path: str, allow_multiline: bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return _string(value, allow_multiline)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    raise TomlWriteError(f"{path or 'value'}: TOML cannot hold {_describe(value)}")


def _describe(value: Any) -> str:
    if value is None:
        return "an empty value (None)"
    return f"a {type(value).__name__}"


# -- inline forms (one line) -----------------------------------------------------------

def format_value(value: Any, path: str = "") -> str:
    """``value`` in one line of TOML (inline tables and arrays; no line breaks)."""
    if _is_scalar(value):
        return _scalar(value, path, allow_multiline=False)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        parts = [f"{format_key(k)} = {format_value(v, _join(path, k))}" for k, v in value.items()]
        return "{ " + ", ".join(parts) + " }"
    if isinstance(value, (list, tuple)):
        items = [format_value(v, f"{path}[{i}]") for i, v in enumerate(value)]
        return "[" + ", ".join(items) + "]"
    raise TomlWriteError(f"{path or 'value'}: TOML cannot hold {_describe(value)}")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else str(key)


# -- deciding the layout ---------------------------------------------------------------------

def _flat_table(value: Any) -> bool:
    """A table of scalars and lists of scalars (fits in one inline table)."""
    return isinstance(value, Mapping) and all(
        _is_scalar(v) or (isinstance(v, (list, tuple)) and all(_is_scalar(x) for x in v))
        for v in value.values())


def _inline_table_ok(value: Mapping, path: str) -> bool:
    """A small table of plain values (``extra_kinds = { fighter-bay = "systems" }``)."""
    return (all(_is_scalar(v) for v in value.values()) and len(value) <= INLINE_TABLE_KEYS
            and len(format_value(value, path)) <= INLINE_TABLE_WIDTH)


def _table_list(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(
        isinstance(v, Mapping) for v in value)


def _as_array_of_tables(value: Any, path: str) -> bool:
    """A list of tables too big or too deep for one inline table per line: ``[[path]]``."""
    if not _table_list(value):
        return False
    return not all(_flat_table(v) and len(format_value(v, path)) <= LINE_WIDTH for v in value)


def _as_section(value: Any, path: str) -> bool:
    """A table written as a ``[section]`` rather than inline."""
    return isinstance(value, Mapping) and not (value == {} or _inline_table_ok(value, path))


def _array_lines(key_text: str, value: list, path: str, indent: str) -> list[str]:
    """``key = [...]``: one line when short, else one item per line."""
    one_line = f"{key_text} = {format_value(value, path)}"
    if not value:
        return [one_line]
    if all(isinstance(v, (list, tuple)) for v in value):
        return _rows_lines(key_text, value, path, indent)
    if len(one_line) + len(indent) <= LINE_WIDTH and not _table_list(value):
        return [one_line]
    lines = [f"{key_text} = ["]
    for i, item in enumerate(value):
        lines.append(f"{indent}  {format_value(item, f'{path}[{i}]')},")
    lines.append(f"{indent}]")
    return lines


def _rows_lines(key_text: str, rows: list, path: str, indent: str) -> list[str]:
    """A list of lists, one inner list per line, columns aligned (a chart's rows)."""
    cells = [[format_value(v, f"{path}[{r}][{c}]") for c, v in enumerate(row)]
             for r, row in enumerate(rows)]
    widths: dict[int, int] = {}
    for row in cells:
        for c, text in enumerate(row[:-1]):
            widths[c] = max(widths.get(c, 0), len(text) + 1)
    lines = [f"{key_text} = ["]
    for row in cells:
        parts = [(text + ",").ljust(widths[c]) if c < len(row) - 1 else text
                 for c, text in enumerate(row)]
        lines.append(f"{indent}  [" + " ".join(parts).rstrip() + "],")
    lines.append(f"{indent}]")
    return lines


# -- writing a document -------------------------------------------------------------------------

def _comment_lines(text: str) -> list[str]:
    """Comment text as valid TOML comment lines (``# ...``, no control characters)."""
    out = []
    for line in str(text).splitlines() or [""]:
        line = "".join(ch if ch == "\t" or (ord(ch) >= 0x20 and ord(ch) != 0x7F) else " "
                       for ch in line).rstrip()
        out.append(line if line.startswith("#") else ("# " + line).rstrip())
    return out


class _Writer:
    def __init__(self, comments: Comments | None):
        self.comments = comments or Comments()
        self.lines: list[str] = []

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def before(self, path: str, *, section: bool = False) -> None:
        above = self.comments.before.get(path)
        if section or (above and self.lines):
            self.blank()
        if above:
            for text in above:
                self.lines.extend(_comment_lines(text))

    def trail(self, path: str, line: str) -> str:
        note = self.comments.trailing.get(path)
        return f"{line}  {' '.join(_comment_lines(note))}" if note else line

    def table_body(self, table: Mapping, path: str, parts: tuple[str, ...]) -> None:
        """The keys of one table: simple values, then [sections], then [[arrays]].

        ``path`` is the dotted path for comments and messages; ``parts`` the real keys.
        """
        simple, sections, arrays = [], [], []
        for key, value in table.items():
            if not isinstance(key, str):
                raise TomlWriteError(f"{path or 'table'}: a key must be text, not {key!r}")
            sub = _join(path, key)
            if value is None:
                raise TomlWriteError(f"{sub}: TOML cannot hold an empty value (None)")
            if _as_array_of_tables(value, sub):
                arrays.append((key, value))
            elif _as_section(value, sub):
                sections.append((key, value))
            else:
                simple.append((key, value))
        for key, value in simple:
            sub = _join(path, key)
            self.before(sub)
            key_text = format_key(key)
            if isinstance(value, (list, tuple)):
                lines = _array_lines(key_text, list(value), sub, "")
                lines[0] = self.trail(sub, lines[0])
            elif isinstance(value, str):
                lines = f"{key_text} = {_string(value)}".split("\n")
                # After the closing quotes: a comment after an opening \"\"\" would be text.
                lines[-1] = self.trail(sub, lines[-1])
            else:
                lines = [self.trail(sub, f"{key_text} = {format_value(value, sub)}")]
            self.lines.extend(lines)
        for key, value in sections:
            sub = _join(path, key)
            header = ".".join(format_key(p) for p in (*parts, key))
            self.before(sub, section=True)
            self.lines.append(self.trail(sub, f"[{header}]"))
            self.table_body(value, sub, (*parts, key))
        for key, value in arrays:
            sub = _join(path, key)
            header = ".".join(format_key(p) for p in (*parts, key))
            for i, item in enumerate(value):
                self.before(sub if i == 0 else f"{sub}[{i}]", section=True)
                self.lines.append(self.trail(sub, f"[[{header}]]") if i == 0 else f"[[{header}]]")
                self.table_body(item, f"{sub}[{i}]", (*parts, key))


def dumps(data: Mapping, *, header: Iterable[str] | str | None = None,
          comments: Comments | None = None) -> str:
    """``data`` (a table) as TOML text that :mod:`tomllib` reads back equal to ``data``.

    ``header`` is written as comment lines at the top (used when ``comments``
    has no header of its own); ``comments`` (from :func:`extract_comments`)
    are put back beside the keys they belonged to.
    """
    if not isinstance(data, Mapping):
        raise TomlWriteError(f"a TOML document is a table, not {_describe(data)}")
    writer = _Writer(comments)
    head = [line for text in writer.comments.header for line in _comment_lines(text)]
    if not head and header:
        text = header if isinstance(header, str) else "\n".join(header)
        head = _comment_lines(text)
    writer.lines.extend(head)
    writer.table_body(data, "", ())
    while writer.lines and writer.lines[-1] == "":
        writer.lines.pop()
    return "\n".join(writer.lines) + "\n"


# -- reading comments back ---------------------------------------------------------------------

_HEADER_RE = re.compile(r"^\s*(\[\[?)\s*(.+?)\s*(\]\]?)\s*(#.*)?$")


def extract_comments(text: str) -> Comments:
    """The comments of a TOML document, by the dotted path of the key they sit beside.

    Handles what hand-written ship files contain: comment blocks, table headers,
    ``key = value  # note`` lines, values spanning lines (arrays), and strings
    containing ``#``. Comments inside a multi-line value are not kept.
    """
    comments = Comments()
    pending: list[str] = []
    seen_statement = False
    table = ""
    scanner = _Scanner(text)
    for line, depth_at_start, comment in scanner.lines():
        stripped = line.strip()
        if depth_at_start:
            continue  # inside a multi-line value
        if not stripped:
            if not seen_statement and pending:
                comments.header.extend(pending)
                pending = []
            elif pending:
                pending = []  # a comment block separated by a blank line belongs to nothing
            continue
        if stripped.startswith("#"):
            pending.append(stripped)
            continue
        match = _HEADER_RE.match(stripped)
        if stripped.startswith("[") and match:
            path = _dotted(match.group(2))
            table = path
        else:
            key_text = _key_part(stripped)
            if key_text is None:
                pending = []
                continue
            key = _dotted(key_text)
            path = f"{table}.{key}" if table else key
        if not seen_statement and pending and not comments.header:
            # A comment block touching the first statement: the file's header.
            comments.header.extend(pending)
            pending = []
        seen_statement = True
        if pending:
            comments.before.setdefault(path, []).extend(pending)
            pending = []
        if comment:
            comments.trailing[path] = comment
    return comments


def _key_part(statement: str) -> str | None:
    """The key of ``key = value`` (quotes respected), or None."""
    i, n = 0, len(statement)
    while i < n:
        ch = statement[i]
        if ch in "\"'":
            end = _closing_quote(statement, i)
            if end < 0:
                return None
            i = end + 1
            continue
        if ch == "=":
            return statement[:i].strip()
        i += 1
    return None


def _dotted(key_text: str) -> str:
    """``a . "b.c"`` -> ``a.b.c`` (the path used to look comments up)."""
    parts, buf, i = [], "", 0
    while i < len(key_text):
        ch = key_text[i]
        if ch in "\"'":
            end = _closing_quote(key_text, i)
            end = len(key_text) if end < 0 else end
            buf += key_text[i + 1:end]
            i = end + 1
            continue
        if ch == ".":
            parts.append(buf.strip())
            buf = ""
        else:
            buf += ch
        i += 1
    parts.append(buf.strip())
    return ".".join(parts)


class _Scanner:
    """Walks a TOML text line by line, tracking strings and bracket depth."""

    def __init__(self, text: str):
        self.text = text

    def lines(self):
        """Yield (line, bracket depth at its start, its comment or '') for each line."""
        depth = 0
        string: str | None = None  # the open multi-line string's delimiter
        for line in self.text.splitlines():
            start_depth = depth if string is None else max(depth, 1)
            comment = ""
            i, n = 0, len(line)
            while i < n:
                if string is not None:
                    end = line.find(string, i)
                    while end > 0 and string == '"""' and _escaped(line, end):
                        end = line.find(string, end + 1)
                    if end < 0:
                        i = n
                        break
                    i = end + 3
                    while i < n and line[i] == string[0]:  # up to two extra quotes end the string
                        i += 1
                    string = None
                    continue
                ch = line[i]
                if ch == "#":
                    comment = line[i:].strip()
                    break
                if line.startswith('"""', i) or line.startswith("'''", i):
                    string = line[i:i + 3]
                    i += 3
                    continue
                if ch in "\"'":
                    end = _closing_quote(line, i)
                    i = n if end < 0 else end + 1
                    continue
                if ch in "[{":
                    depth += 1
                elif ch in "]}":
                    depth = max(0, depth - 1)
                i += 1
            # A table header's brackets open and close on its own line.
            yield line, start_depth, comment


def _closing_quote(text: str, start: int) -> int:
    """Where the one-line string opened by the quote at ``start`` closes, or -1.

    Basic strings (``"..."``) escape with backslashes; literal strings (``'...'``) do not.
    """
    quote = text[start]
    end = text.find(quote, start + 1)
    while quote == '"' and end > 0 and _escaped(text, end):
        end = text.find(quote, end + 1)
    return end


def _escaped(line: str, pos: int) -> bool:
    """Is the character at ``pos`` escaped by an odd number of backslashes?"""
    count = 0
    pos -= 1
    while pos >= 0 and line[pos] == "\\":
        count += 1
        pos -= 1
    return count % 2 == 1

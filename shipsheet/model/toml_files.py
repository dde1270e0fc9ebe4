"""TOML files people edit by hand (ship definitions, charts), written with tomlkit.

tomlkit keeps a file's comments and layout: :func:`read_document` gives the data and the
document, and :func:`to_text` writes new data *into* that document (:func:`merge`), so
every comment of a user's file — the header, above a key, at the end of a line, inside
``boxes = [...]`` — survives a save in the designer. A file made from scratch is laid out
like the bundled ones (:func:`new_document`): simple values first, then tables; a list of
tables one inline table per line; a chart's rows one per line.

No Qt here.
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import Any, Iterable, Mapping

import tomlkit
from tomlkit.items import AoT, Array, InlineTable, Item, Table

__all__ = ["TomlWriteError", "merge", "new_document", "parse", "to_text"]

#: A list printed on one line when its text is at most this long.
LINE_WIDTH = 100


class TomlWriteError(ValueError):
    """A value TOML cannot hold (None, an object), named by its key path."""


def parse(text: str) -> tomlkit.TOMLDocument:
    """The document of a TOML text (raises tomlkit's ParseError on bad TOML)."""
    return tomlkit.parse(text)


def _check(value: Any, path: str) -> None:
    if value is None:
        raise TomlWriteError(f"{path}: TOML cannot hold an empty value (None)")
    if isinstance(value, float) and not math.isfinite(value):
        return  # TOML has inf and nan
    if isinstance(value, (bool, int, float, str, _dt.date, _dt.time, _dt.datetime)):
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TomlWriteError(f"{path or 'table'}: a key must be text, not {key!r}")
            _check(item, f"{path}.{key}" if path else key)
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check(item, f"{path}[{i}]")
        return
    raise TomlWriteError(f"{path}: TOML cannot hold {type(value).__name__}")


def _inline(value: Any) -> Item:
    """A value as it goes inside an array or inline table (tables inline)."""
    if isinstance(value, Mapping):
        table = tomlkit.inline_table()
        if value:
            table.add(tomlkit.ws(" "))  # { id = "ph-1", kind = "phaser" }, as the bundled files
        for key, item in value.items():
            table.append(key, _inline(item))
        if value:
            table.add(tomlkit.ws(" "))
        return table
    if isinstance(value, (list, tuple)):
        array = tomlkit.array()
        for item in value:
            array.append(_inline(item))
        return array
    return tomlkit.item(value)


def _value(value: Any) -> Item:
    """A key's value as a file made from scratch writes it."""
    if isinstance(value, str) and "\n" in value and "\r" not in value:  # a reader may turn \r\n into \n
        return tomlkit.string(value, multiline=True)
    if isinstance(value, (list, tuple)):
        array = tomlkit.array()
        for item in value:
            array.append(_inline(item))
        if value and (any(isinstance(v, (Mapping, list, tuple)) for v in value)
                      or len(array.as_string()) > LINE_WIDTH):
            array.multiline(True)
        return array
    return _inline(value)


def _fill(container, data: Mapping, path: str) -> None:
    """Simple values first, then tables (TOML cannot put a key after a table header)."""
    for key, value in data.items():
        if not isinstance(value, Mapping) or not value:
            container.add(key, _value(value))
    for key, value in data.items():
        if isinstance(value, Mapping) and value:
            table = tomlkit.table()
            _fill(table, value, f"{path}.{key}" if path else key)
            container.add(key, table)


def new_document(data: Mapping, header: Iterable[str] | str | None = None) -> tomlkit.TOMLDocument:
    """A document for ``data``, laid out like the bundled files, with ``header`` comments."""
    _check(dict(data), "")
    doc = tomlkit.document()
    lines = [header] if isinstance(header, str) else list(header or [])
    for line in lines:
        doc.add(tomlkit.comment(_comment_text(line)))
    _fill(doc, data, "")
    return doc


def _comment_text(line: str) -> str:
    """One comment line: no line breaks or control characters, no leading '#'."""
    text = "".join(ch if ch == "\t" or (ord(ch) >= 0x20 and ord(ch) != 0x7F) else " " for ch in str(line))
    return text.lstrip("#").strip()


def _plain(item: Any) -> Any:
    return item.unwrap() if hasattr(item, "unwrap") else item


def merge(container, data: Mapping) -> None:
    """Write ``data`` into a document (or table) in place: what did not change keeps its
    layout and comments; a changed value is replaced where it stands; a list or table is
    merged item by item, so comments inside it stay beside the items they were beside."""
    for key in [k for k in container.keys() if k not in data]:
        del container[key]
    inline = isinstance(container, InlineTable)
    for key, value in data.items():
        if key in container and _merged_in_place(container[key], value):
            continue
        new = _inline(value) if inline else _table(value) if _is_table(value) else _value(value)
        if key in container:
            container[key] = new
        else:
            container.add(key, new)


def _is_table(value: Any) -> bool:
    return isinstance(value, Mapping) and bool(value)


def _merged_in_place(old: Any, value: Any) -> bool:
    """Merge ``value`` into ``old`` when they are the same kind of container, or find them
    equal; False when ``old`` must be replaced."""
    if isinstance(value, Mapping) and isinstance(old, (Table, InlineTable)) and (
            value or isinstance(old, InlineTable)):
        merge(old, value)
        return True
    # An empty table is written anew (``x = {}``): a [table] emptied in place — one that
    # only held other tables has no header of its own — would not be written at all.
    if isinstance(value, (list, tuple)) and isinstance(old, Array):
        _merge_array(old, list(value))
        return True
    if isinstance(value, (list, tuple)) and isinstance(old, AoT) and all(map(_is_table, value)):
        _merge_aot(old, list(value))
        return True
    plain = _plain(old)
    return type(plain) is type(value) and plain == value


def _table(value: Mapping) -> Table:
    table = tomlkit.table()
    _fill(table, value, "")
    return table


def _merge_array(array: Array, values: list) -> None:
    while len(array) > len(values):
        del array[len(array) - 1]
    for i, value in enumerate(values):
        if i >= len(array):
            array.append(_inline(value))
        elif not _merged_in_place(array[i], value):
            array[i] = _inline(value)


def _merge_aot(aot: AoT, values: list) -> None:
    while len(aot) > len(values):
        del aot[len(aot) - 1]
    for i, value in enumerate(values):
        if i < len(aot):
            merge(aot[i], value)
        else:
            aot.append(_table(value))


def to_text(data: Mapping, document: tomlkit.TOMLDocument | None = None,
            header: Iterable[str] | str | None = None) -> str:
    """``data`` as TOML text: merged into ``document`` (a copy; the file's comments and
    layout kept) when given, else a new document with ``header`` comments."""
    _check(dict(data), "")
    if document is None:
        return tomlkit.dumps(new_document(data, header))
    doc = tomlkit.parse(tomlkit.dumps(document))  # a copy: a failed save leaves the original
    merge(doc, data)
    return tomlkit.dumps(doc)

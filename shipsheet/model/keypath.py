"""Validation helpers that track the key path of the value being read.

Game modules use :class:`Node` to read ship definitions so that every error
names the file and the exact key path (``ca.toml: boxes[12].arc: ...``).
"""

from __future__ import annotations

from typing import Any, Iterator, NoReturn

from .errors import ShipDefinitionError

_MISSING = object()


def type_name(value: Any) -> str:
    """A value's type in words, for messages ("a whole number", "text", "a table")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


class Node:
    """A value inside a definition, with the file name and key path to report errors.

    The key path is spelled only when an error is reported (``path``): a child holds its
    parent and its key, so checking a file of 20,000 ships formats no path at all."""

    __slots__ = ("value", "source", "_error", "_parent", "_key", "_path")

    def __init__(self, value: Any, source: str = "", path: str = "", error=ShipDefinitionError,
                 _parent: "Node | None" = None, _key: str | int | None = None):
        self.value = value
        self.source = source
        self._error = error
        self._parent = _parent
        self._key = _key
        self._path: str | None = path

    @property
    def path(self) -> str:
        if self._path is None:
            parent, key = self._parent.path, self._key
            if isinstance(key, int):
                self._path = f"{parent}[{key}]"
            else:
                self._path = f"{parent}.{key}" if parent else key
        return self._path

    # -- reporting -----------------------------------------------------
    def fail(self, message: str) -> NoReturn:
        parts = [p for p in (self.source, self.path) if p]
        raise self._error(": ".join(parts + [message]))

    def child(self, key: str | int, value: Any) -> "Node":
        return Node(value, self.source, None, self._error, self, key)

    # -- tables --------------------------------------------------------
    def table(self) -> "Node":
        if not isinstance(self.value, dict):
            self.fail(f"expected a table, found {type_name(self.value)}")
        return self

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and key in self.value

    def get(self, key: str, default: Any = _MISSING) -> "Node":
        self.table()
        if key not in self.value:
            if default is _MISSING:
                self.child(key, None).fail("missing")
            return self.child(key, default)
        return self.child(key, self.value[key])

    def only_keys(self, *allowed: str) -> None:
        """Refuse keys not in ``allowed`` (catches typos such as ``bxoes``)."""
        self.table()
        for key in self.value:
            if key not in allowed:
                self.child(str(key), None).fail("unknown key")

    # -- scalars -------------------------------------------------------
    def str(self, *, choices: tuple[str, ...] | None = None, nonempty: bool = True,
            max_len: int = 200) -> str:
        if not isinstance(self.value, str):
            self.fail(f"expected text, found {type_name(self.value)}")
        text = self.value.strip()
        if nonempty and not text:
            self.fail("must not be empty")
        if len(text) > max_len:
            self.fail(f"too long ({len(text)} characters, at most {max_len})")
        if choices is not None and text not in choices:
            self.fail(f'unknown value "{text}" (expected one of: {", ".join(choices)})')
        return text

    def int(self, *, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            self.fail(f"expected a whole number, found {type_name(self.value)}")
        if lo is not None and self.value < lo:
            self.fail(f"{self.value} is too small (at least {lo})")
        if hi is not None and self.value > hi:
            self.fail(f"{self.value} is too large (at most {hi})")
        return self.value

    def bool(self) -> bool:
        if not isinstance(self.value, bool):
            self.fail(f"expected true or false, found {type_name(self.value)}")
        return self.value

    # -- lists ---------------------------------------------------------
    def list(self, *, min_len: int = 0, max_len: int | None = None) -> list["Node"]:
        if not isinstance(self.value, list):
            self.fail(f"expected a list, found {type_name(self.value)}")
        if len(self.value) < min_len:
            self.fail(f"expected at least {min_len} entries, found {len(self.value)}")
        if max_len is not None and len(self.value) > max_len:
            self.fail(f"expected at most {max_len} entries, found {len(self.value)}")
        return [self.child(i, v) for i, v in enumerate(self.value)]

    def items(self) -> Iterator[tuple[str, "Node"]]:
        self.table()
        for key, value in self.value.items():
            yield key, self.child(str(key), value)

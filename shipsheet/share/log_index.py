"""The log's lines by ship, kept up to date as the server's snapshots come.

Every look at the table sends the seat the last lines of its own ships' logs (PROTOCOL.md,
``LOG_LINES``). A player's seat with one ship at a table of fifty finds its lines among
two thousand of everyone's (a snapshot's ``LOG_TAIL``): read line by line, that walk was
most of a look's work on the server's loop. :class:`LogIndex` lists each ship's lines (and
the session's own) once, as they come — a change adds a line or two — so a seat's newest
lines are read from its ships' lists alone.

The log only grows at its end: a change that fails takes its own lines back from the end
(``model.session``), and a session loaded anew is another list. So the lines after the
last one indexed are the new ones; when the last one indexed is no longer where it was,
everything is indexed again from the snapshot's tail. Used on the server's loop only.
"""

from __future__ import annotations

import heapq
from typing import Iterable, Iterator

#: New lines looked for after the last indexed, at most; past that the tail is indexed
#: afresh (a change logs a few lines; an imported turn may log hundreds).
MAX_NEW = 512


class LogIndex:
    """The lines of one snapshot's log tail, numbered in order, listed by ship."""

    def __init__(self) -> None:
        self._tail: list | None = None  # the tail indexed (a snapshot's ``log``)
        self._entries: list = []  # every line indexed, oldest first: number base + i
        self._base = 0
        self._first = 0  # the number of the tail's first line
        self._ships: dict[str, list[int]] = {}
        self._session: list[int] = []  # the lines of no ship

    def update(self, tail: list) -> None:
        """Index ``tail`` (a snapshot's log: the live log's last lines, oldest first)."""
        if tail is self._tail:
            return
        self._tail = tail
        entries = self._entries
        if tail and entries:
            last = entries[-1]
            for k in range(len(tail) - 1, max(-1, len(tail) - 2 - MAX_NEW), -1):
                if tail[k] is last:
                    first = self._base + len(entries) - 1 - k  # the number of tail[0]
                    at = first - self._base
                    if 0 <= at < len(entries) and entries[at] is tail[0] \
                            and at <= len(tail):  # else: more dropped than kept: afresh
                        for entry in tail[k + 1:]:
                            self._add(entry)
                        self._first = first
                        return
                    break
        self._rebuild(tail)

    def _rebuild(self, tail: list) -> None:
        self._entries, self._ships, self._session = [], {}, []
        self._base = self._first = 0
        for entry in tail:
            self._add(entry)

    def _add(self, entry) -> None:
        number = self._base + len(self._entries)
        self._entries.append(entry)
        if entry.ship:
            self._ships.setdefault(entry.ship, []).append(number)
        else:
            self._session.append(number)

    def newest(self, ship_ids: Iterable[str]) -> Iterator:
        """The tail's lines of the ships ``ship_ids`` and of no ship, newest first."""
        lists = [self._ships.get(ship_id, ()) for ship_id in ship_ids]
        lists.append(self._session)
        entries, base, first = self._entries, self._base, self._first
        for number in heapq.merge(*(reversed(numbers) for numbers in lists), reverse=True):
            if number < first:
                return
            yield entries[number - base]


__all__ = ["LogIndex", "MAX_NEW"]

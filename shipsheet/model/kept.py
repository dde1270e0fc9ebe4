"""Tables of what was worked out once and is kept for the next time it is asked, bounded.

A drawing's texts, a phone's view's pieces, a pen's SVG attributes: each is kept in a
plain dict so the same question costs a lookup. None may grow without end (a table serves
for hours, a phone may send anything), so each has a limit; a table that reaches it is
emptied and fills again — what it held is worked out afresh when next asked, never
answered stale. Pure Python, no Qt.
"""

from __future__ import annotations

from typing import Any, Callable


def keep(table: dict, key: Any, value: Any, limit: int) -> Any:
    """``value`` kept in ``table`` under ``key`` (and returned); a table already holding
    ``limit`` other entries is emptied first."""
    if len(table) >= limit and key not in table:
        table.clear()
    table[key] = value
    return value


def by_identity(table: dict, obj: Any, make: Callable[[], Any], limit: int, *also: Any) -> Any:
    """``make()``'s answer for the object ``obj`` (and the values ``also``), kept in
    ``table`` by the object's identity: checked on a hit, since an id is reused once its
    object is gone (the table holds the object, so not while it is kept)."""
    key = (id(obj), *also) if also else id(obj)
    found = table.get(key)
    if found is not None and found[0] is obj:
        return found[1]
    return keep(table, key, (obj, make()), limit)[1]


__all__ = ["by_identity", "keep"]

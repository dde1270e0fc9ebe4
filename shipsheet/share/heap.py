"""Python's cycle collector while a table is served.

A full pass of the collector walks every object the process holds — the session, the
snapshots, the recording of each phone's sheet kept to draw it again — and holds the
interpreter's lock all the while: 6–30 ms at a table, in which the window's thread can do
nothing. Every gap of more than a frame left with twelve phones tapping fell in one
(``tests/share/table_gaps.py`` names what ran in each gap). So while a table is served:

- after each drawing the render thread sets what the process holds aside from the
  collector (``gc.freeze``: no work, the objects are only moved to a list it does not
  walk), so a pass walks what came since the last drawing, not everything;
- once the table has been quiet a moment (no change for ``QUIET_MS``), and at the latest
  at a change ``SETTLE_AT_LEAST_S`` after the table started or last settled, everything is
  handed back, collected and set aside again (:func:`settle`): the garbage cycles set
  aside meanwhile are freed then. That pass walks the whole process, start-up's objects
  too (30-50 ms): at a quiet moment nobody waits on it; a table that never rests pays it
  once in ten minutes. Objects freed by their reference count — nearly all — go at once,
  set aside or not.

The window's own use of the same mechanism (start-up, sessions dropped) is
``ui/collector.py``; both hand everything back before they collect.
"""

from __future__ import annotations

import gc
import time

#: A table this long without a change is quiet: the heap is settled then.
QUIET_MS = 2000
#: At the latest this long after the table started or last settled, a change settles it
#: (a table that never rests still frees its garbage cycles).
SETTLE_AT_LEAST_S = 600.0

_settled_at = time.monotonic()


def table_started() -> None:
    """A table starts: the time to the next settling counts from now."""
    global _settled_at
    _settled_at = time.monotonic()


def drawing_done() -> None:
    """After a drawing on the render thread: what exists now is set aside."""
    gc.freeze()


def settle() -> None:
    """Hand everything back to the collector, collect, and set what is left aside."""
    global _settled_at
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _settled_at = time.monotonic()


def overdue() -> bool:
    """Has the heap gone unsettled for ``SETTLE_AT_LEAST_S``?"""
    return time.monotonic() - _settled_at >= SETTLE_AT_LEAST_S

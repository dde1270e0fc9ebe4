"""How soon the interpreter's lock passes to a thread that waits for it, while a table is
served.

Python runs one thread at a time. A thread that wants the lock waits until the one holding
it has run ``sys.getswitchinterval()`` (5 ms by default) and lets go; with the server's
loop and its render thread both busy — phones fetching, sheets drawn — the window's
thread waited that long again and again inside one frame, and with fifty phones many of
its frames took 20-40 ms (``tests/share/table_gaps.py`` counts the gaps). While a table is
served the interval is 1 ms, so the window's thread, and the server's loop answering a
phone, wait at most that long for a turn; the threads switch a little more often, which
costs little next to the drawing. Put back as it was when the last table stops.
"""

from __future__ import annotations

import sys
import threading

#: The interval while a table is served (seconds).
TABLE_INTERVAL = 0.001

_lock = threading.Lock()
_tables = 0
_before: float | None = None


def table_started() -> None:
    global _tables, _before
    with _lock:
        if _tables == 0:
            _before = sys.getswitchinterval()
            sys.setswitchinterval(min(_before, TABLE_INTERVAL))
        _tables += 1


def table_stopped() -> None:
    global _tables, _before
    with _lock:
        if _tables == 0:
            return
        _tables -= 1
        if _tables == 0 and _before is not None:
            sys.setswitchinterval(_before)
            _before = None

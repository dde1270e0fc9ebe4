"""What the web server says in the terminal: one line per client address per minute.

aiohttp logs every HTTP message it cannot parse (a missing or doubled ``Host``, a 70 KB
header, bytes that are not HTTP) with a whole traceback: anyone on the network could fill
``shipsheet serve``'s terminal with them. The server gets this module's logger instead:
each record becomes one line (control characters escaped, cut to a line's length) and a
source says at most one such line a minute (``SOURCE_QUIET_SECONDS``); the rest are
counted and the count said with the next line that passes.
"""

from __future__ import annotations

import logging
import sys
import threading
import time

from ..model.text import terminal_safe

SOURCE_QUIET_SECONDS = 60.0
_LONGEST = 200  # characters of an exception's words in a line
_SOURCES_KEPT = 4096  # addresses remembered (the oldest are forgotten first)


class OncePerMinute(logging.Filter):
    """Lets one record a source (its client address, else its message) through per
    ``SOURCE_QUIET_SECONDS``, as a single line: the traceback becomes the exception's words."""

    def __init__(self, clock=time.monotonic):
        super().__init__()
        self._clock = clock
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        source = str(args[0]) if args else record.getMessage()
        now = self._clock()
        with self._lock:
            last = self._last.get(source)
            if last is not None and now - last < SOURCE_QUIET_SECONDS:
                self._held[source] = self._held.get(source, 0) + 1
                return False
            self._last.pop(source, None)
            self._last[source] = now
            while len(self._last) > _SOURCES_KEPT:
                self._last.pop(next(iter(self._last)))
            held = self._held.pop(source, 0)
        exc = record.exc_info[1] if record.exc_info else None
        words = f"{type(exc).__name__}: {' '.join(str(exc).split())}" if exc is not None else ""
        text = record.getMessage()
        if words:
            text += f" ({words[:_LONGEST]})"
        if held:
            text += f"; {held} more from there in the last minute, not shown"
        record.msg, record.args = "Table Link: " + terminal_safe(text), ()
        record.exc_info = record.exc_text = None
        record.stack_info = None
        return True


def table_logger() -> logging.Logger:
    """The web server's logger: to standard error, one line per source per minute."""
    logger = logging.getLogger("shipsheet.table_link")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.addFilter(OncePerMinute())
        logger.propagate = False
    return logger

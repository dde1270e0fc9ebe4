"""Limits on what one source may ask of the table, with memory that stays bounded.

- :class:`RateLimit`: a token bucket per key (a seat's requests, a source's pairings).
- :class:`Failures`: wrong secrets and wrong device tokens counted per real source (the
  client behind a trusted proxy: ``exposure.client_of``); a source past its allowance is
  refused until its failures age out.
- :class:`SeatLocks`: a seat's joining locked after a burst of wrong secrets from anywhere
  (20 in 10 minutes, as Triplanetary-VTT locks a table's code), until the referee opens it
  again or gives a new link.

Every table is bounded, and when one is full it forgets the keys that matter least — the
fullest buckets, the sources with the fewest failures, oldest first — never the ones under
way: an attacker cycling through many addresses cannot make the table forget a source that
is being refused now (the old table cleared itself at 10,000 addresses). Each key costs a
few small objects; the tables hold at most ``capacity`` keys.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Callable

#: Keys a table holds at most (a table has a few dozen phones; the rest is noise).
CAPACITY = 4096


class RateLimit:
    """A token bucket per key: ``rate`` a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float, capacity: int = CAPACITY,
                 clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.capacity = rate, burst, capacity
        self._clock = clock
        self._buckets: dict[Any, tuple[float, float]] = {}

    def allow(self, key: Any) -> bool:
        now = self._clock()
        tokens, last = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > self.capacity:
            self._forget(now)
        return True

    def _forget(self, now: float) -> None:
        """Full: forget the quarter of the keys with the fullest buckets (those asking
        least; a key forgotten starts again with a full bucket, which it nearly had)."""
        def fullness(item):
            tokens, last = item[1]
            return min(self.burst, tokens + (now - last) * self.rate)
        kept = sorted(self._buckets.items(), key=fullness)[:self.capacity * 3 // 4]
        self._buckets = dict(kept)

    def __len__(self) -> int:
        return len(self._buckets)


class Failures:
    """Failures (wrong secrets, wrong tokens) per source: more than ``allowed`` within
    ``window`` seconds and the source is refused until the oldest of them is ``window``
    old. Bounded at ``capacity`` sources: when full, those with the fewest failures in the
    window, oldest first, are forgotten — a source being refused is never among them while
    fewer sources are refused than the table holds."""

    def __init__(self, allowed: int, window: float, capacity: int = CAPACITY,
                 clock: Callable[[], float] = time.monotonic):
        self.allowed, self.window, self.capacity = allowed, window, capacity
        self._clock = clock
        self._seen: dict[Any, deque] = {}

    def _recent(self, source: Any, now: float) -> deque | None:
        times = self._seen.get(source)
        if times is not None:
            while times and times[0] <= now - self.window:
                times.popleft()
        return times

    def refused(self, source: Any) -> bool:
        """Whether ``source`` is refused now (more than ``allowed`` failures in the window)."""
        times = self._recent(source, self._clock())
        return times is not None and len(times) > self.allowed

    def fail(self, source: Any) -> bool:
        """Count a failure of ``source``; whether it is refused from now on."""
        now = self._clock()
        times = self._recent(source, now)
        if times is None:
            times = self._seen[source] = deque(maxlen=self.allowed + 1)
            if len(self._seen) > self.capacity:
                self._forget(now)
        times.append(now)
        return len(times) > self.allowed

    def _forget(self, now: float) -> None:
        for times in self._seen.values():
            while times and times[0] <= now - self.window:
                times.popleft()
        ranked = sorted(self._seen.items(), key=lambda item: (len(item[1]),
                                                              item[1][-1] if item[1] else 0))
        self._seen = dict(ranked[len(ranked) - self.capacity * 3 // 4:])

    def __len__(self) -> int:
        return len(self._seen)


class SeatLocks:
    """A seat's joining, locked after ``allowed`` wrong secrets for it within ``window``
    seconds, from any source (a lock by seat cannot be dodged by changing addresses). The
    lock holds until :meth:`open` (the referee's Open Joining, or a New Link); devices
    already paired are not touched."""

    def __init__(self, allowed: int = 20, window: float = 600.0,
                 clock: Callable[[], float] = time.monotonic):
        self.allowed, self.window = allowed, window
        self._clock = clock
        self._wrong: dict[str, deque] = {}
        self._locked: dict[str, str] = {}  # seat id -> the last source that tried

    def locked(self, seat_id: str) -> bool:
        return seat_id in self._locked

    def wrong(self, seat_id: str, source: str) -> bool:
        """Count a wrong secret for ``seat_id`` from ``source``; True when this one locked
        the seat (it was open before)."""
        if seat_id in self._locked:
            self._locked[seat_id] = source
            return False
        now = self._clock()
        times = self._wrong.setdefault(seat_id, deque(maxlen=self.allowed))
        times.append(now)
        if len(times) >= self.allowed and times[0] > now - self.window:
            self._locked[seat_id] = source
            times.clear()
            return True
        return False

    def open(self, seat_id: str) -> bool:
        """Let the seat take new devices again; whether it was locked."""
        self._wrong.pop(seat_id, None)
        return self._locked.pop(seat_id, None) is not None

    def last_source(self, seat_id: str) -> str:
        return self._locked.get(seat_id, "")


__all__ = ["CAPACITY", "Failures", "RateLimit", "SeatLocks"]

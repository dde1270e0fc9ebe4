"""Calls that must return at all, with no clock in the verdict (``make test`` asserts no
timing: a slow machine never fails a test; ``make bench`` times what has a speed promise).

A reader that waits on a pipe for a writer, or reads a device without end, never returns:
:func:`returns` runs the call on a helper thread and fails the test if it has not
returned after a generous wait, instead of hanging the suite."""

from __future__ import annotations

import threading
import tracemalloc

#: Seconds. Far beyond what any machine takes to refuse a file: only a hang waits this long.
GENEROUS = 60.0


def returns(fn, timeout: float = GENEROUS):
    """``fn()``'s value, or its exception raised here; fails if it is still running after
    ``timeout`` seconds (the call is left behind, blocked, on a daemon thread)."""
    outcome: list = []

    def run():
        try:
            outcome.append((True, fn()))
        except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name="returns", daemon=True)
    thread.start()
    thread.join(timeout)
    assert outcome, f"still running after {timeout:.0f} s: it waits (a pipe?) or reads without end"
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


def within_memory(fn, limit: int):
    """``fn()``, failing if Python held more than ``limit`` bytes at once while it ran
    (tracemalloc: a file read whole shows as its size), also when ``fn`` raises."""
    tracemalloc.start()
    try:
        return fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < limit, f"held {peak / 2**20:.1f} MB while it ran: it read the file"

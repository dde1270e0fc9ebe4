"""What the benchmarks time a call with."""

from __future__ import annotations

import time


def best(fn, runs: int) -> float:
    """The fastest of ``runs`` calls of ``fn``, in seconds (the machine's quietest moment)."""
    fastest = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest

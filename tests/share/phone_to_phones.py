"""One phone taps; the others see it: from a phone sending its tap to every other phone
having the ship's new revision (each shows its own ship: the page draws the ship shown),
through the referee's app. The phones run in a process of their own
(``phones_process.py``: they are other devices, and in this process their clients would
take the interpreter's lock from the server being measured); the referee's app is this
process, its Qt loop the authority. ``latency.measure`` times the window's own path.

Shared by the benchmark (``tests/benchmarks/test_table_link_speed.py``) and its small
version in ``make test`` (``tests/share/test_table_load.py``)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

from shipsheet.share import SeatBook, TableLink
from shipsheet.share.authority import QtAuthority
from shipsheet.share.seats import PLAYER

from .latency import spin
from .table_gaps import PHONES, _ask
from .table_load import table_session


def measure_phone_to_phones(phones: int, seconds: float, tap_rate: float, seed: int = 11) -> dict:
    """``phones`` phones, each a seat that sees and marks every ship of the session (one
    ship per phone), each tapping about ``tap_rate`` times a second for ``seconds``.
    Returns the latencies (s) from each accepted tap's sending to each other phone having
    the revision it made, and how many of those never arrived."""
    session = table_session("fedcom", phones)
    book = SeatBook(session.uid)
    seats = [book.add(f"Phone {i + 1}", PLAYER, sides=tuple(session.sides),
                      rights=("view", "decide", "mark")) for i in range(phones)]
    link = TableLink(session, book, QtAuthority(), session.apply, session.undo)
    link.start(["127.0.0.1"], 0)
    proc = subprocess.Popen([sys.executable, str(PHONES)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Each phone shows its own ship (its tab), and taps it; the others have the new
        # revision in their views (page.js fetches the drawing of the ship shown only).
        config = {"links": [link.url(seat) for seat in seats], "tap_rate": tap_rate, "seed": seed,
                  "shown": [ship.id for ship in session.ships[:phones]]}
        assert _ask(proc, json.dumps(config), 120) == "ready"
        assert spin(lambda: all(p.connected for p in link.presence().values()), 20)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        spin(lambda: False, seconds)
        # The taps stop, then their last sheets reach the others: waited for, not slept on.
        assert _ask(proc, "halt", 90) == "halted"
        assert _ask(proc, "settle " + json.dumps(dict(link.host.revs)), 90) == "settled"
        seen = json.loads(_ask(proc, "stop", 60))
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        link.stop()
    arrived = [{(s, r): t for s, r, t in phone["arrived"]} for phone in seen]
    latencies, missing = [], 0
    for who, phone in enumerate(seen):
        for ship, rev, sent in phone["made"]:
            for other in range(len(seen)):
                if other == who:
                    continue
                got = arrived[other].get((ship, rev))
                if got is None:
                    # A later revision of the ship got there first: the phone skipped this
                    # one (it looks once per change it is told of), it did not miss it.
                    later = [t for (s, r), t in arrived[other].items() if s == ship and r > rev]
                    if later:
                        latencies.append(min(later) - sent)
                    else:
                        missing += 1
                else:
                    latencies.append(got - sent)
    latencies.sort()
    return {"taps": sum(len(p["made"]) for p in seen), "sent": sum(p["sent"] for p in seen),
            "stale": sum(p["stale"] for p in seen), "missing": missing, "latencies": latencies,
            "p95": latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("inf"),
            "median": statistics.median(latencies) if latencies else float("inf")}

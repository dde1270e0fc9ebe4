"""Phones tapping while the referee clicks, as the window's UI thread feels it.

The authority's thread runs Qt's own event loop (``QEventLoop.exec``), as the window
does: a precise 1 ms timer notes each turn of the loop, so a gap between two notes is
how long the thread was held (by a phone's request, a snapshot, the referee's change);
the referee's clicks come from a timer on the same loop. Phones are aiohttp clients in a
process of their own (``phones_process.py``: in this one they would take the
interpreter's lock from the thread measured): each stays live on its WebSocket and taps
its own ship a few times a second. Shared by the benchmark (``tests/benchmarks/test_table_link_speed.py``).
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, Qt, QTimer

from shipsheet.model.boxes import box_answer
from shipsheet.sheets import painter_for

from .latency import spin
from shipsheet.share.seats import MAX_SEATS

from .table_load import StallMeter, share_one_ship_per_phone, table_session

#: A turn of the loop longer than this is a frame the window could not draw (60 Hz).
FRAME = 0.016
PHONES = Path(__file__).with_name("phones_process.py")


def _box_keys(session, ship) -> list[str]:
    """The keys of ``ship``'s boxes a click changes, laid out once (the referee's aim, not
    timed). None for a ship destroyed (the sample has one)."""
    painter = painter_for(ship, session)
    painter.layout()
    keys = [a.key for a in painter.areas if a.key.startswith("box:") and a.click is not None
            and not a.refusal]
    painter.release()
    return keys


def _ask(proc: subprocess.Popen, line: str | None, timeout: float) -> str:
    """Send ``line`` to the phones' process (if any) and read its answer, while Qt's loop
    runs (the server's work reaches this thread through it)."""
    if line is not None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
    answer: list[str] = []
    reader = threading.Thread(target=lambda: answer.append(proc.stdout.readline()), daemon=True)
    reader.start()
    assert spin(lambda: not reader.is_alive(), timeout), "the phones did not answer"
    if not (answer and answer[0]):
        err = proc.stderr.read() if proc.poll() is not None else "no answer"
        raise AssertionError(err[err.find("Traceback"):][:3000])
    return answer[0].strip()


def measure_gaps(phones: int, seconds: float = 10.0, tap_rate: float = 2.0,
                 referee_rate: float = 10.0, seed: int = 5) -> dict:
    """``phones`` phones (in a process of their own), one ship each (past a table's
    ``MAX_SEATS`` seats, a seat's second phone shares its ship), tapping ``tap_rate``
    times a second while the referee changes the phones' ships ``referee_rate`` times a
    second for ``seconds``.

    Returns the loop's gaps (s) over a frame and the worst, how long each phone request
    held the thread (``held``: applying it), the referee's changes planned and made, and
    from each change to its phone having the new sheet (``latencies``)."""
    ships = min(phones, MAX_SEATS)  # past a table's seats, seats take a second phone
    session = table_session("fedcom", ships)
    link, seats = share_one_ship_per_phone(session, ships)
    from shipsheet.share import server as server_module
    drawing = server_module.render_sheet

    def render_sheet(*args, **kwargs):  # the render thread's sheets, to read the gaps by
        start = time.perf_counter()
        try:
            return drawing(*args, **kwargs)
        finally:
            meter.spans.append((start, time.perf_counter() - start, "render (render thread)"))
    meter = StallMeter(link)
    rng = random.Random(seed)
    keys = {ship.id: _box_keys(session, ship) for ship in session.ships}
    aims = [i for i, ship in enumerate(session.ships) if keys[ship.id]]
    changes: list = []
    ticks: list[float] = []
    proc = subprocess.Popen([sys.executable, str(PHONES)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    turns = [0]

    planned = round(seconds * referee_rate)

    def referee_change():
        if turns[0] >= planned:
            loop.quit()
            return
        n = aims[turns[0] % len(aims)]
        turns[0] += 1
        ship = session.ships[n]
        start = time.perf_counter()
        for key in rng.sample(keys[ship.id], len(keys[ship.id])):
            answer = box_answer(session, ship, key)
            if answer is not None and answer.click is not None and not answer.refusal:
                session.apply(answer.click())
                meter.spans.append((start, time.perf_counter() - start, "referee"))
                changes.append((n, ship.id, link.host.revs[ship.id], start))
                return

    try:
        config = {"links": [link.url(seats[i % ships]) for i in range(phones)],
                  "tap_rate": tap_rate, "seed": seed}
        assert _ask(proc, json.dumps(config), 120) == "ready"
        assert spin(lambda: all(p.connected for p in link.presence().values()), 20)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        meter.samples.clear()
        meter.requests.clear()
        meter.spans.clear()
        # As the app after start-up (ui.collector): what exists now is frozen out of the
        # collector's reach, so a full pass scans what the table makes from here on.
        gc.collect()
        gc.freeze()
        gc_started: list[float] = []

        def collecting(phase, info):  # the collector's passes, to read the gaps by
            if phase == "start":
                gc_started.append(time.perf_counter())
            elif gc_started:
                began = gc_started.pop()
                meter.spans.append((began, time.perf_counter() - began,
                                    f"gc gen {info['generation']} ({threading.current_thread().name})"))
        gc.callbacks.append(collecting)
        loop = QEventLoop()
        probe = QTimer(timerType=Qt.TimerType.PreciseTimer, interval=1)
        probe.timeout.connect(lambda: ticks.append(time.perf_counter()))
        referee = QTimer(timerType=Qt.TimerType.PreciseTimer, interval=round(1000 / referee_rate))
        referee.timeout.connect(referee_change)
        # Until the referee made every change planned (a thread held too long makes the
        # timer's turns late: fewer changes in the time), or three times the time.
        QTimer.singleShot(round(seconds * 3000), loop.quit)
        server_module.render_sheet = render_sheet
        probe.start()
        referee.start()
        ticks.append(time.perf_counter())
        loop.exec()
        probe.stop()
        referee.stop()
        gc.callbacks.remove(collecting)
        server_module.render_sheet = drawing
        gc.unfreeze()
        spin(lambda: False, 2.0)  # the last changes reach the phones
        seen = json.loads(_ask(proc, "stop", 60))
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        link.stop()
    arrived = [{(s, r): t for s, r, t in phone["arrived"]} for phone in seen]
    gaps = sorted(b - a for a, b in zip(ticks, ticks[1:]))
    held = sorted(meter.requests)
    # Each change, to every phone of its ship's seat.
    reached = [(arrived[p].get((s, r)), t0) for i, s, r, t0 in changes
               for p in range(i, phones, ships)]
    latencies = sorted(t - t0 for t, t0 in reached if t is not None)
    return {
        "gaps_over_frame": [g for g in gaps if g > FRAME], "worst_gap": gaps[-1] if gaps else 0.0,
        "gap_causes": _causes(ticks, meter.spans),
        "held": held, "held_p95": _p95(held),
        "planned": planned, "fired": turns[0], "made": len(changes),
        "latencies": latencies, "p95": _p95(latencies),
        "median": statistics.median(latencies) if latencies else float("inf"),
        "missing": len(reached) - len(latencies),
        "ticks": len(ticks), "span": ticks[-1] - ticks[0] if ticks else 0.0,
        "taps": sum(p["sent"] for p in seen), "accepted": sum(p["accepted"] for p in seen),
    }


def _p95(values: list[float]) -> float:
    return values[int(0.95 * (len(values) - 1))] if values else float("inf")


def _causes(ticks: list[float], spans) -> list[tuple[float, str]]:
    """Each gap over a frame, with what ran on the thread in it (or "nothing seen": the
    thread was waiting — for the interpreter's lock, or the machine)."""
    found = []
    for a, b in zip(ticks, ticks[1:]):
        if b - a > FRAME:
            inside = [f"{what} {took * 1000:.1f} ms" for start, took, what in spans
                      if start < b and start + took > a]
            found.append((b - a, ", ".join(inside) or "nothing seen"))
    return found

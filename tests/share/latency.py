"""The referee clicks; twelve phones watch: how long until each phone has the new sheet.

Shared by the benchmark (``tests/benchmarks/test_table_link_speed.py``) and its small
version in ``make test`` (``tests/share/test_table_load.py``)."""

from __future__ import annotations

import asyncio
import random
import statistics
import time

import aiohttp
from PySide6.QtCore import QCoreApplication, QEventLoop

from shipsheet.sheets import painter_for

from .table_load import PhoneClient, PhoneThread, StallMeter, share_one_ship_per_phone, table_session


def spin(until, timeout: float) -> bool:
    """Run Qt's loop until ``until()`` or ``timeout`` seconds."""
    deadline = time.perf_counter() + timeout
    while not until():
        if time.perf_counter() > deadline:
            return False
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        time.sleep(0.001)
    return True


def referee_click(session, ship, rng: random.Random) -> bool:
    """Mark a random box the referee may mark on ``ship`` (as a click in the window)."""
    painter = painter_for(ship, session)
    painter.layout()
    areas = [a for a in painter.areas if a.click is not None and not a.refusal
             and a.key.startswith("box:")]
    painter.release()
    if not areas:
        return False
    session.apply(rng.choice(areas).click())
    return True


def measure(phones: int, seconds: float, rate: float, seed: int = 7, count: int | None = None) -> dict:
    """``phones`` phones, one ship each; the referee changes a ship ``rate`` times a second
    for ``seconds``, or, given ``count``, that many times at that rate however long it takes
    (``make test``: a slow machine makes no fewer changes). Returns latencies (s) from the
    change to the phone having its sheet, the worst stall of the authority's thread by the
    server, and the sheet sizes."""
    session = table_session("fedcom", phones)
    link, seats = share_one_ship_per_phone(session, phones)
    meter = StallMeter(link)
    loop = PhoneThread()
    clients = [PhoneClient(link.url(seat)) for seat in seats]
    stop = asyncio.Event()
    sessions: list[aiohttp.ClientSession] = []

    async def start():
        for client in clients:
            http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # cookies of an IP address
            sessions.append(http)
            await client.pair(http)
        return [asyncio.ensure_future(c.live(h, stop)) for c, h in zip(clients, sessions)]

    async def finish(tasks):
        stop.set()
        for http in sessions:
            await http.close()
        for task in tasks:
            task.cancel()
    rng = random.Random(seed)
    try:
        started = loop.run(start())
        assert spin(started.done, 30), "phones did not pair"
        tasks = started.result()
        assert spin(lambda: all(p.connected for p in link.presence().values()), 10)
        changes = []
        period = 1.0 / rate
        next_at = time.perf_counter()
        end = next_at + seconds
        n = 0
        while (n < count) if count is not None else (time.perf_counter() < end):
            spin(lambda: time.perf_counter() >= next_at, period * 2)
            ship = session.ships[n % phones]
            t0 = time.perf_counter()
            if referee_click(session, ship, rng):
                changes.append((clients[n % phones], ship.id, link.host.revs[ship.id], t0))
            n += 1
            next_at += period
        spin(lambda: all((s, r) in c.arrived for c, s, r, _ in changes), 10)
        latencies = [c.arrived[(s, r)] - t0 for c, s, r, t0 in changes if (s, r) in c.arrived]
        missing = len(changes) - len(latencies)
        drawn = link.server._rendered
        sizes = [len(drawn[(s.id, False)][1].result().svg_gzip) for s in session.ships[:phones]
                 if (s.id, False) in drawn and drawn[(s.id, False)][1].done()]
        done = loop.run(finish(tasks))
        spin(done.done, 5)
    finally:
        loop.close()
        link.stop()
    latencies.sort()
    return {"changes": len(changes), "missing": missing, "latencies": latencies,
            "p95": latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("inf"),
            "median": statistics.median(latencies) if latencies else float("inf"),
            "stall": meter.worst, "sizes": sizes}


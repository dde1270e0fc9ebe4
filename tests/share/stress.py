"""Twelve phones sending hundreds of requests on their own ships while the referee clicks
and undoes: the share accepted, that each was applied once, and that replaying the
recorded actions on the starting session gives the final session.

Shared by the benchmark and its small version in ``make test``."""

from __future__ import annotations

import asyncio
import json
import random

import aiohttp

from shipsheet.model.storage import parse_session_bytes, session_to_bytes, session_to_data
from shipsheet.share.host import FromSeat

from .latency import referee_click, spin
from .table_load import PhoneClient, PhoneThread, phone_requests, share_one_ship_per_phone, table_session


def _ships(session) -> str:
    data = session_to_data(session, with_log=False)
    return json.dumps(data["ships"], sort_keys=True)


def run(phones: int, requests: int, referee_rate: float = 10.0, seed: int = 11) -> dict:
    session = table_session("fedcom", phones + 3)  # three ships are the referee's alone
    start = session_to_bytes(session)
    link, seats = share_one_ship_per_phone(session, phones)
    loop = PhoneThread()
    clients = [PhoneClient(link.url(seat)) for seat in seats]
    rng = random.Random(seed)
    referee_ships = session.ships[phones:]

    async def go():
        async def one(i, client):
            jar = aiohttp.CookieJar(unsafe=True)
            http = aiohttp.ClientSession(cookie_jar=jar)
            opened = [http]

            async def new_http(old):  # a dropped connection: a new one, same cookies
                fresh = aiohttp.ClientSession(cookie_jar=jar)
                opened.append(fresh)
                return fresh
            try:
                await client.pair(http)
                await phone_requests(client, http, requests, random.Random(seed * 100 + i),
                                     retry_rate=0.05, reconnect_rate=0.02, new_http=new_http)
            finally:
                for h in opened:
                    await h.close()
        await asyncio.gather(*(one(i, c) for i, c in enumerate(clients)))

    referee_steps = undos = 0
    try:
        done = loop.run(go())
        period = 1.0 / referee_rate
        import time
        next_at = time.perf_counter()
        while not done.done():
            spin(lambda: done.done() or time.perf_counter() >= next_at, period * 2)
            next_at += period
            if done.done():
                break
            top = session._undo[-1].action if session._undo else None
            if rng.random() < 0.25 and top is not None and not isinstance(top, FromSeat):
                session.undo()  # the referee takes back a click of their own
                undos += 1
            elif referee_click(session, rng.choice(referee_ships), rng):
                referee_steps += 1
        done.result()
    finally:
        loop.close()
        link.stop()
    accepted = sum(len(c.accepted) for c in clients)
    sent = sum(c.sent for c in clients)
    applied = {}
    for change in session._undo:
        if isinstance(change.action, FromSeat):
            applied[change.action.seat_id] = applied.get(change.action.seat_id, 0) + 1
    once = all(applied.get(seat.id, 0) == len(client.accepted) for seat, client in zip(seats, clients))
    replay = parse_session_bytes(start)
    for change in session._undo:
        replay.apply(change.action)
    return {"sent": sent, "accepted": accepted, "share": accepted / max(1, sent),
            "stale": sum(c.stale for c in clients),
            "refused": [r for c in clients for r in c.refused][:5],
            "applied_once": once, "replay_matches": _ships(replay) == _ships(session),
            "referee_steps": referee_steps, "undos": undos}

"""Phones in a process of their own, for measuring the window's thread as it is.

Phones are other devices: run in the host's process, their clients would take the
interpreter's lock from the thread being measured. This script pairs a phone with each
link it is given, keeps each live on its WebSocket, taps its own ship ``tap_rate`` times
a second once told to start, and when told to stop prints what it saw as JSON: when each
revision of each ship arrived (``time.perf_counter``: on Linux, macOS and Windows the
same clock as the host's, system-wide and monotonic) and the taps sent and accepted.

The protocol on stdin/stdout, a line each: the config (JSON: ``links``, ``tap_rate``,
``seed``) in; ``ready`` out once every phone is live; ``go`` in; ``stop`` in; the result
(JSON) out.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from share.table_load import PAGE_CONNECTIONS, PhoneClient, pair_patiently, random_tap  # noqa: E402


#: Set by "halt": the phones tap no more (their live connections go on).
halt = asyncio.Event()


async def _tapping(client: PhoneClient, http, rate: float, rng: random.Random,
                   stop: asyncio.Event) -> None:
    """Tap a box of the phone's own ship about ``rate`` times a second until ``stop``."""
    while not stop.is_set() and not halt.is_set():
        await asyncio.sleep(rng.uniform(0.5, 1.5) / rate)
        choice = random_tap(client.state, rng) if client.state else None
        if choice is None or stop.is_set():
            continue
        body = client.tap_body(*choice)
        client.sent += 1
        sent = time.perf_counter()
        try:
            status, answer = await client.act(http, body)
        except aiohttp.ClientError:
            continue
        client.note(body, status, answer)
        if answer.get("ok") and isinstance(answer.get("state"), dict):
            # The revision the tap made, and when it was sent: how long the others take to
            # have it is the path from one phone through the referee's app to the others.
            made = [s["rev"] for s in answer["state"]["ships"] if s["id"] == body["ship"]]
            client.made.extend([body["ship"], rev, sent] for rev in made[:1])
        if answer.get("state"):
            try:
                await client.refresh(http, answer["state"])
            except aiohttp.ClientError:
                continue


async def _line() -> str:
    return (await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)).strip()


async def main() -> None:
    config = json.loads(await _line())
    # "shown": the ship each phone's tab shows (else the page's choice: its seat's own first).
    shown = config.get("shown") or [None] * len(config["links"])
    clients = [PhoneClient(url, shown=ship) for url, ship in zip(config["links"], shown)]
    for client in clients:
        client.made = []  # [ship, revision, sent at] of each tap accepted
    stop = asyncio.Event()
    opened = []
    for client in clients:
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),  # an IP's cookies
                                     connector=aiohttp.TCPConnector(limit_per_host=PAGE_CONNECTIONS))
        opened.append(http)
        await pair_patiently(client, http)
    live = [asyncio.ensure_future(c.live(h, stop)) for c, h in zip(clients, opened)]
    print("ready", flush=True)
    assert await _line() == "go"
    taps = [asyncio.ensure_future(_tapping(c, h, config["tap_rate"],
                                           random.Random(config["seed"] * 31 + i), stop))
            for i, (c, h) in enumerate(zip(clients, opened))]
    while True:
        line = await _line()
        if line == "stop":
            break
        if line == "halt":  # no more taps: the ones in flight are answered first
            halt.set()
            await asyncio.gather(*taps, return_exceptions=True)
            print("halted", flush=True)
            continue
        # "settle {ship: revision}": answered "settled" once every phone has every ship at
        # that revision or a later one (or after 60 s): the host's last changes have
        # reached them, however loaded the machine.
        assert line.startswith("settle "), line
        revs = json.loads(line.removeprefix("settle "))
        for _ in range(6000):
            if all(any(s == ship and r >= rev for s, r in c.arrived) for c in clients
                   for ship, rev in revs.items() if any(s == ship for s, _r in c.arrived)):
                break
            await asyncio.sleep(0.01)
        print("settled", flush=True)
    stop.set()
    for task in live + taps:
        task.cancel()
    await asyncio.gather(*live, *taps, return_exceptions=True)
    for http in opened:
        await http.close()
    print(json.dumps([{"arrived": [[s, r, t] for (s, r), t in c.arrived.items()],
                       "sent": c.sent, "accepted": len(c.accepted), "stale": c.stale,
                       "made": c.made}
                      for c in clients]), flush=True)


if __name__ == "__main__":
    asyncio.run(main())

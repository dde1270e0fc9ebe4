"""``shipsheet serve`` under load, as a real process on loopback: phones tap their own ships
at a steady rate while staying live; how soon every *other* phone that sees the ship (the
referee's seat, a spectator's, a seat-mate's) has its new revision.

For the benchmark (``tests/benchmarks/test_serve_speed.py``). The phones are the Table
Link tests' (``table_load.PhoneClient``, ``random_tap``) on one asyncio loop in the test's
process; the host is ``python -m shipsheet serve`` in its own process, with its own Qt
loop, exactly as at a table. Every figure is timed with ``time.perf_counter`` in the
test's process (one clock: the host is only ever timed from outside).
"""

from __future__ import annotations

import asyncio
import json
import socket
import ssl
import math
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import aiohttp.abc
from aiohttp import WSMsgType

from shipsheet.model.storage import save_session
from shipsheet.share.seats import MAX_SEATS

from .serve_process import stop_serve as stop
from .table_load import (LOOPBACK_RANGE, PAGE_CONNECTIONS, PhoneClient, pair_patiently, random_tap,
                         table_session)

#: The seats the watchers take: the referee's (sees every ship as its owner does) and a
#: spectator's (every ship, as the public sees it).
WATCHERS = ("Referee", "Table")
#: The sample's Lance is shot to pieces: nothing on it is a player's to tap.
NOTHING_TO_TAP = ("Lance",)
#: A tap still waiting its turn this long after the taps' time is over is not made (a host
#: too slow to answer makes fewer changes, and the bench still ends in time).
LATE = 2.0
_LINK = re.compile(r"^(.+?) \((player|spectator|referee)\): (https?://\S+)$")
#: The public name the phones reach the table at through the TLS proxy (resolved to the
#: loopback by the phones' own resolver, as the browser test's Chromium does).
PUBLIC_NAME = "table.test"


class LoopbackResolver(aiohttp.abc.AbstractResolver):
    """Every name is 127.0.0.1 (the phones of the proxy bench reach table.test there)."""

    async def resolve(self, host, port=0, family=socket.AF_INET):
        return [{"hostname": host, "host": "127.0.0.1", "port": port, "family": socket.AF_INET,
                 "proto": 0, "flags": socket.AI_NUMERICHOST}]

    async def close(self):
        pass


class LivePhone(PhoneClient):
    """A phone that stays live as the page does (``page.js``, ``refreshState``): one look
    at a time, and "changed" while it looks asks for one more look after it, however many
    came (``PhoneClient.live`` looks once for every message: behind a busy table it falls
    further behind with every change, which no browser does)."""

    async def live(self, http: aiohttp.ClientSession, stop: asyncio.Event) -> None:
        url = self.base.replace("http", "ws") + self.path + "api/ws"
        wake = asyncio.Event()

        async def looking() -> None:
            while not stop.is_set():
                await wake.wait()
                wake.clear()
                try:
                    await self.refresh(http)
                except aiohttp.ClientError:
                    wake.set()
                    await asyncio.sleep(0.05)
        looker = asyncio.ensure_future(looking())
        try:
            while not stop.is_set():
                try:
                    async with http.ws_connect(url, headers=self.headers) as ws:
                        async for msg in ws:
                            if msg.type != WSMsgType.TEXT:
                                break
                            if json.loads(msg.data).get("type") == "changed":
                                wake.set()
                            if stop.is_set():
                                break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.05)
        finally:
            looker.cancel()


def seat_plan(phones: int) -> list[tuple[str, list[int]]]:
    """The player seats, as (name, phone indexes): phone ``i`` taps ship ``i``. One phone a
    seat while the table has room for it (``MAX_SEATS``, less the watchers' two); past that,
    as few phones share a seat as will fit (each still tapping a ship of its own)."""
    per_seat = math.ceil(phones / (MAX_SEATS - len(WATCHERS)))
    count = math.ceil(phones / per_seat)
    return [(f"P{n + 1:02d}", list(range(n, phones, count))) for n in range(count)]


def start_serve(path: Path, seat_args: list[str], log: Path) -> tuple[subprocess.Popen, dict[str, str]]:
    """``python -m shipsheet serve`` on 127.0.0.1, any free port; its links by seat name
    (and, for the proxy's sake, ``links["port"]``: the port it listens on)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    proc = subprocess.Popen([sys.executable, "-m", "shipsheet", "serve", str(path), *seat_args,
                             "--bind", "127.0.0.1", "--port", "0", "--no-qr"],
                            stdout=subprocess.PIPE, stderr=log.open("w"), text=True, env=env)
    wanted = seat_args.count("--seat") + seat_args.count("--spectator") + ("--referee-seat" in seat_args)
    links: dict[str, str] = {}
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(links) < wanted:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("Sharing"):
            port = line.split(" port ")[1].split()[0].rstrip(",.")
        found = _LINK.match(line.strip())
        if found:
            links[found.group(1)] = found.group(3)
    if len(links) < wanted:
        proc.kill()
        proc.wait(10)
        raise AssertionError("serve printed no links:\n" + "".join(lines) + log.read_text())
    return proc, {**links, "port": port}


def stop_serve(proc: subprocess.Popen) -> int:
    """Ctrl+C, as at the table: it saves and exits."""
    if proc.poll() is None:
        stop(proc)
    try:
        proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate(timeout=10)
    return proc.returncode


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system), from /proc; 0 where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_having(client: PhoneClient, ship_id: str, rev: int) -> float | None:
    """When the phone first had the ship at ``rev`` or later (a phone that got two changes
    in one look has the first too), or None."""
    times = [t for (s, r), t in client.arrived.items() if s == ship_id and r >= rev]
    return min(times) if times else None


def newest(client: PhoneClient) -> dict[str, int]:
    """ship id -> the newest revision the phone has had."""
    out: dict[str, int] = {}
    for s, r in list(client.arrived):
        if r > out.get(s, -1):
            out[s] = r
    return out


def measure_serve(folder: Path, phones: int, seconds: float = 10.0, rate: float = 2.0,
                  seed: int = 5, proxy: bool = False) -> dict:
    """``phones`` phones, each tapping its own ship of a FedCom session ``rate`` times a
    second for ``seconds``, all live on their WebSockets, with the watchers' two phones.
    ``proxy``: the phones reach serve through Debian's Caddy over HTTPS at
    https://table.test:PORT (``--public-url``, ``--trusted-proxy 127.0.0.1``), as players at
    home through the referee's proxy do; else straight, as on the table's Wi-Fi.
    For each accepted tap, the time from its answer reaching the tapping phone to the last
    of the other phones that see the ship having its new revision (0 when they had it
    before the answer came)."""
    session = table_session("fedcom", phones + len(NOTHING_TO_TAP))
    path = folder / "table.shipsheet"
    save_session(session, path)
    ship_ids = [s.id for s in session.ships if s.name not in NOTHING_TO_TAP]
    plan = seat_plan(phones)
    args = []
    for name, indexes in plan:
        args += ["--seat", f"{name}=" + ",".join(ship_ids[i] for i in indexes)]
    args += ["--spectator", WATCHERS[1], "--referee-seat"]
    context = caddy = None
    if proxy:
        from .caddy import free_port, start_caddy, stop_caddy
        public_port = free_port()
        args += ["--public-url", f"https://{PUBLIC_NAME}:{public_port}", "--trusted-proxy",
                 "127.0.0.1", "--no-approve-joins"]
    proc, links = start_serve(path, args, folder / "serve.log")
    if proxy:
        try:
            caddy, root = start_caddy(folder, PUBLIC_NAME, public_port, int(links["port"]))
        except BaseException:
            stop_serve(proc)
            raise
        context = ssl.create_default_context(cafile=str(root))
    own: dict[int, PhoneClient] = {}
    for name, indexes in plan:
        for i in indexes:
            own[i] = LivePhone(links[name], shown=ship_ids[i])  # its tab: the ship it taps
    tappers = [own[i] for i in range(phones)]
    watchers = [LivePhone(links[WATCHERS[0]]), LivePhone(links[WATCHERS[1]])]
    clients = tappers + watchers
    changes: list[tuple[int, str, int, float]] = []  # tapper, ship, new rev, answered at
    answers: list[float] = []  # tap sent -> its answer, seconds
    picks: list[float] = []  # the referee's phone: another ship's tab picked -> its sheet shown
    refused: list[str] = []
    late: list[int] = []
    due: list[int] = []  # a tap's time came (phone's index)
    result: dict = {}

    async def run() -> None:
        https = []
        for n, _client in enumerate(clients):
            # Every phone its own address where the loopback has many, as at a table (the
            # host limits pairing per address); else they pair patiently from one.
            local = (f"127.0.{1 + n // 250}.{2 + n % 250}", 0) if LOOPBACK_RANGE else None
            through = {"ssl": context, "resolver": LoopbackResolver()} if proxy else {}
            https.append(aiohttp.ClientSession(connector=aiohttp.TCPConnector(
                local_addr=local, limit_per_host=PAGE_CONNECTIONS, **through),
                                               cookie_jar=aiohttp.CookieJar(unsafe=True)))
        stop = asyncio.Event()
        try:
            await asyncio.gather(*(pair_patiently(c, h) for c, h in zip(clients, https)))
            lives = [asyncio.ensure_future(c.live(h, stop)) for c, h in zip(clients, https)]
            await asyncio.sleep(1.0)  # every socket open, every first look taken
            cpu0, mine0, t_start = cpu_seconds(proc.pid), time.process_time(), time.perf_counter()
            proxy0 = cpu_seconds(caddy.pid) if caddy is not None else 0.0
            rng = random.Random(seed)
            offsets = [rng.random() / rate for _ in tappers]  # taps spread over the period

            async def tapping(i: int, client: PhoneClient, http, rng: random.Random) -> None:
                period = 1.0 / rate
                at = t_start + offsets[i]
                end = t_start + seconds
                while at < end:
                    await asyncio.sleep(max(0.0, at - time.perf_counter()))
                    at += period
                    due.append(i)
                    if time.perf_counter() > end + LATE:
                        late.append(i)  # a tap the phone never got to make
                        continue
                    ship = next(s for s in client.state["ships"] if s["id"] == ship_ids[i])
                    choice = random_tap({"ships": [ship]}, rng)
                    if choice is None:
                        refused.append("nothing to tap")
                        continue
                    body = client.tap_body(*choice)
                    client.sent += 1
                    sent_at = time.perf_counter()
                    status, answer = await client.act(http, body)
                    answered = time.perf_counter()
                    answers.append(answered - sent_at)
                    client.note(body, status, answer)
                    if answer.get("ok"):
                        new = next(s for s in answer["state"]["ships"] if s["id"] == ship["id"])
                        changes.append((i, ship["id"], new["rev"], answered))
                    elif status != 409:
                        refused.append(f"{status}: {answer.get('error', '')}")
                    if answer.get("state"):
                        await client.refresh(http, answer["state"])

            async def picking(client: PhoneClient, http, rng: random.Random) -> None:
                """The referee's phone picks another ship's tab about once a second: the
                page fetches that ship's boxes and drawing then (page.js, selectShip), not
                at each of its changes. From the pick to its sheet shown."""
                end = t_start + seconds
                while time.perf_counter() < end:
                    await asyncio.sleep(rng.uniform(0.5, 1.5))
                    others = [s["id"] for s in client.state["ships"] if s["id"] != client.shown]
                    client.shown = rng.choice(others)
                    picked = time.perf_counter()
                    try:
                        await client.refresh(http)
                    except aiohttp.ClientError:
                        continue
                    picks.append(time.perf_counter() - picked)

            await asyncio.gather(*(tapping(i, c, https[i], random.Random(seed * 1000 + i))
                                   for i, c in enumerate(tappers)),
                                 picking(watchers[0], https[len(tappers)], random.Random(seed)))
            result["tapping"] = time.perf_counter() - t_start
            result["cpu"] = cpu_seconds(proc.pid) - cpu0
            result["proxy_cpu"] = cpu_seconds(caddy.pid) - proxy0 if caddy is not None else 0.0
            result["phones_cpu"] = time.process_time() - mine0  # the phones' process, for scale
            deadline = time.perf_counter() + 10
            while time.perf_counter() < deadline and _missing(clients, changes):
                await asyncio.sleep(0.05)
            stop.set()
            for task in lives:
                task.cancel()
            await asyncio.gather(*lives, return_exceptions=True)
        finally:
            for http in https:
                await http.close()

    try:
        asyncio.run(run())
    finally:
        result["returncode"] = stop_serve(proc)
        if caddy is not None:
            stop_caddy(caddy)
    latencies, missing, timeline = [], 0, []
    for i, ship_id, rev, t0 in changes:
        seen = [first_having(c, ship_id, rev) for c in _others(clients, i, ship_id)]
        if any(t is None for t in seen):
            missing += 1
            continue
        latencies.append(max(0.0, max(seen) - t0))
        timeline.append((t0, latencies[-1]))
    latencies.sort()
    answers.sort()
    sent = sum(c.sent for c in tappers)
    return {**result, "phones": phones, "seats": len(plan) + len(WATCHERS), "sent": sent,
            "changes": len(changes), "missing": missing, "late": len(late), "due": len(due),
            "latencies": latencies,
            "stale": sum(c.stale for c in tappers), "refused": refused,
            "p95": _p95(latencies), "median": statistics.median(latencies) if latencies else math.inf,
            "answer_p95": _p95(answers), "timeline": sorted(timeline),
            "picks": sorted(picks),
            "watchers": min(len(_others(clients, i, s)) for i, s, _r, _t in changes) if changes else 0}


def _others(clients: list[PhoneClient], tapper: int, ship_id: str) -> list[PhoneClient]:
    """The phones other than the tapper's that see the ship (by their seat's view)."""
    return [c for n, c in enumerate(clients) if n != tapper and c.state is not None
            and any(s["id"] == ship_id for s in c.state["ships"])]


def _missing(clients, changes) -> bool:
    """Some change has not reached some phone that sees its ship."""
    have = [newest(c) for c in clients]
    return any(have[n].get(ship_id, -1) < rev for i, ship_id, rev, _t in changes
               for n, c in enumerate(clients) if n != i and c.state is not None
               and ship_id in have[n])


def _p95(values: list[float]) -> float:
    return values[int(0.95 * (len(values) - 1))] if values else math.inf

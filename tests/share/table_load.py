"""Load on a shared table, for the benchmarks and their small version in ``make test``.

Phones are aiohttp clients on one asyncio loop in a background thread; the referee's app
is the test's own thread running Qt's event loop (the authority). Every figure is timed
with ``time.perf_counter`` (the same clock on every thread).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import aiohttp

from shipsheet.model import Ship
from shipsheet.model.actions import AddShip
from shipsheet.model.games import get_game, piece
from shipsheet.share import SeatBook, TableLink
from shipsheet.share.authority import QtAuthority
from shipsheet.share.seats import PLAYER


def table_session(game: str, ships: int):
    """The game's sample session grown to ``ships`` ships (copies of its classes)."""
    session = piece(game, "sample")()
    rules = get_game(game)
    classes = [s.ship_class for s in session.ships]
    n = 0
    while len(session.ships) < ships:
        cls = classes[n % len(classes)]
        session.apply(AddShip(Ship(f"Extra {n + 1}", cls, rules.initial_state(cls)), "Extra"))
        n += 1
    session.clear_history()
    return session


class StallMeter:
    """The longest the server's work held the authority's thread (snapshots, requests)."""

    def __init__(self, link: TableLink):
        self.worst = 0.0
        self.samples: list[float] = []
        self.requests: list[float] = []  # the phones' requests alone, applied
        self.spans: list[tuple[float, float, str]] = []  # (start, took, what): to read gaps by
        host, authority = link.host, link.authority
        on_change, run = host._on_change, authority._run

        def timed(fn, also=None, what="change"):
            def wrapper(*args):
                start = time.perf_counter()
                try:
                    return fn(*args)
                finally:
                    took = time.perf_counter() - start
                    self.samples.append(took)
                    self.spans.append((start, took, what))
                    if also is not None:
                        also.append(took)
                    self.worst = max(self.worst, took)
            return wrapper
        # The session calls the listener it was given: re-subscribe the timed one.
        link.session.unsubscribe(host._listener)
        host._listener = timed(on_change)
        link.session.subscribe(host._listener)
        authority._queued.disconnect()
        from PySide6.QtCore import Qt
        authority._queued.connect(timed(run, self.requests, "request"), Qt.ConnectionType.QueuedConnection)


def share_one_ship_per_phone(session, phones: int, rights=("view", "decide")):
    book = SeatBook(session.uid)
    seats = [book.add(f"Phone {i + 1}", PLAYER, ships=(session.ships[i].id,), rights=rights)
             for i in range(phones)]
    authority = QtAuthority()
    link = TableLink(session, book, authority, session.apply, session.undo, behind_window=True)
    link.start(["127.0.0.1"], 0)
    return link, seats


#: Connections a phone's browser opens to one host at most (HTTP/1.1: Chromium, Firefox
#: and Safari open six): a look's many fetches at once share them.
PAGE_CONNECTIONS = 6


@dataclass
class PhoneClient:
    """One phone: pairs, keeps the seat's view, and notes when each revision arrived."""

    url: str
    arrived: dict[tuple[str, int], float] = field(default_factory=dict)
    state: dict | None = None
    accepted: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    stale: int = 0
    sent: int = 0
    shown: str | None = None  # the ship whose tab the phone shows (``shown_ship``)

    def __post_init__(self):
        parts = urlsplit(self.url)
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.path = parts.path
        self.secret = parts.fragment.removeprefix("k=")
        self.headers = {"Origin": self.base}
        self.svgs: dict[str, str] = {}
        self.boxes: dict[str, tuple[str, list]] = {}  # ship id -> (address, its boxes)
        self.forms: dict[str, tuple[str, list]] = {}  # ship id -> (address, its forms)
        self._looking: asyncio.Future | None = None  # the look a push started (``_pushed``)
        self._again = False
        #: address -> its fetch under way (``refresh``: one fetch of an address at a time).
        self._fetching: dict[str, asyncio.Future] = {}

    async def pair(self, http: aiohttp.ClientSession) -> None:
        async with http.post(self.base + self.path + "api/pair", json={"secret": self.secret},
                             headers=self.headers) as r:
            assert r.status == 200, await r.text()
        await self.refresh(http)

    def shown_ship(self, ships: list[dict]) -> str | None:
        """The ship the phone shows (page.js's ``shownShip``): the one shown before while
        the view has it, else the seat's own first, else the first. A tapper of the load
        tests shows the ship it taps (``shown`` set when it is made)."""
        if not any(s["id"] == self.shown for s in ships):
            mine = [s for s in ships if s.get("mine")]
            self.shown = (mine or ships)[0]["id"] if ships else None
        return self.shown

    async def refresh(self, http: aiohttp.ClientSession, state: dict | None = None) -> None:
        if state is None:
            async with http.get(self.base + self.path + "api/state", headers=self.headers) as r:
                state = await r.json()
                assert r.status == 200, state
        async def fetched(address: str, read):
            """What ``address`` answers, fetched once while a fetch of it is under way (as
            page.js's ``keptList`` and ``loadSvg``: a tap's answer and the push after it
            name the same revision, and the second look waits for the first's fetch)."""
            pending = self._fetching.get(address)
            if pending is None:
                async def fetch():
                    async with http.get(self.base + address, headers=self.headers) as r:
                        return await read(r)
                pending = self._fetching[address] = asyncio.ensure_future(fetch())
                pending.add_done_callback(lambda _f: self._fetching.pop(address, None))
            return await asyncio.shield(pending)

        async def kept(table: dict, ship: dict, field: str) -> None:
            """A ship's boxes or forms, fetched once per revision (their address names it)."""
            if table.get(ship["id"], (None,))[0] != ship[field]:
                found = await fetched(ship[field], lambda r: r.json())
                table[ship["id"]] = (ship[field], found)

        def kept_now(table: dict, ship: dict, field: str) -> list:
            """What was fetched of a ship at this revision, or nothing (not fetched yet)."""
            address, found = table.get(ship["id"], (None, []))
            return found if address == ship[field] else []

        async def drawing(ship: dict) -> None:
            if self.svgs.get(ship["id"]) != ship["svg"]:
                await fetched(ship["svg"], lambda r: r.read())
                self.svgs[ship["id"]] = ship["svg"]
            self.arrived.setdefault((ship["id"], ship["rev"]), time.perf_counter())
        # As the page does it (page.js: withBoxes, updateShip): the boxes and the forms of
        # the ship shown, then its drawing if its address moved; the other ships of the
        # view stay as it names them (their tabs), fetched when shown. The page's next look
        # does not wait for the drawing; this one does: never quicker than the page.
        ships = state["ships"]
        shown = [ship for ship in ships if ship["id"] == self.shown_ship(ships)]
        await asyncio.gather(*(kept(self.boxes, ship, "boxes") for ship in shown),
                             *(kept(self.forms, ship, "forms") for ship in shown
                               if isinstance(ship.get("forms"), str)))
        for ship in ships:
            ship["areas"] = kept_now(self.boxes, ship, "boxes")
            if isinstance(ship.get("forms"), str):
                ship["forms"] = kept_now(self.forms, ship, "forms")
        await asyncio.gather(*(drawing(ship) for ship in shown))
        now = time.perf_counter()
        for ship in ships:  # every ship's new revision is in the view (its tab)
            self.arrived.setdefault((ship["id"], ship["rev"]), now)
        self.state = state

    async def _looks(self, http: aiohttp.ClientSession) -> None:
        """Look at the table until no push came during the last look (page.js's
        ``refreshState``: one look at a time; the pushes that come meanwhile make one more
        look, not one each). A look that fails is left for the next push, as the page's is."""
        try:
            while True:
                self._again = False
                await self.refresh(http)
                if not self._again:
                    return
        except aiohttp.ClientError:
            return

    def _pushed(self, http: aiohttp.ClientSession) -> None:
        """A "changed" push: a look now, or one more after the look under way."""
        if self._looking is not None and not self._looking.done():
            self._again = True
        else:
            self._looking = asyncio.ensure_future(self._looks(http))

    async def live(self, http: aiohttp.ClientSession, stop: asyncio.Event) -> None:
        url = self.base.replace("http", "ws") + self.path + "api/ws"
        while not stop.is_set():
            try:
                async with http.ws_connect(url, headers=self.headers) as ws:
                    async for msg in ws:
                        if msg.type != aiohttp.WSMsgType.TEXT:
                            break
                        data = json.loads(msg.data)
                        if data.get("type") == "changed":
                            self._pushed(http)
                        if stop.is_set():
                            break
            except aiohttp.ClientError:
                await asyncio.sleep(0.05)
            finally:
                if stop.is_set() and self._looking is not None:
                    self._looking.cancel()

    def tap_body(self, ship: dict, area: dict) -> dict:
        """A tap on ``area`` of ``ship``, as the sheet the phone last had shows it."""
        return {"id": new_id(), "epoch": self.state["epoch"], "ship": ship["id"],
                "rev": ship["rev"], "kind": "tap", "key": area["key"]}

    def note(self, body: dict, status: int, answer: dict) -> None:
        """The answer to ``body``, counted: accepted, stale (409) or refused with why."""
        if answer.get("ok"):
            self.accepted.append(body["id"])
        elif status == 409:
            self.stale += 1
        else:
            self.refused.append((body.get("key", ""), answer.get("error", "")))

    async def act(self, http: aiohttp.ClientSession, body: dict) -> tuple[int, dict]:
        async with http.post(self.base + self.path + "api/act", json=body, headers=self.headers) as r:
            return r.status, await r.json()


async def pair_patiently(client: PhoneClient, http: aiohttp.ClientSession) -> None:
    """Pair, waiting while the server slows pairing from one address down (phones that
    share an address here; on a table's Wi-Fi each has its own)."""
    while True:
        try:
            await client.pair(http)
            return
        except AssertionError as exc:
            if "Too many tries" not in str(exc):
                raise
            await asyncio.sleep(1.0)


#: Every address of 127.0.0.0/8 is the loopback on Linux and Windows, so test phones can
#: each have one, as at a table; macOS answers on 127.0.0.1 alone (unless aliased).
LOOPBACK_RANGE = sys.platform.startswith("linux") or sys.platform == "win32"


class PhoneThread:
    """An asyncio loop in a thread, for the phones."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro):
        """Schedule ``coro``; a concurrent future."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def close(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def new_id() -> str:
    return secrets.token_urlsafe(12)


def random_tap(state: dict, rng: random.Random, right_areas=None):
    """A ship of the phone's and a box on it a tap would change, or None."""
    ships = [s for s in state["ships"] if s["mine"]]
    rng.shuffle(ships)
    for ship in ships:
        taps = [a for a in ship["areas"] if a["tap"]]
        if taps:
            return ship, rng.choice(taps)
    return None


async def phone_requests(client: PhoneClient, jar_http, count: int, rng: random.Random,
                         retry_rate: float, reconnect_rate: float, new_http) -> None:
    """``count`` taps on the phone's own ship, each on the sheet it last had; a retry of the
    same request id now and then (as after a dropped answer), a new connection now and then."""
    http = jar_http
    for _ in range(count):
        if client.state is None:
            await client.refresh(http)
        choice = random_tap(client.state, rng)
        if choice is None:
            client.refused.append(("", "nothing to tap"))
            continue
        body = client.tap_body(*choice)
        client.sent += 1
        while True:
            status, answer = await client.act(http, body)
            if status != 429:
                break
            await asyncio.sleep(0.05)  # slowed down by the server: the same request again
        if rng.random() < retry_rate:  # the answer was "lost": the phone sends it again
            status2, again = await client.act(http, body)
            assert again.get("message") == answer.get("message") and again.get("ok") == answer.get("ok"), (answer, again)
        client.note(body, status, answer)
        if answer.get("state"):
            await client.refresh(http, answer["state"])
        if rng.random() < reconnect_rate:
            http = await new_http(http)

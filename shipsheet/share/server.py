"""Table Link's web server: aiohttp on its own asyncio loop, in a worker thread.

The routes, the JSON and the rules of the road are in ``PROTOCOL.md`` beside this file.
The server holds no rule and changes nothing itself: it checks who is asking (a device
token in a seat-scoped cookie), what they may see (each seat is sent only its ships: never
the session file, never another seat's ships or decisions), and hands every request to the
authority's thread (:class:`~shipsheet.share.host.TableHost`), whose answer it returns.
Sheets are drawn once per ship and revision on a render thread, from the snapshot the
host published; what a tap on a box asks for is worked out there too, from the same
snapshot (``host.resolve``), so the authority's thread only applies it.

Hostile by default (product rule: everything from outside is hostile until checked): the
``Host`` and ``Origin`` headers are checked against the addresses it was bound to and its
public address (``exposure.py``); bodies are at most 16 KB and must arrive in time; idle
and slow connections are closed; each seat and each real client is rate-limited, wrong
secrets and tokens are counted per client and lock a seat's joining after a burst; with a
public address a new device waits for the referee's yes (``joins.py``); files are served
from a fixed table, never from a path a client names; no access log is kept; every
answer carries a strict Content-Security-Policy.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import gzip
import ipaddress
import json
import threading
import time
from collections import OrderedDict
from dataclasses import field
from ..model.code_cache import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from aiohttp import WSMsgType, web

from ..model import portable
from ..model.decisions import DECIDE
from ..model.kept import keep
from ..model.privacy import public_state, seen_text
from ..model.words import PHONE, for_device, form_for_device
from ..sheets.fonts import font_path
from . import heap
from .addresses import netloc
from .exposure import AT_THE_TABLE, Exposure, client_of
from .host import BOX_KINDS, SHIP_KINDS, Resolved, resolve
from .joins import ALLOWED, REFUSED, WAITING_STATE, JoinBook, describe_device
from .log_index import LogIndex
from .render import GZIP_LEVEL, RenderedSheet, SheetSize, measure_sheet, render_sheet
from .seats import MAX_DEVICES, Seat, SeatBook, SeatFull
from .snapshot import Snapshot
from .throttle import Failures, RateLimit, SeatLocks

if TYPE_CHECKING:  # pragma: no cover
    from .host import Authority, TableHost

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 16 * 1024
COOKIE = "shipsheet_device"
REQUEST_TIMEOUT = 15.0  # seconds the authority may take to answer a request
#: A connection idle this long, or this slow to send a whole request, is closed (seconds).
KEEPALIVE = 15.0
#: A request's body must arrive within this (seconds): a body sent a byte at a time is cut.
BODY_TIMEOUT = 10.0
#: Wrong secrets one client may send within ``FAILURE_WINDOW`` before it is refused a while,
#: and wrong secrets for one seat, from anywhere, that lock its joining (SECURITY.md).
WRONG_SECRETS, SEAT_LOCK_AFTER, FAILURE_WINDOW = 5, 20, 600.0
#: Wrong device tokens one client may send in a minute (a revoked phone sends a few).
WRONG_TOKENS = 20
#: Live connections one seat may hold (its phones, a few tabs each).
MAX_SOCKETS = 16
#: Where a request keeps who is really asking (``exposure.Client``; aiohttp's typed key
#: where it has one).
CLIENT = web.RequestKey("client", object) if hasattr(web, "RequestKey") else "client"
#: Ships' texts kept for the seats' views (``TableServer._ship_text``), at most this many
#: (a table's seats times its ships; and ships' last forms, one a ship); then kept afresh.
KEPT_SHIP_TEXTS = 50_000
#: A seat that sees at most this many ships reads its log lines from the log's index by
#: ship (``LogIndex``); one that sees more (the referee's) reads the log's end, mostly its.
FEW_SHIPS = 8
LOG_LINES = 200  # the log lines a seat is sent (PROTOCOL.md: "at most 200")
#: The session's own log lines (naming no ship) that every seat is sent: the turn and
#: phase lines (PROTOCOL.md), and the actions on no ship.
SESSION_LOG_KINDS = ("phase", "action")
NOT_PAIRED = "This phone is not paired with this seat. Open the referee's link again."
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
#: The sheets' font, the very files Qt draws them with (``sheets/fonts.py``: bundled).
_FONTS = {"sheet-sans.ttf": False, "sheet-sans-bold.ttf": True}
_TYPES = {".js": "text/javascript", ".css": "text/css", ".ttf": "font/ttf"}


def static_files() -> dict[str, Path]:
    """The only files the server sends: name in the URL -> file (a fixed table)."""
    files = {name: STATIC / name for name in ("page.js", "page.css")}
    files.update((name, font_path(bold)) for name, bold in _FONTS.items())
    return files


@dataclass
class Presence:
    """How a seat is connected: open live connections, and when it last asked anything."""

    connected: int = 0
    last_seen: float | None = None  # time.time()
    paired: bool = False


@dataclass
class _Seen:
    sockets: set = field(default_factory=set)
    last_seen: float | None = None
    sent: Any = None  # what the seat's sockets were last told
    #: The ships whose sheets the seat's phones asked for, the latest last (a page asks for
    #: the ship its tab shows): drawn ahead at each change (``_set_snapshot``).
    shown: OrderedDict = field(default_factory=OrderedDict)

    def showed(self, ship_id: str) -> None:
        self.shown[ship_id] = None
        self.shown.move_to_end(ship_id)
        while len(self.shown) > MAX_DEVICES:
            self.shown.popitem(last=False)

    def showing(self) -> list[str]:
        """The ships the seat's connected phones show, as far as known: the last asked
        for, as many as it has phones connected."""
        return list(self.shown)[-len(self.sockets):] if self.sockets else []


def _failed(future: asyncio.Future) -> bool:
    return future.done() and (future.cancelled() or future.exception() is not None)


def _current(rev: int, known: tuple[int, asyncio.Future] | None) -> asyncio.Future | None:
    """A kept (revision, future)'s future if it is of ``rev`` and has not failed."""
    if known is not None and known[0] == rev and not _failed(known[1]):
        return known[1]
    return None


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=_dumps)


def _per_revision(request: web.Request, snap: Snapshot, rendered: RenderedSheet, plain: bytes,
                  packed: bytes, content_type: str) -> web.Response:
    """What is kept for one revision of a ship (``packed``: gzipped, when the phone takes
    it so): cacheable for good when the address names the current revision."""
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = web.Response(body=packed, content_type=content_type)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = web.Response(body=plain, content_type=content_type)
    current = request.match_info["version"] == f"{snap.epoch}-{rendered.rev}"
    response.headers["Cache-Control"] = "private, max-age=86400, immutable" if current else "no-store"
    return response


#: The deepest nesting of arrays and objects a body may have (a request has three levels).
MAX_NESTING = 32


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise ValueError("a number in a request has at most 18 digits")
    return int(text)


def parse_body(raw: bytes) -> Any:
    """A request's body as JSON: strict UTF-8 (no other encoding, no byte-order mark), at
    most ``MAX_NESTING`` deep, no integer of more than 18 digits, no NaN or Infinity.
    Raises ``web.HTTPBadRequest`` with words for anything else (answered as JSON)."""
    if not raw:
        return {}
    try:
        text = raw.decode("utf-8", "strict")
    except UnicodeDecodeError:
        raise web.HTTPBadRequest(reason="A request's body is JSON in UTF-8.") from None
    depth = deepest = 0
    in_string = escaped = False
    brackets = text.count("[") + text.count("{")
    for ch in text if brackets > MAX_NESTING else "":  # brackets outside strings: the nesting, before the parser recurses
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > MAX_NESTING:  # (at most as deep as there are brackets)
        raise web.HTTPBadRequest(reason="A request is nested too deep.")

    def constant(name: str):
        raise ValueError(f"{name} is not a number a request may hold")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_constant=constant)
    except ValueError as exc:  # JSONDecodeError is one
        raise web.HTTPBadRequest(reason=f"The request is not JSON a phone sends ({exc}).") from None


def _ping(text: str) -> float | None:
    """The page's time in a ``{"type": "ping", "t": <number>}`` message, else None."""
    if len(text) > 200:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    t = data.get("t") if isinstance(data, dict) and data.get("type") == "ping" else None
    return t if isinstance(t, (int, float)) and not isinstance(t, bool) else None


def _error(status: int, message: str) -> web.Response:
    return _json({"ok": False, "error": message}, status)


class TableServer:
    """The web server of one shared session. Start and stop from the authority's thread."""

    def __init__(self, book: SeatBook, authority: "Authority", host: "TableHost",
                 exposure: Exposure = AT_THE_TABLE, behind_window: bool = False):
        """``behind_window``: the authority's thread is a window's. The server's loop and
        its render thread then let it have the processor first on a busy machine
        (``portable.lower_this_thread``): each phone's answer wakes the loop from the
        window's thread, and on two busy cores the woken loop took the core from it for
        milliseconds (``tests/share/table_gaps.py``: 12 phones' requests held the window
        p95 3.5-4.7 ms; lowered, 1.2-2.3). ``serve``, with no window, leaves them as
        they are."""
        self.book = book
        self.behind_window = behind_window
        #: How the table is reached beyond the room (``exposure.py``): its public address,
        #: the proxies trusted, HTTPS, whether new devices wait for the referee.
        self.exposure = exposure
        self.authority = authority
        self.host = host
        self.files = static_files()
        self.page = (STATIC / "page.html").read_bytes()
        self.addresses: list[str] = []
        self.port: int | None = None
        self._allowed_hosts: set[str] = set()
        self._allowed_origins: set[str] = set()
        self._snapshot: Snapshot = host.snapshot
        self._rendered: dict[tuple[str, bool], tuple[int, asyncio.Future]] = {}
        #: (ship id, public) -> (revision, its SheetSize): what views say of the sheets
        #: not drawn (``_measure``).
        self._measured: dict[tuple[str, bool], tuple[int, asyncio.Future]] = {}
        #: (ship id, public) -> (the sheet, its boxes for each (rights, ship name) and its
        #: forms as JSON text): a view lists every box of every ship it has, the same text
        #: in every look until the ship's next revision (the latest sheet's only).
        self._sheet_texts: dict[tuple[str, bool], tuple[RenderedSheet, dict]] = {}
        #: (snapshot seq, the seat's ships' names, those it owns) -> its log lines as text.
        self._log_texts: dict[tuple, str] = {}
        #: The current snapshot's log lines by ship: a seat of a few ships reads its own.
        self._log_index = LogIndex()
        #: (seat id, ship id) -> (all the text says, the ship's text in the seat's view):
        #: ``_ship_text``.
        self._ship_texts: dict[tuple[str, str], tuple] = {}
        #: ship id -> (its latest forms, their text and gzipped text): a new revision whose
        #: forms say the same reuses them (``_forms_text``).
        self._last_forms: dict[str, tuple] = {}
        self._seen: dict[str, _Seen] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._renderer = concurrent.futures.ThreadPoolExecutor(
            1, thread_name_prefix="table-render", initializer=self._thread_started)
        # PROTOCOL.md: requests are rate-limited per seat, pairing per client (the real
        # one behind a trusted proxy); wrong secrets and wrong device tokens are counted
        # per client, and a seat's joining locks after a burst of wrong secrets.
        self._seat_limit = RateLimit(50, 100)
        self._pair_limit = RateLimit(1, 40)  # a table pairs a dozen phones at once
        self._wrong_secrets = Failures(WRONG_SECRETS, FAILURE_WINDOW)
        self._wrong_tokens = Failures(WRONG_TOKENS, 60.0)
        self.locks = SeatLocks(SEAT_LOCK_AFTER, FAILURE_WINDOW)
        #: Devices waiting for the referee's yes (``joins.py``).
        self.joins = JoinBook()
        #: Called on the server's loop with what the referee is to be told: a dict with
        #: ``kind`` "join" (a device waits: ``join``, ``seat``, ``from``, ``device``),
        #: "joined" (a device paired), "locked" (a seat's joining locked: ``seat``, ``from``).
        self.on_event: Callable[[dict], Any] | None = None
        self._seats_rev = 0  # moves when what the referee's seat list shows does
        #: (snapshot, seats' revision, seat id -> (seat, its visible ships)): ``_visible``.
        self._visible_kept: tuple = (None, 0, {})
        self.render_count = 0  # sheets drawn (tests: once per ship and revision)

    # -- lifetime (authority's thread) ------------------------------------------------
    def start(self, addresses: list[str], port: int | None = None) -> int:
        """Listen on ``addresses`` (only there) at ``port`` (any free port when None, or when
        ``port`` is taken). Returns the port. Raises OSError when it cannot listen."""
        if not addresses:
            raise OSError("No address to listen on was chosen.")
        for address in addresses:
            ipaddress.ip_address(address)  # ValueError for a name: only addresses are bound
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            self._thread_started()
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._listen(addresses, port))
            except BaseException as exc:
                failure.append(exc)
                started.set()
                loop.close()
                return
            started.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._shutdown())
                loop.close()

        self._thread = threading.Thread(target=run, name="table-link", daemon=True)
        self._thread.start()
        started.wait(15)
        if failure:
            self._thread.join(5)
            self._thread = None
            exc = failure[0]
            raise exc if isinstance(exc, OSError) else OSError(str(exc))
        return self.port

    def _thread_started(self) -> None:
        """On each thread of the server's own (its loop, its render thread), first."""
        if self.behind_window:
            portable.lower_this_thread()

    async def _listen(self, addresses: list[str], port: int | None) -> None:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.router.add_get("/", self._root)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/s/{seat}/", self._page)
        app.router.add_post("/s/{seat}/api/pair", self._pair)
        app.router.add_get("/s/{seat}/api/state", self._state)
        app.router.add_get("/s/{seat}/api/sheet/{ship}/{version}.svg", self._sheet)
        app.router.add_get("/s/{seat}/api/boxes/{ship}/{version}.json", self._boxes)
        app.router.add_get("/s/{seat}/api/forms/{ship}/{version}.json", self._forms)
        app.router.add_post("/s/{seat}/api/act", self._act)
        app.router.add_post("/s/{seat}/api/joins", self._joins)
        app.router.add_get("/s/{seat}/api/ws", self._ws)
        from .quiet_log import table_logger
        # keepalive_timeout: a connection idle, or slow to send a whole request (headers a
        # byte at a time), is closed after it (SECURITY.md, "Beyond the room").
        runner = web.AppRunner(app, access_log=None, handle_signals=False, logger=table_logger(),
                               keepalive_timeout=KEEPALIVE)
        await runner.setup()
        self._runner = runner
        for attempt in ([port, 0] if port else [0]):
            try:
                chosen = None
                for address in addresses:
                    site = web.TCPSite(runner, address, chosen if chosen is not None else attempt,
                                       reuse_address=True, ssl_context=self.exposure.tls)
                    await site.start()
                    if chosen is None:
                        chosen = site._server.sockets[0].getsockname()[1]
                self.port = chosen
                break
            except OSError:
                for site in list(runner.sites):
                    await site.stop()
                if attempt == 0:
                    await runner.cleanup()
                    raise
        self.addresses = list(addresses)
        hosts = {netloc(address, self.port) for address in addresses}
        if any(ipaddress.ip_address(address).is_loopback for address in addresses):
            hosts.add(netloc("localhost", self.port))
        origins = {f"{self.exposure.scheme}://{host}" for host in hosts}
        public = self.exposure.public
        if public is not None:  # the public address, and only it, besides the LAN's
            hosts.add(public.netloc)
            origins.add(public.origin)
        self._allowed_hosts = hosts
        self._allowed_origins = origins

    def stop(self) -> None:
        """Close every connection and stop listening (returns when it has)."""
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            loop.call_soon_threadsafe(loop.stop)
            thread.join(10)
        self._thread = None
        self._loop = None
        self._renderer.shutdown(wait=False, cancel_futures=True)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    async def _shutdown(self) -> None:
        for seen in self._seen.values():
            for ws in list(seen.sockets):
                await ws.close(code=1001, message=b"the table is closed")
        if self._runner is not None:
            await self._runner.cleanup()

    # -- from the authority's thread ------------------------------------------------------
    def publish(self, snapshot: Snapshot) -> None:
        """A new snapshot (thread-safe): phones whose view changed are told at once."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._set_snapshot, snapshot)

    def close_seat(self, seat_id: str) -> None:
        """Tell a revoked seat's phones, and close their connections (thread-safe)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            asyncio.run_coroutine_threadsafe(self._close_seat(seat_id), loop)

    def seats_changed(self) -> None:
        """Seats' ships or rights changed: phones look again (thread-safe)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._notify_all)

    def presence(self) -> dict[str, Presence]:
        """seat id -> Presence (any thread; a consistent enough reading for a dialog)."""
        out = {}
        for seat in list(self.book.seats):
            seen = self._seen.get(seat.id)
            out[seat.id] = Presence(len(seen.sockets) if seen else 0,
                                    seen.last_seen if seen else None, bool(seat.devices))
        return out

    # -- on the server's loop -----------------------------------------------------------
    def _set_snapshot(self, snapshot: Snapshot) -> None:
        previous = self._snapshot
        if snapshot.seq < previous.seq:
            return
        self._snapshot = snapshot
        # The ships whose revision moved; None when more than that may have: the session
        # anew, a ship come or gone, another turn or phase (every seat's view moves then).
        moved = None
        if (previous.epoch == snapshot.epoch and previous.revs.keys() == snapshot.revs.keys()
                and previous.turn == snapshot.turn and previous.phase == snapshot.phase):
            moved = {i for i, rev in snapshot.revs.items() if previous.revs[i] != rev}
        # Start now what connected phones will ask for (once per ship and revision): the
        # drawings of the ships a seat reads as their owner (its own, the referee's) and of
        # the public sheets its phones show (page.js fetches the ship its tab shows); what
        # the view says of the others. The drawings first: a ship whose public sheet is its
        # owner's is then measured from its drawing, not measured and drawn too.
        # Only the ships that moved: the others' sheets of this revision are drawn already
        # (or are drawn when a phone asks).
        others = []
        seats = self.book.by_id()
        for seat_id, seen in self._seen.items():
            seat = seats.get(seat_id)
            if not seen.sockets or seat is None:
                continue
            showing = seen.showing()
            for ship in self._visible(seat):
                if moved is not None and ship.id not in moved:
                    continue
                if seat.reads_private(ship):
                    self._render(snapshot, ship.id)
                elif ship.id in showing:
                    self._render(snapshot, ship.id, True)
                else:
                    others.append(ship.id)
        for ship_id in others:
            self._measure(snapshot, ship_id, True)
        self._notify_all(moved, seats)

    def _visible(self, seat: Seat) -> list:
        """``seat.visible`` in the current snapshot, worked out once for it and the seats as
        they are (a change asks it of every connected seat, and again as each looks)."""
        snap = self._snapshot
        kept = self._visible_kept
        if kept[0] is not snap or kept[1] != self._seats_rev:
            kept = self._visible_kept = (snap, self._seats_rev, {})
        found = kept[2].get(seat.id)
        if found is None or found[0] is not seat:
            found = kept[2][seat.id] = (seat, seat.visible(snap.session))
        return found[1]

    def _notify_all(self, moved: set[str] | None = None,
                    seats: dict[str, Seat] | None = None) -> None:
        """Tell each connected seat whose view's signature moved. ``moved``: only these
        ships' revisions moved since the seats were last told (a seat that saw none of them
        and sees none of them now is told nothing new; the referee's, whose signature also
        follows the seats, is always asked); None: anything may have."""
        if seats is None:
            seats = self.book.by_id()
        for seat_id, seen in list(self._seen.items()):
            if not seen.sockets:
                continue
            seat = seats.get(seat_id)
            if seat is None:
                continue
            if moved is not None and seen.sent is not None and not seat.may("admin") \
                    and not any(ship_id in moved for ship_id in seen.sent["revs"]) \
                    and not any(ship.id in moved for ship in self._visible(seat)):
                continue  # none of the ships it saw or sees moved (one may have left it)
            message = self._signature(seat)
            if message != seen.sent:
                seen.sent = message
                for ws in list(seen.sockets):
                    asyncio.ensure_future(self._send(ws, message))

    def _signature(self, seat: Seat) -> dict:
        snap = self._snapshot
        message = {"type": "changed", "epoch": snap.epoch, "turn": snap.turn, "phase": snap.phase,
                   "revs": {s.id: snap.revs.get(s.id, 0) for s in self._visible(seat)},
                   "rights": sorted(seat.allowed)}
        if seat.may("admin"):  # the referee's seat list: devices waiting, seats locked
            message["seats"] = self._seats_rev
        return message

    @staticmethod
    async def _send(ws: web.WebSocketResponse, message: dict) -> None:
        try:
            await ws.send_json(message)
        except (ConnectionError, RuntimeError):
            pass

    async def _close_seat(self, seat_id: str) -> None:
        # A new link (or the seat gone): the old link's waiting devices and its lock go too.
        self.joins.forget_seat(seat_id)
        self.locks.open(seat_id)
        self._seats_rev += 1
        seen = self._seen.get(seat_id)
        if seen is None:
            return
        for ws in list(seen.sockets):
            await self._send(ws, {"type": "revoked"})
            await ws.close(code=4001, message=b"revoked")
        seen.sockets.clear()
        seen.sent = None

    def _render(self, snapshot: Snapshot, ship_id: str, public: bool = False) -> asyncio.Future:
        """The ship's drawing at the snapshot's revision: drawn once, then shared.
        ``public``: as seats that do not own the ship see it (no private orders)."""
        rev = snapshot.revs.get(ship_id, 0)
        key = (ship_id, public)
        known = _current(rev, self._rendered.get(key))
        if known is not None:
            return known
        if public and self._nothing_private(snapshot, ship_id):
            # Nothing of the ship is kept to its owner now: the public sheet is the owner's
            # drawing (drawn once for both), without the decisions.
            owned = self._render(snapshot, ship_id)

            async def as_public() -> RenderedSheet:
                return dataclasses.replace(await asyncio.shield(owned), forms=())
            future = asyncio.ensure_future(as_public(), loop=self._loop)
        else:
            def draw() -> RenderedSheet:
                self.render_count += 1
                return render_sheet(snapshot, ship_id, public=public)
            future = self._on_render_thread(draw)
        self._rendered[key] = (rev, future)
        return future

    def _measure(self, snapshot: Snapshot, ship_id: str, public: bool = False) -> asyncio.Future:
        """What a view says of the ship's sheet at the snapshot's revision (its size and
        forms: ``SheetSize``): its drawing's when it is drawn or being drawn, else measured
        on the render thread without being written as SVG (``render.measure_sheet``). A
        seat that sees many ships is sent the drawings of the one it shows (page.js):
        the others' are drawn when a phone asks for them, from the recording kept here."""
        rev = snapshot.revs.get(ship_id, 0)
        key = (ship_id, public)
        known = _current(rev, self._rendered.get(key)) or _current(rev, self._measured.get(key))
        if known is not None:
            return known
        if public and self._nothing_private(snapshot, ship_id):
            owned = self._measure(snapshot, ship_id)  # the owner's sheet, as _render

            async def as_public() -> SheetSize:
                sheet = await asyncio.shield(owned)
                return SheetSize(sheet.rev, sheet.width, sheet.height)
            future = asyncio.ensure_future(as_public(), loop=self._loop)
        else:
            future = self._on_render_thread(
                lambda: measure_sheet(snapshot, ship_id, public=public))
        self._measured[key] = (rev, future)
        return future

    def _on_render_thread(self, work: Callable[[], Any]) -> asyncio.Future:
        """``work`` (a drawing or a measure: a recording kept) on the render thread, as a
        future of the server's loop; what it leaves is set aside from the collector after it
        (a collector's pass walks what comes after: ``heap.drawing_done``)."""
        def run():
            try:
                return work()
            finally:
                heap.drawing_done()
        return asyncio.wrap_future(self._renderer.submit(run), loop=self._loop)

    @staticmethod
    def _nothing_private(snapshot: Snapshot, ship_id: str) -> bool:
        """The ship's state as those who do not own it see it is its whole state (what
        ``render_sheet(public=True)`` would draw is the owner's sheet)."""
        ship = snapshot.ship(ship_id)
        return ship is not None and public_state(snapshot.session, ship) == ship.state

    async def _resolve(self, seat: Seat, body: Any) -> Resolved | None:
        """A tap's, menu's or decision's action, worked out on the render thread from the
        snapshot the phone's sheet was drawn from (None for other requests, and for a ship
        the seat does not see or a revision that is not the snapshot's: the host refuses
        those)."""
        if not isinstance(body, dict) or body.get("kind") not in SHIP_KINDS:
            return None
        snap = self._snapshot
        ship = snap.ship(body.get("ship")) if isinstance(body.get("ship"), str) else None
        if ship is None or not seat.sees(ship) or body.get("rev") != snap.revs.get(ship.id):
            return None
        drawn = None
        if body["kind"] in BOX_KINDS:  # a box is one of the sheet the phone was sent
            sheet = await self._render(snap, ship.id, not seat.owns(ship))
            drawn = frozenset(a.key for a in sheet.areas)
        return await asyncio.wrap_future(
            self._renderer.submit(resolve, snap, seat, body, drawn), loop=self._loop)

    # -- the middleware: hosts, origins, headers ------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request, handler):
        # Who is really asking: a trusted proxy's forwarded headers are believed, nobody
        # else's (exposure.client_of); every per-client limit uses this address.
        client = client_of(request.remote or "", request.headers, self.exposure)
        public = self.exposure.public
        if not client.https and public is not None and public.https \
                and request.host.lower() == public.netloc:
            client = client._replace(https=True)  # reached at the https public address
        request[CLIENT] = client
        if request.host.lower() not in self._allowed_hosts:
            return _error(421, "This server does not answer for that address.")
        if request.method not in ("GET", "POST", "HEAD"):
            return _error(405, "Only GET and POST are answered here.")
        needs_origin = request.method == "POST" or request.headers.get("Upgrade", "").lower() == "websocket"
        if needs_origin:
            if request.headers.get("Origin", "").lower() not in self._allowed_origins:
                return _error(403, "Requests are answered only from this server's own page.")
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            response = _error(exc.status, exc.reason or "Refused.")
        except json.JSONDecodeError:
            response = _error(400, "The request is not JSON.")
        if not isinstance(response, web.WebSocketResponse):
            headers = response.headers
            headers["Content-Security-Policy"] = CSP
            headers["X-Content-Type-Options"] = "nosniff"
            headers["Referrer-Policy"] = "no-referrer"
            headers["X-Frame-Options"] = "DENY"
            headers.setdefault("Cache-Control", "no-store")
        return response

    # -- who is asking -----------------------------------------------------------------
    def _seat(self, request: web.Request) -> Seat | None:
        """The seat a request's device token opens, else None. A client that keeps sending
        tokens that open nothing is refused a while (429): guessing is hopeless, but each
        guess costs the referee's computer."""
        source = request[CLIENT].address
        if self._wrong_tokens.refused(source):
            raise web.HTTPTooManyRequests(reason="Too many tries; wait a minute.")
        token = request.cookies.get(COOKIE)
        seat = self.book.by_token(request.match_info["seat"], token)
        if seat is not None:
            self._saw(seat.id)
        elif token:
            self._wrong_tokens.fail(source)
        return seat

    def _saw(self, seat_id: str) -> _Seen:
        """The seat's presence, seen now."""
        seen = self._seen.setdefault(seat_id, _Seen())
        seen.last_seen = time.time()
        return seen

    async def _body(self, request: web.Request) -> Any:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=request.content_length)
        try:
            raw = await asyncio.wait_for(request.read(), BODY_TIMEOUT)
        except asyncio.TimeoutError:
            raise web.HTTPRequestTimeout(reason="The request's body came too slowly.") from None
        return parse_body(raw)

    # -- routes ------------------------------------------------------------------------
    async def _root(self, request: web.Request) -> web.Response:
        return web.Response(text="ShipSheet Table Link: open the link your referee gave you.",
                            content_type="text/plain")

    async def _static(self, request: web.Request) -> web.Response:
        path = self.files.get(request.match_info["name"])
        if path is None:
            return _error(404, "No such file.")
        body = await asyncio.get_running_loop().run_in_executor(None, path.read_bytes)
        text = path.suffix != ".ttf"
        response = web.Response(body=body, content_type=_TYPES[path.suffix],
                                charset="utf-8" if text else None)
        response.headers["Cache-Control"] = "no-cache"
        if text:
            response.enable_compression()
        return response

    async def _page(self, request: web.Request) -> web.Response:
        if self.book.seat(request.match_info["seat"]) is None:
            return _error(404, "This seat is not at the table (any more). Ask the referee for a new link.")
        response = web.Response(body=self.page, content_type="text/html", charset="utf-8")
        response.enable_compression()
        return response

    async def _pair(self, request: web.Request) -> web.Response:
        """A device trading the link's secret for a device token (PROTOCOL.md). Refused for
        a client that sent too many wrong secrets (429) and for a seat whose joining is
        locked (423); a wrong secret is counted for the client and the seat. Where the
        referee's yes is wanted (``exposure.approve_joins``) the device is told to wait
        (202 with its question's ``join``) and asks again with it until the referee
        answers."""
        client = request[CLIENT]
        if not self._pair_limit.allow(client.address) or self._wrong_secrets.refused(client.address):
            return _error(429, "Too many tries; wait a minute.")
        body = await self._body(request)
        secret = body.get("secret") if isinstance(body, dict) else None
        join = body.get("join") if isinstance(body, dict) else None
        if not isinstance(secret, str) or len(secret) > 200 or not (join is None or isinstance(join, str)):
            return _error(400, "Pairing needs the link's secret.")
        seat_id = request.match_info["seat"]
        seat = self.book.seat(seat_id)
        if seat is not None and self.locks.locked(seat_id):
            return _error(423, "Joining this seat is locked after too many wrong links. Ask "
                               "the referee to open it again or for a new link.")
        if not self.book.opens(seat_id, secret):
            self._wrong_secrets.fail(client.address)
            if seat is not None and self.locks.wrong(seat_id, client.address):
                from .quiet_log import table_logger
                table_logger().warning("%s: joining %s's seat is locked after %d wrong links "
                                       "in %d minutes", client.address, seat.name,
                                       SEAT_LOCK_AFTER, FAILURE_WINDOW // 60)
                self._event({"kind": "locked", "seat": seat.name, "seat_id": seat_id,
                             "from": client.address})
            return _error(403, "This link is no longer valid. Ask the referee for a new one.")
        if join is not None:
            return self._asked_again(request, seat, join)
        if self.exposure.approve_joins:
            asked = self.joins.ask(seat_id, client.address,
                                   describe_device(request.headers.get("User-Agent", "")))
            if asked is None:
                return _error(429, "Too many devices are waiting for the referee; try again later.")
            self._event({"kind": "join", "join": asked.id, "seat": seat.name, "seat_id": seat_id,
                         "from": asked.source, "device": asked.device})
            return _json({"waiting": True, "join": asked.id,
                          "message": f"Waiting for the referee to let this device into "
                                     f"{seat.name}'s seat…"}, status=202)
        try:
            token = self.book.add_device(seat_id)
        except SeatFull as exc:  # issue 29: a ninth device is refused, never evicts one
            return _error(409, str(exc))
        self._event({"kind": "joined", "seat": seat.name, "seat_id": seat_id,
                     "from": client.address,
                     "device": describe_device(request.headers.get("User-Agent", ""))})
        return self._paired(request, seat_id, token)

    def _asked_again(self, request: web.Request, seat: Seat, join_id: str) -> web.Response:
        """A waiting device asking again (with the right secret): still waiting, let in (its
        token and cookie now), or turned away."""
        asked = self.joins.get(join_id)
        if asked is None or asked.seat_id != seat.id:
            return _error(410, "The question waited too long. Open the link again to ask once more.")
        if asked.state == ALLOWED and asked.token:
            self.joins.done(join_id)
            return self._paired(request, seat.id, asked.token)
        if asked.state == REFUSED:
            self.joins.done(join_id)
            return _error(403, "The referee did not let this device in.")
        return _json({"waiting": True, "join": asked.id,
                      "message": f"Waiting for the referee to let this device into "
                                 f"{seat.name}'s seat…"}, status=202)

    def _paired(self, request: web.Request, seat_id: str, token: str) -> web.Response:
        """The answer that gives a device its token: an HttpOnly, SameSite=Strict cookie of
        the seat's path, ``Secure`` whenever the page reached the device over HTTPS."""
        response = _json({"ok": True})
        response.set_cookie(COOKIE, token, path=f"/s/{seat_id}/", httponly=True,
                            samesite="Strict", max_age=60 * 60 * 24 * 30,
                            secure=request[CLIENT].https)
        self._saw(seat_id)
        self._seats_changed()
        return response

    # -- the referee's answers ------------------------------------------------------------
    def _event(self, event: dict) -> None:
        """Tell the referee (the window or ``serve``: ``on_event``; the referee's phones: a
        look at their seat list)."""
        self._seats_changed()
        if self.on_event is not None:
            try:
                self.on_event(event)
            except Exception as exc:  # the table goes on whatever a listener does
                from .quiet_log import table_logger
                table_logger().warning("a table event's listener failed: %s", exc)

    def _seats_changed(self) -> None:
        self._seats_rev += 1
        self._notify_all()

    def decide_join(self, join_id: str, allow: bool) -> concurrent.futures.Future:
        """The referee's answer to a waiting device (thread-safe): a future of the words
        saying what was done (RuleViolation-like refusals as ValueError)."""
        return self._on_loop(lambda: self._decide(join_id, allow))

    def open_joining(self, seat_id: str) -> concurrent.futures.Future:
        """Let a seat whose joining locked take new devices again (thread-safe)."""
        return self._on_loop(lambda: self._open(seat_id))

    def _on_loop(self, fn) -> concurrent.futures.Future:
        """``fn()`` run on the server's loop: a future of its result (or its exception)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            future: concurrent.futures.Future = concurrent.futures.Future()
            future.set_exception(ValueError("The table is not shared."))
            return future

        async def run():
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), loop)

    def _decide(self, join_id: str, allow: bool) -> str:
        asked = self.joins.get(join_id)
        seat = self.book.seat(asked.seat_id) if asked is not None else None
        if asked is None or seat is None or asked.state != WAITING_STATE:
            raise ValueError("That device is not waiting any more.")
        token = None
        if allow:
            try:
                token = self.book.add_device(seat.id)
            except SeatFull as exc:
                raise ValueError(str(exc)) from None
        self.joins.decide(join_id, allow, token)
        self._seats_changed()
        return (f"Let the device into {seat.name}'s seat." if allow
                else f"Turned the device away from {seat.name}'s seat.")

    def _open(self, seat_id: str) -> str:
        seat = self.book.seat(seat_id)
        if seat is None:
            raise ValueError("There is no such seat.")
        self.locks.open(seat_id)
        self._seats_changed()
        return f"{seat.name}'s seat takes new devices again."

    async def _joins(self, request: web.Request) -> web.Response:
        """The referee's phone answering a waiting device, or opening a locked seat
        (``{"join": id, "allow": bool}`` or ``{"open": seat id}``; the admin right)."""
        seat = self._seat(request)
        if seat is None:
            return _error(401, NOT_PAIRED)
        if not seat.may("admin"):
            return _error(403, "Only the referee's seat lets devices in.")
        body = await self._body(request)
        try:
            if isinstance(body, dict) and isinstance(body.get("join"), str) \
                    and isinstance(body.get("allow"), bool):
                message = self._decide(body["join"], body["allow"])
            elif isinstance(body, dict) and isinstance(body.get("open"), str):
                message = self._open(body["open"])
            else:
                return _error(400, "Answer a waiting device (join, allow) or open a seat (open).")
        except ValueError as exc:
            return _error(409, str(exc))
        return _json({"ok": True, "message": message})

    async def _state(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        if seat is None:
            return _error(401, NOT_PAIRED)
        return web.json_response(text=await self.view_text(seat))

    async def _boxes(self, request: web.Request) -> web.Response:
        """A ship's boxes as the seat's view lists them, at an address per revision (the
        view names it): a look at the table after one ship changed fetches that ship's
        boxes alone, not every box of every ship the seat sees."""
        found = self._seat_and_ship(request)
        if isinstance(found, web.Response):
            return found
        seat, snap, ship = found
        mine = seat.reads_private(ship)
        rendered = await self._render(snap, ship.id, not mine)
        text, packed = self._boxes_text(seat, ship, mine, rendered)
        return _per_revision(request, snap, rendered, text.encode("utf-8"), packed,
                             "application/json")

    async def _forms(self, request: web.Request) -> web.Response:
        """A ship's forms (its decisions open now), at an address per revision as its boxes
        are: a look at the table after another ship changed fetches none of them (the
        forms were most of every view a deciding seat was sent)."""
        found = self._seat_and_ship(request)
        if isinstance(found, web.Response):
            return found
        seat, snap, ship = found
        mine = seat.reads_private(ship)
        if not (mine and DECIDE in seat.allowed):
            return _error(404, "There are no forms of that ship at your seat.")
        rendered = await self._render(snap, ship.id, not mine)
        text, packed = self._forms_text(ship.id, rendered)
        return _per_revision(request, snap, rendered, text.encode("utf-8"), packed,
                             "application/json")

    def _forms_text(self, ship_id: str, sheet: RenderedSheet) -> tuple[str, bytes]:
        """The ship's forms as JSON text in the phone's words, and gzipped (once a sheet).
        Each form's text is kept with it: a change most often moves one of a ship's forms
        (a tap moves the turn-state form's list of boxes, not the standing orders), and the
        others are not put in the phone's words and written again."""
        texts = self._texts(ship_id, False, sheet)
        found = texts.get("forms")
        if found is None:
            last = self._last_forms.get(ship_id)
            if last is not None and last[0] == sheet.forms:  # most changes leave them be
                found = last[1]
            else:
                before = last[2] if last is not None else ()
                written = tuple(
                    before[i] if i < len(before) and before[i][0] == form
                    else (form, _dumps(form_for_device(form, PHONE)))
                    for i, form in enumerate(sheet.forms))
                text = f"[{', '.join(form_text for _form, form_text in written)}]"
                found = (text, gzip.compress(text.encode("utf-8"), GZIP_LEVEL))
                keep(self._last_forms, ship_id, (sheet.forms, found, written), KEPT_SHIP_TEXTS)
            texts["forms"] = found
        return found

    async def _sheet(self, request: web.Request) -> web.Response:
        found = self._seat_and_ship(request)
        if isinstance(found, web.Response):
            return found
        seat, snap, ship = found
        rendered = await self._render(snap, ship.id, not seat.owns(ship))
        return _per_revision(request, snap, rendered, rendered.svg, rendered.svg_gzip,
                             "image/svg+xml")

    def _seat_and_ship(self, request: web.Request):
        """(seat, snapshot, ship) of a request for one ship's drawing or boxes, or the
        refusal: not paired (401), or no ship the seat sees (404)."""
        seat = self._seat(request)
        if seat is None:
            return _error(401, NOT_PAIRED)
        snap = self._snapshot
        ship = snap.ship(request.match_info["ship"])
        if ship is None or not seat.sees(ship):
            return _error(404, "There is no such ship at your seat.")
        self._seen[seat.id].showed(ship.id)  # seen just now (``_seat``)
        return seat, snap, ship

    async def _act(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        if seat is None:
            return _error(401, NOT_PAIRED)
        if not self._seat_limit.allow(seat.id):
            return _error(429, "Too many requests from this seat; slow down.")
        body = await self._body(request)
        resolved = await self._resolve(seat, body)
        future = self.authority.call(lambda: (self.host.handle(seat, body, resolved),
                                              self.host.durable()))
        try:
            (status, answer), durable = await asyncio.wait_for(asyncio.wrap_future(future),
                                                               REQUEST_TIMEOUT)
            # Answered only once the change is on disk (the journal): what a phone is told
            # was applied survives a crash of the referee's ShipSheet.
            unsaved = "" if durable is None else await asyncio.wait_for(
                asyncio.wrap_future(durable), REQUEST_TIMEOUT)
        except asyncio.TimeoutError:
            return _error(503, "The referee's ShipSheet is busy (a dialog may be open); try again.")
        seat = self.book.seat(seat.id) or seat
        answer = dict(answer)
        for words in ("message", "error"):  # the rules' words, with the phone's verbs
            if isinstance(answer.get(words), str):
                answer[words] = for_device(answer[words], PHONE)
        if unsaved and answer.get("ok"):
            answer["message"] = (f"{answer.get('message', '')} (Applied, but the referee's "
                                 f"ShipSheet could not write it to disk: {unsaved}.)").strip()
        answer.pop("state", None)
        # The answer with the seat's view as its "state", last.
        head = _dumps(answer)[:-1] + (", " if answer else "")
        text = head + '"state": ' + await self.view_text(seat) + "}"
        return web.json_response(text=text, status=status)

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        if seat is None:
            return _error(401, "Not paired.")
        seen = self._saw(seat.id)
        if len(seen.sockets) >= MAX_SOCKETS:
            return _error(429, "Too many connections for this seat; close a tab.")
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=4096)
        await ws.prepare(request)
        seen.sockets.add(ws)
        try:
            message = self._signature(seat)
            seen.sent = message
            await self._send(ws, message)
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                seen.last_seen = time.time()
                if self.book.by_token(seat.id, request.cookies.get(COOKIE)) is None:
                    break
                ping = _ping(msg.data)
                if ping is not None:  # the page times how far behind it is (PROTOCOL.md)
                    await self._send(ws, {"type": "pong", "t": ping})
        finally:
            seen.sockets.discard(ws)
        return ws

    # -- what a seat sees -------------------------------------------------------------
    async def view_text(self, seat: Seat) -> str:
        """The seat's view (PROTOCOL.md) as JSON text: ``json.dumps`` of it, made from each
        ship's text kept for its sheet (most of a view, the same in every look)."""
        snap = self._snapshot
        # ``mine``: the seat decides for the ship and reads its owner's private decisions.
        ships = [(ship, seat.reads_private(ship)) for ship in self._visible(seat)]
        # A seat's own ships are drawn (its phones show one of them); the others' public
        # sheets are measured (drawn when asked for: a seat shows one ship).
        pending = [self._render(snap, ship.id) if mine else self._measure(snap, ship.id, True)
                   for ship, mine in ships]
        # Most looks find every sheet drawn or measured already: no gathering then.
        rendered = ([f.result() for f in pending] if all(f.done() for f in pending)
                    else await asyncio.gather(*pending))
        out_ships = [self._ship_text(seat, snap.epoch, ship, mine, sheet)
                     for (ship, mine), sheet in zip(ships, rendered)]
        head = _dumps({"epoch": snap.epoch,
                       "seat": {"id": seat.id, "name": seat.name, "role": seat.role,
                                "rights": sorted(seat.allowed)},
                       "session": snap.session_json()})
        tail = _dumps({"undo": snap.undo_name if seat.may("undo") else None,
                       "undo_step": snap.undo_step if seat.may("undo") else 0,
                       "seats": self._seats_json(seat),
                       "notice": self.host.notice})
        log = self._log_text(snap, {ship.id: ship.name for ship, _mine in ships},
                             frozenset(ship.id for ship, mine in ships if mine))
        return f'{head[:-1]}, "ships": [{", ".join(out_ships)}], "log": {log}, {tail[1:]}'

    def _log_text(self, snap: Snapshot, names: dict[str, str], mine: frozenset[str]) -> str:
        """The log lines a seat is sent, as JSON text: the same for every seat that sees and
        owns the same ships, made once per snapshot (every phone looks after each change)."""
        key = (snap.seq, tuple(sorted(names.items())), mine)
        kept = self._log_texts.get(key)
        if kept is None:
            if self._log_texts and next(iter(self._log_texts))[0] != snap.seq:
                self._log_texts.clear()  # an older snapshot's: no look asks for it again
            lines = None
            if snap is self._snapshot and len(names) <= FEW_SHIPS:
                self._log_index.update(snap.log)  # once a snapshot: its new lines
                lines = self._log_index.newest(names)
            kept = self._log_texts[key] = _log_json_text(snap, names, set(mine), lines)
        return kept

    def _texts(self, ship_id: str, public: bool, sheet: RenderedSheet) -> dict:
        """What is kept as text for the ship's latest sheet (its boxes for each rights and
        ship name, gzipped too; its forms), shared by every seat that sees it so."""
        kept = self._sheet_texts.get((ship_id, public))
        if kept is None or kept[0] is not sheet:
            kept = self._sheet_texts[(ship_id, public)] = (sheet, {})
        return kept[1]

    def _boxes_text(self, seat: Seat, ship, mine: bool, sheet: RenderedSheet) -> tuple[str, bytes]:
        """The ship's boxes as the seat's view lists them (PROTOCOL.md): JSON text, gzipped."""
        texts = self._texts(ship.id, not mine, sheet)
        rights = seat.allowed if mine else frozenset()
        found = texts.get((rights, ship.name))
        if found is None:
            text = sheet.areas_text(rights, ship.name)
            found = texts[(rights, ship.name)] = (text, gzip.compress(text.encode("utf-8"),
                                                                      GZIP_LEVEL))
        return found

    def _ship_text(self, seat: Seat, epoch: str, ship, mine: bool,
                   sheet: RenderedSheet | SheetSize) -> str:
        """One ship of the seat's view as JSON text. Its boxes (most of a sheet's text) are
        not in it but at their own address, fetched once per revision (``_boxes``); its
        forms are at their own address per revision too (``_forms``), named here. Kept for
        the seat until something it says moves: a seat that sees fifty ships looks after
        every change of any of them."""
        rights = seat.allowed if mine else frozenset()
        says = (epoch, mine, rights, ship.name, ship.ship_class.name, ship.side, sheet.rev,
                sheet.width, sheet.height, DECIDE in rights and bool(sheet.forms))
        kept = self._ship_texts.get((seat.id, ship.id))
        if kept is not None and kept[0] == says:
            return kept[1]
        text = self._ship_text_made(seat, epoch, ship, mine, rights, sheet)
        keep(self._ship_texts, (seat.id, ship.id), (says, text), KEPT_SHIP_TEXTS)
        return text

    @staticmethod
    def _ship_text_made(seat: Seat, epoch: str, ship, mine: bool, rights: frozenset[str],
                        sheet: RenderedSheet | SheetSize) -> str:
        version = f"{epoch}-{sheet.rev}"
        forms = "[]"
        if DECIDE in rights and sheet.forms:
            forms = _dumps(f"/s/{seat.id}/api/forms/{ship.id}/{version}.json")
        head = _dumps({
            "id": ship.id, "name": ship.name, "class": ship.ship_class.name, "side": ship.side,
            "rev": sheet.rev, "mine": mine,
            "svg": f"/s/{seat.id}/api/sheet/{ship.id}/{version}.svg",
            "boxes": f"/s/{seat.id}/api/boxes/{ship.id}/{version}.json",
            "width": sheet.width, "height": sheet.height})
        return f'{head[:-1]}, "forms": {forms}}}'

    def _seats_json(self, seat: Seat) -> list:
        """For the referee's seat (admin): every seat, whether a phone is on it, so a seat
        can be given a new link from the phone. Nobody else is told of other seats."""
        if not seat.may("admin"):
            return []
        out = []
        now = time.monotonic()
        for other in list(self.book.seats):
            seen = self._seen.get(other.id)
            out.append({"id": other.id, "name": other.name, "role": other.role,
                        "connected": len(seen.sockets) if seen else 0,
                        "self": other.id == seat.id, "locked": self.locks.locked(other.id),
                        "waiting": [asked.to_json(now) for asked in self.joins.waiting(other.id)]})
        return out


def _log_json_text(snap: Snapshot, names: dict[str, str], mine: set[str],
                   lines: Iterable | None = None) -> str:
    """The log lines a seat is sent, newest last (PROTOCOL.md), as JSON text: those of its
    ships (``names``: ship id -> name) and the session's own, the last LOG_LINES of them,
    each as the seat may read it (``model.privacy.seen_text``: the lines of the ships in
    ``mine`` whole, a private decision of another's ship in its public wording or not at
    all). Each line's text is kept by what it says (``_line_text``): a look after a change
    has one new line, not two hundred. ``lines``: the snapshot's lines of those ships and
    of none, newest first (``LogIndex.newest``); else its whole log is read."""
    shown = []
    for e in reversed(snap.log) if lines is None else lines:  # newest first, to LOG_LINES
        if not (e.ship in names if e.ship else e.kind in SESSION_LOG_KINDS):
            continue
        text = seen_text(snap.session, e, owner=e.ship is None or e.ship in mine)
        if text is not None:
            shown.append(_line_text(e.turn, e.phase, names[e.ship] if e.ship else None, text,
                                    e.kind, e.undone))
            if len(shown) == LOG_LINES:
                break
    shown.reverse()
    return f"[{', '.join(shown)}]"


#: Log lines' JSON texts kept (``_line_text``), at most this many; then kept afresh.
KEPT_LINE_TEXTS = 20_000
_line_texts: dict[tuple, str] = {}


def _line_text(turn, phase, ship_name, text: str, kind: str, undone: bool) -> str:
    """One log line as a seat's view lists it (PROTOCOL.md), as JSON text, kept by all it
    says (on the server's loop)."""
    key = (turn, phase, ship_name, text, kind, undone)
    found = _line_texts.get(key)
    if found is None:
        found = keep(_line_texts, key, _dumps({"turn": turn, "phase": phase, "ship": ship_name,
                                               "text": for_device(text, PHONE), "kind": kind,
                                               "undone": undone}), KEPT_LINE_TEXTS)
    return found

"""A phone for the tests: plain HTTP requests (urllib) from another thread, while the test's
own thread runs Qt's event loop — the referee's app, which must answer them."""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.cookiejar
import json
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import aiohttp

from shipsheet.model.games import piece
from shipsheet.share import SeatBook, TableLink
from shipsheet.share.authority import QtAuthority

_pool = concurrent.futures.ThreadPoolExecutor(16, thread_name_prefix="phone")


def wait(qtbot, fn, timeout=15000):
    """Run ``fn`` on a phone thread while Qt runs here; its result (or its exception)."""
    future = _pool.submit(fn)
    qtbot.waitUntil(future.done, timeout=timeout)
    return future.result()


class Phone:
    """One browser: a cookie jar, the link's origin, JSON in and out."""

    def __init__(self, link_url: str, *, origin: str | None = None, host: str | None = None,
                 context=None, user_agent: str | None = None):
        """``context``: the ``ssl.SSLContext`` trusting the table's certificate (HTTPS);
        ``user_agent``: what the phone says it is (a device waiting for the referee is shown
        by it)."""
        parts = urlsplit(link_url)
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.seat_path = parts.path  # /s/SEAT/
        self.secret = parts.fragment.removeprefix("k=")
        self.origin = origin if origin is not None else self.base
        self.host = host
        self.jar = http.cookiejar.CookieJar()
        self.context = context
        self.user_agent = user_agent
        handlers = [urllib.request.HTTPCookieProcessor(self.jar)]
        if context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=context))
        self.opener = urllib.request.build_opener(*handlers)

    def request(self, method: str, path: str, body=None, *, raw: bytes | None = None,
                headers: dict | None = None):
        """(status, parsed JSON or bytes, headers)."""
        url = self.base + (path if path.startswith("/") else self.seat_path + path)
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(url, data=data, method=method)
        if self.origin:
            req.add_header("Origin", self.origin)
        if self.host:
            req.add_header("Host", self.host)
        if self.user_agent:
            req.add_header("User-Agent", self.user_agent)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with self.opener.open(req, timeout=10) as resp:
                status, payload, hdrs = resp.status, resp.read(), resp.headers
        except urllib.error.HTTPError as exc:
            status, payload, hdrs = exc.code, exc.read(), exc.headers
        if hdrs.get("Content-Type", "").startswith("application/json"):
            if hdrs.get("Content-Encoding") == "gzip":  # as a browser reads it
                import gzip
                payload = gzip.decompress(payload)
            return status, json.loads(payload), hdrs
        return status, payload, hdrs

    def pair(self, secret: str | None = None, *, join: str | None = None, headers=None):
        body = {"secret": self.secret if secret is None else secret}
        if join is not None:  # a device waiting for the referee's yes, asking again
            body["join"] = join
        return self.request("POST", "api/pair", body, headers=headers)

    def state(self):
        """The seat's view, each ship with its boxes (``areas``) fetched from their address,
        as the page does."""
        status, view, headers = self.request("GET", "api/state")
        return status, self.with_boxes(view), headers

    def with_boxes(self, view):
        """``view`` with each ship's boxes (``areas``) fetched from its ``boxes`` address."""
        if isinstance(view, dict):
            for ship in view.get("ships", []):
                if isinstance(ship.get("boxes"), str):
                    status, areas, _ = self.request("GET", ship["boxes"])
                    assert status == 200, (status, areas)
                    ship["areas"] = areas
                if isinstance(ship.get("forms"), str):  # its forms' address, as the page reads it
                    status, forms, _ = self.request("GET", ship["forms"])
                    assert status == 200, (status, forms)
                    ship["forms"] = forms
        return view

    def act(self, state: dict, ship: dict, **fields):
        import secrets
        headers = fields.pop("headers", None)
        body = {"id": fields.pop("id", secrets.token_urlsafe(12)), "epoch": state["epoch"],
                "ship": ship["id"], "rev": ship["rev"], **fields}
        status, answer, headers = self.request("POST", "api/act", body, headers=headers)
        if isinstance(answer, dict) and "state" in answer:
            self.with_boxes(answer["state"])
        return status, answer, headers

    def cookie(self) -> str | None:
        return next((c.value for c in self.jar), None)

    async def _listen(self, count: int, timeout: float):
        headers = {"Origin": self.origin}
        cookies = {c.name: c.value for c in self.jar}
        url = self.base.replace("http", "ws") + self.seat_path + "api/ws"
        got = []
        async with aiohttp.ClientSession(cookies=cookies) as http:
            async with http.ws_connect(url, headers=headers,
                                       **({"ssl": self.context} if self.context else {})) as ws:
                while len(got) < count:
                    msg = await asyncio.wait_for(ws.receive(), timeout)
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        got.append({"closed": msg.type.name, "code": ws.close_code})
                        break
                    got.append(json.loads(msg.data))
        return got


def listen(phone: Phone, count: int, timeout: float = 10.0) -> concurrent.futures.Future:
    """Open the phone's live connection in the background; the first ``count`` messages."""
    return _pool.submit(lambda: asyncio.run(phone._listen(count, timeout)))


def share(session, *, seats=(), port=None, apply=None, path=None, exposure=None):
    """A running TableLink on 127.0.0.1 for ``session`` with seats [(name, role, sides, ships)]
    (the seats of the session file ``path``; None: an unsaved session's, in memory only),
    reached as ``exposure`` says (None: at the table, plain HTTP)."""
    book = SeatBook(session.uid, path=path)
    made = [book.add(name, role, sides=sides, ships=ships) for name, role, sides, ships in seats]
    authority = QtAuthority()
    link = TableLink(session, book, authority, apply or session.apply, session.undo)
    if exposure is not None:
        link.exposure = exposure
    link.start(["127.0.0.1"], port)
    link._keep = authority
    return link, made


def sample(game: str):
    return piece(game, "sample")()

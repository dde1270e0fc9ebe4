"""The player's page (shipsheet/share/static/) in a real headless Chromium, phone-sized,
against a small fake of the Table Link server that follows PROTOCOL.md with canned views
and a hand-written sheet SVG, and records every request the page makes.

Checks pairing (the secret leaves the address bar), the drawn sheet with one real button
per area, taps, refusals, the long-press menu, forms, the log, live updates over the
WebSocket, reconnecting, a retried request keeping its id, revocation, the referee's seat
(undo, next phase/turn, new links), the phone layout,
and that the page runs under the server's Content-Security-Policy without a violation."""

from __future__ import annotations

import asyncio
import copy
import json
import re
import threading
import time
from pathlib import Path

import pytest
from aiohttp import WSMsgType, web
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

# The page's files, run under the real server's policy.
from shipsheet.share.server import CSP, STATIC

from .browser import Console, screenshot

SEAT = "Seat4bX9_k2Q"
RED = "SeatRed_0001"
WATCHER = "SeatWatch_01"
SECRET = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3I"
TOKEN = "device-token-for-the-tests"
COOKIE = "shipsheet_seat"
INVALID = "This link is no longer valid. Ask the referee for a new one."
REFUSAL = "Phaser 1 fired this turn; it may not fire again until turn 4."
W, H = 200, 120

# A sheet as the sheet painter draws it (Qt's SVG), plus what a hostile one could carry.
SVG = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<svg width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg"
     xmlns:xlink="http://www.w3.org/1999/xlink" version="1.2" baseProfile="tiny">
<title>Qt SVG Document</title>
<desc>Generated with Qt</desc>
<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>
<g fill="none" stroke="#000000" font-family="DejaVu Sans,Noto Sans,Noto Sans CJK SC,Arial Unicode MS,Arial" font-size="9">
<text fill="#000000" stroke="none" x="8" y="16" font-size="13" font-weight="700">{name} r{rev}</text>
<text fill="#000000" stroke="none" x="8" y="44">Drive</text>
<rect x="60" y="32" width="16" height="16"/>
<rect x="80" y="32" width="16" height="16"/>
<rect x="100" y="32" width="16" height="16"/>
{marks}
<text fill="#000000" stroke="none" x="8" y="84">Phaser 1</text>
<rect id="styled" x="60" y="72" width="16" height="16" style="fill:#cc0000;stroke:#000000"/>
<rect x="140" y="72" width="16" height="16" onclick="window.__pwned = 'onclick'"/>
<a xlink:href="javascript:window.__pwned='link'"><text x="8" y="110" fill="#000000" stroke="none">link</text></a>
<image x="150" y="5" width="10" height="10" xlink:href="http://example.invalid/x.png"/>
</g>
<script>window.__pwned = 'script';</script>
<foreignObject x="0" y="0" width="50" height="20"><div xmlns="http://www.w3.org/1999/xhtml">foreign</div></foreignObject>
</svg>
"""


def _font(bold: bool) -> Path:
    """The bundled font, as the real server serves it."""
    from shipsheet.sheets.fonts import font_path
    return font_path(bold)


class FakeServer:
    """The protocol's HTTP side for one seat, canned; runs its own loop in a thread."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.epoch = "k3J9x0"
        self.turn, self.phase = 3, "Combat"
        self.revs = {"res": 7, "vig": 2}
        self.marked: set[int] = set()
        self.log = [
            {"turn": 3, "phase": "Energy", "ship": "", "text": "Turn 3 begins", "kind": "turn", "undone": False},
            {"turn": 3, "phase": "Combat", "ship": "Resolute", "text": "Phaser 2 fired", "kind": "action",
             "undone": True},
            {"turn": 3, "phase": "Combat", "ship": "Resolute", "text": "Drive box 1 marked", "kind": "action",
             "undone": False},
        ]
        self.pairs: list[dict] = []
        self.acts: list[dict] = []
        self.answers: dict[str, tuple[int, dict]] = {}
        self.state_gets = 0
        self.svg_gets: list[str] = []
        self.static_gets: list[str] = []
        # The boxes at an address per revision, as the real server names them (PROTOCOL.md),
        # and the fetches of them; ``boxes_held``: their answers wait until it is set.
        self.box_addresses = False
        self.box_gets: list[str] = []
        self.boxes_held: asyncio.Event | None = None
        self.fail_next_acts = 0
        self.refuse_ws = False
        self.sockets: set[web.WebSocketResponse] = set()
        self.ws_opened = 0
        self.track_unset = False  # the recovery form's required choice has no value yet
        self.referee = False  # the seat is the referee's (it may undo, step the phase, renew links)
        self.seats = [{"id": SEAT, "name": "Referee", "role": "referee", "connected": 1, "self": True},
                      {"id": RED, "name": "Red", "role": "player", "connected": 2, "self": False},
                      {"id": WATCHER, "name": "Watcher", "role": "spectator", "connected": 1,
                       "self": False}]

    # -- the view ---------------------------------------------------------------
    def areas(self):
        areas = []
        for n in (1, 2, 3):
            marked = n in self.marked
            areas.append({"key": f"drive.{n}", "x": 40 + 20 * n, "y": 32, "w": 16, "h": 16,
                          "label": f"Drive box {n} — {'marked' if marked else 'unmarked'}. Tap: mark it.",
                          "tap": True, "refusal": None,
                          "menu": [{"index": 0, "label": "Correct mark"},
                                   {"index": 1, "label": "Mark as destroyed"}] if n == 1 else []})
        areas.append({"key": "phaser.1", "x": 60, "y": 72, "w": 16, "h": 16,
                      "label": "Phaser 1 — fired.", "tap": False, "refusal": REFUSAL, "menu": []})
        return areas

    def ship(self, sid, name, mine, forms):
        rev = self.revs[sid]
        ship = {"id": sid, "name": name, "class": "Heavy Cruiser", "side": "Blue", "rev": rev,
                "mine": mine, "svg": f"/s/{SEAT}/api/sheet/{sid}/{self.epoch}-{rev}.svg",
                "width": W, "height": H, "areas": self.areas(), "forms": forms}
        if self.box_addresses:
            del ship["areas"]
            ship["boxes"] = f"/s/{SEAT}/api/boxes/{sid}/{self.epoch}-{rev}.json"
        return ship

    def view(self):
        recovery = {
            "kind": "recovery", "title": "Recovery", "text": "Choose the track to recover from.",
            "fields": [
                {"name": "track", "label": "Recover from", "type": "choice",
                 "options": [{"value": "drive", "label": "Drive (D2)"},
                             {"value": "weapons", "label": "Weapons (W1)"}],
                 "value": None if self.track_unset else "drive"},
                {"name": "roll", "label": "Die", "type": "int", "min": 1, "max": 6, "value": None,
                 "optional": True},
                {"name": "helper", "label": "Helped by", "type": "choice",
                 "options": [{"value": "vig", "label": "Vigilant"}, {"value": "bas", "label": "Bastion"}],
                 "value": None, "optional": True},
                {"name": "announce", "label": "Announce Damage Control", "type": "bool", "value": False},
                {"name": "note", "label": "Note", "type": "text", "max": 80, "value": ""}],
            "submit": "Choose"}
        seat = {"id": SEAT, "name": "Blue", "role": "player", "rights": ["view", "decide"]}
        undo = None
        if self.referee:
            seat = {"id": SEAT, "name": "Referee", "role": "referee",
                    "rights": ["admin", "decide", "mark", "undo", "view"]}
            undo = next((l["text"] for l in reversed(self.log) if l["kind"] == "action" and not l["undone"]),
                        None)
        return {"epoch": self.epoch, "seat": seat,
                "session": {"title": "Battle of Tau Ceti", "game": "fedcom",
                            "game_title": "Federation Commander", "turn": self.turn,
                            "phase": self.phase, "phases": ["Energy", "Movement", "Combat"]},
                "ships": [self.ship("res", "Resolute", True, [recovery]),
                          self.ship("vig", "Vigilant", True, [])],
                "log": copy.deepcopy(self.log), "undo": undo, "undo_step": 7 if undo else 0,
                "seats": copy.deepcopy(self.seats) if self.referee else []}

    # -- the server ---------------------------------------------------------------
    def start(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.call(self._start())
        self.url = f"http://127.0.0.1:{self.port}/s/{SEAT}/"

    def call(self, coro, timeout=10):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self):
        self.call(self._close_all())
        self.call(self.runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    async def _start(self):
        @web.middleware
        async def headers(request, handler):
            resp = await handler(request)
            resp.headers["Content-Security-Policy"] = CSP
            resp.headers.setdefault("Cache-Control", "no-store")
            return resp

        app = web.Application(middlewares=[headers])
        app.router.add_get("/s/{seat}/", self.page)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_post("/s/{seat}/api/pair", self.pair)
        app.router.add_get("/s/{seat}/api/state", self.state)
        app.router.add_get("/s/{seat}/api/sheet/{ship}/{name}", self.sheet)
        app.router.add_get("/s/{seat}/api/boxes/{ship}/{name}", self.boxes)
        app.router.add_post("/s/{seat}/api/act", self.act)
        app.router.add_get("/s/{seat}/api/ws", self.ws)
        self.runner = web.AppRunner(app, access_log=None, shutdown_timeout=1)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    def authorised(self, request):
        return request.match_info["seat"] == SEAT and request.cookies.get(COOKIE) == TOKEN

    async def page(self, request):
        return web.Response(body=(STATIC / "page.html").read_bytes(), content_type="text/html", charset="utf-8")

    async def static(self, request):
        name = request.match_info["name"]
        self.static_gets.append(name)
        files = {"page.js": (STATIC / "page.js", "text/javascript"),
                 "page.css": (STATIC / "page.css", "text/css"),
                 "sheet-sans.ttf": (_font(False), "font/ttf"),
                 "sheet-sans-bold.ttf": (_font(True), "font/ttf")}
        path, kind = files.get(name, (None, None))
        if path is None:
            raise web.HTTPNotFound()
        return web.Response(body=path.read_bytes(), content_type=kind)

    async def pair(self, request):
        body = await request.json()
        self.pairs.append(body)
        if body.get("secret") != SECRET:
            return web.json_response({"ok": False, "error": "This link is not valid."}, status=403)
        resp = web.json_response({"ok": True})
        resp.set_cookie(COOKIE, TOKEN, path=f"/s/{SEAT}/", httponly=True, samesite="Strict")
        return resp

    async def state(self, request):
        if not self.authorised(request):
            return web.json_response({"ok": False, "error": "Not paired."}, status=401)
        self.state_gets += 1
        return web.json_response(self.view())

    async def sheet(self, request):
        if not self.authorised(request):
            raise web.HTTPNotFound()
        sid, name = request.match_info["ship"], request.match_info["name"]
        self.svg_gets.append(f"{sid}/{name}")
        marks = "".join(f'<path d="M{40 + 20 * n} 48 L{56 + 20 * n} 32" stroke="#000000" stroke-width="2"/>'
                        for n in sorted(self.marked))
        text = SVG.format(w=W, h=H, rev=self.revs[sid], marks=marks,
                          name={"res": "Resolute", "vig": "Vigilant"}[sid])
        return web.Response(text=text, content_type="image/svg+xml")

    async def boxes(self, request):
        if not self.authorised(request):
            raise web.HTTPNotFound()
        self.box_gets.append(f"{request.match_info['ship']}/{request.match_info['name']}")
        if self.boxes_held is not None:
            await self.boxes_held.wait()
        return web.json_response(self.areas())

    async def act(self, request):
        if not self.authorised(request):
            return web.json_response({"ok": False, "error": "Not paired."}, status=401)
        body = await request.json()
        self.acts.append(body)
        if self.fail_next_acts:
            # The connection drops before any answer: the phone does not know what happened.
            self.fail_next_acts -= 1
            request.transport.abort()
            await asyncio.sleep(0.05)
            raise asyncio.CancelledError()
        if body["id"] in self.answers:
            status, answer = self.answers[body["id"]]
            return web.json_response(answer, status=status)
        status, answer = self.apply(body)
        self.answers[body["id"]] = (status, answer)
        return web.json_response(answer, status=status)

    def apply(self, body):
        if body.get("kind") == "undo" and body.get("epoch") == self.epoch:
            line = next((l for l in reversed(self.log) if l["kind"] == "action" and not l["undone"]), None)
            if not self.referee or line is None:
                return 403, {"ok": False, "error": "Only the referee's seat may undo.", "state": self.view()}
            line["undone"] = True
            self.revs["res"] += 1
            return 200, {"ok": True, "message": f"Undone: {line['text']}", "state": self.view()}
        if body.get("kind") in ("phase", "revoke") and body.get("epoch") == self.epoch:
            if not self.referee:
                return 403, {"ok": False, "error": "Only the referee's seat may do that.", "state": self.view()}
            if body["kind"] == "phase":
                phases = self.view()["session"]["phases"]
                if body.get("step") == "turn" or self.phase == phases[-1]:
                    self.turn, self.phase = self.turn + 1, phases[0]
                    message = "Next turn" if body.get("step") == "turn" else "Next phase"
                else:
                    self.phase = phases[phases.index(self.phase) + 1]
                    message = "Next phase"
                self.log.append({"turn": self.turn, "phase": self.phase, "ship": "", "text": message,
                                 "kind": "phase", "undone": False})
                return 200, {"ok": True, "message": message, "state": self.view()}
            seat = next((s for s in self.seats if s["id"] == body.get("seat") and not s["self"]), None)
            if seat is None:
                return 404, {"ok": False, "error": "There is no such seat.", "state": self.view()}
            seat["connected"] = 0
            return 200, {"ok": True, "message": f"New link for {seat['name']}: their phones are closed out.",
                         "state": self.view()}
        sid = body.get("ship")
        if body.get("epoch") != self.epoch or self.revs.get(sid) != body.get("rev"):
            return 409, {"ok": False, "error": "The sheet changed meanwhile; here it is now.",
                         "state": self.view()}
        kind = body.get("kind")
        if kind == "tap":
            n = int(body["key"].split(".")[1])
            if n in self.marked:
                return 422, {"ok": False, "error": f"Drive box {n} is already marked.", "state": self.view()}
            self.marked.add(n)
            message = f"Mark drive box {n}"
        elif kind == "menu":
            message = ["Correct mark", "Mark as destroyed"][body["index"]]
        elif kind == "decide":
            message = f"Recovery: {body['values']['track']}"
        else:
            return 422, {"ok": False, "error": "Unknown request.", "state": self.view()}
        self.revs[sid] += 1
        self.log.append({"turn": self.turn, "phase": self.phase, "ship": "Resolute", "text": message,
                         "kind": "action", "undone": False})
        return 200, {"ok": True, "message": message, "state": self.view()}

    async def ws(self, request):
        if not self.authorised(request):
            return web.json_response({"ok": False, "error": "Not paired."}, status=401)
        if self.refuse_ws:
            return web.json_response({"ok": False, "error": "Busy."}, status=503)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.add(ws)
        self.ws_opened += 1
        try:
            async for msg in ws:
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.sockets.discard(ws)
        return ws

    async def _send(self, message):
        for ws in list(self.sockets):
            await ws.send_str(json.dumps(message))

    async def _close_all(self):
        for ws in list(self.sockets):
            await ws.close()

    def push(self, message):
        self.call(self._send(message))

    def drop_sockets(self):
        self.call(self._close_all())


@pytest.fixture(scope="module")
def fake():
    server = FakeServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def page(browser, fake):
    fake.reset()
    return Page(browser, fake)


class Page:
    def __init__(self, driver, fake):
        self.driver = driver
        self.fake = fake
        self.console = Console(driver)
        self.console.read()  # what earlier tests left

    def open(self, fragment=f"#k={SECRET}", ready=True):
        self.driver.get("about:blank")  # a fresh page, not a same-document fragment change
        self.driver.get(self.fake.url + fragment)
        if ready:
            self.until(lambda d: self.js("return document.querySelectorAll('#ships .ship:not([hidden]) .area').length") == 4
                       and self.js("return !!document.querySelector('.ship:not([hidden]) svg.sheet-svg')"))
            self.until(lambda d: self.text("conn") == "Live")
            # The state again once listening (what changed before the socket opened).
            self.until(lambda d: self.fake.state_gets >= 2)
        return self

    def until(self, predicate, timeout=6, message=""):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(predicate, message)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def text(self, element_id):
        return self.js("var e = document.getElementById(arguments[0]); return e ? e.textContent : null;", element_id)

    def area(self, key):
        return self.driver.find_element(By.CSS_SELECTOR, f'.ship:not([hidden]) button.area[data-key="{key}"]')

    def open_menu(self):
        """Open the header's menu (the seat, the referee's controls) with a tap on it."""
        if not self.js("return document.getElementById('more').open"):
            self.driver.find_element(By.ID, "more-summary").click()
        self.until(lambda d: self.js("return document.getElementById('more').open"))

    def toast(self, expected, timeout=6):
        self.until(lambda d: self.text("toast") == expected, timeout,
                   f"live region never said {expected!r} (it says {self.text('toast')!r})")

    def assert_clean(self):
        assert self.console.csp_violations() == [], "\n".join(self.console.csp_violations())
        assert self.console.script_errors() == []


def test_pairing_drops_the_secret_and_draws_the_sheet_with_a_button_per_area(page):
    fake = page.fake
    page.open()
    assert fake.pairs == [{"secret": SECRET}]
    # The secret left the address bar and the history entry.
    assert page.js("return location.hash") == ""
    assert SECRET not in page.driver.current_url and page.driver.current_url == fake.url
    assert page.text("session-title") == "Battle of Tau Ceti"
    assert page.text("game") == "Federation Commander"
    assert page.text("turn") == "Turn 3 · Combat"
    assert page.text("seat-name") == "Blue"

    buttons = page.js("""return Array.from(document.querySelectorAll('.ship:not([hidden]) .area')).map(b => {
        const s = b.parentNode.getBoundingClientRect(), r = b.getBoundingClientRect();
        return {tag: b.tagName, key: b.dataset.key, label: b.getAttribute('aria-label'),
                disabled: b.getAttribute('aria-disabled'), popup: b.getAttribute('aria-haspopup'),
                x: (r.left - s.left) / s.width, y: (r.top - s.top) / s.height,
                w: r.width / s.width, h: r.height / s.height, tab: b.tabIndex};});""")
    areas = fake.areas()
    assert [b["key"] for b in buttons] == [a["key"] for a in areas]
    for b, a in zip(buttons, areas):
        assert b["tag"] == "BUTTON" and b["label"] == a["label"] and b["tab"] == 0
        assert b["disabled"] == (None if a["tap"] else "true")
        assert b["x"] == pytest.approx(a["x"] / W, abs=0.005) and b["y"] == pytest.approx(a["y"] / H, abs=0.005)
        assert b["w"] == pytest.approx(a["w"] / W, abs=0.005) and b["h"] == pytest.approx(a["h"] / H, abs=0.005)
    assert buttons[0]["popup"] and not buttons[1]["popup"]

    # The sheet is the SVG itself in the page (so it uses the page's font), cleaned.
    svg = page.js("""const svg = document.querySelector('.ship:not([hidden]) svg.sheet-svg');
        return {inPage: svg.ownerDocument === document, scripts: svg.querySelectorAll('script').length,
                foreign: svg.getElementsByTagName('foreignObject').length,
                titles: svg.querySelectorAll('title').length,
                handlers: Array.from(svg.querySelectorAll('*')).filter(e => Array.from(e.attributes)
                          .some(a => a.name.startsWith('on') || /javascript:|example\\.invalid/.test(a.value))).length,
                text: svg.textContent, styledFill: getComputedStyle(svg.querySelector('#styled')).fill,
                pwned: window.__pwned === undefined ? null : window.__pwned,
                frameWidth: svg.getBoundingClientRect().width};""")
    assert svg["inPage"] and svg["scripts"] == svg["foreign"] == svg["titles"] == svg["handlers"] == 0
    assert "Resolute r7" in svg["text"] and "foreign" not in svg["text"]
    assert svg["pwned"] is None
    assert svg["styledFill"] == "rgb(204, 0, 0)"  # a style attribute survives the CSP
    # The sheet's text is drawn with the served font (the bundled one), regular and bold.
    page.until(lambda d: "sheet-sans.ttf" in fake.static_gets and "sheet-sans-bold.ttf" in fake.static_gets)
    assert page.js("return document.fonts.check('12px \"DejaVu Sans\"') && document.fonts.check('bold 12px \"DejaVu Sans\"')")
    page.assert_clean()


def test_several_ships_are_picked_with_tabs(page):
    page.open()
    tabs = page.driver.find_elements(By.CSS_SELECTOR, "#picker button[role=tab]")
    assert [t.text for t in tabs] == ["Resolute", "Vigilant"]
    assert [t.get_attribute("aria-selected") for t in tabs] == ["true", "false"]
    tabs[1].click()
    page.until(lambda d: page.js("return document.querySelector('.ship:not([hidden]) .ship-name').textContent") == "Vigilant")
    assert page.js("return document.querySelectorAll('.ship:not([hidden])').length") == 1
    # Its drawing is fetched when its tab is picked (page.js fetches the ship shown only).
    page.until(lambda d: "Vigilant r2" in page.js(
        "var svg = document.querySelector('.ship:not([hidden]) svg'); return svg ? svg.textContent : '';"))
    page.assert_clean()


def test_a_tap_sends_the_request_and_shows_the_answer_and_the_new_sheet(page):
    fake = page.fake
    page.open()
    page.area("drive.2").click()
    page.until(lambda d: len(fake.acts) == 1)
    body = fake.acts[0]
    assert set(body) == {"id", "epoch", "ship", "rev", "kind", "key"}
    assert re.fullmatch(r"[A-Za-z0-9_-]{16,64}", body["id"])
    assert body | {"id": None} == {"id": None, "epoch": "k3J9x0", "ship": "res", "rev": 7,
                                   "kind": "tap", "key": "drive.2"}
    page.toast("Mark drive box 2")
    assert page.js("return document.getElementById('toast').getAttribute('aria-live')") == "polite"
    # Drawn again from the answer's state: new labels, the new revision's sheet fetched.
    page.until(lambda d: page.area("drive.2").get_attribute("aria-label").startswith("Drive box 2 — marked"))
    page.until(lambda d: "res/k3J9x0-8.svg" in fake.svg_gets)
    page.until(lambda d: "Resolute r8" in page.js("return document.querySelector('.ship:not([hidden]) svg').textContent"))
    # The rule's refusal, in its words, with the current revision and a new id.
    page.area("drive.2").click()
    page.toast("Drive box 2 is already marked.")
    assert page.js("return document.getElementById('toast').dataset.kind") == "error"
    assert fake.acts[1]["rev"] == 8 and fake.acts[1]["id"] != body["id"]
    page.assert_clean()


def test_a_box_this_seat_may_not_change_says_why_without_asking(page):
    fake = page.fake
    page.open()
    button = page.area("phaser.1")
    assert button.get_attribute("aria-disabled") == "true"
    assert page.js("arguments[0].focus(); return document.activeElement === arguments[0]", button)
    button.click()
    page.toast(REFUSAL)
    time.sleep(0.2)
    assert fake.acts == []
    page.assert_clean()


def test_long_press_and_context_menu_open_the_menu_and_send_the_choice(page):
    fake = page.fake
    page.open()
    # A finger held on the box (touch pointer events) for 0.7 s.
    actions = ActionBuilder(page.driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to(page.area("drive.1")).pointer_down().pause(0.7).pointer_up()
    actions.perform()
    page.until(lambda d: page.js("return !document.getElementById('menu').hidden"))
    items = page.driver.find_elements(By.CSS_SELECTOR, "#menu-items button")
    assert [i.text for i in items] == ["Correct mark", "Mark as destroyed"]
    assert page.text("menu-title") == fake.areas()[0]["label"]
    assert fake.acts == []  # the long press is not also a tap
    items[1].click()
    page.until(lambda d: len(fake.acts) == 1)
    assert {k: fake.acts[0][k] for k in ("kind", "key", "index", "ship", "rev")} == \
        {"kind": "menu", "key": "drive.1", "index": 1, "ship": "res", "rev": 7}
    page.toast("Mark as destroyed")
    assert page.js("return document.getElementById('menu').hidden")

    # The context menu event (here the keyboard's menu key) opens it too; Escape closes.
    page.js("arguments[0].focus()", page.area("drive.1"))
    for kind in ("rawKeyDown", "keyUp"):
        page.driver.execute_cdp_cmd("Input.dispatchKeyEvent", {
            "type": kind, "key": "ContextMenu", "code": "ContextMenu", "windowsVirtualKeyCode": 93})
    page.until(lambda d: page.js("return !document.getElementById('menu').hidden"))
    page.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    page.until(lambda d: page.js("return document.getElementById('menu').hidden"))
    assert page.js("return document.activeElement.dataset.key") == "drive.1"
    # A box without a menu: a long press is just a tap.
    assert len(fake.acts) == 1
    page.assert_clean()


def test_forms_render_labelled_fields_and_send_their_values(page):
    fake = page.fake
    page.open()
    form = page.driver.find_element(By.CSS_SELECTOR, ".ship:not([hidden]) form.decision")
    assert form.find_element(By.CSS_SELECTOR, "h3").text == "Recovery"
    assert form.find_element(By.CSS_SELECTOR, "p").text == "Choose the track to recover from."
    fields = page.js("""return Array.from(arguments[0].querySelectorAll('select, input')).map(i => ({
        tag: i.tagName, type: i.type, name: i.name, min: i.min, max: i.max, mode: i.inputMode,
        maxlength: i.maxLength, label: document.querySelector('label[for="' + i.id + '"]').textContent,
        height: i.getBoundingClientRect().height}));""", form)
    assert [(f["tag"], f["type"], f["name"], f["label"]) for f in fields] == [
        ("SELECT", "select-one", "track", "Recover from"), ("INPUT", "number", "roll", "Die"),
        ("SELECT", "select-one", "helper", "Helped by"),
        ("INPUT", "checkbox", "announce", "Announce Damage Control"), ("INPUT", "text", "note", "Note")]
    assert (fields[1]["min"], fields[1]["max"], fields[1]["mode"]) == ("1", "6", "numeric")
    assert fields[4]["maxlength"] == 80
    assert all(f["height"] >= 40 for f in fields if f["type"] != "checkbox")  # finger-sized
    select = Select(form.find_element(By.NAME, "track"))
    assert [o.text for o in select.options] == ["Drive (D2)", "Weapons (W1)"]
    assert select.first_selected_option.text == "Drive (D2)"
    # An optional choice offers a blank first entry, chosen when the form has no value.
    helper = Select(form.find_element(By.NAME, "helper"))
    assert [o.text for o in helper.options] == ["—", "Vigilant", "Bastion"]
    assert helper.first_selected_option.text == "—"

    select.select_by_visible_text("Weapons (W1)")
    form.find_element(By.NAME, "announce").click()
    form.find_element(By.NAME, "note").send_keys("Hold <b>fast</b>")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    page.until(lambda d: len(fake.acts) == 1)
    body = fake.acts[0]
    assert {k: body[k] for k in ("kind", "form", "ship", "rev", "values")} == {
        "kind": "decide", "form": "recovery", "ship": "res", "rev": 7,
        "values": {"track": "weapons", "roll": None, "helper": None, "announce": True,
                   "note": "Hold <b>fast</b>"}}
    page.toast("Recovery: weapons")

    # Drawn afresh from the answer; a die roll goes as a number.
    form = page.driver.find_element(By.CSS_SELECTOR, ".ship:not([hidden]) form.decision")
    page.until(lambda d: form.find_element(By.NAME, "note").get_attribute("value") == "")
    Select(form.find_element(By.NAME, "helper")).select_by_visible_text("Bastion")
    form.find_element(By.NAME, "roll").send_keys("4")
    form.find_element(By.NAME, "roll").send_keys(Keys.ENTER)
    page.until(lambda d: len(fake.acts) == 2)
    assert fake.acts[1]["values"] == {"track": "drive", "roll": 4, "helper": "bas", "announce": False,
                                      "note": ""}
    assert fake.acts[1]["rev"] == 8
    page.assert_clean()


def test_a_required_choice_not_made_yet_is_not_made_for_the_player(page):
    """A choice the player must make and has not: "Choose…" is shown, and the form is not
    sent until one is chosen (the browser asks), rather than the first option going out."""
    fake = page.fake
    fake.track_unset = True
    page.open()
    form = page.driver.find_element(By.CSS_SELECTOR, ".ship:not([hidden]) form.decision")
    track = Select(form.find_element(By.NAME, "track"))
    assert [o.text for o in track.options] == ["Choose…", "Drive (D2)", "Weapons (W1)"]
    assert track.first_selected_option.text == "Choose…"
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    page.driver.implicitly_wait(0)
    import time
    time.sleep(0.3)
    assert fake.acts == []
    track.select_by_visible_text("Weapons (W1)")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    page.until(lambda d: len(fake.acts) == 1)
    assert fake.acts[0]["values"]["track"] == "weapons"
    page.assert_clean()


def test_a_player_seat_has_no_undo_button(page):
    page.open()
    assert page.js("return document.getElementById('undo-row').hidden")
    page.assert_clean()


def test_a_player_seat_has_no_referee_section(page):
    page.open()
    assert page.js("return document.getElementById('referee').hidden")
    assert not page.driver.find_element(By.ID, "next-phase").is_displayed()
    assert page.js("return document.querySelectorAll('#seat-list li').length") == 0
    page.assert_clean()


def test_the_referee_seat_steps_the_phase_and_asks_before_running_through_the_turn(page):
    fake = page.fake
    fake.referee = True
    page.open()
    page.open_menu()
    section = page.driver.find_element(By.ID, "referee")
    assert section.is_displayed()
    assert page.js("return document.getElementById('referee-title').textContent") == "Referee"
    steps = page.js("""return ['next-phase', 'next-turn'].map(id => {
        const b = document.getElementById(id), r = b.getBoundingClientRect();
        return [b.textContent, r.height];});""")
    assert [t for t, _ in steps] == ["Next Phase", "Next Turn"] and all(h >= 44 for _, h in steps)
    assert page.js("return document.documentElement.scrollWidth") <= 390

    # Next Phase: at once, a request about the whole session.
    page.driver.find_element(By.ID, "next-phase").click()
    page.until(lambda d: len(fake.acts) == 1)
    body = fake.acts[0]
    assert set(body) == {"id", "epoch", "kind", "step"}
    assert body | {"id": None} == {"id": None, "epoch": "k3J9x0", "kind": "phase", "step": "phase"}
    assert re.fullmatch(r"[A-Za-z0-9_-]{16,64}", body["id"])
    page.toast("Next phase")
    page.until(lambda d: page.text("turn") == "Turn 4 · Energy")

    # Next Turn asks first (a native confirm); "Cancel" sends nothing.
    page.driver.find_element(By.ID, "next-turn").click()
    alert = WebDriverWait(page.driver, 3).until(lambda d: d.switch_to.alert)
    assert alert.text == "Run through the rest of turn 4?"
    alert.dismiss()
    time.sleep(0.2)
    assert len(fake.acts) == 1
    page.driver.find_element(By.ID, "next-turn").click()
    alert = WebDriverWait(page.driver, 3).until(lambda d: d.switch_to.alert)
    alert.accept()
    page.until(lambda d: len(fake.acts) == 2)
    assert fake.acts[1] | {"id": None} == {"id": None, "epoch": "k3J9x0", "kind": "phase", "step": "turn"}
    assert fake.acts[1]["id"] != body["id"]
    page.toast("Next turn")
    page.until(lambda d: page.text("turn") == "Turn 5 · Energy")
    page.assert_clean()


def test_the_referee_seat_lists_the_other_seats_and_gives_one_a_new_link(page):
    fake = page.fake
    fake.referee = True
    page.open()
    page.open_menu()
    page.driver.find_element(By.ID, "seats-summary").click()
    assert page.js("return document.getElementById('seats').open")
    assert page.text("seats-summary") == "Seats (2)"
    rows = page.js("""return Array.from(document.querySelectorAll('#seat-list li')).map(li => ({
        name: li.querySelector('.seat-name').textContent, meta: li.querySelector('.seat-meta').textContent,
        button: li.querySelector('button').textContent, label: li.querySelector('button').getAttribute('aria-label'),
        height: li.querySelector('button').getBoundingClientRect().height}));""")
    # Not the referee's own seat (given a new link from the window).
    assert [(r["name"], r["meta"], r["button"], r["label"]) for r in rows] == [
        ("Red", "player · 2 phones", "New Link", "New Link for Red"),
        ("Watcher", "spectator · 1 phone", "New Link", "New Link for Watcher")]
    assert all(r["height"] >= 44 for r in rows)
    assert page.js("return document.documentElement.scrollWidth") <= 390

    # The referee is asked first: "Cancel" sends nothing.
    page.js("window.__asked = []; window.__answer = false;"
            "window.confirm = function (m) { window.__asked.push(m); return window.__answer; };")
    red = page.driver.find_element(By.CSS_SELECTOR, f'#seat-list button[data-seat="{RED}"]')
    red.click()
    assert page.js("return window.__asked") == ["Give Red a new link? Their phones are closed out."]
    time.sleep(0.2)
    assert fake.acts == []
    page.js("window.__answer = true;")
    red.click()
    page.until(lambda d: len(fake.acts) == 1)
    body = fake.acts[0]
    assert set(body) == {"id", "epoch", "kind", "seat"}
    assert body | {"id": None} == {"id": None, "epoch": "k3J9x0", "kind": "revoke", "seat": RED}
    page.toast("New link for Red: their phones are closed out.")
    # Drawn again from the answer, the list kept open.
    page.until(lambda d: page.js("return document.querySelector('#seat-list li .seat-meta').textContent")
               == "player · 0 phones")
    assert page.js("return document.getElementById('seats').open")
    page.assert_clean()


def test_the_referee_seat_undoes_the_last_step_with_a_button_that_names_it(page):
    fake = page.fake
    fake.referee = True
    page.open()
    page.open_menu()
    undo = page.driver.find_element(By.ID, "undo")
    assert undo.is_displayed() and undo.text == "Undo Drive box 1 marked" and undo.is_enabled()
    assert page.text("seat-role") == " (referee)"
    undo.click()
    page.until(lambda d: len(fake.acts) == 1)
    body = fake.acts[0]
    # No ship and no revision: an undo is about the whole session, and names the step its
    # button named (the view's undo_step), never one that came after.
    assert set(body) == {"id", "epoch", "kind", "undo_step"} and body["undo_step"] == 7
    assert body["kind"] == "undo" and body["epoch"] == "k3J9x0"
    assert re.fullmatch(r"[A-Za-z0-9_-]{16,64}", body["id"])
    page.toast("Undone: Drive box 1 marked")
    # Drawn again from the answer: the line struck, the button names nothing left.
    page.until(lambda d: page.text("undo") == "Nothing to undo")
    assert not page.driver.find_element(By.ID, "undo").is_enabled()
    assert page.js("return document.querySelectorAll('#log-lines s.log-text').length") == 2
    undo.click()
    time.sleep(0.2)
    assert len(fake.acts) == 1  # a disabled button sends nothing
    page.assert_clean()


def test_the_log_is_newest_first_with_undone_lines_struck(page):
    page.open()
    lines = page.js("""return Array.from(document.querySelectorAll('#log-lines li')).map(li => ({
        text: li.querySelector('.log-text').textContent, struck: !!li.querySelector('s'),
        where: li.querySelector('.log-where').textContent}));""")
    assert [(l["text"], l["struck"]) for l in lines] == [
        ("Drive box 1 marked", False), ("Phaser 2 fired", True), ("Turn 3 begins", False)]
    assert lines[0]["where"] == "Turn 3 · Combat · Resolute"
    assert page.js("return document.getElementById('log').tagName") == "DETAILS"
    page.driver.find_element(By.ID, "log-summary").click()
    assert page.js("return document.getElementById('log').open")
    page.assert_clean()


def test_a_changed_message_fetches_the_state_and_only_the_changed_sheets(page):
    """Of the ships that changed, only the one shown is drawn again; a ship on a hidden
    tab is fetched when its tab is picked (and not again while it stays the same)."""
    fake = page.fake
    page.open()
    page.until(lambda d: fake.ws_opened == 1 and len(fake.sockets) == 1)
    gets, sheets = fake.state_gets, list(fake.svg_gets)
    assert sheets == [f"res/{fake.epoch}-7.svg"]  # Resolute's tab is shown; Vigilant's waits
    fake.turn, fake.phase = 4, "Movement"
    fake.revs["vig"] += 1
    fake.push({"type": "changed", "epoch": fake.epoch, "turn": 4, "phase": "Movement",
               "revs": dict(fake.revs)})
    page.until(lambda d: page.text("turn") == "Turn 4 · Movement")
    assert fake.state_gets == gets + 1
    fake.revs["res"] += 1
    fake.push({"type": "changed", "epoch": fake.epoch, "turn": 4, "phase": "Movement",
               "revs": dict(fake.revs)})
    page.until(lambda d: f"res/{fake.epoch}-8.svg" in fake.svg_gets)
    time.sleep(0.2)
    assert fake.svg_gets == sheets + [f"res/{fake.epoch}-8.svg"]
    page.driver.find_element(By.CSS_SELECTOR, '#picker [data-ship="vig"]').click()
    page.until(lambda d: f"vig/{fake.epoch}-3.svg" in fake.svg_gets)
    page.until(lambda d: page.js("return document.querySelectorAll('.ship:not([hidden]) .area').length") > 0)
    page.driver.find_element(By.CSS_SELECTOR, '#picker [data-ship="res"]').click()
    time.sleep(0.2)
    assert fake.svg_gets == sheets + [f"res/{fake.epoch}-8.svg", f"vig/{fake.epoch}-3.svg"]
    page.assert_clean()


def test_a_tap_answer_and_the_push_after_it_fetch_the_new_boxes_once(page):
    """The tap's answer names the ship's new revision, and so does the push that the change
    sends every phone: the look the push starts while the answer's boxes are still on their
    way waits for that fetch instead of asking for the same address again (50 phones at a
    table: a second fetch of every change's boxes by the phone that tapped)."""
    fake = page.fake
    fake.box_addresses = True
    page.open()
    page.until(lambda d: fake.box_gets == [f"res/{fake.epoch}-7.json"])
    fake.boxes_held = asyncio.Event()
    page.area("drive.2").click()
    new = f"res/{fake.epoch}-8.json"
    page.until(lambda d: fake.box_gets.count(new) == 1)
    gets = fake.state_gets
    fake.push({"type": "changed", "epoch": fake.epoch, "turn": fake.turn, "phase": fake.phase,
               "revs": dict(fake.revs)})
    page.until(lambda d: fake.state_gets == gets + 1)  # the push's look has its view
    time.sleep(0.3)  # and would have asked for the boxes by now
    fake.loop.call_soon_threadsafe(fake.boxes_held.set)
    page.toast("Mark drive box 2")
    page.until(lambda d: page.area("drive.2").get_attribute("aria-label").startswith("Drive box 2 — marked"))
    time.sleep(0.2)
    assert fake.box_gets == [f"res/{fake.epoch}-7.json", new]
    page.assert_clean()


def test_a_dropped_connection_shows_behind_then_reconnects_and_catches_up(page):
    fake = page.fake
    page.open()
    fake.refuse_ws = True
    fake.drop_sockets()
    page.until(lambda d: page.text("conn") == "Reconnecting…")
    assert re.fullmatch(r"Behind — showing turn 3 as of \d\d:\d\d:\d\d", page.text("behind"))
    assert page.js("return !document.getElementById('behind').hidden")
    fake.turn = 5
    gets = fake.state_gets
    fake.refuse_ws = False
    page.until(lambda d: page.text("conn") == "Live", timeout=8)
    page.until(lambda d: page.text("turn") == "Turn 5 · Combat")
    assert fake.state_gets > gets
    assert page.js("return document.getElementById('behind').hidden")
    page.assert_clean()


def test_a_request_lost_on_the_way_is_sent_again_with_the_same_id_and_applied_once(page):
    fake = page.fake
    page.open()
    fake.fail_next_acts = 1
    page.area("drive.3").click()
    page.toast("Mark drive box 3", timeout=10)
    assert len(fake.acts) >= 2
    assert len({a["id"] for a in fake.acts}) == 1
    assert {json.dumps(a, sort_keys=True) for a in fake.acts} == {json.dumps(fake.acts[0], sort_keys=True)}
    assert [l["text"] for l in fake.log].count("Mark drive box 3") == 1
    page.assert_clean()


def test_a_revoked_seat_is_closed(page):
    fake = page.fake
    page.open()
    fake.push({"type": "revoked"})
    page.until(lambda d: page.text("notice") == "The referee has closed this seat.")
    assert page.js("return document.getElementById('main').hidden")
    page.assert_clean()


def test_a_wrong_or_forgotten_link_says_ask_the_referee(page):
    fake = page.fake
    page.open(f"#k=not-{SECRET}", ready=False)
    page.until(lambda d: page.text("notice") == INVALID)
    assert fake.pairs == [{"secret": f"not-{SECRET}"}]
    assert page.js("return location.hash") == ""
    # A device without the cookie, opened without a secret.
    page.driver.delete_all_cookies()
    page.open("", ready=False)
    page.until(lambda d: page.text("notice") == INVALID)
    assert fake.state_gets == 0
    page.assert_clean()


def test_the_page_fits_a_phone_in_light_and_dark(page, tmp_path):
    page.open()
    page.js("document.getElementById('log').open = true; scrollTo(0, 0)")
    size = page.js("return [innerWidth, innerHeight, devicePixelRatio, document.documentElement.scrollWidth]")
    assert size[:3] == [390, 844, 2]
    assert size[3] <= 390, "the page scrolls sideways"
    frame = page.js("return document.querySelector('.ship:not([hidden]) .sheet').getBoundingClientRect().width")
    assert 340 <= frame <= 390
    light = page.js("return getComputedStyle(document.body).backgroundColor")
    screenshot(page.driver, str(tmp_path / "page.png"))
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        dark = page.js("return getComputedStyle(document.body).backgroundColor")
        assert dark != light
        screenshot(page.driver, str(tmp_path / "page-dark.png"))
    finally:
        page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    page.assert_clean()

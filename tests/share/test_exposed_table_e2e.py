"""Friends at home join the referee's table over HTTPS (issue 33), end to end with real
parts, all on loopback: Debian's Caddy terminating TLS with its own internal authority
(its data in a folder of the test's, ``skip_install_trust``: nothing touches the system's
trust store) in front of a real ``shipsheet serve --public-url https://table.test:PORT
--trusted-proxy 127.0.0.1``; Chromium resolving ``table.test`` to 127.0.0.1 by its own
switch (``--host-resolver-rules``) and trusting Caddy's root through ``certutil`` in a
HOME of its own. Then the same without a proxy, ``serve --tls-cert/--tls-key`` with a
certificate made here.

Clients other than the browser come from other loopback addresses (127.0.0.2 and up:
Linux answers the whole of 127/8), so Caddy forwards each as a client of its own.

linux_only: Debian's caddy, chromium and certutil (libnss3-tools), which make test installs
(packaging/system_deps.py; HACKING.md, Platforms).
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import shutil
import socket
import ssl
import subprocess
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from shipsheet.model.paths import resources_dir

from .browser import quit_chrome, start_chrome
from .caddy import free_port, start_caddy, stop_caddy
from .certs import make_certificate
from .serve_process import start_serve, stop_serve

pytestmark = pytest.mark.linux_only

HOST = "table.test"


class Terminal:
    """serve's terminal: what it prints (both streams, read on threads of their own) and
    what the referee types."""

    def __init__(self, proc, lines):
        self.proc = proc
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = list(lines)
        for stream in (proc.stdout, proc.stderr):
            threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            self.lines.put(line)

    def said(self, words: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(line)
            if words in line:
                return line.strip()
        raise AssertionError(f"serve never said {words!r}:\n{''.join(self.seen)}")

    def type(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def allow_next(self, seat: str) -> None:
        """The referee lets the next device waiting for ``seat`` in, at the terminal."""
        asked = self.said(f"wants {seat}'s seat")
        number = asked.split("'allow ")[1].split("'")[0]
        self.type(f"allow {number}")
        self.said(f"Let the device into {seat}'s seat.")


class Client:
    """A phone or an attacker that is not the browser: HTTPS to Caddy (or plain HTTP
    straight to serve) from a loopback address of its own."""

    def __init__(self, source: str, port: int, *, context: ssl.SSLContext | None,
                 host: str, origin: str):
        self.source, self.port, self.context = source, port, context
        self.host, self.origin = host, origin
        self.cookie = ""

    def request(self, method: str, path: str, body=None, headers=None):
        if self.context is not None:
            conn = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=15,
                                               context=self.context)
            # Connected here: from the client's own address, and with table.test as the
            # name the certificate is checked against (the address is loopback).
            conn.sock = self.context.wrap_socket(
                socket.create_connection(("127.0.0.1", self.port), 15, (self.source, 0)),
                server_hostname=HOST)
        else:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15,
                                              source_address=(self.source, 0))
        data = None if body is None else json.dumps(body).encode()
        all_headers = {"Host": self.host, "Origin": self.origin, **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        if self.cookie:
            all_headers["Cookie"] = self.cookie
        try:
            conn.request(method, path, body=data, headers=all_headers)
            resp = conn.getresponse()
            raw = resp.read()
            cookie = resp.getheader("Set-Cookie")
            if cookie:
                self.cookie = cookie.split(";")[0]
            kind = resp.getheader("Content-Type", "")
            return resp.status, (json.loads(raw) if kind.startswith("application/json") else raw), resp
        finally:
            conn.close()

    def pair(self, seat_path: str, secret: str, join: str | None = None, headers=None):
        body = {"secret": secret} if join is None else {"secret": secret, "join": join}
        return self.request("POST", seat_path + "api/pair", body, headers)


def _parts(link: str) -> tuple[str, str]:
    """(the seat's path, its secret) of a link."""
    path = "/" + link.split("/", 3)[3]
    seat_path, secret = path.split("#k=")
    return seat_path, secret


def _copy(folder: Path) -> Path:
    copy = folder / "table.shipsheet"
    copy.write_bytes((resources_dir() / "samples" / "fedcom.shipsheet").read_bytes())
    return copy


def _trusting_home(folder: Path, authority: Path) -> Path:
    """A HOME whose NSS store (Chromium's on Linux) trusts ``authority`` for servers."""
    home = folder / "chromium-home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True,
                   capture_output=True, timeout=60)
    subprocess.run(["certutil", "-A", "-d", f"sql:{nssdb}", "-t", "C,,", "-n", "ShipSheet test authority",
                    "-i", str(authority)], check=True, capture_output=True, timeout=60)
    return home


def _browser(home: Path, *args: str):
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")}
    env["HOME"] = str(home)
    return start_chrome(args=args, env=env)


SHOWN = ("var t = function (i) { var e = document.getElementById(i); "
         "return e && !e.hidden ? e.textContent : null; }; "
         "return {seat: t('seat-name'), conn: t('conn'), notice: t('notice'), toast: t('toast'), "
         "joins: t('joins'), turn: t('turn'), protocol: location.protocol, "
         "areas: document.querySelectorAll('.ship:not([hidden]) .area').length, "
         "svg: !!document.querySelector('.ship:not([hidden]) svg.sheet-svg')};")


def shown(driver, until, timeout=20):
    """What the page shows, once ``until`` of it is true."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: (lambda s: s if until(s) else None)(d.execute_script(SHOWN)))


def loaded(s):
    return s["areas"] > 0 and s["svg"] and s["conn"] == "Live"


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """serve behind Caddy at https://table.test:PORT, and a browser that trusts Caddy."""
    if shutil.which("caddy") is None or shutil.which("certutil") is None:
        pytest.fail("The table-from-home test needs Debian's caddy and libnss3-tools: "
                    "sudo apt-get install caddy libnss3-tools (make test installs them)")
    folder = tmp_path_factory.mktemp("home")
    public_port = free_port()
    public = f"https://{HOST}:{public_port}"
    proc, links, lines = start_serve(_copy(folder), "--seat", "Blue=Blue", "--seat", "Red=Red",
                                     "--referee-seat", "--no-qr", "--public-url", public,
                                     "--trusted-proxy", "127.0.0.1", links=3)
    terminal = Terminal(proc, lines)
    caddy = None
    driver = None
    try:
        assert set(links) == {"Blue", "Red", "Referee"}, "".join(lines)
        serve_port = int(next(line for line in lines if line.startswith("Sharing"))
                         .split(" port ")[1].split()[0].rstrip(",."))
        caddy, authority = start_caddy(folder, HOST, public_port, serve_port)
        context = ssl.create_default_context(cafile=str(authority))
        driver = _browser(_trusting_home(folder, authority), f"--host-resolver-rules=MAP {HOST} 127.0.0.1")
        yield SimpleNamespace(links=links, terminal=terminal, driver=driver, public=public,
                              public_port=public_port, serve_port=serve_port, context=context)
    finally:
        if driver is not None:
            quit_chrome(driver)
        if caddy is not None:
            stop_caddy(caddy)
        stop_serve(proc)
        proc.wait(60)


def via_caddy(home, source: str) -> Client:
    return Client(source, home.public_port, context=home.context,
                  host=f"{HOST}:{home.public_port}", origin=home.public)


def test_a_player_at_home_joins_over_https_once_the_referee_allows_it(home):
    driver, terminal = home.driver, home.terminal
    blue = home.links["Blue"]
    assert blue.startswith(home.public + "/s/")
    driver.get(blue)
    waiting = shown(driver, lambda s: s["notice"] and "Waiting" in s["notice"])
    assert waiting["notice"] == "Waiting for the referee to let this device into Blue's seat…"
    assert waiting["conn"] == "Waiting…" and waiting["protocol"] == "https:"
    asked = terminal.said("wants Blue's seat")
    assert "Chrome on Linux, from 127.0.0.1" in asked
    terminal.type("allow " + asked.split("'allow ")[1].split("'")[0])
    page = shown(driver, loaded)
    assert page["seat"] == "Blue" and page["notice"] is None
    cookie = next(c for c in driver.get_cookies() if c["name"] == "shipsheet_device")
    assert cookie["secure"] and cookie["httpOnly"] and cookie["domain"] == HOST
    # A tap applies (through Caddy, on the referee's side, logged with the seat).
    button = driver.find_element(By.CSS_SELECTOR, '.ship:not([hidden]) button.area[data-key="box:ph-1"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    shown(driver, lambda s: s["toast"] and s["toast"].endswith("— Blue's phone"))
    # A change made elsewhere arrives live: the referee's phone (a client of its own behind
    # the same proxy, let in at the terminal) steps the phase.
    referee = via_caddy(home, "127.0.0.9")
    seat_path, secret = _parts(home.links["Referee"])
    status, question, _ = referee.pair(seat_path, secret)
    assert status == 202, question
    terminal.allow_next("Referee")
    status, _, answer = referee.pair(seat_path, secret, question["join"])
    assert status == 200 and "Secure" in answer.getheader("Set-Cookie")
    _, view, _ = referee.request("GET", seat_path + "api/state")
    before = shown(driver, loaded)["turn"]
    status, stepped, _ = referee.request("POST", seat_path + "api/act",
                                         {"id": "step-phase-0001", "epoch": view["epoch"],
                                          "kind": "phase", "step": "phase"})
    assert status == 200 and stepped["ok"], stepped
    after = shown(driver, lambda s: s["turn"] and s["turn"] != before)
    assert after["turn"] == f"Turn {stepped['state']['session']['turn']} · {stepped['state']['session']['phase']}"


def test_a_forged_forwarded_for_from_a_client_not_the_proxy_is_ignored(home):
    """Straight to serve's port from 127.0.0.2 (not the proxy), naming a new client in
    X-Forwarded-For on every guess: one client all the same, refused after a few."""
    attacker = Client("127.0.0.2", home.serve_port, context=None,
                      host=f"{HOST}:{home.public_port}", origin=home.public)
    seat_path, secret = _parts(home.links["Red"])
    statuses = [attacker.pair(seat_path, "x" * 43, headers={"X-Forwarded-For": f"198.51.100.{n}"})[0]
                for n in range(8)]
    assert statuses[:5] == [403] * 5 and statuses[-1] == 429
    assert attacker.pair(seat_path, secret, headers={"X-Forwarded-For": "192.0.2.1"})[0] == 429


def test_two_clients_behind_the_proxy_are_throttled_apart(home):
    guesser, player = via_caddy(home, "127.0.0.3"), via_caddy(home, "127.0.0.4")
    seat_path, secret = _parts(home.links["Red"])
    statuses = [guesser.pair(seat_path, "x" * 43)[0] for _ in range(8)]
    assert statuses[:5] == [403] * 5 and statuses[-1] == 429
    status, question, _ = player.pair(seat_path, secret)
    assert status == 202 and question["waiting"]  # asked, not refused: the referee decides


def test_a_wrong_secret_burst_locks_joining_and_the_referee_is_told_and_lets_a_device_in(home):
    driver, terminal = home.driver, home.terminal
    # The referee's own phone is the browser now (let in at the terminal).
    driver.get("about:blank")
    driver.get(home.links["Referee"])
    shown(driver, lambda s: s["notice"] and "Referee's seat" in s["notice"])
    terminal.allow_next("Referee")
    shown(driver, lambda s: s["seat"] == "Referee" and s["conn"] == "Live")
    # A burst from many addresses, each under its own allowance: the seat's lock stops it.
    seat_path, secret = _parts(home.links["Red"])
    locked_at = None
    for n in range(10, 40):
        guesser = via_caddy(home, f"127.0.0.{n}")
        for _ in range(4):
            status, answer, _ = guesser.pair(seat_path, "x" * 43)
            if status == 423:
                locked_at = n
                break
        if locked_at:
            break
    assert locked_at, "twenty wrong secrets did not lock the seat"
    told = terminal.said("Joining Red's seat is locked")
    assert "Type 'open Red'" in told
    status, answer, _ = via_caddy(home, "127.0.0.50").pair(seat_path, secret)
    assert status == 423 and "locked" in answer["error"]
    # The referee's page says so, and opens it again.
    banner = shown(driver, lambda s: s["joins"] and "Joining Red's seat is locked" in s["joins"])
    assert "Open Joining" in banner["joins"]
    driver.find_element(By.CSS_SELECTOR, "#joins button.join-open").click()
    shown(driver, lambda s: s["toast"] == "Red's seat takes new devices again.")
    # A new device for Red waits; the referee's page asks; Allow lets it in.
    newcomer = via_caddy(home, "127.0.0.51")
    status, question, _ = newcomer.pair(seat_path, secret)
    assert status == 202
    asking = shown(driver, lambda s: s["joins"] and "from 127.0.0.51" in s["joins"])
    assert "A new device wants Red's seat — allow?" in asking["joins"]
    driver.find_element(By.CSS_SELECTOR, f'#joins button.join-allow[data-join="{question["join"]}"]').click()
    shown(driver, lambda s: s["toast"] == "Let the device into Red's seat.")
    status, _, answer = newcomer.pair(seat_path, secret, question["join"])
    assert status == 200 and "Secure" in answer.getheader("Set-Cookie")
    assert newcomer.request("GET", seat_path + "api/state")[0] == 200


def test_a_ninth_device_does_not_evict_the_first(home):
    """Blue's first device is the browser's (the first test); seven more are let in, the
    ninth is refused at the referee's yes, and the browser's page still works."""
    driver, terminal = home.driver, home.terminal
    seat_path, secret = _parts(home.links["Blue"])
    for n in range(60, 68):
        device = via_caddy(home, f"127.0.0.{n}")
        status, question, _ = device.pair(seat_path, secret)
        assert status == 202, question
        asked = terminal.said("wants Blue's seat")
        terminal.type("allow " + asked.split("'allow ")[1].split("'")[0])
        if n < 67:
            terminal.said("Let the device into Blue's seat.")
        else:
            assert "already has 8 phones" in terminal.said("ERROR")
    driver.get("about:blank")
    driver.get(home.public + seat_path)  # the first device, its cookie: no link needed
    page = shown(driver, loaded)
    assert page["seat"] == "Blue"


@pytest.fixture
def own_certificate(tmp_path):
    """serve with --tls-cert/--tls-key (a certificate for 127.0.0.1 made here), no proxy,
    and a browser that trusts that certificate."""
    cert, key = make_certificate(tmp_path, names=("localhost",), addresses=("127.0.0.1",))
    proc, links, lines = start_serve(_copy(tmp_path), "--seat", "Blue=Blue", "--no-qr",
                                     "--tls-cert", str(cert), "--tls-key", str(key), links=1)
    driver = None
    try:
        driver = _browser(_trusting_home(tmp_path, cert))
        yield links, driver
    finally:
        if driver is not None:
            quit_chrome(driver)
        stop_serve(proc)
        proc.wait(60)


def test_the_same_over_the_referees_own_certificate_without_a_proxy(own_certificate):
    links, driver = own_certificate
    assert links["Blue"].startswith("https://127.0.0.1:")
    driver.get(links["Blue"])  # no referee's yes asked: no public address
    page = shown(driver, loaded)
    assert page["seat"] == "Blue" and page["protocol"] == "https:"
    cookie = next(c for c in driver.get_cookies() if c["name"] == "shipsheet_device")
    assert cookie["secure"] and cookie["httpOnly"]
    button = driver.find_element(By.CSS_SELECTOR, '.ship:not([hidden]) button.area[data-key="box:ph-1"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    shown(driver, lambda s: s["toast"] and "Blue's phone" in s["toast"])

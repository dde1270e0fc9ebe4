"""A table reached from outside the room (issue 33; SECURITY.md, "Beyond the room"): each
attack of the threat model run as an attacker would, against the real server on
127.0.0.1 — forged forwarded headers, clients behind a proxy, guessed secrets and tokens
from many addresses, a leaked link, slow and idle connections, foreign origins — and the
table over HTTPS with a certificate made here. (The same through Debian's Caddy and a real
browser: test_exposed_table_e2e.py.)"""

from __future__ import annotations

import socket
import ssl

import pytest
from multidict import CIMultiDict

from shipsheet.share.exposure import (Exposure, client_of, parse_proxy, parse_public_url)
from shipsheet.share.seats import MAX_DEVICES, PLAYER, REFEREE

from .certs import make_certificate, trusting
from .phone import Phone, listen, sample, share, wait

ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/120.0 Mobile Safari/537.36")
BEHIND_PROXY = Exposure(proxies=(parse_proxy("127.0.0.1"),))


@pytest.fixture
def exposure():
    """How the table is reached (a test parametrizes ``exposure`` for another)."""
    return BEHIND_PROXY


@pytest.fixture
def table(qtbot, exposure):
    """A FedCom table with Blue, Red and the referee, reached as ``exposure`` says; the
    events the referee is told, as they arrive on the authority's thread."""
    session = sample("fedcom")
    link, (blue, red, ref) = share(session, exposure=exposure, seats=[
        ("Blue", PLAYER, ("Blue",), ()), ("Red", PLAYER, ("Red",), ()),
        ("Referee", REFEREE, (), ())])
    told: list[dict] = []
    link.on_event = told.append
    yield link, {"blue": blue, "red": red, "ref": ref}, told
    link.stop()


def from_(address: str, **more) -> dict:
    """The headers a proxy adds for a client at ``address``."""
    return {"X-Forwarded-For": address, **more}


# -- who is really asking --------------------------------------------------------------
def test_forwarded_headers_are_believed_only_from_the_named_proxy():
    trusted = Exposure(proxies=(parse_proxy("10.0.0.0/24"),))
    forged = CIMultiDict({"X-Forwarded-For": "198.51.100.7", "X-Forwarded-Proto": "https"})
    # Not the proxy: its headers are nobody's word.
    assert client_of("203.0.113.9", forged, trusted) == ("203.0.113.9", False, False)
    # The proxy: its client, and the scheme the page came over.
    assert client_of("10.0.0.2", forged, trusted) == ("198.51.100.7", True, True)
    # A client's own X-Forwarded-For is kept by the proxy and appended to: only the
    # rightmost address the proxies added is believed, not what the client wrote.
    chained = CIMultiDict({"X-Forwarded-For": "192.0.2.1, 10.0.0.9, 198.51.100.7, 10.0.0.5"})
    assert client_of("10.0.0.2", chained, trusted).address == "198.51.100.7"
    # The proxy adds a header of its own when the client sent one too.
    twice = CIMultiDict([("X-Forwarded-For", "192.0.2.1"), ("X-Forwarded-For", "198.51.100.8")])
    assert client_of("10.0.0.2", twice, trusted).address == "198.51.100.8"
    # A TLS table is HTTPS to a direct client; nothing from the proxy means the proxy.
    assert client_of("10.0.0.2", CIMultiDict(), trusted) == ("10.0.0.2", False, True)


def test_a_forged_forwarded_for_from_a_client_not_the_proxy_is_ignored(qtbot):
    """The referee trusts a proxy at 10.1.2.3; a client at 127.0.0.1 writes a new
    X-Forwarded-For on every guess to look like many clients: it is one client, refused
    after a few, the right secret too."""
    from shipsheet.share.server import WRONG_SECRETS
    session = sample("fedcom")
    link, (blue,) = share(session, exposure=Exposure(proxies=(parse_proxy("10.1.2.3"),)),
                          seats=[("Blue", PLAYER, ("Blue",), ())])
    try:
        phone = Phone(link.url(blue))
        answers = wait(qtbot, lambda: [phone.pair("x" * 43, headers=from_(f"198.51.100.{n}"))
                                       for n in range(WRONG_SECRETS + 3)])
        assert [status for status, _, _ in answers][-2:] == [429, 429]
        status, _, _ = wait(qtbot, lambda: phone.pair(headers=from_("192.0.2.200")))
        assert status == 429 and not blue.devices
    finally:
        link.stop()


def test_two_clients_behind_the_proxy_are_throttled_apart(qtbot, table):
    from shipsheet.share.server import WRONG_SECRETS
    link, seats, _told = table
    phone = Phone(link.url(seats["blue"]))
    guesses = wait(qtbot, lambda: [phone.pair("x" * 43, headers=from_("198.51.100.7"))
                                   for _ in range(WRONG_SECRETS + 2)])
    assert guesses[-1][0] == 429
    # The same proxy, another client: the player at home pairs.
    status, body, _ = wait(qtbot, lambda: phone.pair(headers=from_("203.0.113.20")))
    assert (status, body) == (200, {"ok": True}) and len(seats["blue"].devices) == 1


def test_wrong_device_tokens_are_refused_per_client_and_the_real_phone_goes_on(qtbot, table):
    from shipsheet.share.server import WRONG_TOKENS
    link, seats, _told = table
    player = Phone(link.url(seats["blue"]))
    assert wait(qtbot, lambda: player.pair(headers=from_("203.0.113.20")))[0] == 200
    guesser = Phone(link.url(seats["blue"]))
    cookie = {"Cookie": "shipsheet_device=" + "y" * 43}
    answers = wait(qtbot, lambda: [guesser.request("GET", "api/state",
                                                   headers={**cookie, **from_("198.51.100.7")})
                                   for _ in range(WRONG_TOKENS + 3)])
    statuses = [status for status, _, _ in answers]
    assert statuses[:WRONG_TOKENS] == [401] * WRONG_TOKENS and statuses[-1] == 429
    status, state, _ = wait(qtbot, lambda: player.request("GET", "api/state",
                                                          headers=from_("203.0.113.20")))
    assert status == 200 and state["seat"]["name"] == "Blue"


def test_the_seats_rate_limit_holds_whatever_the_address_says(qtbot, table):
    from shipsheet.share.throttle import RateLimit
    link, seats, _told = table
    phone = Phone(link.url(seats["blue"]))
    assert wait(qtbot, lambda: phone.pair(headers=from_("203.0.113.20")))[0] == 200
    link.server._seat_limit = RateLimit(rate=0.001, burst=4)  # a burst of four, then none
    _, state, _ = wait(qtbot, lambda: phone.state())
    ship = state["ships"][0]
    tap = next(a for a in ship["areas"] if a["tap"])
    answers = wait(qtbot, lambda: [phone.act(state, ship, kind="tap", key=tap["key"],
                                             headers=from_(f"198.51.100.{n}"))
                                   for n in range(6)])
    statuses = [status for status, _, _ in answers]
    assert 429 not in statuses[:4] and statuses[4:] == [429, 429]


# -- a seat's joining locks after a burst ------------------------------------------------
def test_a_burst_of_wrong_secrets_from_many_clients_locks_joining_and_the_referee_is_told(qtbot, table):
    from shipsheet.share.server import SEAT_LOCK_AFTER, WRONG_SECRETS
    link, seats, told = table
    blue = seats["blue"]
    player = Phone(link.url(blue))
    assert wait(qtbot, lambda: player.pair(headers=from_("203.0.113.20")))[0] == 200
    attacker = Phone(link.url(blue))
    per_client = WRONG_SECRETS - 1  # under each client's own allowance: only the lock stops it

    def burst():
        out = []
        for n in range(SEAT_LOCK_AFTER):
            out.append(attacker.pair("x" * 43, headers=from_(f"198.51.100.{n // per_client}")))
        return out
    answers = wait(qtbot, burst)
    assert {status for status, _, _ in answers} == {403}
    qtbot.waitUntil(lambda: any(e["kind"] == "locked" for e in told), timeout=5000)
    event = next(e for e in told if e["kind"] == "locked")
    assert event["seat"] == "Blue" and event["from"].startswith("198.51.100.")
    # The right secret, from anyone, now: locked, in words.
    status, body, _ = wait(qtbot, lambda: Phone(link.url(blue)).pair(headers=from_("192.0.2.50")))
    assert status == 423 and "locked" in body["error"] and "referee" in body["error"]
    # The paired phone goes on; another seat is not locked.
    assert wait(qtbot, lambda: player.request("GET", "api/state", headers=from_("203.0.113.20")))[0] == 200
    assert wait(qtbot, lambda: Phone(link.url(seats["red"])).pair(headers=from_("192.0.2.51")))[0] == 200
    # The referee's seat list says so; the referee opens it again.
    referee = Phone(link.url(seats["ref"]))
    assert wait(qtbot, lambda: referee.pair(headers=from_("192.0.2.52")))[0] == 200
    _, view, _ = wait(qtbot, lambda: referee.request("GET", "api/state", headers=from_("192.0.2.52")))
    assert next(s for s in view["seats"] if s["name"] == "Blue")["locked"] is True
    status, answer, _ = wait(qtbot, lambda: referee.request(
        "POST", "api/joins", {"open": blue.id}, headers=from_("192.0.2.52")))
    assert status == 200 and answer["message"] == "Blue's seat takes new devices again."
    assert wait(qtbot, lambda: Phone(link.url(blue)).pair(headers=from_("192.0.2.53")))[0] == 200


def test_only_the_referees_seat_opens_a_locked_seat(qtbot, table):
    link, seats, _told = table
    red = Phone(link.url(seats["red"]))
    assert wait(qtbot, lambda: red.pair(headers=from_("192.0.2.51")))[0] == 200
    status, answer, _ = wait(qtbot, lambda: red.request("POST", "api/joins", {"open": seats["blue"].id},
                                                        headers=from_("192.0.2.51")))
    assert status == 403 and answer["error"] == "Only the referee's seat lets devices in."


# -- a leaked link: a new device waits for the referee's yes -------------------------------
@pytest.mark.parametrize("exposure", [Exposure(proxies=(parse_proxy("127.0.0.1"),),
                               public=parse_public_url("https://table.test"))])
def test_a_new_device_waits_for_the_referees_yes_and_is_shown_to_the_referee(qtbot, table):
    link, seats, told = table
    blue = seats["blue"]
    lan = link.url(blue, "127.0.0.1")  # the phone reaches the test's server directly
    assert link.url(blue).startswith(f"https://table.test/s/{blue.id}/#k=")
    phone = Phone(lan, user_agent=ANDROID)
    status, body, _ = wait(qtbot, lambda: phone.pair(headers=from_("203.0.113.20")))
    assert status == 202 and body["waiting"] is True
    assert body["message"] == "Waiting for the referee to let this device into Blue's seat…"
    assert not blue.devices and phone.cookie() is None
    qtbot.waitUntil(lambda: any(e["kind"] == "join" for e in told), timeout=5000)
    asked = next(e for e in told if e["kind"] == "join")
    assert (asked["seat"], asked["from"], asked["device"]) == ("Blue", "203.0.113.20", "Chrome on Android")
    # Asking again before the referee answers: still waiting, the same question.
    status, again, _ = wait(qtbot, lambda: phone.pair(join=body["join"], headers=from_("203.0.113.20")))
    assert status == 202 and again["join"] == body["join"]
    assert wait(qtbot, lambda: link.decide_join(body["join"], True).result(5)) == \
        "Let the device into Blue's seat."
    status, paired, headers = wait(qtbot, lambda: phone.pair(join=body["join"], headers=from_("203.0.113.20")))
    assert (status, paired) == (200, {"ok": True}) and len(blue.devices) == 1
    status, state, _ = wait(qtbot, lambda: phone.request("GET", "api/state", headers=from_("203.0.113.20")))
    assert status == 200 and state["seat"]["name"] == "Blue"


@pytest.mark.parametrize("exposure", [Exposure(proxies=(parse_proxy("127.0.0.1"),), approve_joins=True)])
def test_the_referees_phone_sees_a_waiting_device_and_turns_it_away(qtbot, table):
    link, seats, told = table
    referee = Phone(link.url(seats["ref"]))
    _, waiting, _ = wait(qtbot, lambda: referee.pair(headers=from_("192.0.2.52")))
    wait(qtbot, lambda: link.decide_join(waiting["join"], True).result(5))
    assert wait(qtbot, lambda: referee.pair(join=waiting["join"], headers=from_("192.0.2.52")))[0] == 200
    stranger = Phone(link.url(seats["blue"]), user_agent=ANDROID)
    _, asked, _ = wait(qtbot, lambda: stranger.pair(headers=from_("198.51.100.7")))
    _, view, _ = wait(qtbot, lambda: referee.request("GET", "api/state", headers=from_("192.0.2.52")))
    shown = next(s for s in view["seats"] if s["name"] == "Blue")["waiting"]
    assert [(w["join"], w["from"], w["device"]) for w in shown] == \
        [(asked["join"], "198.51.100.7", "Chrome on Android")]
    status, answer, _ = wait(qtbot, lambda: referee.request(
        "POST", "api/joins", {"join": asked["join"], "allow": False}, headers=from_("192.0.2.52")))
    assert status == 200 and answer["message"] == "Turned the device away from Blue's seat."
    status, refused, _ = wait(qtbot, lambda: stranger.pair(join=asked["join"], headers=from_("198.51.100.7")))
    assert status == 403 and refused["error"] == "The referee did not let this device in."
    assert not seats["blue"].devices
    # Told once; asking with the old question again is a question that lapsed.
    assert wait(qtbot, lambda: stranger.pair(join=asked["join"], headers=from_("198.51.100.7")))[0] == 410


@pytest.mark.parametrize("exposure", [Exposure(proxies=(parse_proxy("127.0.0.1"),), approve_joins=True)])
def test_a_ninth_device_allowed_does_not_evict_the_first(qtbot, table):
    link, seats, _told = table
    blue = seats["blue"]
    phones = [Phone(link.url(blue)) for _ in range(MAX_DEVICES + 1)]
    for n, phone in enumerate(phones):  # each asks, and the referee lets the first eight in
        _, asked, _ = wait(qtbot, lambda: phone.pair(headers=from_(f"198.51.100.{n}")))
        phone.join = asked["join"]
        if n < MAX_DEVICES:
            wait(qtbot, lambda: link.decide_join(phone.join, True).result(5))
    with pytest.raises(ValueError, match=f"already has {MAX_DEVICES} phones"):
        wait(qtbot, lambda: link.decide_join(phones[-1].join, True).result(5))
    first = phones[0]
    assert wait(qtbot, lambda: first.pair(join=first.join, headers=from_("198.51.100.0")))[0] == 200
    assert wait(qtbot, lambda: first.request("GET", "api/state", headers=from_("198.51.100.0")))[0] == 200
    assert len(blue.devices) == MAX_DEVICES


# -- the throttle's memory -----------------------------------------------------------------
def test_the_throttles_memory_is_bounded_without_forgetting_the_source_under_attack():
    from shipsheet.share.throttle import Failures, RateLimit
    now = [0.0]
    failures = Failures(allowed=5, window=600, capacity=64, clock=lambda: now[0])
    for _ in range(6):
        failures.fail("attacker")
    assert failures.refused("attacker")
    for n in range(10_000):  # one wrong try each from ten thousand addresses
        now[0] += 0.01
        failures.fail(f"2001:db8::{n:x}")
    assert len(failures) <= 64 and failures.refused("attacker")
    limit = RateLimit(rate=0.001, burst=3, capacity=64, clock=lambda: now[0])
    assert [limit.allow("attacker") for _ in range(4)] == [True, True, True, False]
    for n in range(10_000):
        limit.allow(f"2001:db8::{n:x}")
    assert len(limit) <= 64 and not limit.allow("attacker")


# -- cookies, hosts, origins ----------------------------------------------------------------
@pytest.mark.parametrize("headers, secure", [
    ({"X-Forwarded-For": "203.0.113.20", "X-Forwarded-Proto": "https"}, True),
    ({"X-Forwarded-For": "203.0.113.20", "X-Forwarded-Proto": "http"}, False),
    ({}, False),
])
def test_the_device_cookie_is_secure_whenever_the_page_came_over_https(qtbot, table, headers, secure):
    link, seats, _told = table
    phone = Phone(link.url(seats["blue"]))
    status, _, answer = wait(qtbot, lambda: phone.pair(headers=headers))
    cookie = answer["Set-Cookie"]
    assert status == 200 and ("; Secure" in cookie) is secure
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


@pytest.mark.parametrize("exposure", [Exposure(public=parse_public_url("https://table.test:8443"), approve_joins=False)])
def test_the_public_address_is_answered_for_and_nothing_else(qtbot, table):
    link, seats, _told = table
    lan = link.url(seats["blue"], "127.0.0.1")
    public = Phone(lan, host="table.test:8443", origin="https://table.test:8443")
    status, _, answer = wait(qtbot, lambda: public.pair())
    assert status == 200 and "; Secure" in answer["Set-Cookie"]  # the https public address
    for host, origin, expected in [
            ("table.test:8443", "http://table.test:8443", 403),  # not the scheme it is at
            ("table.test:8443", "https://table.test", 403),      # not its port
            ("table.test:8443", "https://table.test:8443.evil.example", 403),
            ("table.test", "https://table.test", 421),           # not the host it is
            ("evil.example", "https://evil.example", 421),
            (None, f"https://127.0.0.1:{link.port}", 403)]:       # the LAN's is http
        phone = Phone(lan, host=host, origin=origin)
        assert wait(qtbot, lambda: phone.pair())[0] == expected, (host, origin)


# -- slow and idle connections --------------------------------------------------------------
def test_slow_and_idle_connections_are_cut(qtbot, monkeypatch):
    """Slowloris: headers a byte at a time never finish a request and the connection is
    closed; a body that does not arrive is answered 408. (The limits are shortened here;
    what matters is that the server closes, not when.)"""
    from shipsheet.share import server
    monkeypatch.setattr(server, "KEEPALIVE", 1.0)
    monkeypatch.setattr(server, "BODY_TIMEOUT", 1.0)
    session = sample("fedcom")
    link, (blue,) = share(session, seats=[("Blue", PLAYER, ("Blue",), ())])
    try:
        def slow_headers():
            """Headers a byte every fifth of a second, never finishing: cut."""
            with socket.create_connection(("127.0.0.1", link.port), timeout=30) as sock:
                sock.sendall(b"GET /s/x/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                sock.settimeout(0.2)
                for _ in range(150):
                    try:
                        sock.sendall(b"a")
                        if sock.recv(1024) == b"":
                            return "closed"
                    except socket.timeout:
                        continue
                    except OSError:
                        return "closed"
                return "still open"

        def idle():
            with socket.create_connection(("127.0.0.1", link.port), timeout=30) as sock:
                try:
                    return sock.recv(1024) or "closed"
                except ConnectionError:
                    return "closed"

        def slow_body():
            with socket.create_connection(("127.0.0.1", link.port), timeout=30) as sock:
                sock.sendall(f"POST /s/{blue.id}/api/pair HTTP/1.1\r\nHost: 127.0.0.1:{link.port}\r\n"
                             f"Origin: http://127.0.0.1:{link.port}\r\nContent-Type: application/json\r\n"
                             "Content-Length: 100\r\n\r\n{\"secret\":".encode())
                return sock.recv(4096)
        assert wait(qtbot, idle, timeout=30_000) == "closed"
        assert wait(qtbot, slow_headers, timeout=40_000) == "closed"
        assert wait(qtbot, slow_body, timeout=30_000).startswith(b"HTTP/1.1 408")
    finally:
        link.stop()


# -- HTTPS with the referee's own certificate -------------------------------------------------
def test_https_with_a_certificate_of_the_referees_own(qtbot, tmp_path):
    cert, key = make_certificate(tmp_path)
    exposure = Exposure.from_options(tls_cert=str(cert), tls_key=str(key))
    session = sample("fedcom")
    link, (blue,) = share(session, exposure=exposure, seats=[("Blue", PLAYER, ("Blue",), ())])
    try:
        url = link.url(blue)
        assert url.startswith(f"https://127.0.0.1:{link.port}/s/{blue.id}/#k=")
        phone = Phone(url, context=trusting(cert))
        status, _, answer = wait(qtbot, phone.pair)
        assert status == 200 and "; Secure" in answer["Set-Cookie"]
        status, state, _ = wait(qtbot, phone.state)
        assert status == 200 and state["seat"]["name"] == "Blue"
        messages = listen(phone, 2)
        qtbot.waitUntil(lambda: link.presence()[blue.id].connected == 1, timeout=10_000)
        session.next_phase()
        qtbot.waitUntil(messages.done, timeout=10_000)
        assert messages.result()[1]["phase"] == session.phase
        # Plain HTTP to it, and a phone that does not trust the certificate, get nothing.
        plain = Phone(url.replace("https://", "http://"))
        with pytest.raises(Exception):
            wait(qtbot, plain.pair)
        stranger = Phone(url, context=ssl.create_default_context())
        with pytest.raises(Exception, match="CERTIFICATE_VERIFY_FAILED"):
            wait(qtbot, stranger.pair)
    finally:
        link.stop()


@pytest.mark.parametrize("options, words", [
    ({"public_url": "table.example.net"}, "starts with https://"),
    ({"public_url": "https://table.example.net/sheets"}, "the host alone"),
    ({"public_url": "https://user@table.example.net"}, "no user name"),
    ({"proxies": ["proxy.example.net"]}, "an IP address"),
    ({"tls_cert": "table.crt"}, "both the certificate and its key"),
    ({"tls_cert": "missing.crt", "tls_key": "missing.key"}, "cannot be used"),
])
def test_an_exposure_given_wrong_is_refused_in_words(options, words):
    with pytest.raises(ValueError, match=words):
        Exposure.from_options(**options)


def test_waiting_devices_are_bounded_and_their_questions_lapse():
    from shipsheet.share.joins import EXPIRES, PER_SEAT, JoinBook, describe_device
    now = [0.0]
    book = JoinBook(clock=lambda: now[0])
    asked = [book.ask("blue", f"198.51.100.{n}", "Chrome on Android") for n in range(PER_SEAT + 1)]
    assert all(asked[:PER_SEAT]) and asked[PER_SEAT] is None  # the fifth is told to try later
    assert book.ask("blue", "198.51.100.0", "Chrome on Android") is asked[0]  # the same question
    assert book.ask("red", "198.51.100.0", "Firefox on Windows") is not None  # another seat's
    now[0] += EXPIRES + 1
    assert book.waiting() == [] and book.get(asked[0].id) is None
    assert describe_device("<script>alert(1)</script>") == "an unknown browser"
    assert describe_device("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
                           "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1") == "Safari on iPhone"


def test_a_seat_locks_after_20_wrong_links_in_10_minutes():
    """The issue's numbers (Triplanetary-VTT locks a table after 20 wrong codes in 10
    minutes): twenty wrong in ten minutes lock; twenty spread over more do not."""
    from shipsheet.share.throttle import SeatLocks
    now = [0.0]
    locks = SeatLocks(clock=lambda: now[0])
    for n in range(19):
        assert not locks.wrong("blue", f"198.51.100.{n}")
        now[0] += 31.0  # 19 in 9 min 49 s
    assert locks.wrong("blue", "198.51.100.99") and locks.locked("blue")  # the 20th, at 589 s
    assert locks.last_source("blue") == "198.51.100.99" and not locks.locked("red")
    assert locks.open("blue") and not locks.locked("blue")
    for n in range(20):
        assert not locks.wrong("blue", "198.51.100.1")
        now[0] += 32.0  # 20 over 10 min 8 s: the oldest is always out of the window
    assert not locks.locked("blue")

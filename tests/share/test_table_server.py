"""Table Link's server with a real HTTP server on 127.0.0.1 and phones that are plain HTTP
clients: pairing, what each seat sees, taps through the rules, revisions, retries, and the
security of it all (wrong secrets, forged ships, foreign hosts, oversized bodies)."""

from __future__ import annotations

import gzip
import json
import re

import pytest

from shipsheet.model import RenameShip
from shipsheet.model.actions import SetSide
from shipsheet.share import SeatBook
from shipsheet.share.seats import PLAYER, REFEREE, SPECTATOR

from .phone import Phone, listen, sample, share, wait


@pytest.fixture
def fedcom(qtbot):
    session = sample("fedcom")
    link, (blue, red, ref, watcher) = share(session, seats=[
        ("Blue", PLAYER, ("Blue",), ()), ("Red", PLAYER, ("Red",), ()),
        ("Referee", REFEREE, (), ()), ("Watcher", SPECTATOR, (), ())])
    yield session, link, {"blue": blue, "red": red, "ref": ref, "watcher": watcher}
    link.stop()


def paired(qtbot, link, seat) -> Phone:
    phone = Phone(link.url(seat))
    status, body, _ = wait(qtbot, phone.pair)
    assert status == 200 and body == {"ok": True}
    return phone


def ship_of(state, name):
    return next(s for s in state["ships"] if s["name"] == name)


def test_link_carries_the_secret_only_in_the_fragment(fedcom):
    session, link, seats = fedcom
    url = link.url(seats["blue"])
    assert url.startswith(f"http://127.0.0.1:{link.port}/s/{seats['blue'].id}/#k=")
    assert len(seats["blue"].secret) >= 43  # 32 random bytes, url-safe


def test_a_player_sees_only_its_own_ships_drawn_as_svg(qtbot, fedcom):
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["blue"])
    status, state, headers = wait(qtbot, phone.state)
    assert status == 200
    assert [s["name"] for s in state["ships"]] == ["Resolute", "Swift", "Bastion"]
    assert state["session"]["turn"] == session.turn and state["session"]["phase"] == session.phase
    assert "Content-Security-Policy" in headers and "script-src 'self'" in headers["Content-Security-Policy"]
    resolute = ship_of(state, "Resolute")
    assert resolute["areas"] and all({"key", "label", "tap", "x", "y", "w", "h"} <= set(a) for a in resolute["areas"])
    status, svg, hdrs = wait(qtbot, lambda: phone.request("GET", resolute["svg"], headers={"Accept-Encoding": "identity"}))
    assert status == 200 and hdrs["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in svg and b"Resolute" in svg
    assert len(gzip.compress(svg)) < 100_000  # a sheet's transfer under 100 KB compressed
    # Nothing of the other side, nor the session file's dice seed.
    text = json.dumps(state)
    assert "Hornet" not in text and "Lance" not in text and str(session.dice.seed) not in text


def test_a_players_tap_on_damage_is_refused_in_plain_words_and_changes_nothing(qtbot, fedcom):
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["blue"])
    _, state, _ = wait(qtbot, phone.state)
    resolute = ship_of(state, "Resolute")
    damage = next(a for a in resolute["areas"] if not a["tap"] and a["refusal"]
                  and "mark damage" in a["refusal"])
    before = json.dumps(session.ship("Resolute").state, sort_keys=True)
    status, answer, _ = wait(qtbot, lambda: phone.act(state, resolute, kind="tap", key=damage["key"]))
    assert status == 403 and answer["error"] == "Your seat may not mark damage; the referee does."
    assert json.dumps(session.ship("Resolute").state, sort_keys=True) == before
    assert "phone" not in (session.undo_status().undo or "")


def test_the_referees_tap_is_one_undo_step_logged_with_the_seat_and_a_retry_applies_once(qtbot, fedcom):
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["ref"])
    _, state, _ = wait(qtbot, phone.state)
    hornet = ship_of(state, "Hornet")
    area = next(a for a in hornet["areas"] if a["tap"])
    steps = len(session._undo)
    status, answer, _ = wait(qtbot, lambda: phone.act(state, hornet, kind="tap", key=area["key"], id="retry-me-0001"))
    assert status == 200 and answer["ok"], answer
    assert len(session._undo) == steps + 1
    assert session.undo_status().undo.endswith("— Referee's phone")
    assert any(e.text.endswith("— Referee's phone") and e.kind == "action" for e in session.log)
    assert ship_of(answer["state"], "Hornet")["rev"] == hornet["rev"] + 1
    # The same request again (a retry after a dropped connection): the first answer, once.
    status2, again, _ = wait(qtbot, lambda: phone.act(state, hornet, kind="tap", key=area["key"], id="retry-me-0001"))
    assert status2 == 200 and again["message"] == answer["message"]
    assert len(session._undo) == steps + 1


def test_a_stale_revision_is_refused_with_the_current_sheet(qtbot, fedcom):
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["ref"])
    _, state, _ = wait(qtbot, phone.state)
    hornet = ship_of(state, "Hornet")
    taps = [a for a in hornet["areas"] if a["tap"]]
    wait(qtbot, lambda: phone.act(state, hornet, kind="tap", key=taps[0]["key"]))
    steps = len(session._undo)
    status, answer, _ = wait(qtbot, lambda: phone.act(state, hornet, kind="tap", key=taps[1]["key"]))
    assert status == 409 and "changed since your phone drew it" in answer["error"]
    assert ship_of(answer["state"], "Hornet")["rev"] == hornet["rev"] + 1
    assert len(session._undo) == steps


def test_an_option_changing_no_ships_state_still_redraws_every_phones_sheets(qtbot, fedcom):
    """An option (a chart, standard combat) changes how every sheet is drawn, though it
    touches no ship's state: every ship's revision moves, so phones draw them again."""
    from shipsheet.model.actions import SetOption
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["ref"])
    _, before, _ = wait(qtbot, phone.state)
    session.apply(SetOption("chart", session.options.get("chart"), "Use the same chart again"))
    _, after, _ = wait(qtbot, phone.state)
    assert all(ship_of(after, s["name"])["rev"] == s["rev"] + 1 for s in before["ships"])


def test_the_window_change_reaches_the_phone_live(qtbot, fedcom):
    """Pushed on the phone's open connection (both messages come on the one socket ``listen``
    opened; nothing else sends them). How soon is timed in ``make bench``
    (tests/benchmarks/test_table_link_speed.py), not here."""
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["blue"])
    messages = listen(phone, 2)
    qtbot.waitUntil(lambda: link.presence()[seats["blue"].id].connected == 1, timeout=5000)
    session.next_phase()
    qtbot.waitUntil(messages.done, timeout=10_000)  # generous: that it comes at all
    first, second = messages.result()
    assert first["type"] == "changed" and second["type"] == "changed"
    assert second["phase"] == session.phase and second["phase"] != first["phase"]


@pytest.mark.parametrize("seat", ["blue", "red", "watcher"])
def test_a_seat_is_told_when_a_ship_leaves_or_joins_it(qtbot, fedcom, seat):
    """Swift changes sides: Blue's seat no longer sees it, Red's does, the spectator's sees
    its new revision — each is told, Blue's too though it sees none of the ships that moved
    now (a seat is told nothing new only when no ship it saw or sees moved)."""
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats[seat])
    messages = listen(phone, 2)
    qtbot.waitUntil(lambda: link.presence()[seats[seat].id].connected == 1, timeout=5000)
    swift = session.ship("Swift")
    session.apply(SetSide(swift, "Red"))
    qtbot.waitUntil(messages.done, timeout=10_000)
    first, second = messages.result()
    assert (swift.id in first["revs"]) == (seat != "red")
    assert (swift.id in second["revs"]) == (seat != "blue")


def test_a_seat_that_sees_no_ship_that_moved_is_told_nothing(qtbot, fedcom):
    """A change to Red's ship: Blue's phone is not woken (its view did not move); Red's is."""
    session, link, seats = fedcom
    blue, red = paired(qtbot, link, seats["blue"]), paired(qtbot, link, seats["red"])
    blue_heard, red_heard = listen(blue, 2, timeout=1.5), listen(red, 2)
    qtbot.waitUntil(lambda: link.presence()[seats["blue"].id].connected == 1
                    and link.presence()[seats["red"].id].connected == 1, timeout=5000)
    hornet = session.ship("Hornet")
    session.apply(RenameShip(hornet, "Wasp"))
    qtbot.waitUntil(red_heard.done, timeout=10_000)
    assert red_heard.result()[1]["revs"][hornet.id] > red_heard.result()[0]["revs"][hornet.id]
    with pytest.raises(TimeoutError):  # its second message never came (told with Red's)
        blue_heard.result(timeout=10)


def test_a_captured_ship_moves_to_the_seat_of_its_new_side(qtbot, fedcom):
    session, link, seats = fedcom
    red = paired(qtbot, link, seats["red"])
    _, state, _ = wait(qtbot, red.state)
    assert "Swift" not in [s["name"] for s in state["ships"]]
    session.apply(SetSide(session.ship("Swift"), "Red"))
    _, state, _ = wait(qtbot, red.state)
    assert "Swift" in [s["name"] for s in state["ships"]]
    blue = paired(qtbot, link, seats["blue"])
    _, state, _ = wait(qtbot, blue.state)
    assert "Swift" not in [s["name"] for s in state["ships"]]


def test_a_spectator_sees_the_sheets_and_nobodys_decisions(qtbot, fedcom):
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["watcher"])
    _, state, _ = wait(qtbot, phone.state)
    assert len(state["ships"]) == 5
    assert all(s["forms"] == [] and not any(a["tap"] or a["menu"] for a in s["areas"]) for s in state["ships"])


# -- security -----------------------------------------------------------------------------

def test_a_wrong_or_forged_secret_opens_nothing(qtbot, fedcom):
    session, link, seats = fedcom
    phone = Phone(link.url(seats["blue"]))
    status, body, _ = wait(qtbot, lambda: phone.pair("x" * 43))
    assert status == 403 and "no longer valid" in body["error"]
    # Red's secret does not open Blue's seat.
    status, _, _ = wait(qtbot, lambda: phone.pair(seats["red"].secret))
    assert status == 403
    status, body, _ = wait(qtbot, phone.state)
    assert status == 401
    # A made-up device cookie does not either.
    phone.jar.clear()
    status, _, _ = wait(qtbot, lambda: phone.request("GET", "api/state",
                                                     headers={"Cookie": "shipsheet_device=" + "A" * 43}))
    assert status == 401


def test_another_seats_ship_forged_in_a_request_is_refused(qtbot, fedcom):
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["blue"])
    _, state, _ = wait(qtbot, phone.state)
    hornet = session.ship("Hornet")
    before = json.dumps(hornet.state, sort_keys=True)
    forged = {"id": hornet.id, "rev": 1}
    status, answer, _ = wait(qtbot, lambda: phone.act(state, forged, kind="tap", key="x"))
    assert status == 404 and "no such ship" in answer["error"]
    status, _, _ = wait(qtbot, lambda: phone.request("GET", f"api/sheet/{hornet.id}/{state['epoch']}-1.svg"))
    assert status == 404
    assert json.dumps(hornet.state, sort_keys=True) == before
    assert "Hornet" not in json.dumps(answer["state"])


def test_revoking_a_seat_closes_its_phones_at_once(qtbot, fedcom):
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["blue"])
    messages = listen(phone, 3)
    qtbot.waitUntil(lambda: link.presence()[seats["blue"].id].connected == 1, timeout=5000)
    old_url = link.url(seats["blue"])
    link.revoke(seats["blue"].id)
    qtbot.waitUntil(messages.done, timeout=5000)
    got = messages.result()
    assert {"type": "revoked"} in got
    status, _, _ = wait(qtbot, phone.state)
    assert status == 401
    stale = Phone(old_url)
    status, _, _ = wait(qtbot, stale.pair)
    assert status == 403
    assert link.url(seats["blue"]) != old_url


@pytest.mark.parametrize("headers, expected", [
    ({"Host": "evil.example:80"}, 421),
    ({"Origin": "http://evil.example"}, 403),
    ({"Origin": ""}, 403),
])
def test_foreign_hosts_and_origins_are_refused(qtbot, fedcom, headers, expected):
    session, link, seats = fedcom
    phone = Phone(link.url(seats["ref"]), origin=headers.get("Origin"), host=headers.get("Host"))
    status, body, _ = wait(qtbot, phone.pair)
    assert status == expected
    assert not seats["ref"].devices


def test_oversized_malformed_and_odd_bodies_change_nothing(qtbot, fedcom):
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["ref"])
    _, state, _ = wait(qtbot, phone.state)
    steps = len(session._undo)
    status, _, _ = wait(qtbot, lambda: phone.request("POST", "api/act", raw=b"{" + b" " * 20000 + b"}"))
    assert status == 413
    status, body, _ = wait(qtbot, lambda: phone.request("POST", "api/act", raw=b"{not json"))
    assert status == 400
    for odd in ([], {"id": "short"}, {"id": "a" * 20, "kind": "explode"},
                {"id": "b" * 20, "kind": "tap", "epoch": state["epoch"], "ship": 5},
                {"id": "c" * 20, "kind": "menu", "epoch": state["epoch"],
                 "ship": state["ships"][0]["id"], "rev": state["ships"][0]["rev"], "key": "x" * 300},
                {"id": "d" * 20, "kind": "decide", "epoch": state["epoch"],
                 "ship": state["ships"][0]["id"], "rev": state["ships"][0]["rev"], "form": "nope"}):
        status, body, _ = wait(qtbot, lambda o=odd: phone.request("POST", "api/act", o))
        assert status in (200, 400, 404) and body["ok"] is False and body["error"], (odd, body)
    assert len(session._undo) == steps


@pytest.mark.parametrize("path", ["/static/../../etc/passwd", "/static/%2e%2e%2fseats.json",
                                  "/static/page.html/../../server.py", "/s/../static/page.js",
                                  "/static/seats-x.json"])
def test_no_path_reaches_a_file(qtbot, fedcom, path):
    session, link, seats = fedcom
    phone = Phone(link.url(seats["blue"]))
    status, body, _ = wait(qtbot, lambda: phone.request("GET", path))
    assert status == 404 or (status == 200 and b"root:" not in body and b"import" not in body)


def test_a_session_file_brings_no_seats(qtbot, tmp_path):
    """Seats live in the user's state folder: a session file from someone else carrying
    "seats" either loads without them or is refused; either way no seat opens."""
    from shipsheet.model.storage import load_session, session_to_data
    session = sample("fedcom")
    data = session_to_data(session)
    data["seats"] = [{"id": "evilseat01", "name": "Mallory", "role": "referee",
                      "secret": "s" * 43, "devices": []}]
    path = tmp_path / "hostile.shipsheet"
    path.write_text(json.dumps(data))
    try:
        loaded = load_session(path)
    except Exception:
        return
    assert SeatBook(loaded.uid, path=path).seats == []


def test_seats_persist_and_the_port_is_used_again(qtbot, tmp_path):
    session = sample("triplanetary")
    file = tmp_path / "mars.shipsheet"
    link, (seat,) = share(session, seats=[("Mars", PLAYER, ("Mars Patrol",), ())], path=file)
    port = link.port
    link.stop()
    again, _ = share(session, path=file)
    try:
        assert again.port == port
        assert [s.name for s in again.book.seats] == ["Mars"]
        assert again.book.seat(seat.id).secret == seat.secret
    finally:
        again.stop()


def test_a_spectator_does_not_see_the_owners_standing_orders(qtbot, fedcom):
    """Federation Commander's standing orders are the owner's: a seat that does not own the
    ship is sent its sheet without them (the decisions piece's public_state)."""
    session, link, seats = fedcom
    resolute = session.ship("Resolute")
    assert resolute.state.get("orders"), "the sample's Resolute has standing orders"
    owner = paired(qtbot, link, seats["blue"])
    watcher = paired(qtbot, link, seats["watcher"])
    _, mine, _ = wait(qtbot, owner.state)
    _, theirs, _ = wait(qtbot, watcher.state)
    own_svg = wait(qtbot, lambda: owner.request("GET", ship_of(mine, "Resolute")["svg"],
                                                headers={"Accept-Encoding": "identity"}))[1]
    public_svg = wait(qtbot, lambda: watcher.request("GET", ship_of(theirs, "Resolute")["svg"],
                                                     headers={"Accept-Encoding": "identity"}))[1]
    assert b"hit last" in own_svg
    assert b"hit last" not in public_svg and b"Resolute" in public_svg


def test_the_referees_seat_steps_the_phase_and_gives_a_seat_a_new_link(qtbot, fedcom):
    """The referee's seat (the headless host's) does what the window's buttons do: the next
    phase or turn as one undo step, and a new link for a seat (its phones closed out)."""
    session, link, seats = fedcom
    referee = paired(qtbot, link, seats["ref"])
    blue = paired(qtbot, link, seats["blue"])
    _, state, _ = wait(qtbot, referee.state)
    assert {s["name"] for s in state["seats"]} == {"Blue", "Red", "Referee", "Watcher"}
    _, blue_state, _ = wait(qtbot, blue.state)
    assert blue_state["seats"] == []  # nobody else is told of the other seats
    phase = session.phase
    status, answer, _ = wait(qtbot, lambda: referee.request("POST", "api/act", {
        "id": "next-phase-0001", "epoch": state["epoch"], "kind": "phase", "step": "phase"}))
    assert status == 200 and answer["ok"] and session.phase != phase, answer
    assert session.undo_status().undo == "Next phase — Referee's phone"
    assert answer["state"]["session"]["phase"] == session.phase
    # A player's seat may not.
    status, answer, _ = wait(qtbot, lambda: blue.request("POST", "api/act", {
        "id": "next-phase-0002", "epoch": state["epoch"], "kind": "phase", "step": "turn"}))
    assert status == 403 and "referee" in answer["error"]
    status, answer, _ = wait(qtbot, lambda: blue.request("POST", "api/act", {
        "id": "revoke-red-0001", "epoch": state["epoch"], "kind": "revoke", "seat": seats["red"].id}))
    assert status == 403
    # The referee gives Blue a new link: Blue's phone is out at once.
    old = seats["blue"].secret
    status, answer, _ = wait(qtbot, lambda: referee.request("POST", "api/act", {
        "id": "revoke-blue-001", "epoch": state["epoch"], "kind": "revoke", "seat": seats["blue"].id}))
    assert status == 200 and "New link for Blue" in answer["message"]
    assert seats["blue"].secret != old
    assert wait(qtbot, blue.state)[0] == 401
    status, answer, _ = wait(qtbot, lambda: referee.request("POST", "api/act", {
        "id": "revoke-self-001", "epoch": state["epoch"], "kind": "revoke", "seat": seats["ref"].id}))
    assert status == 400


def test_each_sheet_is_drawn_once_per_ship_and_revision(qtbot, fedcom):
    """Three phones of one seat asking for the same sheets, twice: each ship's sheet is drawn
    once per revision (on the render thread), then served from that drawing."""
    session, link, seats = fedcom
    phones = [paired(qtbot, link, seats["blue"]) for _ in range(3)]
    for phone in phones * 2:
        _, state, _ = wait(qtbot, phone.state)
        for ship in state["ships"]:
            assert wait(qtbot, lambda s=ship: phone.request("GET", s["svg"]))[0] == 200
    assert link.server.render_count == 3  # Blue's three ships
    session.apply(SetSide(session.ship("Swift"), "Blue"))  # touches Swift only
    for phone in phones:
        wait(qtbot, phone.state)
    assert link.server.render_count == 4


def test_a_ships_boxes_are_fetched_once_per_revision_and_only_at_its_seat(qtbot, fedcom):
    """The view names each ship's boxes at an address of their own, one per revision (the
    referee's look at a table of 12 ships was 0.8 MB, nearly all of it every ship's boxes,
    at every change): after a change to Swift, Swift's address moves and Resolute's stays,
    so a look fetches Swift's boxes alone. Another seat cannot read them."""
    session, link, seats = fedcom
    blue, red = paired(qtbot, link, seats["blue"]), paired(qtbot, link, seats["red"])
    _, view, _ = wait(qtbot, lambda: blue.request("GET", "api/state"))
    assert all("areas" not in ship for ship in view["ships"])
    before = {ship["name"]: ship["boxes"] for ship in view["ships"]}
    status, boxes, headers = wait(qtbot, lambda: blue.request("GET", before["Resolute"]))
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert "immutable" in headers["Cache-Control"] and len(boxes) > 50
    assert {"key", "label", "tap", "x", "y", "w", "h"} <= set(boxes[0])
    status, packed, headers = wait(qtbot, lambda: blue.request("GET", before["Resolute"],
                                                                 headers={"Accept-Encoding": "gzip"}))
    assert headers.get("Content-Encoding") == "gzip" and packed == boxes  # sent gzipped
    session.apply(SetSide(session.ship("Swift"), "Blue"))  # touches Swift only
    _, view, _ = wait(qtbot, lambda: blue.request("GET", "api/state"))
    after = {ship["name"]: ship["boxes"] for ship in view["ships"]}
    assert after["Resolute"] == before["Resolute"] and after["Swift"] != before["Swift"]
    assert wait(qtbot, lambda: red.request("GET", before["Resolute"]))[0] == 401  # Blue's seat's address
    red_path = before["Resolute"].replace(seats["blue"].id, seats["red"].id)
    assert wait(qtbot, lambda: red.request("GET", red_path))[0] == 404  # not a ship Red sees


def test_a_sheet_with_nothing_private_is_drawn_once_for_its_owner_and_the_others(qtbot, fedcom):
    """Blue's phone and a spectator's look at every ship: a ship whose owner keeps nothing
    private now is drawn once for both (the public sheet is the owner's, without its
    forms); Resolute, with standing orders only Blue may read, is drawn for each, and the
    spectator's drawing is not Blue's."""
    session, link, seats = fedcom
    blue, watcher = paired(qtbot, link, seats["blue"]), paired(qtbot, link, seats["watcher"])
    _, mine, _ = wait(qtbot, blue.state)
    _, seen, _ = wait(qtbot, watcher.state)
    assert len(seen["ships"]) == 5 and len(mine["ships"]) == 3
    assert link.server.render_count == 6  # five ships, and Resolute again as the others see it
    svgs = {}
    for phone, state in ((blue, mine), (watcher, seen)):
        for ship in state["ships"]:
            status, body, _ = wait(qtbot, lambda p=phone, s=ship: p.request("GET", s["svg"]))
            assert status == 200
            svgs[(phone is blue, ship["name"])] = body
    assert svgs[(True, "Swift")] == svgs[(False, "Swift")]
    assert svgs[(True, "Resolute")] != svgs[(False, "Resolute")]
    assert ship_of(seen, "Swift")["forms"] == []
    assert link.server.render_count == 6


def test_a_look_says_each_ships_size_without_drawing_it(qtbot, fedcom):
    """A seat that sees every ship shows one (page.js fetches the drawing and boxes of the
    ship its tab shows): its look says each ship's size from a recording, drawing none;
    a ship is drawn when its sheet is asked for, at the size the look said."""
    session, link, seats = fedcom
    watcher = paired(qtbot, link, seats["watcher"])
    before = link.server.render_count
    status, view, _ = wait(qtbot, lambda: watcher.request("GET", "api/state"))
    assert status == 200 and len(view["ships"]) == 5
    assert link.server.render_count == before  # the look drew nothing
    for ship in view["ships"]:
        status, svg, _ = wait(qtbot, lambda s=ship: watcher.request("GET", s["svg"]))
        assert status == 200
        box = re.search(rb'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
        assert (float(box[1]), float(box[2])) == pytest.approx((ship["width"], ship["height"]), abs=0.01)
    # Four ships keep nothing to their owners: their public sheet is the owner's drawing.
    # Resolute's standing orders are Blue's: it is drawn as the others see it.
    assert link.server.render_count == before + 5


def test_the_public_sheet_a_phone_shows_is_drawn_ahead_at_a_change_and_the_others_not(qtbot, fedcom):
    """Between changes the server starts what connected phones will ask for: the public
    sheet of the ship a spectator's phone shows (the last it asked for) is drawn at the
    change, before any request; another ship's change is only measured for its look."""
    session, link, seats = fedcom
    watcher = paired(qtbot, link, seats["watcher"])
    _, view, _ = wait(qtbot, lambda: watcher.request("GET", "api/state"))
    resolute = ship_of(view, "Resolute")  # its standing orders are Blue's: a public sheet of its own
    assert wait(qtbot, lambda: watcher.request("GET", resolute["svg"]))[0] == 200
    messages = listen(watcher, 2)
    qtbot.waitUntil(lambda: link.presence()[seats["watcher"].id].connected == 1, timeout=5000)
    before = link.server.render_count
    session.apply(RenameShip(session.ship("Resolute"), "Resolute II"))
    qtbot.waitUntil(lambda: link.server.render_count == before + 1, timeout=5000)
    session.apply(RenameShip(session.ship("Swift"), "Swift II"))  # shown by no phone
    qtbot.waitUntil(messages.done, timeout=10_000)  # both changes' work started (then told)
    link.server._renderer.submit(lambda: None).result(10)  # the render thread's queue done
    assert link.server.render_count == before + 1


def test_a_tap_or_a_decision_on_a_ship_not_the_seats_own_is_refused_in_the_same_words(qtbot, fedcom):
    """PROTOCOL.md, the seat's view: a box whose tap needs a right the seat lacks on that
    ship says why (seats.not_yours), and a request refused for that reason says the same."""
    session, link, seats = fedcom
    watcher = paired(qtbot, link, seats["watcher"])
    _, state, _ = wait(qtbot, watcher.state)
    resolute = ship_of(state, "Resolute")
    refusals = {a["refusal"] for a in resolute["areas"]}
    decide = "Your seat does not make Resolute's decisions."
    assert {"Your seat may not mark damage; the referee does.", decide} <= refusals
    status, answer, _ = wait(qtbot, lambda: watcher.act(state, resolute, kind="decide", form="orders",
                                                        values={}))
    assert status == 403 and answer["error"] == decide


def test_a_seat_is_sent_at_most_200_log_lines_of_its_ships_and_the_session(qtbot):
    """PROTOCOL.md: the log lines of the seat's ships and the session's own lines that name
    no ship (turn, phase, actions), newest last, at most 200."""
    from shipsheet.model.log import LogEntry
    session = sample("fedcom")
    kinds = ("action", "phase", "roll", "detail", "note")
    for i in range(300):
        ship = session.ships[i % len(session.ships)].id if i % 3 else None
        session.log.append(LogEntry(f"line {i}", kind=kinds[i % len(kinds)], ship=ship))
    link, (blue,) = share(session, seats=[("Blue", PLAYER, ("Blue",), ())])
    try:
        phone = paired(qtbot, link, blue)
        _, state, _ = wait(qtbot, phone.state)
        own = {s.id: s.name for s in session.ships if s.side == "Blue"}
        expected = [e for e in session.log
                    if (e.ship in own if e.ship else e.kind in ("phase", "action"))][-200:]
        assert len(expected) == 200
        assert [(l["text"], l["ship"]) for l in state["log"]] == \
            [(e.text, own.get(e.ship)) for e in expected]
    finally:
        link.stop()


def test_an_old_sheet_revision_is_answered_with_the_current_sheet_never_cached(qtbot, fedcom):
    """PROTOCOL.md: an old revision is answered with the current one; only the current
    revision's URL may be cached (it never changes)."""
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["blue"])
    _, state, _ = wait(qtbot, phone.state)
    resolute = ship_of(state, "Resolute")
    identity = {"Accept-Encoding": "identity"}
    status, current, headers = wait(qtbot, lambda: phone.request("GET", resolute["svg"], headers=identity))
    assert status == 200 and headers["Cache-Control"] == "private, max-age=86400, immutable"
    old = resolute["svg"].replace(f"-{resolute['rev']}.svg", f"-{resolute['rev'] - 1}.svg")
    status, body, headers = wait(qtbot, lambda: phone.request("GET", old, headers=identity))
    assert status == 200 and body == current and headers["Cache-Control"] == "no-store"


def test_wrong_secrets_are_refused_per_client_after_a_few(qtbot, fedcom):
    """PROTOCOL.md: a client that sent a few wrong secrets is refused a while (SECURITY.md,
    "Beyond the room": counted per real client), with a plain refusal; the right secret
    from it is refused too until then, and another client is not."""
    from shipsheet.share.server import WRONG_SECRETS
    session, link, seats = fedcom
    phone = Phone(link.url(seats["blue"]))

    def guesses():
        return [phone.pair("x" * 43) for _ in range(WRONG_SECRETS + 10)]
    answers = wait(qtbot, guesses)
    statuses = [status for status, _, _ in answers]
    assert statuses[:WRONG_SECRETS] == [403] * WRONG_SECRETS
    assert set(statuses[WRONG_SECRETS + 1:]) == {429}
    assert next(body for status, body, _ in answers if status == 429) == \
        {"ok": False, "error": "Too many tries; wait a minute."}
    assert not seats["blue"].devices


def test_a_rate_limit_is_a_burst_then_a_steady_rate_per_key():
    from shipsheet.share.throttle import RateLimit
    limit = RateLimit(rate=0.001, burst=3)
    assert [limit.allow("blue") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("red")


def test_every_answer_carries_the_protocols_content_security_policy(qtbot, fedcom):
    """PROTOCOL.md, HTTP: the policy the server sends, to the letter, on the page, its files,
    the views and the refusals alike."""
    import re
    from pathlib import Path

    import shipsheet.share
    protocol = (Path(shipsheet.share.__file__).with_name("PROTOCOL.md")).read_text(encoding="utf-8")
    policy = " ".join(re.search(r"`Content-Security-Policy: ([^`]*)`", protocol).group(1).split())
    session, link, seats = fedcom
    phone = paired(qtbot, link, seats["blue"])
    for path in (phone.seat_path, "/static/page.js", "api/state", "/static/nothing.js"):
        status, _, headers = wait(qtbot, lambda p=path: phone.request("GET", p))
        assert status in (200, 404) and headers["Content-Security-Policy"] == policy, path


def test_the_seats_file_is_the_users_alone(qtbot, tmp_path):
    import os
    import stat
    session = sample("triplanetary")
    link, _ = share(session, seats=[("Mars", PLAYER, ("Mars Patrol",), ())],
                    path=tmp_path / "mars.shipsheet")
    try:
        if os.name == "posix":  # file modes are POSIX's (Windows: the profile folder's access list)
            assert stat.S_IMODE(os.stat(link.book.path).st_mode) == 0o600
    finally:
        link.stop()


def test_a_look_after_one_ships_change_writes_that_ships_entry_alone(qtbot, fedcom, monkeypatch):
    """A seat that sees every ship looks after every change of any of them: its view's entry
    for each ship is kept until that ship's sheet (or its name, class or side) moves, so a
    look after Swift's change writes Swift's entry afresh and repeats the other four — and
    the view says what a server that kept nothing says."""
    from shipsheet.share.server import TableServer
    session, link, seats = fedcom
    made = []
    original = TableServer._ship_text_made
    monkeypatch.setattr(TableServer, "_ship_text_made", staticmethod(
        lambda *args: (made.append(args[2].name), original(*args))[1]))
    watcher = paired(qtbot, link, seats["watcher"])
    _, first, _ = wait(qtbot, watcher.state)
    assert sorted(made) == sorted(ship["name"] for ship in first["ships"]) and len(made) == 5
    made.clear()
    _, again, _ = wait(qtbot, watcher.state)
    assert made == [] and again["ships"] == first["ships"]
    session.apply(SetSide(session.ship("Swift"), "Blue"))
    _, after, _ = wait(qtbot, watcher.state)
    assert made == ["Swift"]
    assert ship_of(after, "Swift")["side"] == "Blue"
    assert ship_of(after, "Swift")["rev"] > ship_of(first, "Swift")["rev"]
    link.server._ship_texts.clear()  # a server that kept nothing
    _, fresh, _ = wait(qtbot, watcher.state)
    assert fresh["ships"] == after["ships"]


def test_a_players_log_lines_are_those_the_whole_log_holds(qtbot, fedcom):
    """A player's seat reads its ships' log lines from the log's index by ship (LogIndex):
    after changes to its own ships and to others', its view's log is the one the whole
    log's tail gives, line for line — an undone change's lines marked so, a refused
    change's lines never there."""
    from shipsheet.model.errors import RuleViolation
    from shipsheet.share.server import _log_json_text
    session, link, seats = fedcom

    def as_whole_log_says() -> list:
        _, view, _ = wait(qtbot, blue.state)
        snap = link.server._snapshot
        names = {s.id: s.name for s in seats["blue"].visible(snap.session)}
        whole = json.loads(_log_json_text(snap, names, set(names)))
        assert view["log"] == whole
        return whole

    blue = paired(qtbot, link, seats["blue"])
    for name, side in (("Swift", "Red"), ("Resolute", "Blue"), ("Swift", "Blue"), ("Lance", "Red")):
        session.apply(SetSide(session.ship(name), side))
        as_whole_log_says()
    assert any(line["ship"] == "Swift" for line in as_whole_log_says())
    session.apply(RenameShip(session.ship("Resolute"), "Resolute II"))
    as_whole_log_says()
    session.undo()
    assert any(line["undone"] for line in as_whole_log_says())
    session.redo()
    assert not any(line["undone"] for line in as_whole_log_says())
    with pytest.raises(RuleViolation):
        session.apply(RenameShip(session.ship("Swift"), ""))
    assert as_whole_log_says()[-1]["ship"] == "Resolute II"

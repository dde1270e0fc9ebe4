"""What is private stays private, at every boundary (``model/privacy.py``): a side's private
decisions — Federation Commander's standing orders, War In Space's Energy Allocation before
the cards are revealed and its repair plan, Triplanetary's recovery choice — are made
from that side's own phone, then searched for in the bytes everyone else receives: the
other player's and the spectator's HTTP bodies and sheets, the WebSocket frames their
phones received at the socket while the decisions were made, the other players' player
files and turn reports. None is found; each is found in what the side itself (or the
referee) receives, so every marker is real."""

from __future__ import annotations

import asyncio
import html
import json
import threading

import aiohttp
import pytest

from share.phone import Phone, share, wait
from shipsheet.model.games import piece
from shipsheet.model.privacy import seen_text
from shipsheet.model.storage import save_session
from shipsheet.pbem import players as P
from shipsheet.pbem.reports import export_turn_reports
from shipsheet.share.seats import PLAYER, SPECTATOR


def _prepare(game: str):
    """The sample, at a moment its side A has private decisions to make: (session, side A,
    side B, [(ship name, form kind, field changes)] for A's phone, attacks by B on A)."""
    s = piece(game, "sample")()
    if game == "fedcom":
        return s, "Blue", "Red", [
            ("Resolute", "orders", {"first": "lab-2, ph-6", "last": "aft-hull-3"}),
            ("Swift", "orders", {"last": "ph-2"}),
        ]
    if game == "war-in-space":
        s.next_turn()  # turn 3, Energy Allocation: the cards are not revealed yet
        return s, "Concord", "Hegemony", [
            ("Kestrel", "energy", {"card": "9C", "damage_control": True}),
            ("Vigilant", "repairs", {"repair1": "box:2"}),
        ]
    return s, "Mars Patrol", "Pirates", [
        ("Ajax", "recovery", {"track": "weapon", "then": "drive"}),
        ("Vigilant", "recovery", {"track": "structure", "then": "none"}),
    ]


def _attacks(session):
    """B's ships fire on A's, so the turn reports give those attacks whole."""
    from shipsheet.model.actions import NextPhase
    if session.game == "fedcom":
        from shipsheet.rules.fedcom.actions import volley_action
        session.apply(volley_action(session.ship("Resolute"), 40, shield=2,
                                    attacker=session.ship("Hornet")))
        session.apply(volley_action(session.ship("Swift"), 25, shield=4,
                                    attacker=session.ship("Lance")))
    elif session.game == "triplanetary":
        from shipsheet.rules import triplanetary as tp
        while session.phase != "Combat":
            session.apply(NextPhase())
        session.apply(tp.attack(session.ship("Kite"), session.ship("Ajax")))
    else:
        from shipsheet.rules.war_in_space.actions import mark_system_box_action
        session.apply(mark_system_box_action(session.ship("Kestrel"), 0,
                                             attacker=session.ship("Lancer")))


async def _frames(phone: Phone, stop: threading.Event, out: list) -> None:
    """Every text frame the phone's live connection receives, raw, until ``stop``."""
    cookies = {c.name: c.value for c in phone.jar}
    url = phone.base.replace("http", "ws") + phone.seat_path + "api/ws"
    async with aiohttp.ClientSession(cookies=cookies) as http:
        async with http.ws_connect(url, headers={"Origin": phone.origin}) as ws:
            while not stop.is_set():
                try:
                    msg = await asyncio.wait_for(ws.receive(), 0.2)
                except asyncio.TimeoutError:
                    continue
                if msg.type == aiohttp.WSMsgType.TEXT:
                    out.append(msg.data)
                elif msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    return


def _text_of(raw: bytes | str) -> str:
    """What a body says, with every escape undone (JSON's \\u2665, SVG's &#x2665;)."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    try:
        text = json.dumps(json.loads(text), ensure_ascii=False)
    except ValueError:
        pass
    return html.unescape(text)


def _everything(qtbot, phone: Phone) -> list[str]:
    """The seat's view (HTTP body), and the SVG and the boxes (their labels) of every ship
    it sees."""
    _, raw, _ = wait(qtbot, lambda: phone.request("GET", "api/state"))
    state = raw if isinstance(raw, dict) else json.loads(raw)
    out = [json.dumps(state, ensure_ascii=False)]
    for ship in state["ships"]:
        _, svg, _ = wait(qtbot, lambda s=ship: phone.request("GET", s["svg"]))
        out.append(_text_of(svg))
        status, boxes, _ = wait(qtbot, lambda s=ship: phone.request("GET", s["boxes"]))
        assert status == 200 and isinstance(boxes, list) and boxes, (status, boxes)
        out.append(json.dumps(boxes, ensure_ascii=False))
    return out


def _telling(text: str) -> bool:
    """A line that says something of its own (a value: a digit, a symbol, "name: value"),
    not a bare headline every ship's form also shows ("Plan repairs")."""
    return ":" in text or any(c.isdigit() or not c.isascii() for c in text) or \
        len(text.split()) >= 4


def _markers(session, side: str) -> set[str]:
    """What A's private decisions say: the text of every private line about A's ships that
    others may not read now, and the decisions' values as the game words them."""
    ships = {s.id for s in session.ships if s.side == side}
    theirs = {e.text for e in session.log if e.ship not in ships}  # (B says them of B's own)
    found = {e.text for e in session.log if e.ship in ships and e.private
             and seen_text(session, e, owner=False) != e.text and e.text not in theirs
             and _telling(e.text)}
    for ship in session.ships:
        if ship.side != side:
            continue
        # The private fields as a file holds them (a player file's JSON, re-dumped).
        for key in piece(session.game, "privacy").hidden(session, ship):
            value = ship.state.get(key)
            if value not in (None, {}, [], ()):
                found.add(f'"{key}": {json.dumps(value, ensure_ascii=False)}')
        if session.game == "fedcom":
            from shipsheet.rules.fedcom.overrides import orders_of
            found.update(orders_of(ship).describe())
        elif session.game == "triplanetary":
            from shipsheet.rules.triplanetary.recovery import describe_choice, recovery_choice
            if recovery_choice(ship):
                found.add(f"Recovery choice: {describe_choice(list(recovery_choice(ship)))}")
        elif ship.state.get("energy"):
            from shipsheet.rules.war_in_space.energy import committed_allocation
            from shipsheet.rules.war_in_space.terms import parse_card
            found.add(f"Energy Allocation: {parse_card(committed_allocation(ship).card).label}")
    return found


@pytest.mark.parametrize("game", ["fedcom", "war-in-space", "triplanetary"])
def test_a_sides_private_decisions_reach_nobody_else(game, qtbot, tmp_path):
    session, a, b, decisions = _prepare(game)
    link, (seat_a, seat_b, watcher) = share(session, seats=[
        ("Side A", PLAYER, [a], []), ("Side B", PLAYER, [b], []),
        ("Watcher", SPECTATOR, [], [])])
    try:
        phones = {}
        for name, seat in (("a", seat_a), ("b", seat_b), ("watcher", watcher)):
            phones[name] = Phone(link.url(seat))
            assert wait(qtbot, phones[name].pair)[0] == 200
        stop, frames = threading.Event(), {"b": [], "watcher": []}
        listeners = [threading.Thread(target=lambda n=n: asyncio.run(
            _frames(phones[n], stop, frames[n])), daemon=True) for n in frames]
        for t in listeners:
            t.start()
        qtbot.wait(300)
        # A's phone makes A's private decisions, through the game's forms.
        for ship_name, kind, changes in decisions:
            _, state, _ = wait(qtbot, phones["a"].state)
            ship = next(s for s in state["ships"] if s["name"] == ship_name)
            form = next(f for f in ship["forms"] if f["kind"] == kind)
            values = {f["name"]: f["value"] for f in form["fields"]} | changes
            status, answer, _ = wait(qtbot, lambda: phones["a"].act(
                state, ship, kind="decide", form=kind, values=values))
            assert status == 200 and answer["ok"], answer
        qtbot.wait(600)
        stop.set()
        for t in listeners:
            t.join(5)
        assert frames["watcher"], "the spectator's phone was told of the changes"
        others = {name: _everything(qtbot, phones[name]) for name in ("b", "watcher")}
        others["b"] += [_text_of(f) for f in frames["b"]]
        others["watcher"] += [_text_of(f) for f in frames["watcher"]]
        own = _everything(qtbot, phones["a"])
    finally:
        link.stop()

    # The play-by-e-mail desk: player files (the other sides' ships shown) and reports.
    session.apply(P.set_players_action(session, [P.player_from_items(session, n, [n])
                                                 for n in (a, b)], show_others=True))
    _attacks(session)
    markers = _markers(session, a)
    assert markers
    folder = tmp_path / "reports"
    export_turn_reports(session, session.turn, folder, date="2026-12-01")
    from shipsheet.pbem.reports import safe_file_name
    turn = folder / f"turn-{session.turn}"
    for name, stem in ((a, "own"), (b, "b")):
        files = [(turn / f"{safe_file_name(name)}.{ext}").read_text("utf-8")
                 for ext in ("txt", "shipsheet")]
        (own if stem == "own" else others["b"]).extend(_text_of(f) for f in files)
    saved = tmp_path / "moderator.shipsheet"
    save_session(session, saved)  # the referee's own file holds everything: the control
    referee = _text_of(saved.read_bytes())

    # Compared as words: a report wraps its lines at 72 columns.
    def words(text: str) -> str:
        return " ".join(text.split())
    markers = {words(m) for m in markers}
    own = [words(x) for x in own]
    others = {who: [words(x) for x in texts] for who, texts in others.items()}
    referee = words(referee)
    for marker in markers:
        assert marker in referee, marker
        assert any(marker in text for text in own), f"{marker!r} is not in A's own view"
        for who, texts in others.items():
            leaks = [t[max(0, t.index(marker) - 80):t.index(marker) + 80]
                     for t in texts if marker in t]
            assert not leaks, f"{game}: {who} reads {marker!r}: {leaks[0]}"

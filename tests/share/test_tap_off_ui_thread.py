"""A phone's tap is worked out from the snapshot on the server's side: the window's UI thread
only applies it. Counted, not assumed: every sheet drawing (paint, record, layout) and every
box answer asked of the rules is counted by the thread it ran on, while a phone taps a box
on each game's sheet through the real server."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from shipsheet.model import boxes
from shipsheet.share import host as host_module
from shipsheet.share.seats import REFEREE
from shipsheet.sheets.base import SheetPainter

from .phone import Phone, sample, share, wait


@pytest.fixture
def counted(monkeypatch):
    """(thread kind, call) -> how many times: "ui" for the test's (the window's) thread."""
    calls: Counter = Counter()

    def counting(name, fn):
        def wrapper(*args, **kwargs):
            where = "ui" if threading.current_thread() is threading.main_thread() else "other"
            calls[where, name] += 1
            return fn(*args, **kwargs)
        return wrapper

    for name in ("paint", "record", "layout"):
        monkeypatch.setattr(SheetPainter, name, counting(name, getattr(SheetPainter, name)))
    # The host asks the rules through this name (host.box_answer), the sheets through boxes'.
    monkeypatch.setattr(host_module, "box_answer", counting("answer", host_module.box_answer))
    monkeypatch.setattr(boxes, "box_answer", counting("answer", boxes.box_answer))
    return calls


@pytest.mark.parametrize("game", ["war-in-space", "triplanetary", "fedcom"])
def test_a_phones_tap_is_resolved_with_no_drawing_and_no_answer_on_the_ui_thread(qtbot, counted, game):
    session = sample(game)
    link, (ref,) = share(session, seats=[("Referee", REFEREE, (), ())])
    try:
        phone = Phone(link.url(ref))
        assert wait(qtbot, phone.pair)[0] == 200
        status, state, _ = wait(qtbot, phone.state)
        ship = state["ships"][0]
        box = next(a for a in ship["areas"] if a["tap"])
        counted.clear()  # what the tap itself costs each thread, from here
        status, answer, _ = wait(qtbot, lambda: phone.act(state, ship, kind="tap", key=box["key"]))
        assert status == 200 and answer["ok"], answer
        assert session.undo_status().undo == answer["message"]  # the live session changed
        ui = {name: n for (where, name), n in counted.items() if where == "ui"}
        assert ui == {}, f"the UI thread drew or asked the rules: {ui}"
        # Counted where it ran: the rules answered the tap, and the new sheet was drawn.
        assert counted["other", "answer"] >= 1 and counted["other", "paint"] >= 1
    finally:
        link.stop()


def test_a_phones_decision_is_built_off_the_ui_thread(qtbot, counted, monkeypatch):
    """A filled form is the game's decision, built from the snapshot on the server's side:
    the UI thread only applies it (FedCom's standing orders, copied to the next turn)."""
    from shipsheet.model.games import piece
    from shipsheet.share.seats import PLAYER
    built = Counter()
    decisions = piece("fedcom", "decisions")
    action = decisions.action

    def counting(*args, **kwargs):
        built["ui" if threading.current_thread() is threading.main_thread() else "other"] += 1
        return action(*args, **kwargs)
    monkeypatch.setattr(decisions, "action", counting)
    session = sample("fedcom")
    link, (blue,) = share(session, seats=[("Blue", PLAYER, ("Blue",), ())])
    try:
        phone = Phone(link.url(blue))
        assert wait(qtbot, phone.pair)[0] == 200
        _, state, _ = wait(qtbot, phone.state)
        ship = next(s for s in state["ships"] if s["name"] == "Resolute")
        form = next(f for f in ship["forms"] if f["kind"] == "copy_orders")
        counted.clear()
        status, answer, _ = wait(qtbot, lambda: phone.act(state, ship, kind="decide", form=form["kind"],
                                                          values={"copy": True}))
        assert status == 200 and answer["ok"], answer
        assert session.ship("Resolute").state.get("next_orders") is not None
        assert built == Counter(other=1)
        assert not [k for k in counted if k[0] == "ui"]
    finally:
        link.stop()

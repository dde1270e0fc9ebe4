"""One history: the session's own. The window keeps none of its own; it reads the session's
(``Session.undo_status``) for the Edit menu, the toolbar and the referee's phone, and every
Undo goes through ``SessionDocument.undo``.

A click, a dialog's apply, the desk's import of an orders file and a phone's step each
leave exactly one step in it, named alike everywhere; the Undo the window asks about (a
phone's step) undoes the step it named, whatever a phone sent while it asked."""

from __future__ import annotations

import secrets

import pytest
from PySide6.QtWidgets import QInputDialog

from shipsheet.model import load_session, save_session
from shipsheet.pbem.orders import export_orders
from shipsheet.share.seats import REFEREE
from shipsheet.ui import pbem_desk
from shipsheet.ui.table_share import make_link

from share.phone import Phone, _pool, wait
from sheet_table import SheetTable

GAMES = ("fedcom", "war-in-space", "triplanetary")


def _player_of(path) -> str:
    """The player whose file ``path`` is (its name is made from theirs: ``Mars_Patrol``)."""
    from shipsheet.model import load_session
    from shipsheet.pbem import record
    return record.own_player(load_session(path)).name


@pytest.fixture
def shared(window, qtbot):
    """The window's Table Link, made as Share with the Table makes it (``make_link``), with
    the referee's phone paired: ``start(window) -> (link, phone)``."""
    links = []

    def start():
        link = make_link(window.doc)
        referee = link.book.add("Referee", REFEREE, sides=(), ships=())
        link.start(["127.0.0.1"], 0)
        links.append(link)
        phone = Phone(link.url(referee))
        status, body, _ = wait(qtbot, phone.pair)
        assert status == 200 and body == {"ok": True}
        return link, phone
    yield start
    for link in links:
        link.stop()


def send_orders(player_file, out):
    """A player (with no window) exports this turn's orders from their file."""
    ps = load_session(player_file)
    export_orders(ps, ps.turn, out)
    save_session(ps, player_file)
    return out


def tap_request(phone, view, ship_name):
    """The referee's phone taps the first box of ``ship_name`` a tap would change."""
    ship = next(s for s in view["ships"] if s["name"] == ship_name)
    area = next(a for a in ship["areas"] if a["tap"])
    return lambda: phone.act(view, ship, kind="tap", key=area["key"],
                             id=secrets.token_urlsafe(12))


def named_alike(window, qtbot, phone):
    """What Undo and Redo would take back, as the menu, the toolbar and the phone say it."""
    status = window.doc.session.undo_status()
    undo, redo = window.act_undo, window.act_redo
    assert undo.text() == (f"&Undo {status.undo}" if status.undo else "&Undo")
    assert redo.text() == (f"&Redo {status.redo}" if status.redo else "&Redo")
    assert undo.isEnabled() == (status.undo is not None)
    assert redo.isEnabled() == (status.redo is not None)
    if status.undo:  # the toolbar's button keeps a short label; its tooltip names the step
        assert undo.iconText() == "Undo" and undo.toolTip().startswith(f"Undo {status.undo}")
    # The phones are sent a change once it is in the journal on disk (a few ms after the
    # click): the phone's look is asked again until it has it, as its WebSocket would.
    for _attempt in range(100):
        _, view, _ = wait(qtbot, phone.state)
        if (view["undo"], view["undo_step"]) == (status.undo, status.step):
            break
        qtbot.wait(20)
    assert (view["undo"], view["undo_step"]) == (status.undo, status.step)
    return view


@pytest.mark.parametrize("game", GAMES)
def test_a_click_a_dialog_an_import_and_a_phone_each_leave_one_step(
        window, qtbot, tmp_path, monkeypatch, shared, game):
    window.show()
    assert window.open_sample(game)
    doc = window.doc
    assert not hasattr(doc, "undo_stack")  # no second history
    sides = doc.session.sides
    assert window.pbem.set_players([{"name": n, "sides": [n], "ships": []} for n in sides],
                                   False, False) is None
    files = {_player_of(p): p for p in window.pbem.export_player_files(str(tmp_path / "files"))}
    orders = send_orders(files[sides[0]], tmp_path / "first.orders.json")
    link, phone = shared()

    def one_step(what, do):
        before = doc.session.undo_status()
        do()
        after = doc.session.undo_status()
        assert after.steps == before.steps + 1 and after.step != before.step, what
        assert after.redo is None and not after.clean, what
        return named_alike(window, qtbot, phone)

    table = SheetTable(window, qtbot)
    key = next(a.key for a in table.canvas.painter.areas if a.click is not None)
    one_step("a click on the sheet", lambda: table.click(key))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("Renamed", True)))
    one_step("a dialog's apply", window.rename_ship)
    assert doc.current_ship.name == "Renamed"
    monkeypatch.setattr(pbem_desk, "pick_files", lambda *a: [str(orders)])
    one_step("the desk's import", window.pbem.act_import.trigger)
    assert doc.session.undo_status().undo.startswith(f"orders from {sides[0]}")
    view = named_alike(window, qtbot, phone)
    ship = doc.session.ships[-1].name
    before = doc.session.undo_status()
    status, answer, _ = wait(qtbot, tap_request(phone, view, ship))
    assert status == 200 and answer["ok"], answer
    assert doc.session.undo_status().steps == before.steps + 1
    phone_step = named_alike(window, qtbot, phone)["undo"]
    assert phone_step.endswith("— Referee's phone")

    # Undo in the window asks about the phone's step, then the names move to Redo alike.
    asked = []
    monkeypatch.setattr(window, "confirm_undo_of", lambda seat, text: asked.append(seat) or True)
    window.act_undo.trigger()
    assert asked == ["Referee"]
    assert doc.session.undo_status().redo == phone_step
    named_alike(window, qtbot, phone)
    window.act_redo.trigger()
    assert doc.session.undo_status().undo == phone_step
    named_alike(window, qtbot, phone)
    # Saved: clean in the model, and the title says so.
    assert window._save_to(tmp_path / "game.shipsheet")
    assert doc.session.undo_status().clean and not doc.dirty
    window.act_undo.trigger()  # back past the save: not as saved
    assert doc.dirty
    window.act_redo.trigger()
    assert not doc.dirty


def test_undo_asked_about_a_phones_step_undoes_that_step_while_another_phone_taps(
        window, qtbot, monkeypatch, shared):
    """The race: the window asks "Undo the Referee's phone's step …?" (a modal question,
    whose own event loop serves the table) while a phone taps another ship. The tap waits
    for the answer; the step undone is the one the question named."""
    window.show()
    assert window.open_sample("fedcom")
    doc = window.doc
    link, phone = shared()
    _, view, _ = wait(qtbot, phone.state)
    status, answer, _ = wait(qtbot, tap_request(phone, view, "Resolute"))
    assert status == 200 and answer["ok"], answer
    named = doc.session.undo_step()
    assert named.action.seat_name == "Referee"
    _, view, _ = wait(qtbot, phone.state)

    arrived = []
    call = link.authority.call
    monkeypatch.setattr(link.authority, "call", lambda fn: arrived.append(1) or call(fn))
    tapped = {}

    def question(seat, text):
        # A phone taps Hornet while the question is open; the dialog's loop runs on.
        tapped["future"] = _pool.submit(tap_request(phone, view, "Hornet"))
        qtbot.waitUntil(lambda: bool(arrived), timeout=15000)
        qtbot.wait(300)  # the loop goes on serving events, as a modal dialog's does
        return True
    monkeypatch.setattr(window, "confirm_undo_of", question)
    window.act_undo.trigger()

    # The Resolute step the question named is undone; Hornet's tap came after the answer.
    assert all(e.undone for e in doc.session.log[named.entries])
    qtbot.waitUntil(tapped["future"].done, timeout=15000)
    status, answer, _ = tapped["future"].result()
    assert status == 200 and answer["ok"], answer
    last = doc.session.undo_step()
    assert last.action.ship_id == doc.session.ship("Hornet").id and last.entries != named.entries
    assert doc.session.undo_status().redo is None  # the tap after the undo dropped its redo


def test_the_referees_phone_undoes_the_step_its_button_named_or_nothing(
        window, qtbot, shared):
    window.show()
    assert window.open_sample("fedcom")
    doc = window.doc
    link, phone = shared()
    _, view, _ = wait(qtbot, phone.state)
    wait(qtbot, tap_request(phone, view, "Resolute"))
    _, drawn, _ = wait(qtbot, phone.state)  # its Undo button names the Resolute step
    wait(qtbot, tap_request(phone, drawn, "Hornet"))  # then another step arrives
    last = doc.session.undo_status()
    status, answer, _ = wait(qtbot, lambda: phone.request("POST", "api/act", {
        "id": secrets.token_urlsafe(12), "epoch": drawn["epoch"], "kind": "undo",
        "undo_step": drawn["undo_step"]}))
    assert status == 409 and "the last step is now" in answer["error"], answer
    assert doc.session.undo_status() == last  # nothing undone
    status, answer, _ = wait(qtbot, lambda: phone.request("POST", "api/act", {
        "id": secrets.token_urlsafe(12), "epoch": drawn["epoch"], "kind": "undo",
        "undo_step": last.step}))
    assert status == 200 and answer["message"] == f"Undone: {last.undo}", answer
    assert doc.session.undo_status().redo == last.undo

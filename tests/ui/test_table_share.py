"""Session ▸ Share with the Table…: the referee's side of Table Link, driven as a referee
would — the address, Start/Stop, seats and their rights, each seat's link and QR code, how
its phones are connected (a real phone: plain HTTP from another thread), New Link, the
status-bar indicator, Stop Sharing, closing; Undo of a phone's step asks first; and the
attack/volley dialogs follow a change made under them (a phone's tap)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from shipsheet.model import Session, get_class, new_ship
from shipsheet.model.actions import SetSide
from shipsheet.model.paths import user_state_dir
from shipsheet.share import Candidate, candidate_addresses
from shipsheet.share.host import FromSeat
from shipsheet.share.seats import PLAYER, REFEREE, SPECTATOR
from shipsheet.share.server import Presence
from shipsheet.ui.table_share import ShareDialog, make_link, presence_text

from share.phone import Phone, listen, wait

Yes = QMessageBox.StandardButton.Yes
Cancel = QMessageBox.StandardButton.Cancel
HOSTILE = "<img src=x>"


@pytest.fixture
def shared(window, qtbot):
    """The fedcom sample in a shown window, its share dialog open and sharing on 127.0.0.1."""
    window.show()
    assert window.open_sample("fedcom")
    dialog = window.share_with_table()
    assert isinstance(dialog, ShareDialog) and dialog.isVisible()
    assert dialog.select_address("127.0.0.1")
    assert dialog.start()
    yield window, dialog
    if window.table_link is not None:
        window.table_link.stop()


def test_the_dialog_lists_every_address_the_likely_one_first(window):
    window.open_sample("fedcom")
    dialog = window.share_with_table()
    labels = [dialog.address.itemText(i) for i in range(dialog.address.count())]
    assert labels == [c.label for c in candidate_addresses()]
    assert dialog.address.currentIndex() == 0  # the likely one is chosen
    assert "127.0.0.1 (lo)" in labels
    assert not window.table_link.running  # nothing listens before Start Sharing
    assert dialog.start_button.text() == "Start Sharing"
    assert dialog.url_edit.text() == "" and dialog.qr_label.pixmap().isNull()
    dialog.close()


def test_start_add_seats_link_and_qr_code(shared, qtbot, tmp_path):
    window, dialog = shared
    link = window.table_link
    assert link.running and link.addresses == ["127.0.0.1"]
    assert dialog.start_button.text() == "Stop Sharing"
    assert dialog.port_label.text() == str(link.port)
    assert f"port {link.port}" in dialog.note.text() and "isolate devices" in dialog.note.text()
    # The first side without a seat is offered as the new seat's name.
    assert dialog.new_name.text() == "Blue" and dialog.new_role.currentData() == PLAYER
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    blue = dialog.book.seats[0]
    assert (blue.name, blue.role, blue.sides) == ("Blue", PLAYER, ("Blue",))
    assert dialog.new_name.text() == "Red"
    made = dialog.add_seat_per_side()
    assert [(s.name, s.sides) for s in made] == [("Red", ("Red",))]
    assert not dialog.per_side_button.isEnabled()  # every side is seated
    assert dialog.add_seat("Referee", REFEREE) is not None
    assert [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())] == [
        "Blue", "Red", "Referee"]
    assert dialog.table.item(2, 2).text() == "all ships"

    dialog.select_seat(blue.id)
    url = dialog.url_edit.text()
    assert url == link.url(blue) and f"/s/{blue.id}/#k=" in url
    pixmap = dialog.qr_label.pixmap()
    assert not pixmap.isNull() and pixmap.width() / pixmap.devicePixelRatio() >= 240  # scannable off a screen
    assert dialog.qr_name.text() == "Blue"
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == url
    # An unsaved session's seats are kept in memory; once it is saved they are its file's,
    # kept in the user's state folder (not in the session file).
    assert dialog.book.path is None and dialog.seats_box.title().startswith("Seats (kept")
    window.doc.save(tmp_path / "table.shipsheet")
    assert dialog.seats_box.title() == "Seats of table.shipsheet"
    saved = json.loads(dialog.book.path.read_text("utf-8"))
    assert [s["name"] for s in saved["seats"]] == ["Blue", "Red", "Referee"]
    assert saved["port"] == link.port


def test_a_seat_name_twice_is_refused_in_words(shared):
    window, dialog = shared
    dialog.add_seat("Blue")
    assert dialog.add_seat("blue") is None
    assert dialog.seat_message.text() == 'There is already a seat called "blue".'
    red = dialog.add_seat("Red")
    dialog.select_seat(red.id)
    dialog.name_edit.setText("Blue")
    dialog.name_edit.editingFinished.emit()
    assert red.name == "Red" and dialog.name_edit.text() == "Red"
    assert "already a seat" in dialog.seat_message.text()


def test_editing_a_seat_sides_ships_role_and_the_right_to_mark(shared, qtbot, tmp_path):
    window, dialog = shared
    window.doc.save(tmp_path / "kim.shipsheet")  # the seats are this file's from now on
    session = window.doc.session
    seat = dialog.add_seat("Kim", PLAYER)
    assert seat.sides == () and dialog.table.item(0, 2).text() == "nothing yet"
    dialog.select_seat(seat.id)
    sides = [dialog.sides_list.item(i).text() for i in range(dialog.sides_list.count())]
    assert sides == session.sides
    dialog.set_ticked(dialog.sides_list, {"Red"})
    lance = session.ship("Lance")
    dialog.set_ticked(dialog.ships_list, {session.ship("Resolute").id})
    assert seat.sides == ("Red",) and seat.ships == (session.ship("Resolute").id,)
    assert dialog.table.item(0, 2).text() == "Red, Resolute"
    assert seat.owns(lance) and not seat.may("mark")
    assert not dialog.may_mark.isChecked()
    dialog.may_mark.setChecked(True)
    assert seat.may("mark") and seat.rights == frozenset({"view", "decide", "mark"})
    dialog.may_mark.setChecked(False)
    assert seat.rights is None  # back to the player's own rights
    index = dialog.role_combo.findData(SPECTATOR)
    dialog.role_combo.setCurrentIndex(index)
    dialog.role_combo.activated.emit(index)
    assert seat.role == SPECTATOR and dialog.table.item(0, 1).text() == "Spectator"
    assert not seat.may("decide")
    # Saved, so the next start has them.
    saved = json.loads(dialog.book.path.read_text("utf-8"))["seats"][0]
    assert saved["role"] == "spectator" and saved["sides"] == ["Red"]


def test_presence_goes_from_never_to_connected_and_back_to_paired(shared, qtbot):
    window, dialog = shared
    link = window.table_link
    seat = dialog.add_seat("Blue")
    assert dialog.presence_of(seat.id) == "never connected"
    phone = Phone(dialog.url_edit.text())
    status, body, _ = wait(qtbot, phone.pair)
    assert status == 200 and body == {"ok": True}
    messages = listen(phone, 2)
    qtbot.waitUntil(lambda: dialog.presence_of(seat.id) == "connected (1 device)", timeout=5000)
    qtbot.waitUntil(lambda: window.share_indicator.text() == "Sharing · 1 phone connected", timeout=5000)
    assert "1 phone connected" in dialog.state_label.text()
    window.doc.apply(SetSide(window.doc.session.ship("Resolute"), "Red"))  # the phone is told
    qtbot.waitUntil(messages.done, timeout=5000)
    qtbot.waitUntil(lambda: dialog.presence_of(seat.id).startswith("paired, not connected now — last seen"),
                    timeout=5000)
    qtbot.waitUntil(lambda: window.share_indicator.text() == "Sharing · no phone connected", timeout=5000)
    assert link.running


def test_presence_words():
    assert presence_text(None) == "never connected"
    assert presence_text(Presence(0, None, False)) == "never connected"
    assert presence_text(Presence(2, 100.0, True), 101.0) == "connected (2 devices)"
    assert presence_text(Presence(0, 100.0, True), 112.4) == "paired, not connected now — last seen 12 s ago"
    assert presence_text(Presence(0, 100.0, True), 400.0) == "paired, not connected now — last seen 5 min ago"


def test_new_link_asks_then_closes_out_the_old_one(shared, qtbot, dialogs):
    window, dialog = shared
    dialog.add_seat("Blue")
    old = dialog.url_edit.text()
    phone = Phone(old)
    assert wait(qtbot, phone.pair)[0] == 200
    dialogs.answer = Cancel
    assert not dialog.renew_selected()
    assert dialog.url_edit.text() == old
    assert dialogs.shown[-1][0] == "question" and "closed out" in dialogs.shown[-1][2]
    dialogs.answer = Yes
    assert dialog.renew_selected()
    new = dialog.url_edit.text()
    assert new != old and new.split("#k=")[0] == old.split("#k=")[0]
    assert wait(qtbot, phone.state)[0] == 401  # the paired phone is out
    assert wait(qtbot, Phone(old).pair)[0] == 403  # and the old link opens nothing
    assert wait(qtbot, Phone(new).pair)[0] == 200


def test_remove_asks_first(shared, dialogs):
    window, dialog = shared
    dialog.add_seat("Blue")
    dialogs.answer = Cancel
    assert not dialog.remove_selected() and len(dialog.book.seats) == 1
    dialogs.answer = Yes
    assert dialog.remove_selected() and dialog.book.seats == []
    assert dialog.table.rowCount() == 0 and dialog.qr_label.pixmap().isNull()


def test_the_indicator_stop_sharing_and_start_again(shared, qtbot):
    window, dialog = shared
    link = window.table_link
    indicator = window.share_indicator
    assert indicator.isVisible() and indicator.text() == "Sharing · no phone connected"
    assert window.act_stop_sharing.isEnabled()
    in_menus = {a for m in window.menuBar().actions() if m.menu() for a in m.menu().actions()}
    assert window.act_share in in_menus and window.act_stop_sharing in in_menus
    dialog.close()
    qtbot.mouseClick(indicator, Qt.MouseButton.LeftButton)  # the indicator opens the dialog
    assert dialog.isVisible()
    window.act_stop_sharing.trigger()
    assert not link.running and not indicator.isVisible()
    assert not window.act_stop_sharing.isEnabled()
    assert dialog.start_button.text() == "Start Sharing" and dialog.url_edit.text() == ""
    port = link.book.port
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert link.running and link.port == port  # the table's port again, when free
    assert indicator.isVisible()
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert not link.running and not indicator.isVisible()


def test_another_session_stops_sharing(shared):
    window, dialog = shared
    link = window.table_link
    assert window.open_sample("triplanetary")
    assert not link.running and window.table_link is None and window.share_dialog is None
    assert not window.share_indicator.isVisible() and not window.act_stop_sharing.isEnabled()
    # Sharing again shares the new session.
    dialog = window.share_with_table()
    assert dialog.doc is window.doc and window.table_link.session is window.doc.session
    window.table_link.stop()


def test_closing_the_window_stops_sharing(shared):
    window, dialog = shared
    link = window.table_link
    window.doc.mark_clean()
    assert window.close()
    assert not link.running and window.table_link is None


def test_a_failed_start_is_said_in_plain_words(window, qtbot):
    window.open_sample("fedcom")
    link = make_link(window.doc)
    dialog = ShareDialog(window.doc, link, window, candidates=[Candidate("203.0.113.7", "nowhere")])
    qtbot.addWidget(dialog)
    assert not dialog.start()
    assert not link.running
    assert dialog.state_label.text().startswith("Sharing could not start on 203.0.113.7: ")
    assert dialog.start_button.text() == "Start Sharing"


def test_another_address_restarts_on_the_same_port(window, qtbot):
    window.open_sample("fedcom")
    link = make_link(window.doc)
    dialog = ShareDialog(window.doc, link, window,
                         candidates=[Candidate("127.0.0.1", "lo"), Candidate("127.0.0.2", "lo")])
    qtbot.addWidget(dialog)
    try:
        assert dialog.start()
        port = link.port
        seat = dialog.add_seat("Blue")
        dialog.address.setCurrentIndex(1)
        assert link.running and link.addresses == ["127.0.0.2"] and link.port == port
        assert dialog.url_edit.text().startswith(f"http://127.0.0.2:{port}/s/{seat.id}/#k=")
    finally:
        link.stop()


def test_an_unreadable_seats_file_is_said(window, tmp_path):
    from shipsheet.model.games import piece
    from shipsheet.model.storage import save_session
    from shipsheet.share.seats import file_key
    file = tmp_path / "table.shipsheet"
    save_session(piece("fedcom", "sample")(), file)
    assert window.open_path(file)
    key = file_key(file)
    path = user_state_dir() / "table-link" / f"seats-{window.doc.session.uid}-{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", "utf-8")
    dialog = window.share_with_table()
    assert dialog.problem_label.isVisible()
    assert dialog.problem_label.text().startswith("The table's seats could not be read")
    dialog.close()


def test_a_hostile_seat_name_shows_literally(shared, qtbot):
    from test_plain_text import _labels_ok
    window, dialog = shared
    seat = dialog.add_seat(HOSTILE, SPECTATOR)
    dialog.select_seat(seat.id)
    qtbot.wait(1)
    assert dialog.table.item(0, 0).text() == HOSTILE
    assert dialog.qr_name.text() == HOSTILE
    assert dialog.qr_name.textFormat() == Qt.TextFormat.PlainText
    assert dialog.name_edit.text() == HOSTILE
    assert not _labels_ok()


def test_a_hostile_session_shows_literally_in_labels_and_tooltips(window, tmp_path):
    """The hostile session of ``test_plain_text`` and a seat named with markup: the side and
    the ship it controls (its row's tooltip), the lists, the name on the code."""
    from test_plain_text import _labels_ok, _tooltips_ok, hostile_session
    window.show()
    assert window.open_path(hostile_session("fedcom", tmp_path))
    session = window.doc.session
    dialog = window.share_with_table()
    try:
        assert dialog.select_address("127.0.0.1") and dialog.start()
        seat = dialog.add_seat("<img src=HOSTILE>", PLAYER, sides=session.sides[:1],
                               ships=(session.ships[0].id,))
        dialog.select_seat(seat.id)
        assert dialog.qr_name.text() == "<img src=HOSTILE>"
        assert session.ships[0].name in dialog.table.item(0, 2).toolTip()
        found, tips = _tooltips_ok()
        assert not _labels_ok() and not found, found
        assert tips >= 1  # what the seat controls reached a tooltip
    finally:
        window.table_link.stop()
        dialog.close()


def test_the_dialog_fits_a_laptop_screen(shared):
    window, dialog = shared
    dialog.add_seat_per_side()
    hint, least = dialog.sizeHint(), dialog.minimumSizeHint()
    assert hint.width() <= 1366 - 16 and hint.height() <= 768 - 48 - 40  # a taskbar, a title
    assert least.width() <= 900 and least.height() <= 600


# -- Undo of a phone's step ------------------------------------------------------------------------
def test_undo_of_a_phones_step_asks_and_cancel_leaves_it(shared, dialogs):
    window, dialog = shared
    doc = window.doc
    seat = dialog.add_seat("Blue")
    resolute = doc.session.ship("Resolute")
    doc.apply(FromSeat(SetSide(resolute, "Red"), seat))
    assert resolute.side == "Red"
    dialogs.answer = Cancel
    window.act_undo.trigger()
    assert resolute.side == "Red"  # left as it is
    kind, title, text = dialogs.shown[-1]
    assert kind == "question" and text.startswith("Undo Blue's step “")
    dialogs.answer = Yes
    window.act_undo.trigger()
    assert resolute.side == "Blue"
    assert window.status_text().startswith("Undone: ")


def test_undo_of_the_referees_own_step_does_not_ask(shared, dialogs, monkeypatch):
    window, dialog = shared
    asked = []
    monkeypatch.setattr(window, "confirm_undo_of", lambda seat, text: asked.append((seat, text)) or False)
    resolute = window.doc.session.ship("Resolute")
    seat = dialog.add_seat("Blue")
    window.doc.apply(FromSeat(SetSide(resolute, "Green"), seat))
    window.doc.do(SetSide(resolute, "Red"))
    window.act_undo.trigger()  # the referee's own step: no question
    assert asked == [] and resolute.side == "Green"
    window.act_undo.trigger()  # Blue's: asked (and refused here)
    assert asked and asked[0][0] == "Blue" and resolute.side == "Green"


# -- dialogs that follow a change made under them ----------------------------------------------------
def test_the_volley_preview_follows_a_change_made_while_it_is_open(window, qtbot):
    from shipsheet.rules.fedcom import mark_box_action
    session = Session("fedcom", name="Under the dialog", seed=77)
    session.add_ship(new_ship(get_class("fedcom/sample-heavy-cruiser"), "Resolute"), "Blue")
    session.clear_history()
    window.open_session(session)
    ship = session.ships[0]
    window.doc.select(ship.id)
    dialog = window.panel.open_volley()
    qtbot.addWidget(dialog)
    dialog.set_inputs(ship_id=ship.id, shield=None, damage=3, rolls=[1])
    before = dialog.model.text_rows()
    assert before[0][5] == "bridge-1"
    window.doc.apply(mark_box_action(ship, "bridge-1"))  # a phone's tap, say
    after = dialog.model.text_rows()
    assert after != before and "bridge-1" not in [row[5] for row in after]
    dialog.close()


def test_the_attack_preview_follows_a_change_made_while_it_is_open(window, qtbot):
    from shipsheet.rules.triplanetary.actions import damage_action
    assert window.open_sample("triplanetary")
    doc = window.doc
    while doc.session.phase != "Combat":
        window.next_phase()
    doc.select(doc.session.ship("Vigilant").id)
    dialog = window.panel.open_attack()
    qtbot.addWidget(dialog)
    kite = doc.session.ship("Kite")
    dialog.pick([doc.session.ship("Vigilant").id], [kite.id])
    before = dialog.previews[0].accessibleName()
    assert before.startswith("Kite: ") and "Weapons D1" not in before
    doc.apply(damage_action(kite, weapon=1))
    after = dialog.previews[0].accessibleName()
    assert after != before and "D1" in after
    dialog.close()


# -- players at home (issue 33) ----------------------------------------------------------------
def _at_home(dialog, public="https://table.test", proxy="", approve=True):
    dialog.reach_box.setChecked(True)
    dialog.public_edit.setText(public)
    dialog.public_edit.editingFinished.emit()
    dialog.proxy_edit.setText(proxy)
    dialog.proxy_edit.editingFinished.emit()
    dialog.approve_check.setChecked(approve)


def test_players_at_home_get_links_at_the_public_address_kept_for_the_next_evening(shared, qtbot):
    window, dialog = shared
    blue = dialog.add_seat("Blue", PLAYER, sides=("Blue",))
    _at_home(dialog)
    link = window.table_link
    assert link.running and link.exposure.public.origin == "https://table.test"
    assert link.exposure.trusts("127.0.0.1") and link.exposure.approve_joins  # the defaults
    dialog.select_seat(blue.id)
    assert dialog.url_edit.text().startswith(f"https://table.test/s/{blue.id}/#k=")
    assert "reached at https://table.test" in dialog.state_label.text()
    assert "public address" in dialog.note.text() and "port" in dialog.note.text()
    assert dialog.book.reach == {"public_url": "https://table.test", "proxies": [],
                                 "approve_joins": True}
    # Back at the table: the LAN link again.
    dialog.reach_box.setChecked(False)
    assert window.table_link.exposure.public is None and dialog.book.reach == {}
    assert dialog.url_edit.text().startswith("http://127.0.0.1:")


def test_a_public_address_given_wrong_is_said_and_nothing_is_shared(shared, qtbot):
    window, dialog = shared
    _at_home(dialog, public="table.test")  # while sharing at the table: that goes on
    link = window.table_link
    assert link.running and link.exposure.public is None
    assert dialog.state_label.text().startswith("Players at home are not let in:")
    assert "starts with https://" in dialog.state_label.text()
    dialog.stop()
    assert not dialog.start() and not link.running
    assert dialog.state_label.text().startswith("Sharing did not start:")
    dialog.public_edit.setText("https://table.test")
    dialog.public_edit.editingFinished.emit()
    assert dialog.start() and link.running and link.exposure.public.host == "table.test"


def test_a_new_device_is_asked_about_in_the_window_and_allowed(shared, qtbot):
    window, dialog = shared
    blue = dialog.add_seat("Blue", PLAYER, sides=("Blue",))
    _at_home(dialog)
    link = window.table_link
    phone = Phone(link.url(blue, "127.0.0.1"), user_agent="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 "
                  "like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/604.1")
    home = {"X-Forwarded-For": "203.0.113.20", "X-Forwarded-Proto": "https"}
    status, asked, _ = wait(qtbot, lambda: phone.pair(headers=home))
    assert status == 202
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "join-question") is not None, timeout=5000)
    box = window.findChild(QMessageBox, "join-question")
    assert box.isVisible() and not box.isModal()
    assert box.text() == "A new device wants Blue's seat — allow?"
    assert box.informativeText().startswith("Safari on iPhone, from 203.0.113.20.")
    assert box.defaultButton() is box.no
    box.yes.click()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == "Let the device into Blue's seat.",
                    timeout=5000)
    status, _, answer = wait(qtbot, lambda: phone.pair(join=asked["join"], headers=home))
    assert status == 200 and "Secure" in answer["Set-Cookie"] and len(blue.devices) == 1


def test_a_locked_seat_is_said_in_the_window_and_opened_again(shared, qtbot):
    from shipsheet.share.server import SEAT_LOCK_AFTER
    window, dialog = shared
    blue = dialog.add_seat("Blue", PLAYER, sides=("Blue",))
    _at_home(dialog, approve=False)
    link = window.table_link
    phone = Phone(link.url(blue, "127.0.0.1"))

    def burst():
        return [phone.pair("x" * 43, headers={"X-Forwarded-For": f"198.51.100.{n // 4}"})[0]
                for n in range(SEAT_LOCK_AFTER + 1)]
    assert wait(qtbot, burst)[-1] == 423
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "joining-locked") is not None, timeout=5000)
    box = window.findChild(QMessageBox, "joining-locked")
    assert box.text() == "Joining Blue's seat is locked." and "198.51.100." in box.informativeText()
    box.yes.click()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == "Blue's seat takes new devices again.",
                    timeout=5000)
    assert wait(qtbot, lambda: phone.pair(headers={"X-Forwarded-For": "192.0.2.9"}))[0] == 200


LOADS_MEANWHILE = r"""
import sys, time
from PySide6.QtCore import QEventLoop, QTimer
from shipsheet.ui.app import Application, make_qapp
qapp = make_qapp()
window = Application(qapp).new_window()
window.show()
assert window.open_sample("fedcom")
dialog = window.share_with_table()
print("shown before the server loaded:", dialog.isVisible() and "aiohttp" not in sys.modules)
deadline = time.monotonic() + 60  # the module is in sys.modules from its first line: its last
while not hasattr(sys.modules.get("shipsheet.share.server"), "TableServer") and time.monotonic() < deadline:
    loop = QEventLoop()
    QTimer.singleShot(20, loop.quit)
    loop.exec()
print("loaded while the dialog was open:", "aiohttp" in sys.modules)
assert dialog.select_address("127.0.0.1")
print("started:", dialog.start())
window.table_link.stop()
"""


def test_the_dialog_opens_without_the_web_server_and_loads_it_while_it_is_read(tmp_path):
    """Share with the Table… first loaded the web server (aiohttp: about a fifth of a
    second, 0.24 s to the dialog shown, 0.05 s without it) before the dialog showed. The
    dialog now shows first; the server's module loads on a thread of its own once it has
    painted, and Start finds it there. A process of its own: this one has loaded it."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
               **{var: str(tmp_path / var) for var in ("SHIPSHEET_DATA_DIR", "SHIPSHEET_STATE_DIR",
                                                       "SHIPSHEET_CONFIG_DIR")})
    run = subprocess.run([sys.executable, "-c", LOADS_MEANWHILE], capture_output=True, text=True,
                         env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "shown before the server loaded: True" in run.stdout, run.stdout
    assert "loaded while the dialog was open: True" in run.stdout
    assert "started: True" in run.stdout

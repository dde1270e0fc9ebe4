"""Issue 29: seats belong to one session file, and a seat keeps its phones.

A copy of a session file keeps the session's uid (copied on disk, or by Save As), so the
seats are named by the uid *and* the file's own path: the copy starts with no seats and
the original's link does not open it (also in a real browser). Seats kept under the uid
alone, before, are not used. ``serve`` retires the seats it was not given
(``SeatBook.retire_except``). A ninth phone is refused, in words, and the first eight
keep working. A seat whose link was made by an earlier run is marked as from an earlier
evening in the Share dialog."""

from __future__ import annotations

import json
import time

import pytest

from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.paths import user_state_dir
from shipsheet.model.storage import load_session, save_session
from shipsheet.share import Candidate
from shipsheet.share.seats import MAX_DEVICES, PLAYER, REFEREE, SeatBook, SeatFull, file_key

from .phone import Phone, sample, share, wait

INVALID = "This link is no longer valid. Ask the referee for a new one."
FULL = (f"This seat already has {MAX_DEVICES} phones paired. Ask the referee for a New Link "
        "to move it to new phones.")


def _twins(tmp_path):
    """A session file and a copy of it made on disk (the same bytes, so the same uid)."""
    original = tmp_path / "evening.shipsheet"
    save_session(sample("fedcom"), original)
    copy = tmp_path / "copy" / "evening.shipsheet"
    copy.parent.mkdir()
    copy.write_bytes(original.read_bytes())
    return original, copy


def _book_with_blue(path, uid):
    book = SeatBook(uid, path=path)
    blue = book.add("Blue", PLAYER, sides=("Blue",))
    book.save()
    return book, blue


def test_a_copied_file_has_seats_of_its_own_and_the_originals_stay(tmp_path):
    original, copy = _twins(tmp_path)
    uid = load_session(original).uid
    assert load_session(copy).uid == uid  # the PBEM identity is the file's, unchanged
    book, blue = _book_with_blue(original, uid)
    token = book.pair(blue.id, blue.secret)

    twin = SeatBook(uid, path=copy)
    assert twin.seats == [] and twin.problem == ""
    assert twin.path != book.path and twin.path.name == f"seats-{uid}-{file_key(copy)}.json"
    assert twin.pair(blue.id, blue.secret) is None  # the original's link opens nothing here
    assert twin.by_token(blue.id, token) is None
    twin.add("Red", PLAYER, sides=("Red",))
    twin.save()

    again = SeatBook(uid, path=original)
    assert [(s.id, s.name, s.secret) for s in again.seats] == [(blue.id, "Blue", blue.secret)]
    assert again.by_token(blue.id, token) is again.seat(blue.id)
    assert [s.name for s in SeatBook(uid, path=copy).seats] == ["Red"]
    # The same file reached by another spelling of its path is the same file.
    assert [s.name for s in SeatBook(uid, path=tmp_path / "copy" / ".." / original.name).seats] == ["Blue"]
    # The path is inside the seats file, not in its name (which is the uid and 16 hex digits).
    assert json.loads(book.path.read_text("utf-8"))["file"] == str(original.resolve())


def test_save_as_starts_the_new_file_with_no_seats(tmp_path):
    session = sample("fedcom")
    first = tmp_path / "turn-3.shipsheet"
    save_session(session, first)
    book, blue = _book_with_blue(first, session.uid)
    later = tmp_path / "turn-4.shipsheet"
    save_session(session, later)  # Save As: the same session, the same uid, another file
    assert SeatBook(session.uid, path=later).seats == []
    assert [s.name for s in SeatBook(session.uid, path=first).seats] == ["Blue"]


def test_the_windows_save_as_keeps_the_shared_files_seats_and_a_first_save_takes_them(
        qapp, qtbot, tmp_path):
    from shipsheet.ui.document import SessionDocument
    from shipsheet.ui.table_share import ShareDialog, make_link
    store = AutosaveStore(tmp_path / "autosave")
    # A saved file, shared, then saved as another: the table goes on with the first file's
    # seats; the new file has none of its own.
    first, _copy = _twins(tmp_path)
    doc = SessionDocument(load_session(first), first, store)
    link = make_link(doc)
    dialog = ShareDialog(doc, link, candidates=[Candidate("127.0.0.1", "lo")])
    qtbot.addWidget(dialog)
    seat = dialog.add_seat("Blue")
    assert dialog.seats_box.title() == "Seats of evening.shipsheet"
    doc.save(tmp_path / "saved-as.shipsheet")
    assert dialog.book.session_path == first.resolve() and dialog.book.seat(seat.id) is seat
    assert dialog.seats_box.title() == ("Seats of evening.shipsheet, as shared "
                                        "(saved-as.shipsheet has seats of its own)")
    assert SeatBook(doc.session.uid, path=tmp_path / "saved-as.shipsheet").seats == []
    doc.mark_clean()
    doc.close()

    # An unsaved session's seats are kept in memory only, then go with its first file.
    files = sorted((user_state_dir() / "table-link").iterdir())
    fresh = SessionDocument(sample("triplanetary"), None, store)
    link = make_link(fresh)
    dialog = ShareDialog(fresh, link, candidates=[Candidate("127.0.0.1", "lo")])
    qtbot.addWidget(dialog)
    mars = dialog.add_seat("Mars")
    assert dialog.book.path is None and sorted((user_state_dir() / "table-link").iterdir()) == files
    fresh.save(tmp_path / "new.shipsheet")
    assert dialog.seats_box.title() == "Seats of new.shipsheet"
    kept = SeatBook(fresh.session.uid, path=tmp_path / "new.shipsheet")
    assert [(s.id, s.secret) for s in kept.seats] == [(mars.id, mars.secret)]
    fresh.mark_clean()
    fresh.close()


def test_seats_kept_by_uid_alone_before_are_not_used(tmp_path):
    original, _copy = _twins(tmp_path)
    uid = load_session(original).uid
    old = user_state_dir() / "table-link" / f"seats-{uid}.json"
    old.parent.mkdir(parents=True)
    old.write_text(json.dumps({"version": 1, "port": 40001, "seats": [
        {"id": "oldseat01", "name": "Referee", "role": "referee", "secret": "s" * 43,
         "devices": []}]}), "utf-8")
    for book in (SeatBook(uid, path=original), SeatBook(uid)):
        assert book.seats == [] and book.port is None and book.problem == ""
        assert book.pair("oldseat01", "s" * 43) is None
    assert old.exists()  # left alone, not revived


def test_a_seats_file_naming_another_session_file_is_not_used(tmp_path):
    original, copy = _twins(tmp_path)
    uid = load_session(original).uid
    book, _ = _book_with_blue(original, uid)
    # As if renamed by hand to the copy's name: it says whose seats it holds.
    book.path.rename(SeatBook(uid, path=copy).path)
    twin = SeatBook(uid, path=copy)
    assert twin.seats == [] and "another session file's" in twin.problem


def test_retire_except_removes_every_seat_not_named_and_its_links_stop(tmp_path):
    original, _ = _twins(tmp_path)
    book = SeatBook(load_session(original).uid, path=original)
    blue = book.add("Blue", PLAYER, sides=("Blue",))
    red = book.add("Red", PLAYER, sides=("Red",))
    referee = book.add("Referee", REFEREE)
    red_token = book.pair(red.id, red.secret)
    referee_token = book.pair(referee.id, referee.secret)

    assert book.retire_except(["  BLUE ", "red"]) == [referee]
    assert [s.name for s in book.seats] == ["Blue", "Red"]
    assert book.pair(referee.id, referee.secret) is None
    assert book.by_token(referee.id, referee_token) is None
    assert book.by_token(red.id, red_token) is red
    assert book.retire_except([]) == [blue, red] and book.seats == []
    book.save()
    assert SeatBook(book.uid, path=original).seats == []


def test_a_ninth_device_is_refused_and_the_first_eight_still_work(tmp_path):
    original, _ = _twins(tmp_path)
    book, blue = _book_with_blue(original, load_session(original).uid)
    tokens = [book.pair(blue.id, blue.secret) for _ in range(MAX_DEVICES)]
    assert all(tokens) and len(set(tokens)) == MAX_DEVICES
    with pytest.raises(SeatFull) as refused:
        book.pair(blue.id, blue.secret)
    assert str(refused.value) == FULL
    assert book.pair(blue.id, "wrong" * 9) is None  # a wrong secret is still just wrong
    again = SeatBook(book.uid, path=original)  # and kept so, the next evening too
    for seat_book in (book, again):
        assert all(seat_book.by_token(blue.id, t) is seat_book.seat(blue.id) for t in tokens)
    with pytest.raises(SeatFull):
        again.pair(blue.id, blue.secret)
    # New Link moves the seat to new phones: the old ones are forgotten, a new one pairs.
    renewed = book.renew(blue.id)
    assert all(book.by_token(blue.id, t) is None for t in tokens)
    assert book.pair(blue.id, renewed.secret)


def test_a_ninth_phone_is_told_to_ask_the_referee(qtbot, tmp_path):
    session = sample("fedcom")
    link, (blue,) = share(session, seats=[("Blue", PLAYER, ("Blue",), ())],
                          path=tmp_path / "evening.shipsheet")
    try:
        phones = [Phone(link.url(blue)) for _ in range(MAX_DEVICES + 1)]
        answers = [wait(qtbot, phone.pair) for phone in phones]
        assert [a[0] for a in answers] == [200] * MAX_DEVICES + [409]
        assert answers[-1][1] == {"ok": False, "error": FULL}
        assert phones[-1].cookie() is None
        assert all(wait(qtbot, p.state)[0] == 200 for p in phones[:MAX_DEVICES])
    finally:
        link.stop()


def test_a_seat_from_an_earlier_run_is_marked_as_from_an_earlier_evening(qapp, qtbot, tmp_path):
    from shipsheet.ui.document import SessionDocument
    from shipsheet.ui.table_share import ShareDialog, earlier_text, make_link
    original, _ = _twins(tmp_path)
    uid = load_session(original).uid
    book = SeatBook(uid, path=original)
    blue = book.add("Blue", PLAYER, sides=("Blue",))
    red = book.add("Red", PLAYER, sides=("Red",))
    assert not blue.earlier and time.time() - 5 < blue.made <= time.time()
    last_week = time.mktime((2026, 12, 3, 20, 15, 0, 0, 0, -1))
    blue.made = last_week  # as an earlier run made it
    book.save()

    again = SeatBook(uid, path=original)
    blue, red = again.seat(blue.id), again.seat(red.id)
    assert blue.made == last_week and blue.earlier
    assert not red.earlier  # made in this run, saved and read again: tonight's
    now = time.mktime((2026, 12, 4, 19, 0, 0, 0, 0, -1))
    assert earlier_text(blue, now) == "from an earlier evening (3 Dec)"
    assert earlier_text(blue, time.mktime((2027, 1, 2, 19, 0, 0, 0, 0, -1))) == \
        "from an earlier evening (3 Dec 2026)"
    assert earlier_text(blue, time.mktime((2026, 12, 3, 23, 0, 0, 0, 0, -1))) == \
        "from an earlier run (today, 20:15)"
    assert earlier_text(red, now) == ""

    doc = SessionDocument(load_session(original), original, AutosaveStore(tmp_path / "autosave"))
    dialog = ShareDialog(doc, make_link(doc), candidates=[Candidate("127.0.0.1", "lo")])
    qtbot.addWidget(dialog)
    names = [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())]
    assert names == [f"Blue — {earlier_text(dialog.book.seat(blue.id))}", "Red"]
    assert names[0].startswith("Blue — from an earlier evening (3 Dec")
    assert "New Link" in dialog.table.item(0, 0).toolTip()
    dialog.select_seat(blue.id)
    assert dialog.earlier_label.text().startswith("Its link is from an earlier evening (3 Dec")
    assert not dialog.earlier_label.isHidden()
    dialog.select_seat(red.id)
    assert dialog.earlier_label.isHidden()
    # New Link makes it tonight's seat.
    dialog.select_seat(blue.id)
    dialog.confirm = lambda title, text: True
    assert dialog.renew_selected()
    assert not dialog.book.seat(blue.id).earlier and dialog.table.item(0, 0).text() == "Blue"
    assert dialog.earlier_label.isHidden()
    assert not SeatBook(uid, path=original).seat(blue.id).earlier
    doc.mark_clean()
    doc.close()


def test_in_a_browser_the_originals_link_is_refused_at_the_copys_table(qtbot, tmp_path, browser):
    """The original and its copy shared at once (two tables): Blue's link, opened at the
    copy's server, is refused in words and pairs nothing; at the original's, the same
    browser pairs and shows Blue's seat."""
    from selenium.webdriver.support.ui import WebDriverWait
    original, copy = _twins(tmp_path)
    at_original, (blue,) = share(load_session(original), seats=[("Blue", PLAYER, ("Blue",), ())],
                                 path=original)
    at_copy, _ = share(load_session(copy), path=copy)
    shown = ("var t = function (i) { var e = document.getElementById(i); "
             "return e && !e.hidden ? e.textContent : null; }; "
             "return {conn: t('conn'), seat: t('seat-name'), text: document.body.innerText};")

    def visit(url, done):
        def go():
            browser.delete_all_cookies()
            browser.get("about:blank")
            browser.get(url)
            state = WebDriverWait(browser, 10, poll_frequency=0.05).until(
                lambda d: (lambda s: s if done(s) else None)(d.execute_script(shown)))
            return state, browser.get_cookies()
        return wait(qtbot, go, 20000)

    try:
        assert at_copy.book.seats == [] and at_copy.port != at_original.port
        refused, cookies = visit(at_copy.url(blue), lambda s: "not at the table" in s["text"])
        assert "This seat is not at the table (any more). Ask the referee for a new link." \
            in refused["text"]
        assert refused["conn"] is None and cookies == []  # no page, no pairing
        assert at_copy.server.presence() == {}
        shown_blue, cookies = visit(at_original.url(blue), lambda s: s["seat"] == "Blue")
        assert "not at the table" not in shown_blue["text"]
        assert [c["name"] for c in cookies] == ["shipsheet_device"]
        assert at_original.server.presence()[blue.id].paired
    finally:
        at_original.stop()
        at_copy.stop()

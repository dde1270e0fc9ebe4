"""The window's table: a phone is told its change was applied only once the change is in
the journal on disk, and the phones are sent a change only then; a crash right after the
answer loses nothing (``ui.document.SessionDocument.durable``, ``model/journal.py``)."""

from __future__ import annotations

import functools
import os
import time

from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.journal import read_journal
from shipsheet.share import SeatBook, TableLink
from shipsheet.share.authority import QtAuthority
from shipsheet.share.seats import REFEREE
from shipsheet.ui.document import SessionDocument

from .phone import Phone, listen, sample, wait

SLOW_SYNC = 0.15  # seconds each fsync takes here: an answer sent before it would show


def _records(path) -> int:
    try:
        return len(read_journal(path.read_bytes()).records)
    except FileNotFoundError:
        return 0


def test_a_phone_is_answered_after_its_change_is_on_disk(qtbot, tmp_path, monkeypatch):
    import shipsheet.model.journal as journal_module
    real_fsync = os.fsync

    def slow_fsync(fd):  # a slow disk: the journal's sync takes a while
        time.sleep(SLOW_SYNC)
        real_fsync(fd)
    monkeypatch.setattr(journal_module.os, "fsync", slow_fsync)
    session = sample("fedcom")
    store = AutosaveStore(tmp_path / "auto")
    doc = SessionDocument(session, None, store)
    book = SeatBook(session.uid)
    seat = book.add("Referee", REFEREE)
    link = TableLink(session, book, QtAuthority(gate=doc), doc.apply,
                     functools.partial(doc.undo, ask=False), durable=doc.durable)
    link.start(["127.0.0.1"], 0)
    try:
        phone = Phone(link.url(seat))
        watcher = Phone(link.url(seat))
        assert wait(qtbot, phone.pair)[0] == 200
        assert wait(qtbot, watcher.pair)[0] == 200
        _, state, _ = wait(qtbot, phone.state)
        told = []
        for n in range(3):
            ship = state["ships"][n]
            area = next(a for a in ship["areas"] if a.get("tap"))
            heard = listen(watcher, 1)
            qtbot.wait(100)  # the watcher's socket is open

            def tap_and_count(ship=ship, area=area, state=state):
                status, answer, _ = phone.act(state, ship, kind="tap", key=area["key"])
                # What is on disk the moment the answer arrived.
                return status, answer, _records(doc.journal.path)
            status, answer, on_disk = wait(qtbot, tap_and_count)
            assert status == 200 and answer["ok"], answer
            told.append(answer["message"])
            assert on_disk >= n + 1, "the phone was told before its change was on disk"
            qtbot.waitUntil(heard.done, timeout=10000)
            state = answer["state"]
        # A crash now: the journal holds every change a phone was told of.
        doc.journal.close()
        doc.autosave.abandon()
        [info] = AutosaveStore(tmp_path / "auto").recoverable()
        logged = [e.text for e in info.load().log if e.kind == "action"]
        assert logged[-3:] == told
    finally:
        link.stop()

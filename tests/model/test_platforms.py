"""Platform differences tested here: the storage, lock, autosave, journal, settings and seats
code run as Windows and as macOS would see them (``tests/platforms.py``: portable.py's
branches switched, POSIX-only calls removed, Windows' brief refusals to rename and macOS's
full fsync faked). It proves the branches, not Windows or macOS themselves.

Before portable.py had ``replace`` and ``full_fsync``, a save as Windows failed on the first
refusal (an antivirus holding the file for a moment), and no save or journal write as macOS
asked for F_FULLFSYNC."""

from __future__ import annotations

import json

import pytest

from shipsheet.model import load_session, save_session
from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.filelock import DiskState, LockHolder, SessionLock, lock_path
from shipsheet.model.journal import Journal
from shipsheet.model.storage import write_atomic

from platforms import PLATFORMS, as_platform
from sessions import three_ship_session


@pytest.fixture(params=PLATFORMS)
def platform(request, monkeypatch, tmp_path):
    with as_platform(monkeypatch, request.param) as fake:
        yield fake


def _only(folder, *names):
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)


def test_a_session_saves_and_loads_again(platform, tmp_path):
    path = tmp_path / "night.shipsheet"
    session = three_ship_session()
    save_session(session, path)
    session.turn = 4
    save_session(session, path)  # over the file: Windows refuses the first rename of each
    save_session(session, tmp_path / "secret.shipsheet", private=True)  # no fchmod on Windows
    assert load_session(path).turn == 4
    _only(tmp_path, "night.shipsheet", "secret.shipsheet")  # no temporary file left
    if platform.name == "win32":
        assert platform.replace_refusals == 3  # each one tried again, and put in place
    else:
        assert platform.full_fsyncs >= 3  # each save's data made durable past the drive's cache


def test_an_autosave_is_written_and_recovered(platform, tmp_path):
    file = tmp_path / "night.shipsheet"
    session = three_ship_session()
    save_session(session, file)
    store = AutosaveStore(tmp_path / "auto")
    handle = store.handle()
    session.turn = 9
    handle.write(session, file, base=DiskState.of(file).key)
    handle.write(session, file, base=DiskState.of(file).key)  # the next slot
    handle.abandon()  # as a crash leaves it
    [info] = store.recoverable()
    assert info.key == handle.key and info.counter == 2
    assert info.load().turn == 9 and not info.changed_elsewhere


def test_the_journal_is_made_durable_and_replayed(platform, tmp_path):
    from shipsheet.model.actions import NextTurn
    store = AutosaveStore(tmp_path)
    handle = store.handle()
    session = three_ship_session()
    journal = Journal(store.folder, handle.key, None)
    session.subscribe(lambda change: journal.record(session, change))
    before = platform.full_fsyncs
    session.apply(NextTurn())
    assert journal.durable().result(timeout=10) == ""
    journal.close()
    [info] = store.recoverable()
    assert info.journalled == 1 and info.load().turn == session.turn
    if platform.name == "darwin":
        assert platform.full_fsyncs > before


def test_a_session_lock_is_taken_seen_held_and_released(platform, tmp_path):
    path = tmp_path / "night.shipsheet"
    path.write_text("{}")
    lock = SessionLock.acquire(path)
    assert isinstance(lock, SessionLock) and lock.held
    other = SessionLock.acquire(path)  # another descriptor: as another process sees it
    assert isinstance(other, LockHolder) and other.this_process
    lock.release()
    assert not lock_path(path).exists()
    again = SessionLock.acquire(path)
    assert isinstance(again, SessionLock) and again.held
    again.release()


def test_settings_are_saved(platform):
    from shipsheet.ui import settings
    settings.set_setting("page_size", "A4")
    settings.add_recent_file(__file__)
    assert settings.last_error == ""
    assert settings.get_setting("page_size") == "A4"
    assert settings.recent_files()[0].endswith("test_platforms.py")


def test_the_tables_seats_are_saved(platform, tmp_path):
    from shipsheet.share.seats import SeatBook
    session = tmp_path / "night.shipsheet"
    book = SeatBook("a" * 32, tmp_path / "seats", path=session)
    book.add("Blue", sides=["Blue"])
    book.save()
    again = SeatBook("a" * 32, tmp_path / "seats", path=session)
    assert [s.name for s in again.seats] == ["Blue"] and again.problem == ""
    assert json.loads(book.path.read_text())["seats"][0]["name"] == "Blue"


def test_a_plain_write_is_durable_too(platform, tmp_path):
    before = platform.full_fsyncs
    write_atomic(tmp_path / "f.json", b"{}")
    assert (tmp_path / "f.json").read_bytes() == b"{}"
    if platform.name == "darwin":
        assert platform.full_fsyncs == before + 1

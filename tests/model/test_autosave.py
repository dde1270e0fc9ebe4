"""Autosave slots in the user state folder, and finding what to recover after a crash."""

import os
import time

from shipsheet.model import save_session
from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.paths import user_state_dir

from sessions import three_ship_session


def test_rotates_through_three_slots_and_keeps_the_newest(tmp_path):
    store = AutosaveStore(tmp_path, slots=3)
    session = three_ship_session()
    paths = []
    for turn in range(1, 6):
        session.turn = turn
        paths.append(store.write(session))
        time.sleep(0.01)
    assert len(set(paths)) == 3
    assert len(list(tmp_path.glob("*.shipsheet"))) == 3
    newest = store.newest(session.uid)
    assert newest.load().turn == 5


def test_default_folder_is_the_user_state_dir():
    assert AutosaveStore().folder == user_state_dir() / "autosave"


def test_recoverable_only_when_newer_than_the_saved_file(tmp_path):
    store = AutosaveStore(tmp_path / "auto")
    session = three_ship_session()
    file = tmp_path / "night.shipsheet"
    save_session(session, file)
    old = time.time() - 100
    os.utime(file, (old, old))
    session.turn = 3
    store.write(session, file)
    found = store.recoverable()
    assert [i.uid for i in found] == [session.uid]
    assert found[0].source == file.resolve() and found[0].load().turn == 3
    assert store.newer_than_file(file).uid == session.uid
    save_session(session, file)  # saved after the autosave: nothing to recover
    assert store.recoverable() == []


def test_unsaved_session_autosave_is_recoverable_and_discard_removes_it(tmp_path):
    store = AutosaveStore(tmp_path)
    session = three_ship_session()
    store.write(session)
    assert [i.source for i in store.recoverable()] == [None]
    store.discard(session.uid)
    assert store.recoverable() == [] and not list(tmp_path.iterdir())


def test_damaged_newest_slot_falls_back_to_the_one_before(tmp_path):
    store = AutosaveStore(tmp_path)
    session = three_ship_session()
    session.turn = 2
    store.write(session)
    time.sleep(0.01)
    session.turn = 3
    newest = store.write(session)
    newest.write_bytes(b'{"format": "shipsheet-session", "vers')
    assert store.newest(session.uid).load().turn == 2

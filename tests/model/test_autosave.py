"""Autosave: each document's own slots, ordered by a counter, found again after a crash.

The store's file names come from keys it makes itself: nothing a session file contains
(its uid above all) becomes part of a path."""

import json
import os
import time

import pytest

from shipsheet.model import save_session
from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.filelock import DiskState
from shipsheet.model.paths import user_state_dir

from sessions import autosaved_past_its_file, three_ship_session
from untimed import returns


def test_rotates_through_three_slots_by_counter_not_clock(tmp_path):
    store = AutosaveStore(tmp_path, slots=3)
    handle = store.handle()
    session = three_ship_session()
    paths = []
    for turn in range(1, 6):  # five writes in the same clock tick: the counter orders them
        session.turn = turn
        paths.append(handle.write(session))
    assert len(set(paths)) == 3
    assert len(list(tmp_path.glob("*.shipsheet"))) == 3
    handle.abandon()  # as a crash would
    [info] = store.recoverable()
    assert info.counter == 5 and info.load().turn == 5


def test_default_folder_is_the_user_state_dir():
    assert AutosaveStore().folder == user_state_dir() / "autosave"


def test_recoverable_only_when_newer_than_the_saved_file(tmp_path):
    store = AutosaveStore(tmp_path / "auto")
    session = three_ship_session()
    file = tmp_path / "night.shipsheet"
    handle = autosaved_past_its_file(store, session, file)
    found = store.recoverable()
    assert [i.key for i in found] == [handle.key]
    assert found[0].source == file.resolve() and found[0].load().turn == 3
    assert store.newer_than_file(file).key == handle.key
    save_session(session, file)  # saved after the autosave: nothing to recover
    assert store.recoverable() == []


def test_the_file_opened_reads_only_its_own_autosave(tmp_path, monkeypatch):
    """Opening a file asks for a newer autosave of that file alone: the work left behind on
    other sessions (a crash, a killed serve) is neither built nor compared with its own
    file, however much of it there is (it was all read, twice, at every start)."""
    from shipsheet.model import autosave
    store = AutosaveStore(tmp_path / "auto")
    files = []
    for n in range(4):
        file = tmp_path / f"night-{n}.shipsheet"
        handle = autosaved_past_its_file(store, three_ship_session(), file, turn=3 + n)
        files.append((file, handle.key))
    built, compared = [], []
    real_build, real_against = autosave.session_from_data, autosave._against_file
    monkeypatch.setattr(autosave, "session_from_data",
                        lambda data, name: built.append(name) or real_build(data, name))
    monkeypatch.setattr(autosave, "_against_file",
                        lambda source, base, session: compared.append(source) or real_against(source, base, session))
    file, key = files[2]
    found = store.newer_than_file(file)
    assert found.key == key and found.load().turn == 5
    assert len(built) == 1 and compared == [file.resolve()]
    assert len(store.recoverable()) == 4  # the others are all still there to offer


def test_a_running_owner_is_not_offered_and_discard_removes_only_its_own(tmp_path):
    """Two windows on one session: each keeps its own slots, and one's Save or close
    deletes nothing of the other's."""
    store = AutosaveStore(tmp_path)
    session = three_ship_session()
    a, b = store.handle(), store.handle()
    a.write(session)
    b.write(session)
    assert store.recoverable() == []  # both still running
    a.discard()
    assert sorted(p.name.split(".")[0] for p in tmp_path.glob("*.shipsheet")) == [b.key]
    b.abandon()  # b crashes
    assert [i.key for i in store.recoverable()] == [b.key]


def test_both_crashed_windows_are_offered(tmp_path):
    store = AutosaveStore(tmp_path)
    session = three_ship_session()
    keys = set()
    for _ in range(2):
        h = store.handle()
        h.write(session)
        h.abandon()
        keys.add(h.key)
    assert {i.key for i in store.recoverable()} == keys


def test_a_recovered_session_goes_on_in_its_own_slots(tmp_path):
    store = AutosaveStore(tmp_path, slots=2)
    session = three_ship_session()
    first = store.handle()
    for turn in (1, 2, 3):
        session.turn = turn
        first.write(session)
    first.abandon()
    [info] = store.recoverable()
    handle = store.adopt(info)
    assert handle.key == info.key and store.recoverable() == []  # held again
    session.turn = 4
    handle.write(session)
    handle.abandon()
    [again] = store.recoverable()
    assert again.counter == 4 and again.load().turn == 4


def test_a_session_uid_never_becomes_a_file_name(tmp_path):
    """Finding 1: a uid of ../../victim/settings deleted victim/settings.json on a clean close."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "settings.json").write_text("{}")
    store = AutosaveStore(tmp_path / "state" / "autosave")
    session = three_ship_session()
    session.uid = "../../victim/settings"
    handle = store.handle()
    handle.write(session)
    handle.discard()
    store.remove_key(store.new_key())
    assert (victim / "settings.json").exists()
    with pytest.raises(ValueError):
        store.remove_key("*")
    with pytest.raises(ValueError):
        store.remove_key("../../victim/settings")


def test_damaged_newest_slot_is_set_aside_and_the_one_before_offered(tmp_path):
    store = AutosaveStore(tmp_path)
    session = three_ship_session()
    handle = store.handle()
    session.turn = 2
    handle.write(session)
    session.turn = 3
    newest = handle.write(session)
    handle.abandon()
    newest.write_bytes(b'{"format": "shipsheet-session", "vers')
    [info] = store.recoverable()
    assert info.load().turn == 2
    assert (tmp_path / (newest.name + ".damaged")).exists()
    assert len(store.problems) == 1 and newest.name in store.problems[0]


@pytest.mark.parametrize("counter", ["1e300", "NaN", "-1", '"x"', "true", "1e400", "null"])
def test_a_damaged_autosave_entry_is_set_aside_never_fatal(tmp_path, counter):
    """Finding 7: a slot time of 1e300 or NaN crashed every start; a damaged index hid good slots."""
    store = AutosaveStore(tmp_path)
    session = three_ship_session()
    handle = store.handle()
    good = handle.write(session)
    bad = handle.write(session)
    handle.abandon()
    data = json.loads(bad.read_bytes())
    text = bad.read_text().replace(f'"counter": {data["autosave"]["counter"]}', f'"counter": {counter}')
    bad.write_text(text)
    found = store.recoverable()
    assert [i.path for i in found] == [good]
    assert (tmp_path / (bad.name + ".damaged")).exists()


def test_special_files_in_the_store_are_set_aside(tmp_path):
    """Finding 5: a FIFO autosave slot hung start-up."""
    store = AutosaveStore(tmp_path)
    os.mkfifo(tmp_path / f"{store.new_key()}.0.shipsheet")
    (tmp_path / "0123456789abcdef.1.shipsheet").symlink_to("/dev/zero")
    assert returns(store.recoverable) == []  # opening the FIFO to read would wait for a writer
    assert len(store.problems) == 2


def test_slots_of_an_older_shipsheet_are_still_offered(tmp_path):
    """Before keys, slots were named by the session uid, without an autosave entry."""
    session = three_ship_session()
    legacy = tmp_path / f"{'ab' * 16}.0.shipsheet"
    save_session(session, legacy)
    (tmp_path / f"{'ab' * 16}.json").write_text('{"slots": {"0": 1e300}}')
    [info] = AutosaveStore(tmp_path).recoverable()
    assert info.key == "ab" * 16 and info.source is None
    AutosaveStore(tmp_path).remove_key(info.key)
    assert not list(tmp_path.iterdir())


def test_the_source_of_an_autosave_must_look_like_a_session_file(tmp_path):
    """A slot naming /etc/passwd as its file would make Save write there."""
    store = AutosaveStore(tmp_path)
    handle = store.handle()
    handle.write(three_ship_session(), "/etc/passwd")
    handle.abandon()
    [info] = store.recoverable()
    assert info.source is None


def test_the_offer_says_what_is_true_of_the_saved_file(tmp_path):
    """Issue 17: the offer said "is newer than the saved file" of a session never saved."""
    store = AutosaveStore(tmp_path / "auto")
    session = three_ship_session()
    never = store.handle()
    never.write(session)
    never.abandon()
    (info,) = store.recoverable()
    assert info.compared() == "holds work on a session that was never saved"
    store.remove_key(info.key)

    file = tmp_path / "night.shipsheet"
    save_session(session, file)
    old = time.time() - 100
    os.utime(file, (old, old))
    handle = store.handle()
    handle.write(session, file, base=DiskState.of(file).key)  # as the window's document does
    handle.abandon()
    info = next(i for i in store.recoverable() if i.key == handle.key)
    assert info.compared() == "is newer than the saved file night.shipsheet"
    file.unlink()
    assert "no longer where it was saved" in info.compared()


def _open_twice(tmp_path):
    """One file open in two windows (A and B), each with its own autosaves, as the
    document makes them: ``base`` is the file as it was when each began."""
    store = AutosaveStore(tmp_path / "auto")
    file = tmp_path / "night.shipsheet"
    save_session(three_ship_session(), file)
    base = DiskState.of(file).key
    return store, file, base


def test_an_unsaved_edit_is_offered_after_another_window_saved_the_file(tmp_path):
    """Issue 30: A saves while B's unsaved edit sits in B's autosave, and B crashes. The file
    is newer than B's slot, yet B's edit is in no file: it is offered, saying the file was
    changed elsewhere since (before, the next start offered nothing and the slot stayed)."""
    store, file, base = _open_twice(tmp_path)
    b_session = three_ship_session()
    b_session.turn = 7  # B's edit
    b = store.handle()
    b.write(b_session, file, base=base)
    a_session = three_ship_session()
    a_session.name = "A's evening"  # A's edit, saved
    save_session(a_session, file)
    os.utime(file, (time.time() + 5, time.time() + 5))  # certainly newer than B's slot
    b.abandon()  # B crashes
    [info] = store.recoverable()
    assert info.key == b.key and info.load().turn == 7
    assert info.changed_elsewhere
    assert "changed elsewhere since that work began" in info.compared()
    assert store.newer_than_file(file).key == b.key  # what the window and serve ask


def test_an_autosave_whose_work_the_file_holds_is_not_offered_and_goes(tmp_path):
    """A slot is stale only when its file was saved from that very work after it (a crash
    between the save and the removal of the slots)."""
    store, file, base = _open_twice(tmp_path)
    session = three_ship_session()
    session.turn = 7
    b = store.handle()
    b.write(session, file, base=base)
    save_session(session, file)  # B saves this work...
    b.abandon()  # ...and crashes before its slots were removed
    assert store.recoverable() == []
    assert store.keys() == []  # nothing left to offer again at every start


def test_an_autosave_of_a_file_unchanged_since_is_offered_whatever_the_clock_says(tmp_path):
    store, file, base = _open_twice(tmp_path)
    session = three_ship_session()
    session.turn = 2
    handle = store.handle()
    handle.write(session, file, base=base)
    handle.abandon()
    later = time.time() + 3600
    os.utime(file, (later, later))  # a clock set wrong: the file looks newer than the slot
    base_now = DiskState.of(file).key
    [info] = store.recoverable()  # mtime is part of the base: the file "changed", not to this work
    assert info.load().turn == 2
    handle2 = store.adopt(info)
    handle2.write(session, file, base=base_now)
    handle2.abandon()
    [info] = store.recoverable()
    assert not info.changed_elsewhere and info.file_as_begun
    assert info.compared() == "is newer than the saved file night.shipsheet"  # not the clock's word


def test_a_journalled_edit_is_offered_after_another_window_saved(tmp_path):
    """B's edit made after its last slot is in its journal (model/journal.py): still
    offered, the journal replayed, when A has saved the file since."""
    from shipsheet.model.actions import NextTurn
    from shipsheet.model.journal import Journal
    store, file, base = _open_twice(tmp_path)
    b_session = three_ship_session()
    b = store.handle()
    journal = Journal(store.folder, b.key, file)
    b_session.subscribe(lambda change: journal.record(b_session, change))
    b_session.apply(NextTurn())
    mark = journal.mark()
    b.write(b_session, file, journal=mark, base=base)
    journal.rebase(mark[1])
    b_session.apply(NextTurn())  # in the journal only
    assert journal.durable().result(timeout=10) == ""
    a_session = three_ship_session()
    a_session.name = "A's evening"
    save_session(a_session, file)
    journal.close()
    b.abandon()
    [info] = store.recoverable()
    assert info.journalled == 1 and info.load().turn == b_session.turn == 3
    assert info.changed_elsewhere

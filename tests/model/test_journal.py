"""The journal: every change on disk as it is made, replayed on the newest autosave after
a crash, so nothing the table was told was applied is lost (model/journal.py)."""

import json

from shipsheet.model import ShipAction, load_session
from shipsheet.model.actions import AddShip, NextPhase, NextTurn, RemoveShip, RenameShip, SetSide
from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.journal import Journal, read_journal
from shipsheet.model.library import resources_dir
from shipsheet.model.storage import session_to_data

from sessions import frigate_session


def _burn(ship, ctx):
    ship.state["fuel"] -= 1
    ctx.log(f"fuel now {ship.state['fuel']}")


def _state(session):
    data = session_to_data(session)
    return json.loads(json.dumps(data))


class Table:
    """A session with its autosave handle and journal, changed as the document does."""

    def __init__(self, folder, session, source=None):
        self.store = AutosaveStore(folder)
        self.handle = self.store.handle()
        self.session = session
        self.journal = Journal(self.store.folder, self.handle.key, source)
        self.source = source
        session.subscribe(lambda change: self.journal.record(session, change))

    def autosave(self, rebase=True):
        mark = self.journal.mark()
        self.handle.write(self.session, self.source, journal=mark)
        if rebase:
            self.journal.rebase(mark[1])

    def crash(self):
        assert self.journal.durable().result(timeout=10) == ""
        self.journal.close()
        self.handle.abandon()

    def recovered(self):
        [info] = self.store.recoverable()
        return info


def _evening(session):
    """Every kind of change: ship actions, undo and redo, renames, sides, phases, a new
    turn, ships added and removed."""
    nike, raven = session.ships
    for _ in range(3):
        session.apply(ShipAction("Burn fuel", nike, _burn))
    session.undo()
    session.redo()
    session.apply(ShipAction("Burn fuel", raven, _burn))
    session.undo()
    session.apply(RenameShip(nike, "Nike II"))
    session.apply(SetSide(raven, "Outer"))
    session.apply(NextPhase())
    session.apply(NextTurn())
    from shipsheet.model import get_class, new_ship
    extra = new_ship(get_class("triplanetary/corvette"), "Sprite")
    session.apply(AddShip(extra, side="Inner"))
    session.apply(ShipAction("Burn fuel", extra, _burn))
    session.apply(RemoveShip(raven))


def test_a_crash_with_no_autosave_written_loses_no_change(tmp_path):
    table = Table(tmp_path, frigate_session())
    _evening(table.session)
    table.crash()  # no autosave slot was ever written: the journal alone holds the work
    info = table.recovered()
    assert info.journalled == 14
    assert _state(info.load()) == _state(table.session)


def test_replayed_on_the_newest_slot_after_its_ticket(tmp_path):
    table = Table(tmp_path, frigate_session())
    session = table.session
    nike = session.ships[0]
    session.apply(ShipAction("Burn fuel", nike, _burn))
    table.autosave()
    _evening(session)
    table.crash()
    info = table.recovered()
    assert info.journalled == 14 and info.counter == 1
    assert _state(info.load()) == _state(session)
    full = frigate_session().ships[0].state["fuel"]
    assert info.load().ship(nike.id).state["fuel"] == full - 4


def test_a_crash_between_the_slot_and_the_rebase(tmp_path):
    """The slot is on disk but the journal still holds the records it has: they are not
    applied twice."""
    table = Table(tmp_path, frigate_session())
    session = table.session
    _evening(session)
    table.autosave(rebase=False)
    session.apply(ShipAction("Burn fuel", session.ships[0], _burn))
    table.crash()
    info = table.recovered()
    assert info.journalled == 1
    assert _state(info.load()) == _state(session)


def test_the_journal_keeps_only_what_the_slot_does_not_hold(tmp_path):
    table = Table(tmp_path, frigate_session())
    session = table.session
    for _ in range(5):
        session.apply(ShipAction("Burn fuel", session.ships[0], _burn))
    table.autosave()
    session.apply(ShipAction("Burn fuel", session.ships[1], _burn))
    table.journal.durable().result(timeout=10)
    read = read_journal(table.journal.path.read_bytes())
    assert [r["t"] for r in read.records] == [6]
    assert [s["id"] for s in read.records[0]["ships"]] == [session.ships[1].id]  # a delta
    table.crash()


def test_a_torn_last_record_is_the_end_of_the_journal(tmp_path):
    table = Table(tmp_path, frigate_session())
    session = table.session
    nike = session.ships[0]
    session.apply(ShipAction("Burn fuel", nike, _burn))
    session.apply(ShipAction("Burn fuel", nike, _burn))
    table.crash()
    raw = table.journal.path.read_bytes()
    table.journal.path.write_bytes(raw[:-7])  # the power went mid-write
    info = table.recovered()
    full = frigate_session().ships[0].state["fuel"]
    assert info.journalled == 1 and info.load().ship(nike.id).state["fuel"] == full - 1
    assert table.store.problems == []


def test_a_damaged_record_ends_the_replay_and_is_reported(tmp_path):
    table = Table(tmp_path, frigate_session())
    session = table.session
    nike = session.ships[0]
    for _ in range(3):
        session.apply(ShipAction("Burn fuel", nike, _burn))
    table.crash()
    lines = table.journal.path.read_bytes().split(b"\n")
    record = json.loads(lines[3])
    record["order"] = ["no-such-ship"]
    lines[3] = json.dumps(record).encode()
    table.journal.path.write_bytes(b"\n".join(lines))
    info = table.recovered()
    full = frigate_session().ships[0].state["fuel"]
    assert info.journalled == 2 and info.load().ship(nike.id).state["fuel"] == full - 2
    assert any("record 3" in p for p in table.store.problems)


def test_a_record_that_does_not_load_leaves_the_slot(tmp_path):
    """A replay that builds no valid session is set aside: the slot is offered alone."""
    table = Table(tmp_path, frigate_session())
    session = table.session
    nike = session.ships[0]
    session.apply(ShipAction("Burn fuel", nike, _burn))
    table.autosave()
    session.apply(ShipAction("Burn fuel", nike, _burn))
    table.crash()
    lines = table.journal.path.read_bytes().split(b"\n")
    record = json.loads(lines[1])
    record["ships"][0]["state"]["fuel"] = "lots"
    lines[1] = json.dumps(record).encode()
    table.journal.path.write_bytes(b"\n".join(lines))
    info = table.recovered()
    full = frigate_session().ships[0].state["fuel"]
    assert info.journalled == 0 and info.load().ship(nike.id).state["fuel"] == full - 1
    assert list(tmp_path.glob("*.journal.damaged"))


def test_discard_removes_the_journal_with_the_slots(tmp_path):
    table = Table(tmp_path, frigate_session())
    table.session.apply(ShipAction("Burn fuel", table.session.ships[0], _burn))
    table.autosave()
    table.journal.durable().result(timeout=10)
    table.journal.discard()
    table.handle.discard()
    assert list(tmp_path.iterdir()) == []
    assert table.store.recoverable() == []


def test_a_real_sample_session_round_trips(tmp_path):
    session = load_session(resources_dir() / "samples" / "fedcom.shipsheet")
    source = tmp_path / "fedcom.shipsheet"
    table = Table(tmp_path / "auto", session, source)
    session.apply(NextPhase())
    session.apply(RenameShip(session.ships[2], "Renamed"))
    table.crash()
    info = table.recovered()
    assert info.source == source.resolve()  # named in the journal's header
    assert _state(info.load()) == _state(session)

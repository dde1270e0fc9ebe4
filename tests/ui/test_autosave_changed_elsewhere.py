"""Issue 30, through the window's document: A saves while B's unsaved edit sits in B's
autosave, and B crashes. The next start offers B's edit, saying the file was changed
elsewhere since (the document records in each slot what the file was when its work
began); before, it offered nothing and the slot stayed on disk unreported."""

from __future__ import annotations

from shipsheet.model import RenameShip, Session, get_class, load_session, new_ship, save_session
from shipsheet.ui.document import SessionDocument


def three_ship_session() -> Session:
    session = Session("triplanetary", name="Belt patrol", seed=3)
    for cls, name in (("frigate", "Nike"), ("corsair", "Raven"), ("transport", "Ceres Queen")):
        session.add_ship(new_ship(get_class(f"triplanetary/{cls}"), name), side="Inner Planets")
    session.clear_history()
    return session


def _crash(doc: SessionDocument) -> None:
    """The window goes away without closing its document: nothing is cleaned up."""
    doc.session.unsubscribe(doc._listener)
    doc._autosave_timer.stop()
    doc.flush_autosave()
    assert doc.durable().result(timeout=10) == ""
    doc.journal.close()
    doc.autosave.abandon()


def test_another_windows_save_does_not_hide_an_unsaved_edit(qapp, tmp_path, autosave):
    path = tmp_path / "night.shipsheet"
    save_session(three_ship_session(), path)
    a = SessionDocument(load_session(path), path, autosave)
    b = SessionDocument(load_session(path), path, autosave)
    b.do(RenameShip(b.session.ships[0], "B's edit"))
    b.autosave_now()
    b.flush_autosave()
    a.do(RenameShip(a.session.ships[1], "A's edit"))
    a.save()  # the file is newer than B's slot now
    _crash(b)
    a.close()
    [info] = autosave.recoverable()
    assert info.key == b.autosave.key and info.changed_elsewhere
    assert info.load().ships[0].name == "B's edit"
    assert "changed elsewhere" in info.compared()
    assert load_session(path).ships[1].name == "A's edit"  # A's save untouched


def test_a_crash_right_after_a_save_offers_nothing(qapp, tmp_path, autosave):
    path = tmp_path / "night.shipsheet"
    save_session(three_ship_session(), path)
    b = SessionDocument(load_session(path), path, autosave)
    b.do(RenameShip(b.session.ships[0], "B's edit"))
    b.autosave_now()
    b.flush_autosave()
    save_session(b.session, path)  # the save happened; the crash came before the slots went
    _crash(b)
    assert autosave.recoverable() == [] and autosave.keys() == []


def test_an_edit_only_in_the_journal_is_offered_after_another_window_saved(qapp, tmp_path, autosave):
    """B crashes before its first autosave: the journal alone holds B's edit, and says too
    what the file was when B's work began."""
    path = tmp_path / "night.shipsheet"
    save_session(three_ship_session(), path)
    a = SessionDocument(load_session(path), path, autosave)
    b = SessionDocument(load_session(path), path, autosave)
    b.do(RenameShip(b.session.ships[0], "B's edit"))
    a.do(RenameShip(a.session.ships[1], "A's edit"))
    a.save()
    _crash(b)
    a.close()
    [info] = autosave.recoverable()
    assert info.journalled == 1 and info.load().ships[0].name == "B's edit"
    assert info.changed_elsewhere and "changed elsewhere" in info.compared()

"""The window never loses work silently: failed saves and autosaves are told, a file open
elsewhere or changed on disk is noticed, and a damaged autosave store is set aside."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QMessageBox

from shipsheet.model import RenameShip, load_session, save_session
from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.paths import resources_dir



def three_ship_session():
    from shipsheet.model import Session, get_class, new_ship
    session = Session("triplanetary", name="Night")
    for name in ("Nike", "Ajax", "Hector"):
        session.add_ship(new_ship(get_class("triplanetary/frigate"), name))
    return session


def saved(tmp_path, name="night.shipsheet"):
    path = tmp_path / name
    save_session(three_ship_session(), path)
    return path


def test_a_failed_save_is_told_and_closing_keeps_the_work(window, tmp_path, dialogs):
    """Finding 3: a save that raised anything but OSError showed nothing, and answering Save
    to "Unsaved changes" then quit, losing the work."""
    window.open_path(saved(tmp_path))
    window.doc.do(RenameShip(window.doc.current_ship, "Nike II"))
    from shipsheet.model.filelock import DiskState
    window.doc.path = tmp_path / "night.shipsheet" / "under-a-file"  # can never be written
    window.doc.disk_state = DiskState.of(window.doc.path)
    assert not window.save()
    assert dialogs.shown[-1][1] == "Cannot save"
    assert "your work is still open here" in dialogs.shown[-1][2]
    dialogs.answer = QMessageBox.StandardButton.Save
    assert not window.close()  # the save failed: the window stays, with the work
    assert window.doc.dirty and window.doc.current_ship.name == "Nike II"
    window.doc.mark_clean()


def test_an_unsaveable_session_cannot_be_made_by_typing(window, tmp_path, dialogs):
    """Text a file cannot hold is refused where it enters, not at the next save."""
    window.open_path(saved(tmp_path))
    assert not window.doc.do(RenameShip(window.doc.current_ship, "Nike\ud800"))
    assert window.doc.current_ship.name != "Nike\ud800"


def test_a_failing_autosave_is_shown_until_it_works_again(app, tmp_path, dialogs, qtbot):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the autosave folder should be")
    app.autosave = AutosaveStore(blocker / "autosave")
    window = app.new_window()
    qtbot.addWidget(window)
    window.open_path(saved(tmp_path))
    window.doc.do(RenameShip(window.doc.current_ship, "Nike II"))
    window.doc.autosave_now()
    qtbot.waitUntil(lambda: window._autosave_warning.isVisible(), timeout=3000)
    assert "Autosave failed" in window._autosave_warning.text()
    window.doc.autosave_store._folder = tmp_path / "autosave"  # the disk is back
    window.doc.do(RenameShip(window.doc.current_ship, "Nike III"))
    window.doc.autosave_now()
    qtbot.waitUntil(lambda: not window._autosave_warning.isVisible(), timeout=3000)
    window.doc.mark_clean()


def test_a_file_open_in_another_window_is_noticed(app, tmp_path, dialogs, qtbot):
    path = saved(tmp_path)
    first = app.new_window()
    qtbot.addWidget(first)
    assert first.open_path(path)
    second = app.new_window()
    qtbot.addWidget(second)
    dialogs.answer = QMessageBox.StandardButton.Cancel
    assert not second.open_path(path)
    assert dialogs.shown[-1][1] == "File already open"
    assert "in another window of this ShipSheet" in dialogs.shown[-1][2]
    dialogs.answer = QMessageBox.StandardButton.Open
    assert second.open_path(path)  # the user's choice: open it anyway (not locked here)
    assert second.doc.lock is None and first.doc.lock.held
    first.close()
    assert not (tmp_path / ".night.shipsheet.lock").exists()  # released with the window


def test_a_lock_left_by_a_crash_is_taken_over(window, tmp_path, dialogs):
    path = saved(tmp_path)
    (tmp_path / ".night.shipsheet.lock").write_text(json.dumps({"pid": 999999, "host": "x"}))
    assert window.open_path(path)
    assert not dialogs.shown and window.doc.lock.held


def test_a_file_changed_on_disk_is_not_overwritten_without_asking(window, tmp_path, dialogs):
    path = saved(tmp_path)
    window.open_path(path)
    other = load_session(path)
    other.turn = 5
    save_session(other, path)  # someone else saves meanwhile
    window.doc.do(RenameShip(window.doc.current_ship, "Nike II"))
    dialogs.answer = QMessageBox.StandardButton.Cancel
    assert not window.save()
    assert dialogs.shown[-1][1] == "File changed on disk"
    assert load_session(path).turn == 5
    dialogs.answer = QMessageBox.StandardButton.Save  # overwrite
    assert window.save()
    assert load_session(path).ships[0].name == "Nike II"
    assert window.save()  # our own save is not a change by someone else
    assert dialogs.shown[-1][1] == "File changed on disk" and len(
        [s for s in dialogs.shown if s[1] == "File changed on disk"]) == 2


def test_a_file_changed_on_disk_can_be_reloaded(window, tmp_path, dialogs):
    path = saved(tmp_path)
    window.open_path(path)
    other = load_session(path)
    other.turn = 5
    save_session(other, path)
    window.doc.do(RenameShip(window.doc.current_ship, "Nike II"))
    dialogs.answer = QMessageBox.StandardButton.Reset
    assert not window.save()
    assert window.doc.session.turn == 5 and not window.doc.dirty


def test_a_damaged_autosave_store_is_set_aside_and_reported_never_fatal(app, tmp_path, monkeypatch):
    folder = app.autosave.folder
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "0123456789abcdef.0.shipsheet").write_text('{"autosave": {"counter": 1e300}}')
    (folder / "0123456789abcdef.1.shipsheet").write_text("not json")
    import shipsheet.ui.dialogs as dialogs_module
    shown = []
    monkeypatch.setattr(dialogs_module, "show_plain_warning", lambda *args: shown.append(args))
    window = app.new_window()
    assert not app.recover(window)
    assert shown and shown[0][1] == "Damaged autosaves set aside"
    assert sorted(p.name for p in folder.iterdir()) == ["0123456789abcdef.0.shipsheet.damaged",
                                                         "0123456789abcdef.1.shipsheet.damaged"]


def test_a_recovered_autosave_offers_every_crashed_window(app, tmp_path, monkeypatch):
    """Finding 7: after two windows crashed, only one was offered."""
    session = three_ship_session()
    for turn in (2, 3):
        handle = app.autosave.handle()
        session.turn = turn
        handle.write(session)
        handle.abandon()
    import shipsheet.ui.app as app_module
    monkeypatch.setattr(app_module, "ask_recover", lambda parent, infos: infos[0])
    window = app.new_window()
    assert app.recover(window)
    turns = sorted(w.doc.session.turn for w in app.windows if w.doc is not None)
    assert turns == [2, 3]
    for w in app.windows:
        if w.doc is not None:
            w.doc.mark_clean()


def test_the_sample_session_uid_cannot_touch_files(window, tmp_path):
    """A session file's uid is not a name for anything on disk any more."""
    data = json.loads((resources_dir() / "samples" / "fedcom.shipsheet").read_text())
    data["uid"] = "../../victim/settings"
    path = tmp_path / "mail.shipsheet"
    path.write_text(json.dumps(data))
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "settings.json").write_text("{}")
    window.open_path(path)
    window.doc.do(RenameShip(window.doc.current_ship, "Other"))
    window.doc.autosave_now()
    window.doc.flush_autosave()
    window.save()
    window.close()
    assert (tmp_path / "victim" / "settings.json").exists()

"""The window's document and its journal: a save or a clean close leaves no journal behind,
even while the journal's writer is still syncing (a journal left after a save would be
offered as a crash's work at the next start)."""

from __future__ import annotations

import os
import time

from shipsheet.model.actions import RenameShip
from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.games import piece
from shipsheet.ui.document import SessionDocument


def test_a_save_while_the_journal_syncs_leaves_nothing_to_recover(qapp, tmp_path, monkeypatch):
    import shipsheet.model.journal as journal_module
    real_fsync = os.fsync

    def slow_fsync(fd):
        time.sleep(0.05)
        real_fsync(fd)
    monkeypatch.setattr(journal_module.os, "fsync", slow_fsync)
    store = AutosaveStore(tmp_path / "auto")
    doc = SessionDocument(piece("fedcom", "sample")(), None, store)
    for n in range(8):  # queued faster than the writer syncs them
        doc.apply(RenameShip(doc.session.ships[0], f"Renamed {n}"))
    doc.save(tmp_path / "night.shipsheet")  # closes the journal: its writer is done
    assert list((tmp_path / "auto").glob("*")) == []
    assert store.recoverable() == []
    doc.apply(RenameShip(doc.session.ships[0], "After the save"))
    doc.close()
    assert list((tmp_path / "auto").glob("*")) == []

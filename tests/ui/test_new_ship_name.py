"""New Ship / Add Ship offer a short name of the ship's own (issue 17, trap 3).

Before: the name field held the whole list entry, "Vigilant-class Cruiser (Cruiser: Reactor
d10, Drive d8, Fire Control d8)", which landed in the title, the roster and the log.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from shipsheet.model.ship import unique_name
from shipsheet.ui.dialogs import NewShipDialog


def pick(dialog, class_id: str) -> None:
    for i in range(dialog.classes.count()):
        if dialog.classes.item(i).data(Qt.ItemDataRole.UserRole) == class_id:
            dialog.classes.setCurrentRow(i)
            return
    raise AssertionError(class_id)


def test_the_offered_name_is_the_class_name_numbered_when_taken(qtbot):
    dialog = NewShipDialog(None, "war-in-space", [], taken=["Vigilant-class Cruiser", "Kestrel"])
    qtbot.addWidget(dialog)
    pick(dialog, "war-in-space/cruiser")
    assert dialog.name.text() == "Vigilant-class Cruiser 2"
    assert dialog.name.selectedText() == dialog.name.text()  # typing replaces it
    pick(dialog, "war-in-space/escort")
    assert dialog.name.text() == "Kestrel-class Escort"


def test_typing_replaces_the_offer_and_a_typed_name_is_kept(qtbot):
    dialog = NewShipDialog(None, "triplanetary", [], taken=[])
    qtbot.addWidget(dialog)
    dialog.show()
    pick(dialog, "triplanetary/frigate")
    dialog.name.setFocus()
    dialog.name.selectAll()
    qtbot.keyClicks(dialog.name, "Ajax")
    assert dialog.name.text() == "Ajax"
    pick(dialog, "triplanetary/corsair")
    assert dialog.name.text() == "Ajax"


def test_add_ship_from_the_window_adds_the_short_name(window, qtbot, monkeypatch):
    assert window.open_sample("war-in-space")
    session = window.doc.session

    def run(dialog):
        pick(dialog, "war-in-space/escort")  # the sample has Kestrel-class Escorts already
        return True

    monkeypatch.setattr(NewShipDialog, "exec", run)
    window.add_ship()
    added = session.ships[-1]
    assert added.name == unique_name("Kestrel-class Escort", [s.name for s in session.ships[:-1]])
    assert "(" not in added.name and len(added.name) < 30


def test_unique_name():
    assert unique_name("Frigate", ["frigate", "Frigate 2"]) == "Frigate 3"
    assert unique_name("  Frigate  ", []) == "Frigate"


def test_sample_is_said_once_in_the_class_list(qtbot):
    """Issue 17: "(sample)" appeared twice in a Federation Commander class's entry."""
    dialog = NewShipDialog(None, "fedcom", [], taken=[])
    qtbot.addWidget(dialog)
    texts = [dialog.classes.item(i).text() for i in range(dialog.classes.count())]
    assert texts and all(t.count("(sample)") <= 1 for t in texts)
    assert any("(sample)" in t for t in texts)

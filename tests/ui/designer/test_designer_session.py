"""Issue 9: "Editing a class never changes ships already in a session ... 'Update ships in this
session to the new class' is an explicit action that carries each ship's damage over where boxes
still match and reports what could not be matched" — through the session window's undo stack."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from shipsheet.model import Session, get_class, new_ship
from shipsheet.rules import fedcom
from shipsheet.sheets import painter_class
from shipsheet.ui.designer import open_designer
from shipsheet.ui.designer.box_table import FIELDS


def fedcom_window(window):
    session = Session("fedcom", name="Border patrol", seed=2)
    cruiser = get_class("fedcom/sample-heavy-cruiser")
    a = session.add_ship(new_ship(cruiser, "Excalibur"), side="Blue")
    b = session.add_ship(new_ship(cruiser, "Lexington"), side="Blue")
    frigate = session.add_ship(new_ship(get_class("fedcom/sample-frigate"), "Kestrel"), side="Red")
    for box in ("ph-9", "ph-1", "lab-1"):
        session.apply(fedcom.mark_box_action(a, box))
    session.apply(fedcom.mark_box_action(b, "photon-2"))
    session.clear_history()
    window.open_session(session)
    return session, a, b, frigate


def test_update_ships_keeps_damage_reports_the_rest_and_is_one_undo_step(window, qtbot, dialogs):
    session, a, b, frigate = fedcom_window(window)
    doc = window.doc
    old_class = a.ship_class
    designer = open_designer(window, class_id="fedcom/sample-heavy-cruiser", session_doc=doc)
    qtbot.addWidget(designer)
    ed = designer.editor
    assert designer.origin_id == "fedcom/sample-heavy-cruiser"
    # Edit: drop ph-9 (destroyed on Excalibur), rename ph-1's arc, shrink the frame.
    row = [r["id"] for r in ed.model.rows].index("ph-9")
    ed.table.select_rows([row])
    ed.delete_selected()
    ed.model.setData(ed.model.index(3, FIELDS.index("arc")), "FX")
    ed.frame.setValue(5)
    assert designer.problem is None

    # Saving the edited class changes no ship in play: each keeps its own copy.
    assert designer.save()
    assert a.ship_class is old_class
    assert "ph-9" in a.ship_class.spec.box_index and a.ship_class.spec.frame == 6
    assert a.state["destroyed"] == ["ph-9", "ph-1", "lab-1"]

    # The explicit action: asked, applied through the session document, reported.
    assert designer.update_button.isEnabled()
    assert [s.name for s in designer.session_ships()] == ["Excalibur", "Lexington"]
    dialogs.answer = QMessageBox.StandardButton.Yes
    undo_before = doc.session.undo_status().steps
    qtbot.mouseClick(designer.update_button, Qt.MouseButton.LeftButton)
    assert doc.session.undo_status().steps == undo_before + 1
    assert window.act_undo.text() == "&Undo Update 2 ships to Sample Heavy Cruiser (copy)"
    kinds = [d[:2] for d in dialogs.shown]
    assert kinds == [("question", "Update Ships"), ("information", "Ships Updated")]
    report = dialogs.shown[-1][2]
    assert report.startswith("1 thing could not be matched.")
    assert "Excalibur: not matched: destroyed ph-9: no box with that id on the new card" in report
    assert "Lexington: kept 1 destroyed box (photon-2)" in report

    ex, lex = session.ship(a.id), session.ship(b.id)
    assert ex.ship_class.spec.frame == 5 and "ph-9" not in ex.ship_class.spec.box_index
    assert ex.state["destroyed"] == ["ph-1", "lab-1"]
    assert lex.state["destroyed"] == ["photon-2"]
    assert session.ship(frigate.id) is frigate  # another class: untouched
    assert ex.ship_class.id == designer.class_id == "fedcom/sample-heavy-cruiser-copy"

    # One undo in the session window takes both ships back to their old class and damage.
    window.act_undo.trigger()
    assert session.ship(a.id).ship_class.spec.frame == 6
    assert session.ship(a.id).state["destroyed"] == ["ph-9", "ph-1", "lab-1"]
    assert session.ship(b.id).ship_class.spec.frame == 6


def test_update_needs_a_session_with_ships_of_the_class(window, qtbot, dialogs):
    fedcom_window(window)
    designer = open_designer(window, game="war-in-space", session_doc=window.doc)
    qtbot.addWidget(designer)
    assert not designer.update_button.isEnabled()
    assert designer.session_ships() == []
    lonely = open_designer(game="fedcom")
    qtbot.addWidget(lonely)
    assert lonely.update_button.isHidden()
    assert not lonely.update_session_ships()


def test_the_preview_is_drawn_by_the_games_painter(qtbot):
    designer = open_designer(class_id="fedcom/sample-frigate")
    qtbot.addWidget(designer)
    designer.refresh_preview()
    painter = designer.preview.canvas.painter
    assert isinstance(painter, painter_class("fedcom"))
    assert painter.ship.ship_class.name == "Sample Frigate (copy)"
    old = len(painter.ship.ship_class.spec.boxes)
    designer.editor.add_kind.setCurrentText("cargo")
    designer.editor.add_count.setValue(3)
    designer.editor.add_from_bar()
    qtbot.waitUntil(lambda: designer.preview.canvas.painter is not painter, timeout=2000)
    assert len(designer.preview.canvas.painter.ship.ship_class.spec.boxes) == old + 3
    # While invalid, the last valid version stays, and says so.
    designer.editor.frame.setValue(0)
    designer.refresh_preview()
    assert designer.preview.canvas.painter is not None
    assert designer.preview.note.text() == ("Showing the last valid version: fix the problem "
                                            "marked in red")
    assert "frame: 0 is too small (at least 1)" in designer.status_text.text()

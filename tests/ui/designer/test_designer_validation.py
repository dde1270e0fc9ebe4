"""Issue 9: "Validation as you type, with the same messages as the file loader, shown at the
field; Save is refused while the class is invalid, and says why." """

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shipsheet.model.errors import ShipDefinitionError
from shipsheet.model.library import load_ship_class
from shipsheet.model.paths import user_ships_dir
from shipsheet.model.toml_files import to_text as dumps
from shipsheet.ui.designer import open_designer
from shipsheet.ui.designer.box_table import FIELDS


def loader_message(tmp_path, data: dict, stem: str) -> str:
    """What the file loader says of the same definition saved as ``<stem>.toml``."""
    path = tmp_path / f"{stem}.toml"
    path.write_text(dumps(data), "utf-8")
    with pytest.raises(ShipDefinitionError) as caught:
        load_ship_class(path)
    return str(caught.value)


def saved_files() -> list:
    return sorted(user_ships_dir().glob("*/*.toml"))


def test_a_bad_arc_is_shown_at_its_cell_with_the_loaders_message(qtbot, dialogs, tmp_path):
    window = open_designer(game="fedcom")
    qtbot.addWidget(window)
    window.name.selectAll()
    qtbot.keyClicks(window.name, "Arc Test")
    ed = window.editor
    ed.add_kind.setCurrentText("phaser")
    ed.add_arc.setCurrentText("FA")
    qtbot.mouseClick(ed.add_button, Qt.MouseButton.LeftButton)
    assert window.problem is None

    # Type "FQ" into the new phaser's arc cell (row 2: boxes[1]).
    arc = FIELDS.index("arc")
    ed.table.setFocus()
    ed.table.setCurrentIndex(ed.model.index(1, arc))
    qtbot.keyClicks(ed.table, "F")
    qtbot.keyClicks(window.focusWidget(), "Q")
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_Return)
    QApplication.processEvents()

    expected = loader_message(tmp_path, window.current_data(), "arc-test")
    assert expected.startswith('arc-test.toml: boxes[1].arc: unknown arc "FQ"')
    assert window.problem.message == expected
    # At the field: the cell is marked and carries the message; the box group says it too.
    assert ed.model.error == (1, arc, expected)
    tip = ed.model.index(1, arc).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == f"⚠ {expected}"
    assert ed.model.index(1, arc).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert not ed.boxes_error.isHidden()
    assert ed.boxes_error.text().startswith('⚠ boxes[1].arc: unknown arc "FQ"')
    assert ed.boxes_error.text().endswith("(row 2, ph-1)")
    assert window.status_text.text().startswith("arc-test.toml: boxes[1].arc: unknown arc")

    # Save is refused, says why, writes nothing, and puts the cursor on the cell.
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    kind, title, text = dialogs.shown[-1]
    assert (kind, title) == ("warning", "Cannot Save")
    assert expected in text
    assert saved_files() == []
    assert ed.table.currentIndex().row() == 1 and ed.table.currentIndex().column() == arc

    # Fixed: the mark goes, Save works.
    ed.model.setData(ed.model.index(1, arc), "FA")
    assert window.problem is None and ed.model.error is None
    assert not ed.boxes_error.text()
    assert window.save()
    assert [p.name for p in saved_files()] == ["arc-test.toml"]


def test_a_duplicate_id_names_the_first_use(qtbot):
    window = open_designer(game="fedcom")
    qtbot.addWidget(window)
    ed = window.editor
    ed.add_kind.setCurrentText("bridge")
    ed.add_count.setValue(2)
    qtbot.mouseClick(ed.add_button, Qt.MouseButton.LeftButton)
    ed.model.setData(ed.model.index(2, 0), "bridge-1")
    assert window.problem.path == "boxes[2].id"
    assert window.problem.text == 'duplicate box id "bridge-1" (first used at boxes[0])'
    assert ed.model.error[:2] == (2, 0)


def test_war_in_space_too_many_boxes_at_the_spin_box(qtbot, tmp_path):
    """[product]: "A system may have at most as many boxes as steps from its die to "0"" — a d4 has 1."""
    window = open_designer(game="war-in-space")
    qtbot.addWidget(window)
    ed = window.editor
    ed.dies[2].setCurrentText("d4")
    ed.boxes[2].setValue(1)
    assert window.problem is None
    ed.boxes[2].setValue(3)
    message = loader_message(tmp_path, window.current_data(), window.stem_text)
    assert window.problem.message == message
    assert window.problem.path == "systems[2].boxes"
    assert window.problem.text == ("a d4 system has at most 1 boxes (the steps down to 0: 0), "
                                   "found 3")
    assert ed.boxes[2].property("invalid") is True
    assert ed.boxes[2].toolTip() == f"⚠ {message}"
    assert ed.systems_error.text().startswith("⚠ systems[2].boxes: a d4 system has at most 1")
    assert ed.boxes[1].property("invalid") is not True
    assert not window.save()
    ed.boxes[2].setValue(1)
    assert ed.boxes[2].property("invalid") is False and window.problem is None


def test_war_in_space_suit_rows_need_two_different_actions(qtbot):
    window = open_designer(game="war-in-space")
    qtbot.addWidget(window)
    ed = window.editor
    ed.secondary["hearts"].setCurrentText("Defense")  # primary is Defense too
    assert window.problem.path == "suits.hearts"
    assert window.problem.text == ('primary and secondary must be two different actions '
                                   '(both are "defense") for ♥')
    assert ed.primary["hearts"].property("invalid") is True
    assert ed.tertiary["hearts"].text() == "—"


def test_triplanetary_zero_strength_must_be_defensive(qtbot):
    window = open_designer(game="triplanetary")
    qtbot.addWidget(window)
    ed = window.editor
    ed.combat.setValue(0)
    assert window.problem.path == "combat"
    assert window.problem.text == ("a ship with combat strength 0 cannot attack: mark it "
                                   "defensive_only = true")
    assert ed.combat.property("invalid") is True
    ed.flags["defensive_only"].setChecked(True)
    assert window.problem is None
    assert ed.printed.text() == "printed: <b>0D</b>"


def test_an_empty_class_name_is_refused_at_the_name(qtbot, dialogs):
    window = open_designer(game="triplanetary")
    qtbot.addWidget(window)
    window.name.selectAll()
    qtbot.keyClick(window.name, Qt.Key.Key_Delete)
    assert window.problem.path == "class" and window.problem.text == "must not be empty"
    assert window.name.property("invalid") is True
    assert window.common_error.text() == "⚠ class: must not be empty"
    # The file name is the designer's own check (the loader never sees it).
    window.stem.setText("no/slashes")
    window.stem.textEdited.emit("no/slashes")
    assert window.stem.property("invalid") is True
    assert "is not a usable file name" in window.problem.message
    assert not window.save()
    assert dialogs.shown[-1][1] == "Cannot Save"

"""Issue 9: "build a Federation Commander card of at least 40 boxes through the widgets, save it,
load it from the library, allocate a volley" — and the file it writes is readable TOML."""

from __future__ import annotations

import tomllib

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shipsheet.model.library import get_class, list_classes, new_ship
from shipsheet.model.paths import user_ships_dir
from shipsheet.rules.fedcom import allocate_volley
from shipsheet.ui.designer import open_designer


def add(qtbot, editor, kind: str, count: int, *, type_: str = "", arc: str = "",
        size: int | None = None, drones: int | None = None, start: str = "") -> None:
    """Fill the "Add boxes" row as a user would, and press Enter in it."""
    editor.add_kind.setCurrentText(kind)
    editor.add_count.selectAll()
    qtbot.keyClicks(editor.add_count, str(count))
    if type_:
        editor.add_type.setCurrentText(type_)
    editor.add_arc.lineEdit().selectAll()
    if arc:
        qtbot.keyClicks(editor.add_arc.lineEdit(), arc)
    else:
        editor.add_arc.setCurrentText("")
    if size is not None:
        editor.add_size.setValue(size)
    if drones is not None:
        editor.add_drones.setValue(drones)
    if start:
        editor.add_start.setCurrentText(start)
    qtbot.keyClick(editor.add_count, Qt.Key.Key_Return)


def type_in_cell(qtbot, window, row: int, column: int, text: str, end) -> None:
    """Type ``text`` into a cell of the box table (its first key opens the cell's editor),
    then press ``end`` (Tab, Return)."""
    view = window.editor.table
    view.setCurrentIndex(view.model().index(row, column))
    qtbot.keyClicks(view, text[0])
    editor = window.focusWidget()
    qtbot.keyClicks(editor, text[1:])
    qtbot.keyClick(editor, end)
    QApplication.processEvents()


def build_card(qtbot):
    window = open_designer(game="fedcom")
    qtbot.addWidget(window)
    window.name.selectAll()
    qtbot.keyClicks(window.name, "Test Cruiser")
    ed = window.editor
    ed.damage_control.setValue(4)
    ed.frame.setValue(6)
    for box, value in zip(ed.shields, (30, 24, 24, 20, 24, 24)):
        box.setValue(value)
    # The blank card has bridge-1; one more bridge, then the rest of a heavy cruiser.
    add(qtbot, ed, "bridge", 1)
    add(qtbot, ed, "phaser", 4, type_="Ph-1", arc="FA")
    add(qtbot, ed, "phaser", 2, type_="Ph-3", arc="360")
    add(qtbot, ed, "torpedo", 2, type_="photon", arc="FA", size=1)
    add(qtbot, ed, "drone", 2, arc="360", drones=4)
    add(qtbot, ed, "shuttle", 2, start="admin")
    add(qtbot, ed, "tractor", 1)
    add(qtbot, ed, "transporter", 2)
    add(qtbot, ed, "lab", 3)
    add(qtbot, ed, "probe", 1)
    for kind, n in (("left-warp", 5), ("right-warp", 5), ("impulse", 3), ("reactor", 2),
                    ("battery", 2), ("forward-hull", 4), ("aft-hull", 3), ("cargo", 2)):
        add(qtbot, ed, kind, n)
    return window


def test_build_a_47_box_card_save_load_and_allocate_a_volley(qtbot, dialogs):
    window = build_card(qtbot)
    ed = window.editor
    rows = ed.model.rows
    assert len(rows) == 47
    assert window.problem is None, window.problem
    # Ids numbered for you, each kind after its own kind.
    assert [r["id"] for r in rows[:8]] == ["bridge-1", "bridge-2", "ph-1", "ph-2", "ph-3",
                                           "ph-4", "ph-5", "ph-6"]
    assert rows[5]["type"] == "Ph-1" and rows[6]["type"] == "Ph-3" and rows[6]["arc"] == "360"
    assert [r["id"] for r in rows if r["kind"] == "torpedo"] == ["photon-1", "photon-2"]
    assert ed.boxes_group.title() == "Boxes — 47"

    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert dialogs.shown == []
    path = user_ships_dir() / "fedcom" / "test-cruiser.toml"
    assert path.is_file()
    text = path.read_text("utf-8")
    # Readable and hand-editable: one box per line, alike system boxes written once.
    assert '{ id = "ph-1", kind = "phaser", type = "Ph-1", arc = "FA" },' in text
    assert '{ id = "left-warp", kind = "left-warp", count = 5 },' in text
    assert tomllib.loads(text)["class"] == "Test Cruiser"

    # In the library at once, every box with the id the designer showed.
    cls = get_class("fedcom/test-cruiser")
    assert cls in list_classes("fedcom") or cls.id in [c.id for c in list_classes("fedcom")]
    assert [b.id for b in cls.spec.boxes] == [r["id"] for r in rows]
    assert cls.spec.shields == (30, 24, 24, 20, 24, 24) and cls.spec.frame == 6

    # A volley on it. Training chart, row 3 [training.toml]: "reactor", "phaser",
    # "forward-hull", "left-warp", "cargo/aft-hull", "lab", "torpedo/drone", "battery",
    # "right-warp", "transporter/frame" — every primary kind is on the card.
    ship = new_ship(cls, "Testbed")
    result = allocate_volley(ship, 10, rolls=[3], chart="training")
    hit_kinds = [cls.spec.box(b).kind for b in result.hits]
    assert hit_kinds == ["reactor", "phaser", "forward-hull", "left-warp", "cargo", "lab",
                         "torpedo", "battery", "right-warp", "transporter"]
    # [seed 8FC4] "PHASERS : Fired Ph-3, unfired Ph-3, ..." — a Ph-3 goes first.
    assert cls.spec.box(result.hits[1]).type == "Ph-3"


def test_fast_entry_numbering_duplicate_move_and_drag(qtbot):
    window = open_designer(game="fedcom")
    qtbot.addWidget(window)
    ed = window.editor
    add(qtbot, ed, "lab", 3)
    add(qtbot, ed, "phaser", 2, type_="Ph-2", arc="LS")
    assert [r["id"] for r in ed.model.rows] == ["bridge-1", "lab-1", "lab-2", "lab-3",
                                                "ph-1", "ph-2"]
    # More of a kind continue its numbers, right after the kind's last box.
    add(qtbot, ed, "lab", 2)
    assert [r["id"] for r in ed.model.rows][1:6] == ["lab-1", "lab-2", "lab-3", "lab-4", "lab-5"]

    # Duplicate (Ctrl+D) copies the selected row with the next free id.
    ed.table.select_rows([6])  # ph-1
    ed.table.setFocus()
    qtbot.keyClick(ed.table, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    ids = [r["id"] for r in ed.model.rows]
    assert ids[6:9] == ["ph-1", "ph-3", "ph-2"]
    copy = next(r for r in ed.model.rows if r["id"] == "ph-3")
    assert copy["type"] == "Ph-2" and copy["arc"] == "LS"

    # Alt+Up moves the selected row up; Delete removes it.
    row = [r["id"] for r in ed.model.rows].index("ph-3")
    ed.table.select_rows([row])
    qtbot.keyClick(ed.table, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert [r["id"] for r in ed.model.rows][row - 1] == "ph-3"
    qtbot.keyClick(ed.table, Qt.Key.Key_Delete)
    assert "ph-3" not in [r["id"] for r in ed.model.rows]

    # A drag of rows 1-2 (lab-1, lab-2) dropped before the last row.
    before = [r["id"] for r in ed.model.rows]
    ed.table.drop_rows_at([1, 2], len(before) - 1)
    after = [r["id"] for r in ed.model.rows]
    assert after == [before[0]] + before[3:-1] + ["lab-1", "lab-2", before[-1]]
    assert window.problem is None


def test_keyboard_only_cell_entry(qtbot):
    """Type into a cell to edit it; Enter commits; Tab moves to the next cell."""
    window = open_designer(game="fedcom")
    qtbot.addWidget(window)
    ed = window.editor
    add(qtbot, ed, "phaser", 1, type_="Ph-1", arc="FA")
    view = ed.table
    view.setFocus()
    type_in_cell(qtbot, window, 0, 0, "cmd-1", Qt.Key.Key_Tab)  # bridge-1's id
    assert ed.model.rows[0]["id"] == "cmd-1"
    assert view.currentIndex().column() == 1
    type_in_cell(qtbot, window, 1, 4, "RF+R", Qt.Key.Key_Return)  # the phaser's arc
    assert ed.model.rows[1]["arc"] == "RF+R"
    assert window.current_data()["boxes"][1] == {"id": "ph-1", "kind": "phaser", "type": "Ph-1",
                                                 "arc": "RF+R"}
    assert window.problem is None

"""Issue 17, the Ship Designer's rough edges: the Add row carried the previous kind's values
(an FA arc on every warp box), fields a kind does not use were editable and written, a
new tractor started "used and dropped", "(sample)" showed twice, the heavy-weapon type
was clipped, and the window opened larger than a laptop screen."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QComboBox

from shipsheet.model import GAME_IDS
from shipsheet.model.library import get_class, new_ship
from shipsheet.model.paths import user_ships_dir
from shipsheet.rules.fedcom import turn_state
from shipsheet.rules.fedcom.card import unused_fields
from shipsheet.ui.designer import open_designer
from shipsheet.ui.designer.box_table import FIELDS, HEAVY_SUGGESTIONS
from shipsheet.ui.designer.file_window import FileWindow

ARC, KIND, TYPE = FIELDS.index("arc"), FIELDS.index("kind"), FIELDS.index("type")


def fedcom_designer(qtbot, name: str = "Rough Edges"):
    window = open_designer(game="fedcom")
    qtbot.addWidget(window)
    window.name.selectAll()
    qtbot.keyClicks(window.name, name)
    return window, window.editor


def pick_kind_and_add(qtbot, ed, kind: str) -> None:
    """Pick a kind in the Add row and press Enter, changing nothing else."""
    ed.add_kind.setCurrentText(kind)
    qtbot.keyClick(ed.add_count, Qt.Key.Key_Return)


def row_of(ed, box_id: str) -> int:
    return [r["id"] for r in ed.model.rows].index(box_id)


def test_a_warp_added_after_an_fa_phaser_has_no_arc_and_none_is_written(qtbot):
    window, ed = fedcom_designer(qtbot)
    # A phaser with arc FA, as a user types it in the Add row.
    ed.add_kind.setCurrentText("phaser")
    ed.add_arc.lineEdit().selectAll()
    qtbot.keyClicks(ed.add_arc.lineEdit(), "FA")
    qtbot.keyClick(ed.add_arc.lineEdit(), Qt.Key.Key_Return)
    # Then warp, hull, lab and shuttle boxes: only the kind is picked.
    for kind in ("left-warp", "forward-hull", "lab", "shuttle"):
        pick_kind_and_add(qtbot, ed, kind)
        assert not ed.add_arc.isEnabled() and ed.add_arc.currentText() == ""
    rows = {r["id"]: r for r in ed.model.rows}
    assert rows["ph-1"]["arc"] == "FA"
    for box_id in ("left-warp-1", "forward-hull-1", "lab-1", "shuttle-1"):
        assert rows[box_id]["arc"] == "", box_id
        assert ed.model.index(row_of(ed, box_id), ARC).data() == ""  # the cell shows none
    assert window.problem is None

    # Back to phasers: the Add row offers what was last added of them.
    ed.add_kind.setCurrentText("phaser")
    assert ed.add_arc.isEnabled() and ed.add_arc.currentText() == "FA"

    assert window.save()
    saved = tomllib.loads((user_ships_dir() / "fedcom" / "rough-edges.toml").read_text("utf-8"))
    entries = {e["id"]: e for e in saved["boxes"]}
    assert entries["ph-1"]["arc"] == "FA"
    for box_id in ("left-warp-1", "forward-hull-1", "lab-1", "shuttle-1"):
        assert "arc" not in entries[box_id] and "arc_degrees" not in entries[box_id]
    assert unused_fields(saved) == []


def test_a_new_tractor_starts_unused_not_used_and_dropped(qtbot):
    """[seed 8FC4] lists the tractor states "Used and dropped this turn, unused, in use holding
    object" in the order they are hit; a new tractor starts in its kind's neutral state."""
    window, ed = fedcom_designer(qtbot, "Tractor Test")
    ed.add_kind.setCurrentText("shuttle")
    ed.add_start.setCurrentText("admin")
    qtbot.keyClick(ed.add_count, Qt.Key.Key_Return)
    ed.add_kind.setCurrentText("tractor")
    assert ed.add_start.currentText() == "unused"  # nothing carried from the shuttle bay
    qtbot.keyClick(ed.add_count, Qt.Key.Key_Return)
    tractor = ed.model.rows[row_of(ed, "tractor-1")]
    assert tractor["occupant"] == "unused"
    assert ed.model.index(row_of(ed, "tractor-1"), FIELDS.index("occupant")).data() == "unused"
    # Written as the default (no "state" key), and a ship of the class starts unused.
    entry = next(e for e in window.current_data()["boxes"] if e["id"] == "tractor-1")
    assert entry == {"id": "tractor-1", "kind": "tractor"}
    assert window.save()
    ship = new_ship(get_class("fedcom/tractor-test"), "Hauler")
    assert turn_state(ship, "tractor-1") == "unused"


def test_fields_a_kind_does_not_use_are_greyed_and_cannot_be_edited(qtbot):
    window, ed = fedcom_designer(qtbot)
    for kind in ("forward-hull", "phaser", "tractor"):
        ed.add_kind.setCurrentText(kind)
        ed.add_arc.setCurrentText("FA" if kind != "forward-hull" else "")
        qtbot.keyClick(ed.add_count, Qt.Key.Key_Return)
    hull = row_of(ed, "forward-hull-1")
    cell = ed.model.index(hull, ARC)
    assert not cell.flags() & Qt.ItemFlag.ItemIsEditable
    assert cell.data(Qt.ItemDataRole.ToolTipRole) == "A forward-hull box has no firing arc."
    assert cell.data(Qt.ItemDataRole.BackgroundRole) is not None  # shaded
    # Typing in the hull's arc cell opens no editor and changes nothing.
    ed.table.setFocus()
    ed.table.setCurrentIndex(cell)
    qtbot.keyClicks(ed.table, "F")
    assert ed.table.state() != QAbstractItemView.State.EditingState
    assert ed.model.rows[hull]["arc"] == ""
    assert not ed.model.setData(cell, "FA")
    # Drones and size are a phaser's greyed fields; a tractor's arc is its own.
    phaser = row_of(ed, "ph-1")
    for field in ("size", "drones", "occupant"):
        assert not ed.model.index(phaser, FIELDS.index(field)).flags() & Qt.ItemFlag.ItemIsEditable
    assert ed.model.index(row_of(ed, "tractor-1"), ARC).flags() & Qt.ItemFlag.ItemIsEditable
    assert ed.model.rows[row_of(ed, "tractor-1")]["arc"] == "FA"


def test_changing_a_kind_drops_the_fields_the_new_kind_does_not_use(qtbot):
    window, ed = fedcom_designer(qtbot)
    ed.add_kind.setCurrentText("torpedo")
    ed.add_type.setCurrentText("photon")
    ed.add_size.setValue(2)
    ed.add_arc.setCurrentText("FA")
    qtbot.keyClick(ed.add_count, Qt.Key.Key_Return)
    row = row_of(ed, "photon-1")
    ed.model.setData(ed.model.index(row, KIND), "lab")
    assert window.current_data()["boxes"][row] == {"id": "photon-1", "kind": "lab"}
    for field in ("type", "size", "arc"):
        assert not ed.model.index(row, FIELDS.index(field)).flags() & Qt.ItemFlag.ItemIsEditable
    # Back to a weapon: nothing comes back from before (the arc must be given again).
    ed.model.setData(ed.model.index(row, KIND), "torpedo")
    assert ed.model.rows[row]["arc"] == "" and ed.model.rows[row]["type"] == ""
    assert window.problem is not None and window.problem.path == f"boxes[{row}].arc"
    assert "a torpedo needs a firing arc" in window.problem.text


OLD_CARD = '''# My own card, written by hand before the designer knew better.
game = "fedcom"
class = "Old Card"
damage_control = 2
frame = 3
shields = [16, 12, 12, 10, 12, 12]
boxes = [
  { id = "bridge-1", kind = "bridge" },
  { id = "ph-1", kind = "phaser", type = "Ph-1", arc = "FA" },  # the forward phaser
  { id = "ph-2", kind = "phaser", type = "Ph-3", arc = "360" },
  { id = "left-warp-1", kind = "left-warp", arc = "FA" },
  { id = "lab-1", kind = "lab" },
]
'''


def test_an_arc_on_a_warp_box_loads_is_named_and_the_designer_drops_it(qtbot):
    path = user_ships_dir() / "fedcom" / "old-card.toml"
    path.parent.mkdir(parents=True)
    path.write_text(OLD_CARD, "utf-8")
    # The loader takes the file (and ignores the arc); the warning names its key path.
    assert get_class("fedcom/old-card").spec.box("left-warp-1").has_arc is False
    assert unused_fields(tomllib.loads(OLD_CARD)) == [
        "boxes[3].arc: a left-warp box has no firing arc; ignored"]

    designer = open_designer(class_id="fedcom/old-card")
    qtbot.addWidget(designer)
    ed = designer.editor
    assert designer.problem is None
    assert ed.model.index(3, ARC).data() == ""
    # The designer says what it does not keep, where the boxes are.
    assert ed.boxes_note.isVisibleTo(designer)
    assert "boxes[3].arc: a left-warp box has no firing arc; ignored" in ed.boxes_note.text()

    assert designer.save()
    text = path.read_text("utf-8")
    saved = tomllib.loads(text)
    assert saved["boxes"][3] == {"id": "left-warp-1", "kind": "left-warp"}
    assert saved["boxes"][1]["arc"] == "FA" and saved["boxes"][2]["arc"] == "360"
    assert unused_fields(saved) == []
    assert "# the forward phaser" in text  # the user's comments stay
    assert not ed.boxes_note.isVisibleTo(designer)


def test_sample_is_said_once_in_the_start_from_menu(qtbot):
    designer = open_designer(game="fedcom")
    qtbot.addWidget(designer)
    for game in GAME_IDS:
        designer.load_definition({"game": game})  # the menu lists the game's classes
        designer._fill_start_menu()
        labels = [a.text() for a in designer.start_menu.actions() if a.text()]
        samples = [t for t in labels if "(sample)" in t]
        for text in labels:
            assert text.count("(sample)") <= 1, text
        if game == "fedcom":
            assert len(samples) == 4 and all(t.endswith("  (sample)") for t in samples), samples


def test_the_heavy_weapon_type_fits_its_cell_and_its_picker(qtbot):
    designer = open_designer(class_id="fedcom/sample-frigate")
    qtbot.addWidget(designer)
    view = designer.editor.table
    model = view.model()
    row = row_of(designer.editor, "disruptor-1")
    metrics = view.fontMetrics()
    # The cell shows its text whole (no "…"): the column is as wide as the cell needs,
    # and as wide as Qt's own picker of the offered types says it needs to be.
    assert view.sizeHintForColumn(TYPE) <= view.columnWidth(TYPE)
    for text in ("disruptor", "plasma-F", "hellbore", "Ph-G"):
        assert metrics.horizontalAdvance(text) + 12 <= view.columnWidth(TYPE), text
    probe = QComboBox()
    probe.setFont(view.font())
    probe.addItems(HEAVY_SUGGESTIONS)
    assert probe.sizeHint().width() <= view.columnWidth(TYPE)
    # Its picker, open on the cell, has room for the type as well.
    view.setFocus()
    view.setCurrentIndex(model.index(row, TYPE))
    view.edit(model.index(row, TYPE))
    QApplication.processEvents()
    editors = view.viewport().findChildren(QComboBox)
    assert len(editors) == 1
    line = editors[0].lineEdit()
    assert line.text() == "disruptor"
    assert editors[0].width() >= probe.sizeHint().width()
    assert line.fontMetrics().horizontalAdvance("disruptor") + 4 <= line.width()
    qtbot.keyClick(line, Qt.Key.Key_Escape)
    # A type of the user's own, longer than any offered: the column widens to it.
    model.setData(model.index(row, TYPE), "heavy-fusion-beam")
    assert metrics.horizontalAdvance("heavy-fusion-beam") + 12 <= view.columnWidth(TYPE)


def test_the_designer_opens_within_the_screen(qtbot):
    """Whatever screen the tests run on (offscreen: 800×800 unless configured), the window
    and its frame fit the screen's available area; the default size is kept when it fits."""
    designer = open_designer(game="fedcom")
    qtbot.addWidget(designer)
    QApplication.processEvents()
    area = designer.screen().availableGeometry()
    assert area.contains(designer.frameGeometry()), (area, designer.frameGeometry())
    default = designer.default_size
    room = default + FileWindow.FRAME_ALLOWANCE
    if room.width() <= area.width() and room.height() <= area.height():
        assert designer.size() == default
    else:  # the test screen is smaller than the default: the window was fitted
        assert designer.size() != default
    assert designer.minimumSize().width() <= area.width()
    assert designer.minimumSize().height() <= area.height()


LAPTOP = r"""
import json, sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from shipsheet.ui.designer import open_designer
designer = open_designer(class_id="fedcom/sample-dreadnought")
app.processEvents()
area = designer.screen().availableGeometry()
frame = designer.frameGeometry()
print(json.dumps({
    "area": [area.x(), area.y(), area.width(), area.height()],
    "frame": [frame.x(), frame.y(), frame.width(), frame.height()],
    "size": [designer.width(), designer.height()],
    "sideways": designer.fields_scroll.horizontalScrollBar().isVisible(),
    "table_rows": designer.editor.table.viewport().height() // 24,
}))
"""


def test_on_a_1366_by_768_laptop_the_designer_fits_and_keeps_its_width(tmp_path):
    """The issue's laptop: 1366×768. The designer opened at 1340×880, taller than the
    screen; now it fits it, keeps its default width (which fits), and the Federation
    Commander fields do not scroll sideways."""
    config = tmp_path / "laptop.json"
    config.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0,
                                               "width": 1366, "height": 768,
                                               "logicalDpi": 96, "dpr": 1}]}), "utf-8")
    env = dict(__import__("os").environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}")
    out = subprocess.run([sys.executable, "-c", LAPTOP], env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    ax, ay, aw, ah = seen["area"]
    fx, fy, fw, fh = seen["frame"]
    assert (aw, ah) == (1366, 768)
    assert ax <= fx and ay <= fy and fx + fw <= ax + aw and fy + fh <= ay + ah
    assert seen["size"][0] == 1340 and seen["size"][1] < 768
    assert not seen["sideways"]
    assert seen["table_rows"] >= 4  # the box table still shows several rows

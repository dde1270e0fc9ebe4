"""Issue 9: "A chart editor for Federation Commander: six rows by ten cells, primary/alternate
pickers from the kinds the library knows, frame only where allowed; saved to the user's charts
folder; pick the chart per session." """

from __future__ import annotations

import tomllib

from PySide6.QtCore import Qt

from shipsheet.model import Session, get_class, new_ship
from shipsheet.model.paths import resources_dir, user_charts_dir
from shipsheet.rules.fedcom import (allocate_volley, get_chart, list_charts, load_chart,
                                    session_chart)
from shipsheet.ui.games.fedcom.tools import open_chart_editor
from shipsheet.rules.fedcom.chart_files import library_kinds


def items(box) -> list[str]:
    return [box.itemText(i) for i in range(box.count())]


def test_frame_is_offered_only_as_the_alternate_of_column_10(qtbot):
    """[seed 8FC2] "Frame damage will only be scored (by this procedure) as the alternate to the
    last damage point on a given Damage Allocation Chart." """
    editor = open_chart_editor()
    qtbot.addWidget(editor)
    assert len(editor.cells) == 6 and all(len(row) == 10 for row in editor.cells)
    for row in editor.cells:
        for c, cell in enumerate(row):
            assert "frame" not in items(cell.primary)
            assert ("frame" in items(cell.alternate)) == (c == 9)
    # The pickers hold the kinds the library knows, the dreadnought's own fighter-bay included.
    assert items(editor.cells[0][0].primary)[1:] == library_kinds()
    assert "fighter-bay" in library_kinds() and "left-warp" in library_kinds()


def test_a_cell_reads_as_the_chart_file_reads_it(qtbot):
    """One reading of a cell (``rules.fedcom.chart.split_cell``): spaces round a kind are
    not part of it, in the editor as in a chart file."""
    from shipsheet.rules.fedcom.chart import split_cell
    assert split_cell(" power / hull ") == ["power", "hull"] and split_cell("bridge") == ["bridge"]
    editor = open_chart_editor()
    qtbot.addWidget(editor)
    cell = editor.cells[0][0]
    cell.set_text(" power / hull ")
    assert (cell.primary.currentText(), cell.alternate.currentText()) == ("power", "hull")
    assert cell.text() == "power/hull"


def test_a_blank_chart_is_refused_at_its_first_empty_cell(qtbot, dialogs):
    editor = open_chart_editor()
    qtbot.addWidget(editor)
    assert editor.problem.message == "new-chart.toml: rows[0][0]: must not be empty"
    assert editor.cells[0][0].primary.property("invalid") is True
    assert editor.grid_error.text() == "⚠ rows[0][0] (roll 1, column 1): must not be empty"
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    assert dialogs.shown[-1][:2] == ("warning", "Cannot Save")
    assert not (user_charts_dir() / "fedcom").exists()
    editor.cells[0][0].primary.setCurrentText("bridge")
    assert editor.problem.path == "rows[0][1]"
    assert editor.cells[0][0].primary.property("invalid") is False


def test_edit_a_copy_of_the_training_chart_save_and_use_it_for_a_volley(qtbot):
    editor = open_chart_editor(chart_id="training")
    qtbot.addWidget(editor)
    assert editor.stem_text == "training-copy" and editor.problem is None
    # Training row 3 starts "reactor", "phaser"; make its first cell a fighter bay, lab alternate.
    cell = editor.cells[2][0]
    cell.primary.setCurrentText("fighter-bay")
    cell.alternate.setCurrentText("lab")
    editor.name.setText("House chart")
    editor.name.textEdited.emit("House chart")
    assert editor.problem is None
    assert editor.save()
    path = user_charts_dir() / "fedcom" / "house-chart.toml"
    data = tomllib.loads(path.read_text("utf-8"))
    assert data["rows"][2][0] == "fighter-bay/lab"
    assert data["extra_kinds"] == ["fighter-bay"]  # declared for the chart because it is used
    assert "house-chart" in [c.id for c in list_charts()]
    chart = get_chart("house-chart")
    assert chart.cell(3, 1).text == "fighter-bay/lab"
    # The dreadnought has two fighter bays: roll 3's first point hits one.
    dreadnought = get_class("fedcom/sample-dreadnought")
    result = allocate_volley(new_ship(dreadnought, "Warspite"), 1, rolls=[3], chart=chart)
    assert [dreadnought.spec.box(b).kind for b in result.hits] == ["fighter-bay"]


def test_use_in_this_session_is_one_undo_step(window, qtbot):
    session = Session("fedcom", name="Chart test", seed=1)
    session.add_ship(new_ship(get_class("fedcom/sample-frigate"), "Kestrel"))
    session.clear_history()
    window.open_session(session)
    editor = open_chart_editor(window, chart_id="training")  # the window's session is used
    qtbot.addWidget(editor)
    assert editor.session_doc is window.doc and not editor.use_button.isHidden()
    editor.cells[0][0].primary.setCurrentText("lab")
    assert editor.use_in_session()
    assert session.options["chart"] == "training-copy"
    assert session_chart(session.options).cell(1, 1).primary == "lab"
    assert window.act_undo.text().startswith("&Undo Use chart Training chart")
    window.act_undo.trigger()
    assert "chart" not in session.options
    assert session_chart(session.options).cell(1, 1).primary == "bridge"


def test_an_imported_chart_with_frame_in_the_wrong_column_is_shown_there(qtbot, tmp_path):
    text = (resources_dir() / "charts" / "fedcom" / "training.toml").read_text("utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('["bridge",', '["bridge/frame",', 1), "utf-8")
    editor = open_chart_editor()
    qtbot.addWidget(editor)
    assert editor.import_file(bad)
    assert editor.problem.message == ("bad.toml: rows[0][0]: frame is only the alternate of "
                                      "column 10 [8FC2], not of column 1")
    assert editor.cells[0][0].alternate.property("invalid") is True
    assert editor.cells[0][0].primary.property("invalid") is not True
    editor.cells[0][0].alternate.setCurrentText("—")
    assert editor.problem is None


def test_export_a_chart_for_the_table(qtbot, dialogs, tmp_path):
    editor = open_chart_editor(chart_id="training")
    qtbot.addWidget(editor)
    editor.cells[5][9].alternate.setCurrentText("lab")
    dialogs.path = str(tmp_path / "our-dac")
    assert editor.export_file()
    chart = load_chart(tmp_path / "our-dac.toml")
    assert chart.cell(6, 10).text == "bridge/lab"
    assert chart.cell(1, 10).text == "lab/frame"
    text = (tmp_path / "our-dac.toml").read_text("utf-8")
    assert text.startswith("# ")  # says what it is, for whoever opens it

"""The Federation Commander actions panel: it follows the selected ship, repairs, and picks
the session's Damage Allocation Chart."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from fc_ui_helpers import CRUISER, FRIGATE, open_fc
from shipsheet.rules.fedcom import mark_box_action


def test_the_panel_follows_the_selected_ship(window):
    session = open_fc(window, CRUISER, FRIGATE)
    panel = window.panel
    assert panel.title.text() == "Resolute"
    window.doc.select(session.ships[1].id)
    assert panel.title.text() == "Lance"
    # sample-frigate.toml: frame = 3; 24 boxes + 3 frame
    assert "Frame 3 of 3 left; 0 of 27 boxes destroyed" in panel.status.text()
    window.doc.do(mark_box_action(session.ships[1], "ph-1"))
    assert "1 of 27 boxes destroyed" in panel.status.text()
    assert panel.repair_list.count() == 1


def test_repair_ticked_boxes_with_the_damage_control_points(window, qtbot):
    """[FC] "repair points equal to the damage control rating ... a box costs weapons 4, power
    (warp, impulse, reactor, battery) 3, ship systems 2, control 2, hull and cargo 1"; the
    cruiser's damage control is 4."""
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    for box_id in ("forward-hull-1", "lab-1", "ph-1"):
        window.doc.do(mark_box_action(ship, box_id))
    panel = window.panel
    assert panel.repair_points.text().startswith("4 of 4 repair points left this turn")
    items = {panel.repair_list.item(r).data(Qt.ItemDataRole.UserRole): panel.repair_list.item(r)
             for r in range(panel.repair_list.count())}
    assert items["ph-1"].text() == "ph-1 (phaser, 4 points)"
    assert items["forward-hull-1"].text() == "forward-hull-1 (forward-hull, 1 point)"
    assert not panel.repair_button.isEnabled()
    items["forward-hull-1"].setCheckState(Qt.CheckState.Checked)
    items["lab-1"].setCheckState(Qt.CheckState.Checked)
    assert panel.repair_plan.text().splitlines() == [
        "forward-hull-1 repaired (1 of 1 points)", "lab-1 repaired (2 of 2 points)",
        "3 of 4 repair points used"]
    before = window.doc.session.undo_status().steps
    qtbot.mouseClick(panel.repair_button, Qt.MouseButton.LeftButton)
    assert window.doc.session.undo_status().steps == before + 1
    assert ship.state["destroyed"] == ["ph-1"]
    assert panel.repair_points.text().startswith("1 of 4 repair points left this turn")
    window.act_undo.trigger()
    assert ship.state["destroyed"] == ["forward-hull-1", "lab-1", "ph-1"]


def test_the_session_chart_is_chosen_in_the_panel_and_the_volley_uses_it(window, qtbot):
    """Issue 6: "a user can put their own chart file in their data folder and pick it per
    session"."""
    folder = Path(os.environ["SHIPSHEET_DATA_DIR"]) / "charts" / "fedcom"
    folder.mkdir(parents=True)
    row = '["phaser", "phaser", "phaser", "phaser", "phaser", "phaser", "phaser", "phaser", "phaser", "phaser/frame"]'
    (folder / "all-phasers.toml").write_text(
        'name = "All phasers (test chart)"\nrows = [' + ", ".join([row] * 6) + "]\n", "utf-8")
    session = open_fc(window, CRUISER)
    panel = window.panel
    assert panel.chart.currentText().startswith("Training chart")
    panel.chart.showPopup()                               # the list is read when it opens
    names = [panel.chart.itemText(i) for i in range(panel.chart.count())]
    assert "All phasers (test chart) (yours)" in names
    index = panel.chart.findData("all-phasers")
    panel.chart.setCurrentIndex(index)
    panel.chart.hidePopup()
    panel.chart.activated.emit(index)                     # what a user's pick emits
    assert session.options["chart"] == "all-phasers"
    assert window.act_undo.text() == "&Undo Use chart All phasers (test chart)"
    qtbot.mouseClick(panel.volley_button, Qt.MouseButton.LeftButton)
    dialog = panel.volley_dialog
    qtbot.addWidget(dialog)
    assert dialog.chart_text.text() == "All phasers (test chart)"
    dialog.set_inputs(damage=2, shield=None, rolls=[3])
    assert [r[4] for r in dialog.model.text_rows()] == ["phaser", "phaser"]
    window.act_undo.trigger()
    assert panel.chart.currentData() == "training"
    assert dialog.chart_text.text().startswith("Training chart")


def test_the_dialogs_open_from_the_keyboard_and_close_with_their_session(window, qtbot):
    """Keyboard access to every action; a dialog never outlives its session's window content."""
    import shiboken6
    from PySide6.QtCore import QEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    open_fc(window, CRUISER)
    window.activateWindow()
    qtbot.waitUntil(lambda: window.isActiveWindow() and window.panel.isVisible(), timeout=2000)
    keys = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    QTest.keyClick(window.sheet_view.canvas, Qt.Key.Key_V, keys)
    volley = window.panel.volley_dialog
    assert volley is not None and volley.isVisible()
    QTest.keyClick(window.sheet_view.canvas, Qt.Key.Key_O, keys)
    orders = window.panel.orders_dialogs[window.doc.current_ship_id]
    assert orders.isVisible()
    window.doc.mark_clean()
    open_fc(window, FRIGATE)                              # another session in this window
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(volley) and not shiboken6.isValid(orders)


def _check_box_on_screen(panel, row):
    """Where the row's check box shows on the screen and how far it stands out from the
    list's base colour (the most any of its pixels differs in lightness, 0-255)."""
    lst = panel.repair_list
    rect = lst.visualItemRect(lst.item(row))
    image = lst.viewport().grab().toImage()
    base = lst.palette().color(lst.palette().ColorRole.Base).lightness()
    best, xs, ys = 0, [], []
    for y in range(rect.top() + 1, rect.bottom()):
        for x in range(rect.left(), rect.left() + rect.height() + 4):   # the row's head
            diff = abs(image.pixelColor(x, y).lightness() - base)
            best = max(best, diff)
            if diff >= 60:
                xs.append(x)
                ys.append(y)
    return best, ((min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2) if xs else None


def test_repair_check_boxes_are_plain_in_light_and_dark(window, qtbot):
    """Issue 17: in dark appearance the repair list's check boxes were all but invisible.
    Each box stands out from the list in light and in dark, follows a switch of appearance,
    and a click on what shows ticks it."""
    from PySide6.QtWidgets import QApplication

    from shipsheet.ui.palette import is_dark

    session = open_fc(window, FRIGATE)
    for box_id in ("ph-1", "lab-1"):
        window.doc.do(mark_box_action(session.ships[0], box_id))
    window.show()
    qtbot.waitExposed(window)
    panel = window.panel
    try:
        for appearance, dark in (("light", False), ("dark", True), ("light", False)):
            window.appearance_actions[appearance].trigger()
            QApplication.processEvents()
            assert is_dark(panel.repair_list.palette()) is dark
            contrast, _centre = _check_box_on_screen(panel, 0)
            assert contrast >= 100, f"{appearance}: the box differs by only {contrast}"
        window.appearance_actions["dark"].trigger()
        QApplication.processEvents()
        _contrast, centre = _check_box_on_screen(panel, 1)
        assert centre is not None
        qtbot.mouseClick(panel.repair_list.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(*centre))
        assert panel.ticked_repairs() == [panel.repair_list.item(1).data(Qt.ItemDataRole.UserRole)]
        assert panel.repair_button.isEnabled()
    finally:
        window.appearance_actions["system"].trigger()


def test_turn_states_are_listed_box_by_box_or_counted_when_many(window):
    """The panel names each box's state this turn; a state many boxes hold (a whole cargo
    hold used) is told as a count and its first and last box, not five hundred names —
    a line that grew with every click, laid out again at every click."""
    from ship_variants import biggest_fedcom_card

    from shipsheet.model import Session, new_ship
    from shipsheet.rules.fedcom.actions import set_turn_state_action

    session = Session("fedcom", name="Hold")
    session.add_ship(new_ship(biggest_fedcom_card(), "Colossus"))
    window.open_session(session)
    ship = session.ships[0]
    window.doc.do(set_turn_state_action(ship, "ph-1", "fired"))
    window.doc.do(set_turn_state_action(ship, "cargo-x0-1", "used"))
    assert window.panel.states_text.text().startswith("ph-1 fired, cargo-x0-1 used.\n")
    for k in range(2, 41):
        window.doc.do(set_turn_state_action(ship, f"cargo-x0-{k}", "used"))
    assert window.panel.states_text.text().startswith(
        "ph-1 fired, 40 boxes used (cargo-x0-1 to cargo-x0-40).\n")
    window.doc.mark_clean()


def test_the_repair_list_keeps_its_rows_and_ticks_as_boxes_are_destroyed(window):
    """A destroyed box adds its row; the rows already there stay, ticks and all (the list
    is not rebuilt at every change); a repair takes its row away."""
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    panel = window.panel
    window.doc.do(mark_box_action(ship, "lab-1"))
    first = panel.repair_list.item(0)
    first.setCheckState(Qt.CheckState.Checked)
    window.doc.do(mark_box_action(ship, "ph-1"))
    window.doc.do(mark_box_action(ship, "forward-hull-1"))
    rows = [panel.repair_list.item(r) for r in range(panel.repair_list.count())]
    assert [r.data(Qt.ItemDataRole.UserRole) for r in rows] == ["lab-1", "ph-1", "forward-hull-1"]
    assert rows[0] is first and first.checkState() == Qt.CheckState.Checked
    window.doc.do(mark_box_action(ship, "ph-1", destroyed=False))
    assert [panel.repair_list.item(r).text() for r in range(panel.repair_list.count())] == [
        "lab-1 (lab, 2 points)", "forward-hull-1 (forward-hull, 1 point)"]
    assert panel.repair_list.item(0).checkState() == Qt.CheckState.Checked
    window.doc.mark_clean()

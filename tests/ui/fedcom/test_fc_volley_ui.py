"""The volley dialog as a moderator uses it: target, shield, damage, typed DAC rolls, the
preview of every point, Apply (one undo step), the moderator's log, Undo.

The chart is the bundled training chart (``resources/charts/fedcom/training.toml``); its
row 1 reads "bridge, forward-hull, phaser, transporter, torpedo/drone, left-warp, impulse,
lab/probe, phaser, lab/frame".
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from fc_ui_helpers import CRUISER, FRIGATE, area, open_fc
from shipsheet.rules.fedcom import Overrides, mark_box_action, mark_frame_action, set_orders_action


def open_dialog(window, qtbot):
    qtbot.mouseClick(window.panel.volley_button, Qt.MouseButton.LeftButton)
    dialog = window.panel.volley_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.addWidget(dialog)
    return dialog


def type_rolls(dialog, qtbot, text):
    qtbot.mouseClick(dialog.type_mode, Qt.MouseButton.LeftButton)
    dialog.rolls.clear()
    qtbot.keyClicks(dialog.rolls, text)


def test_preview_with_typed_rolls_then_apply_strike_log_and_undo(window, qtbot):
    """[FC] "one d6 per 10 points or fraction selects a row; the points of that group use
    columns 1, 2, … 10 in order"; [seed 8FC4] phasers: "Fired Ph-3, unfired Ph-3, ..." and
    "hit the one with the most restricted arc first"."""
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    dialog = open_dialog(window, qtbot)
    assert dialog.target.currentData() == ship.id
    assert dialog.chart_text.text().startswith("Training chart")
    dialog.shield.setCurrentIndex(dialog.shield.findData(None))   # internal damage only
    dialog.damage.setValue(3)
    type_rolls(dialog, qtbot, "1")
    rows = dialog.model.text_rows()
    assert [r[:6] for r in rows] == [
        ["1", "1", "1", "1", "bridge", "bridge-1"],
        ["2", "1", "1", "2", "forward-hull", "forward-hull-1"],
        ["3", "1", "1", "3", "phaser", "ph-6"],      # unfired Ph-3 in RA (120°) before 360°
    ]
    assert "most restricted arc" in rows[2][6]
    assert dialog.summary.text() == "3 damage; 3 internal; 3 boxes hit, frame 0"
    assert "typed 1" in dialog.rolls_info.text()
    dialog.table.selectRow(2)
    assert dialog.details.text().startswith("Volley 1, point 3: roll 1, row 1, column 3, phaser: ph-6 hit")
    preview = dialog.preview_lines()
    assert ship.state["destroyed"] == []                          # the preview changes nothing

    start = len(session.log)
    before = window.doc.undo_stack.index()
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert window.doc.undo_stack.index() == before + 1            # one undo step
    assert ship.state["destroyed"] == ["bridge-1", "forward-hull-1", "ph-6"]
    for box_id in ("bridge-1", "forward-hull-1", "ph-6"):
        assert area(window, f"box:{box_id}").refusal               # struck on the card
    detail = [e.text for e in session.log[start:] if e.kind == "detail"]
    assert detail == preview                                       # the log is what was previewed
    assert "Applied: Volley of 3 at Resolute, internal" in dialog.message.text()

    window.act_copy_log.trigger()
    text = QGuiApplication.clipboard().text()
    points = [line for line in text.splitlines() if "Volley 1, point" in line]
    assert len(points) == 3                                        # one line per point
    assert points[2].endswith("Resolute: " + preview[3])

    qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)
    assert ship.state["destroyed"] == []
    assert not area(window, "box:ph-6").refusal
    window.act_copy_log.trigger()
    assert "Volley 1, point" not in QGuiApplication.clipboard().text()   # undone: left out
    assert dialog.rolls.text() == ""                     # the typed dice were spent on the volley
    type_rolls(dialog, qtbot, "1")
    assert dialog.model.text_rows()[2][5] == "ph-6"      # the intact ship again


def test_shield_first_with_burn_through_and_one_roll_per_group(window, qtbot):
    """[FC] "Damage to a shield fills that shield's boxes first ... A volley of 10 or more that
    does not penetrate still scores exactly one internal point (burn-through)." Shield #1 of
    the cruiser has 30 boxes."""
    open_fc(window, CRUISER)
    dialog = open_dialog(window, qtbot)
    dialog.shield.setCurrentIndex(dialog.shield.findData(1))
    assert dialog.shield.currentText() == "#1 front: 30 of 30 boxes up"
    dialog.damage.setValue(12)
    type_rolls(dialog, qtbot, "2")
    assert dialog.summary.text().startswith("12 damage; shield #1 took 11; burn-through: 1 internal")
    assert len(dialog.model.text_rows()) == 1
    dialog.damage.setValue(55)                    # 25 internal: three groups, three rolls
    type_rolls(dialog, qtbot, "4 2")
    assert dialog.summary.text().startswith("55 damage; shield #1 took 30; 25 internal")
    info = dialog.rolls_info.text()
    assert info.startswith("This volley uses 3 DAC rolls") and "typed 4 2" in info
    assert "rolled by the session dice" in info
    assert [r[1] for r in dialog.model.text_rows()[:21:10]] == ["4", "2", str(dialog.result.rolls[2])]


def test_impossible_rolls_are_refused_in_words_and_apply_is_off(window, qtbot):
    """Physical dice are checked: a d6 shows 1 to 6."""
    open_fc(window, CRUISER)
    dialog = open_dialog(window, qtbot)
    dialog.shield.setCurrentIndex(dialog.shield.findData(None))
    dialog.damage.setValue(5)
    type_rolls(dialog, qtbot, "7")
    assert "A d6 shows 1 to 6; 7 is impossible for a DAC row." in dialog.message.text()
    assert not dialog.apply_button.isEnabled()
    type_rolls(dialog, qtbot, "x")
    assert '"x" is not a die roll' in dialog.message.text()
    type_rolls(dialog, qtbot, "6")
    assert dialog.apply_button.isEnabled() and dialog.message.text() == ""


def test_standing_orders_apply_and_ignored_ones_are_noted(window, qtbot):
    """[seed 8FC3] the 360° Ph-3 "(#5) to be the LAST phaser damaged"; [seed 8FC4] "If an order
    is vague or illegal, the moderator will fall back upon the default order"."""
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    window.doc.do(set_orders_action(ship, Overrides(first=("ph-5",), last=("ph-99",))))
    dialog = open_dialog(window, qtbot)
    dialog.shield.setCurrentIndex(dialog.shield.findData(None))
    dialog.damage.setValue(3)
    type_rolls(dialog, qtbot, "1")
    assert dialog.model.text_rows()[2][5] == "ph-5"          # first by the standing order
    assert dialog.notes.text() == ('Note: last: "ph-99" not applied: this ship has no '
                                   'such box.')
    qtbot.mouseClick(dialog.use_orders, Qt.MouseButton.LeftButton)   # DDAP alone
    assert dialog.model.text_rows()[2][5] == "ph-6" and dialog.notes.text() == ""


def test_rolling_with_the_session_dice_applies_what_was_previewed(window, qtbot):
    """Dice are the session's seeded dice: the preview shows what Apply will do."""
    session = open_fc(window, CRUISER, FRIGATE)
    lance = session.ships[1]
    dialog = open_dialog(window, qtbot)
    dialog.target.setCurrentIndex(dialog.target.findData(lance.id))
    dialog.shield.setCurrentIndex(dialog.shield.findData(4))
    dialog.damage.setValue(40)
    preview = dialog.preview_lines()
    assert dialog.roll_mode.isChecked() and "rolled by the session dice" in dialog.rolls_info.text()
    start = len(session.log)
    assert dialog.apply()
    assert [e.text for e in session.log[start:] if e.kind == "detail"] == preview
    rolls = [e.text for e in session.log[start:] if e.kind == "roll"]
    assert rolls and rolls[0].startswith("d6 rolled: ") and "DAC row, group 1" in rolls[0]


def test_a_frame_hit_with_no_frame_left_destroys_the_ship_and_the_card_says_so(window, qtbot):
    """[FC] "Destroyed: a frame hit when every frame box is already destroyed"; [seed 8FC2]
    frame only as "the alternate to the last damage point": row 1, column 10 is lab/frame."""
    session = open_fc(window, FRIGATE)
    ship = session.ships[0]
    window.doc.do(mark_frame_action(ship, 3))          # frame = 3 on the card
    window.doc.do(mark_box_action(ship, "lab-1"))      # the frigate's only lab
    dialog = open_dialog(window, qtbot)
    dialog.shield.setCurrentIndex(dialog.shield.findData(None))
    dialog.damage.setValue(10)
    type_rolls(dialog, qtbot, "1")
    tenth = [r for r in dialog.model.text_rows() if r[0] == "10"]
    assert [r[:6] for r in tenth] == [["10", "1", "1", "10", "lab/frame", "frame"]]
    assert dialog.summary.text().endswith("SHIP DESTROYED")
    assert dialog.apply()
    assert window.sheet_view.canvas.painter.status_words() == ["Destroyed"]
    assert "— destroyed" in dialog.target.currentText()
    assert "Lance is already destroyed." in dialog.message.text()
    assert not dialog.apply_button.isEnabled()

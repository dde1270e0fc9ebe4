"""The volley dialog as a moderator uses it: target, shield, damage, typed DAC rolls, the
preview of every point, Apply (one undo step), the moderator's log, Undo.

The chart is the bundled training chart (``resources/charts/fedcom/training.toml``); its
row 1 reads "bridge, forward-hull, phaser, transporter, torpedo/drone, left-warp, impulse,
lab/probe, phaser, lab/frame".
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from fc_ui_helpers import CRUISER, FRIGATE, area, log_lines, open_fc
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
    before = window.doc.session.undo_status().steps
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert window.doc.session.undo_status().steps == before + 1            # one undo step
    assert ship.state["destroyed"] == ["bridge-1", "forward-hull-1", "ph-6"]
    for box_id in ("bridge-1", "forward-hull-1", "ph-6"):
        assert area(window, f"box:{box_id}").refusal               # struck on the card
    detail = [e.text for e in session.log[start:] if e.kind == "detail"]
    assert detail == preview                                       # the log is what was previewed
    assert dialog.applied_label.text().startswith("Applied: Volley of 3 at Resolute, internal.")

    window.act_copy_log.trigger()
    text = QGuiApplication.clipboard().text()
    entries: list[str] = []                       # the copy wraps each entry (e-mail lines)
    for line in text.splitlines():
        if line.startswith(" "):
            entries[-1] += " " + line.strip()
        else:
            entries.append(line)
    points = [entry for entry in entries if "Volley 1, point" in entry]
    assert len(points) == 3                                        # one entry per point
    assert points[2].endswith("Resolute: " + preview[3])

    qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)
    assert ship.state["destroyed"] == []
    assert not area(window, "box:ph-6").refusal
    window.act_copy_log.trigger()
    assert "Volley 1, point" not in QGuiApplication.clipboard().text()   # undone: left out
    assert dialog.rolls.text() == ""                     # the typed dice were spent on the volley
    assert dialog.damage.value() == 0                    # and the form started afresh
    dialog.damage.setValue(3)
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
    type_rolls(dialog, qtbot, "4 2 5")
    assert dialog.summary.text().startswith("55 damage; shield #1 took 30; 25 internal")
    info = dialog.rolls_info.text()
    assert info.startswith("This volley uses 3 DAC rolls") and "typed 4 2 5" in info
    assert "rolled by the session dice" not in info      # typed rolls are never topped up
    assert [r[1] for r in dialog.model.text_rows()[:21:10]] == ["4", "2", "5"]


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


def log_actions(session, name):
    return [e for e in session.log if e.kind == "action" and e.text == name and not e.undone]


def test_enter_after_apply_never_repeats_the_volley(window, qtbot):
    """Issue 17: damage 50, rolls "3 5", Apply, then Enter applied a second 50-point volley with
    the session dice (and a third Enter destroyed the ship). After Apply the form starts afresh
    (no damage, no rolls, no preview), no button is the default, and the dialog says what was
    applied until the form changes."""
    from PySide6.QtWidgets import QApplication

    assert window.open_sample("fedcom")
    session = window.doc.session
    ship = window.doc.current_ship
    window.panel.volley_button.click()
    dialog = window.panel.volley_dialog
    qtbot.addWidget(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    assert dialog.shield.currentData() == 1                  # shield #1 faces the volley
    dialog.damage.lineEdit().selectAll()
    qtbot.keyClicks(dialog.damage, "50")
    type_rolls(dialog, qtbot, "3 5")
    assert dialog.damage.value() == 50 and dialog.apply_button.isEnabled()
    shield_before = ship.state["shield_damage"][0]
    volleys_before = ship.state["volleys"]
    count = window.doc.session.undo_status().steps
    start = len(session.log)

    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert window.doc.session.undo_status().steps == count + 1
    assert not any(b.isDefault() or b.autoDefault()
                   for b in (dialog.apply_button, dialog.copy_button, dialog.close_button))
    # The form is empty again: nothing to apply, nothing previewed, the dice spent.
    assert dialog.damage.value() == 0 and dialog.rolls.text() == ""
    assert dialog.model.rowCount() == 0 and dialog.summary.text() == ""
    assert dialog.rolls_info.text() == "" and not dialog.apply_button.isEnabled()
    applied = dialog.applied_label.text()
    assert applied.startswith("Applied: Volley of 50 at Resolute, shield #1.")
    assert applied.endswith("Undo (Ctrl+Z) takes it back.")

    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Return):
        qtbot.keyClick(dialog, key)
        focused = QApplication.focusWidget() or dialog.focusWidget()
        assert focused is not None and focused.window() is dialog
        qtbot.keyClick(focused, key)

    assert window.doc.session.undo_status().steps == count + 1       # one volley, one undo step
    assert ship.state["volleys"] == volleys_before + 1
    assert ship.state["shield_damage"][0] == shield_before + 30
    assert not ship.state["ship_destroyed"]
    assert len(log_actions(session, "Volley of 50 at Resolute, shield #1")) == 1
    assert not [e for e in session.log[start:] if "DAC row" in e.text]   # no session-rolled DAC row
    assert dialog.applied_label.text() == applied            # Enter changed nothing

    qtbot.keyClicks(dialog.damage, "5")                     # the next volley: the line goes
    assert dialog.damage.value() == 5 and dialog.applied_label.text() == ""


def test_the_applied_line_goes_when_the_volley_is_undone(window, qtbot):
    """"Applied: …" is news only while it is true: Undo takes the volley back and the line."""
    open_fc(window, CRUISER)
    dialog = open_dialog(window, qtbot)
    dialog.set_inputs(damage=4, shield=None, rolls="2")
    assert dialog.apply()
    assert dialog.applied_label.text().startswith("Applied: Volley of 4 at Resolute, internal.")
    qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)
    assert window.doc.current_ship.state["destroyed"] == []
    assert dialog.applied_label.text() == ""


def headline(session, start):
    """The first detail line of the volley applied after log entry ``start``: its summary."""
    return next(e.text for e in session.log[start:] if e.kind == "detail")


def test_the_log_says_whether_the_dac_dice_were_typed_or_rolled(window, qtbot):
    """As Triplanetary's attack lines do: "(dice typed in)", "(dice rolled)", "(dice rolled and
    typed in)"; a volley the shield stops rolls no DAC die and says nothing of dice.
    [FC] "one d6 per 10 points or fraction selects a row"."""
    session = open_fc(window, CRUISER)
    dialog = open_dialog(window, qtbot)
    cases = (
        (dict(damage=12, shield=None, rolls="3 5"), " (dice typed in)"),          # 2 groups, 2 typed
        (dict(damage=25, shield=None, rolls="4 1 2"), " (dice typed in)"),         # 3 groups, 3 typed
        (dict(damage=5, shield=None), " (dice rolled)"),
        (dict(damage=5, shield=1), ""),                                           # the shield holds
    )
    for inputs, words in cases:
        rolls = inputs.pop("rolls", None)
        if rolls is None:
            qtbot.mouseClick(dialog.roll_mode, Qt.MouseButton.LeftButton)
            dialog.set_inputs(**inputs)
        else:
            dialog.set_inputs(rolls=rolls, **inputs)
        preview = dialog.preview_lines()
        start = len(session.log)
        qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
        line = headline(session, start)
        assert line == preview[0]                              # the preview said it first
        assert line.endswith(words) if words else not line.endswith(")")
        assert line.startswith(f"{inputs['damage']} damage;")
    shown = [text for text in log_lines(window) if "damage;" in text]
    assert [t.endswith(w) for t, (_i, w) in zip(shown, cases[:3])] == [True, True, True]
    assert not any("dice" in t for t in shown[3:])

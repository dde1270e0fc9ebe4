"""The Triplanetary Actions panel and the end-of-turn recovery dialog.

[seed] "A ship recovers from 1 D a turn, just as in regular combat. The ship's owner
chooses what kind of damage to recover from." / "A ship which reaches a base and
undergoes maintenance is immediately restored to full operating status." /
"A ship whose drive reaches D6 or below may not be repaired".
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QCheckBox

from shipsheet.rules import triplanetary as tp


def press(table, button) -> None:
    assert button.isEnabled(), button.toolTip()
    table.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_owner_picks_the_recovery_track_and_a_second_recovery_is_refused(table):
    raven = table.select("Raven")  # weapons D1, drive D1
    panel = table.panel
    buttons = panel.recover_buttons
    assert buttons["weapon"].isEnabled() and buttons["drive"].isEnabled()
    assert buttons["drive"].text() == "Recover 1 &drive D (D1 → D0)"
    assert not buttons["structure"].isEnabled()
    assert "at D0: there is nothing to recover" in buttons["structure"].toolTip()
    assert "may recover 1 D now" in panel.recovery_note.text()
    press(table, buttons["drive"])
    assert raven.state["drive"] == 0 and raven.state["weapon"] == 1
    assert "Can't maneuver" not in table.chips("Raven") and "Disabled" not in table.chips("Raven")
    assert table.undo_text() == "&Undo Recover 1 drive D"
    # One recovery per turn: the weapons choice is now refused, and says why.
    assert not buttons["weapon"].isEnabled()
    assert "already recovered 1 D this turn" in buttons["weapon"].toolTip()
    assert "has recovered 1 D this turn" in panel.recovery_note.text()
    assert not panel.recover("weapon")
    assert raven.state["weapon"] == 1


def test_end_of_turn_dialog_offers_each_damaged_ships_choice(table):
    dialog = table.panel.open_recovery()
    listed = [table.session.ship(sid).name for sid in dialog.reasons]
    assert listed == ["Ajax", "Vigilant", "Ceres Mule", "Raven"]  # Kite and Phobos are undamaged
    ajax, vigilant = table.ship("Ajax"), table.ship("Vigilant")
    refused = dialog.buttons[(ajax.id, "weapon")]
    assert not refused.isEnabled() and "already recovered" in refused.toolTip()
    assert dialog.reasons[ajax.id].text() == "Recovered 1 D this turn already."
    assert dialog.buttons[(vigilant.id, "weapon")].text() == "D2 → D1"
    press(table, dialog.buttons[(vigilant.id, "weapon")])
    assert vigilant.state["weapon"] == 1
    assert not dialog.buttons[(vigilant.id, "weapon")].isEnabled()  # rebuilt after the change
    press(table, dialog.next_turn_button)
    assert table.session.turn == 3
    assert dialog.buttons[(ajax.id, "structure")].isEnabled()  # a new turn, a new recovery
    dialog.close()


def test_unrepairable_drive_is_explained_and_maintenance_restores_everything(table):
    kite = table.select("Kite")
    table.click("drive:6")
    assert "Lost at map edge" in table.chips("Kite")
    panel = table.panel
    assert not panel.recover_buttons["drive"].isEnabled()
    reason = panel.recover_reasons["drive"]
    assert reason.isVisibleTo(panel) and "cannot be repaired" in reason.text()
    dialog = panel.open_recovery()
    assert "cannot be repaired" in dialog.reasons[kite.id].text()
    dialog.close()
    press(table, panel.maintain_button)
    assert tp.levels(kite) == {"weapon": 0, "drive": 0, "structure": 0, "standard": 0}
    assert table.chips("Kite") == []
    assert table.undo_text() == "&Undo Maintenance at a base"
    assert not panel.maintain_button.isEnabled()  # nothing left to repair
    assert "undamaged" in panel.maintain_reason.text()


def test_standard_combat_option_is_a_session_toggle_with_its_own_table(table):
    """[2018] standard combat, gun table row 5: "– D2 D3 D4 D5 E": 3:1 gives D5."""
    panel = table.panel
    panel.standard_box.click()
    assert table.session.options["combat"] == "standard"
    assert table.undo_text() == "&Undo Use standard combat"
    assert any(a.key == "standard:E" for a in table.sheet.areas)
    table.select("Vigilant")
    dialog = panel.open_attack()
    for i in range(dialog.targets.count()):
        item = dialog.targets.item(i)
        if item.data(Qt.ItemDataRole.UserRole) == table.ship("Kite").id:
            item.setCheckState(Qt.CheckState.Checked)
    assert dialog.system.text().startswith("Standard combat table")
    dialog.to_hit.spin.setValue(5)
    assert "D5" in dialog.hits.text() and not dialog.damage_boxes
    assert dialog.apply()
    assert tp.standard_level(table.ship("Kite")) == 5
    assert "Disabled D5" in table.chips("Kite")
    dialog.close()
    table.window.act_undo.trigger()
    table.window.act_undo.trigger()
    assert "combat" not in table.session.options and not panel.standard_box.isChecked()


def test_fuel_and_cargo_are_set_from_the_panel(table):
    ajax = table.select("Ajax")
    panel = table.panel
    panel.cargo_spin.setValue(20)
    press(table, panel.cargo_set)
    assert ajax.state["cargo"] == 20
    panel.fuel_spin.setValue(9)
    panel.fuel_spin.setFocus()
    table.qtbot.keyClick(panel.fuel_spin.lineEdit(), Qt.Key.Key_Return)
    assert ajax.state["fuel"] == 9
    assert table.doc.undo_stack.count() == 2


def test_every_panel_control_has_a_tooltip_and_takes_the_keyboard(table):
    panel = table.panel
    for control in panel.findChildren(QAbstractButton):
        if not control.isVisibleTo(panel):
            continue
        assert control.toolTip() or "&" in control.text(), control.text()
        assert control.focusPolicy() != Qt.FocusPolicy.NoFocus
    assert isinstance(panel.standard_box, QCheckBox) and "&" in panel.standard_box.text()

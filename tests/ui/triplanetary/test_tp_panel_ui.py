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


def modal_then(table, act):
    """Run ``act(dialog)`` on the modal dialog the next call opens (Next Turn's question)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    seen = []

    tries = [0]

    def handle():
        from shipsheet.ui.games.triplanetary.recovery import RecoveryDialog
        shown = [w for w in QApplication.topLevelWidgets()
                 if isinstance(w, RecoveryDialog) and w.isVisible() and w.asking]
        if not shown:
            tries[0] += 1
            if tries[0] < 300:  # never hang the suite: give up after 3 s
                QTimer.singleShot(10, handle)
            return
        seen.append(shown[0])
        try:
            act(shown[0])
        except BaseException as exc:  # noqa: BLE001 - reported by the test, not swallowed
            seen.append(exc)
        finally:
            if shown[0].isVisible():
                shown[0].reject()

    QTimer.singleShot(0, handle)
    return seen


def test_the_owner_chooses_the_track_and_recovery_waits_for_its_phase(table):
    """[seed] "The ship's owner chooses what kind of damage to recover from"; recovery closes
    the turn [TRI-H1]: in the Movement phase the owner sets the choice, in the Recovery
    phase the ship may recover now, once."""
    mule = table.select("Ceres Mule")  # weapons D1, drive D1, no choice yet
    panel = table.panel
    assert "drive D1 → D0 (no choice made: the default" in panel.recovery_note.text()
    assert panel.choice.currentText() == "Default (highest D)"
    buttons = panel.recover_buttons
    assert not buttons["weapon"].isEnabled()
    assert "Recovery phase, which closes the turn" in buttons["weapon"].toolTip()
    assert panel.now_note.isVisibleTo(panel) and "TRI-H1" in panel.now_note.text()
    panel.choice.setCurrentIndex(panel.choice.findText("Weapons (D1)"))
    panel.choose(panel.choice.currentIndex())
    assert tp.recovery_choice(mule) == ("weapon",)
    assert table.undo_text() == "&Undo Recovery choice: weapons"
    assert "weapons D1 → D0 (the owner's choice)" in panel.recovery_note.text()
    table.to_phase("Recovery")
    assert buttons["drive"].isEnabled() and buttons["drive"].text() == "Recover 1 &drive D now (D1 → D0)"
    press(table, buttons["drive"])
    assert mule.state["drive"] == 0 and mule.state["weapon"] == 1
    assert not buttons["weapon"].isEnabled()
    assert "already recovered 1 D this turn" in buttons["weapon"].toolTip()
    assert "has recovered 1 D this turn" in panel.recovery_note.text()


def test_next_turn_asks_once_about_ships_with_no_choice_and_never_blocks(table):
    """[TRI-H13] The Ceres Mule (weapons D1, drive D1) has no choice: Next Turn asks about it
    alone; the owner picks weapons there, and the turn ends."""
    mule = table.ship("Ceres Mule")
    table.window.confirm_skip_phases = lambda turn, skipped: True  # Next Turn's question (issue 31): yes
    assert [s.name for s in tp.GAME.choices_before_turn_end(table.session)] == ["Ceres Mule"]

    def pick_weapons(dialog):
        assert [table.session.ship(i).name for i in dialog.reasons] == ["Ceres Mule"]
        assert dialog.outcomes[mule.id].text() == "drive D1 → D0 (default: highest D (TRI-H13))"
        dialog.buttons[(mule.id, "weapon")].click()
        assert dialog.outcomes[mule.id].text() == "weapons D1 → D0 (owner's choice)"
        dialog.next_turn_button.click()

    seen = modal_then(table, pick_weapons)
    table.window.next_turn()
    assert len(seen) == 1, seen  # shown once, and the checks in it passed
    assert table.session.turn == 3
    assert (mule.state["weapon"], mule.state["drive"]) == (0, 1)
    assert "recovers 1 D (owner's choice): weapons D1 → D0" in table.session.log_text()


def test_cancel_keeps_the_turn_and_ending_it_anyway_applies_the_default(table):
    mule = table.ship("Ceres Mule")
    table.window.confirm_skip_phases = lambda turn, skipped: True  # Next Turn's question (issue 31): yes
    modal_then(table, lambda dialog: dialog.reject())
    table.window.next_turn()
    assert table.session.turn == 2
    modal_then(table, lambda dialog: dialog.next_turn_button.click())
    table.window.next_turn()
    assert table.session.turn == 3 and mule.state["drive"] == 0
    assert "default choice: highest D-level, house rule TRI-H13" in table.session.log_text()
    # Ajax's standing choice (structure) is spent: it is asked about now, and only it.
    asked = []
    modal_then(table, lambda dialog: (asked.extend(dialog.reasons), dialog.reject()))
    table.window.next_turn()
    assert [table.session.ship(i).name for i in asked] == ["Ajax"] and table.session.turn == 3
    table.session.apply(tp.choose_recovery_action(table.ship("Ajax"), "weapon"))
    table.window.next_turn()  # nothing left to choose: no question
    assert table.session.turn == 4


def test_end_of_turn_dialog_shows_each_damaged_ships_outcome_and_takes_choices(table):
    dialog = table.panel.open_recovery()
    listed = [table.session.ship(sid).name for sid in dialog.reasons]
    assert listed == ["Ajax", "Vigilant", "Ceres Mule", "Raven"]  # Kite and Phobos are undamaged
    ajax, vigilant = table.ship("Ajax"), table.ship("Vigilant")
    assert dialog.outcomes[ajax.id].text() == "structure D1 → D0 (owner's choice)"
    assert dialog.buttons[(ajax.id, "structure")].isChecked()
    assert dialog.outcomes[vigilant.id].text() == "weapons D2 → D1 (only track)"
    press(table, dialog.buttons[(ajax.id, "drive")])
    assert tp.recovery_choice(ajax) == ("drive",)
    assert dialog.buttons[(ajax.id, "drive")].isChecked()  # rebuilt after the change
    assert not dialog.buttons[(ajax.id, "structure")].isChecked()
    press(table, dialog.next_turn_button)
    assert table.session.turn == 3
    assert (ajax.state["drive"], vigilant.state["weapon"]) == (0, 1)
    dialog.close()


def test_unrepairable_drive_is_explained_and_maintenance_restores_everything(table):
    kite = table.select("Kite")
    table.click("drive:6")
    assert "Lost if it reaches the edge" in table.chips("Kite")
    panel = table.panel
    assert not panel.recover_buttons["drive"].isEnabled()
    assert "cannot be repaired" in panel.recover_buttons["drive"].toolTip()
    dialog = panel.open_recovery()
    assert "cannot be repaired" in dialog.reasons[kite.id].text()
    dialog.close()
    press(table, panel.maintain_button)
    assert tp.levels(kite) == {"weapon": 0, "drive": 0, "structure": 0, "standard": 0}
    assert table.chips("Kite") == []
    assert table.undo_text() == "&Undo Maintenance at a base"
    assert not panel.maintain_button.isEnabled()  # nothing left to repair
    assert "undamaged" in panel.maintain_reason.text()


def test_lost_at_the_map_edge_from_the_panel(table):
    """[seed] drive D6 or below: "it will be lost when it reaches the edge of the map"."""
    kite = table.select("Kite")
    panel = table.panel
    assert not panel.lost_button.isEnabled() and "TRI-H25" in panel.lost_reason.text()
    panel.lost_referee.setChecked(True)
    press(table, panel.lost_button)
    assert tp.is_lost(kite) and table.chips("Kite") == ["Lost at map edge"]
    assert table.undo_text() == "&Undo Lost at the map edge (referee)"


def test_a_disabled_ship_is_looted_and_captured_from_the_panel(table):
    """The Ceres Mule (1D, drive D1) can neither maneuver nor fire: lootable, capturable."""
    mule = table.select("Ceres Mule")
    panel = table.panel
    raven, kite = table.ship("Raven"), table.ship("Kite")
    panel.looter.setCurrentIndex(panel.looter.findData(kite.id))  # its 10 t hold is full
    panel.loot_tons.setValue(5)
    assert not panel.loot_button.isEnabled() and "Kite has room for 0 t" in panel.loot_button.toolTip()
    panel.looter.setCurrentIndex(panel.looter.findData(raven.id))
    panel.loot_tons.setValue(25)
    press(table, panel.loot_button)
    assert (mule.state["cargo"], raven.state["cargo"]) == (15, 25)  # the Mule had 40 t
    panel.captor.setCurrentIndex(panel.captor.findData(raven.id))
    press(table, panel.capture_button)
    assert mule.side == "Pirates" and "Captured (was Mars Patrol)" in table.chips("Ceres Mule")
    table.select("Kite")
    assert not panel.capture_button.isEnabled()
    assert "Kite still can" in panel.events_reason.text()


def test_ordnance_is_launched_in_its_phase_from_the_panel(table):
    kite = table.select("Kite")
    panel = table.panel
    assert not panel.launch_buttons["mine"].isEnabled()
    assert "Ordnance phase; this is the Movement phase" in panel.launch_reason.text()
    table.to_phase("Ordnance")
    press(table, panel.launch_buttons["torpedo"])
    assert tp.in_flight(kite) == [{"n": 2, "kind": "torpedo", "turn": 2}]
    assert panel.in_flight.currentText() == "Torpedo 2 (turn 2)"
    assert "launched ordnance this turn already" in panel.launch_reason.text()
    press(table, panel.remove_launch)
    assert tp.in_flight(kite) == []
    ajax = table.select("Ajax")  # weapons D1
    assert "cannot fire any weapon or drop ordnance" in panel.launch_reason.text()
    assert ajax.state["ordnance"] == []


def test_standard_combat_option_is_a_session_toggle_with_its_own_table(table):
    """[2018] standard combat, gun table row 5: "– D2 D3 D4 D5 E": 3:1 gives D5."""
    panel = table.panel
    panel.standard_box.click()
    assert table.session.options["combat"] == "standard"
    assert table.undo_text() == "&Undo Use standard combat"
    assert any(a.key == "standard:E" for a in table.sheet.areas)
    table.to_phase("Combat")
    table.select("Vigilant")
    dialog = panel.open_attack()
    for i in range(dialog.targets.count()):
        item = dialog.targets.item(i)
        if item.data(Qt.ItemDataRole.UserRole) == table.ship("Kite").id:
            item.setCheckState(Qt.CheckState.Checked)
    assert dialog.system.text() == ("Turn 2 · Combat phase. Standard combat table (session "
                                    "option): one result D1–D5 or E.")
    dialog.to_hit.spin.setValue(5)
    assert "D5" in dialog.hits.text() and not dialog.damage_boxes
    assert dialog.apply()
    assert tp.standard_level(table.ship("Kite")) == 5
    assert "Disabled D5" in table.chips("Kite")
    dialog.close()
    while "combat" in table.session.options:
        table.window.act_undo.trigger()
    assert not panel.standard_box.isChecked()


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
    assert table.doc.session.undo_status().steps == 2


def test_every_panel_control_has_a_tooltip_and_takes_the_keyboard(table):
    panel = table.panel
    for control in panel.findChildren(QAbstractButton):
        if not control.isVisibleTo(panel):
            continue
        assert control.toolTip() or "&" in control.text(), control.text()
        assert control.focusPolicy() != Qt.FocusPolicy.NoFocus
    assert isinstance(panel.standard_box, QCheckBox) and "&" in panel.standard_box.text()

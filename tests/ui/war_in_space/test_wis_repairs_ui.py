"""Damage Control from the panel: the whole turn as a player plays it, and each step undone.

Seed: "Repairs do not take place until the Damage Control phase after movement. By
spending 4 energy points a ship may repair one system box ... By spending 8 energy points a
ship may repair one critical hit".
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from shipsheet.rules.war_in_space import current_die, locked_suits, planned_repairs


def commit_7_clubs(table, qtbot, dice=(8, 5, 3)) -> None:
    """7♣ with Damage Control on dice 8, 5, 3: Damage Control 8 (the highest die)."""
    energy = table.panel.energy
    energy.rank.setCurrentText("7")
    qtbot.mouseClick(energy.suit_buttons["clubs"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(energy.damage_control, Qt.MouseButton.LeftButton)
    for spin, value in zip(energy.dice, dice):
        spin.setValue(value)
    qtbot.mouseClick(energy.commit_button, Qt.MouseButton.LeftButton)
    assert table.ship.state["energy"]["damage_control"] == dice[0]


def test_play_commit_plan_advance_and_see_the_box_cleared_then_undo_each_step(table, qtbot):
    """The issue's story: play a card, type dice, commit, plan a repair, advance to the
    Damage Control phase, see the box cleared on the sheet; undo each step."""
    planner = table.panel.repairs
    assert not planner.plan_button.isEnabled()
    assert "has not committed its Energy Allocation" in planner.budget_label.text()

    commit_7_clubs(table, qtbot)
    assert "Damage Control energy this turn: 8" in planner.budget_label.text()
    assert planner.box_spins[1].isVisibleTo(planner) and planner.box_spins[1].maximum() == 1
    assert planner.crit_checks["diamonds"].isVisibleTo(planner)
    assert not planner.crit_checks["clubs"].isVisibleTo(planner)  # not damaged
    planner.box_spins[1].setValue(1)  # the marked Drive box, 4 energy
    assert "Total: 4 of 8" in planner.total_label.text() and "4 left" in planner.total_label.text()
    qtbot.mouseClick(planner.plan_button, Qt.MouseButton.LeftButton)
    assert table.undo_text() == "Plan repairs"
    assert planned_repairs(table.ship).boxes == (0, 1, 0)
    # Planned, not yet done: the mark stays until the Damage Control phase.
    assert table.ship.state["marks"][1] == 1 and current_die(table.ship, "Drive") == 6
    assert "Repair planned" in table.area("box:1:0").tooltip
    assert "Drive: 1 box (4 energy)" in planner.planned_label.text()

    table.window.act_next_phase.trigger()  # Movement
    assert table.session.phase == "Movement" and table.ship.state["marks"][1] == 1
    table.window.act_next_phase.trigger()  # Damage Control: the repair takes effect
    assert table.session.phase == "Damage Control"
    assert table.ship.state["marks"][1] == 0 and current_die(table.ship, "Drive") == 8
    assert "box 1 of 3: unmarked" in table.area("box:1:0").tooltip
    assert any("Drive: 1 box repaired (4 energy); die d6 -> d8" in line
               for line in table.log_lines())
    assert "4 spent, 4 left" in planner.budget_label.text()

    # Undo each step, newest first.
    assert table.undo_text() == "Next phase"
    table.undo()
    assert table.session.phase == "Movement" and table.ship.state["marks"][1] == 1
    table.undo()
    assert table.session.phase == "Energy Allocation"
    assert table.undo_text() == "Plan repairs"
    table.undo()
    assert planned_repairs(table.ship) is None
    assert "Repair planned" not in table.area("box:1:0").tooltip
    assert table.undo_text() == "Energy Allocation: 7♣ with Damage Control"
    table.undo()
    assert table.ship.state["energy"] is None and table.doc.session.undo_step() is None


def test_a_critical_costs_8_and_past_the_budget_says_how_much_is_missing(table, qtbot):
    """Seed: 4 a box, 8 a critical hit. With 8 Damage Control energy, the Drive box (4) and
    the ♦ critical (8) cost 12: 4 missing."""
    commit_7_clubs(table, qtbot)
    planner = table.panel.repairs
    planner.box_spins[1].setValue(1)
    planner.crit_checks["diamonds"].setChecked(True)
    assert ("These repairs cost 12 energy but only 8 Damage Control energy is available: "
            "4 missing.") in planner.total_label.text()
    assert not planner.plan_button.isEnabled()
    assert "4 missing" in planner.plan_button.toolTip()
    planner.box_spins[1].setValue(0)
    assert "Total: 8 of 8" in planner.total_label.text()
    qtbot.mouseClick(planner.plan_button, Qt.MouseButton.LeftButton)
    assert planned_repairs(table.ship).criticals == ("diamonds",)
    table.window.act_next_phase.trigger()
    table.window.act_next_phase.trigger()
    assert locked_suits(table.ship) == []
    assert "locked out" not in table.panel.energy.suit_buttons["diamonds"].toolTip()
    assert table.chips("Vigilant") == []
    assert "♦ locked" not in table.canvas.painter.status_words()


def test_no_damage_control_announced_means_no_repairs(table, qtbot):
    energy = table.panel.energy
    energy.rank.setCurrentText("3")
    qtbot.mouseClick(energy.suit_buttons["spades"], Qt.MouseButton.LeftButton)
    for spin, value in zip(energy.dice, (2, 2, 2)):
        spin.setValue(value)
    qtbot.mouseClick(energy.commit_button, Qt.MouseButton.LeftButton)
    planner = table.panel.repairs
    assert "did not announce Damage Control" in planner.budget_label.text()
    assert not planner.plan_button.isEnabled()


def test_in_the_damage_control_phase_repairs_happen_at_once(table, qtbot):
    """House rule: repairs "planned during it they take effect at once"."""
    commit_7_clubs(table, qtbot)
    table.window.act_next_phase.trigger()
    table.window.act_next_phase.trigger()
    planner = table.panel.repairs
    assert planner.plan_button.text() == "&Repair now"
    planner.box_spins[1].setValue(1)
    qtbot.mouseClick(planner.plan_button, Qt.MouseButton.LeftButton)
    assert table.ship.state["marks"][1] == 0
    table.undo()
    assert table.ship.state["marks"][1] == 1


def test_unspent_energy_is_lost_at_the_end_of_the_turn(table, qtbot):
    """House rule: "Energy not spent this turn is lost at end of turn"; a plan still waiting
    is dropped."""
    commit_7_clubs(table, qtbot)
    table.window.confirm_skip_phases = lambda turn, skipped: True  # Next Turn's question (issue 31): yes
    planner = table.panel.repairs
    table.window.act_next_turn.trigger()
    assert table.session.turn == 2 and table.ship.state["energy"] is None
    assert "has not committed its Energy Allocation" in planner.budget_label.text()
    assert any("this turn's energy is lost" in line for line in table.log_lines())
    # A new turn starts a fresh choice in the panel.
    assert table.panel.energy.chosen_dice() == [0, 0, 0]
    assert "play a card and roll" in table.area("energy").tooltip

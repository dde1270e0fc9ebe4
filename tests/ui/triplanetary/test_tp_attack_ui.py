"""The referee's attack dialog: attackers and targets, odds, typed and rolled dice, preview, Apply.

Tables quoted from the seed (triplanetary-advanced-combat.txt):

    To-Hit Roll – Guns           Roll 1:4 1:2 1:1 2:1 3:1 4:1
                                 5     -   1   1   2   2   3
                                 6     1   1   2   2   3   3
    To-Hit Roll – Other Damage   Roll  Torps Mines Asteroid Ram
                                 6       3     2      2      3
    Damage Roll: 1 – 1 weapon D; 2 – 1 drive D; 3 – 1 structure D;
                 5 – 1 weapon D, 1 drive D
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt

SHIP_ROLE = Qt.ItemDataRole.UserRole


def open_dialog(table, phase="Combat"):
    """The attack dialog, the session moved on to ``phase`` first (guns fire in the Combat
    phase, [TRI-H15])."""
    table.to_phase(phase)
    table.qtbot.mouseClick(table.panel.attack_button, Qt.MouseButton.LeftButton)
    dialog = table.panel.attack_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def tick(table, widget, *names):
    """Tick exactly these ships in the attackers or targets list."""
    ids = {table.ship(n).id for n in names}
    for i in range(widget.count()):
        item = widget.item(i)
        state = Qt.CheckState.Checked if item.data(SHIP_ROLE) in ids else Qt.CheckState.Unchecked
        if item.checkState() != state:
            item.setCheckState(state)


def type_die(table, box, value: int) -> None:
    """Type a physical die's value into a die box."""
    box.spin.setFocus()
    box.spin.lineEdit().selectAll()
    table.qtbot.keyClicks(box.spin.lineEdit(), str(value))
    assert box.spin.value() == value


def test_gun_attack_with_typed_dice_shows_hits_preview_and_applies_in_one_undo_step(table):
    """Vigilant (15) fires on Kite (4): 15:4 is 3:1; range 1 (−1), typed 6 → 5: 2 hits
    ("5 - 1 1 2 2 3", the 3:1 column); damage rolls typed 5 (1 weapon D, 1 drive D) and
    3 (1 structure D)."""
    table.select("Vigilant")
    dialog = open_dialog(table)
    assert dialog._checked_ids(dialog.attackers) == [table.ship("Vigilant").id]
    tick(table, dialog.targets, "Kite")
    dialog.range.setValue(1)
    assert dialog.odds.text() == "3:1"
    assert "15 against 4" in dialog.odds_detail.text()
    assert not dialog.apply_button.isEnabled() and dialog.problem == "Roll or type the to-hit die."
    type_die(table, dialog.to_hit, 6)
    assert "Roll 6 (typed) −1 = 5" in dialog.hits.text() and "2 hits" in dialog.hits.text()
    assert len(dialog.damage_boxes) == 2
    type_die(table, dialog.damage_boxes[0], 5)
    type_die(table, dialog.damage_boxes[1], 3)
    assert dialog.damage_boxes[0].result.text() == "→ 1 weapon D, 1 drive D"
    assert dialog.damage_boxes[1].result.text() == "→ 1 structure D"
    preview = dialog.previews[0].accessibleName()
    assert preview.startswith("Kite: Weapons D0 → D1, Drive D0 → D1, Structure D0 → D1.")
    assert "Can't fire" in preview and "Can't maneuver" in preview
    assert table.ship("Kite").state["weapon"] == 0  # nothing applied yet

    depth = len(table.session.log)
    steps = table.doc.session.undo_status().steps
    table.qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    kite = table.ship("Kite")
    assert (kite.state["weapon"], kite.state["drive"], kite.state["structure"]) == (1, 1, 1)
    assert table.chips("Kite") == ["Disabled", "Can't fire", "Can't maneuver",
                                   "Weapons D1", "Drive D1", "Structure D1"]
    assert table.log_of("Kite", depth) == [
        "damage rolls 5 → 1 weapon D, 1 drive D; 3 → 1 structure D. "
        "Now weapons D1, drive D1, structure D1."]
    assert table.undo_text() == "&Undo Gun attack by Vigilant on Kite"
    assert table.doc.session.undo_status().steps == steps + 1
    assert "Applied: Gun attack by Vigilant on Kite" in dialog.applied_label.text()
    # The dice are cleared for the next attack; the preview shows Kite as it is now.
    assert dialog.to_hit.spin.value() == 0 and not dialog.damage_boxes

    table.window.act_undo.trigger()
    assert (kite.state["weapon"], kite.state["drive"], kite.state["structure"]) == (0, 0, 0)
    assert table.chips("Kite") == []
    dialog.close()


def test_rolled_dice_are_the_session_dice_and_match_the_preview(table):
    """"Roll" shows what the session dice give; Apply rolls them inside the action (logged).
    Vigilant (15) on Kite (4) is 3:1, where any roll of 2 or more hits ("2 - - - - 1 1");
    the sample's seeded dice give a hit here."""
    table.select("Vigilant")
    dialog = open_dialog(table)
    tick(table, dialog.targets, "Kite")
    table.qtbot.mouseClick(dialog.to_hit.roll_button, Qt.MouseButton.LeftButton)
    shown = dialog.to_hit.spin.value()
    assert 1 <= shown <= 6 and dialog.to_hit.source.text() == "rolled"
    assert dialog.damage_boxes and not dialog.apply_button.isEnabled()
    table.qtbot.mouseClick(dialog.roll_damage, Qt.MouseButton.LeftButton)
    assert all(b.source.text() == "rolled" for b in dialog.damage_boxes)
    assert dialog.apply_button.isEnabled()
    damage = [b.spin.value() for b in dialog.damage_boxes]
    expected = {p.ship_id: (p.after.weapon, p.after.drive, p.after.structure)
                for p in dialog.result.targets}
    depth = len(table.session.log)
    assert dialog.apply()
    rolls = [e.text for e in table.session.log[depth:] if e.kind == "roll"]
    assert rolls[0] == f"d6 rolled: {shown} for the to-hit roll"
    assert [int(re.match(r"d6 rolled: (\d)", r).group(1)) for r in rolls[1:]] == damage
    kite = table.ship("Kite")
    assert (kite.state["weapon"], kite.state["drive"], kite.state["structure"]) == expected[kite.id]
    assert any(kite.state[t] for t in ("weapon", "drive", "structure"))
    assert any(e.text.endswith("(dice rolled)") for e in table.session.log[depth:])
    # Undo rewinds the dice: rolling again shows the same to-hit die.
    table.window.act_undo.trigger()
    dialog.to_hit.roll()
    assert dialog.to_hit.spin.value() == shown
    dialog.close()


def test_refused_attacks_are_explained_in_words(table):
    """[2018] defensive-only ships never attack; [seed] any weapon damage: cannot fire;
    [2018] worse than 1:4 has no effect."""
    dialog = open_dialog(table)
    tick(table, dialog.targets, "Kite")
    tick(table, dialog.attackers, "Ceres Mule")
    assert dialog.problem == ("Can't attack: Ceres Mule is a Transport (1D), defensive only: "
                              "it may never attack.")
    assert dialog.problem_label.text() == dialog.problem
    assert not dialog.apply_button.isEnabled()
    tick(table, dialog.attackers, "Raven")
    assert dialog.problem == "Can't attack: Raven cannot fire (weapons D1)."
    tick(table, dialog.attackers, "Kite")
    tick(table, dialog.targets, "Vigilant", "Phobos Station")
    assert dialog.problem.startswith("Odds worse than 1:4 (4 against 31)")
    assert not dialog.apply_button.isEnabled()
    # The lists say who cannot take part before anything is ticked.
    rows = {dialog.attackers.item(i).text() for i in range(dialog.attackers.count())}
    assert "Ceres Mule — Transport 1D · Mars Patrol  (defensive only)" in rows
    assert "Raven — Frigate 8 · Pirates  (can't fire)" in rows
    dialog.close()


def test_less_than_full_strength_and_summed_strengths(table):
    """[2018] "A ship may attack at less than its full strength"; "Several attackers add their
    strengths; several targets attacked together in one hex add theirs"."""
    dialog = open_dialog(table)
    tick(table, dialog.attackers, "Vigilant", "Kite")
    tick(table, dialog.targets, "Raven", "Ajax")
    assert "19" in dialog.attack_sum.text() and "16" in dialog.defense_sum.text()
    assert dialog.odds.text() == "1:1"  # 19:16, rounded in the defender's favour
    dialog.less.setChecked(True)
    dialog.strength.setValue(7)
    assert dialog.odds.text() == "1:4"  # 7:16 is worse than 1:2
    assert "7 (of 19) against 16" in dialog.odds_detail.text()
    dialog.close()


def test_torpedo_hits_from_the_other_damage_table(table):
    """Torpedo, roll 6: 3 hits; damage rolls 1, 2, 3 give 1 weapon, 1 drive, 1 structure D.
    Its source is checked as at launch [TRI-H19]: Vigilant, a dreadnaught at weapons D2,
    fires but drops no ordnance [TRI-H24]; Phobos Station may."""
    dialog = open_dialog(table, "Movement")
    dialog.kind.setCurrentIndex(dialog.kind.findData("torpedo"))
    assert dialog.launch.currentText() == "The source ticked above (checked as at launch)"
    tick(table, dialog.targets, "Kite")
    tick(table, dialog.attackers)
    assert "names its launch or the ship that launched it" in dialog.problem
    tick(table, dialog.attackers, "Vigilant")
    assert "drops no ordnance (house rule TRI-H24)" in dialog.problem
    tick(table, dialog.attackers, "Phobos Station")
    type_die(table, dialog.to_hit, 6)
    assert "3 hits" in dialog.hits.text()
    for box, value in zip(dialog.damage_boxes, (1, 2, 3)):
        type_die(table, box, value)
    assert dialog.apply()
    kite = table.ship("Kite")
    assert (kite.state["weapon"], kite.state["drive"], kite.state["structure"]) == (1, 1, 1)
    assert table.undo_text() == "&Undo Torpedo attack by Phobos Station on Kite"
    dialog.close()


def test_a_launched_mine_is_named_by_its_launch_and_spent(table):
    """The sample's turn 1: Kite laid mine 1, which hit the Ceres Mule. A new mine from Kite
    in this turn's Ordnance phase is offered by name and spent by the attack."""
    table.to_phase("Ordnance")
    table.select("Kite")
    table.qtbot.mouseClick(table.panel.launch_buttons["mine"], Qt.MouseButton.LeftButton)
    kite = table.ship("Kite")
    assert [e["n"] for e in kite.state["ordnance"]] == [2]
    dialog = open_dialog(table, "Ordnance")
    dialog.kind.setCurrentIndex(dialog.kind.findData("mine"))
    assert dialog.launch.currentText() == "Kite's mine 2 (turn 2)"
    assert dialog._checked_ids(dialog.attackers) == [kite.id] and not dialog.attackers.isEnabled()
    tick(table, dialog.targets, "Ajax")
    type_die(table, dialog.to_hit, 1)  # Mines: a 1 has no effect
    assert dialog.apply()
    assert kite.state["ordnance"] == []
    assert "Kite's mine 2 (turn 2) is spent" in table.session.log_text()
    dialog.close()


def test_guns_out_of_phase_need_the_referees_tick(table):
    """[TRI-H15] in the Movement phase the odds show, Apply waits for "out of phase"."""
    table.select("Vigilant")
    dialog = open_dialog(table, "Movement")
    tick(table, dialog.targets, "Kite")
    type_die(table, dialog.to_hit, 1)
    assert dialog.odds.text() == "3:1"
    assert "Combat phase; this is the Movement phase" in dialog.problem
    assert not dialog.apply_button.isEnabled()
    dialog.out_of_phase.setChecked(True)
    assert dialog.apply()
    assert "Referee: gun attack out of phase (Movement)" in table.session.log_text()
    dialog.close()


def test_opened_from_a_ship_that_cannot_fire_it_is_the_target(table):
    """[seed] "A ship with any weapon damage cannot fire": Raven is offered as a target."""
    table.select("Raven")
    dialog = open_dialog(table)
    assert dialog._checked_ids(dialog.attackers) == []
    assert dialog._checked_ids(dialog.targets) == [table.ship("Raven").id]
    assert dialog.problem == "Pick at least one attacker."
    dialog.close()
    table.select("Kite")
    again = open_dialog(table)
    assert again is dialog  # the same dialog, with the new ship picked
    assert dialog._checked_ids(dialog.attackers) == [table.ship("Kite").id]
    dialog.close()


def test_the_dialog_goes_away_with_its_session(table):
    import shiboken6
    from PySide6.QtCore import QCoreApplication, QEvent
    dialog = open_dialog(table)
    assert table.window.open_sample("triplanetary")
    for _ in range(3):  # the old docks (and the dialog with them) are deleted later
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(dialog)


def test_the_applied_line_goes_as_the_next_attack_is_set_up(table):
    table.select("Vigilant")
    dialog = open_dialog(table)
    tick(table, dialog.targets, "Kite")
    type_die(table, dialog.to_hit, 1)  # 3:1, a 1 misses: no damage roll
    assert dialog.apply()
    assert dialog.applied_label.text().startswith("Applied: Gun attack by Vigilant on Kite")
    dialog.range.setValue(2)
    assert dialog.applied_label.text() == ""
    dialog.close()

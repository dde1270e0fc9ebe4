"""The Energy Allocation panel: card picker, Damage Control toggle, dice (rolled or typed),
the live allocation table and Commit, as a player uses them."""

from __future__ import annotations

from PySide6.QtCore import Qt

from shipsheet.rules.war_in_space import committed_allocation, rolled_dice


def rows(energy) -> dict[str, str]:
    """The allocation table as the player reads it: action -> energy shown."""
    table = energy.table
    return {table.verticalHeaderItem(r).text(): table.item(r, 0).text()
            for r in range(table.rowCount())}


def play(qtbot, energy, rank: str, suit: str | None = None, damage_control: bool = False) -> None:
    energy.rank.setCurrentText(rank)
    if suit is not None:
        qtbot.mouseClick(energy.suit_buttons[suit], Qt.MouseButton.LeftButton)
    if energy.damage_control.isChecked() != damage_control:
        qtbot.mouseClick(energy.damage_control, Qt.MouseButton.LeftButton)


def type_dice(qtbot, energy, *values: int) -> None:
    """Type physical dice into the three boxes, as from the keyboard."""
    for spin, value in zip(energy.dice, values):
        spin.selectAll()
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin.lineEdit(), str(value))
        qtbot.keyClick(spin, Qt.Key.Key_Tab)


def test_locked_suit_is_disabled_in_the_picker_with_its_reason(table):
    """Seed: after a critical hit the ship has "lost the ability" to play cards of that suit;
    the cruiser's ♦ critical is marked."""
    energy = table.panel.energy
    diamonds = energy.suit_buttons["diamonds"]
    assert not diamonds.isEnabled()
    assert "the ♦ critical hit is marked, which locks diamonds out" in diamonds.toolTip()
    assert all(energy.suit_buttons[s].isEnabled() for s in ("spades", "hearts", "clubs"))
    # The escort has no critical hit: all four suits may be played.
    table.select("Harrier")
    assert all(b.isEnabled() for b in energy.suit_buttons.values())


def test_marking_a_critical_on_the_sheet_disables_that_suit_at_once(table, qtbot):
    energy = table.panel.energy
    play(qtbot, energy, "7", "clubs")
    table.click("crit:clubs")
    assert not energy.suit_buttons["clubs"].isEnabled()
    assert energy.chosen_suit() != "clubs"
    assert "♣ critical hit is marked" in energy.suit_buttons["clubs"].toolTip()


def test_typed_dice_table_updates_live_and_commit_is_one_logged_action(table, qtbot):
    """Seed: A-10 with Damage Control: "the highest die score is allocated to the Damage
    Control Action, the next highest score to the Primary Action Type, and the last die score
    to the Secondary action type". 7♣ (♣ Primary Movement, Secondary Defense), dice 8, 5, 3:
    Damage Control 8, Movement 5, Defense 3, Attack 0."""
    energy = table.panel.energy
    play(qtbot, energy, "7", "clubs", damage_control=True)
    type_dice(qtbot, energy, 8, 5, 3)
    assert energy.chosen_dice() == [8, 5, 3]
    assert rows(energy) == {"Attack": "0", "Defense": "3", "Movement": "5",
                            "Damage Control": "8"}
    # Untick Damage Control: [house] A-10 gives highest/middle/lowest to Primary/Secondary/
    # Tertiary: Movement 8, Defense 5, Attack 3.
    qtbot.mouseClick(energy.damage_control, Qt.MouseButton.LeftButton)
    assert rows(energy) == {"Attack": "3", "Defense": "5", "Movement": "8",
                            "Damage Control": "0"}
    assert table.ship.state["energy"] is None  # a preview changes nothing
    qtbot.mouseClick(energy.damage_control, Qt.MouseButton.LeftButton)
    assert energy.commit_button.isEnabled()
    qtbot.mouseClick(energy.commit_button, Qt.MouseButton.LeftButton)
    committed = committed_allocation(table.ship)
    assert (committed.attack, committed.defense, committed.movement,
            committed.damage_control) == (0, 3, 5, 8)
    assert table.undo_text() == "Energy Allocation: 7♣ with Damage Control"
    assert any("7♣ with Damage Control, dice [8, 5, 3]: Attack 0, Defense 3, Movement 5, "
               "Damage Control 8" in line for line in table.log_lines())
    assert not energy.commit_button.isEnabled() and not energy.rank.isEnabled()
    assert "Committed:" in energy.state_label.text()
    table.undo()
    assert table.ship.state["energy"] is None
    assert energy.commit_button.isEnabled()  # the choice is still there to change
    assert energy.chosen_dice() == [8, 5, 3]


def test_the_seeds_4_of_diamonds_example(table, qtbot):
    """Seed: "if the ship in Figure 1 played a 4 of diamonds during Energy Allocation, the
    highest die rolled would be dedicated to Damage Control, the next highest die would be used
    for Attack actions, and the remaining die would be spent on Defense, leaving 0 energy for
    movement actions". The cruiser's ♦ row is Attack/Defense, as in Figure 1; dice 2, 6, 4."""
    table.menu("crit:diamonds", "Correct mark")  # unlock ♦ (the fixture marked it)
    energy = table.panel.energy
    assert energy.suit_buttons["diamonds"].isEnabled()
    play(qtbot, energy, "4", "diamonds", damage_control=True)
    type_dice(qtbot, energy, 2, 6, 4)
    assert rows(energy) == {"Attack": "4", "Defense": "2", "Movement": "0",
                            "Damage Control": "6"}


def test_face_card_with_damage_control(table, qtbot):
    """Seed: "If a face card is played, the sum of the highest two dice scores is used for
    Damage Control and the remaining die score is used for the Primary Action Type". Q♥
    (♥ Primary Defense), dice 6, 4, 2: Damage Control 10, Defense 2."""
    energy = table.panel.energy
    play(qtbot, energy, "Q", "hearts", damage_control=True)
    type_dice(qtbot, energy, 6, 4, 2)
    assert rows(energy) == {"Attack": "0", "Defense": "2", "Movement": "0",
                            "Damage Control": "10"}


def test_an_impossible_typed_die_is_refused_with_the_rule(table, qtbot):
    """Issue: a die value impossible for that system's current die is refused (9 on a d8)."""
    energy = table.panel.energy
    play(qtbot, energy, "7", "spades")
    type_dice(qtbot, energy, 5, 3, 9)
    assert "Fire Control rolls a d8 now: it shows 1 to 8, so 9 is impossible." in \
        energy.message.text()
    assert not energy.commit_button.isEnabled()
    assert "9 is impossible" in energy.commit_button.toolTip()
    assert rows(energy)["Attack"] == ""
    # Drive has a marked box: it rolls a d6, so 7 is impossible there too.
    type_dice(qtbot, energy, 5, 7, 2)
    assert "Drive rolls a d6 now" in energy.message.text()


def test_roll_uses_the_session_dice_and_can_be_undone(table, qtbot):
    """"Roll" rolls each system's current die (d10, d6, d8) with the session dice, logged."""
    energy = table.panel.energy
    play(qtbot, energy, "4", "spades")
    qtbot.mouseClick(energy.roll_button, Qt.MouseButton.LeftButton)
    rolled = rolled_dice(table.ship)
    assert rolled is not None and energy.chosen_dice() == list(rolled)
    assert 1 <= rolled[0] <= 10 and 1 <= rolled[1] <= 6 and 1 <= rolled[2] <= 8
    assert table.undo_text() == "Roll energy dice"
    rolls = [line for line in table.log_lines() if " rolled: " in line]
    assert [r.split("rolled: ")[0][-4:].strip() for r in rolls] == ["d10", "d6", "d8"]
    assert all(spin.isReadOnly() for spin in energy.dice)
    assert not energy.roll_button.isEnabled()
    assert "already rolled" in energy.roll_button.toolTip()
    assert rows(energy)["Attack"] != ""  # the table follows the rolled dice
    qtbot.mouseClick(energy.commit_button, Qt.MouseButton.LeftButton)
    assert committed_allocation(table.ship).dice == rolled
    table.undo()
    table.undo()
    assert rolled_dice(table.ship) is None and not energy.dice[0].isReadOnly()


def test_joker_without_damage_control_lets_the_player_assign_each_die(table, qtbot):
    """House rule: a Joker without Damage Control "lets the player put each die into Attack,
    Defense or Movement"; with Damage Control announced after the reveal, seed: "The sum of
    all three dice is then allocated to Damage Control"."""
    energy = table.panel.energy
    play(qtbot, energy, "Joker")
    assert all(not b.isEnabled() for b in energy.suit_buttons.values())
    assert energy.chosen_suit() is None and energy.chosen_card() == "JOKER"
    assert energy.damage_control.isEnabled()  # may be announced after the Joker is revealed
    assert "Joker revealed" in energy.joker_note.text()
    assert all(c.isVisibleTo(energy) for c in energy.assign)
    type_dice(qtbot, energy, 9, 4, 6)
    for combo, action in zip(energy.assign, ("attack", "attack", "movement")):
        combo.setCurrentIndex(combo.findData(action))
    assert rows(energy) == {"Attack": "13", "Defense": "0", "Movement": "6",
                            "Damage Control": "0"}
    qtbot.mouseClick(energy.damage_control, Qt.MouseButton.LeftButton)
    assert not any(c.isVisibleTo(energy) for c in energy.assign)
    assert rows(energy) == {"Attack": "0", "Defense": "0", "Movement": "0",
                            "Damage Control": "19"}
    qtbot.mouseClick(energy.commit_button, Qt.MouseButton.LeftButton)
    assert table.undo_text() == "Energy Allocation: Joker with Damage Control"


def test_commit_outside_energy_allocation_is_refused_with_the_reason(table, qtbot):
    """House turn sequence: energy is allocated in the Energy Allocation phase."""
    table.window.act_next_phase.trigger()
    energy = table.panel.energy
    play(qtbot, energy, "5", "hearts")
    type_dice(qtbot, energy, 5, 3, 2)
    assert rows(energy)["Defense"] == "5"  # the preview still works
    assert not energy.commit_button.isEnabled()
    assert "this is the Movement phase" in energy.commit_button.toolTip()
    assert "this is the Movement phase" in energy.message.text()
    assert not energy.roll_button.isEnabled()


def test_keyboard_reaches_every_control(table):
    energy = table.panel.energy
    for widget in (energy.rank, energy.damage_control, energy.roll_button, energy.commit_button,
                   *energy.dice, *energy.suit_buttons.values(), table.panel.repairs.plan_button):
        assert widget.focusPolicy() & Qt.FocusPolicy.TabFocus, widget
        assert widget.toolTip(), widget
    labels = [energy.damage_control.text(), energy.roll_button.text(),
              energy.commit_button.text(), table.panel.repairs.plan_button.text()]
    assert all("&" in text for text in labels)


def test_a_committed_roll_keeps_the_die_it_was_rolled_on(table, qtbot):
    """Issue 17: after a Reactor box is marked, the committed row read "Reactor (d8): 9", a
    roll the panel itself calls impossible. A 7♣ on [9, 5, 3] (Reactor d10): the Reactor
    box marked afterwards steps its die to d8; the row still says the 9 was rolled on d10."""
    from shipsheet.rules.war_in_space import current_die, mark_system_box_action
    energy = table.panel.energy
    play(qtbot, energy, "7", "clubs")
    type_dice(qtbot, energy, 9, 5, 3)
    qtbot.mouseClick(energy.commit_button, Qt.MouseButton.LeftButton)
    ship = table.session.ship(energy.ship.id)
    assert table.doc.do(mark_system_box_action(ship, "Reactor"))
    assert current_die(ship, "Reactor") == 8
    assert energy.dice_labels[0].text() == "Reactor (d10):" and energy.dice[0].value() == 9
    assert "Its die is d8 now" in energy.dice[0].toolTip()
    assert "9 on its d10" in table.area("rolled:0").tooltip

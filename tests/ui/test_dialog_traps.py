"""Issue 31, "Traps": dialogs that moved under the pointer, kept stale input, undid another
ship's step, topped typed dice up silently, or skipped phases without asking."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

SHIP_ROLE = Qt.ItemDataRole.UserRole


# -- 1. the Triplanetary attack dialog keeps its controls where they are ---------------------------
def _tick(widget, ids) -> None:
    for i in range(widget.count()):
        item = widget.item(i)
        state = Qt.CheckState.Checked if item.data(SHIP_ROLE) in ids else Qt.CheckState.Unchecked
        if item.checkState() != state:
            item.setCheckState(state)


def _type_die(qtbot, box, value: int) -> None:
    box.spin.setFocus()
    box.spin.lineEdit().selectAll()
    qtbot.keyClicks(box.spin.lineEdit(), str(value))
    assert box.spin.value() == value


def _where(dialog, widget) -> tuple[int, int]:
    """The widget's x and width, in the dialog's coordinates."""
    return widget.mapTo(dialog, QPoint(0, 0)).x(), widget.width()


def _geometry(dialog) -> dict[str, tuple[int, int]]:
    boxes = [("to-hit", dialog.to_hit)] + [(f"damage {i + 1}", b)
                                           for i, b in enumerate(dialog.damage_boxes)]
    out = {}
    for name, box in boxes:
        out[f"{name} field"] = _where(dialog, box.spin)
        out[f"{name} Roll"] = _where(dialog, box.roll_button)
    return out


def test_tp_attack_dice_fields_and_roll_buttons_never_move_while_typing(window, qtbot):
    """Vigilant (15) on Kite (4), 3:1, range 1, typed 6: two hits, two damage rolls. Every
    field and Roll button stays where it was (x and width) as each roll is typed."""
    assert window.open_sample("triplanetary")
    session = window.doc.session
    vigilant, kite = session.ship("Vigilant"), session.ship("Kite")
    roster = window.roster
    roster.setCurrentItem(roster.item_for(vigilant.id))
    while session.phase != "Combat":
        window.next_phase()
    qtbot.mouseClick(window.panel.attack_button, Qt.MouseButton.LeftButton)
    dialog = window.panel.attack_dialog
    assert dialog is not None and dialog.isVisible()
    _tick(dialog.targets, {kite.id})
    dialog.range.setValue(1)
    _type_die(qtbot, dialog.to_hit, 6)
    assert len(dialog.damage_boxes) == 2
    qtbot.wait(10)
    before = _geometry(dialog)
    # Every damage result the Advanced table gives, typed in turn into both boxes.
    for value in (5, 3, 1, 2, 4, 6, 5):
        for box in dialog.damage_boxes:
            _type_die(qtbot, box, value)
            qtbot.wait(10)
            assert box.result.text()
            assert _geometry(dialog) == before, f"moved after typing {value}"


# -- 2. the volley dialog starts fresh for each target ---------------------------------------------
def _fc_session(window):
    from shipsheet.model import Session, get_class, new_ship
    session = Session("fedcom", name="Traps", seed=77)
    for stem, name, side in (("sample-heavy-cruiser", "Resolute", "Blue"),
                             ("sample-frigate", "Lance", "Red")):
        session.add_ship(new_ship(get_class(f"fedcom/{stem}"), name), side)
    session.clear_history()
    window.open_session(session)
    return session


def _select(window, ship) -> None:
    window.doc.select(ship.id)


def test_fc_volley_closed_unapplied_then_opened_for_another_ship_starts_fresh(window, qtbot):
    session = _fc_session(window)
    resolute, lance = session.ship("Resolute"), session.ship("Lance")
    _select(window, resolute)
    qtbot.mouseClick(window.panel.volley_button, Qt.MouseButton.LeftButton)
    dialog = window.panel.volley_dialog
    qtbot.addWidget(dialog)
    assert dialog.target.currentData() == resolute.id
    dialog.damage.setValue(12)
    qtbot.mouseClick(dialog.type_mode, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.rolls, "3 7")
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)   # not applied
    assert not dialog.isVisible()

    _select(window, lance)
    qtbot.mouseClick(window.panel.volley_button, Qt.MouseButton.LeftButton)
    assert window.panel.volley_dialog is dialog and dialog.isVisible()
    assert dialog.target.currentData() == lance.id
    assert dialog.damage.value() == 0 and dialog.rolls.text() == ""
    assert dialog.model.rowCount() == 0 and not dialog.apply_button.isEnabled()
    assert lance.state["destroyed"] == [] and resolute.state["destroyed"] == []


# -- 3. the standing orders dialog's Undo never names another ship's step as its own ---------------
def test_fc_orders_undo_names_another_ships_step_as_the_sessions_last(window, qtbot):
    from shipsheet.rules.fedcom import Overrides, set_orders_action, volley_action
    session = _fc_session(window)
    resolute, lance = session.ship("Resolute"), session.ship("Lance")
    _select(window, resolute)
    dialog = window.panel.open_orders()
    qtbot.addWidget(dialog)
    assert dialog.ship_id == resolute.id
    assert window.doc.do(set_orders_action(resolute, Overrides(last=["ph-5"])))
    own = f"&Undo {session.undo_status().undo}"
    assert dialog.undo_action.text() == own                 # Resolute's own step, by its name

    assert window.doc.do(volley_action(lance, 6, shield=1, rolls=[1]))
    name = session.undo_status().undo
    assert name.startswith("Volley of 6 at Lance")
    assert dialog.undo_action.text() == f"&Undo the session's last step: {name}"
    assert dialog.undo_button.text().replace("&", "") == dialog.undo_action.text().replace("&", "")
    dialog.undo_action.trigger()                        # takes back the step it named
    assert lance.state["volleys"] == 0 and resolute.state["orders"] == {"last": ["ph-5"]}
    assert dialog.undo_action.text() == own


# -- 5. Next Turn asks before it skips the phases not played yet -----------------------------------
def test_next_turn_asks_naming_the_phases_it_skips_and_at_the_last_phase_just_goes(window, dialogs):
    """(The fedcom session: no owner has a choice left at the turn end, so no other question.)"""
    from PySide6.QtWidgets import QMessageBox
    session = _fc_session(window)
    phases = list(session.rules.phases)
    turn, phase = session.turn, session.phase
    skipped = phases[phases.index(phase) + 1:]
    assert skipped                                        # the sample starts before the last phase

    dialogs.answer = QMessageBox.StandardButton.Cancel
    window.act_next_turn.trigger()
    assert (session.turn, session.phase) == (turn, phase)  # declined: nothing skipped
    kind, title, text = dialogs.shown[-1]
    assert kind == "question"
    assert f"End turn {turn} now?" in text and ", ".join(skipped) in text

    dialogs.answer = QMessageBox.StandardButton.Yes
    window.act_next_turn.trigger()
    assert session.turn == turn + 1 and session.phase == phases[0]

    while session.phase != phases[-1]:
        window.next_phase()
    asked = len(dialogs.shown)
    window.act_next_turn.trigger()                        # nothing skipped: no question
    assert session.turn == turn + 2 and len(dialogs.shown) == asked


# -- 4. typed dice too few are refused in words, never topped up from the session dice -------------
def test_fc_volley_with_too_few_typed_rolls_is_refused_saying_how_many(window, qtbot):
    session = _fc_session(window)
    resolute = session.ship("Resolute")
    _select(window, resolute)
    qtbot.mouseClick(window.panel.volley_button, Qt.MouseButton.LeftButton)
    dialog = window.panel.volley_dialog
    qtbot.addWidget(dialog)
    dialog.shield.setCurrentIndex(dialog.shield.findData(None))     # 12 internal: two groups
    dialog.damage.setValue(12)
    qtbot.mouseClick(dialog.type_mode, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.rolls, "3")
    assert dialog.result is None and not dialog.apply_button.isEnabled()
    message = dialog.message.text()
    assert "Cannot allocate" in message and "needs 2 DAC rolls" in message
    assert "1 was typed: type 1 more" in message
    assert "session dice" not in dialog.rolls_info.text()
    steps = session.undo_status().steps
    assert not dialog.apply()
    assert session.undo_status().steps == steps and resolute.state["destroyed"] == []

    qtbot.keyClicks(dialog.rolls, " 4")
    assert dialog.apply_button.isEnabled() and dialog.result.rolls == [3, 4]
    assert "typed 3 4" in dialog.rolls_info.text() and "rolled" not in dialog.rolls_info.text()
    assert dialog.message.text() == ""

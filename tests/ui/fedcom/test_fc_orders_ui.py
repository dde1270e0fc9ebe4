"""The standing-orders (SOP) editor: overrides of the DDAP for one ship and one turn.

[seed 8FC3] "you can let the moderator know that you want the 360º Ph-3 (#5) to be the LAST
phaser damaged ... The info would have to be in each and every SOP that you want it to apply,
otherwise the DDAP will be used."
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDropEvent

from fc_ui_helpers import CRUISER, area, open_fc
from shipsheet.rules.fedcom import mark_box_action


def open_editor(window, qtbot):
    qtbot.mouseClick(window.panel.orders_button, Qt.MouseButton.LeftButton)
    dialog = window.panel.orders_dialogs[window.doc.current_ship_id]
    assert dialog.isVisible()
    qtbot.addWidget(dialog)
    return dialog


def item(lst, box_id):
    for row in range(lst.count()):
        if lst.item(row).data(Qt.ItemDataRole.UserRole) == box_id:
            return lst.item(row)
    raise AssertionError(f"{box_id} not in {lst.objectName()}")


def pick(qtbot, lst, box_id):
    """Click an item, as a user selects it."""
    rect = lst.visualItemRect(item(lst, box_id))
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def drop(source, target, box_id, pos=None):
    """Drag ``box_id`` from ``source`` and drop it on ``target`` (at ``pos``, else below the items)."""
    mime = source.mimeData([item(source, box_id)])
    where = pos if pos is not None else QPointF(10, target.viewport().height() - 5)
    event = QDropEvent(where, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    target.dropEvent(event)
    assert event.isAccepted()


def texts(lst):
    return [lst.item(r).text() for r in range(lst.count())]


def test_put_a_box_last_with_the_keyboard_way_one_undo_step(window, qtbot):
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    dialog = open_editor(window, qtbot)
    assert dialog.kind.currentData() == "phaser"
    assert [dialog.pool.item(r).data(Qt.ItemDataRole.UserRole) for r in range(dialog.pool.count())] == \
        [f"ph-{n}" for n in range(1, 10)]
    pick(qtbot, dialog.pool, "ph-5")
    qtbot.mouseClick(dialog.to_last, Qt.MouseButton.LeftButton)
    assert ship.state["orders"] == {"last": ["ph-5"]}
    assert window.doc.session.undo_status().steps == 1
    assert window.act_undo.text() == "&Undo Standing orders: ph-5 hit last"
    assert texts(dialog.last) == ["1. ph-5 · Ph-3 · 360 — unfired"]
    assert texts(dialog.preview)[-1].startswith("9. ph-5 — standing order: hit last")
    assert "DDAP: 9th of 9 phasers to be hit (standing order" in area(window, "box:ph-5").tooltip
    assert "Standing orders" in window.roster.item_for(ship.id).data(2, Qt.ItemDataRole.UserRole + 1)
    qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)
    assert ship.state["orders"] == {} and texts(dialog.last) == []


def test_drag_and_drop_into_hit_first_reorder_and_back(window, qtbot):
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    dialog = open_editor(window, qtbot)
    drop(dialog.pool, dialog.first, "ph-3")
    assert ship.state["orders"] == {"first": ["ph-3"]}
    top = dialog.first.visualItemRect(dialog.first.item(0)).topLeft() + QPointF(5, 1).toPoint()
    drop(dialog.pool, dialog.first, "ph-1", QPointF(top))        # above ph-3
    assert ship.state["orders"] == {"first": ["ph-1", "ph-3"]}
    assert texts(dialog.preview)[:2] == ["1. ph-1 — standing order: 1st phaser to hit",
                                         "2. ph-3 — standing order: 2nd phaser to hit"]
    drop(dialog.first, dialog.last, "ph-3")                       # from first to last
    assert ship.state["orders"] == {"first": ["ph-1"], "last": ["ph-3"]}
    drop(dialog.last, dialog.pool, "ph-3")                        # back: no order
    assert ship.state["orders"] == {"first": ["ph-1"]}
    assert window.doc.session.undo_status().steps == 4                     # each change one undo step
    pick(qtbot, dialog.pool, "ph-2")
    qtbot.mouseClick(dialog.to_first, Qt.MouseButton.LeftButton)
    pick(qtbot, dialog.first, "ph-2")
    qtbot.mouseClick(dialog.up, Qt.MouseButton.LeftButton)
    assert ship.state["orders"] == {"first": ["ph-2", "ph-1"]}
    qtbot.mouseClick(dialog.remove, Qt.MouseButton.LeftButton)
    assert ship.state["orders"] == {"first": ["ph-1"]}


def test_frame_orders_and_the_heavy_weapon_type_order(window, qtbot):
    """[seed 8FC2] "the player can use (8FC3) to override this rule and take frame damage in
    place of the last box of certain systems ... or instead of skipping a damage point";
    [seed 8FC4] heavy weapons: "the owner will need to specify which will be hit first"
    (the card says photon, then disruptor)."""
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    dialog = open_editor(window, qtbot)
    lab = item(dialog.frame_kinds, "lab")
    lab.setCheckState(Qt.CheckState.Checked)
    assert ship.state["orders"] == {"frame_instead_of_last": ["lab"]}
    qtbot.mouseClick(dialog.frame_skip, Qt.MouseButton.LeftButton)
    assert ship.state["orders"]["frame_instead_of_skip"] is True
    assert window.act_undo.text() == "&Undo Standing orders: frame instead of skipping"
    window.act_undo.trigger()                                     # undo from the main window
    assert not dialog.frame_skip.isChecked()
    assert item(dialog.frame_kinds, "lab").checkState() == Qt.CheckState.Checked

    assert dialog.heavy_box.isVisibleTo(dialog)
    dialog.heavy_box.setChecked(True)
    assert ship.state["orders"]["heavy_weapon_order"] == ["photon", "disruptor"]
    dialog.heavy.setCurrentRow(1)
    qtbot.mouseClick(dialog.heavy_up, Qt.MouseButton.LeftButton)
    assert ship.state["orders"]["heavy_weapon_order"] == ["disruptor", "photon"]
    dialog.kind.setCurrentIndex(dialog.kind.findData("torpedo"))
    assert texts(dialog.preview)[0].startswith("1. disruptor-1 — DDAP heavy weapons: unfired "
                                               "disruptor, size 1 (disruptor is type 1 of 2 in the "
                                               "order of the standing orders, which ranks first: "
                                               "house rule FC-H13)")


def test_orders_lapse_at_end_of_turn_unless_copied_and_the_copy_follows_edits(window, qtbot):
    session = open_fc(window, CRUISER)
    window.confirm_skip_phases = lambda turn, skipped: True  # Next Turn's question (issue 31): yes
    ship = session.ships[0]
    dialog = open_editor(window, qtbot)
    assert not dialog.copy_forward.isEnabled()            # nothing to copy yet
    pick(qtbot, dialog.pool, "ph-5")
    qtbot.mouseClick(dialog.to_last, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.copy_forward, Qt.MouseButton.LeftButton)
    assert ship.state["next_orders"] == {"last": ["ph-5"]}
    assert window.panel.copy_forward.isChecked()          # the panel shows it too
    pick(qtbot, dialog.pool, "ph-9")
    qtbot.mouseClick(dialog.to_last, Qt.MouseButton.LeftButton)
    assert ship.state["next_orders"] == {"last": ["ph-5", "ph-9"]}   # one step: orders and copy
    window.act_next_turn.trigger()
    assert session.turn == 2 and ship.state["orders"] == {"last": ["ph-5", "ph-9"]}
    assert "turn 2" in dialog.intro.text() and not dialog.copy_forward.isChecked()
    window.act_next_turn.trigger()                        # not copied this time: they lapse
    assert session.turn == 3 and ship.state["orders"] == {}
    assert texts(dialog.last) == []
    assert "lapse at the end of the turn" in dialog.intro.text()


def test_an_order_that_cannot_apply_is_shown_with_the_reason(window, qtbot):
    """[seed 8FC4] "If an order is vague or illegal, the moderator will fall back upon the
    default order of damage"."""
    session = open_fc(window, CRUISER)
    ship = session.ships[0]
    dialog = open_editor(window, qtbot)
    pick(qtbot, dialog.pool, "ph-1")
    qtbot.mouseClick(dialog.to_last, Qt.MouseButton.LeftButton)
    window.doc.do(mark_box_action(ship, "ph-1"))
    assert dialog.notes.text() == ('Note: last: "ph-1" not applied: that box is already '
                                   'destroyed.')
    assert texts(dialog.last) == ["1. ph-1 · Ph-1 · FA — destroyed"]
    pick(qtbot, dialog.last, "ph-1")
    qtbot.mouseClick(dialog.remove, Qt.MouseButton.LeftButton)
    assert ship.state["orders"] == {} and dialog.notes.text() == ""

"""The mouse wheel over typed dice scrolls the panel; it changes a value only when focused.

The trap (issue 17): type 7/5/3, rest the pointer over the Reactor box and wheel down to
reach Commit — the Reactor became 4 and the energy table changed.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QScrollArea

from test_wis_energy_ui import play, type_dice


def wheel_down(widget) -> None:
    """One notch of the wheel, down, with the pointer on ``widget`` (delivered as Qt does:
    to the widget, then to what holds it while nobody takes it)."""
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                        QPoint(0, -120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def scroll_area_of(widget) -> QScrollArea:
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QScrollArea):
        parent = parent.parentWidget()
    assert parent is not None
    return parent


def test_the_wheel_over_typed_dice_scrolls_the_panel(table, qtbot):
    energy = table.panel.energy
    play(qtbot, energy, "7", "clubs")
    type_dice(qtbot, energy, 7, 5, 3)
    reactor = energy.dice[0]
    area = scroll_area_of(reactor)
    table.window.resize(1000, 420)  # a short laptop screen: the panel scrolls
    qtbot.wait(10)
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0
    energy.commit_button.setFocus()
    before = bar.value()
    for _ in range(3):
        wheel_down(reactor)
    assert [s.value() for s in energy.dice] == [7, 5, 3]
    assert bar.value() > before


def test_a_focused_box_takes_the_wheel(table, qtbot):
    energy = table.panel.energy
    type_dice(qtbot, energy, 7, 5, 3)
    drive = energy.dice[1]
    drive.setFocus()
    assert drive.hasFocus()
    wheel_down(drive)
    assert drive.value() == 4


def test_combo_boxes_keep_their_value_under_a_passing_wheel(table, qtbot):
    energy = table.panel.energy
    energy.rank.setCurrentText("7")
    energy.commit_button.setFocus()
    wheel_down(energy.rank)
    assert energy.rank.currentText() == "7"
    assert energy.rank.focusPolicy() == Qt.FocusPolicy.StrongFocus

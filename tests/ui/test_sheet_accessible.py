"""A sheet a screen reader can read, through Qt's accessibility interfaces (what a screen
reader's bridge asks of Qt): each box an accessible element with its name and state, what
the rules say of it and what activating it does; activating it acts; focus, changes and
refusals announced. End to end through AT-SPI: ``test_sheet_atspi.py``."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAccessible, QAccessibleActionInterface
from PySide6.QtWidgets import QApplication

from shipsheet.model.games import GAME_IDS
from shipsheet.model.words import READER, for_device
from shipsheet.ui import sheet_accessible

PRESS = QAccessibleActionInterface.pressAction()
SHOW_MENU = QAccessibleActionInterface.showMenuAction()
NAME, DESCRIPTION = QAccessible.Text.Name, QAccessible.Text.Description


def _sheet(window, qtbot, game: str):
    window.resize(1200, 800)
    window.show()
    assert window.open_sample(game)
    canvas = window.sheet_view.canvas
    qtbot.waitUntil(lambda: sheet_accessible._installed)  # as the sheet first shows
    iface = QAccessible.queryAccessibleInterface(canvas)
    assert iface is not None
    return canvas, iface


def _children(iface):
    return [iface.child(i) for i in range(iface.childCount())]


def _by_name(iface, start: str):
    return next(c for c in _children(iface) if c.text(NAME).startswith(start))


@pytest.mark.parametrize("game", list(GAME_IDS))
def test_every_box_of_the_sheet_is_an_accessible_element_with_the_rules_words(window, qtbot, game):
    """Before: the sheet was one picture to a screen reader (no children at all)."""
    canvas, iface = _sheet(window, qtbot, game)
    ship = window.doc.current_ship
    assert iface.text(NAME) == f"Sheet of {ship.name}"
    areas = canvas.reading_order()
    boxes = _children(iface)
    assert len(boxes) == len(areas) > 0
    for area, box in zip(areas, boxes):
        assert box.isValid()
        assert box.parent().text(NAME) == iface.text(NAME)
        assert iface.indexOfChild(box) == areas.index(area)
        name = box.text(NAME)
        assert name.startswith(for_device(area.label, READER))  # the phone's one label source
        if area.state:
            assert area.state in name
        assert "lick" not in name + box.text(DESCRIPTION)  # a screen reader activates
        assert not box.rect().isEmpty()
        if area.click is not None or area.refusal:
            assert PRESS in box.actionNames()
        if area.has_menu():
            assert SHOW_MENU in box.actionNames()
            assert box.state().hasPopup


def test_a_war_in_space_box_reads_its_state_and_what_activating_it_does(window, qtbot):
    canvas, iface = _sheet(window, qtbot, "war-in-space")
    box = _by_name(iface, "Reactor box 1 of 4")
    assert box.text(NAME) == "Reactor box 1 of 4: unmarked"
    assert box.role() == QAccessible.Role.Button
    assert box.localizedActionDescription(PRESS).startswith("Activate to mark damage")
    assert box.keyBindingsForAction(PRESS) == ["Space"]


def test_activating_a_box_through_its_accessible_action_marks_it_and_announces_it(window, qtbot):
    """Press, as a screen reader's "activate" sends it: one change, one undo step, the box
    reads its new state, the change is announced in the log's words; undo is announced too."""
    canvas, iface = _sheet(window, qtbot, "war-in-space")
    session = window.doc.session
    steps = session.undo_status().steps
    box = _by_name(iface, "Reactor box 1 of 4")
    box.doAction(PRESS)
    qtbot.waitUntil(lambda: session.undo_status().steps == steps + 1, timeout=2000)
    box = _by_name(iface, "Reactor box 1 of 4")
    assert box.text(NAME) != "Reactor box 1 of 4: unmarked"
    assert canvas.focused_area().key == box.area().key
    headline = next(e.text for e in session.log[window.doc.last_change.entries] if e.kind == "action")
    assert iface.announced[-1] == headline
    window.act_undo.trigger()
    assert iface.announced[-1].startswith("Undone: ")
    assert _by_name(iface, "Reactor box 1 of 4").text(NAME) == "Reactor box 1 of 4: unmarked"


def test_focus_follows_the_keyboard_and_the_box_says_it_is_focused(window, qtbot):
    canvas, iface = _sheet(window, qtbot, "fedcom")
    canvas.setFocus()
    first = canvas.reading_order()[0]
    canvas.focus_area(first)
    focused = iface.focusChild()
    assert focused is not None and focused.state().focused
    assert focused.text(NAME) == iface.child(0).text(NAME)
    assert not iface.child(1).state().focused


def test_a_refused_activation_is_announced_as_a_refusal(window, qtbot):
    """A box the rules refuse says why in its description and action, and activating it
    announces the refusal (what the mouse user reads beside the box)."""
    canvas, iface = _sheet(window, qtbot, "triplanetary")
    refused = next(a for a in canvas.reading_order() if a.refusal)
    box = next(c for c in _children(iface) if c.area() is refused or c.area().key == refused.key)
    assert "Can't:" in box.text(DESCRIPTION)
    assert box.localizedActionDescription(PRESS).startswith("Can't:")
    box.doAction(PRESS)
    qtbot.waitUntil(lambda: bool(iface.announced), timeout=2000)
    assert iface.announced[-1] == refused.refusal


def test_the_menu_action_opens_the_boxes_menu(window, qtbot, monkeypatch):
    canvas, iface = _sheet(window, qtbot, "triplanetary")
    shown = []
    monkeypatch.setattr(canvas, "show_menu", lambda area, pos: shown.append((area.key, pos)))
    area = next(a for a in canvas.reading_order() if a.has_menu() and a.menu)
    box = next(c for c in _children(iface) if c.area().key == area.key)
    assert box.localizedActionDescription(SHOW_MENU).startswith("Open its menu: ")
    box.doAction(SHOW_MENU)
    qtbot.waitUntil(lambda: bool(shown), timeout=2000)
    key, pos = shown[0]
    assert key == area.key                                        # the box's own menu
    assert box.rect().adjusted(-1, -1, 1, 1).contains(pos)        # opened at the box
    assert canvas.focused_area().key == area.key


def test_another_ships_sheet_has_its_own_boxes_and_the_old_ones_go(window, qtbot):
    canvas, iface = _sheet(window, qtbot, "fedcom")
    doc = window.doc
    before = [c.text(NAME) for c in _children(iface)]
    other = next(s for s in doc.session.ships if s.id != doc.current_ship.id)
    doc.select(other.id)
    qtbot.wait(1)
    assert iface.text(NAME) == f"Sheet of {other.name}"
    assert len(_children(iface)) == len(canvas.reading_order())
    assert all(c.isValid() for c in _children(iface))
    assert [c.text(NAME) for c in _children(iface)] != before or other.ship_class == doc.session.ships[0].ship_class
    QApplication.processEvents()


EARLY_ASK = r"""
import sys
from PySide6.QtCore import QThread
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv)
QAccessible.setActive(True)  # as when a screen reader listens
from shipsheet.ui import sheet_accessible
from shipsheet.ui.main_window import MainWindow
window = MainWindow()
assert window.open_sample("war-in-space")
canvas = window.sheet_view.canvas
assert not sheet_accessible._installed
early = QAccessible.queryAccessibleInterface(canvas)  # asked before the window shows
assert early is not None and early.childCount() == 0, "a plain widget's interface"
window.resize(1200, 800)
window.show()
deadline = 200
while deadline and not QAccessible.queryAccessibleInterface(canvas).childCount():
    app.processEvents()
    QThread.msleep(10)
    deadline -= 1
iface = QAccessible.queryAccessibleInterface(canvas)
print(iface.childCount(), iface.text(QAccessible.Text.Name))
window.doc.mark_clean()
"""


def test_asked_before_its_first_paint_the_sheet_still_reads_its_boxes(tmp_path):
    """Nothing of the screen reader's sheet is loaded before the window's first frame; an
    assistive technology that asked for the canvas before then (and was given a plain
    widget's interface, which Qt keeps) finds the sheet's boxes once it has shown. In a
    process of its own: the factory, once installed, stays for the process."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SHIPSHEET_CONFIG_DIR=str(tmp_path),
               SHIPSHEET_STATE_DIR=str(tmp_path), SHIPSHEET_DATA_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", EARLY_ASK], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    count, name = done.stdout.strip().split(" ", 1)
    assert int(count) > 10 and name == "Sheet of Vigilant", done.stdout

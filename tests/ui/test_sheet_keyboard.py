"""The sheet from the keyboard (issue 31, item 7): Tab reaches it between the roster and the
actions, it rings its focused box, and the keys do what the mouse does there — arrows move
from box to box (kept in view), Space/Enter click, the Menu key and Shift+F10 open the box's
menu, the box's tooltip shows, Ctrl+plus/minus/0 zoom; Tab moves on to the actions.

Real key events, sent to the widget that has the focus, as a user's keyboard would."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolTip

from shipsheet.model.paths import resources_dir
from shipsheet.model.storage import session_to_data

GAMES = ("fedcom", "triplanetary", "war-in-space")
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier


def _open(window, game="triplanetary"):
    assert window.open_path(str(resources_dir() / "samples" / f"{game}.shipsheet"))
    window.resize(1366, 768)
    window.show()
    window.activateWindow()
    QApplication.processEvents()
    return window.sheet_view.canvas


def _key(key, modifiers=Qt.KeyboardModifier.NoModifier):
    """Press ``key`` where the keyboard's focus is, and let it go where the focus is then (as
    a keyboard does: after Tab, the key comes up in the next widget)."""
    widget = QApplication.focusWidget()
    assert widget is not None
    QTest.keyPress(widget, key, modifiers)
    QTest.keyRelease(QApplication.focusWidget(), key, modifiers)
    return QApplication.focusWidget()


def _tab_to_sheet(window):
    """From the roster, Tab once: the sheet (with its first box focused)."""
    canvas = window.sheet_view.canvas
    window.roster.setFocus(Qt.FocusReason.MouseFocusReason)
    assert QApplication.focusWidget() is window.roster
    assert _key(Qt.Key.Key_Tab) is canvas
    return canvas


def _in_view(window, canvas, area) -> bool:
    """The box shows whole in the sheet's viewport."""
    viewport = window.sheet_view.viewport()
    ring = canvas._ring_rect(area)
    shown = QRect(canvas.mapTo(viewport, ring.topLeft()), ring.size())
    return viewport.rect().contains(shown)


def _in_panel(window, widget) -> bool:
    return widget is window.panel or window.panel.isAncestorOf(widget)


def test_tab_goes_roster_sheet_actions_and_shift_tab_back(window):
    canvas = _open(window)
    canvas.setFocus()
    _tab_to_sheet(window)
    assert canvas.hasFocus()
    assert _in_panel(window, _key(Qt.Key.Key_Tab))                  # on to the actions
    assert _key(Qt.Key.Key_Backtab, SHIFT) is canvas                 # back to the sheet
    assert _key(Qt.Key.Key_Backtab, SHIFT) is window.roster          # and the roster


def test_tab_into_the_sheet_rings_its_first_box_in_view_and_says_what_it_is(window):
    canvas = _open(window)
    messages, moved = [], []
    canvas.status_message.connect(messages.append)
    canvas.focus_moved.connect(moved.append)
    window.sheet_view.verticalScrollBar().setValue(window.sheet_view.verticalScrollBar().maximum())
    _tab_to_sheet(window)
    area = canvas.focused_area()
    assert area is not None and area is canvas.reading_order()[0]
    assert moved == [area]
    assert _in_view(window, canvas, area)                            # scrolled back to it
    assert messages and messages[-1].startswith(area.tooltip.splitlines()[0])
    assert QToolTip.isVisible() and area.tooltip.splitlines()[0] in _tip_text()
    # The ring shows: the highlight colour on the ring's line, beside the box.
    image = canvas.grab().toImage()
    ring = canvas._ring_rect(area)
    assert _is_ring_colour(image.pixelColor(ring.center().x(), ring.top()), canvas)
    window.grab().save("/tmp/keyboard_focus.png")


def _tip_text() -> str:
    """The tooltip showing, as plain text (it is shown as rich text)."""
    from PySide6.QtGui import QTextDocument
    doc = QTextDocument()
    doc.setHtml(QToolTip.text())
    return doc.toPlainText()


def _is_ring_colour(colour: QColor, canvas) -> bool:
    from shipsheet.ui.sheet_view import theme_for
    want = canvas._ring_colour(theme_for(canvas))
    return max(abs(colour.red() - want.red()), abs(colour.green() - want.green()),
               abs(colour.blue() - want.blue())) < 40


def test_the_ring_stands_out_on_dark_paper(window):
    from shipsheet.ui.palette import dark_palette
    window.setPalette(dark_palette())
    canvas = _open(window, "fedcom")
    _tab_to_sheet(window)
    area = canvas.focused_area()
    image = canvas.grab().toImage()
    ring = canvas._ring_rect(area)
    line = image.pixelColor(ring.center().x(), ring.top())
    paper = image.pixelColor(2, 2)
    assert paper.lightness() < 80 and _is_ring_colour(line, canvas)
    assert line.lightness() - paper.lightness() > 60
    window.grab().save("/tmp/keyboard_focus_dark.png")
    window.doc.mark_clean()


@pytest.mark.parametrize("game", GAMES)
def test_arrows_move_box_to_box_and_keep_it_in_view(window, game):
    canvas = _open(window, game)
    window.resize(1000, 600)  # the sheet taller than its pane: moving must scroll
    QApplication.processEvents()
    _tab_to_sheet(window)
    order = canvas.reading_order()
    moved = []
    canvas.focus_moved.connect(moved.append)
    seen = [canvas.focused_area().key]
    for _ in range(len(order) - 1):                                  # Right visits every box
        assert _key(Qt.Key.Key_Right) is canvas
        area = canvas.focused_area()
        seen.append(area.key)
        assert _in_view(window, canvas, area), area.key
    assert seen == [a.key for a in order]
    assert [a.key for a in moved] == seen[1:]
    _key(Qt.Key.Key_Home)
    assert canvas.focused_area().key == order[0].key and _in_view(window, canvas, order[0])
    _key(Qt.Key.Key_Down)                                            # a box further down
    below = canvas.focused_area()
    assert below.rect.center().y() > order[0].rect.bottom()
    _key(Qt.Key.Key_Up)
    assert canvas.focused_area().rect.center().y() < below.rect.top()
    _key(Qt.Key.Key_End)
    last = canvas.focused_area()
    assert last.key == order[-1].key and _in_view(window, canvas, last)
    _key(Qt.Key.Key_Left)
    assert canvas.focused_area().key == order[-2].key
    assert _key(Qt.Key.Key_Tab) is not canvas                        # Tab is not a box move
    assert canvas.focused_area().key == order[-2].key


def test_down_goes_to_the_box_below_not_the_one_beside(window):
    """On the Triplanetary sheet the counter has the damage-roll table beside it: Down from the
    counter goes to the first weapon box below it, and on down the column."""
    canvas = _open(window, "triplanetary")
    _tab_to_sheet(window)
    assert canvas.focused_area().key == "counter"
    keys = [_key(Qt.Key.Key_Down) and canvas.focused_area().key for _ in range(3)]
    assert keys == ["weapon:0", "drive:0", "structure:0"]
    assert [_key(Qt.Key.Key_Up) and canvas.focused_area().key for _ in range(3)] == [
        "drive:0", "weapon:0", "counter"]


def _first_clickable(window, canvas):
    """Move the focus with Right to the first box a click changes."""
    for _ in range(len(canvas.reading_order())):
        area = canvas.focused_area()
        if area.click is not None and not area.refusal:
            return area
        _key(Qt.Key.Key_Right)
    raise AssertionError("no box to click")


@pytest.mark.parametrize("key", [Qt.Key.Key_Space, Qt.Key.Key_Return])
def test_space_or_enter_is_the_click_one_undo_step(window, qtbot, key):
    canvas = _open(window, "triplanetary")
    session = window.doc.session
    _tab_to_sheet(window)
    area = _first_clickable(window, canvas)
    box, name = area.key, area.click().name
    steps = session.undo_status().steps
    logged = len(session.log)
    _key(key)
    assert session.undo_status().undo == name
    assert session.undo_status().steps == steps + 1
    assert len(session.log) > logged
    by_key = session_to_data(session, with_log=False)
    window.doc.undo(session.undo_status().step)
    # The mouse on the same box makes the same change.
    centre = canvas._centre_of(canvas._area_for(box)).toPoint()
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=centre)
    assert session.undo_status().undo == name
    assert session_to_data(session, with_log=False) == by_key
    window.doc.mark_clean()


def test_the_focus_stays_on_its_box_through_a_click_and_the_next_arrow_goes_on(window):
    canvas = _open(window, "fedcom")
    _tab_to_sheet(window)
    area = _first_clickable(window, canvas)
    box = area.key
    order = [a.key for a in canvas.reading_order()]
    _key(Qt.Key.Key_Space)
    assert canvas.painter.areas and canvas.focused_area().key == box  # a redrawn sheet
    assert canvas.last_repaint is not None                           # drawn in part (issue 28)
    _key(Qt.Key.Key_Right)
    assert canvas.focused_area().key == order[order.index(box) + 1]
    window.doc.mark_clean()


def test_moving_the_focus_repaints_the_old_ring_and_the_new(window, monkeypatch):
    canvas = _open(window, "triplanetary")
    _tab_to_sheet(window)
    old = canvas._ring_rect(canvas.focused_area())
    updated = []
    original = type(canvas).update

    def record(self, *args):
        updated.append(args[0] if args else self.rect())
        return original(self, *args)
    monkeypatch.setattr(type(canvas), "update", record)
    _key(Qt.Key.Key_Right)
    new = canvas._ring_rect(canvas.focused_area())
    assert any(r.contains(old) for r in updated) and any(r.contains(new) for r in updated)
    assert all(r != canvas.rect() for r in updated)                  # not the whole sheet
    monkeypatch.undo()
    # And what shows is the ring on the new box only.
    image = canvas.grab().toImage()
    assert _is_ring_colour(image.pixelColor(new.center().x(), new.top()), canvas)
    assert not _is_ring_colour(image.pixelColor(old.left(), old.center().y()), canvas)


@pytest.mark.parametrize("keys", [(Qt.Key.Key_Menu, Qt.KeyboardModifier.NoModifier),
                                  (Qt.Key.Key_F10, SHIFT)])
def test_the_menu_key_and_shift_f10_open_the_focused_boxs_menu(window, monkeypatch, keys):
    canvas = _open(window, "war-in-space")
    shown = []
    build = type(canvas).build_menu

    def building(self, area):  # QMenu.exec patched on the class is not seen (PySide6 6.11)
        menu = build(self, area)
        if menu is not None:
            menu.exec = lambda *args: shown.append(
                (menu, [a.text() for a in menu.actions()], args))
        return menu
    monkeypatch.setattr(type(canvas), "build_menu", building)
    _tab_to_sheet(window)
    for _ in range(len(canvas.reading_order())):
        if canvas.focused_area().has_menu():
            break
        _key(Qt.Key.Key_Right)
    area = canvas.focused_area()
    assert area.has_menu()
    _key(*keys)
    assert len(shown) == 1
    menu, labels, args = shown[0]
    assert labels == [a.text() for a in build(canvas, area).actions()]  # the right-click's
    ring = canvas._ring_rect(area)
    at = canvas.mapFromGlobal(args[0])
    assert ring.adjusted(-2, -2, 2, 2).contains(at)                  # at the box


def test_ctrl_plus_minus_and_zero_zoom_from_the_sheet(window):
    canvas = _open(window, "triplanetary")
    _tab_to_sheet(window)
    start = canvas.zoom
    _key(Qt.Key.Key_Plus, CTRL)
    assert canvas.zoom > start
    _key(Qt.Key.Key_Equal, CTRL)                                     # Ctrl+= too (no Shift)
    bigger = canvas.zoom
    assert bigger > start
    _key(Qt.Key.Key_Minus, CTRL)
    assert canvas.zoom < bigger
    _key(Qt.Key.Key_0, CTRL)
    assert canvas.zoom == 1.0
    assert canvas.hasFocus() and _in_view(window, canvas, canvas.focused_area())


def test_focus_area_is_the_screen_readers_way_in(window):
    """``focus_area`` (for sheet_accessible): the sheet takes the focus, the box its ring, in
    view, and ``focus_moved`` says so; the same box again says nothing new."""
    canvas = _open(window, "fedcom")
    window.roster.setFocus()
    moved = []
    canvas.focus_moved.connect(moved.append)
    last = canvas.reading_order()[-1]
    canvas.focus_area(last)
    assert canvas.hasFocus() and canvas.focused_area() is last and moved == [last]
    assert _in_view(window, canvas, last)
    canvas.focus_area(last)
    assert moved == [last]

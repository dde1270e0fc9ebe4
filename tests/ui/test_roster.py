"""The roster at the table: as many status words as the Status column holds, whole, then
"+N" for the rest (cut short with "…" only when not even the first fits), all of them in
the tooltip; Ctrl+Up/Down moves the one selected ship.

The FedCom sample's Lance reads "Crippled", "Frame 1/3", "Shield #1 down" (the game's
order of importance, ``status_chips``).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtTest import QTest

from shipsheet.ui.roster import CHIP_GAP, CHIP_PAD, LEFT, RIGHT, RosterView

LANCE = ["Crippled", "Frame 1/3", "Shield #1 down"]


@pytest.fixture
def roster(window, qtbot):
    """A roster of the FedCom sample on its own, its Status column as wide as a test says."""
    assert window.open_sample("fedcom")
    view = RosterView(window.doc)
    qtbot.addWidget(view)
    view.header().setStretchLastSection(False)
    view.resize(700, 260)
    view.show()
    qtbot.waitExposed(view)
    return view


def drawn(view, ship_id, status_width):
    """The status words the roster draws for a ship with the Status column this wide."""
    view.setColumnWidth(2, status_width)
    view.grab()                                       # paint now
    return view.chip_delegate.shown.get(ship_id)


def chip(fm, text):
    return fm.horizontalAdvance(text) + CHIP_PAD


def test_the_status_words_that_fit_in_order_then_a_count_of_the_rest(window, roster):
    lance = window.doc.session.ship("Lance")
    item = roster.item_for(lance.id)
    assert window.doc.session.rules.status_chips(lance) == LANCE
    assert item.toolTip(2) == "Crippled, Frame 1/3, Shield #1 down"   # all of them, always
    fm = QFontMetrics(roster.font())
    two = LEFT + chip(fm, LANCE[0]) + CHIP_GAP + chip(fm, LANCE[1]) + CHIP_GAP + RIGHT

    assert drawn(roster, lance.id, two + chip(fm, LANCE[2]) + 10) == LANCE      # room for all
    # Half of "Shield #1 down" fits: the first two whole, then "+1", never a word cut short
    # (issue 31: "Weap…", "Can't…" at 1366 × 768).
    assert drawn(roster, lance.id, two + chip(fm, LANCE[2]) // 2) == LANCE[:2] + ["+1"]
    # Room for "Crippled" and part of "Frame 1/3": "Crippled", "+2".
    words = drawn(roster, lance.id, LEFT + chip(fm, LANCE[0]) + CHIP_GAP + chip(fm, "Fra…") + RIGHT + 1)
    assert words == ["Crippled", "+2"]
    # Not even the first word whole: it is cut short, nothing else shows.
    words = drawn(roster, lance.id, LEFT + chip(fm, "Crip…") + RIGHT + 1)
    assert words == ["Crip…"]
    for width in (60, 120, 200, 260):                 # what is drawn stays inside the cell
        words = drawn(roster, lance.id, width)
        used = LEFT + sum(chip(fm, w) for w in words) + CHIP_GAP * (len(words) - 1) + RIGHT
        assert used <= width


def ship_rows(window):
    return [i.data(0, Qt.ItemDataRole.UserRole) for i in window.roster.ship_items()]


def test_ctrl_down_and_up_move_the_one_selected_ship(window, qtbot):
    """Issue 17: Ctrl+Down in the roster selected several ships. It moves the current ship:
    one ship selected, the one the sheet shows."""
    window.show()
    assert window.open_sample("fedcom")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    roster = window.roster
    roster.setFocus()
    ids = ship_rows(window)
    window.doc.select(ids[0])
    assert roster.selected_ship_ids() == [ids[0]]
    ctrl = Qt.KeyboardModifier.ControlModifier
    for expected in (ids[1], ids[2], ids[3]):
        QTest.keyClick(roster, Qt.Key.Key_Down, ctrl)
        assert window.doc.current_ship_id == expected
        assert roster.selected_ship_ids() == [expected]
        assert roster.currentItem().data(0, Qt.ItemDataRole.UserRole) == expected
        assert window.sheet_view.canvas.painter.ship.id == expected
    QTest.keyClick(roster, Qt.Key.Key_Up, ctrl)
    assert window.doc.current_ship_id == ids[2] and roster.selected_ship_ids() == [ids[2]]

    # Several picked with Ctrl+click (to print them): Ctrl+Down moves on to one ship.
    item = roster.item_for(ids[4])
    qtbot.mouseClick(roster.viewport(), Qt.MouseButton.LeftButton, ctrl,
                     roster.visualItemRect(item).center())
    assert sorted(roster.selected_ship_ids()) == sorted([ids[2], ids[4]])
    assert window.doc.current_ship_id == ids[4]
    QTest.keyClick(roster, Qt.Key.Key_Up, ctrl)
    assert roster.selected_ship_ids() == [ids[3]] and window.doc.current_ship_id == ids[3]


def test_a_change_updates_its_ships_row_and_rebuilds_only_when_a_row_moves(window, roster, monkeypatch):
    """A phone's tap on Hornet updates Hornet's row, in place: the other rows are the same
    items, nothing is rebuilt. A ship that changes side moves to its side's group."""
    from shipsheet.model.actions import SetSide
    from shipsheet.rules.fedcom import mark_shield_action
    doc = window.doc
    hornet = doc.session.ship("Hornet")
    rebuilt = []
    refresh = RosterView.refresh
    monkeypatch.setattr(RosterView, "refresh", lambda self: rebuilt.append(self) or refresh(self))
    items = roster.ship_items()

    assert doc.do(mark_shield_action(hornet, 2, hornet.ship_class.spec.shields[1]))
    now = roster.ship_items()
    assert roster not in rebuilt and len(now) == len(items) and all(a is b for a, b in zip(now, items))
    assert "Shield #2 down" in roster.item_for(hornet.id).toolTip(2)

    assert doc.do(SetSide(hornet, "Blue"))
    assert roster in rebuilt
    assert roster.item_for(hornet.id).parent().text(0) == "Blue"
    doc.mark_clean()


def test_no_status_word_is_cut_mid_word_at_1366_by_768(window, qtbot):
    """Issue 31: at 1366 × 768 the roster drew "Weap…" and "Can't…". Every sample ship's
    words are drawn whole (or counted, "+2"), and the tooltip has them all."""
    window.resize(1366, 768)
    window.show()
    for game in ("war-in-space", "triplanetary", "fedcom"):
        assert window.open_sample(game)
        roster = window.roster
        roster.grab()
        for ship in window.doc.session.ships:
            full = window.doc.session.rules.status_chips(ship)
            shown = roster.chip_delegate.shown.get(ship.id, [])
            whole = [w for w in shown if not w.startswith("+")]
            assert whole == full[:len(whole)] and (shown or not full), (ship.name, shown)
            assert shown == full or shown[-1] == f"+{len(full) - len(whole)}", (ship.name, shown)
            assert roster.item_for(ship.id).toolTip(2) == (", ".join(full) or "No status to report")
        window.doc.mark_clean()

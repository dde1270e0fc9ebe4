"""The log dock at the table: it opens at the newest line and stays there while the user
reads there, filters by turn as well as by ship, copies text an e-mail can carry (72
columns, hanging indent), and keeps undone lines readable in light and dark.

The FedCom sample (``resources/samples/fedcom.shipsheet``) has a log of turns 1 and 2
whose volley lines run to 200 columns.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from shipsheet.model import NextPhase, RenameShip
from shipsheet.ui.log_view import WRAP_COLUMNS, wrap_log_line
from shipsheet.ui.palette import is_dark


@pytest.fixture
def shown(window, qtbot):
    """The window on screen with the FedCom sample open (the log dock laid out)."""
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_sample("fedcom")
    qtbot.waitUntil(lambda: window.log_view.list.verticalScrollBar().maximum() > 0, timeout=2000)
    return window


def shown_lines(log):
    return [log.list.item(i).text() for i in range(log.list.count())]


def last_line_in_view(log) -> bool:
    lst = log.list
    rect = lst.visualItemRect(lst.item(lst.count() - 1))
    return lst.viewport().rect().contains(rect.center())


def test_the_log_opens_at_its_newest_line_and_follows_it_while_the_user_reads_there(shown, qtbot):
    log = shown.log_view
    bar = log.list.verticalScrollBar()
    assert log.list.count() == len(shown.doc.session.log) > 100
    assert bar.value() == bar.maximum() > 0 and last_line_in_view(log)   # not at turn 1's top

    ship = shown.doc.session.ships[0]
    shown.doc.do(RenameShip(ship, "Resolute II"))
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() and last_line_in_view(log), timeout=2000)
    assert log.list.item(log.list.count() - 1).text().endswith("Resolute is now Resolute II")

    bar.setValue(bar.maximum() // 2)                  # the user scrolls up to read turn 1
    top = log.list.indexAt(log.list.viewport().rect().topLeft()).row()
    shown.doc.do(RenameShip(ship, "Resolute III"))    # (renamed: every line is drawn again)
    shown.doc.do(NextPhase())
    QApplication.processEvents()
    assert log.list.indexAt(log.list.viewport().rect().topLeft()).row() == top   # not moved
    assert not last_line_in_view(log)

    bar.setValue(bar.maximum())                       # back at the foot: followed again
    shown.doc.do(NextPhase())
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() and last_line_in_view(log), timeout=2000)


def test_the_log_filters_by_turn_and_by_ship_together(shown):
    log = shown.log_view
    session = shown.doc.session
    turns = [log.turn_filter.itemText(i) for i in range(log.turn_filter.count())]
    assert turns == ["All turns", "Turn 1", "Turn 2"]
    log.turn_filter.setCurrentIndex(log.turn_filter.findData(1))
    lines = shown_lines(log)
    assert lines and all(line.startswith("T1 ") for line in lines)
    assert len(lines) == sum(1 for e in session.log if e.turn == 1)

    lance = session.ship("Lance")
    log.filter.setCurrentIndex(log.filter.findData(lance.id))
    log.turn_filter.setCurrentIndex(log.turn_filter.findData(2))
    lines = shown_lines(log)
    assert lines and all(line.startswith("T2 ") and "Lance: " in line for line in lines)
    assert len(lines) == sum(1 for e in session.log if e.turn == 2 and e.ship == lance.id)
    log.copy_button.click()
    copied = QGuiApplication.clipboard().text().splitlines()
    heads = [line for line in copied if not line.startswith(" ")]
    assert len(heads) == len(lines) and all(h.startswith("T2 ") for h in heads)

    for _ in session.rules.phases:                    # on to turn 3: listed, the choice kept
        shown.doc.do(NextPhase())
    assert session.turn == 3
    assert log.turn_filter.itemText(log.turn_filter.count() - 1) == "Turn 3"
    assert log.turn_filter.currentText() == "Turn 2"
    log.turn_filter.setCurrentIndex(0)
    log.filter.setCurrentIndex(0)
    assert len(shown_lines(log)) == len(session.log)


def test_copy_as_text_wraps_at_72_columns_with_a_hanging_indent(shown):
    """An e-mail carries 72 columns: each entry's continuation lines hang under its text."""
    log = shown.log_view
    names = shown.doc.session.ship_names()
    entries = [e.plain(names) for e in shown.doc.session.log if not e.undone]
    assert max(map(len, entries)) > 150               # the sample's volley lines are long
    log.copy_button.click()
    text = QGuiApplication.clipboard().text()
    lines = text.splitlines()
    assert len(lines) > len(entries)
    assert all(len(line) <= WRAP_COLUMNS for line in lines)
    # Put back together, the copied lines are the log, word for word, entry by entry.
    blocks: list[list[str]] = []
    for line in lines:
        if re.match(r"T\d+ ", line):
            blocks.append([line])
        else:
            blocks[-1].append(line)
    assert len(blocks) == len(entries)
    for block, entry in zip(blocks, entries):
        assert " ".join(" ".join(block).split()) == " ".join(entry.split())
        text_starts = re.match(r"T\d+ [^|]*\| *", block[0]).end()
        for more in block[1:]:
            assert len(more) - len(more.lstrip(" ")) == text_starts   # under the entry's text
    point = next(b for b in blocks if "Volley 2, point 30:" in b[0])
    assert point == [
        "T2 Combat |     Lance: Volley 2, point 30: roll 3, row 3, column 10,",
        "                transporter/frame: frame (no transporter left; column",
        "                10's alternate is frame)",
    ]


def test_wrapping_keeps_box_names_whole_and_cuts_only_a_word_longer_than_a_line():
    head = "T1 Energy | "
    assert wrap_log_line(head + "short") == [head + "short"]
    lines = wrap_log_line(head + "a " * 27 + "forward-hull-1 hit")    # it would end at column 80
    assert lines == [head + ("a " * 27).rstrip(), " " * len(head) + "forward-hull-1 hit"]
    lines = wrap_log_line(head + "x" * 100 + " end")
    assert all(len(line) <= WRAP_COLUMNS for line in lines) and len(lines) == 2
    assert [line[len(head):] for line in lines] == ["x" * 60, "x" * 40 + " end"]


def on(colour: QColor, base: QColor) -> QColor:
    """``colour`` as it shows on ``base`` (a palette colour may be see-through)."""
    a = colour.alphaF()
    return QColor.fromRgbF(*(getattr(colour, c)() * a + getattr(base, c)() * (1 - a)
                             for c in ("redF", "greenF", "blueF")))


def colours(log):
    """(undone line's colour, an ordinary line's colour) as the list draws them now."""
    lst = log.list
    undone = next(lst.item(i) for i in range(lst.count()) if lst.item(i).toolTip() == "Undone")
    plain = lst.item(0)
    assert plain.data(Qt.ItemDataRole.ForegroundRole) is None    # drawn in the list's text colour
    return undone.foreground().color(), lst.palette().color(QPalette.ColorRole.Text)


def test_wide_characters_count_two_columns_as_in_the_turn_reports():
    """One wrapper for the log copied as text and the turn reports (``model.text``): a ship
    named in Chinese takes two columns a character, so a line of 72 columns is 36 of them."""
    from shipsheet.model.text import columns, wrap_columns
    from shipsheet.pbem.reports import wrap
    name = "长征号"
    line = "T1 Combat | " + " ".join([name + " hit"] * 12)
    lines = wrap_log_line(line)
    assert len(lines) > 1 and all(columns(piece) <= WRAP_COLUMNS for piece in lines)
    assert max(columns(piece) for piece in lines) > WRAP_COLUMNS - 8  # filled, not cut short
    assert any(len(piece) < columns(piece) for piece in lines)  # measured in columns, not chars
    assert wrap(" ".join([name + " hit"] * 12)) == wrap_columns(" ".join([name + " hit"] * 12),
                                                                72, "", "  ")


def test_undone_lines_are_greyed_from_the_current_palette_in_light_and_dark(shown):
    log = shown.log_view
    shown.doc.do(RenameShip(shown.doc.session.ships[0], "Resolute II"))
    shown.act_undo.trigger()
    try:
        seen = {}
        for appearance, dark in (("light", False), ("dark", True), ("light", False)):
            shown.appearance_actions[appearance].trigger()
            QApplication.processEvents()
            palette = log.list.palette()
            assert is_dark(palette) is dark
            undone, text = colours(log)
            assert undone == palette.color(QPalette.ColorRole.PlaceholderText)
            base = palette.color(QPalette.ColorRole.Base)
            undone, text = on(undone, base), on(text, base)
            assert undone.rgb() != text.rgb()
            # Readable (not near the background), yet greyer than the text.
            assert abs(undone.lightness() - base.lightness()) >= 80
            assert abs(undone.lightness() - base.lightness()) < abs(text.lightness() - base.lightness())
            seen.setdefault(appearance, undone.rgb())
        assert seen["light"] != seen["dark"]
    finally:
        shown.appearance_actions["system"].trigger()


def test_a_change_adds_its_lines_and_reads_no_older_entry(shown, monkeypatch):
    """After a change the list reads only the entries logged since (the filters, names and
    undone marks as they were): a long log costs a click nothing. An undo then marks its
    lines; past the list's last ``LINES`` the oldest lines leave it."""
    from shipsheet.model.log import LogEntry
    from shipsheet.rules.fedcom import mark_shield_action
    from shipsheet.ui import log_view

    log = shown.log_view
    session = shown.doc.session
    items = [log.list.item(i) for i in range(log.list.count())]
    read = []
    plain = LogEntry.plain
    monkeypatch.setattr(LogEntry, "plain", lambda self, *a: (read.append(self), plain(self, *a))[1])
    monkeypatch.setattr(log, "entries", lambda: pytest.fail("the whole log read again"))
    monkeypatch.setattr(log.filter, "clear", lambda: pytest.fail("the ship filter rebuilt"))
    ship = session.ships[0]
    assert shown.doc.do(mark_shield_action(ship, 1, 2))
    assert read and all(e in session.log[-len(read):] for e in read)
    assert [log.list.item(i) for i in range(len(items))] == items  # kept, not rebuilt
    assert shown_lines(log)[-1] == session.log[-1].plain(session.ship_names())
    monkeypatch.undo()  # from here the whole log may be read again

    shown.act_undo.trigger()  # an undo marks lines: the list looks again
    undone = [log.list.item(i) for i in range(log.list.count())
              if log.list.item(i).data(Qt.ItemDataRole.UserRole)]
    assert undone and undone[-1].text() == shown_lines(log)[-1]

    monkeypatch.setattr(log_view, "LINES", log.list.count() + 3)
    for n in range(5):
        assert shown.doc.do(mark_shield_action(ship, 1, 1 + n % 2))
    assert log.list.count() == log_view.LINES
    assert shown_lines(log)[-1] == session.log[-1].plain(session.ship_names())
    assert len(log._shown) == len(log._items) == log.list.count()
    shown.doc.mark_clean()

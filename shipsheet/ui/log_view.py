"""The log dock: every change, roll and phase, filterable by ship and by turn, copyable as
text (wrapped for an e-mail), kept scrolled to the newest line while the user reads there."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QVBoxLayout, QWidget)

from ..model.text import MAIL_COLUMNS, columns, wrap_columns
from .document import SessionDocument

#: The list shows at most this many lines: the newest.
LINES = 2000
#: "Copy as text" wraps at this many columns (a plain-text e-mail's line).
WRAP_COLUMNS = MAIL_COLUMNS
#: A continuation line is never indented more than this, so it always has room for words.
MAX_HANG = WRAP_COLUMNS // 2
#: The head of a log line as ``LogEntry.plain`` writes it: "T2 Combat | ", then the
#: indent of a roll or detail line.
_HEAD = re.compile(r"T\d+ [^|\n]*\| *")


def wrap_log_line(line: str, width: int = WRAP_COLUMNS) -> list[str]:
    """One log line as lines of at most ``width`` columns (wide characters count two), for
    an e-mail (``model.text.wrap_columns``, the turn reports' wrapper too).

    Continuation lines hang under the entry's text (after "T2 Combat | " and a detail
    line's indent), so the turn and phase column stays clear and each entry reads as one
    block. Words are not split at hyphens ("forward-hull-1" stays whole); only a word
    longer than a whole line is cut.
    """
    head = _HEAD.match(line)
    hang = min(head.end() if head else 4, MAX_HANG)
    if columns(line) <= width and "\n" not in line:
        return [line]
    prefix, body, indent = line[:hang], line[hang:], " " * hang
    out: list[str] = []
    for n, paragraph in enumerate(body.split("\n")):
        out += wrap_columns(paragraph, width, prefix if n == 0 else indent, indent)
    return [piece.rstrip() for piece in out]


class LogView(QWidget):
    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.filter = QComboBox()
        self.filter.setAccessibleName("Show log of")
        self.filter.setToolTip("Show the log of one ship, or of all")
        self.filter.currentIndexChanged.connect(self.refresh)
        self.turn_filter = QComboBox()
        self.turn_filter.setAccessibleName("Show log of turn")
        self.turn_filter.setToolTip("Show the log of one turn, or of all")
        self.turn_filter.currentIndexChanged.connect(self.refresh)
        self.show_undone = QCheckBox("Show undone")
        self.show_undone.setChecked(True)
        self.show_undone.toggled.connect(self.refresh)
        self.copy_button = QPushButton("Copy as text")
        self.copy_button.setToolTip("Copy the shown log as plain text, wrapped at "
                                    f"{WRAP_COLUMNS} columns (undone changes left out), e.g. "
                                    "for a PBEM turn report")
        self.copy_button.clicked.connect(self.copy_text)
        self.list = QListWidget()
        self.list.setAccessibleName("Log")
        # One line per entry, of one height: the list lays out in constant time, so
        # a log of thousands of lines costs nothing per change (long lines scroll sideways).
        self.list.setWordWrap(False)
        self.list.setUniformItemSizes(True)
        # Follow the newest line while the user is at the foot of the log (it opens there);
        # once they scroll up to read, new lines do not pull them down.
        self._follow = True
        self._quiet = False  # True while the list is rebuilt: its scrolling is not the user's
        self._view: tuple = ()  # the filters the list shows
        bar_widget = self.list.verticalScrollBar()
        bar_widget.rangeChanged.connect(self._range_changed)
        bar_widget.valueChanged.connect(self._scrolled)
        bar = QHBoxLayout()
        label = QLabel("&Ship:")
        label.setBuddy(self.filter)
        bar.addWidget(label)
        bar.addWidget(self.filter, 1)
        turn_label = QLabel("&Turn:")
        turn_label.setBuddy(self.turn_filter)
        bar.addWidget(turn_label)
        bar.addWidget(self.turn_filter)
        bar.addWidget(self.show_undone)
        bar.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.list)
        self._shown: list = []  # the entries on show, in order
        self._ship_items: list | None = None  # the ship filter's (name, id) pairs
        #: What the list has read: the log, how far, and the session's count of undone
        #: marks then (``Session.log_marks``): while they stay, only new entries are read.
        self._read: tuple = (None, 0, 0)
        self._items: list[QListWidgetItem] = []
        self._names: dict = {}
        self._undone_colour = None  # the colour undone lines were given (from the palette)
        self._turns: set[int] = set()  # the turns the log has lines of, read so far
        self._turns_read = 0
        doc.changed.connect(self._on_change)
        self._refresh_filter()
        self.refresh()

    def _on_change(self) -> None:
        self._refresh_filter()
        self.refresh()

    def _refresh_filter(self) -> None:
        ships = [(ship.name, ship.id) for ship in self.doc.session.ships]
        if ships != self._ship_items:  # a ship came, went or was renamed
            self._ship_items = ships
            self._refresh_ship_filter()
        self._refresh_turn_filter()

    def _refresh_ship_filter(self) -> None:
        current = self.filter.currentData()
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.addItem("All ships", None)
        for ship in self.doc.session.ships:
            self.filter.addItem(ship.name, ship.id)
        index = self.filter.findData(current)
        self.filter.setCurrentIndex(max(0, index))
        self.filter.blockSignals(False)

    def _refresh_turn_filter(self) -> None:
        session = self.doc.session
        log = session.log
        if len(log) < self._turns_read:  # (a log never shrinks; a replaced one is read again)
            self._turns, self._turns_read = set(), 0
        self._turns.update(e.turn for e in log[self._turns_read:])
        self._turns_read = len(log)
        turns = sorted(self._turns | {session.turn})
        current = self.turn_filter.currentData()
        if [self.turn_filter.itemData(i) for i in range(self.turn_filter.count())] == [None] + turns:
            return  # the same turns: leave the combo (and its open list) alone
        self.turn_filter.blockSignals(True)
        self.turn_filter.clear()
        self.turn_filter.addItem("All turns", None)
        for turn in turns:
            self.turn_filter.addItem(f"Turn {turn}", turn)
        self.turn_filter.setCurrentIndex(max(0, self.turn_filter.findData(current)))
        self.turn_filter.blockSignals(False)

    def entries(self):
        """The log's entries the filters let through (ship and turn), undone ones included."""
        ship = self.filter.currentData()
        turn = self.turn_filter.currentData()
        return [e for e in self.doc.session.log
                if (ship is None or e.ship == ship) and (turn is None or e.turn == turn)]

    def refresh(self) -> None:
        """Show the log. After an ordinary change only the new lines are added and the
        undone marks updated; the list is rebuilt only when the filter or history differs."""
        session = self.doc.session
        names = session.ship_names()
        view = (self.filter.currentData(), self.turn_filter.currentData(),
                self.show_undone.isChecked())
        log, read, marks = self._read
        if (log is session.log and read <= len(log) and marks == session.log_marks
                and view == self._view and names == self._names):
            self._add_new(names, view, log[read:])  # a change: its lines are all there is new
            return
        self._read = (session.log, len(session.log), session.log_marks)
        shown = [e for e in self.entries() if self.show_undone.isChecked() or not e.undone][-LINES:]
        rebuilt, anchor = False, None
        if (len(shown) >= len(self._shown) and self._names == names
                and all(a is b for a, b in zip(self._shown, shown))):
            for item, entry in zip(self._items, shown):
                if item.data(Qt.ItemDataRole.UserRole) != entry.undone:
                    self._style(item, entry)
            new = shown[len(self._shown):]
        else:
            # Another filter shows its newest lines; the same view rebuilt (a rename, an
            # undo) keeps the reader where they were: at the foot, or at the same top line.
            rebuilt = True
            self._follow = self._follow or view != self._view
            anchor = None if self._follow else self._top_entry()
            self._quiet = True
            self.list.clear()
            self._items = []
            new = shown
        self.list.setUpdatesEnabled(False)
        self._append(new, names)
        self.list.setUpdatesEnabled(True)
        self._quiet = False
        self._shown = shown
        self._names = names
        self._view = view
        if self._follow:
            if new:
                self.list.scrollToBottom()
        elif rebuilt and anchor is not None:
            row = next((i for i, e in enumerate(shown) if e is anchor), None)
            if row is not None:
                self.list.scrollToItem(self._items[row], QAbstractItemView.ScrollHint.PositionAtTop)

    def _append(self, entries: list, names: dict) -> None:
        """A line for each of ``entries`` at the list's foot (the caller holds the list's
        updates meanwhile, so it repaints once)."""
        for entry in entries:
            item = QListWidgetItem(entry.plain(names))
            self._style(item, entry)
            self.list.addItem(item)
            self._items.append(item)

    def _add_new(self, names: dict, view: tuple, entries: list) -> None:
        """Add the lines of the entries logged since the list last read the log (the view,
        the names and every undone mark as they were), the oldest dropped past ``LINES``."""
        session = self.doc.session
        self._read = (session.log, len(session.log), session.log_marks)
        ship, turn, undone = view
        new = [e for e in entries if (ship is None or e.ship == ship)
               and (turn is None or e.turn == turn) and (undone or not e.undone)]
        if not new:
            return
        self.list.setUpdatesEnabled(False)
        self._append(new, names)
        self._shown.extend(new)
        excess = len(self._shown) - LINES
        if excess > 0:
            self._quiet = True
            for _ in range(excess):
                self.list.takeItem(0)
            self._quiet = False
            del self._shown[:excess], self._items[:excess]
        self.list.setUpdatesEnabled(True)
        if self._follow:
            self.list.scrollToBottom()

    def _top_entry(self):
        """The entry of the topmost line in view (None when the list is empty)."""
        row = self.list.indexAt(QPoint(1, 1)).row()
        return self._shown[row] if 0 <= row < len(self._shown) else None

    # -- following the newest line ----------------------------------------------------------
    def _range_changed(self, _low: int, high: int) -> None:
        """The list grew (new lines, or laid out for the first time): keep to its foot."""
        if self._follow and not self._quiet:
            self.list.verticalScrollBar().setValue(high)

    def _scrolled(self, value: int) -> None:
        """The user scrolled (or the list did): at the foot, follow the newest line."""
        if not self._quiet:
            self._follow = value >= self.list.verticalScrollBar().maximum()

    # -- colours -----------------------------------------------------------------------------
    def undone_colour(self):
        """Undone lines: the palette's placeholder text colour (grey in light and in dark)."""
        # This widget's palette: on a change of appearance it is new before the list's is.
        return self.palette().color(QPalette.ColorRole.PlaceholderText)

    def changeEvent(self, event) -> None:
        """A new appearance (palette): colour the undone lines from it, all of them."""
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            if self._undone_colour is not None and self.undone_colour() != self._undone_colour:
                self._recolour()
        super().changeEvent(event)

    def _recolour(self) -> None:
        colour = self.undone_colour()
        for item in self._items:
            if item.data(Qt.ItemDataRole.UserRole):
                item.setForeground(colour)
        self._undone_colour = colour

    def _style(self, item: QListWidgetItem, entry) -> None:
        """Actions bold, undone lines struck through and greyed; the rest as the list draws
        them (nothing set: a log has thousands of plain lines, drawn in the palette's text
        colour whatever the appearance)."""
        bold, undone = entry.kind == "action", bool(entry.undone)
        if bold or undone or item.data(Qt.ItemDataRole.UserRole):
            font = item.font()
            font.setBold(bold)
            font.setStrikeOut(undone)
            item.setFont(font)
        if undone:
            self._undone_colour = self.undone_colour()
            item.setForeground(self._undone_colour)
            item.setToolTip("Undone")
        elif item.data(Qt.ItemDataRole.UserRole):  # was undone: back to the list's own colour
            item.setData(Qt.ItemDataRole.ForegroundRole, None)
            item.setToolTip("")
        item.setData(Qt.ItemDataRole.UserRole, undone)

    # -- text ----------------------------------------------------------------------------------
    def text(self) -> str:
        """The shown log (both filters) as plain text, undone changes left out, each entry
        wrapped at 72 columns with its continuation lines hanging under its text."""
        names = self.doc.session.ship_names()
        return "\n".join(line for e in self.entries() if not e.undone
                         for line in wrap_log_line(e.plain(names)))

    def copy_text(self) -> None:
        QGuiApplication.clipboard().setText(self.text())

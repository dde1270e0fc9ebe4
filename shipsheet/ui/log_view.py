"""The log dock: every change, roll and phase, filterable by ship, copyable as text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QVBoxLayout, QWidget)

from .document import SessionDocument


class LogView(QWidget):
    def __init__(self, doc: SessionDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.filter = QComboBox()
        self.filter.setAccessibleName("Show log of")
        self.filter.currentIndexChanged.connect(self.refresh)
        self.show_undone = QCheckBox("Show undone")
        self.show_undone.setChecked(True)
        self.show_undone.toggled.connect(self.refresh)
        self.copy_button = QPushButton("Copy as text")
        self.copy_button.setToolTip("Copy the shown log as plain text (undone changes left out), "
                                     "e.g. for a PBEM turn report")
        self.copy_button.clicked.connect(self.copy_text)
        self.list = QListWidget()
        self.list.setAccessibleName("Log")
        # One line per entry, of one height: the list lays out in constant time, so
        # a log of thousands of lines costs nothing per change (long lines scroll sideways).
        self.list.setWordWrap(False)
        self.list.setUniformItemSizes(True)
        bar = QHBoxLayout()
        label = QLabel("&Ship:")
        label.setBuddy(self.filter)
        bar.addWidget(label)
        bar.addWidget(self.filter, 1)
        bar.addWidget(self.show_undone)
        bar.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.list)
        self._shown: list = []  # the entries on show, in order
        self._items: list[QListWidgetItem] = []
        self._names: dict = {}
        doc.changed.connect(self._on_change)
        self._refresh_filter()
        self.refresh()

    def _on_change(self) -> None:
        self._refresh_filter()
        self.refresh()

    def _refresh_filter(self) -> None:
        current = self.filter.currentData()
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.addItem("All ships", None)
        for ship in self.doc.session.ships:
            self.filter.addItem(ship.name, ship.id)
        index = self.filter.findData(current)
        self.filter.setCurrentIndex(max(0, index))
        self.filter.blockSignals(False)

    def entries(self):
        ship = self.filter.currentData()
        return [e for e in self.doc.session.log if ship is None or e.ship == ship]

    def refresh(self) -> None:
        """Show the log. After an ordinary change only the new lines are added and the
        undone marks updated; the list is rebuilt only when the filter or history differs."""
        names = self.doc.session.ship_names()
        shown = [e for e in self.entries() if self.show_undone.isChecked() or not e.undone][-2000:]
        if (len(shown) >= len(self._shown) and self._names == names
                and all(a is b for a, b in zip(self._shown, shown))):
            for item, entry in zip(self._items, shown):
                if item.data(Qt.ItemDataRole.UserRole) != entry.undone:
                    self._style(item, entry)
            new = shown[len(self._shown):]
        else:
            self.list.clear()
            self._items = []
            new = shown
        self.list.setUpdatesEnabled(False)
        for entry in new:
            item = QListWidgetItem(entry.plain(names))
            self._style(item, entry)
            self.list.addItem(item)
            self._items.append(item)
        self.list.setUpdatesEnabled(True)
        self._shown = shown
        self._names = names
        if new:
            self.list.scrollToBottom()

    def _style(self, item: QListWidgetItem, entry) -> None:
        """Actions bold, undone lines struck through and greyed; the rest as the list draws
        them (nothing set: a log has thousands of plain lines)."""
        bold, undone = entry.kind == "action", bool(entry.undone)
        if bold or undone or item.data(Qt.ItemDataRole.UserRole):
            font = item.font()
            font.setBold(bold)
            font.setStrikeOut(undone)
            item.setFont(font)
        if undone:
            item.setForeground(self.palette().color(QPalette.ColorRole.PlaceholderText))
            item.setToolTip("Undone")
        elif item.data(Qt.ItemDataRole.UserRole):  # was undone: back to the list's own colour
            item.setData(Qt.ItemDataRole.ForegroundRole, None)
            item.setToolTip("")
        item.setData(Qt.ItemDataRole.UserRole, undone)

    def text(self) -> str:
        names = self.doc.session.ship_names()
        return "\n".join(e.plain(names) for e in self.entries() if not e.undone)

    def copy_text(self) -> None:
        QGuiApplication.clipboard().setText(self.text())

"""The log dock: every change, roll and phase, filterable by ship, copyable as text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont, QGuiApplication, QPalette
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
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(False)
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
        names = self.doc.session.ship_names()
        muted = self.palette().color(QPalette.ColorRole.PlaceholderText)
        self.list.setUpdatesEnabled(False)
        self.list.clear()
        shown = [e for e in self.entries() if self.show_undone.isChecked() or not e.undone]
        for entry in shown[-2000:]:
            item = QListWidgetItem(entry.plain(names))
            if entry.kind == "action":
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            if entry.undone:
                font = item.font()
                font.setStrikeOut(True)
                item.setFont(font)
                item.setForeground(QBrush(muted))
                item.setToolTip("Undone")
            self.list.addItem(item)
        self.list.setUpdatesEnabled(True)
        self.list.scrollToBottom()

    def text(self) -> str:
        names = self.doc.session.ship_names()
        return "\n".join(e.plain(names) for e in self.entries() if not e.undone)

    def copy_text(self) -> None:
        QGuiApplication.clipboard().setText(self.text())

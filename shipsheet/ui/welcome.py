"""The welcome view shown when no session is open."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QGridLayout, QHBoxLayout, QLabel, QListWidget, QListWidgetItem,
                               QMenu, QPushButton, QVBoxLayout, QWidget)

from ..model import GAME_IDS, GAME_TITLES
from .plaintext import rich
from .settings import recent_files


class WelcomeView(QWidget):
    new_ship = Signal()
    new_session = Signal()
    open_file = Signal()
    open_sample = Signal(str)  # game id
    open_recent = Signal(str)  # path
    new_class = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        title = rich(QLabel("<h1>ShipSheet</h1>"))
        subtitle = QLabel("Ship sheets for War In Space, Triplanetary and Federation Commander")
        subtitle.setWordWrap(True)
        buttons = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        specs = [
            ("new_ship", "New Ship…", "Pick a game and a ship class and start tracking it",
             self.new_ship.emit),
            ("new_session", "New Session…", "An empty session of one game, for many ships",
             self.new_session.emit),
            ("open", "Open…", "Open a .shipsheet file", self.open_file.emit),
            ("new_class", "New Class…", "Design a ship class of your own (Ship Designer)",
             self.new_class.emit),
        ]
        for i, (key, text, tip, slot) in enumerate(specs):
            button = QPushButton(text)
            button.setToolTip(tip)
            button.setMinimumHeight(36)
            button.clicked.connect(slot)
            buttons.addWidget(button, i, 0)
            self.buttons[key] = button
        sample = QPushButton("Open Sample Session")
        sample.setMinimumHeight(36)
        sample.setToolTip("A sample session of one of the games, two sides, ships in varied states")
        menu = QMenu(sample)
        for game in GAME_IDS:
            menu.addAction(GAME_TITLES[game], lambda g=game: self.open_sample.emit(g))
        sample.setMenu(menu)
        buttons.addWidget(sample, len(specs), 0)
        self.buttons["sample"] = sample

        self.recent = QListWidget()
        self.recent.setAccessibleName("Recent files")
        self.recent.itemActivated.connect(
            lambda item: self.open_recent.emit(item.data(Qt.ItemDataRole.UserRole)))
        recent_box = QVBoxLayout()
        recent_box.addWidget(rich(QLabel("<b>Recent files</b>")))
        recent_box.addWidget(self.recent)

        row = QHBoxLayout()
        row.addLayout(buttons, 1)
        row.addSpacing(24)
        row.addLayout(recent_box, 2)
        inner = QVBoxLayout()
        inner.addWidget(title)
        inner.addWidget(subtitle)
        inner.addSpacing(16)
        inner.addLayout(row)
        inner.addStretch(1)
        panel = QWidget()
        panel.setLayout(inner)
        panel.setMaximumWidth(760)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        outer.addWidget(panel, 4)
        outer.addStretch(1)
        self.refresh()

    def refresh(self) -> None:
        self.recent.clear()
        files = recent_files()
        for path in files:
            item = QListWidgetItem(f"{Path(path).name}   —   {Path(path).parent}")
            item.setData(Qt.ItemDataRole.UserRole, path)
            item.setToolTip(path)
            self.recent.addItem(item)
        if not files:
            item = QListWidgetItem("No recent files yet")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent.addItem(item)

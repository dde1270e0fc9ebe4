"""Skirmish's actions dock: the current ship's state and a button per track."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from .rules import TRACKS, mark_action, wrecked


class Panel(QWidget):
    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.status = QLabel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        self.buttons = {}
        for track in TRACKS:
            button = QPushButton(f"Mark {track}")
            button.clicked.connect(lambda _=False, t=track: self.mark(t))
            layout.addWidget(button)
            self.buttons[track] = button
        doc.changed.connect(self.refresh)
        doc.selection_changed.connect(self.refresh)
        self.refresh()

    def mark(self, track: str) -> bool:
        ship = self.doc.current_ship
        return ship is not None and self.doc.do(mark_action(ship, track))

    def refresh(self, *_args) -> None:
        ship = self.doc.current_ship
        if ship is None:
            self.status.setText("No ship selected.")
            return
        self.status.setText(f"{ship.name}: " + ("wrecked" if wrecked(ship) else
                            ", ".join(f"{t} {ship.state[t]}" for t in TRACKS)))

"""Skirmish's designer editor: two spin boxes, the track lengths."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QSpinBox

from shipsheet.ui.designer.editor_base import GameEditor
from shipsheet.ui.designer.widgets import ErrorLabel

from .rules import TRACKS


class SkirmishEditor(GameEditor):
    game = "skirmish"
    head_keys = TRACKS

    def __init__(self, parent=None):
        super().__init__(parent)
        self.spins = {}
        self.error = ErrorLabel()
        form = QFormLayout()
        for track in TRACKS:
            spin = QSpinBox()
            spin.setRange(1, 20)
            spin.valueChanged.connect(self.emit_changed)
            form.addRow(f"{track.title()} boxes:", spin)
            self.spins[track] = spin
        self.fill_scrolling(form, self.error)

    def load(self, data: dict) -> None:
        self._loading = True
        for track, spin in self.spins.items():
            value = data.get(track)
            spin.setValue(value if isinstance(value, int) and not isinstance(value, bool) else 1)
        self._loading = False

    def values(self) -> dict:
        return {track: spin.value() for track, spin in self.spins.items()}

    def locate(self, path: str):
        spin = self.spins.get(path.split(".")[0])
        return (spin, self.error) if spin is not None else None

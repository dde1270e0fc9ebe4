"""Skirmish's sheet: a title and one row of boxes per track; a click marks the next box
(what it does is ``boxes.py``'s answer)."""

from __future__ import annotations

from PySide6.QtCore import QRectF

from shipsheet.sheets.base import SheetPainter

from .boxes import track_key
from .rules import TRACKS, mark


class SkirmishSheet(SheetPainter):
    def draw(self, painter, theme) -> float:
        y = self.draw_title(painter, theme)
        ship = self.ship
        spec = ship.ship_class.spec
        for track in TRACKS:
            y = self.section(painter, theme, y, track)
            for i in range(spec.boxes(track)):
                rect = QRectF(self.margin + i * (self.box + 6), y, self.box, self.box)
                hit = i < ship.state[track]
                self.draw_box(painter, theme, rect, mark="x" if hit else "")
                if not hit and i == ship.state[track]:
                    self.add_box(rect, track_key(track, i))
            y += self.box + 12
        return y


SHEET = SkirmishSheet
__all__ = ["SHEET", "mark"]

"""Skirmish's sheet: a title and one row of boxes per track; a click marks the next box."""

from __future__ import annotations

from PySide6.QtCore import QRectF

from shipsheet.sheets.base import HitArea, SheetPainter

from .rules import TRACKS, mark, mark_action, wrecked


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
                refusal = None
                if not hit and i == ship.state[track]:
                    refusal = f"{ship.name} is wrecked: nothing more can be marked." if wrecked(ship) else None
                    click = None if refusal else (lambda t=track: mark_action(ship, t))
                    self.areas.append(HitArea(rect, f"{track}:{i}", f"{track} box {i + 1}", click, refusal))
            y += self.box + 12
        return y


SHEET = SkirmishSheet
__all__ = ["SHEET", "mark"]

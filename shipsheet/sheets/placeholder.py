"""A plain sheet for a ship whose game has no sheet of its own yet."""

from __future__ import annotations

import json

from PySide6.QtCore import QRectF, Qt

from .base import SheetPainter


class PlaceholderSheet(SheetPainter):
    """Title block and the ship's recorded state as text."""

    def draw(self, painter, theme):
        y = self.draw_title(painter, theme)
        y = self.section(painter, theme, y, "Recorded state")
        text = json.dumps(self.ship.state, indent=2, ensure_ascii=False)
        lines = text.splitlines()[:80]
        for line in lines:
            self.text(painter, QRectF(self.margin, y, self.width - 2 * self.margin, 12), line,
                      size=7.5, color=theme.ink)
            y += 12
        self.text(painter, QRectF(self.margin, y + 8, self.width - 2 * self.margin, 14),
                  "This game has no sheet yet; its actions are in the panel on the right.",
                  size=8, color=theme.muted, align=Qt.AlignmentFlag.AlignLeft)
        return y + 24

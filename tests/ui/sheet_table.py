"""What every game's UI tests reach for: the window with a session open, its sheet's hit
areas, and a mouse click on them. Each game's ``Table`` (its conftest.py) adds its own."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt


class SheetTable:
    """The window, driven as a user would: the document, the session, the sheet, the panel."""

    def __init__(self, window, qtbot):
        self.window = window
        self.qtbot = qtbot

    @property
    def doc(self):
        return self.window.doc

    @property
    def session(self):
        return self.window.doc.session

    @property
    def canvas(self):
        return self.window.sheet_view.canvas

    @property
    def panel(self):
        return self.window.panel

    def area(self, key: str):
        """The sheet's hit area ``key`` as drawn now ("box:1:0", "weapon:3", ...)."""
        areas = {a.key: a for a in self.canvas.painter.areas}
        assert key in areas, f"no area {key}; the sheet has {sorted(areas)}"
        return areas[key]

    def click(self, key: str) -> None:
        """Left-click the middle of a box on the sheet, at the canvas's zoom, as the mouse would."""
        centre = self.area(key).rect.center() * self.canvas.zoom
        self.qtbot.mouseClick(self.canvas, Qt.MouseButton.LeftButton,
                              pos=QPoint(round(centre.x()), round(centre.y())))

"""A referee's hands on the Triplanetary sample: select ships, click the sheet, read the roster."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from shipsheet.ui.roster import CHIPS_ROLE


class Table:
    """The window with the Triplanetary sample open, driven as a user would."""

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
    def sheet(self):
        return self.canvas.painter

    @property
    def panel(self):
        return self.window.panel

    def ship(self, name: str):
        return self.session.ship(name)

    def select(self, name: str):
        """Pick the ship's row in the roster."""
        roster = self.window.roster
        roster.setCurrentItem(roster.item_for(self.ship(name).id))
        assert self.doc.current_ship.name == name
        return self.ship(name)

    def chips(self, name: str) -> list[str]:
        """The status words the roster shows for a ship."""
        return list(self.window.roster.item_for(self.ship(name).id).data(2, CHIPS_ROLE) or [])

    def area(self, key: str):
        return next(a for a in self.sheet.areas if a.key == key)

    def click(self, key: str) -> None:
        """Click a box of the sheet with the mouse, at the canvas's zoom."""
        centre = self.area(key).rect.center()
        pos = QPoint(round(centre.x() * self.canvas.zoom), round(centre.y() * self.canvas.zoom))
        self.qtbot.mouseClick(self.canvas, Qt.MouseButton.LeftButton, pos=pos)

    def status_bar(self) -> str:
        return self.window.statusBar().currentMessage()

    def undo_text(self) -> str:
        return self.window.act_undo.text()

    def log_of(self, name: str, since: int = 0) -> list[str]:
        ship_id = self.ship(name).id
        return [e.text for e in self.session.log[since:] if e.ship == ship_id and not e.undone]


@pytest.fixture
def table(window, qtbot) -> Table:
    """The Triplanetary sample session, opened in a window."""
    assert window.open_sample("triplanetary")
    return Table(window, qtbot)

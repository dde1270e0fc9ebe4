"""A referee's hands on the Triplanetary sample: select ships, click the sheet, read the roster."""

from __future__ import annotations

import pytest

from shipsheet.ui.roster import CHIPS_ROLE

from sheet_table import SheetTable


class Table(SheetTable):
    """The window with the Triplanetary sample open, driven as a user would."""

    @property
    def sheet(self):
        return self.canvas.painter

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

    def to_phase(self, phase: str) -> None:
        """Step the session on to ``phase`` (Next Phase, as the toolbar does)."""
        while self.session.phase != phase:
            self.window.next_phase()

    def status_bar(self) -> str:
        return self.window.status_text()

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

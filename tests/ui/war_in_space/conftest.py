"""A War In Space table on screen: a session, the window showing it, and a user's hands.

The session: the sample cruiser "Vigilant" (Reactor d10 with 4 boxes, Drive d8
with 3, Fire Control d8 with 3; suits ♠ attack/movement, ♥ defense/attack,
♦ attack/defense, ♣ movement/defense) with one Drive box and the ♦ critical
marked, and an undamaged escort "Harrier" (Reactor d6 2 boxes, Drive d8 3,
Fire Control d4 1), at turn 1, Energy Allocation.
"""

from __future__ import annotations

import pytest

from shipsheet.model import Session, get_class, new_ship
from shipsheet.rules.war_in_space import mark_critical_action, mark_system_box_action
from shipsheet.ui.roster import CHIPS_ROLE

from sheet_table import SheetTable


def table_session() -> Session:
    session = Session("war-in-space", name="Kessel Gap", seed=4242)
    cruiser = session.add_ship(new_ship(get_class("war-in-space/cruiser"), "Vigilant"), "Concord")
    session.add_ship(new_ship(get_class("war-in-space/escort"), "Harrier"), "Hegemony")
    session.apply(mark_system_box_action(cruiser, "Drive"))
    session.apply(mark_critical_action(cruiser, "D"))
    session.clear_history()
    return session


class Table(SheetTable):
    """What a player does and sees: the sheet's boxes, the panel, the log, undo."""

    @property
    def ship(self):
        return self.window.doc.current_ship

    def select(self, name: str) -> None:
        self.doc.select(self.session.ship(name).id)

    def menu(self, key: str, label_start: str) -> None:
        """Choose a context-menu entry of a box (what the menu's action does)."""
        area = self.area(key)
        matches = [f for label, f in area.menu if label.startswith(label_start)]
        assert matches, f"{key} menu: {[label for label, _ in area.menu]}"
        self.doc.do(matches[0]())

    def undo_text(self) -> str:
        return self.doc.session.undo_status().undo

    def undo(self) -> None:
        self.window.act_undo.trigger()

    def status(self) -> str:
        return self.window.status_text()

    def log_lines(self) -> list[str]:
        return self.session.log_text().splitlines()

    def chips(self, name: str) -> list[str]:
        item = self.window.roster.item_for(self.session.ship(name).id)
        return item.data(2, CHIPS_ROLE)


@pytest.fixture
def table(window, qtbot) -> Table:
    """The window with the test session open, the cruiser selected."""
    window.open_session(table_session())
    return Table(window, qtbot)

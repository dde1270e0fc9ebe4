"""Helpers for the Federation Commander UI tests: a session of sample ships, clicks on boxes."""

from __future__ import annotations

from shipsheet.model import Session, get_class, new_ship

from sheet_table import SheetTable

#: The sample ships the UI tests open: (class stem, name, side).
CRUISER = ("sample-heavy-cruiser", "Resolute", "Blue")
FRIGATE = ("sample-frigate", "Lance", "Red")


def fc_session(*ships: tuple[str, str, str], seed: int = 77) -> Session:
    """A fresh session of library ships: (class stem, name, side) each; no undo history."""
    session = Session("fedcom", name="UI test", seed=seed)
    for stem, name, side in ships:
        session.add_ship(new_ship(get_class(f"fedcom/{stem}"), name), side)
    session.clear_history()
    return session


def open_fc(window, *ships, seed: int = 77):
    """Open a fresh session in the window and select its first ship; returns the session."""
    session = fc_session(*ships, seed=seed)
    window.open_session(session)
    window.doc.select(session.ships[0].id)
    return session


def area(window, key: str):
    """The current sheet's hit area with this key ("box:ph-1", "shield:1:5", "frame:2")."""
    return SheetTable(window, None).area(key)


def click(qtbot, window, key: str) -> None:
    """Click the centre of a box on the sheet, as a user would with the mouse."""
    SheetTable(window, qtbot).click(key)


def log_lines(window) -> list[str]:
    """The log dock's lines, as shown."""
    lst = window.log_view.list
    return [lst.item(i).text() for i in range(lst.count())]

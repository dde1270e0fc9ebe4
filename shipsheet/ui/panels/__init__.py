"""The game's actions dock: one panel per game, found by game id."""

from __future__ import annotations

import importlib

from PySide6.QtWidgets import QLabel, QWidget

from ..document import SessionDocument

_MODULES = {
    "war-in-space": "shipsheet.ui.panels.war_in_space",
    "triplanetary": "shipsheet.ui.panels.triplanetary",
    "fedcom": "shipsheet.ui.panels.fedcom",
}


def make_panel(doc: SessionDocument, parent: QWidget | None = None) -> QWidget:
    """The action panel of the session's game (a note when the game has none yet).

    A game's module defines ``Panel(doc, parent)``; it follows ``doc.changed``
    and ``doc.selection_changed`` and makes every change through ``doc.do``.
    """
    module = _MODULES.get(doc.session.game)
    try:
        panel_cls = importlib.import_module(module).Panel if module else None
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        panel_cls = None
    if panel_cls is None:
        label = QLabel("No game actions yet: mark damage on the sheet.", parent)
        label.setWordWrap(True)
        return label
    return panel_cls(doc, parent)

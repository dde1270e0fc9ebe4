"""The game's actions dock: the ``panel`` piece of its entry in ``model.games.GAMES``."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from ...model.games import piece
from ..document import SessionDocument


def make_panel(doc: SessionDocument, parent: QWidget | None = None) -> QWidget:
    """The action panel of the session's game.

    A game's panel class is ``Panel(doc, parent)``; it follows ``doc.changed`` and
    ``doc.selection_changed`` and makes every change through ``doc.do``.
    """
    return piece(doc.session.game, "panel")(doc, parent)

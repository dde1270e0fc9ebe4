"""Each game's part of the window: its actions panel, its designer editor, its tools.

The window's registry (``UI``, a ``model.games.Layer``): each game registers its package
under ``ui/games/`` here, one line each. Its pieces of this layer are ``panel`` (the
Actions dock, ``Panel(doc, parent)``, in its ``panel.py``), ``editor`` (the designer's
``GameEditor``, which its ``ENTRY`` names) and ``tools`` (the package's ``TOOLS``: a tuple
of :class:`Tool`, windows of its own the Tools menus open; none for most games). Its dialogs live in the same package; only its panel and tools
open them. Registering imports nothing: a game's panel loads with its first session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple

from ...model.games import Layer, piece

if TYPE_CHECKING:  # pragma: no cover
    from PySide6.QtWidgets import QWidget

    from ..document import SessionDocument

#: Each game's pieces of the window, by game id.
UI = Layer("ui", ("panel", "editor", "tools"), "shipsheet/ui/games/__init__.py",
           {"panel": ".panel:Panel", "tools": ":TOOLS"})
UI.register("war-in-space", "shipsheet.ui.games.war_in_space")
UI.register("triplanetary", "shipsheet.ui.games.triplanetary")
UI.register("fedcom", "shipsheet.ui.games.fedcom")


class Tool(NamedTuple):
    """A window of a game's own that the Tools menus open (Federation Commander's chart
    editor). ``open(parent, session_doc=None, path=None)`` shows it and returns it (``path``:
    a file to import into it); ``takes(data)`` says whether a file the designer is given
    (its parsed TOML) is for this tool rather than a ship class."""

    text: str
    tip: str
    open: Callable[..., "QWidget"]
    takes: Callable[[object], bool] | None = None


def make_panel(doc: "SessionDocument", parent: "QWidget | None" = None) -> "QWidget":
    """The action panel of the session's game.

    A game's panel class is ``Panel(doc, parent)``; it follows ``doc.changed`` and
    ``doc.selection_changed`` and makes every change through ``doc.do``.
    """
    return piece(doc.session.game, "panel")(doc, parent)


def all_tools() -> list[Tool]:
    """Every game's tools, in the games' order (each game's tools module loads here)."""
    from ...model.games import GAME_IDS
    return [tool for game in GAME_IDS for tool in piece(game, "tools")]


__all__ = ["Tool", "UI", "all_tools", "make_panel"]

"""The Ship Designer: ship classes made in the app.

Entry point (the shell wires it to Tools > Ship Designer and "New class…" on the welcome
view): :func:`open_designer` shows a non-modal Ship Designer window and returns it. Each
game's editor is its ``editor`` piece, and windows of a game's own (Federation
Commander's chart editor) its ``tools`` (``ui/games/``); they share the file window
(``file_window.py``) and :func:`keep_open`.

This package holds widgets only. The file and update logic is model code:
:mod:`shipsheet.model.classfiles` (names, validation, reading and writing class files),
:mod:`shipsheet.rules.fedcom.chart_files` (charts), :mod:`shipsheet.model.update` (carry a
ship's damage over to an edited class), :mod:`shipsheet.rules.fedcom.card_entries` (card
box rows). Importing this package does not import Qt; the windows load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from PySide6.QtWidgets import QWidget

#: Windows opened without a parent are kept here until they close (else Python would free them).
_open: list = []


def keep_open(window) -> None:
    """Keep ``window`` (made without a parent that holds it) until it closes, and show it."""
    _open.append(window)
    window.destroyed.connect(lambda _obj=None, w=window: _open.remove(w) if w in _open else None)
    window.show()
    window.raise_()
    window.activateWindow()


def open_designer(parent: "QWidget | None" = None, *, game: str | None = None,
                  class_id: str | None = None, session_doc=None) -> "QWidget":
    """Show the Ship Designer (non-modal) and return its window.

    ``game`` starts a blank class of that game; ``class_id`` (``"fedcom/sample-frigate"``)
    starts from a library class (the user's own classes are edited in place,
    bundled ones copied). ``session_doc`` is the calling window's
    SessionDocument: it enables "Update ships in this session to the new class".
    """
    from .window import DesignerWindow
    window = DesignerWindow(parent, game=game, class_id=class_id, session_doc=session_doc)
    keep_open(window)
    return window


__all__ = ["keep_open", "open_designer"]

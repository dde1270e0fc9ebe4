"""The Ship Designer and the chart editor: ship classes and damage charts made in the app.

Entry points (the shell wires them to Tools > Ship Designer, "New class…" on
the welcome view and Tools > Chart Editor):

- :func:`open_designer` shows a non-modal Ship Designer window and returns it;
- :func:`open_chart_editor` shows a non-modal Federation Commander chart editor.

This package holds widgets only. The file and update logic is model code:
:mod:`shipsheet.model.classfiles` (names, validation, reading and writing class files),
:mod:`shipsheet.rules.fedcom.chart_files` (charts), :mod:`shipsheet.model.update` (carry a
ship's damage over to an edited class), :mod:`shipsheet.rules.fedcom.card_entries` (card
box rows). Each game's editor is the ``editor`` piece of its entry in
``model.games.GAMES``. Importing this package does not import Qt; the windows load on
first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from PySide6.QtWidgets import QWidget

#: Windows opened without a parent are kept here until they close (else Python would free them).
_open: list = []


def _keep(window) -> None:
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
    _keep(window)
    return window


def open_chart_editor(parent: "QWidget | None" = None, *, chart_id: str | None = None,
                      session_doc=None) -> "QWidget":
    """Show the Federation Commander chart editor (non-modal) and return its window.

    ``chart_id`` starts from a chart (the user's own edited in place, bundled ones
    copied). ``session_doc`` (optional, a Federation Commander session's
    SessionDocument) enables "Use in This Session"; when it is not given and
    ``parent`` is a main window with a Federation Commander session, that one is used.
    """
    from .chart_editor import ChartEditorWindow
    if session_doc is None:
        doc = getattr(parent, "doc", None)
        if doc is not None and getattr(getattr(doc, "session", None), "game", None) == "fedcom":
            session_doc = doc
    window = ChartEditorWindow(parent, chart_id=chart_id, session_doc=session_doc)
    _keep(window)
    return window


__all__ = ["open_chart_editor", "open_designer"]

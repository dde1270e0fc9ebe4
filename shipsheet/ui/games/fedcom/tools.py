"""Federation Commander's windows of its own, for the Tools menus: the chart editor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....rules.fedcom.chart_files import is_chart_data
from .. import Tool

if TYPE_CHECKING:  # pragma: no cover
    from PySide6.QtWidgets import QWidget

GAME = "fedcom"


def open_chart_editor(parent: "QWidget | None" = None, *, session_doc=None, path=None,
                      chart_id: str | None = None) -> "QWidget":
    """Show the chart editor (non-modal) and return its window.

    ``chart_id`` starts from a chart (the user's own edited in place, bundled ones copied);
    ``path`` imports a chart file. ``session_doc`` (a Federation Commander session's
    SessionDocument) enables "Use in This Session"; when it is not given and ``parent`` is
    a main window with a Federation Commander session, that one is used."""
    from ...designer import keep_open
    from .chart_editor import ChartEditorWindow
    if session_doc is None:
        doc = getattr(parent, "doc", None)
        if doc is not None and getattr(getattr(doc, "session", None), "game", None) == GAME:
            session_doc = doc
    elif session_doc.session.game != GAME:
        session_doc = None
    window = ChartEditorWindow(parent, chart_id=chart_id, session_doc=session_doc)
    keep_open(window)
    if path is not None:
        window.import_file(path)
    return window


TOOLS = (Tool("&Chart Editor…", "Create or edit a Federation Commander damage allocation chart",
              open_chart_editor, is_chart_data),)

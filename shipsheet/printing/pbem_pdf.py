"""The PDF of a player's ships for a play-by-e-mail turn report (``pbem.reports``).

:func:`ships_pdf` is the ``pdf(session, ship_ids, path)`` callable that
:func:`shipsheet.pbem.reports.export_turn_reports` takes: the same pages as File ▸ Print
and ``shipsheet print`` (one filled sheet per ship), so the
pbem layer itself never imports Qt.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable

from ..model import Session
from .render import PrintJob, export_pdf

#: A QGuiApplication made here when none was running (kept: Qt wants one alive).
_app = None


def _ensure_gui_app() -> None:
    """The PDF's fonts need a QGuiApplication: start one (headless use) when none runs."""
    global _app
    from PySide6.QtGui import QGuiApplication
    if QGuiApplication.instance() is None:
        _app = QGuiApplication([sys.argv[0] if sys.argv and sys.argv[0] else "shipsheet"])


def ships_pdf(session: Session, ship_ids: Iterable[str], path: str | Path, *,
              page_size: str = "A4", title: str = "", turn_marks: bool = False) -> int:
    """Write the filled sheets of the ships ``ship_ids`` of ``session`` (in session order)
    to the PDF ``path``, atomically; return the page count. A ship id not in the session
    is refused (ValueError); so is an empty list (nothing to print). ``turn_marks``: show
    the marks made this turn apart (a slash; the earlier ones X), as ``shipsheet print``
    does."""
    wanted = list(ship_ids)
    known = {s.id for s in session.ships}
    missing = [i for i in wanted if i not in known]
    if missing:
        raise ValueError(f"no ship with the id {missing[0]!r} in this session")
    ships = [s for s in session.ships if s.id in set(wanted)]
    if not ships:
        raise ValueError("nothing to print: no ships chosen")
    _ensure_gui_app()
    job = PrintJob(session, ships, log=False, page_size=page_size, title=title,
                   turn_marks=turn_marks)
    return export_pdf(job, path)


__all__ = ["ships_pdf"]

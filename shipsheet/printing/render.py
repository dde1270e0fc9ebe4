"""Lay sheets out on pages: one ship per page, a footer, an optional log page; blank sheets.

:func:`render_job` draws on any paged device (QPrinter for paper and print
preview, QPdfWriter for PDF), through each game's sheet painter with the
black-on-white print theme, so the page shows exactly the state on screen.
"""

from __future__ import annotations

from dataclasses import field
from ..model.code_cache import dataclass
from datetime import date
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPageLayout, QPageSize, QPagedPaintDevice, QPainter, QPdfWriter

from ..model import Session, Ship
from ..model.games import get_game
from ..model.ship import ShipClass
from ..model.storage import write_atomic
from ..sheets import SheetPainter, Theme, painter_for
from ..sheets.base import sheet_font

PAGE_SIZES = {"A4": QPageSize.PageSizeId.A4, "Letter": QPageSize.PageSizeId.Letter}
MARGIN_PT = 36.0  # half an inch
FOOTER_PT = 18.0
#: The PDF's resolution (``export_pdf``): its sheets' text is measured at it.
PDF_DPI = 600


class Cancelled(Exception):
    """The user cancelled a long export."""


@dataclass
class PrintJob:
    """What to print: some ships of a session, optionally its log; blank sheets of classes.

    ``turn_marks``: the marks made this turn apart from earlier ones (a slash, and an X for
    the earlier), as players mark hits during fire. ``blank``: a blank sheet of each class,
    for players who play on paper (``session`` may then be None)."""

    session: Session | None
    ships: list[Ship] = field(default_factory=list)
    log: bool = False
    page_size: str = "A4"
    title: str = ""
    turn_marks: bool = False
    blank: list[ShipClass] = field(default_factory=list)


def blank_ship(ship_class: ShipClass) -> Ship:
    """An unnamed ship of the class as it comes from the yard: what a blank sheet shows."""
    return Ship("", ship_class, get_game(ship_class.game).initial_state(ship_class))


def page_layout(page_size: str) -> QPageLayout:
    if page_size not in PAGE_SIZES:
        raise ValueError(f'unknown page size "{page_size}" (use {" or ".join(PAGE_SIZES)})')
    return QPageLayout(QPageSize(PAGE_SIZES[page_size]), QPageLayout.Orientation.Portrait,
                       QMarginsF(MARGIN_PT, MARGIN_PT, MARGIN_PT, MARGIN_PT), QPageLayout.Unit.Point)


def _points_to_device(painter: QPainter, device: QPagedPaintDevice) -> QRectF:
    """Scale the painter so one unit is one point; return the printable area in points."""
    layout = device.pageLayout()
    paint = layout.paintRect(QPageLayout.Unit.Point)
    painter.scale(device.logicalDpiX() / 72.0, device.logicalDpiY() / 72.0)
    return QRectF(0, 0, paint.width(), paint.height())


def _font(painter: QPainter, size_pt: float, bold: bool = False) -> QFont:
    # The painter is scaled to points; size fonts in device units accordingly.
    return sheet_font(size_pt, bold, 72.0 / painter.device().logicalDpiY())


def _footer(painter: QPainter, area: QRectF, job: PrintJob, page: int,
            blank: ShipClass | None = None) -> None:
    s = job.session
    if blank is not None:
        text = f"{blank.name} · blank sheet · printed {date.today().isoformat()}"
    else:
        text = (f"{job.title or s.title} · Turn {s.turn}, {s.phase}"
                + (" · / marked this turn, X before" if job.turn_marks else "")
                + f" · printed {date.today().isoformat()}")
    rect = QRectF(area.left(), area.bottom() - FOOTER_PT + 6, area.width(), FOOTER_PT - 6)
    painter.setPen(Qt.GlobalColor.black)
    painter.drawLine(rect.topLeft(), rect.topRight())
    painter.setFont(_font(painter, 7.5))
    number = f"page {page}"
    metrics = painter.fontMetrics()  # a long title ends in "…" before the page number
    text = metrics.elidedText(text, Qt.TextElideMode.ElideRight,
                              int(rect.width() - metrics.horizontalAdvance(number) - 12))
    painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)
    painter.drawText(rect, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), number)


def page_sheet(ship: Ship, session: Session | None,
               turn_marks: bool = False) -> tuple[SheetPainter, Theme]:
    """The sheet a page draws for ``ship`` (``session`` None: a blank sheet) and the theme it
    is drawn in: black on white, no hints for the screen."""
    return painter_for(ship, session, turn_marks=turn_marks), Theme.print_theme()


def _draw_sheet(painter: QPainter, area: QRectF, ship: Ship, session: Session | None,
                turn_marks: bool = False) -> None:
    sheet, theme = page_sheet(ship, session, turn_marks)
    # Laid out first, then drawn: the scale depends on the sheet's height, and a PDF page
    # cannot be cropped like the window's image (ui/sheet_view.py). Replaying a recording
    # instead is no good: its fonts, sized for the recording, come out huge at 600 dpi.
    size = sheet.size()
    room = QRectF(area.left(), area.top(), area.width(), area.height() - FOOTER_PT)
    scale = min(room.width() / size.width(), room.height() / size.height())
    painter.save()
    painter.translate(room.left() + (room.width() - size.width() * scale) / 2, room.top())
    painter.scale(scale, scale)
    sheet.paint(painter, theme)
    painter.restore()
    sheet.release()


def _log_pages(painter: QPainter, area: QRectF, job: PrintJob, device: QPagedPaintDevice,
               first_page: int) -> int:
    """Draw the log over as many pages as it needs; returns the page count. A long line
    wraps with a hanging indent: its continuation lines start under its text, not under
    the turn and phase."""
    lines = job.session.log_text().splitlines() or ["(the log is empty)"]
    font = _font(painter, 8)
    metrics = QFontMetricsF(font, device)
    wrap = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
    line_h = 11.0
    bottom = area.bottom() - FOOTER_PT
    # The font is sized so that its device units are the painter's points: the
    # metrics measure in the same units the painter draws in.
    pages = 0
    y = bottom + 1  # start a page at once
    for line in lines:
        head, body = _split_log_line(line)
        indent = min(metrics.horizontalAdvance(head), area.width() / 2)
        rows = max(1, round(metrics.boundingRect(QRectF(0, 0, area.width() - indent, 1e7), wrap,
                                                 body).height() / metrics.lineSpacing()))
        height = rows * line_h
        if y + height > bottom:
            if pages:
                _footer(painter, area, job, first_page + pages - 1)
                device.newPage()
            pages += 1
            y = area.top()
            painter.setFont(_font(painter, 14, True))
            painter.drawText(QRectF(area.left(), y, area.width(), 20),
                             "Session log" + (" (continued)" if pages > 1 else ""))
            painter.setFont(font)
            y += 26
        painter.drawText(QRectF(area.left(), y, indent, line_h), wrap, head)
        painter.drawText(QRectF(area.left() + indent, y, area.width() - indent, height), wrap, body)
        y += height
    _footer(painter, area, job, first_page + pages - 1)
    return pages


def _split_log_line(line: str) -> tuple[str, str]:
    """``"T1 Combat |     Kite: hit"`` -> (``"T1 Combat |     "``, ``"Kite: hit"``): where the
    text starts, for the hanging indent."""
    bar = line.find("| ")
    if bar < 0:
        return "", line
    start = bar + 2
    while start < len(line) and line[start] == " ":
        start += 1
    return line[:start], line[start:]


def render_job(device: QPagedPaintDevice, job: PrintJob,
               progress: Callable[[int, int], bool] | None = None) -> int:
    """Draw the job on ``device``; returns the number of pages.

    ``progress(done, total)`` is called after each ship's page; returning
    False cancels (raises :class:`Cancelled`; the caller discards the output).
    """
    if not job.ships and not job.log and not job.blank:
        raise ValueError("nothing to print: no ships chosen, no log and no blank sheet")
    device.setPageLayout(page_layout(job.page_size))
    painter = QPainter()
    if not painter.begin(device):
        raise OSError("cannot start printing on this device")
    try:
        area = _points_to_device(painter, device)
        page = 0
        total = len(job.ships) + len(job.blank)
        for i, ship in enumerate(job.ships):
            if page:
                device.newPage()
            page += 1
            _draw_sheet(painter, area, ship, job.session, job.turn_marks)
            _footer(painter, area, job, page)
            if progress is not None and not progress(i + 1, total):
                raise Cancelled()
        for i, ship_class in enumerate(job.blank, start=len(job.ships)):
            if page:
                device.newPage()
            page += 1
            _draw_sheet(painter, area, blank_ship(ship_class), None)
            _footer(painter, area, job, page, ship_class)
            if progress is not None and not progress(i + 1, total):
                raise Cancelled()
        if job.log:
            if page:
                device.newPage()
            page += _log_pages(painter, area, job, device, page + 1)
    finally:
        painter.end()
    return page


def job_title(job: PrintJob) -> str:
    """The document's title: the job's, the session's, or the blank sheets' classes."""
    if job.title:
        return job.title
    if job.session is not None:
        return job.session.title
    return "Blank sheets: " + ", ".join(c.name for c in job.blank)


def export_pdf(job: PrintJob, path: str | Path,
               progress: Callable[[int, int], bool] | None = None) -> int:
    """Write the job to a PDF file, atomically like a session save: the previous file stays
    until the new one is whole, and a cancelled or failed export (a full disk) leaves it
    as it was and raises.

    The PDF is made in memory first: QPdfWriter does not report a failed write, so writing
    it straight to the file would report success over a truncated file."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(PDF_DPI)
    writer.setTitle(f"{job_title(job)} — ShipSheet")
    writer.setCreator("ShipSheet")
    pages = render_job(writer, job, progress)
    del writer  # finishes the document
    data = bytes(buffer.data())
    buffer.close()
    if not data.startswith(b"%PDF") or b"%%EOF" not in data[-1024:]:
        raise OSError("the PDF could not be made")
    write_atomic(path, data)
    return pages

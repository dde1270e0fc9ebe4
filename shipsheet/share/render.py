"""A ship's sheet for a phone: the game's own sheet painter drawn as SVG, and its boxes.

The same ``SheetPainter.paint`` that draws the window's sheet and the printed page draws
into Qt's SVG generator here (the screen is the paper, and the phone). The hit areas of
that drawing become the page's buttons: their key, place, label (the tooltip, plain
text), whether a tap does anything, why not, and the menu's labels. Everything is read
from a snapshot's copy of the session, so this runs on the server's render thread while
the window goes on.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass

from PySide6.QtCore import QBuffer, QIODevice, QRectF, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator

from ..model.games import piece
from ..sheets import Theme, painter_for
from ..sheets.base import touch_words
from .snapshot import Snapshot

#: Longest label sent for one box (tooltips are a few lines).
MAX_LABEL = 600


@dataclass(frozen=True)
class Area:
    key: str
    x: float
    y: float
    w: float
    h: float
    label: str
    clickable: bool
    refusal: str | None
    menu: tuple[str, ...]
    right: str  # what a tap needs: "mark" or "decide" (the game's decisions piece)


@dataclass(frozen=True)
class RenderedSheet:
    ship_id: str
    rev: int
    svg: bytes
    svg_gzip: bytes
    width: float
    height: float
    areas: tuple[Area, ...]
    #: The decisions open for the ship now (forms, PROTOCOL.md), for the seats that decide.
    forms: tuple[dict, ...] = ()


def render_sheet(snapshot: Snapshot, ship_id: str, *, public: bool = False) -> RenderedSheet:
    """Draw ``ship_id``'s sheet from the snapshot (any thread with a Qt GUI application).

    ``public``: as a seat that does not own the ship sees it — without what the game keeps
    to the ship's owner (Federation Commander's standing orders: the decisions piece's
    ``public_state``), and with no decisions."""
    session = snapshot.session
    ship = snapshot.ship(ship_id)
    if ship is None:
        raise KeyError(ship_id)
    if public:
        from ..model.trial import trial_ship
        shown = trial_ship(ship, piece(ship.game, "decisions").public_state(ship))
        shown.side = ship.side
        ship = shown
    painter = painter_for(ship, session)
    size = painter.size()  # lays it out: the height is known before drawing
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(int(size.width() + 0.5), int(size.height() + 0.5)))
    generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
    generator.setResolution(72)
    generator.setTitle(ship.name)
    qp = QPainter(generator)
    try:
        painter.paint(qp, Theme.light().for_touch())
    finally:
        qp.end()
    svg = bytes(buffer.data())
    buffer.close()
    drawn = painter.drawn_size()
    decisions = piece(ship.game, "decisions")
    areas = []
    for area in painter.areas:
        r = area.rect
        label = touch_words(area.tooltip.strip()[:MAX_LABEL])
        areas.append(Area(
            area.key, round(r.x(), 2), round(r.y(), 2), round(r.width(), 2), round(r.height(), 2),
            label, area.click is not None, area.refusal,
            tuple(text for text, _factory in area.menu) if area.has_menu() else (),
            decisions.tap_right(session, ship, area.key)))
    painter.release()
    forms = () if public else tuple(decisions.forms(session, ship))
    return RenderedSheet(ship_id, snapshot.revs.get(ship_id, 0), svg, gzip.compress(svg, 6),
                         drawn.width(), drawn.height(), tuple(areas), forms)

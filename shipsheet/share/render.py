"""A ship's sheet for a phone: the game's own sheet painter drawn as SVG, and its boxes.

The same ``SheetPainter.paint`` that draws the window's sheet and the printed page draws
into Qt's SVG generator here (the screen is the paper, and the phone). The boxes of its
layout step become the page's buttons: their key and place, and the game's answer for
each key (``model.boxes``): label (the tooltip, plain text), whether a tap does anything,
why not, the right it needs and the menu's labels. Everything is read
from a snapshot's copy of the session, so this runs on the server's render thread while
the window goes on.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field

from PySide6.QtCore import QBuffer, QIODevice, QRectF, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator

from ..model.decisions import MARK
from ..model.games import piece
from ..model.privacy import public_state
from ..model.trial import trial_ship
from ..sheets import Theme, painter_for
from ..sheets.base import touch_words
from .seats import not_yours
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
    right: str  # what a tap needs: "mark" or "decide" (the box's answer, model.boxes)


@dataclass(frozen=True)
class RenderedSheet:
    rev: int
    svg: bytes
    svg_gzip: bytes
    width: float
    height: float
    areas: tuple[Area, ...]
    #: The decisions open for the ship now (forms, PROTOCOL.md), for the seats that decide.
    forms: tuple[dict, ...] = ()
    #: (rights, ship name) -> areas_json's answer: every view a phone is sent lists the
    #: boxes, and a sheet is shared by every request until its ship's next revision.
    _listed: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def areas_json(self, rights: frozenset[str], ship_name: str) -> list[dict]:
        """The boxes as the seat's view lists them (PROTOCOL.md) for a seat with ``rights``
        over the ship (none when it is not the seat's own): ``tap`` when a tap does what
        the seat may do, otherwise ``refusal`` says why not; the menu only for seats that
        mark. Worked out once per sheet and rights (on the server's loop)."""
        key = (rights, ship_name)
        listed = self._listed.get(key)
        if listed is None:
            menus = MARK in rights
            listed = []
            for a in self.areas:
                allowed = a.right in rights
                tap = allowed and a.clickable and not a.refusal
                refusal = a.refusal if allowed else not_yours(a.right, ship_name)
                listed.append({"key": a.key, "x": a.x, "y": a.y, "w": a.w, "h": a.h,
                               "label": a.label, "tap": tap, "refusal": None if tap else refusal,
                               "menu": [{"index": i, "label": t} for i, t in enumerate(a.menu)]
                               if menus else []})
            self._listed[key] = listed
        return listed


def render_sheet(snapshot: Snapshot, ship_id: str, *, public: bool = False) -> RenderedSheet:
    """Draw ``ship_id``'s sheet from the snapshot (any thread with a Qt GUI application).

    ``public``: as a seat that may not read the ship's owner's private decisions sees it —
    without what the game keeps to the owner (``model.privacy.public_state``), and with no
    decisions."""
    session = snapshot.session
    ship = snapshot.ship(ship_id)
    if ship is None:
        raise KeyError(ship_id)
    if public:
        ship = trial_ship(ship, public_state(session, ship))
    painter = painter_for(ship, session)
    size = painter.size()  # the layout step: the height is known before drawing
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
    areas = []
    for area in painter.areas:  # the drawing's boxes: the layout step's, answered by the rules
        r = area.rect
        label = touch_words(area.tooltip.strip()[:MAX_LABEL])
        areas.append(Area(
            area.key, round(r.x(), 2), round(r.y(), 2), round(r.width(), 2), round(r.height(), 2),
            label, area.click is not None, area.refusal,
            tuple(text for text, _factory in area.menu) if area.has_menu() else (),
            area.right))
    painter.release()
    forms = () if public else tuple(piece(ship.game, "decisions").forms(session, ship))
    return RenderedSheet(snapshot.revs.get(ship_id, 0), svg, gzip.compress(svg, 6),
                         drawn.width(), drawn.height(), tuple(areas), forms)

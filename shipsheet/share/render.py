"""A ship's sheet for a phone: the game's own sheet painter drawn as SVG, and its boxes.

The same ``SheetPainter.paint`` that draws the window's sheet and the printed page is
recorded here, as the window records it (``sheets.display``: most of it repeated from the
ship's last drawing), and written as SVG (``sheets.svg``). The phone is the one place the
sheet is not the paper: it is drawn with the phone layout (``sheets.base.PHONE``: its groups
in one column, every box at least 44 CSS px square on a 360 px phone), and its boxes are
that drawing's, so a tap hits the box drawn under it. The boxes the drawing placed become
the page's buttons: their key and place, and the game's answer for
each key (``model.boxes``): label (the tooltip, plain text), whether a tap does anything,
why not, the right it needs and the menu's labels. Everything is read
from a snapshot's copy of the session, so this runs on the server's render thread while
the window goes on.
"""

from __future__ import annotations

import gzip
import json
import threading
from collections import OrderedDict
from dataclasses import field
from ..model.code_cache import dataclass
from typing import NamedTuple

from PySide6.QtGui import QImage

from ..model.boxes import box_says
from ..model.decisions import MARK
from ..model.games import piece
from ..model.kept import by_identity, keep
from ..model.privacy import public_state
from ..model.trial import trial_ship
from ..sheets import PHONE, Theme, painter_for
from ..sheets.base import touch_words
from ..sheets.display import DisplayList, record
from ..sheets.svg import svg_of
from .seats import not_yours
from .snapshot import Snapshot

#: Longest label sent for one box (tooltips are a few lines).
MAX_LABEL = 600
#: The SVG's units are points: text is measured and drawn at 72 dots an inch.
SVG_DPI = 72
#: The sheets' recordings each render thread keeps, the most recent (a phone's sheet is
#: drawn again at each change of its ship: what did not change is repeated).
KEPT_DRAWINGS = 64
THEME = Theme.light().for_touch()
#: What the drawings and boxes are gzipped with: a table's network is fast and its
#: computer busy, so the quickest level (a sheet's SVG: 6.5 KB at 1, 4.9 KB at 6, in a
#: third of the time).
GZIP_LEVEL = 1

_local = threading.local()


def _svg_measure() -> QImage:
    """This thread's image to measure text on as the SVG draws it (72 dpi, never painted)."""
    image = getattr(_local, "measure", None)
    if image is None:
        image = QImage(1, 1, QImage.Format.Format_ARGB32_Premultiplied)
        dots = round(SVG_DPI / 0.0254)
        image.setDotsPerMeterX(dots)
        image.setDotsPerMeterY(dots)
        _local.measure = image
    return image


class _Drawn:
    """A sheet's last drawing on this thread: its recording (``sheets.display``), the SVG
    text of each of its calls (``sheets.svg``: the calls a recording repeats keep theirs),
    and its boxes as sent — box key -> (its rectangle, that rectangle rounded, the
    ``Area``, what the rules said its words are worked out from: ``GameBoxes.says``). A
    part of the sheet repeated from the last recording places the very same rectangles, so
    most boxes' places are looked up, not read out of Qt again; a box whose ``says`` has
    not moved is not answered again, and is sent as the same object again."""

    __slots__ = ("display", "written", "placed")

    def __init__(self, display: DisplayList):
        self.display = display
        self.written: dict | None = None
        self.placed: dict = {}


def _kept() -> OrderedDict:
    """This thread's last drawings (``_Drawn``), by (ship id, public), the newest last."""
    kept = getattr(_local, "drawn", None)
    if kept is None:
        kept = _local.drawn = OrderedDict()
    return kept


def _rounded(rect) -> tuple[float, float, float, float]:
    return round(rect.x(), 2), round(rect.y(), 2), round(rect.width(), 2), round(rect.height(), 2)


class Area(NamedTuple):
    """One box of a phone's sheet (PROTOCOL.md): a tuple, made for every box at every
    drawing (a fedcom card's two hundred; a frozen dataclass's making was a tenth of it)."""
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


#: Where an ``Area``'s words begin (after its key and place): a box moved, saying the same.
_WORDS = Area._fields.index("label")


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
    #: The ship's id ("" when not known): its boxes' texts are listed from its last sheet's.
    ship_id: str = ""
    #: (rights, ship name) -> areas_text's answer: every view a phone is sent lists the
    #: boxes, and a sheet is shared by every request until its ship's next revision.
    _listed: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def areas_text(self, rights: frozenset[str], ship_name: str) -> str:
        """The boxes as the seat's view lists them (PROTOCOL.md), as JSON text, for a seat
        with ``rights`` over the ship (none when it is not the seat's own): ``tap`` when a
        tap does what the seat may do, otherwise ``refusal`` says why not; the menu only
        for seats that mark. Worked out once per sheet and rights (on the server's loop),
        each box's text kept from the sheets before it (most boxes say the same at the
        next revision: ``_box_text``)."""
        key = (rights, ship_name)
        listed = self._listed.get(key)
        if listed is None:
            menus = MARK in rights
            refused = {}  # right -> why not, for the rights the seat lacks
            # The same ship's last list for these rights: a box sent as the same object
            # (``render_sheet``) says what it said then.
            slot = (self.ship_id, rights, ship_name) if self.ship_id else None
            old_areas, old_parts = _lists.get(slot, ((), ())) if slot else ((), ())
            if len(old_areas) != len(self.areas):
                old_areas = old_parts = ()
            parts = []
            for i, a in enumerate(self.areas):
                if old_areas and a is old_areas[i]:
                    parts.append(old_parts[i])
                    continue
                if a.right in rights:
                    tap = a.clickable and not a.refusal
                    refusal = None if tap else a.refusal
                else:
                    tap = False
                    refusal = refused.get(a.right)
                    if refusal is None:
                        refusal = refused[a.right] = not_yours(a.right, ship_name)
                parts.append(_box_text(a, tap, refusal, menus))
            if slot is not None:
                keep(_lists, slot, (self.areas, parts), KEPT_LISTS)
            listed = self._listed[key] = f"[{', '.join(parts)}]"
        return listed


#: (ship id, rights, ship name) -> (the boxes, their texts) of the ship's last list for
#: those rights (``RenderedSheet.areas_text``), at most this many; then kept afresh.
KEPT_LISTS = 4_000
_lists: dict = {}


#: Boxes' JSON texts kept (``_box_text``), at most this many; then kept afresh.
KEPT_BOX_TEXTS = 20_000
_box_texts: dict = {}


def _box_text(area: Area, tap: bool, refusal: str | None, menus: bool) -> str:
    """One box as the seat's view lists it, as JSON text (``json.dumps``, the server's
    way), kept by the box (a drawing that leaves a box as it was hands on the very same
    ``Area``: ``render_sheet``) and what else it says: the same box at the next revision
    costs a lookup."""
    return by_identity(_box_texts, area, lambda: json.dumps(
        {"key": area.key, "x": area.x, "y": area.y, "w": area.w, "h": area.h,
         "label": area.label, "tap": tap, "refusal": refusal,
         "menu": [{"index": i, "label": t} for i, t in enumerate(area.menu)]
         if menus else []}, ensure_ascii=False), KEPT_BOX_TEXTS, tap, refusal, menus)


@dataclass(frozen=True)
class SheetSize:
    """What a seat's view says of a ship's sheet (``measure_sheet``): its revision, its
    size in the SVG's units, and the decisions open for it — as its ``RenderedSheet``
    would say, without the SVG and the boxes."""
    rev: int
    width: float
    height: float
    forms: tuple[dict, ...] = ()


def _recorded(snapshot: Snapshot, ship_id: str, public: bool):
    """The ship as the seat sees it, its phone painter, and its drawing recorded (its
    height and boxes known in one drawing, most of it repeated from this ship's last one:
    sheets.display) and kept as this ship's last."""
    session = snapshot.session
    ship = snapshot.ship(ship_id)
    if ship is None:
        raise KeyError(ship_id)
    if public:
        ship = trial_ship(ship, public_state(session, ship))
    painter = painter_for(ship, session, layout=PHONE)
    kept = _kept()
    key = (ship_id, public)
    drawn = kept.get(key)
    display = record(painter, THEME, _svg_measure(), drawn.display if drawn else None)
    if drawn is None:
        drawn = kept[key] = _Drawn(display)
    drawn.display = display  # its calls' texts and boxes stay: each is checked by identity
    kept.move_to_end(key)
    while len(kept) > KEPT_DRAWINGS:
        kept.popitem(last=False)
    return ship, painter, display


def _forms(snapshot: Snapshot, ship, public: bool) -> tuple[dict, ...]:
    return () if public else tuple(piece(ship.game, "decisions").forms(snapshot.session, ship))


def measure_sheet(snapshot: Snapshot, ship_id: str, *, public: bool = False) -> SheetSize:
    """What a view says of ``ship_id``'s sheet (as ``render_sheet``), recorded but not
    written as SVG nor its boxes answered: a seat that sees many ships shows one, and is
    sent the others' drawings only when it asks (page.js fetches the ship its tab shows).
    The recording is kept, so drawing the same revision afterwards repeats all of it."""
    ship, painter, _display = _recorded(snapshot, ship_id, public)
    drawn = painter.drawn_size()
    painter.release()
    return SheetSize(snapshot.revs.get(ship_id, 0), drawn.width(), drawn.height(),
                     _forms(snapshot, ship, public))


def render_sheet(snapshot: Snapshot, ship_id: str, *, public: bool = False) -> RenderedSheet:
    """Draw ``ship_id``'s sheet from the snapshot (any thread with a Qt GUI application).

    ``public``: as a seat that may not read the ship's owner's private decisions sees it —
    without what the game keeps to the owner (``model.privacy.public_state``), and with no
    decisions."""
    # Recorded first, then written as SVG: the calls repeated from the ship's last
    # recording keep their text (sheets/svg.py).
    ship, painter, display = _recorded(snapshot, ship_id, public)
    kept = _kept()[(ship_id, public)]
    svg, kept.written = svg_of(display, ship.name, _svg_measure(), kept.written)
    drawn = painter.drawn_size()
    last = kept.placed
    # What each box's words are worked out from (``GameBoxes.says``): a box that says what
    # it said at the last drawing keeps its words; the rules answer the others alone.
    drawn_areas = painter.areas
    said = box_says(painter.session, painter.ship, [area.key for area in drawn_areas])
    known_all = [last.get(area.key) for area in drawn_areas]
    same = [known is not None and says is not None and known[3] == says
            for known, says in zip(known_all, said)]
    painter.answer_all([area for area, kept_words in zip(drawn_areas, same) if not kept_words])
    placed = {}
    areas = []
    for area, known, says, kept_words in zip(drawn_areas, known_all, said, same):
        r = area.rect  # the drawing's boxes: the layout step's, answered by the rules
        same_place = known is not None and known[0] is r
        where = known[1] if same_place else _rounded(r)
        if kept_words:
            box = known[2] if same_place else Area(area.key, *where, *known[2][_WORDS:])
        else:
            label = touch_words(area.tooltip.strip()[:MAX_LABEL])
            box = Area(
                area.key, *where,
                label, area.click is not None,
                touch_words(area.refusal) if area.refusal else None,
                tuple(touch_words(text) for text, _factory in area.menu)
                if area.has_menu() else (),
                area.right)
            if known is not None and known[2] == box:
                box = known[2]  # as it was: the same box, whose texts are kept (``_box_text``)
        placed[area.key] = (r, where, box, says)
        areas.append(box)
    kept.placed = placed
    painter.release()
    return RenderedSheet(snapshot.revs.get(ship_id, 0), svg, gzip.compress(svg, GZIP_LEVEL),
                         drawn.width(), drawn.height(), tuple(areas), _forms(snapshot, ship, public),
                         ship_id)

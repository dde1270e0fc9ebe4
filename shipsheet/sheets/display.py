"""A sheet's drawing kept as a list of drawing calls, so that a change redraws only what
it changed.

The window does not paint a sheet straight onto its image: it runs the sheet's one
drawing routine (``SheetPainter.paint``) against a :class:`RecordingPen`, which stands in
for the QPainter and keeps each drawing call with the pen, brush, font and transform it
was made with, and the rectangle it can touch. Replaying the list draws the sheet.

After a change the sheet is recorded again and the two lists compared call by call
(:func:`dirty_rects`): only the rectangles of the calls that differ are *dirty*. The
window then repaints just those rectangles of its image (:func:`replay` with ``dirty``),
clipped to them, replaying only the calls that reach them — in their order, so the pixels
are those a whole drawing gives. Recording costs what the layout step costs (no pixel is
drawn); a click on a 500-box card replays a dozen calls, not a thousand.

The printer and Table Link's SVG still call ``paint`` with a real painter: whole
sheets, from the same routine.
"""

from __future__ import annotations

import functools
import threading
from typing import Any, NamedTuple

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QTransform

from ..model.kept import keep

#: Added round every call's rectangle, in sheet units: half the widest pen (2.2) and the
#: antialiasing pixel, at the smallest zoom.
PAD = 3.0
#: Past this many dirty rectangles they are merged into the one that holds them all.
MAX_RECTS = 24


class Call(NamedTuple):
    """One drawing call: the QPainter method, its arguments, the state it was made in, and
    the rectangle (x0, y0, x1, y1, in sheet units) it can touch."""

    name: str
    args: tuple
    pen: Any
    brush: Any
    font: Any
    transform: QTransform | None
    bounds: tuple[float, float, float, float]


class DisplayList(NamedTuple):
    calls: list[Call]
    width: float
    height: float
    #: What the drawing depends on beyond its calls (``look_of``).
    look: tuple = ()
    #: The helpers' calls, by their keys (:meth:`RecordingPen.repeat`).
    remembered: dict = {}


def _union(rects) -> tuple[float, float, float, float]:
    x0 = y0 = float("inf")
    x1 = y1 = float("-inf")
    for r in rects:
        x0, y0 = min(x0, r.left()), min(y0, r.top())
        x1, y1 = max(x1, r.right()), max(y1, r.bottom())
    return x0, y0, x1, y1


def _points(points) -> tuple[float, float, float, float]:
    xs = [p.x() for p in points]
    ys = [p.y() for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _line_bounds(args) -> tuple[float, float, float, float]:
    if len(args) == 2:  # two points
        return _points(args)
    if len(args) == 1:  # a QLineF
        line = args[0]
        return _points((line.p1(), line.p2()))
    x1, y1, x2, y2 = args
    return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)


def _lines_bounds(args) -> tuple[float, float, float, float]:
    lines = args[0]
    if not lines:
        return 0.0, 0.0, 0.0, 0.0
    return _points([p for line in lines for p in (line.p1(), line.p2())])


def _rect_bounds(args) -> tuple[float, float, float, float]:
    r = args[0]
    return r.left(), r.top(), r.right(), r.bottom()


def _rects_bounds(args) -> tuple[float, float, float, float]:
    return _union(args[0]) if args[0] else (0.0, 0.0, 0.0, 0.0)


def _polygon_bounds(args) -> tuple[float, float, float, float]:
    r = args[0].boundingRect()
    return r.left(), r.top(), r.right(), r.bottom()


def _static_bounds(args) -> tuple[float, float, float, float]:
    point, static = args
    size = static.size()
    return point.x(), point.y(), point.x() + size.width(), point.y() + size.height()


#: How far each recorded call can reach, from its arguments.
BOUNDS = {
    "drawLine": _line_bounds,
    "drawLines": _lines_bounds,
    "drawRect": _rect_bounds,
    "drawRects": _rects_bounds,
    "drawRoundedRect": _rect_bounds,
    "drawEllipse": _rect_bounds,
    "drawPolygon": _polygon_bounds,
    "drawStaticText": _static_bounds,
    "fillRect": _rect_bounds,
}


class _Interned:
    """Pens, brushes, colours and transforms kept one object per value, per thread: a
    sheet makes a new QPen for every box it draws, but two recordings of the same sheet
    then hold the very same objects, so comparing them is ``is``, and a helper's calls
    can be remembered under the state they were made in (:meth:`RecordingPen.repeat`)."""

    LIMIT = 4000

    def __init__(self):
        self.values: dict = {}
        # A new QPainter's state: black pen, no brush, the application's font.
        self.start = (QPen(), QBrush(), QFont(), None)

    def get(self, key, value):
        found = self.values.get(key)
        if found is None:  # past LIMIT it starts afresh: recordings then differ once, drawn whole
            found = keep(self.values, key, value, self.LIMIT)
        return found


_local = threading.local()


def _interned() -> _Interned:
    interned = getattr(_local, "interned", None)
    if interned is None:
        interned = _local.interned = _Interned()
    return interned


def _pen_key(pen) -> tuple:
    if isinstance(pen, QPen):
        style = pen.style()
        return ("pen", pen.color().rgba(), pen.widthF(), style, pen.capStyle(),
                pen.joinStyle(), pen.isCosmetic(),
                tuple(pen.dashPattern()) if style == Qt.PenStyle.CustomDashLine else ())
    if isinstance(pen, QColor):
        return ("pen-colour", pen.rgba())
    return ("pen-style", pen)


def _brush_key(brush) -> tuple:
    if isinstance(brush, QColor):
        return ("brush-colour", brush.rgba())
    if isinstance(brush, QBrush):
        return ("brush", brush.style(), brush.color().rgba())
    return ("brush-style", brush)


class RecordingPen:
    """Stands in for a QPainter: keeps the drawing calls (``BOUNDS`` names them) and the
    state changes a sheet makes. Text is measured on ``device`` as on the window's image.
    A call a sheet makes that is not here fails loudly (AttributeError), not silently.

    ``look``: what the drawing depends on beyond the calls (``look_of``); ``last``: the
    helpers' calls of the last recording of this sheet (:meth:`repeat`)."""

    def __init__(self, device, width: float, theme=None, look: tuple = (),
                 last: dict | None = None):
        self._device = device
        #: The theme the sheet is drawn in (a remembered helper drawn in another runs).
        self.theme = theme
        self.width = width
        self.calls: list[Call] = []
        self._interned = _interned()
        self._pen, self._brush, self._font, self._transform = self._interned.start
        self._saved: list[tuple] = []
        self.look = look
        self.remembered: dict = {}
        self._last = last or {}
        self._inside: list[list] = []  # for each helper running: what it repeated or ran

    # -- state ------------------------------------------------------------------
    def device(self):
        return self._device

    def setPen(self, pen) -> None:
        self._pen = self._interned.get(_pen_key(pen), pen)

    def pen(self):
        return self._pen

    def setBrush(self, brush) -> None:
        self._brush = self._interned.get(_brush_key(brush), brush)

    def brush(self):
        return self._brush

    def setFont(self, font) -> None:
        self._font = font  # the sheets' fonts are kept, one per size (sheets.base)

    def setRenderHint(self, hint, on: bool = True) -> None:
        """Every sheet draws antialiased; :func:`replay` sets the same hints."""

    def save(self) -> None:
        self._saved.append((self._pen, self._brush, self._font, self._transform))

    def restore(self) -> None:
        self._pen, self._brush, self._font, self._transform = self._saved.pop()

    def _set_transform(self, t: QTransform) -> None:
        key = ("transform", t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy())
        self._transform = self._interned.get(key, t)

    def translate(self, *args) -> None:
        offset = args[0] if len(args) == 1 else QPointF(*args)
        t = QTransform(self._transform) if self._transform is not None else QTransform()
        self._set_transform(t.translate(offset.x(), offset.y()))

    def rotate(self, angle: float) -> None:
        t = QTransform(self._transform) if self._transform is not None else QTransform()
        self._set_transform(t.rotate(angle))

    # -- helpers remembered -------------------------------------------------------
    def repeat(self, key: tuple, draw) -> None:
        """Run ``draw`` (a sheet helper that only draws) — or, when the last recording ran
        it under the same ``key`` (its arguments) in the same state, repeat the calls it
        made then: a card's five hundred boxes are not drawn afresh for one box's change."""
        self._run(key, draw, None)

    def section(self, sheet, key: tuple, draw):
        """Run ``draw`` (a part of ``sheet`` that draws, places boxes and returns a value)
        — or, when the last recording ran it under the same ``key`` in the same state,
        repeat its calls, place its boxes again and return the value it returned then."""
        return self._run(key, draw, sheet)

    def _run(self, key: tuple, draw, sheet):
        pen, brush, font, transform = self._pen, self._brush, self._font, self._transform
        # By the state's identities (Qt's values do not hash), checked on a hit: an id
        # may be reused once its object is gone.
        key = (key, id(pen), id(brush), id(font), id(transform))
        found = self._last.get(key) or self.remembered.get(key)
        if found is not None and (found[0][0] is pen and found[0][1] is brush
                                  and found[0][2] is font and found[0][3] is transform):
            self.calls.extend(found[1])
            self._pen, self._brush, self._font, self._transform = found[2]
            # The helpers it ran inside are remembered too: when it must run again (one of
            # a row's boxes changed), the row's other boxes are repeated.
            for inner in found[3]:
                self.remembered[inner[0]] = inner[1]
            if found[4]:
                sheet.place_again(found[4])
        else:
            start = len(self.calls)
            placed_from = len(sheet.areas) if sheet is not None else 0
            self._inside.append([])
            try:
                value = draw()
            finally:
                inside = self._inside.pop()
            placed = (tuple((area.rect, area.key) for area in sheet.areas[placed_from:])
                      if sheet is not None else ())
            found = ((pen, brush, font, transform), self.calls[start:],
                     (self._pen, self._brush, self._font, self._transform), inside, placed,
                     value)
        self.remembered[key] = found
        if self._inside:
            self._inside[-1].append((key, found))
        return found[5]

    # -- drawing ----------------------------------------------------------------
    def _call(self, name: str, args: tuple) -> None:
        x0, y0, x1, y1 = BOUNDS[name](args)
        if self._transform is not None:
            mapped = self._transform.mapRect(QRectF(x0, y0, x1 - x0, y1 - y0))
            x0, y0, x1, y1 = mapped.left(), mapped.top(), mapped.right(), mapped.bottom()
        self.calls.append(Call(name, args, self._pen, self._brush, self._font, self._transform,
                               (x0 - PAD, y0 - PAD, x1 + PAD, y1 + PAD)))

    def drawText(self, rect, flags, text) -> None:
        """Laid-out (wrapped or multi-line) text: it may run past its rectangle, so it is
        taken to reach across the sheet and a line below."""
        self.calls.append(Call("drawText", (rect, flags, text), self._pen, self._brush,
                               self._font, self._transform,
                               (0.0, rect.top() - PAD - 12, self.width,
                                rect.bottom() + PAD + 12)))


def _recorder(name: str):
    def draw(self, *args) -> None:
        self._call(name, args)
    draw.__name__ = name
    return draw


# drawLine, drawRect, drawStaticText …: each QPainter call that ``BOUNDS`` can bound.
for _name in BOUNDS:
    setattr(RecordingPen, _name, _recorder(_name))


def _repeater(painter, theme):
    """``painter.repeat`` when ``painter`` records in ``theme``; else None (a real painter,
    or a helper drawn in another theme than the sheet's: it just runs)."""
    repeat = getattr(painter, "repeat", None)
    return repeat if repeat is not None and theme is painter.theme else None


def section(sheet, painter, theme, key: tuple, draw):
    """Run ``draw`` — a part of ``sheet`` that draws, places boxes (``add_box``) and returns
    a value, reading nothing but what ``key`` holds, ``theme``, the painter's state and the
    sheet's measures — or, recording, repeat what it did under the same ``key`` in the last
    recording (:meth:`RecordingPen.section`): its calls, its boxes, its value. A key must
    name everything the part shows, the boxes' keys included; what it does not name is
    taken to be as it was."""
    if _repeater(painter, theme) is None:
        return draw()
    return painter.section(sheet, key, draw)


def remembered(method):
    """Mark a sheet helper ``(self, painter, theme, rect, ...)`` that only draws (no box
    placed, nothing returned, nothing read but its arguments, ``theme`` and the painter's
    state) so that a recording may repeat its calls from the last one
    (:meth:`RecordingPen.repeat`). With a real painter it just runs."""
    name = method.__name__

    @functools.wraps(method)
    def helper(self, painter, theme, rect, *args, **kwargs):
        repeat = _repeater(painter, theme)
        if repeat is None:
            return method(self, painter, theme, rect, *args, **kwargs)
        repeat((name, rect.getRect(), args, tuple(kwargs.items())),
               lambda: method(self, painter, theme, rect, *args, **kwargs))
        return None
    return helper


def look_of(sheet, theme) -> tuple:
    """The theme's colours and what else sets how the sheet's helpers draw, as a key."""
    return (tuple(getattr(theme, name).rgba() for name in
                  ("paper", "ink", "faint", "mark", "accent", "muted")),
            theme.on_paper, theme.touch, sheet.turn_marks, type(sheet),
            sheet.sheet_layout)


def record(sheet, theme, device, last: DisplayList | None = None) -> DisplayList:
    """``sheet`` drawn into a display list (its hit areas and height are then set too).
    ``last``: this sheet's previous recording, whose helpers' calls may be repeated."""
    look = look_of(sheet, theme)
    pen = RecordingPen(device, sheet.width, theme, look,
                       last.remembered if last is not None and last.look == look else None)
    sheet.paint(pen, theme, paper=False)
    height = sheet.drawn_size().height()
    # The paper first, as tall as the sheet came out (not as tall as it was assumed to be).
    paper = RecordingPen(device, sheet.width)
    sheet.fill_rect(paper, QRectF(0, 0, sheet.width, height), theme.paper)
    return DisplayList(paper.calls + pen.calls, sheet.width, height, look, pen.remembered)


def _same(a: Call, b: Call) -> bool:
    """The same call in the same state (pens and the like are interned: ``is``)."""
    return a is b or (a.name == b.name and a.pen is b.pen and a.brush is b.brush
                      and a.font is b.font and a.transform is b.transform
                      and a.args == b.args)


#: How far ahead, in calls on either side, a comparison looks for the two drawings to
#: agree again after a call came or went (a mark added, a line of notes removed).
LOOK_AHEAD = 24
#: Calls that must agree in a row to count as agreeing again.
AGREE = 3


def _resync(a: list[Call], b: list[Call], i: int, j: int) -> tuple[int, int] | None:
    """The nearest (i', j') past a mismatch at (i, j) from which ``AGREE`` calls agree."""
    for reach in range(1, 2 * LOOK_AHEAD + 1):
        for p in range(max(0, reach - LOOK_AHEAD), min(reach, LOOK_AHEAD) + 1):
            q = reach - p
            x, y = i + p, j + q
            if x + AGREE > len(a) or y + AGREE > len(b):
                continue
            if all(_same(a[x + k], b[y + k]) for k in range(AGREE)):
                return x, y
    return None


def dirty_rects(old: DisplayList, new: DisplayList) -> list[QRectF] | None:
    """The rectangles (sheet units) where ``new`` draws otherwise than ``old``; an empty
    list when they draw the same; None when the whole sheet must be drawn (its size moved).

    The calls are compared in order. Where they differ, the two lists are searched a
    little way ahead (``LOOK_AHEAD``) for where they agree again: the calls skipped on
    both sides are dirty (a changed label is one call each side; an added mark is one
    call on the new side). When they never agree again, everything after is dirty."""
    if old.width != new.width or old.height != new.height:
        return None
    a, b = old.calls, new.calls
    i = j = 0
    bounds: list[tuple[float, float, float, float]] = []
    while i < len(a) and j < len(b):
        if _same(a[i], b[j]):
            i += 1
            j += 1
            continue
        found = _resync(a, b, i, j)
        if found is None:
            break
        bounds.extend(c.bounds for c in a[i:found[0]])
        bounds.extend(c.bounds for c in b[j:found[1]])
        i, j = found
    bounds.extend(c.bounds for c in a[i:])
    bounds.extend(c.bounds for c in b[j:])
    return [QRectF(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in _merged(bounds)]


def _merged(bounds: list[tuple[float, float, float, float]]) -> list[tuple]:
    """The rectangles with those that overlap merged into one (a box and its mark, a
    label and its neighbour), and all of them into one past ``MAX_RECTS``."""
    rects = list(dict.fromkeys(bounds))
    merging = True
    while merging:
        merging = False
        for n, (x0, y0, x1, y1) in enumerate(rects):
            for m in range(n + 1, len(rects)):
                u0, v0, u1, v1 = rects[m]
                if x0 <= u1 and u0 <= x1 and y0 <= v1 and v0 <= y1:
                    rects[n] = (min(x0, u0), min(y0, v0), max(x1, u1), max(y1, v1))
                    del rects[m]
                    merging = True
                    break
            if merging:
                break
    if len(rects) > MAX_RECTS:
        rects = [(min(r[0] for r in rects), min(r[1] for r in rects),
                  max(r[2] for r in rects), max(r[3] for r in rects))]
    return rects


def replay(painter: QPainter, display: DisplayList,
           dirty: list[tuple[float, float, float, float]] | None = None) -> int:
    """Draw ``display`` on ``painter`` (already scaled to sheet units). With ``dirty``
    (x0, y0, x1, y1 rectangles, sheet units) only the calls that reach one of them are
    drawn; the caller clips to them. Returns how many calls were drawn."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    base = painter.worldTransform()
    pen = brush = font = transform = _UNSET
    drawn = 0
    for call in display.calls:
        if dirty is not None:
            x0, y0, x1, y1 = call.bounds
            for d0, e0, d1, e1 in dirty:
                if x0 < d1 and d0 < x1 and y0 < e1 and e0 < y1:
                    break
            else:
                continue
        if call.pen is not pen:
            pen = call.pen
            painter.setPen(pen)
        if call.brush is not brush:
            brush = call.brush
            painter.setBrush(brush)
        if call.font is not font:
            font = call.font
            painter.setFont(font)
        if call.transform is not transform:
            transform = call.transform
            painter.setWorldTransform(transform * base if transform is not None else base)
        getattr(painter, call.name)(*call.args)
        drawn += 1
    painter.setWorldTransform(base)
    return drawn


_UNSET = object()

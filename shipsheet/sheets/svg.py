"""A display list (``display.py``) written as SVG text: a phone's sheet.

Qt's SVG generator was handed the recording call by call, most calls after a change of pen
or font: about 610 calls from Python into PySide for one fedcom sheet, 1.9 ms (the
generator's own work is small: the same replay into a QPicture costs 1.6 ms). This writes
the same shapes and text as SVG elements in Python, and keeps each call's text: a
recording repeats the Call objects of whatever did not change since the ship's last
drawing (``RecordingPen.repeat``), so a change writes only the calls it changed (the texts
are kept with the ship's last recording: ``share/render.py``).

What it writes is what Qt's generator wrote, shape for shape: the same rectangles, lines,
ellipses and polygons with the same strokes and fills, the same text at the same
baselines (``tests/sheets/test_svg.py`` compares them element by element, and as pictures,
for every sample sheet of every game). Text from files is escaped: SVG is markup.

Only the calls a sheet records are known (``display.BOUNDS``, and ``drawText``); another
raises, as the recorder does.
"""

from __future__ import annotations

import math
import threading
from xml.sax.saxutils import escape, quoteattr

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPen, QTextLayout, QTextOption

from ..model.kept import by_identity
from .display import Call, DisplayList

_CAPS = {Qt.PenCapStyle.FlatCap: "butt", Qt.PenCapStyle.SquareCap: "square",
         Qt.PenCapStyle.RoundCap: "round"}
_JOINS = {Qt.PenJoinStyle.BevelJoin: "bevel", Qt.PenJoinStyle.MiterJoin: "miter",
          Qt.PenJoinStyle.SvgMiterJoin: "miter", Qt.PenJoinStyle.RoundJoin: "round"}

_local = threading.local()


class _Kept:
    """This thread's texts of each pen, brush and font (the recorder's, one per value; by
    identity, checked) and each font's ascent."""

    def __init__(self):
        self.styles: dict[int, tuple[object, str]] = {}
        self.ascents: dict[int, tuple[object, float]] = {}


def _kept() -> _Kept:
    kept = getattr(_local, "kept", None)
    if kept is None:
        kept = _local.kept = _Kept()
    return kept


def _n(value: float) -> str:
    """A number as Qt's generator writes it (six significant digits, no trailing zeros)."""
    return f"{value:.6g}"


def _colour(colour: QColor) -> tuple[str, str | None]:
    """``#rrggbb`` and the opacity when it is not whole."""
    alpha = colour.alphaF()
    return colour.name(), None if alpha >= 1.0 else _n(alpha)


def _filled(colour: QColor) -> str:
    name, opacity = _colour(colour)
    return f'fill="{name}"' + (f' fill-opacity="{opacity}"' if opacity is not None else "")


def _stroke(pen) -> str:
    pen = pen if isinstance(pen, QPen) else QPen(pen)
    if pen.style() == Qt.PenStyle.NoPen:
        return 'stroke="none"'
    colour, opacity = _colour(pen.color())
    parts = [f'stroke="{colour}"', f'stroke-width="{_n(pen.widthF() or 1.0)}"',
             f'stroke-linecap="{_CAPS.get(pen.capStyle(), "square")}"',
             f'stroke-linejoin="{_JOINS.get(pen.joinStyle(), "bevel")}"']
    if opacity is not None:
        parts.append(f'stroke-opacity="{opacity}"')
    if pen.style() != Qt.PenStyle.SolidLine:
        pattern = pen.dashPattern()
        width = pen.widthF() or 1.0
        parts.append(f'stroke-dasharray="{",".join(_n(d * width) for d in pattern)}"')
    return " ".join(parts)


def _fill(brush) -> str:
    brush = brush if isinstance(brush, QBrush) else QBrush(brush)
    if brush.style() == Qt.BrushStyle.NoBrush:
        return 'fill="none"'
    if brush.style() != Qt.BrushStyle.SolidPattern:
        raise ValueError(f"a brush the SVG writer does not know: {brush.style()}")
    return _filled(brush.color())


def _text_fill(pen) -> str | None:
    """Text is drawn in the pen's colour (none with no pen)."""
    pen = pen if isinstance(pen, QPen) else QPen(pen)
    if pen.style() == Qt.PenStyle.NoPen:
        return None
    return _filled(pen.color())


def _font(font) -> str:
    families = ",".join(font.families()) or font.family()
    size = font.pixelSize() if font.pixelSize() > 0 else font.pointSizeF()  # 72 dpi: 1 pt = 1 unit
    style = "italic" if font.italic() else "normal"
    return (f'font-family={quoteattr(families)} font-size="{_n(size)}" '
            f'font-weight="{int(font.weight())}" font-style="{style}"')


#: Pens, brushes and fonts whose attributes are kept, at most: as many as the recorder
#: interns (``display._Interned.LIMIT``) before it starts afresh, as this then does.
KEPT_STYLES = 4000


def _style(kept: _Kept, obj, make) -> str:
    """The attributes of a pen, brush or font (interned by the recorder: one per value)."""
    return by_identity(kept.styles, obj, lambda: make(obj), KEPT_STYLES)


def _ascent(kept: _Kept, font, device) -> float:
    # Qt's text engine counts in 64ths of a unit (QFixed): its baselines are there.
    return by_identity(kept.ascents, font,
                       lambda: round(QFontMetricsF(font, device).ascent() * 64) / 64, KEPT_STYLES)


def _shape(kept: _Kept, call: Call) -> str:
    return (_style(kept, call.pen, _stroke) + " " + _style(kept, call.brush, _fill))


def _rect(r, shape: str, extra: str = "") -> str:
    return (f'<rect x="{_n(r.x())}" y="{_n(r.y())}" width="{_n(r.width())}" '
            f'height="{_n(r.height())}"{extra} {shape}/>')


def _line(a: QPointF, b: QPointF, stroke: str) -> str:
    return (f'<line x1="{_n(a.x())}" y1="{_n(a.y())}" x2="{_n(b.x())}" y2="{_n(b.y())}" '
            f'{stroke}/>')


def _text(x: float, baseline: float, text: str, font: str, fill: str) -> str:
    return (f'<text x="{_n(x)}" y="{_n(baseline)}" {font} {fill} xml:space="preserve">'
            f'{escape(text)}</text>')


def _wrapped(kept: _Kept, call: Call, device) -> str:
    """``drawText(rect, flags, text)`` as Qt lays it out (``qt_format_text``): lines of
    the rectangle's width, each on a whole unit below the last, left-aligned from the top
    (the only way the sheets draw wrapped text; another alignment raises)."""
    rect, flags, text = call.args
    if flags & int(Qt.AlignmentFlag.AlignHorizontal_Mask) not in (0, int(Qt.AlignmentFlag.AlignLeft)) or \
            flags & int(Qt.AlignmentFlag.AlignVertical_Mask) not in (0, int(Qt.AlignmentFlag.AlignTop)):
        raise ValueError(f"a text alignment the SVG writer does not know: {flags:#x}")
    fill = _text_fill(call.pen)
    if fill is None or not text:
        return ""
    font = call.font
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap if flags & int(Qt.TextFlag.TextWordWrap)
                       else QTextOption.WrapMode.ManualWrap)
    layout = QTextLayout(text.replace("\n", "\u2028"), font, device)
    layout.setTextOption(option)
    leading = QFontMetricsF(font, device).leading()
    attrs = _style(kept, font, _font)
    parts = []
    height = -leading
    layout.beginLayout()
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(rect.width())
        height += leading
        height = float(-(-height // 1))  # each line on a whole unit (qCeil)
        line.setPosition(QPointF(0.0, height))
        height += line.height()
        shown = text[line.textStart():line.textStart() + line.textLength()].rstrip()
        if shown:
            parts.append(_text(rect.x() + line.x(), rect.y() + line.y() + line.ascent(),
                               shown, attrs, fill))
    layout.endLayout()
    return "".join(parts)


def _written(kept: _Kept, call: Call, device) -> str:
    name, args = call.name, call.args
    if name == "drawStaticText":
        point, static = args
        fill = _text_fill(call.pen)
        if fill is None or not static.text():
            return ""
        # Qt places static text at its point cut to 64ths of a unit (QFixed).
        x, y = math.floor(point.x() * 64) / 64, math.floor(point.y() * 64) / 64
        return _text(x, y + _ascent(kept, call.font, device), static.text(),
                     _style(kept, call.font, _font), fill)
    if name == "drawRect":
        return _rect(args[0], _shape(kept, call))
    if name == "drawRects":
        shape = _shape(kept, call)
        return "".join(_rect(r, shape) for r in args[0])
    if name == "drawLine":
        a, b = (args[0].p1(), args[0].p2()) if isinstance(args[0], QLineF) else args
        return _line(a, b, _style(kept, call.pen, _stroke))
    if name == "drawLines":
        stroke = _style(kept, call.pen, _stroke)
        return "".join(_line(line.p1(), line.p2(), stroke) for line in args[0])
    if name == "drawRoundedRect":
        r, rx, ry = args[0], float(args[1]), float(args[2])
        rx, ry = min(rx, r.width() / 2), min(ry, r.height() / 2)
        return _rect(r, _shape(kept, call), f' rx="{_n(rx)}" ry="{_n(ry)}"')
    if name == "drawEllipse":
        r = args[0]
        c = r.center()
        return (f'<ellipse cx="{_n(c.x())}" cy="{_n(c.y())}" rx="{_n(r.width() / 2)}" '
                f'ry="{_n(r.height() / 2)}" {_shape(kept, call)}/>')
    if name == "drawPolygon":
        points = " ".join(f"{_n(p.x())},{_n(p.y())}" for p in args[0])
        return f'<polygon points="{points}" fill-rule="evenodd" {_shape(kept, call)}/>'
    if name == "drawText":
        return _wrapped(kept, call, device)
    raise ValueError(f"a drawing call the SVG writer does not know: {name}")


def svg_of(display: DisplayList, title: str, device,
           last: dict | None = None) -> tuple[bytes, dict]:
    """The SVG of ``display`` (its size in units of 1/72 inch, as measured on ``device``,
    a paint device at 72 dpi), titled ``title`` (escaped), and the texts of its calls.

    ``last``: the texts of the same sheet's last drawing (what this returned then): its
    calls that this recording repeated keep their text. Kept with the recording by the
    caller, they go with it."""
    if any(call.transform is not None for call in display.calls):
        raise ValueError("a transformed drawing call: the SVG writer does not turn or move")
    kept = _kept()
    last = last or {}
    texts: dict[int, tuple[Call, str]] = {}
    parts = []
    for call in display.calls:
        found = last.get(id(call))
        if found is None or found[0] is not call:
            found = (call, _written(kept, call, device))
        texts[id(call)] = found
        parts.append(found[1])
    width, height = _n(display.width), _n(display.height)
    head = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
            f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            'xmlns="http://www.w3.org/2000/svg" version="1.1">\n'
            f'<title>{escape(title)}</title>\n')
    return (head + "\n".join(parts) + "\n</svg>\n").encode("utf-8"), texts

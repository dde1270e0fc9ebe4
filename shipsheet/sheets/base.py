"""What every sheet painter offers: a size, a drawing, and hit areas.

One painter per game draws a ship's sheet in *sheet units* (1 unit = 1 pt,
1/72 inch) from the model alone. The window scales it to the zoom and the
screen; the printer scales it to the page. The same :meth:`SheetPainter.paint`
serves both, so what prints is what is on screen. A phone (Table Link) is the one place
the sheet is not the paper: the same routine draws it with the phone layout
(:data:`PHONE`: its groups stacked in one narrow column, its boxes big enough for a thumb).

Drawing places the sheet's boxes as hit areas: a key and a rectangle. What a box is
and does — its label and state, what a click does or why not, its menu — is the game's
rules' answer for the key (``model.boxes``), asked when someone points at it. The
*layout step* (:meth:`SheetPainter.layout`) gives the boxes without painting anything.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from ..model.code_cache import dataclass
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QStaticText

from ..model.kept import keep
from ..model.words import PHONE as _PHONE_WORDS, for_device
from .display import remembered, section as _section
from .fonts import FAMILY as _BUNDLED, register_bundled_fonts

if TYPE_CHECKING:  # pragma: no cover
    from PySide6.QtGui import QPicture

    from ..model import Session, Ship
    from ..model.boxes import ActionFactory, BoxAnswer

#: The bundled font first (``sheets/fonts.py``: every machine and the phone measure the sheet
#: in the same font); the others only for a glyph it lacks (a ship named in Chinese).
FONT_FAMILIES = [_BUNDLED, "Noto Sans", "Noto Sans CJK SC", "Arial Unicode MS", "Arial"]
#: Glyphs are fitted to the pixel grid vertically only, whatever the system's font settings
#: say (fontconfig's hinting would make the advances whole pixels on one machine and not on
#: another): a label's width is the font's own, as the printer and the phone measure it.
_HINTING = QFont.HintingPreference.PreferVerticalHinting
_local = threading.local()


class _Caches:
    """Fonts, metrics, widths and laid-out labels, kept per thread: Table Link draws sheets
    on its own thread while the window draws, and Qt's font objects are not to be shared
    between threads while in use."""

    __slots__ = ("fonts", "metrics", "widths", "static", "measure", "kept")

    def __init__(self):
        self.fonts: dict[tuple, QFont] = {}
        #: Each font's metrics, with its ascent and descent (asked for every label).
        self.metrics: dict[tuple, tuple[QFontMetricsF, float, float]] = {}
        self.widths: dict[tuple, float] = {}
        self.static: dict[tuple, QStaticText] = {}
        #: The image the layout step measures text on (``_LayoutPen``).
        self.measure = None
        #: A sheet's fixed parts, made once for every drawing (``SheetPainter.kept``).
        self.kept: dict[tuple, object] = {}


_MAIN = _Caches()
_MAIN_IDENT = threading.main_thread().ident
_get_ident = threading.get_ident


def _caches() -> _Caches:
    if _get_ident() == _MAIN_IDENT:
        return _MAIN
    caches = getattr(_local, "caches", None)
    if caches is None:
        caches = _local.caches = _Caches()
    return caches

_PLAIN = Qt.TextFormat.PlainText
_WRAP = int(Qt.TextFlag.TextWordWrap)
_HCENTER = int(Qt.AlignmentFlag.AlignHCenter)
_RIGHT = int(Qt.AlignmentFlag.AlignRight)
_VCENTER = int(Qt.AlignmentFlag.AlignVCenter)
_BOTTOM = int(Qt.AlignmentFlag.AlignBottom)
_CENTER = Qt.AlignmentFlag.AlignCenter
_TOP_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
_NO_CLIP = int(Qt.TextFlag.TextDontClip)
_NO_BRUSH = Qt.BrushStyle.NoBrush
#: Alignments as numbers (PySide's flag to int conversion is slow, and labels are many).
_FLAG_INTS: dict = {}
_TOP_LEFT_ALIGN = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
#: The height of the title's status line, kept whether it holds words or not (sheet units).
STATUS_LINE = 18.0


def sheet_font(size: float, bold: bool = False, scale: float = 0.75) -> QFont:
    """The sans font of sheets and printed pages: ``size`` units high where ``scale`` is
    72 / the device's dpi. Cached and shared (a sheet draws hundreds of labels in a handful
    of sizes): set it on a painter, never change it. The bundled font is registered with Qt
    before the first is made (``fonts.register_bundled_fonts``)."""
    key = (size, bold, scale)
    fonts = _caches().fonts
    font = fonts.get(key)
    if font is None:
        register_bundled_fonts()
        font = fonts[key] = QFont()
        font.setFamilies(FONT_FAMILIES)
        font.setPointSizeF(size * scale)
        font.setBold(bold)
        font.setHintingPreference(_HINTING)
    return font


def touch_words(text: str) -> str:
    """A hint or tooltip in a touch screen's words: a click is a tap, a right-click a
    long-press (``model.words.for_device``, the one table of the devices' words)."""
    return for_device(text, _PHONE_WORDS)


@dataclass(frozen=True)
class Theme:
    """Colours of a sheet. Marks never rely on colour alone: shapes carry the meaning."""

    paper: QColor
    ink: QColor
    faint: QColor  # rules, unmarked box outlines' fill
    mark: QColor  # pen marks (slash, X)
    accent: QColor  # current die / D-level circle, hover
    muted: QColor  # secondary text
    #: Drawn for paper (print, PDF): hints for the screen ("click a box …") are left out.
    on_paper: bool = False
    #: Drawn for a touch screen (Table Link's phones): hints say tap, not click.
    touch: bool = False

    @staticmethod
    def print_theme() -> "Theme":
        """Black on white, for paper and PDF."""
        return Theme(QColor("#ffffff"), QColor("#000000"), QColor("#f0f0f0"),
                     QColor("#000000"), QColor("#000000"), QColor("#444444"), on_paper=True)

    def hint(self, text: str) -> str:
        """A hint for the screen (what a click does): nothing on paper, a tap on a phone."""
        if self.on_paper:
            return ""
        return touch_words(text) if self.touch else text

    def for_touch(self) -> "Theme":
        """The same colours, with hints for a touch screen."""
        return replace(self, touch=True)

    @staticmethod
    def light() -> "Theme":
        return Theme(QColor("#fdfcf8"), QColor("#1d1d1f"), QColor("#efece4"),
                     QColor("#b3261e"), QColor("#1f5fbf"), QColor("#5f5f66"))

    @staticmethod
    def dark() -> "Theme":
        return Theme(QColor("#24262b"), QColor("#e8e6e1"), QColor("#33363d"),
                     QColor("#ff8a80"), QColor("#8ab4f8"), QColor("#a9a9b0"))


@dataclass(frozen=True)
class SheetLayout:
    """Where a sheet puts its groups and how big it draws its boxes: the paper's (the
    window and the printer: the screen is the paper) or the phone's (Table Link). Every
    sheet has one drawing routine; a layout only changes its measures."""

    name: str
    width: float  # the sheet's width, in units
    margin: float
    #: The least width and height of a box's hit area, in units (0: as drawn). A layout
    #: with one is a phone's: one column, each box at least this far from the next.
    touch: float = 0.0

    @property
    def phone(self) -> bool:
        return self.touch > 0


#: The paper: A4 portrait, in points. The window and the printer draw it.
PAPER = SheetLayout("paper", 595.0, 28.0)
#: The narrowest a phone's page shows its sheet, in CSS px: a 360 px phone less the page's
#: gutters (page.css: main's 8 px each side, the frame's 1 px border).
PHONE_SHOWN_PX = 342.0
#: A phone's sheet: one column 240 units wide, so a unit is at least 342 / 240 = 1.425 CSS px
#: and a box's hit area of 32 units at least 45.6 px, over the 44 × 44 of WCAG 2.5.5.
#: Text of 8 units reads at 11.4 px or more (on the paper at a phone's width: 4.5 px).
PHONE = SheetLayout("phone", 240.0, 8.0, touch=32.0)


class HitArea:
    """A box of the sheet as drawn: its key and its rectangle (sheet units), and — asked of
    the game's rules with the key when first needed (``model.boxes.box_answer``) — its
    label, state, tooltip, what a click does or why not, and its menu. Drawing places keys
    only: no answer is worked out for a box nobody points at."""

    __slots__ = ("rect", "key", "_ship", "_session", "_answer")

    def __init__(self, rect: QRectF, key: str, ship: "Ship", session: "Session | None"):
        self.rect = rect
        self.key = key
        self._ship = ship
        self._session = session
        self._answer: "BoxAnswer | None" = None

    @property
    def answer(self) -> "BoxAnswer":
        if self._answer is None:
            from ..model.boxes import box_answer
            found = box_answer(self._session, self._ship, self.key)
            if found is None:  # a sheet drew a key its game does not know: a bug, said so
                raise KeyError(f"{self._ship.game}: the sheet drew box {self.key!r}, "
                               "which its boxes piece does not answer")
            self._answer = found
        return self._answer

    @property
    def label(self) -> str:
        return self.answer.label

    @property
    def state(self) -> str:
        return self.answer.state

    @property
    def tooltip(self) -> str:
        """What the box is and what clicking does."""
        return self.answer.tooltip

    @property
    def click(self) -> "ActionFactory | None":
        """Builds the action a left click applies; None when clicking does nothing."""
        return self.answer.click

    @property
    def refusal(self) -> str | None:
        """Why a click is refused, shown on hover and in the status bar."""
        return self.answer.refusal

    @property
    def right(self) -> str:
        """What a tap needs of a phone's seat: MARK or DECIDE."""
        return self.answer.right

    def has_menu(self) -> bool:
        """True when the area offers a context menu at all (it may have nothing in it now)."""
        return self.answer.has_menu()

    @property
    def menu(self) -> "list[tuple[str, ActionFactory]]":
        """Context-menu entries: (label, action builder)."""
        return self.answer.menu

    def __repr__(self) -> str:
        return f"HitArea({self.key!r})"


def measure_device():
    """The image text is measured on while a sheet is laid out or recorded (1×1, per
    thread, never painted on): its resolution is the window's images'."""
    caches = _caches()
    if caches.measure is None:
        from PySide6.QtGui import QImage
        caches.measure = QImage(1, 1, QImage.Format.Format_ARGB32_Premultiplied)
    return caches.measure


class _LayoutPen:
    """Stands in for a QPainter while a sheet is laid out: every drawing call does nothing.
    Text is measured as the window draws it, on an image (``device()``: a 1×1 one, per
    thread, never painted on). The one drawing routine of a sheet runs against it, so the
    boxes it places are where the drawing puts them."""

    def device(self):
        return measure_device()

    def __getattr__(self, name):
        return _nothing


def _nothing(*args, **kwargs):
    return None


class SheetPainter:
    """Base of every game's sheet. Subclasses implement ``draw`` and fill ``areas``."""

    width = 595.0  # A4 portrait in points
    margin = 28.0
    box = 16.0  # the one box size of a sheet
    #: The box size on a phone (its hit area is ``touch`` units, a little more).
    phone_box = 26.0
    #: The least width and height of a hit area (the phone layout's; 0 on the paper).
    touch = 0.0

    #: Show this turn's marks apart: set by ``painter_for(..., turn_marks=True)``.
    turn_marks = False

    def __init__(self, ship: "Ship", session: "Session | None" = None, *,
                 layout: SheetLayout = PAPER):
        self.ship = ship
        self.session = session
        #: The paper's or the phone's measures (``phone``: one column, boxes for a thumb).
        self.sheet_layout = layout
        self.phone = layout.phone
        if layout is not PAPER:  # the paper's measures are the class's
            self.width = layout.width
            self.margin = layout.margin
            self.touch = layout.touch
        if self.phone:
            self.box = self.phone_box
        self.areas: list[HitArea] = []
        self._height = 400.0
        # Fonts are sized in sheet units whatever the device's resolution.
        self._font_scale = 0.75
        self._pens = None  # (theme, the box pens in it): see _box_pens

    # -- geometry ----------------------------------------------------------
    def size(self) -> QSizeF:
        """The sheet's size in units (lays it out without drawing)."""
        self.layout()
        return QSizeF(self.width, self._height)

    def layout(self) -> list[HitArea]:
        """The layout step: the sheet's boxes (key, rectangle; label and state asked of the
        rules) and its height, without a painter or a paint device — the drawing routine
        runs against a pen that draws nothing."""
        self.paint(_LayoutPen(), Theme.light())
        return self.areas

    def answer_all(self, areas: "list[HitArea] | None" = None) -> None:
        """Ask the rules for every placed box's answer at once (``model.boxes.box_answers``:
        a game may work out once what many share), for a use that reads them all now — a
        phone's sheet lists every box with its label. ``areas``: these of them only."""
        from ..model.boxes import box_answers
        pending = [area for area in (self.areas if areas is None else areas)
                   if area._answer is None]
        for area, answer in zip(pending, box_answers(self.session, self.ship,
                                                     [area.key for area in pending])):
            area._answer = answer  # None: the area's own lookup says so when asked

    def add_box(self, rect: QRectF, key: str) -> None:
        """Place box ``key`` (one of the game's keys, ``rules/<game>/boxes.py``) at ``rect``.
        On a phone a box smaller than ``touch`` is tapped over ``touch`` units round its
        middle (the layout leaves the room: boxes are ``touch`` apart)."""
        if self.touch:
            grow_w = max(0.0, self.touch - rect.width()) / 2
            grow_h = max(0.0, self.touch - rect.height()) / 2
            if grow_w or grow_h:
                rect = rect.adjusted(-grow_w, -grow_h, grow_w, grow_h)
        self.areas.append(HitArea(rect, key, self.ship, self.session))

    #: How many fixed parts ``kept`` keeps per thread before it starts afresh.
    KEPT_LIMIT = 4000

    def kept(self, key: tuple, make):
        """What ``make()`` returns for ``key``, made once and kept (per thread): a sheet's
        fixed parts — where a row's boxes go, their keys and numbers — are the same at
        every drawing. ``key`` names everything ``make`` reads; what it returns is shared,
        never to be changed."""
        kept = _caches().kept
        found = kept.get(key)
        if found is None:
            found = keep(kept, key, make(), self.KEPT_LIMIT)
        return found

    def place_again(self, placed: tuple) -> None:
        """Place boxes as an earlier drawing placed them: (rect, key) pairs, each rect as
        ``add_box`` made it (``sheets.display.section`` repeating a part of the sheet)."""
        ship, session = self.ship, self.session
        self.areas.extend([HitArea(rect, key, ship, session) for rect, key in placed])

    def record(self, theme: Theme) -> QPicture:
        """Draw the sheet once into a vector recording, which replays fast at any zoom.

        Afterwards ``areas`` and :meth:`drawn_size` describe that drawing.
        """
        from PySide6.QtGui import QPicture  # here: most windows never record a sheet
        picture = QPicture()
        painter = QPainter(picture)
        try:
            self.paint(painter, theme)
        finally:
            painter.end()
        return picture

    def assume_height(self, height: float) -> None:
        """Start from ``height`` until drawn (the sheet view draws into an image this tall)."""
        self._height = height

    def drawn_size(self) -> QSizeF:
        """The size of the last drawing, in sheet units."""
        return QSizeF(self.width, self._height)

    def release(self) -> None:
        """Drop the hit areas of a painter that is being replaced (their answers hold
        action builders; nothing should keep a replaced sheet's boxes alive)."""
        self.areas = []

    def hit(self, pos: QPointF) -> HitArea | None:
        """The hit area under ``pos`` (sheet units), topmost first."""
        for area in reversed(self.areas):
            if area.rect.contains(pos):
                return area
        return None

    # -- drawing -----------------------------------------------------------
    def paint(self, painter: QPainter, theme: Theme, *, paper: bool = True) -> None:
        """Draw the whole sheet at the origin, in sheet units. ``paper``: on the paper's
        colour, as tall as the sheet is assumed to be (``sheets.display`` lays the paper
        itself, once the height is known)."""
        self.areas = []
        dpi = painter.device().logicalDpiY() if painter.device() is not None else 96
        self._font_scale = 72.0 / (dpi or 96)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        if paper:
            self.fill_rect(painter, QRectF(0, 0, self.width, self._height), theme.paper)
        y = self.draw(painter, theme)
        painter.restore()
        self._height = max(200.0, y + self.margin)

    def draw(self, painter: QPainter, theme: Theme) -> float:
        """Draw the sheet; return the y of the bottom of the content."""
        return self.draw_title(painter, theme)

    # -- shared pieces (used by every game's sheet) ---------------------------
    def font(self, size: float, bold: bool = False) -> QFont:
        """A sans font whose height is ``size`` sheet units on any device (see ``sheet_font``)."""
        return sheet_font(size, bold, self._font_scale)

    def _font_metrics(self, painter: QPainter, size: float,
                      bold: bool) -> tuple[QFontMetricsF, float, float]:
        """The metrics of the font at ``size``, its ascent and its descent (cached)."""
        key = (size, bold, self._font_scale)
        cache = _caches().metrics
        found = cache.get(key)
        if found is None:
            metrics = QFontMetricsF(self.font(size, bold), painter.device())
            found = cache[key] = (metrics, metrics.ascent(), metrics.descent())
        return found

    def _metrics(self, painter: QPainter, size: float, bold: bool) -> QFontMetricsF:
        return self._font_metrics(painter, size, bold)[0]

    def advance(self, painter: QPainter, text: str, size: float = 9, bold: bool = False) -> float:
        """How wide ``text`` is drawn by :meth:`text` at ``size`` (cached, in sheet units)."""
        wkey = (size, bold, self._font_scale, text)
        widths = _caches().widths
        width = widths.get(wkey)
        if width is None:
            width = widths[wkey] = self._metrics(painter, size, bold).horizontalAdvance(text)
            if len(widths) > 20000:  # labels repeat; free text does not: keep the cache small
                widths.clear()
        return width

    def elide(self, painter: QPainter, text: str, width: float, size: float = 9,
              bold: bool = False) -> str:
        """``text`` shortened with "…" to fit ``width`` at ``size`` (whole when it fits)."""
        if self.advance(painter, text, size, bold) <= width:
            return text
        return self._metrics(painter, size, bold).elidedText(text, Qt.TextElideMode.ElideRight, width)

    def text(self, painter: QPainter, rect: QRectF, text: str, *, size: float = 9,
             bold: bool = False, color: QColor | None = None,
             align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter) -> None:
        """Draw one label in ``rect`` with ``align``.

        Single-line labels are placed from the font's metrics and drawn at a point:
        several times faster than Qt's rectangle layout, which matters on a card
        with hundreds of numbered boxes. Multi-line or wrapped text uses the layout.
        """
        font = self.font(size, bold)
        painter.setFont(font)
        if color is not None:
            painter.setPen(color)
        flags = _FLAG_INTS.get(align)
        if flags is None:
            flags = _FLAG_INTS[align] = int(align)
        if "\n" in text or flags & _WRAP:
            painter.drawText(rect, flags, text)
            return
        # Measured only when it places the text: measuring shapes the text once more.
        if flags & _HCENTER:
            x = rect.x() + rect.width() / 2 - self.advance(painter, text, size, bold) / 2
        elif flags & _RIGHT:
            x = rect.right() - self.advance(painter, text, size, bold)
        else:
            x = rect.left()
        _metrics, ascent, descent = self._font_metrics(painter, size, bold)
        if flags & _VCENTER:
            top = rect.y() + rect.height() / 2 - (ascent + descent) / 2
        elif flags & _BOTTOM:
            top = rect.bottom() - descent - ascent
        else:
            top = rect.top()
        painter.drawStaticText(QPointF(x, top), self._static(text, size, bold))

    def line_height(self, painter: QPainter, size: float = 9, bold: bool = False) -> float:
        """The height of a line of text at ``size`` (sheet units)."""
        _metrics, ascent, descent = self._font_metrics(painter, size, bold)
        return ascent + descent

    def wrapped(self, painter: QPainter, x: float, y: float, w: float, text: str, *,
                size: float = 9, bold: bool = False, color: QColor | None = None) -> float:
        """``text`` from (x, y), wrapped at ``w`` units (a phone's column has no room for a
        long line): a line that fits is drawn as :meth:`text` draws it. Returns the y under
        it. Measured on the painter's device, as it is drawn."""
        line = self.line_height(painter, size, bold)
        if self.advance(painter, text, size, bold) <= w:
            self.text(painter, QRectF(x, y, w, line), text, size=size, bold=bold, color=color)
            return y + line
        flags = _TOP_LEFT | _WRAP | _NO_CLIP
        height = self._metrics(painter, size, bold).boundingRect(
            QRectF(x, y, w, 10000.0), flags, text).height()
        painter.setFont(self.font(size, bold))
        if color is not None:
            painter.setPen(color)
        painter.drawText(QRectF(x, y, w, height), flags, text)
        return y + height

    def _static(self, text: str, size: float, bold: bool) -> QStaticText:
        """``text`` laid out once and kept (labels repeat on every drawing): drawn about three
        times faster than ``drawText``. Always plain text, never markup: names come from files."""
        key = (size, bold, self._font_scale, text)
        cache = _caches().static
        static = cache.get(key)
        if static is None:
            if len(cache) > 5000:
                cache.clear()
            static = cache[key] = QStaticText(text)
            static.setTextFormat(_PLAIN)
        return static

    def draw_title(self, painter: QPainter, theme: Theme, subtitle: str = "") -> float:
        """Title block: ship name large, class and game small, status words. Returns y below.

        A section (``sheets.display.section``) named by all it reads — the ship's name,
        class, game and side, the status words, the room its stamp keeps, whether this
        turn's marks are shown apart, the layout — so a change that leaves them as they
        were repeats the title without measuring its words again."""
        ship = self.ship
        chips = tuple(self.status_words())
        key = ("title", ship.name, subtitle, ship.ship_class.name, ship.ship_class.sample,
               ship.game, ship.side, chips, self.title_reserve(),
               self.turn_marks, self.phone, self.width, self.margin)
        return _section(self, painter, theme, key,
                        lambda: self._draw_title(painter, theme, subtitle, chips))

    def _draw_title(self, painter: QPainter, theme: Theme, subtitle: str,
                    chips: tuple[str, ...]) -> float:
        m = self.margin
        w = self.width - 2 * m
        ship = self.ship
        painter.setPen(theme.ink)
        if ship.name:  # a name too long for the sheet ends in "…" rather than off the page
            room = w - self.title_reserve()  # or under what the sheet puts at its right
            self.text(painter, QRectF(m, m, w, 30), self.elide(painter, ship.name, room, 20, True),
                      size=20, bold=True, color=theme.ink)
        else:  # a blank sheet: a line to write the name on
            self.text(painter, QRectF(m, m + 12, 90, 16), "Ship's name", size=9,
                      color=theme.muted)
            painter.setPen(QPen(theme.ink, 0.8))
            painter.drawLine(QPointF(m + 80, m + 27), QPointF(m + w * 0.7, m + 27))
        from ..model.games import GAME_TITLES
        sub = subtitle or f"{ship.ship_class.name} · {GAME_TITLES.get(ship.game, ship.game)}"
        if ship.side:
            sub += f" · {ship.side}"
        if self.phone:
            y = self._phone_title_lines(painter, theme, sub, chips)
        else:
            y = self._title_lines(painter, theme, sub, chips)
        y = self.draw_turn_marks_legend(painter, theme, y)
        painter.setPen(QPen(theme.ink, 1.2))
        painter.drawLine(QPointF(m, y + 2), QPointF(m + w, y + 2))
        return y + 12

    def _title_lines(self, painter: QPainter, theme: Theme, sub: str,
                     chips: tuple[str, ...]) -> float:
        """The paper's class line (its "SAMPLE DESIGN" on the right) and status line
        (``chips``: the status words)."""
        m = self.margin
        w = self.width - 2 * m
        ship = self.ship
        room = w - (self.advance(painter, "SAMPLE DESIGN", 7, True) + 12 if ship.ship_class.sample else 0)
        self.text(painter, QRectF(m, m + 30, w, 16), self.elide(painter, sub, room, 9), size=9,
                  color=theme.muted)
        if ship.ship_class.sample:
            self.text(painter, QRectF(m, m + 30, w, 16), "SAMPLE DESIGN", size=7, bold=True,
                      color=theme.muted,
                      align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        y = m + 50
        if chips:
            self._status_line(painter, theme, m, y, w, chips)
        y += STATUS_LINE  # kept when empty: the sheet never jumps when a status appears
        return y

    def _status_line(self, painter: QPainter, theme: Theme, x: float, y: float, w: float,
                     chips: tuple[str, ...]) -> None:
        """The status words in the ``STATUS_LINE`` units kept for them under the class line,
        never past the sheet's edge: at 9.5 units when they fit, else 8.5; else on two lines
        of 7.5, broken between two words of status (the second ends in "…" only when even
        that is too little)."""
        words = "Status: " + " · ".join(chips)
        for size in (9.5, 8.5):
            if self.advance(painter, words, size, True) <= w:
                self.text(painter, QRectF(x, y, w, 16), words, size=size, bold=True,
                          color=theme.ink)
                return
        size = 7.5
        first, rest = "Status: " + chips[0], chips[1:]
        while rest and self.advance(painter, f"{first} · {rest[0]}", size, True) <= w:
            first, rest = f"{first} · {rest[0]}", rest[1:]
        line = self.line_height(painter, size, True)
        top = y + (STATUS_LINE - 2 * line) / 2
        self.text(painter, QRectF(x, top, w, line), self.elide(painter, first, w, size, True),
                  size=size, bold=True, color=theme.ink, align=_TOP_LEFT_ALIGN)
        if rest:
            self.text(painter, QRectF(x, top + line, w, line),
                      self.elide(painter, " · ".join(rest), w, size, True), size=size,
                      bold=True, color=theme.ink, align=_TOP_LEFT_ALIGN)

    def title_reserve(self) -> float:
        """Units kept free at the right of the ship's name (a sheet's stamp in the title
        block): a long name ends in "…" before them."""
        return 0.0

    def _phone_title_lines(self, painter: QPainter, theme: Theme, sub: str,
                           chips: tuple[str, ...]) -> float:
        """A phone's class line and status, wrapped in its narrow column; two lines are kept
        for the status, so the boxes under it do not move when one appears."""
        m = self.margin
        w = self.width - 2 * m
        if self.ship.ship_class.sample:
            sub += " · sample design"
        y = self.wrapped(painter, m, m + 30, w, sub, size=9, color=theme.muted) + 4
        top = y
        if chips:
            y = self.wrapped(painter, m, y, w, "Status: " + " · ".join(chips), size=9.5,
                             bold=True, color=theme.ink)
        return max(y, top + 2 * self.line_height(painter, 9.5, True)) + 4

    # -- this turn's marks --------------------------------------------------------------
    @property
    def blank(self) -> bool:
        """A blank sheet: a ship drawn without a session (printed for play on paper, or a
        class previewed in the designer). What play fills in — a weapon's state this turn,
        a counter's number — is left to the pen."""
        return self.session is None

    @property
    def turn_start(self) -> dict:
        """The ship's state when the turn began (its state now without a session)."""
        if self.session is None:
            return self.ship.state
        return self.session.turn_start_state(self.ship)

    def pen_mark(self, now: bool, before: bool, full: str = "slash") -> str:
        """The mark of a box: "" unmarked; else ``full`` — or, when this turn's marks are
        shown apart, a single slash for a mark made this turn and a full X for one made
        before it (as players cross out the turn's marks when the turn ends)."""
        if not now:
            return ""
        if not self.turn_marks:
            return full
        return "x" if before else "slash"

    #: The side of a legend entry's mark, and the size of its words.
    LEGEND_MARK, LEGEND_WORDS = 11.0, 7.5

    def draw_legend(self, painter: QPainter, theme: Theme, y: float,
                    entries: "list[tuple[Callable[[QRectF], None], str]]") -> tuple[float, float]:
        """A key to the sheet's pen marks at its foot: a rule across the sheet, then each
        entry — its mark, drawn by ``draw(rect)`` in a square of :attr:`LEGEND_MARK` units,
        and its words — along one line (on a phone, one to a line). Every sheet's legend is
        drawn by this one helper. Returns the y under the last line and the x where it
        ends (for a sheet's words after its keys)."""
        m, size = self.margin, self.LEGEND_MARK
        painter.setPen(QPen(theme.faint, 1.0))
        painter.drawLine(QPointF(m, y), QPointF(self.width - m, y))
        y += 6
        x = m
        for n, (draw, words) in enumerate(entries):
            if self.phone and n:  # a key to a line
                x, y = m, y + size + 5
            draw(QRectF(x, y, size, size))
            width = self.advance(painter, words, self.LEGEND_WORDS)
            self.text(painter, QRectF(x + size + 7, y - 1, width + 4, size + 2), words,
                      size=self.LEGEND_WORDS, color=theme.muted)
            x += size + 7 + width + 18
        return y + size + 3, x

    def draw_turn_marks_legend(self, painter: QPainter, theme: Theme, y: float) -> float:
        """The key to this turn's marks, under the title (only when they are shown apart)."""
        if not self.turn_marks:
            return y
        m = self.margin
        size = 10.0
        self.draw_box(painter, theme, QRectF(m, y + 1, size, size), mark="slash")
        self.text(painter, QRectF(m + size + 4, y, 150, 12), "marked this turn", size=7.5,
                  color=theme.ink)
        x = m + size + 4 + self.advance(painter, "marked this turn", 7.5) + 16
        before = "marked before this turn (cross this turn's out when the turn ends)"
        if x + size + 4 + self.advance(painter, before, 7.5) > self.width - m:
            # No room beside the first key (a phone's column): a line of its own, wrapped.
            x, y = m, y + 16
            self.draw_box(painter, theme, QRectF(x, y + 1, size, size), mark="x")
            top = y + 6 - self.line_height(painter, 7.5) / 2  # as the one-line key's
            bottom = self.wrapped(painter, x + size + 4, top, self.width - m - x - size - 4,
                                  before, size=7.5, color=theme.ink)
            return max(y + 16, bottom + 4)
        self.draw_box(painter, theme, QRectF(x, y + 1, size, size), mark="x")
        self.text(painter, QRectF(x + size + 4, y, self.width - m - x - size - 4, 12), before,
                  size=7.5, color=theme.ink)
        return y + 16

    def status_words(self) -> list[str]:
        from ..model.games import get_game
        return get_game(self.ship.game).status_chips(self.ship)

    def section(self, painter: QPainter, theme: Theme, y: float, title: str) -> float:
        """A labelled group heading; returns the y where the group's content starts."""
        m = self.margin
        if self.phone:  # a long title wraps in the phone's column
            bottom = self.wrapped(painter, m, y + 2, self.width - 2 * m, title.upper(), size=8.5,
                                  bold=True, color=theme.muted)
            y = max(y, bottom - 14)
        else:
            self.text(painter, QRectF(m, y, self.width - 2 * m, 16), title.upper(), size=8.5,
                      bold=True, color=theme.muted)
        painter.setPen(QPen(theme.faint, 1.0))
        painter.drawLine(QPointF(m, y + 17), QPointF(self.width - m, y + 17))
        return y + 22

    # Pen marks: damage is a slash, destroyed a full X, current value circled.
    @remembered
    def draw_box(self, painter: QPainter, theme: Theme, rect: QRectF, *, mark: str = "",
                 label: str = "", dashed: bool = False) -> None:
        """A box with an optional pen mark: '' none, 'slash', 'x', 'fill'."""
        pens = self._box_pens(theme)
        painter.setPen(pens[1] if dashed else pens[0])
        painter.setBrush(_NO_BRUSH)
        painter.drawRect(rect)
        if label:
            self.text(painter, rect, label, size=6.5, color=theme.muted, align=_CENTER)
        if not mark:
            return
        inset = rect.adjusted(2.5, 2.5, -2.5, -2.5)
        if mark in ("slash", "x"):
            painter.setPen(pens[2])
            painter.drawLine(inset.bottomLeft(), inset.topRight())
        if mark == "x":
            painter.drawLine(inset.topLeft(), inset.bottomRight())
        if mark == "fill":
            self.fill_rect(painter, inset, theme.mark)

    def _box_pens(self, theme: Theme) -> tuple[QPen, QPen, QPen]:
        """A box's outline, dashed outline and mark pens in ``theme`` (made once a drawing:
        a card draws hundreds of boxes)."""
        pens = self._pens
        if pens is None or pens[0] is not theme:
            outline = QPen(theme.ink, 1.0)
            dashed = QPen(theme.ink, 1.0)
            dashed.setStyle(Qt.PenStyle.DashLine)
            mark = QPen(theme.mark, 2.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            pens = self._pens = (theme, (outline, dashed, mark))
        return pens[1]

    @staticmethod
    def fill_rect(painter: QPainter, rect: QRectF, color: QColor) -> None:
        """``painter.fillRect(rect, color)``, leaving the pen and brush as they were.

        Not fillRect itself: PySide resolves its overloads by building QGradient's enums,
        about 1.3 ms of start-up the first time."""
        pen, brush = painter.pen(), painter.brush()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawRect(rect)
        painter.setPen(pen)
        painter.setBrush(brush)

    def draw_circle(self, painter: QPainter, theme: Theme, rect: QRectF) -> None:
        """Circle the current value (die type, D-level)."""
        painter.setPen(QPen(theme.accent, 1.8))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(rect.adjusted(-2, -2, 2, 2))

    def strike(self, painter: QPainter, theme: Theme, rect: QRectF) -> None:
        """Strike text through (a locked suit)."""
        painter.setPen(QPen(theme.mark, 2.0))
        y = rect.center().y()
        painter.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y))

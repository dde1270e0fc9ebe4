"""The sheet on screen: the game's painter scaled to the zoom, clicks turned into actions."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QAction, QColor, QImage, QPainter, QPalette, QPen
from PySide6.QtWidgets import QMenu, QScrollArea, QToolTip, QWidget

from ..sheets import SheetPainter, Theme, painter_for
from ..sheets.base import measure_device
from ..sheets.display import dirty_rects, record, replay
from .document import SessionDocument
from .palette import is_dark
from .plaintext import show_tooltip
from .first_paint import after_first_paint

#: Above this many device pixels (about 64 MB) the sheet is replayed as vectors instead.
MAX_IMAGE_PIXELS = 16_000_000
# A sheet's first height guess, in widths: taller than most sheets (A4 is 1.41).
FIRST_HEIGHT_GUESS = 1.75
#: Widget pixels a redrawn piece of the sheet reaches past what is copied (``_redraw``).
PIECE_MARGIN = 4
ZOOM_STEPS = (0.5, 0.67, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)
#: The keyboard's focus ring: widget pixels between the box and the ring, and its width.
RING_GAP = 3
RING_WIDTH = 2
#: Widget pixels kept in view around the focused box when the view scrolls to it.
SCROLL_MARGIN = 24


class Repaint(NamedTuple):
    """What a change redrew of the sheet shown: calls drawn, calls in all, and where."""

    drawn: int
    calls: int
    rects: list[QRect]


def theme_for(widget: QWidget) -> Theme:
    """Dark paper in a dark palette, light paper otherwise."""
    return Theme.dark() if is_dark(widget.palette()) else Theme.light()


class SheetCanvas(QWidget):
    """Draws one ship's sheet and maps mouse positions to its hit areas."""

    status_message = Signal(str)
    #: The user chose a zoom (Ctrl+wheel, Zoom In/Out, Actual Size): stop fitting the width.
    zoomed_by_hand = Signal()
    #: The keyboard's focus moved to another box: the newly focused hit area, or None (a
    #: screen reader's hook). Read what it needs from the area when told; keep only its key
    #: (a redraw replaces the areas).
    focus_moved = Signal(object)
    #: A note said beside a box (a refusal, above all): its text (a screen reader's hook).
    note_shown = Signal(str)

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None, *,
                 turn_marks: bool = False, held: bool = False):
        super().__init__(parent)
        self.doc = doc
        self.zoom = 1.0
        #: Not drawn until :meth:`release` (the view's first zoom is not known yet).
        self.held = held
        #: Draw this turn's marks apart from earlier ones (View ▸ Show This Turn's Marks).
        self.turn_marks = turn_marks
        self.painter: SheetPainter | None = None
        self._hover_key: str | None = None
        self._image: QImage | None = None  # the sheet rendered at the zoom and pixel ratio
        self._image_rows = 0  # how many of its rows the sheet fills
        self._picture = None  # or, when that image would be huge, a vector recording
        self._display = None  # the recording the image was drawn from (sheets.display)
        self.last_repaint: Repaint | None = None
        self._focus_key: str | None = None  # keyboard focus among the hit areas
        self._tip_pending: str | None = None  # the focused box whose tooltip waits for a key up
        self._heights: dict[str, float] = {}  # each ship's sheet height when last drawn
        self._clicked = None  # (area, pos) while a click's action is being applied
        #: The last note said beside a box: (its key, the whole text), or None.
        self.note: tuple[str, str] | None = None
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # Its boxes for a screen reader, once it has first been painted: the first frame
        # needs none of it (``sheet_accessible``, asked only by an assistive technology).
        after_first_paint(self, self._readable)
        doc.changed.connect(self._on_doc_changed)
        doc.selection_changed.connect(self.refresh)
        doc.refused.connect(self._on_refused)
        self.refresh()

    def _readable(self) -> None:
        from . import sheet_accessible
        sheet_accessible.install(self)

    def _on_doc_changed(self) -> None:
        """Redraw after a change that may have changed this sheet: not after a change to
        other ships only (a phone's tap on its own ship leaves the referee's sheet as it
        is). A change to the session — the turn, the phase (every ship), an option (no
        ship's state, but how every sheet is drawn) — redraws it."""
        touched = self.doc.last_touched
        ship = self.doc.current_ship
        if (touched and ship is not None and self.painter is not None
                and self.painter.ship is ship and ship.id not in touched):
            return
        self.refresh()

    # -- state ----------------------------------------------------------------
    def refresh(self, *_args) -> None:
        """Draw the current ship's sheet once after every change; paint events only show it.

        When the sheet shown is the same ship's, at the same size, only what the change
        altered is redrawn (:meth:`_repaint_changes`)."""
        ship = self.doc.current_ship
        old = self.painter
        same_ship = (old is not None and ship is not None and old.ship.id == ship.id
                     and self._display is not None and self._image is not None)
        focused = self.focused_area()
        ring = self._ring_rect(focused) if focused is not None else None
        if old is not None:
            old.release()  # freed now, not by the cycle collector
        self.painter = (painter_for(ship, self.doc.session, turn_marks=self.turn_marks)
                        if ship is not None else None)
        if self.painter is not None:
            # Start from the height this ship's sheet had last time (a change rarely moves
            # the foot) or, the first time, from a tall guess.
            self.painter.assume_height(self._heights.get(ship.id, self.painter.width * FIRST_HEIGHT_GUESS))
        if self.held:
            self._resize()
            return
        if not (same_ship and self._repaint_changes()):
            self._render()
        self._keep_focus(ring)

    def _keep_focus(self, ring: QRect | None) -> None:
        """After a redraw the focused box keeps the keyboard's focus (by its key). If its
        ring moved, both places are repainted; if the box is gone, the nearest box to where
        it was takes the focus."""
        if ring is None or self.painter is None or not self.painter.areas:
            return
        area = self.focused_area()
        if area is None:
            where = QRectF(ring).center()
            area = min(self.painter.areas, key=lambda a: (
                (self._ring_rect(a).center().x() - where.x()) ** 2
                + (self._ring_rect(a).center().y() - where.y()) ** 2))
            self._update_ring(ring)
            self._set_focus_key(area.key)
        elif self._ring_rect(area) != ring:
            self._update_ring(ring)
            self._update_ring(self._ring_rect(area))

    def release(self, width: float | None = None) -> None:
        """Draw the sheet held since it was made: fitted to ``width`` pixels if given."""
        if not self.held:
            return
        self.held = False
        if self.painter is not None and width is not None and width > 0:
            self.zoom = max(ZOOM_STEPS[0], min(1.0, width / self.painter.width))
        self._render()

    def _render(self) -> None:
        """Draw the whole sheet at the zoom and the screen's pixel ratio (also finds the hit
        areas).

        The sheet is recorded first (``sheets.display``: its calls, its height), then
        replayed into an image just as tall, which the paint events copy, so hovering and
        scrolling cost nothing; past ``MAX_IMAGE_PIXELS`` (high zoom) a vector recording
        replaces it. The recording is kept: the next change redraws only what differs.
        """
        last, self._image, self._picture, self._display = self._display, None, None, None
        self.last_repaint = None
        if self.painter is not None:
            theme = theme_for(self)
            ratio = self.devicePixelRatioF()
            display = record(self.painter, theme, measure_device(), last)
            w = int(display.width * self.zoom * ratio + 0.5)
            h = int(display.height * self.zoom * ratio + 0.5)
            if w * h > MAX_IMAGE_PIXELS:
                self._picture = self.painter.record(theme)
            else:
                image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
                image.setDevicePixelRatio(ratio)
                image.fill(theme.paper)
                painter = QPainter(image)
                try:  # ended even when drawing fails: a live QPainter outliving its image
                    painter.scale(self.zoom, self.zoom)  # in a traceback crashes the process
                    replay(painter, display)
                finally:
                    painter.end()
                self._image, self._image_rows, self._display = image, h, display
            self._heights[self.painter.ship.id] = display.height
        self._resize()
        self.update()

    def _repaint_changes(self) -> bool:
        """Redraw in the image only the rectangles where the new drawing differs from the
        one shown (``sheets.display.dirty_rects``) and repaint only them on screen. False
        when the whole sheet must be drawn (its height moved)."""
        theme = theme_for(self)
        display = record(self.painter, theme, measure_device(), self._display)
        rects = dirty_rects(self._display, display)
        if rects is None:
            return False
        self._display = display
        zoom = self.zoom
        pixels = [QRectF(r.left() * zoom, r.top() * zoom, r.width() * zoom,
                         r.height() * zoom).toAlignedRect() for r in rects]
        drawn = 0
        ratio = self._image.devicePixelRatio()
        for rect in pixels:
            drawn += self._redraw(display, theme, rect, ratio)
            self.update(rect)
        #: What the last change redrew: calls drawn of all, and the widget rectangles.
        self.last_repaint = Repaint(drawn, len(display.calls), pixels)
        return True

    def _redraw(self, display, theme: Theme, rect: QRect, ratio: float) -> int:
        """Draw ``rect`` (widget pixels) of the sheet afresh and put it into the image.

        Drawn on a piece of paper of its own, shifted by whole pixels, then copied in: not
        clipped, since Qt draws thin antialiased lines otherwise under a clip, and the
        pixels would not be those of a whole drawing. The piece is ``PIECE_MARGIN`` wider
        on every side than what is copied: a line cut by the piece's edge may differ there
        by a pixel. Returns the calls drawn."""
        zoom, margin = self.zoom, PIECE_MARGIN
        drawn_rect = rect.adjusted(-margin, -margin, margin, margin)
        piece = QImage(round(drawn_rect.width() * ratio), round(drawn_rect.height() * ratio),
                       QImage.Format.Format_ARGB32_Premultiplied)
        piece.setDevicePixelRatio(ratio)
        piece.fill(theme.paper)
        covered = [(drawn_rect.left() / zoom, drawn_rect.top() / zoom,
                    (drawn_rect.right() + 1) / zoom, (drawn_rect.bottom() + 1) / zoom)]
        painter = QPainter(piece)
        try:
            painter.translate(-drawn_rect.left(), -drawn_rect.top())
            painter.scale(zoom, zoom)
            drawn = replay(painter, display, covered)
        finally:
            painter.end()
        painter = QPainter(self._image)
        try:
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            inner = QRectF(margin * ratio, margin * ratio, rect.width() * ratio,
                           rect.height() * ratio)
            painter.drawImage(QRectF(rect), piece, inner)
        finally:
            painter.end()
        return drawn

    def _resize(self) -> None:
        if self.painter is None:
            self.setFixedSize(QSize(10, 10))
            return
        size = self.painter.drawn_size()
        self.setFixedSize(QSize(int(size.width() * self.zoom + 0.5), int(size.height() * self.zoom + 0.5)))

    def set_zoom(self, zoom: float) -> None:
        self.zoom = max(ZOOM_STEPS[0], min(ZOOM_STEPS[-1], zoom))
        self.held = False
        self._render()
        area = self.focused_area() if self.hasFocus() else None
        if area is not None:  # zoomed from the keyboard: the focused box stays in view
            self._scroll_to(area)

    def to_sheet(self, pos: QPointF) -> QPointF:
        return QPointF(pos.x() / self.zoom, pos.y() / self.zoom)

    def area_at(self, pos: QPointF):
        return self.painter.hit(self.to_sheet(pos)) if self.painter else None

    def _centre_of(self, area) -> QPointF:
        """The middle of a hit area, in widget pixels (where the keyboard's menu and tip show)."""
        centre = area.rect.center()
        return QPointF(centre.x() * self.zoom, centre.y() * self.zoom)

    def changeEvent(self, event) -> None:
        """Repaint in the new colours when the system turns dark or light."""
        from PySide6.QtCore import QEvent
        if event.type() == QEvent.Type.PaletteChange and not self.held:
            self._render()
        super().changeEvent(event)

    # -- painting --------------------------------------------------------------
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        if self.painter is None:
            painter.end()
            return
        if self._image is not None and abs(self._image.devicePixelRatio() - self.devicePixelRatioF()) > 1e-6:
            self._render()  # moved to a screen with another pixel ratio
        if self._image is not None:
            rows = min(self._image_rows, self._image.height())
            painter.drawImage(QPointF(0, 0), self._image, QRectF(0, 0, self._image.width(), rows))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.save()
        painter.scale(self.zoom, self.zoom)
        if self._image is None and self._picture is not None:
            # Vector drawing: crisp at any zoom and pixel ratio.
            painter.drawPicture(0, 0, self._picture)
        theme = theme_for(self)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        area = self._area_for(self._hover_key)
        if area is not None:  # colour only adds to what the tooltip says
            painter.setPen(QPen(theme.accent, 1.5))
            painter.drawRect(area.rect.adjusted(-2.5, -2.5, 2.5, 2.5))
        painter.restore()  # widget pixels again
        area = self.focused_area() if self.hasFocus() else None
        if area is not None:
            # The keyboard's focus: a ring in the highlight colour, the same width in pixels at
            # any zoom, over a line of paper that parts it from the box's own lines.
            painter.setBrush(Qt.BrushStyle.NoBrush)
            ring = QRectF(self._ring_rect(area))
            painter.setPen(QPen(theme.paper, RING_WIDTH + 2))
            painter.drawRoundedRect(ring, 3, 3)
            painter.setPen(QPen(self._ring_colour(theme), RING_WIDTH))
            painter.drawRoundedRect(ring, 3, 3)
        painter.end()

    def _ring_colour(self, theme: Theme) -> QColor:
        """The palette's highlight, lightened or darkened as needed to stand out on the paper."""
        colour = QColor(self.palette().color(QPalette.ColorRole.Highlight))
        paper = theme.paper.lightness()
        if paper < 128 and colour.lightness() < 150:
            colour = colour.lighter(150)
        elif paper >= 128 and colour.lightness() > 140:
            colour = colour.darker(140)
        return colour

    # -- keyboard: arrows move among the boxes, Space/Enter clicks, Menu opens the menu --
    # Tab and Shift+Tab are not taken here: they move between the window's widgets.
    def _area_for(self, key: str | None):
        if self.painter is None or key is None:
            return None
        return next((a for a in self.painter.areas if a.key == key), None)

    def focused_area(self):
        """The box the keyboard's focus is on, or None."""
        return self._area_for(self._focus_key)

    def _ring_rect(self, area) -> QRect:
        """Where the focus ring of ``area`` is drawn, in widget pixels."""
        r, zoom, gap = area.rect, self.zoom, RING_GAP
        return QRectF(r.left() * zoom - gap, r.top() * zoom - gap, r.width() * zoom + 2 * gap,
                      r.height() * zoom + 2 * gap).toAlignedRect()

    def _update_ring(self, ring: QRect) -> None:
        """Repaint the widget pixels a focus ring at ``ring`` covers (its paper line too)."""
        margin = RING_WIDTH + 2
        self.update(ring.adjusted(-margin, -margin, margin, margin))

    def _set_focus_key(self, key: str | None) -> bool:
        """Move the focus to the box ``key``: repaint the old ring and the new, say so
        (:attr:`focus_moved`). False if it was there already."""
        if key == self._focus_key:
            return False
        old = self.focused_area()
        if old is not None:
            self._update_ring(self._ring_rect(old))
        self._focus_key = key
        area = self.focused_area()
        if area is not None:
            self._update_ring(self._ring_rect(area))
        self.focus_moved.emit(area)
        return True

    def focus_area(self, area) -> None:
        """Give the keyboard's focus to the box ``area`` (one of ``painter.areas``): the sheet
        takes the focus, scrolls the box into view, rings it, says what it is (status bar and
        tooltip) and emits :attr:`focus_moved`."""
        self._set_focus_key(area.key if area is not None else None)
        if not self.hasFocus():
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        if area is not None:
            self._scroll_to(area)
            self._announce(area)

    def _scroll_to(self, area) -> None:
        """Scroll the view the sheet is in so that ``area`` and a margin round it show."""
        view = self.parentWidget().parentWidget() if self.parentWidget() is not None else None
        if isinstance(view, QScrollArea) and view.widget() is self:
            ring = self._ring_rect(area)
            centre = ring.center()
            view.ensureVisible(centre.x(), centre.y(), ring.width() // 2 + SCROLL_MARGIN,
                               ring.height() // 2 + SCROLL_MARGIN)

    def _announce(self, area) -> None:
        """Say what the focused box is, as hovering it does: the status bar and its tooltip
        (shown under the box, not over it)."""
        self.status_message.emit(area.tooltip.splitlines()[0] +
                                 (f" — can't: {area.refusal}" if area.refusal else ""))
        if self.isVisible():
            self._show_focus_tip(area)
            self._tip_pending = area.key  # again once the key is let go (see keyReleaseEvent)

    def _show_focus_tip(self, area) -> None:
        show_tooltip(self.mapToGlobal(self._ring_rect(area).bottomLeft()), self._tip(area), self)

    def keyReleaseEvent(self, event) -> None:
        """Qt hides a tooltip when a key is let go: the focused box's, shown as the key (Tab, an
        arrow) went down, shows again."""
        pending, self._tip_pending = self._tip_pending, None
        area = self.focused_area()
        if pending is not None and area is not None and area.key == pending and self.hasFocus():
            self._show_focus_tip(area)
        super().keyReleaseEvent(event)

    @staticmethod
    def _tip(area) -> str:
        """The box's tooltip, as hovering and the keyboard show it."""
        return area.tooltip + (f"\n\nCan't: {area.refusal}" if area.refusal else "")

    def reading_order(self) -> list:
        """The boxes as read: row by row from the top, each row from the left."""
        if self.painter is None:
            return []
        return sorted(self.painter.areas, key=lambda a: (round(a.rect.top() / 8), a.rect.left()))

    def _next_area(self, key: int):
        """The box an arrow, Home or End moves the focus to from the focused box."""
        areas = self.reading_order()
        current = self.focused_area()
        if current not in areas:  # none yet: the first box (the last going back)
            back = key in (Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_End)
            return areas[-1] if back else areas[0]
        if key == Qt.Key.Key_Home:
            return areas[0]
        if key == Qt.Key.Key_End:
            return areas[-1]
        index = areas.index(current)
        if key in (Qt.Key.Key_Right, Qt.Key.Key_Left):  # reading order, on to the next row
            step = 1 if key == Qt.Key.Key_Right else -1
            return areas[(index + step) % len(areas)]
        # Up/Down: the nearest box above or below, those in line with this one first.
        here = current.rect
        below = key == Qt.Key.Key_Down
        y = here.center().y()
        edge = here.bottom() if below else here.top()
        beyond = [a for a in areas if a is not current and
                  ((a.rect.center().y() > max(edge - 2, y + 4)) if below
                   else (a.rect.center().y() < min(edge + 2, y - 4)))]
        if not beyond:
            return current

        def distance(a):
            gap = max(0.0, a.rect.left() - here.right(), here.left() - a.rect.right())
            return (abs(a.rect.center().y() - y) + 3 * gap,
                    abs(a.rect.center().x() - here.center().x()))
        return min(beyond, key=distance)

    NAVIGATION_KEYS = (Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_Left, Qt.Key.Key_Up,
                       Qt.Key.Key_Home, Qt.Key.Key_End)

    def keyPressEvent(self, event) -> None:
        if self.painter is None or not self.painter.areas:
            super().keyPressEvent(event)
            return
        key = event.key()
        plain = not (event.modifiers() & (Qt.KeyboardModifier.ControlModifier
                                          | Qt.KeyboardModifier.AltModifier
                                          | Qt.KeyboardModifier.MetaModifier))
        current = self.focused_area()
        if key in self.NAVIGATION_KEYS and plain:
            self.focus_area(self._next_area(key))
            event.accept()
            return
        if key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter) and plain:
            if current is None:  # nothing focused yet: the first key press finds a box
                self.focus_area(self.reading_order()[0])
            else:
                self.click_area(current)
            event.accept()
            return
        if key == Qt.Key.Key_Menu or (key == Qt.Key.Key_F10 and event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            if current is not None:
                self._menu_at_focus(current)
                event.accept()
                return
        super().keyPressEvent(event)

    def _menu_at_focus(self, area) -> None:
        """The focused box's context menu, opened under the box."""
        self.show_menu(area, self.mapToGlobal(self._ring_rect(area).bottomLeft()))

    def focusInEvent(self, event) -> None:
        """Coming to the sheet by the keyboard (Tab, Shift+Tab, a shortcut) with no box
        focused focuses the first; a box focused before shows, scrolled into view and said.
        A click focuses the box clicked (``click_at``)."""
        reason = event.reason()
        by_keyboard = reason in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason,
                                 Qt.FocusReason.ShortcutFocusReason)
        area = self.focused_area()
        if area is None and by_keyboard and self.painter is not None and self.painter.areas:
            self.focus_area(self.reading_order()[0])
        elif area is not None:
            self._update_ring(self._ring_rect(area))
            if by_keyboard:
                self._scroll_to(area)
                self._announce(area)
        # Not QWidget.focusInEvent: it repaints the whole sheet; the ring is all that changes.

    def focusOutEvent(self, event) -> None:
        area = self.focused_area()
        if area is not None:
            self._update_ring(self._ring_rect(area))

    # -- mouse ------------------------------------------------------------------
    def mouseMoveEvent(self, event) -> None:
        area = self.area_at(event.position())
        key = area.key if area else None
        if key != self._hover_key:
            self._hover_key = key
            self.update()
            if area is not None:
                show_tooltip(event.globalPosition().toPoint(), self._tip(area), self)
                self.setCursor(Qt.CursorShape.PointingHandCursor if area.click and not area.refusal
                               else Qt.CursorShape.ArrowCursor)
            else:
                QToolTip.hideText()
                self.unsetCursor()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:
        self._hover_key = None
        self.update()
        super().leaveEvent(event)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.click_at(event.position())
            event.accept()
            return
        super().mousePressEvent(event)

    def click_at(self, pos: QPointF) -> bool:
        """Do what clicking at ``pos`` (widget pixels) does; True if a change was applied."""
        area = self.area_at(pos)
        if area is None:
            return False
        self._set_focus_key(area.key)
        return self.click_area(area, pos)

    def click_area(self, area, pos: QPointF | None = None) -> bool:
        """Apply what clicking ``area`` does; explain a refusal instead: one the sheet knows
        while drawing (``area.refusal``), or one the action raises when applied (the
        document's ``refused``), beside the box either way."""
        if area.refusal:
            self.status_message.emit(area.refusal)
            self.show_note(area, area.refusal, pos)
            return False
        if area.click is None:
            return False
        self._clicked = (area, pos)
        try:
            return self.doc.do(area.click())
        finally:
            self._clicked = None

    def show_note(self, area, text: str, pos: QPointF | None = None) -> None:
        """Say ``text`` (whole) beside the box ``area``, at ``pos`` (widget pixels) or its
        middle; :attr:`note` keeps the box's key and the text until the next note."""
        self.note = (area.key, text)
        where = pos if pos is not None else self._centre_of(area)
        show_tooltip(self.mapToGlobal(where.toPoint()), text, self)
        self.note_shown.emit(text)

    def _on_refused(self, message: str) -> None:
        """A refusal raised by the action of the box being clicked: said beside that box
        (the window says it in the status bar too)."""
        if self._clicked is not None:
            area, pos = self._clicked
            self.show_note(area, message, pos)

    def contextMenuEvent(self, event) -> None:
        if event.reason() == event.Reason.Keyboard:  # the Menu key, as keyPressEvent does
            area = self.focused_area()
            if area is not None:
                self._menu_at_focus(area)
            return
        area = self.area_at(QPointF(event.pos()))
        if area is not None:
            self.show_menu(area, event.globalPos())

    def show_menu(self, area, global_pos) -> None:
        """The hit area's context menu (e.g. "Correct mark"), if it has one."""
        menu = self.build_menu(area)
        if menu is not None:
            menu.exec(global_pos)

    def build_menu(self, area) -> QMenu | None:
        """The hit area's context menu. An area that has a menu but nothing in it now says so,
        greyed, rather than doing nothing visible."""
        if not area.has_menu():
            return None
        menu = QMenu(self)
        for label, factory in area.menu:
            act = QAction(label, menu)
            act.triggered.connect(lambda _=False, f=factory: self.doc.do(f()))
            menu.addAction(act)
        if not area.menu:
            empty = QAction("Nothing to do here now", menu)
            empty.setEnabled(False)
            menu.addAction(empty)
        return menu

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            step = 1 if event.angleDelta().y() > 0 else -1
            self.step_zoom(step)
            event.accept()
            return
        event.ignore()

    def step_zoom(self, step: int) -> None:
        index = min(range(len(ZOOM_STEPS)), key=lambda i: abs(ZOOM_STEPS[i] - self.zoom))
        index = max(0, min(len(ZOOM_STEPS) - 1, index + step))
        self.zoomed_by_hand.emit()
        self.set_zoom(ZOOM_STEPS[index])
        self.status_message.emit(f"Zoom {round(self.zoom * 100)} %")

    def fit_width(self, width: float) -> None:
        """Zoom so the sheet is no wider than ``width`` pixels (never above 100 %, never below
        the smallest zoom): nothing of it hides behind a sideways scroll bar."""
        if self.painter is None or width <= 0:
            return
        zoom = max(ZOOM_STEPS[0], min(1.0, width / self.painter.width))
        if abs(zoom - self.zoom) > 0.001:
            self.set_zoom(zoom)


class SheetView(QScrollArea):
    """The scrollable, zoomable sheet in the centre of the window.

    It opens zoomed to fit the width of its pane (up to 100 %), and keeps fitting as the
    window or the docks are resized, until the user picks a zoom of their own."""

    #: Room left beside the sheet (the vertical scroll bar and a margin), in pixels.
    FIT_MARGIN = 24

    def __init__(self, doc: SessionDocument, parent: QWidget | None = None, *,
                 turn_marks: bool = False, held: bool = False):
        """``held``: the sheet is drawn only by :meth:`start`, once the view has its width
        (a window laying out its docks first draws it once, at the fitted zoom)."""
        super().__init__(parent)
        self.canvas = SheetCanvas(doc, self, turn_marks=turn_marks, held=held)
        self.setWidget(self.canvas)
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.setWidgetResizable(False)
        # Tab stops at the sheet, not at the scroll area round it (which would show nothing
        # focused); keys the sheet leaves (Page Up/Down) still reach the scroll area.
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setFocusProxy(self.canvas)
        self.fitting = True
        self.canvas.zoomed_by_hand.connect(self._stop_fitting)
        doc.selection_changed.connect(self._fit)

    def start(self, width: int | None = None) -> None:
        """Draw the held sheet, fitted to ``width`` (the view's coming width; its own now
        if not given)."""
        width = self.width() if width is None else width
        self.canvas.release(width - self.FIT_MARGIN if self.fitting else None)

    def _stop_fitting(self) -> None:
        self.fitting = False

    def _fit(self, *_args) -> None:
        if self.canvas.held:
            return  # start() draws it
        if self.fitting:
            self.canvas.fit_width(self.width() - self.FIT_MARGIN)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.canvas.wheelEvent(event)
            return
        super().wheelEvent(event)

"""Small widgets the designer shares: error marks at a field, the error line, the live preview."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (QAbstractSpinBox, QApplication, QComboBox, QFrame, QLabel,
                               QScrollArea, QSizePolicy, QSpinBox, QToolTip, QVBoxLayout, QWidget)

from ...sheets import SheetPainter
from ..palette import is_dark as palette_is_dark
from ..plaintext import rich, show_tooltip
from ..sheet_view import theme_for

_TIP = "_designer_tip"


def is_dark(widget: QWidget) -> bool:
    """Is the widget's window dark? Its window's palette when one was given it, else the
    application's: in a change of appearance that is new first (a label with a style sheet
    of its own takes the new palette only once it is polished again, and hears of the change
    before its window's palette is)."""
    top = widget.window()
    given = top.testAttribute(Qt.WidgetAttribute.WA_SetPalette)
    return palette_is_dark(top.palette() if given else QApplication.palette(top))


def error_color(widget: QWidget) -> str:
    """A red that reads on the palette (the ⚠ sign carries the meaning too)."""
    return "#ff8a80" if is_dark(widget) else "#b3261e"


def ok_color(widget: QWidget) -> str:
    """A green that reads on the palette (4.5:1 and more, light and dark)."""
    return "#80d394" if is_dark(widget) else "#18733a"


class _Recolour(QObject):
    """Colours its widget again when the palette or the style changes (a new appearance):
    a colour written into a style sheet, or into a palette, stays the old one otherwise."""

    def __init__(self, widget: QWidget, apply):
        super().__init__(widget)
        self.setObjectName("designer-recolour")
        self.apply = apply
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.StyleChange):
            self.apply(obj)
        return False


def _recoloured(widget: QWidget, apply) -> None:
    """``apply(widget)`` now and after every change of appearance."""
    keeper = widget.findChild(_Recolour, "designer-recolour",
                              Qt.FindChildOption.FindDirectChildrenOnly)
    if keeper is None:
        keeper = _Recolour(widget, apply)
    keeper.apply = apply
    apply(widget)


def colour_sheet(widget: QWidget, sheet) -> None:
    """Style ``widget`` with ``sheet(widget)`` (a style sheet naming a colour worked out from
    the palette), now and after every change of appearance."""
    def restyle(w: QWidget) -> None:
        wanted = sheet(w)
        if w.styleSheet() != wanted:  # (setting it again would polish it again, and so on)
            w.setStyleSheet(wanted)
    _recoloured(widget, restyle)


def error_tint(widget: QWidget) -> QColor:
    """The background of a field with a problem (the ⚠ message says what is wrong)."""
    return QColor("#5c2b2b") if is_dark(widget) else QColor("#fbdad6")


def mark_invalid(widget: QWidget, message: str) -> None:
    """Tint a field red and put the message in its tooltip (native controls stay intact)."""
    if widget.property("invalid") is not True:
        widget.setProperty(_TIP, widget.toolTip())
    widget.setProperty("invalid", True)
    widget.setToolTip(f"⚠ {message}")
    _recoloured(widget, _tint)
    widget.setAutoFillBackground(False)


def _tint(widget: QWidget) -> None:
    """A marked field's tint, for the palette of the moment."""
    if widget.property("invalid") is not True:
        return
    tint, text = error_tint(widget), QColor(error_color(widget))
    palette = widget.palette()
    if (palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Button),
            palette.color(QPalette.ColorRole.WindowText)) == (tint, tint, text):
        return  # (setting it again would announce a change of palette, and so on)
    palette = QPalette(palette)
    for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Button):
        palette.setColor(role, tint)
    palette.setColor(QPalette.ColorRole.WindowText, text)
    widget.setPalette(palette)


def clear_invalid(widget: QWidget) -> None:
    """Take a field's error mark off again."""
    if widget.property("invalid") is True:
        widget.setProperty("invalid", False)
        widget.setToolTip(widget.property(_TIP) or "")
        widget.setPalette(QPalette())  # back to the palette it inherits


class ErrorLabel(QLabel):
    """A problem in words, shown right under the group holding the field (hidden when none)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setAccessibleName("Problem")
        self.hide()

    def show_message(self, text: str) -> None:
        colour_sheet(self, lambda w: f"color: {error_color(w)}; font-weight: 600;")
        self.setText(f"⚠ {text}")
        self.show()

    def clear(self) -> None:  # noqa: D401 - QLabel.clear, and hide
        super().clear()
        self.hide()


def spin(lo: int, hi: int, value: int = 0, *, tip: str = "", special: str = "",
         suffix: str = "") -> QSpinBox:
    """A spin box that also takes typed numbers; out-of-rule values are left for validation."""
    box = QSpinBox()
    box.setRange(lo, hi)
    box.setValue(value)
    box.setAccelerated(True)
    box.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)
    if special:
        box.setSpecialValueText(special)
    if suffix:
        box.setSuffix(suffix)
    if tip:
        box.setToolTip(tip)
    return box


def combo(items, current: str = "", *, editable: bool = False, tip: str = "") -> QComboBox:
    """A combo box filled with ``items``."""
    box = QComboBox()
    box.setEditable(editable)
    for item in items:
        box.addItem(item)
    if current:
        set_combo_text(box, current)
    if tip:
        box.setToolTip(tip)
    return box


def set_combo_text(box: QComboBox, text: str) -> None:
    """Show ``text`` in a combo box (added if it is not one of its items)."""
    index = box.findText(text)
    if index >= 0:
        box.setCurrentIndex(index)
    elif box.isEditable():
        box.setEditText(text)
    else:
        box.addItem(text)  # keep a value the file had, so validation can name it
        box.setCurrentIndex(box.count() - 1)


# -- the live preview ----------------------------------------------------------------------------

class PreviewCanvas(QWidget):
    """Draws a sheet painter scaled to the width available; hovering shows what a box is."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.painter: SheetPainter | None = None
        self.scale = 1.0
        self.available = 600
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Sheet preview")

    def set_painter(self, painter: SheetPainter | None) -> None:
        """Show another sheet (laid out here, once: a painter that cannot draw raises)."""
        if painter is not None:
            painter.layout()
        if self.painter is not None:
            self.painter.release()
        self.painter = painter
        self.relayout()

    def set_available(self, width: int) -> None:
        """Fit the sheet to ``width`` pixels."""
        self.available = max(200, width)
        self.relayout()

    def relayout(self) -> None:
        """Size the canvas for the sheet at the fitting scale."""
        if self.painter is None:
            self.setFixedSize(QSize(10, 10))
            self.update()
            return
        size = self.painter.drawn_size()  # a resize only rescales: no new layout
        self.scale = max(0.5, min(1.6, self.available / size.width()))
        self.setFixedSize(QSize(int(size.width() * self.scale + 0.5),
                                int(size.height() * self.scale + 0.5)))
        self.update()

    def paintEvent(self, event) -> None:
        if self.painter is None:
            return
        painter = QPainter(self)
        painter.scale(self.scale, self.scale)
        self.painter.paint(painter, theme_for(self))
        painter.end()

    def mouseMoveEvent(self, event) -> None:
        if self.painter is not None:
            pos = event.position()
            area = self.painter.hit(QPointF(pos.x() / self.scale, pos.y() / self.scale))
            if area is not None:
                show_tooltip(event.globalPosition().toPoint(), area.tooltip, self)
            else:
                QToolTip.hideText()
        super().mouseMoveEvent(event)


class PreviewPane(QWidget):
    """The preview with a note saying whether it shows the class as it is now."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.canvas = PreviewCanvas()
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.canvas)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.scroll.setWidgetResizable(False)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.scroll.viewport().installEventFilter(self)
        title = rich(QLabel("<b>Preview</b> — the sheet as the game window draws it"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 0, 0, 0)
        layout.addWidget(title)
        layout.addWidget(self.note)
        layout.addWidget(self.scroll, 1)
        self.set_stale(False)

    def set_stale(self, stale: bool, why: str = "") -> None:
        """Say when the preview shows the last valid version instead of the current one."""
        if stale:
            self.note.setText(f"Showing the last valid version: {why}" if why else
                              "Showing the last valid version.")
            self.note.setToolTip(why)
            colour_sheet(self.note, lambda w: f"color: {error_color(w)};")
            self.note.show()
        else:
            self.note.hide()

    def eventFilter(self, obj, event) -> bool:
        if obj is self.scroll.viewport() and event.type() == QEvent.Type.Resize:
            # Fit the sheet to the width the viewport has (a vertical scroll bar included).
            self.canvas.set_available(event.size().width() - 2)
        return False

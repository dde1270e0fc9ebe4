"""Small layout pieces shared by the panels and the designer."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QBoxLayout, QFrame, QHBoxLayout, QScrollArea, QVBoxLayout, QWidget

#: Room kept for the window's frame and title bar, which the window manager adds.
FRAME_ALLOWANCE = (16, 48)
#: The smallest a window is made to fit a screen: below this it stops being usable.
MINIMUM_FIT = (480, 360)


def available_area(window: QWidget) -> QRect | None:
    """The available area (no panels, no task bar) of the screen ``window`` is on: its own,
    else its parent's, else the primary screen's; None with no screen at all."""
    parent = window.parentWidget()
    screen = window.screen() or (parent.screen() if parent is not None else None) \
        or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else None


def frame_margins(window: QWidget) -> tuple[int, int, int, int]:
    """Left, top, right and bottom of the frame the window manager adds: as it is once the
    window is shown, else the allowance kept for a title bar and borders."""
    frame, inner = window.frameGeometry(), window.geometry()
    if window.isVisible() and frame != inner:
        return (inner.left() - frame.left(), inner.top() - frame.top(),
                frame.right() - inner.right(), frame.bottom() - inner.bottom())
    side, tall = FRAME_ALLOWANCE
    return side // 2, tall - side // 2, side // 2, side // 2


def fit_to_screen(window: QWidget, width: int, height: int, *, keep: bool = True) -> None:
    """Size ``window`` to ``width`` × ``height``, or less: never beyond the screen's available
    area (a 1366 × 768 laptop, a 1920 × 1080 screen at 150 %: 910 × 512), frame and title
    included. With ``keep`` (the default), each time it shows it is also kept within that
    area (:func:`keep_on_screen`): made smaller if need be, and moved inside it."""
    area = available_area(window)
    if area is not None:
        width = min(width, max(area.width() - FRAME_ALLOWANCE[0], MINIMUM_FIT[0]))
        height = min(height, max(area.height() - FRAME_ALLOWANCE[1], MINIMUM_FIT[1]))
    window.resize(width, height)
    if keep and not hasattr(window, "_shipsheet_kept"):
        window._shipsheet_kept = _KeepOnScreen(window)
        window.installEventFilter(window._shipsheet_kept)


def keep_on_screen(window: QWidget, at: QPoint | None = None, *, move: bool = True) -> None:
    """Make ``window`` (frame included) lie within its screen's available area: smaller when
    it is larger than the area (down to what its layout needs, and to the area), then moved
    inside it (with ``move``). ``at``: where its frame should go (top left), if it fits there."""
    area = available_area(window)
    if area is None:
        return
    left, top, right, bottom = frame_margins(window)
    room_w = area.width() - left - right
    room_h = area.height() - top - bottom
    minimum = window.minimumSize().expandedTo(window.minimumSizeHint())
    if (minimum.height() > room_h or minimum.width() > room_w) and scroll_contents(window):
        minimum = window.minimumSize().expandedTo(window.minimumSizeHint())
    if window.width() > room_w or window.height() > room_h:
        window.resize(max(min(window.width(), room_w), min(minimum.width(), room_w)),
                      max(min(window.height(), room_h), min(minimum.height(), room_h)))
    if not move:
        return
    outer_w, outer_h = window.width() + left + right, window.height() + top + bottom
    corner = at if at is not None else window.frameGeometry().topLeft() if window.isVisible() \
        else window.pos()
    x = max(area.left(), min(corner.x(), area.right() + 1 - outer_w))
    y = max(area.top(), min(corner.y(), area.bottom() + 1 - outer_h))
    if (x, y) != (corner.x(), corner.y()) or at is not None:
        window.move(x, y)  # move() places the frame's top left corner


def scroll_contents(dialog: QWidget) -> bool:
    """Put what ``dialog`` shows (its column layout) in a frameless scroll area, its buttons
    (a last ``QDialogButtonBox``) kept below it in reach: for a dialog whose controls need
    more room than a small screen has (FedCom's standing orders at 150 % on a 1366 × 768
    laptop). False when it has no column layout to move, or was done already."""
    old = dialog.layout()
    if not isinstance(old, QBoxLayout) or getattr(dialog, "_shipsheet_scroll", None) is not None:
        return False
    if old.direction() not in (QBoxLayout.Direction.TopToBottom, QBoxLayout.Direction.BottomToTop):
        return False
    items = []
    while old.count():
        items.append((old.stretch(0), old.takeAt(0)))
    buttons = None
    last = items[-1][1].widget() if items else None
    if last is not None and last.inherits("QDialogButtonBox"):
        buttons = items.pop()[1].widget()
    column = QBoxLayout(old.direction())
    column.setSpacing(old.spacing())
    column.setContentsMargins(old.contentsMargins())
    for stretch, item in items:
        column.addItem(item)
        column.setStretch(column.count() - 1, stretch)
    inner = QWidget()
    inner.setLayout(column)  # the column's widgets become the inner widget's children
    margins = old.contentsMargins()
    shiboken6.delete(old)
    dialog.setMinimumSize(0, 0)  # the old layout's minimum, set on the window: the new one sets its own
    scroll = QScrollArea()
    scroll.setWidget(inner)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
    outer = QVBoxLayout(dialog)
    outer.setContentsMargins(0, 0, 0, margins.bottom())
    outer.addWidget(scroll, 1)
    if buttons is not None:
        holder = QHBoxLayout()
        holder.setContentsMargins(margins.left(), 0, margins.right(), 0)
        holder.addWidget(buttons)
        outer.addLayout(holder)
        buttons.show()
    dialog._shipsheet_scroll = scroll
    scroll.show()
    outer.activate()
    return True


class _KeepOnScreen(QObject):
    """Each time its window shows, keep it within its screen's available area. A dialog is
    only made smaller here: it centres itself on its parent as it shows (``QDialog``'s own
    show event, after this filter), and Qt keeps that position within the same area."""

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Show and watched.isWindow():
            # (Asked of Qt's meta-object: a window's first show needs no Python class of
            # QDialog, which PySide would make with its enums.)
            placed = watched.inherits("QDialog") and not watched.testAttribute(Qt.WidgetAttribute.WA_Moved)
            keep_on_screen(watched, move=not placed)
        return False


class ColumnScroll(QScrollArea):
    """:func:`fill_with_scroll`'s scroll area: never narrower than its column's narrowest.

    A scroll area may be made as narrow as its scroll bars, so a narrow window squeezed a
    dock below what its column can be (the FedCom panel's check box and buttons): the
    column was cut at its right edge (an order's words, a button's), behind a sideways
    scroll bar. Asking for the column's own minimum width (and room for the up-and-down
    scroll bar) keeps the dock that wide: the sheet beside it gives the room."""

    def eventFilter(self, obj, event) -> bool:
        # Its column laid out anew (a longer word, another ship's boxes): the dock is told
        # the column's narrowest may have moved (QScrollArea filters its widget's events).
        if event.type() == QEvent.Type.LayoutRequest and obj is self.widget():
            self.updateGeometry()
        return super().eventFilter(obj, event)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        content = self.widget()
        if content is None:
            return hint
        width = (content.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width()
                 + 2 * self.frameWidth())
        return QSize(max(hint.width(), width), hint.height())


def fill_with_scroll(host: QWidget, content: QWidget, *, whole_width: bool = False) -> QScrollArea:
    """Make ``content`` all of ``host``: one frameless column that scrolls when the dock or
    editor is shorter than it. ``whole_width`` (a dock's panel): never narrower than the
    column, so never cut at its side (``ColumnScroll``); else (an editor's wide form) it
    may scroll sideways in a small window."""
    scroll = ColumnScroll() if whole_width else QScrollArea()
    scroll.setWidget(content)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    outer = QVBoxLayout(host)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(scroll)
    return scroll

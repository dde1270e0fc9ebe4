"""Small layout pieces shared by the panels and the designer."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

#: Room kept for the window's frame and title bar, which the window manager adds.
FRAME_ALLOWANCE = (16, 48)


def fit_to_screen(window: QWidget, width: int, height: int) -> None:
    """Size ``window`` to ``width`` × ``height``, or less: never beyond the screen's available
    area (a 1366 × 768 laptop, a 1920 × 1080 screen at 150 %), frame and title included."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is not None:
        area = screen.availableGeometry()
        width = min(width, area.width() - FRAME_ALLOWANCE[0])
        height = min(height, area.height() - FRAME_ALLOWANCE[1])
    window.resize(max(width, 480), max(height, 360))


def fill_with_scroll(host: QWidget, content: QWidget) -> QScrollArea:
    """Make ``content`` all of ``host``: one frameless column that scrolls when the dock or
    editor is shorter than it."""
    scroll = QScrollArea()
    scroll.setWidget(content)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    outer = QVBoxLayout(host)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(scroll)
    return scroll

"""Small layout pieces shared by the panels and the designer."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget


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

"""Making a window's actions: one helper for every window (main window, designer, chart editor)."""

from __future__ import annotations

from typing import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


def make_action(window: QWidget, text: str, slot: Callable[[], object], shortcut=None,
                tip: str = "") -> QAction:
    """An action of ``window`` (so its shortcut works anywhere in it) that calls ``slot()``."""
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setToolTip(tip)
        action.setStatusTip(tip)
    action.triggered.connect(lambda _checked=False: slot())
    window.addAction(action)
    return action

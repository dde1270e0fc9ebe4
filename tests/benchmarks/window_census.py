"""What a first window is made of, counted the same way for ShipSheet's window and for
``plain_window.py`` (the start-up reference), so a test can tell when they drift apart."""

from __future__ import annotations

from collections import Counter

from PySide6.QtWidgets import QDockWidget, QMainWindow, QToolBar, QWidget

#: Widget classes counted (each widget counts as the first of these it is an instance of).
KINDS = ("QMenuBar", "QMenu", "QToolBar", "QToolButton", "QStatusBar", "QDockWidget", "QTreeView",
         "QListView", "QScrollArea", "QGroupBox", "QPushButton", "QCheckBox", "QComboBox",
         "QLabel", "QLineEdit", "QAbstractSpinBox", "QPlainTextEdit", "QTextEdit")


def _kind(widget: QWidget) -> str | None:
    import PySide6.QtWidgets as w
    for name in KINDS:
        if isinstance(widget, getattr(w, name)):
            return name
    return None


class CountingPainter:
    """Stands in for a QPainter: counts the labels and the outlined boxes drawn, forwards
    everything."""

    def __init__(self, painter):
        self._painter = painter
        self.labels = 0
        self.boxes = 0

    def __getattr__(self, name):
        attr = getattr(self._painter, name)
        if name in ("drawText", "drawStaticText"):
            def counted(*args, _f=attr):
                self.labels += 1
                return _f(*args)
            return counted
        if name in ("drawRect", "drawRoundedRect"):
            def counted(*args, _f=attr, **kw):
                self.boxes += self._outlined()
                return _f(*args, **kw)
            return counted
        if name == "drawRects":
            def counted(rects, _f=attr):
                self.boxes += len(rects) * self._outlined()
                return _f(rects)
            return counted
        return attr

    def _outlined(self) -> int:
        """A box has an outline; a rectangle filled with no pen (paper, a mark) is not one."""
        from PySide6.QtCore import Qt
        return int(self._painter.pen().style() != Qt.PenStyle.NoPen)


def census(window: QMainWindow, labels: int, boxes: int) -> dict[str, int]:
    """Menus, actions, docks, widgets by kind, and the sheet's labels and boxes."""
    menus = [a.menu() for a in window.menuBar().actions() if a.menu() is not None]
    counts = Counter()
    counts["menus"] = len(menus)
    counts["menu actions"] = sum(1 for m in menus for a in m.actions() if not a.isSeparator())
    counts["toolbar actions"] = sum(1 for t in window.findChildren(QToolBar)
                                    for a in t.actions() if not a.isSeparator())
    counts["docks"] = len(window.findChildren(QDockWidget))
    for widget in window.findChildren(QWidget):
        kind = _kind(widget)
        if kind and kind not in ("QMenu",) and widget.isVisibleTo(window):
            counts[kind] += 1
    counts["sheet labels"] = labels
    counts["sheet boxes"] = boxes
    return dict(counts)

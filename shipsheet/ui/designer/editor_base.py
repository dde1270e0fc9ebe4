"""What every game's editor offers the designer window."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from ..layouts import fill_with_scroll
from ...model.classfiles import Problem
from .widgets import ErrorLabel, clear_invalid, mark_invalid


class GameEditor(QWidget):
    """The fields of one game's ship definition.

    ``load(data)`` fills the fields from a definition (tolerating wrong types:
    validation will name them); ``values()`` gives the game's keys in file
    order; ``head_keys`` are written right after ``class`` (before ``sample``
    and ``notes``). ``show_problem`` marks the field a key path names and
    shows the message beside it.
    """

    changed = Signal()
    game = ""
    head_keys: tuple[str, ...] = ()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._marked: list[QWidget] = []
        self._labels: list[ErrorLabel] = []
        self._focus: QWidget | None = None
        self._loading = False

    # Each game's editor defines load(data), values() and locate(path).
    def locate(self, path: str) -> tuple[QWidget, ErrorLabel] | None:
        """The widget a key path names and the error line of its group."""
        return None

    # -- shared -------------------------------------------------------------------------
    def fill_scrolling(self, *parts) -> None:
        """Lay the editor out as one scrolling column of ``parts`` (layouts or widgets)."""
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(0, 0, 0, 0)
        for part in parts:
            if isinstance(part, QWidget):
                layout.addWidget(part)
            else:
                layout.addLayout(part)
        layout.addStretch(1)
        fill_with_scroll(self, inner)

    def emit_changed(self, *_args) -> None:
        """Tell the window a field changed (not while loading)."""
        if not self._loading:
            self.changed.emit()

    def show_problem(self, problem: Problem) -> bool:
        """Mark the field named by ``problem.path``; False when this editor has no such field."""
        found = self.locate(problem.path) if problem.path else None
        if found is None:
            return False
        widget, label = found
        mark_invalid(widget, problem.message)
        label.show_message(f"{problem.path}: {problem.text}")
        self._marked.append(widget)
        self._labels.append(label)
        self._focus = widget
        return True

    def clear_problem(self) -> None:
        """Take every error mark off."""
        for widget in self._marked:
            clear_invalid(widget)
        for label in self._labels:
            label.clear()
        self._marked, self._labels, self._focus = [], [], None

    def focus_problem(self) -> None:
        """Put the keyboard focus on the marked field."""
        if self._focus is not None:
            self._focus.setFocus()


def text_of(value, default: str = "") -> str:
    """``value`` if it is text, else ``default``."""
    return value if isinstance(value, str) else default


def int_of(value, default: int = 0) -> int:
    """``value`` if it is a whole number, else ``default``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def bool_of(value, default: bool = False) -> bool:
    """``value`` if it is true/false, else ``default``."""
    return value if isinstance(value, bool) else default

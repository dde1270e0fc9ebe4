"""The mouse wheel changes a value only in the field the user is typing in.

A player types the dice 7, 5, 3, rests the pointer on the Reactor box and turns the wheel
to scroll the panel down to Commit: in a plain Qt form the Reactor box takes the wheel and
becomes 4. Here (the usual form-app behaviour) a spin box or a combo box takes the wheel
only when it has the keyboard focus; otherwise the wheel goes to what holds it, and the
panel or dialog scrolls. The application-wide event filter (:mod:`.plaintext`) calls
:func:`polish` and :func:`wheel` for every widget, so it holds everywhere.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QComboBox

_value_fields: tuple[type, ...] | None = None


def value_fields() -> tuple[type, ...]:
    """The value fields: spin boxes of every kind and combo boxes. Spin boxes are imported
    on first use: PySide makes a Qt class, with its enums, the first time Python touches
    it, and most windows start with no spin box."""
    global _value_fields
    if _value_fields is None:
        from PySide6.QtWidgets import QAbstractSpinBox
        _value_fields = (QAbstractSpinBox, QComboBox)
    return _value_fields


def polish(obj: QObject) -> None:
    """A value field is focused by a click or Tab, never by the wheel."""
    if isinstance(obj, value_fields()) and obj.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        obj.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


def wheel(obj: QObject, event: QEvent) -> bool:
    """True when the wheel event must not reach ``obj`` (an unfocused value field): it goes
    to the widgets that hold the field instead, innermost first, until one takes it (a
    scroll area scrolls). Handed on here rather than left to Qt, so it is the same for a
    wheel turned by a hand and for one a program or a test sends."""
    if not isinstance(obj, value_fields()) or obj.hasFocus():
        return False
    from PySide6.QtGui import QWheelEvent
    holder = obj.parentWidget()
    at = event.position()  # in obj's coordinates, then in each holder's in turn
    while holder is not None:
        # obj is the holder's child: the point in the holder's own coordinates. (Not
        # holder.mapFrom(obj): mapFrom maps from an *ancestor*, warns "parent must be in
        # parent hierarchy" and gives a point off the widget.)
        at = obj.mapToParent(at)
        passed = QWheelEvent(at, event.globalPosition(), event.pixelDelta(), event.angleDelta(),
                             event.buttons(), event.modifiers(), event.phase(),
                             event.inverted(), event.source())
        passed.ignore()
        QApplication.sendEvent(holder, passed)
        if passed.isAccepted() or holder.isWindow():
            break
        obj, holder = holder, holder.parentWidget()
    event.accept()
    return True


__all__ = ["polish", "value_fields", "wheel"]

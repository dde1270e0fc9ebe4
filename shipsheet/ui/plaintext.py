"""Text from files and people is shown as text, never as markup.

Qt guesses whether a label's or a tooltip's text is HTML (``Qt::mightBeRichText``): a
ship name ``<img src="/dev/zero">`` from a session file would load that "image" and take
all the memory there is. So, for the whole application (:func:`install`, from
``make_qapp``; at start-up ``run_app`` uses :func:`install_when_painted`: the same once the
window has first painted, and until then a style sheet that has Qt make each label plain
as it polishes it):

- every ``QLabel`` is switched to plain text when it is first polished, unless the code
  that made it declared its markup its own with :func:`rich` — and then every value put
  into that markup goes through :func:`esc`;
- every tooltip is shown through :func:`tooltip_html`, which escapes it, whether it comes
  from a widget, an item of a list, tree or table, a menu, a tab, or the sheet
  (:func:`show_tooltip`).

``tests/ui/test_plain_text.py`` opens hostile sessions of every game and walks every
label and tooltip of the window, its panels and dialogs.

The same application-wide filter also keeps the mouse wheel off unfocused spin boxes and
combo boxes (:mod:`.wheel`): one filter, so each event costs one Python call.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QLabel, QToolTip, QWidget

from .first_paint import after_first_paint
from .wheel import polish, value_fields, wheel

RICH_PROPERTY = "shipsheet_rich"
#: Until the guard is armed (:func:`install_when_painted`): Qt's own style-sheet engine sets
#: each label's text format as it polishes it, before the label is first measured, laid out
#: or painted: plain text (0), or rich text (1) for markup declared ours with :func:`rich`.
#: Done in C++: a style written in Python (as this was) is handed every widget Qt polishes,
#: its private ones too, and PySide then makes a Python class for every widget class
#: there is to find one for each (about 8 ms of start-up).
STARTUP_SHEET = (f'QLabel {{ qproperty-textFormat: 0 }} '
                 f'QLabel[{RICH_PROPERTY}="true"] {{ qproperty-textFormat: 1 }}')


def esc(text: object) -> str:
    """``text`` escaped for our own markup (``<b>{esc(ship.name)}</b>``)."""
    import html  # on first use: html.entities, which it loads, is large
    return html.escape(str(text), quote=False)


def rich(label: QLabel) -> QLabel:
    """Declare ``label``'s markup our own: it keeps rich text. Values in it use :func:`esc`."""
    label.setProperty(RICH_PROPERTY, True)
    label.setTextFormat(Qt.TextFormat.RichText)
    return label


def is_rich(label: QLabel) -> bool:
    return bool(label.property(RICH_PROPERTY))


def tooltip_html(text: str) -> str:
    """A tooltip that shows ``text`` exactly as written (line breaks kept, no markup)."""
    return f"<p style='white-space:pre'>{esc(text)}</p>"


def show_tooltip(global_pos, text: str, widget: QWidget | None = None) -> None:
    """``QToolTip.showText`` for text that may come from a file."""
    if text:
        QToolTip.showText(global_pos, tooltip_html(text), widget)
    else:
        QToolTip.hideText()


def _tooltip_at(obj: QObject, pos) -> str | None:
    """The tooltip Qt would show for ``obj`` at ``pos``; None when it is not ours to know."""
    # Imported at the first tooltip: each Qt class PySide6 makes costs start-up time.
    from PySide6.QtWidgets import QAbstractItemView, QMenu, QTabBar
    parent = obj.parent()
    if isinstance(parent, QAbstractItemView) and obj is parent.viewport():
        index = parent.indexAt(pos)
        value = index.data(Qt.ItemDataRole.ToolTipRole) if index.isValid() else None
        return value if isinstance(value, str) else ""
    if isinstance(obj, QAbstractItemView):  # a header view is its own viewport
        header = getattr(obj, "logicalIndexAt", None)
        if header is not None and hasattr(obj, "orientation"):
            section = obj.logicalIndexAt(pos)
            value = (obj.model().headerData(section, obj.orientation(), Qt.ItemDataRole.ToolTipRole)
                     if section >= 0 and obj.model() is not None else None)
            return value if isinstance(value, str) else ""
        return None
    if isinstance(obj, QMenu):
        action = obj.actionAt(pos)
        if action is None or not obj.toolTipsVisible():
            return ""
        return action.toolTip()
    if isinstance(obj, QTabBar):
        tab = obj.tabAt(pos)
        return obj.tabToolTip(tab) if tab >= 0 else ""
    if isinstance(obj, QWidget):
        return obj.toolTip() or None  # none of its own: Qt's default (nothing) applies
    return None


def _polished(obj: QObject) -> None:
    """What the guard does to a widget when it is polished (or found when armed late)."""
    polish(obj)
    if isinstance(obj, QLabel):
        if obj.metaObject().className() == "QTipLabel":
            rich(obj)  # the tooltip: what it shows is always tooltip_html()'s escaped text
        elif not is_rich(obj) and obj.textFormat() != Qt.TextFormat.PlainText:
            obj.setTextFormat(Qt.TextFormat.PlainText)


class _Guard(QObject):
    """The application-wide event filter described in the module docstring."""

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Wheel:
            return wheel(obj, event)  # a value changes under the wheel only when focused
        if kind == QEvent.Type.Polish:
            _polished(obj)
        elif kind == QEvent.Type.ToolTip:
            text = _tooltip_at(obj, event.pos())
            if text is not None:
                if text:
                    QToolTip.showText(event.globalPos(), tooltip_html(text), obj)
                else:
                    QToolTip.hideText()
                    event.ignore()
                return True
        return False


_guard: _Guard | None = None


def install(app) -> None:
    """Guard every label and tooltip of ``app`` (once), those made before included."""
    global _guard
    if _guard is None:
        _guard = _Guard(app)
        app.installEventFilter(_guard)
        # Labels polished before the guard was there get no second Polish event.
        for top in app.topLevelWidgets():
            fields = [field for kind in value_fields() for field in top.findChildren(kind)]
            for widget in (top, *top.findChildren(QLabel), *fields):
                if widget.testAttribute(Qt.WidgetAttribute.WA_WState_Polished):
                    _polished(widget)


def install_when_painted(app, window: QWidget) -> None:
    """:func:`install` once ``window`` has first been painted (before the next event: a
    tooltip, the wheel, the filter's other work), or once a modal dialog over it blocks it
    first; until then the window's style sheet (:data:`STARTUP_SHEET`) makes each label of
    the window, and of the dialogs parented to it, plain as Qt polishes it, which is before
    Qt first measures, lays out or paints it. The style sheet is dropped once the filter is
    there.

    Until then the application must show no window but ``window`` and the modal dialogs
    parented to it (tooltips and the wheel are the filter's): :func:`install` at once if
    it may show another.

    Why not at once: an application-wide filter written in Python hands every event of every
    object to Python, and PySide must then find a Python class for each. For Qt's private
    objects made while the window is built and laid out (the gesture manager that a scroll
    area makes, the animation timer of the main window's layout) that search makes a Python
    class for every Qt class there is: 25-30 ms of start-up, spent before the first paint.
    The style sheet does its work in C++ and hands Python nothing; armed after the first
    paint, the filter's cost (and its sweep of the labels made so far) comes once the window
    is on the screen, not while it paints. It is the window's, not the application's: Qt
    then styles through its style-sheet engine only what the window holds, and setting it
    does not polish again whatever the application made before (about half the cost)."""
    if _guard is None:
        window.setStyleSheet(window.styleSheet() + STARTUP_SHEET)
        after_first_paint(window, lambda: _arm(app, window), or_blocked=True)


def _arm(app, window: QWidget) -> None:
    """The filter, then the start-up style sheet dropped: every widget of the window is
    polished again, and the filter sees each. (A style sheet changed meanwhile is left as
    it is.)"""
    install(app)
    sheet = window.styleSheet()
    if sheet.endswith(STARTUP_SHEET):
        window.setStyleSheet(sheet[:-len(STARTUP_SHEET)])


def plain_label(text: str = "") -> QLabel:
    """A label for text that may come from a file (plain from the start)."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label

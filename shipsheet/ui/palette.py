"""Follow the system's light or dark colour scheme.

Most platform themes hand Qt a dark palette when the desktop is dark. Where
one does not (some Linux desktops), the system still reports its scheme via
``QStyleHints.colorScheme``; then we switch to the Fusion style with a dark
palette ourselves, and back when the desktop turns light again.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

_original: tuple[str, QPalette] | None = None


def dark_palette() -> QPalette:
    p = QPalette()
    role, group = QPalette.ColorRole, QPalette.ColorGroup
    colours = {
        role.Window: "#2b2d31", role.WindowText: "#e6e6e6", role.Base: "#1f2125",
        role.AlternateBase: "#2f3237", role.ToolTipBase: "#3a3d43", role.ToolTipText: "#f0f0f0",
        role.PlaceholderText: "#9a9aa2", role.Text: "#e6e6e6", role.Button: "#34373c",
        role.ButtonText: "#e6e6e6", role.BrightText: "#ff6b6b", role.Link: "#8ab4f8",
        role.Highlight: "#3d6fb6", role.HighlightedText: "#ffffff", role.Mid: "#45484e",
        role.Dark: "#1a1b1e", role.Light: "#4a4d53", role.Shadow: "#000000",
    }
    for r, c in colours.items():
        p.setColor(r, QColor(c))
    for r in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(group.Disabled, r, QColor("#7d7d85"))
    return p


#: WCAG 2.x, level AA: the least contrast for text.
READABLE = 4.5


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: QColor) -> float:
    """WCAG 2.x relative luminance of an opaque colour."""
    return (0.2126 * _linear(colour.redF()) + 0.7152 * _linear(colour.greenF())
            + 0.0722 * _linear(colour.blueF()))


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved ``t`` (0–1) of the way to ``b``, opaque (a translucent ``a`` is taken as
    seen over ``b``)."""
    t = 1 - (1 - t) * a.alphaF()
    pairs = ((a.redF(), b.redF()), (a.greenF(), b.greenF()), (a.blueF(), b.blueF()))
    return QColor.fromRgbF(*((1 - t) * x + t * y for x, y in pairs))


def contrast(text: QColor, backdrop: QColor) -> float:
    """WCAG 2.x contrast ratio of ``text`` (seen over ``backdrop``) on ``backdrop``."""
    hi, lo = sorted((luminance(mix(text, backdrop, 0)), luminance(backdrop)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def quiet_text(palette: QPalette) -> QColor:
    """Quieter text (a note, a word for nothing yet): the palette's placeholder grey, moved
    towards its text colour as far as it takes to read at 4.5:1 on the window and on the
    base colour. (Qt's own light placeholder, black at half strength, gives 3.9:1 on a light
    window.)"""
    role = QPalette.ColorRole
    window, base = palette.color(role.Window), palette.color(role.Base)
    text = palette.color(role.WindowText)
    grey = mix(palette.color(role.PlaceholderText), window, 0)
    for step in range(11):
        colour = mix(grey, text, step / 10)
        if min(contrast(colour, window), contrast(colour, base)) >= READABLE:
            return colour
    return QColor(text)


def style_name(style) -> str | None:
    """The style factory's name of ``style``, or None when the factory cannot make it again
    (a style-sheet style has no name). Qt gives style names in lower case and the factory's
    keys capitalised; the factory takes either."""
    from PySide6.QtWidgets import QStyleFactory  # here: a switch of appearance, not start-up
    name = style.name()
    known = any(key.lower() == name.lower() for key in QStyleFactory.keys())
    return name if name and known else None


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def wants_dark(preference: str = "system") -> bool | None:
    """True/False for dark/light; None when the system says nothing."""
    if preference == "dark":
        return True
    if preference == "light":
        return False
    scheme = QGuiApplication.styleHints().colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return True
    if scheme == Qt.ColorScheme.Light:
        return False
    return None


def apply_color_scheme(app: QApplication | None = None, preference: str | None = None) -> None:
    """Make the palette match the system's scheme, or the user's choice in View > Appearance."""
    global _original
    app = app or QApplication.instance()
    if preference is None:
        from .settings import get_setting
        preference = get_setting("appearance", "system")
    dark = wants_dark(preference)
    if _original is None and (dark or is_dark(app.palette())):
        # What to go back to, kept before the first switch (the style is left alone until
        # then: touching QStyle from Python costs about 4 ms of start-up).
        _original = (style_name(app.style()), QPalette(app.palette()))
    # Styles by name: Qt makes and owns them (a QStyle made from Python and handed over
    # could be deleted under the widgets still using it: a crash on the next switch).
    if dark and not is_dark(app.palette()):
        _switch(app, "Fusion", dark_palette())
    elif is_dark(app.palette()) and (dark is False or (dark is None and not is_dark(_original[1]))):
        name = _original[0] or "Fusion"
        _switch(app, name, _original[1] if not is_dark(_original[1]) else standard_palette(name))
    readable_placeholder(app)


def readable_placeholder(app: QApplication) -> None:
    """The application's placeholder grey (hints in empty fields, the notes that use
    ``palette(placeholder-text)``, undone log lines) made to read at 4.5:1 (WCAG AA) where
    the palette's own does not: Qt's light one is black at half strength, 3.9:1 on a light
    window. Only that colour is set: the rest of the palette still follows the system's."""
    palette = app.palette()
    role = QPalette.ColorRole.PlaceholderText
    grey = quiet_text(palette)
    if palette.color(role).rgba() != grey.rgba():
        palette = QPalette(palette)
        palette.setColor(role, grey)
        app.setPalette(palette)


def _switch(app: QApplication, style: str, palette: QPalette) -> None:
    """The application in ``style`` with ``palette``, every widget and window following."""
    forget_dropped_style_sheets(app)
    # The palette first, then the style. A widget with a style sheet of its own (a note in
    # ``palette(placeholder-text)``) takes its colours when a style polishes it, from the
    # palette of that moment; a new application palette alone never reaches it. So the
    # style is set last, and its polish works from the new palette.
    app.setPalette(palette)
    app.setStyle(style)


def standard_palette(style: str) -> QPalette:
    """The palette the style ``style`` (a factory name) comes with. The style made to ask
    is never handed to Qt: it goes with this call."""
    from PySide6.QtWidgets import QStyleFactory
    made = QStyleFactory.create(style) or QStyleFactory.create("Fusion")
    return QPalette(made.standardPalette())


def forget_dropped_style_sheets(app: QApplication) -> int:
    """Take the style-sheet mark (``WA_StyleSheet``) off every widget no style sheet styles
    any more; returns how many had it.

    Start-up styles every label through an application style sheet (``plaintext``'s
    ``STARTUP_SHEET``) and drops it once the window has painted. Qt unpolishes each widget
    then, but some come out of it still marked (seen: one to three of the docks, by the
    order Qt happens to visit the widgets in). A marked widget neither inherits its parent's
    palette nor passes its own on (``QWidgetPrivate::propagatePaletteChange`` skips it):
    after a change of appearance the Roster, Actions and Log docks kept the old one, dark
    text on a dark title and a light list in a dark window, until a restart. A widget that
    is styled by a sheet (its own, an ancestor's, the application's) has a style-sheet
    style and keeps its mark."""
    mark = Qt.WidgetAttribute.WA_StyleSheet
    stale = [widget for widget in app.allWidgets()
             if widget.testAttribute(mark)
             and widget.style().metaObject().className() != "QStyleSheetStyle"]
    for widget in stale:
        widget.setAttribute(mark, False)
    return len(stale)


def follow_system_scheme(app: QApplication) -> None:
    apply_color_scheme(app)
    QGuiApplication.styleHints().colorSchemeChanged.connect(lambda _scheme: apply_color_scheme(app))

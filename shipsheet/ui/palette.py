"""Follow the system's light or dark colour scheme.

Most platform themes hand Qt a dark palette when the desktop is dark. Where
one does not (some Linux desktops), the system still reports its scheme via
``QStyleHints.colorScheme``; then we switch to the Fusion style with a dark
palette ourselves, and back when the desktop turns light again.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

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


def style_name(style) -> str | None:
    """The style factory's name of ``style``, or None when the factory cannot make it again
    (a style-sheet style has no name). Qt gives style names in lower case and the factory's
    keys capitalised; the factory takes either."""
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
        app.setStyle("Fusion")
        app.setPalette(dark_palette())
    elif is_dark(app.palette()) and (dark is False or (dark is None and not is_dark(_original[1]))):
        app.setStyle(_original[0] or "Fusion")
        app.setPalette(_original[1] if not is_dark(_original[1]) else app.style().standardPalette())


def follow_system_scheme(app: QApplication) -> None:
    apply_color_scheme(app)
    QGuiApplication.styleHints().colorSchemeChanged.connect(lambda _scheme: apply_color_scheme(app))

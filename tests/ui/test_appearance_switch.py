"""View ▸ Appearance switches everything at once, both ways, and stays readable.

Issue 31, item 6: after Light → Dark the Roster, Actions and Log docks kept the light
palette (a light list in a dark window, dark dock titles on the dark title bar), and after
Dark → Light the dark one, until a restart. The causes (``shipsheet/ui/palette.py``):

- the start-up style sheet (``plaintext.STARTUP_SHEET``, dropped once the window has
  painted) left some dock widgets marked as styled by a sheet, and Qt passes no palette to
  or through such a widget (``forget_dropped_style_sheets``);
- the style was switched before the palette, so a widget with a style sheet of its own
  (``color: palette(placeholder-text)``) was polished from the old palette;
- colours worked out once (PBEM status words and notes, the designer's error and ✔ marks)
  and never again; and Qt's light placeholder grey reads at 3.9:1 (``readable_placeholder``).

So each test starts a window as ``run_app`` does (the start-up style sheet until the first
paint) in one appearance, opens the game's non-modal dialogs, switches, and compares every
visible widget of the window, its docks and its dialogs with a window started afresh in
the new appearance: the colours each one's palette gives it, the colour it is drawn on,
the mean lightness of what it paints, and WCAG 2.x contrast (4.5:1) of its text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractSpinBox, QApplication,
                               QComboBox, QDockWidget, QGroupBox, QHeaderView, QLabel, QLineEdit,
                               QMenuBar, QPlainTextEdit, QPushButton, QStatusBar, QTextEdit, QToolBar,
                               QWidget)

from shipsheet.ui import plaintext
from shipsheet.ui.palette import apply_color_scheme, is_dark
from shipsheet.ui.settings import set_setting

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"
SIZE = QSize(1200, 800)
AA = 4.5  # WCAG 2.x, level AA, for text
#: Two starts in one appearance paint the same; a widget left in the other appearance
#: differs in mean lightness by far more than this (light #efefef against dark #2b2d31: 0.75).
LIGHTNESS_TOLERANCE = 0.08
ROLE = QPalette.ColorRole


# -- WCAG 2.x ------------------------------------------------------------------------------
def _channel(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: QColor) -> float:
    r, g, b = (_channel(x) for x in (colour.redF(), colour.greenF(), colour.blueF()))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def over(colour: QColor, backdrop: QColor) -> QColor:
    """``colour`` as seen over ``backdrop`` (a placeholder grey is half-transparent)."""
    a = colour.alphaF()
    return QColor.fromRgbF(*(a * getattr(colour, c)() + (1 - a) * getattr(backdrop, c)()
                             for c in ("redF", "greenF", "blueF")))


def contrast(text: QColor, backdrop: QColor) -> float:
    hi, lo = sorted((luminance(over(text, backdrop)), luminance(backdrop)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_contrast_formula_gives_wcag_s_numbers():
    assert contrast(QColor("black"), QColor("white")) == pytest.approx(21)
    assert contrast(QColor("#777777"), QColor("white")) == pytest.approx(4.48, abs=0.01)
    assert contrast(QColor(0, 0, 0, 128), QColor("white")) == pytest.approx(
        contrast(QColor("#7f7f7f"), QColor("white")), abs=0.05)


# -- what each widget shows ----------------------------------------------------------------
#: Widgets whose text is drawn in Text on Base (an entry field, a list) or ButtonText on
#: Button; the rest draw foregroundRole() on what is under them.
FIELDS = (QAbstractItemView, QTextEdit, QPlainTextEdit, QLineEdit, QAbstractSpinBox)
BUTTONS = (QAbstractButton, QComboBox)
#: The widgets the checks look at: text, lists, docks and bars.
LOOKED_AT = (QLabel, QDockWidget, QToolBar, QMenuBar, QStatusBar, QGroupBox) + FIELDS + BUTTONS


def backdrop(widget: QWidget) -> QColor:
    """The colour drawn under ``widget``: the nearest of it and its ancestors that fills its
    background (a window, a list's viewport, a widget that fills itself)."""
    w = widget
    while w is not None:
        if w.isWindow() or w.autoFillBackground():
            return w.palette().color(w.backgroundRole())
        w = w.parentWidget()
    return widget.palette().color(ROLE.Window)


def text_colours(widget: QWidget) -> tuple[QColor, QColor]:
    """The text colour ``widget`` draws with and the colour behind it."""
    p = widget.palette()
    if isinstance(widget, FIELDS):
        return p.color(ROLE.Text), p.color(ROLE.Base)
    if isinstance(widget, (QPushButton, QComboBox)):  # a bevel of their own
        return p.color(ROLE.ButtonText), p.color(ROLE.Button)
    return p.color(widget.foregroundRole()), backdrop(widget)


def _key(widget: QWidget, top: QWidget) -> str:
    """Where ``widget`` sits in ``top``: the same in two windows built alike."""
    parts = []
    w = widget
    while w is not None and w is not top:
        parent = w.parentWidget()
        siblings = (parent.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
                    if parent is not None else [w])
        kin = [c for c in siblings if type(c) is type(w)]
        parts.append(f"{type(w).__name__}:{w.objectName()}#{kin.index(w)}")
        w = parent
    return "/".join(reversed(parts)) or type(top).__name__


def _has_text(widget: QWidget) -> bool:
    if isinstance(widget, (QLabel, QAbstractButton)):
        return bool(widget.text().strip())
    if isinstance(widget, QDockWidget):
        return bool(widget.windowTitle().strip())
    if isinstance(widget, QGroupBox):
        return bool(widget.title().strip())
    return isinstance(widget, FIELDS + (QComboBox,))


def mean_lightness(widget: QWidget) -> float:
    """The mean lightness (0–1) of what ``widget`` paints, children included."""
    image = widget.grab().toImage().scaled(16, 16, Qt.AspectRatioMode.IgnoreAspectRatio,
                                           Qt.TransformationMode.SmoothTransformation)
    values = [image.pixelColor(x, y).lightnessF() for x in range(16) for y in range(16)]
    return sum(values) / len(values)


def snapshot(top: QWidget) -> dict:
    """Every visible looked-at widget of ``top``: its palette's colours, the colours of its
    text and of what is under it, whether it takes part (enabled)."""
    seen = {}
    for widget in [top, *top.findChildren(QWidget)]:
        if (not isinstance(widget, LOOKED_AT + (type(top),)) or not widget.isVisibleTo(top)
                or widget.window() is not top):  # (a dialog is a top-level of its own)
            continue
        p = widget.palette()
        fg, bg = text_colours(widget)
        key = _key(widget, top)
        if isinstance(widget, QAbstractItemView) and not isinstance(widget, QHeaderView):
            seen.update(item_colours(widget, key))
        seen[key] = {
            "palette": tuple(p.color(r).name(QColor.NameFormat.HexArgb) for r in
                             (ROLE.Window, ROLE.WindowText, ROLE.Base, ROLE.Text,
                              ROLE.Button, ROLE.ButtonText, ROLE.PlaceholderText)),
            "text": (fg.name(QColor.NameFormat.HexArgb), bg.name(QColor.NameFormat.HexArgb)),
            "contrast": contrast(fg, bg),
            "checked": widget.isEnabled() and _has_text(widget),
        }
    return seen


def item_colours(view: QAbstractItemView, key: str) -> dict:
    """The text colours a list's or table's items were given (a status word's, a greyed
    line's) on the list's Base; the first rows of each column, enough to see them all."""
    model, root, seen = view.model(), view.rootIndex(), {}
    base = view.palette().color(ROLE.Base)
    for row in range(min(model.rowCount(root), 40)):
        for column in range(12):  # (a list model's columnCount is not PySide's to call)
            index = model.index(row, column, root)
            if not index.isValid():
                break
            brush = index.data(Qt.ItemDataRole.ForegroundRole)
            if brush is None:
                continue
            colour = brush.color() if hasattr(brush, "color") else QColor(brush)
            name = colour.name(QColor.NameFormat.HexArgb)
            seen[f"{key}[{row},{column}]"] = {
                "palette": (), "text": (name, base.name(QColor.NameFormat.HexArgb)),
                "contrast": contrast(colour, base), "checked": view.isEnabled()}
    return seen


def painted(top: QWidget) -> dict:
    """The mean lightness of the top-level, each dock and each list."""
    parts = {"(window)": top}
    for widget in top.findChildren(QWidget):
        if (isinstance(widget, (QDockWidget, QAbstractItemView, QToolBar, QMenuBar))
                and widget.isVisibleTo(top) and widget.window() is top):
            parts[_key(widget, top)] = widget
    return {key: mean_lightness(widget) for key, widget in parts.items()}


# -- starting as run_app does ----------------------------------------------------------------
@pytest.fixture
def start(app, qtbot, monkeypatch, qapp):
    """``start(appearance, sample)``: a window started in ``appearance`` on a sample, as
    ``run_app`` starts it: the start-up style sheet until it has first painted
    (``plaintext.install_when_painted``), the game's non-modal dialogs open; returns
    (window, the dialogs). The appearance goes back to light after the test."""
    # The plain-text guard is installed already (``make_qapp``); let the start-up path run
    # again as at a real start, with the guard it arms being the one that is there.
    monkeypatch.setattr(plaintext, "install", lambda _app: None)
    made = []

    def starting(appearance: str, sample: str):
        # As make_qapp does at a start: the saved appearance, before any window is made.
        set_setting("appearance", appearance)
        apply_color_scheme(qapp, appearance)
        assert is_dark(qapp.palette()) is (appearance == "dark")
        monkeypatch.setattr(plaintext, "_guard", None)
        window = app.new_window(show=False)
        qtbot.addWidget(window)
        plaintext.install_when_painted(qapp, window)
        assert window.styleSheet().endswith(plaintext.STARTUP_SHEET)
        window.open_path(SAMPLES / sample)
        window.resize(SIZE)
        window.show()
        qtbot.waitExposed(window)
        qtbot.waitUntil(lambda: plaintext.STARTUP_SHEET not in window.styleSheet(), timeout=5000)
        dialogs = open_dialogs(window)
        for dialog in dialogs:
            qtbot.waitExposed(dialog)
        QApplication.processEvents()
        made.append((window, dialogs))
        return window, dialogs

    yield starting
    for window, dialogs in made:
        for dialog in dialogs:
            if shiboken6.isValid(dialog):  # (the designer's windows go when closed)
                dialog.close()
    apply_color_scheme(qapp, "light")  # (the settings are this test's own)


def open_dialogs(window) -> list[QWidget]:
    """The non-modal dialogs of the game on show: FedCom's volley and standing orders,
    Triplanetary's attack dialog, and PBEM's Verify Dice; FedCom's session gets players, and
    the PBEM turn desk (a dock of the window) shows."""
    panel = window.panel
    dialogs = []
    if window.doc.session.game == "fedcom":
        players = [{"name": side, "sides": [side], "ships": []} for side in ("Blue", "Red")]
        assert window.pbem.set_players(players, False, False) is None
        assert window.pbem.show_desk() is not None
    dialogs.append(window.pbem.verify_dice())
    dialogs.append(window.open_designer())  # the current ship's class
    if window.doc.session.game == "fedcom":
        dialogs.append(window.open_tool("Chart Editor…"))
    for name in ("open_volley", "open_orders", "open_attack"):
        if hasattr(panel, name):
            dialog = getattr(panel, name)()
            if dialog is not None:
                dialog.resize(dialog.sizeHint())
                dialogs.append(dialog)
    assert dialogs, "the game has a non-modal dialog to check"
    return dialogs


def tops(window, dialogs) -> dict[str, QWidget]:
    return {"main window": window, **{type(d).__name__: d for d in dialogs}}


CASES = [pytest.param(start, end, sample, id=f"{start}-to-{end}-{sample.split('.')[0]}")
         for start, end in (("light", "dark"), ("dark", "light"))
         for sample in ("fedcom.shipsheet", "triplanetary.shipsheet")]


@pytest.mark.parametrize("first, then, sample", CASES)
def test_a_switch_of_appearance_looks_as_a_fresh_start_in_it(start, first, then, sample):
    fresh_window, fresh_dialogs = start(then, sample)
    fresh = {name: (snapshot(top), painted(top)) for name, top in tops(fresh_window, fresh_dialogs).items()}
    fresh_window.close()
    for dialog in fresh_dialogs:
        dialog.close()

    window, dialogs = start(first, sample)
    window.set_appearance(then)
    QApplication.processEvents()
    assert is_dark(QApplication.instance().palette()) is (then == "dark")

    wrong, unreadable, lightness = [], [], []
    for name, top in tops(window, dialogs).items():
        want_colours, want_paint = fresh[name]
        got_colours, got_paint = snapshot(top), painted(top)
        assert got_colours.keys() == want_colours.keys(), name
        for key, got in got_colours.items():
            want = want_colours[key]
            if (got["palette"], got["text"]) != (want["palette"], want["text"]):
                wrong.append(f"{name}: {key}: text {got['text'][0]} on {got['text'][1]}, "
                             f"a fresh start's {want['text'][0]} on {want['text'][1]}"
                             + ("" if got["palette"] == want["palette"] else
                                f" (window {got['palette'][0]}, a fresh start's {want['palette'][0]})"))
            if got["checked"] and got["contrast"] < AA:
                unreadable.append(f"{name}: {key}: {got['text'][0]} on {got['text'][1]}: "
                                  f"{got['contrast']:.2f}:1")
        for key, value in got_paint.items():
            if abs(value - want_paint[key]) > LIGHTNESS_TOLERANCE:
                lightness.append(f"{name}: {key}: {value:.2f}, a fresh start {want_paint[key]:.2f}")
    report = [(f"{len(wrong)} widgets not in the {then} palette", wrong[:25]),
              ("painted unlike a fresh start", lightness), ("text below 4.5:1", unreadable)]
    assert not (wrong or lightness or unreadable), "\n".join(
        f"{title}:\n  " + "\n  ".join(lines) for title, lines in report if lines)


@pytest.mark.parametrize("appearance", ["light", "dark"])
def test_a_fresh_start_is_readable(start, appearance):
    """The reference itself: every enabled text of the window, docks and dialogs ≥ 4.5:1."""
    window, dialogs = start(appearance, "fedcom.shipsheet")
    unreadable = [f"{name}: {key}: {seen['text'][0]} on {seen['text'][1]}: {seen['contrast']:.2f}:1"
                  for name, top in tops(window, dialogs).items()
                  for key, seen in snapshot(top).items()
                  if seen["checked"] and seen["contrast"] < AA]
    assert not unreadable, "\n".join(unreadable)


# -- the two causes, each on its own -----------------------------------------------------------
@pytest.fixture
def switching(qapp, qtbot):
    """A plain widget on show; the appearance back to light after the test."""
    top = QWidget()
    qtbot.addWidget(top)
    apply_color_scheme(qapp, "light")
    yield top
    apply_color_scheme(qapp, "light")


def test_a_widget_left_marked_by_a_dropped_style_sheet_follows_a_switch(qapp, switching):
    """What the start-up sheet's removal leaves on some docks (by the order Qt visits them
    in, so not every start): the mark of a sheet with no sheet there. Such a widget took no
    new palette and passed none to its children."""
    dock = QDockWidget("Roster", switching)
    inside = QLabel("Nike", dock)
    dock.setWidget(inside)
    switching.show()
    dock.setAttribute(Qt.WidgetAttribute.WA_StyleSheet, True)
    for appearance in ("dark", "light", "dark"):
        apply_color_scheme(qapp, appearance)
        QApplication.processEvents()  # (a window hears of the new palette from the event loop)
        for widget in (dock, inside):
            assert widget.palette().color(ROLE.Window) == qapp.palette().color(ROLE.Window), appearance
            assert widget.palette().color(ROLE.WindowText) == qapp.palette().color(ROLE.WindowText)
    assert not dock.testAttribute(Qt.WidgetAttribute.WA_StyleSheet)


def test_a_style_sheet_s_palette_colour_follows_a_switch_both_ways(qapp, switching):
    """A note styled ``color: palette(placeholder-text)`` (the designer's hints, the Add
    Ship dialog's problems) takes the colour when a style polishes it: the new palette must
    be there first."""
    note = QLabel("Not saved yet", switching)
    note.setStyleSheet("color: palette(placeholder-text)")
    switching.show()
    for appearance in ("dark", "light", "dark", "light"):
        apply_color_scheme(qapp, appearance)
        QApplication.processEvents()
        colour = note.palette().color(ROLE.WindowText)
        assert colour == qapp.palette().color(ROLE.PlaceholderText), appearance
        assert contrast(colour, qapp.palette().color(ROLE.Window)) >= AA, appearance

"""Text from a file is shown as text: every label and tooltip, with a hostile session open.

Finding: a ship named ``<img src="/dev/zero">`` in a 9 KB file grew the app to 2 GB (Qt
took the name for HTML and loaded the "image"); ``<img src="local.png">`` showed a local
picture. Here every ship, side, class, session name and log line carries markup; the
window, each ship's panel and each game's dialogs are opened, and every label and every
tooltip is checked: a label either shows plain text or is our own markup with the file's
text escaped; a tooltip is always escaped.
"""

from __future__ import annotations

import json
import re

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QMessageBox, QToolTip, QWidget

from shiboken6 import isValid

from shipsheet.model.paths import resources_dir
from shipsheet.ui.plaintext import is_rich

HOSTILE = '<b>HOSTILE</b><img src="hostile-marker.png">'
RAW = "<img"  # what must never reach Qt's HTML reader unescaped
OUR_MARKUP = re.compile(r"</?(b|i|h\d|small|br|p|tt)>")


def hostile_session(game: str, tmp_path):
    data = json.loads((resources_dir() / "samples" / f"{game}.shipsheet").read_text("utf-8"))
    data["name"] = HOSTILE
    for i, ship in enumerate(data["ships"]):
        ship["name"] = f"{HOSTILE}{i}"
        ship["side"] = f"{HOSTILE}side{i % 2}"
        ship["class"]["class"] = f"{HOSTILE}class"
    for entry in data["log"][:20]:
        entry["text"] = f"{HOSTILE} {entry['text']}"
    path = tmp_path / f"{game}.shipsheet"
    path.write_text(json.dumps(data), "utf-8")
    return path


def _widgets() -> list[QWidget]:
    """The visible windows (the main window and the dialogs it opened) and all they hold."""
    found = []
    for top in QApplication.topLevelWidgets():
        if top.isVisible() and top.metaObject().className() != "QTipLabel":  # the tooltip itself
            found += [top, *top.findChildren(QWidget)]
    return found


def _labels_ok() -> list[str]:
    bad = []
    for widget in _widgets():
        if not isValid(widget) or not isinstance(widget, QLabel) or not widget.isVisible():
            continue
        if is_rich(widget):
            if RAW in widget.text():
                bad.append(f"rich label with file markup: {widget.text()[:80]!r}")
        elif widget.textFormat() != Qt.TextFormat.PlainText:
            bad.append(f"label not plain ({widget.textFormat()}): {widget.text()[:80]!r}")
        elif OUR_MARKUP.search(widget.text().replace(HOSTILE, "")):
            bad.append(f"our own markup shown as text (declare the label rich): {widget.text()[:80]!r}")
    return bad


def _tip_label() -> QLabel | None:
    return next((w for w in QApplication.topLevelWidgets()
                 if w.metaObject().className() == "QTipLabel" and w.isVisible()), None)


def _tip_shown_for(widget: QWidget, pos: QPoint) -> str:
    """The tooltip's text; "RAW:" before it when it would not render as the escaped text
    reads (a tooltip shown as plain text would show our escaping as tags)."""
    QToolTip.hideText()
    event = QHelpEvent(QEvent.Type.ToolTip, pos, widget.mapToGlobal(pos))
    QApplication.sendEvent(widget, event)
    label = _tip_label()
    if label is not None and label.textFormat() == Qt.TextFormat.PlainText:
        return "RAW:" + QToolTip.text()
    return QToolTip.text()


def _columns(model, parent) -> int:
    try:
        return model.columnCount(parent)
    except TypeError:  # a list model: one column (its columnCount is not public)
        return 1


def _tooltips_ok() -> tuple[list[str], int]:
    """Every tooltip with the hostile text, as Qt would show it; (problems, tooltips seen)."""
    bad, seen = [], 0
    for widget in _widgets():
        if not isValid(widget) or not widget.isVisible():  # rebuilt by a panel meanwhile
            continue
        if "HOSTILE" in widget.toolTip():
            seen += 1
            shown = _tip_shown_for(widget, widget.rect().center())
            if RAW in shown or "&lt;img" not in shown or shown.startswith("RAW:"):
                bad.append(f"tooltip of {type(widget).__name__} shown as {shown[:80]!r}")
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            root = widget.rootIndex()
            stack = [model.index(r, c, root) for r in range(model.rowCount(root))
                     for c in range(_columns(model, root))]
            while stack:
                index = stack.pop()
                if index.column() == 0:
                    stack += [model.index(r, c, index) for r in range(model.rowCount(index))
                              for c in range(_columns(model, index))]
                tip = index.data(Qt.ItemDataRole.ToolTipRole)
                rect = widget.visualRect(index)
                if not (isinstance(tip, str) and "HOSTILE" in tip) or rect.isEmpty():
                    continue
                seen += 1
                shown = _tip_shown_for(widget.viewport(), rect.center())
                if RAW in shown or "&lt;img" not in shown or shown.startswith("RAW:"):
                    bad.append(f"item tooltip in {type(widget).__name__} shown as {shown[:80]!r}")
    return bad, seen


def _sheet_tooltips_ok(canvas) -> tuple[list[str], int]:
    bad, seen = [], 0
    for area in list(canvas.painter.areas):
        tip = area.tooltip
        if "HOSTILE" not in tip:
            continue
        seen += 1
        centre = area.rect.center() * canvas.zoom
        QToolTip.hideText()
        canvas._hover_key = None
        QTest.mouseMove(canvas, QPoint(round(centre.x()), round(centre.y())))
        label = _tip_label()
        shown = ("RAW:" if label is not None and label.textFormat() == Qt.TextFormat.PlainText
                 else "") + QToolTip.text()
        if RAW in shown or "&lt;img" not in shown or shown.startswith("RAW:"):
            bad.append(f"sheet tooltip of {area.key} shown as {shown[:80]!r}")
    return bad, seen


def _open_dialogs(window, game: str) -> None:
    panel = window.panel
    if game == "fedcom":
        panel.open_volley()
        panel.open_orders()
    elif game == "triplanetary":
        panel.open_attack()
        panel.open_recovery()


@pytest.mark.parametrize("game", ["fedcom", "war-in-space", "triplanetary"])
def test_no_label_or_tooltip_renders_file_text_as_markup(app, qtbot, tmp_path, game):
    window = app.new_window()
    qtbot.addWidget(window)
    assert window.open_path(hostile_session(game, tmp_path))
    problems, tips = [], 0
    for ship in window.doc.session.ships:
        window.doc.select(ship.id)
        _open_dialogs(window, game)
        qtbot.wait(1)
        problems += _labels_ok()
        found, n = _tooltips_ok()
        problems += found
        tips += n
        found, n = _sheet_tooltips_ok(window.sheet_view.canvas)
        problems += found
        tips += n
    assert not problems, "\n".join(sorted(set(problems)))
    assert tips >= len(window.doc.session.ships)  # the walk did reach the file's text
    for widget in QApplication.topLevelWidgets():
        if widget is not window and widget.isVisible():
            widget.close()
    window.doc.mark_clean()


def test_a_message_box_shows_file_text_as_text(app, qtbot):
    """The "Cannot open file" box showed the file's text with Qt's rich-text guess."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Cannot open file", f"x.shipsheet: {HOSTILE}")
    box.setInformativeText(HOSTILE)
    box.show()
    qtbot.waitExposed(box)
    labels = [w for w in box.findChildren(QLabel) if w.isVisible() and "HOSTILE" in w.text()]
    assert len(labels) == 2
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)
    box.close()


def test_every_view_of_our_own_shows_its_markup(app, qtbot):
    """The welcome view, the designers and the About box: markup of ours renders."""
    window = app.new_window()
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    designers = [window.open_designer(), window.open_tool("Chart Editor…")]
    for game in ("fedcom", "war-in-space", "triplanetary"):
        from shipsheet.ui.designer import open_designer
        designers.append(open_designer(window, game=game))
    qtbot.wait(1)
    assert not _labels_ok()
    for w in designers:
        w.close()


def test_the_recovery_question_shows_the_autosaves_names_as_text(app, qtbot, monkeypatch, tmp_path):
    """"An autosave (“<session name>”) … <file name>": both from files, asked at start-up.
    The box is plain text by itself (not only once the guard polishes it): the guard may be
    armed late, and Qt reads a label's text as HTML as soon as it measures it."""
    from shipsheet.model import Session
    from shipsheet.model.autosave import AutosaveInfo
    from shipsheet.ui.dialogs import ask_recover
    source = tmp_path / '<img src="hostile-marker.png">HOSTILE.shipsheet'  # no longer there
    info = AutosaveInfo("k", tmp_path / "slot", 1, 0.0, source, HOSTILE, Session("fedcom"))
    seen = {}

    def exec_(box):
        label = box.findChild(QLabel, "qt_msgbox_label")
        seen["before"] = label.textFormat()
        box.show()
        qtbot.waitExposed(box)
        seen["shown"] = [(w.text(), w.textFormat()) for w in box.findChildren(QLabel)
                         if w.isVisible() and "HOSTILE" in w.text()]
        box.close()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    assert ask_recover(None, [info]) is False  # closed: "Not now"
    assert seen["before"] == Qt.TextFormat.PlainText
    [(text, shown_as)] = seen["shown"]
    assert shown_as == Qt.TextFormat.PlainText
    assert HOSTILE in text and source.name in text  # shown literally, as written


def test_the_about_box_is_our_markup_with_nothing_from_a_file(app, qtbot, monkeypatch):
    """The About box keeps its rich text (our constant markup and our version number)."""
    from PySide6.QtGui import QTextDocument

    from shipsheet import __version__
    from shipsheet.ui.dialogs import about
    seen = {}

    def exec_(box):
        box.show()
        qtbot.waitExposed(box)
        label = box.findChild(QLabel, "qt_msgbox_label")
        seen["label"] = (label.text(), label.textFormat(), is_rich(label))
        box.close()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    about(None)
    text, shown_as, ours = seen["label"]
    assert ours and shown_as == Qt.TextFormat.RichText
    doc = QTextDocument()
    doc.setHtml(text)
    assert doc.toPlainText().startswith(f"ShipSheet {__version__}")  # the markup rendered
    assert "<" not in doc.toPlainText() and RAW not in text

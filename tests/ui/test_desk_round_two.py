"""Issue 31, the desk's second round: a refusal raised by a clicked box's action said beside
that box and whole in the status bar; the Save dialog's proposed name; no Qt warnings."""

from __future__ import annotations

from PySide6.QtWidgets import QToolTip

from shipsheet.ui.plaintext import tooltip_html

MISTAKE = ("A mistake: this box may not be marked now, because the ship has already done "
           "what it does this turn; mark it again when the next turn begins.")


def test_a_refusal_the_action_raises_shows_beside_the_box_and_whole_in_the_status_bar(window, qtbot):
    """Before: a refusal raised by applying the clicked box's action (the guard, a rule)
    reached only the status bar, shortened, and nothing was said beside the box."""
    window.resize(700, 500)
    window.show()
    assert window.open_sample("triplanetary")
    qtbot.wait(10)
    doc, canvas = window.doc, window.sheet_view.canvas
    doc.guard = lambda action: MISTAKE
    area = next(a for a in canvas.painter.areas if a.click is not None and not a.refusal)
    before = doc.session.undo_status().undo
    assert not canvas.click_at(canvas._centre_of(area))
    assert doc.session.undo_status().undo == before  # nothing was applied
    # Beside the box: its key and the whole text, in the tooltip shown there.
    assert QToolTip.text() == tooltip_html(MISTAKE)
    assert getattr(canvas, "note", None) == (area.key, MISTAKE)
    # The status bar: whole, or shortened with "…" and whole in its tooltip and
    # accessible description.
    bar = window.statusBar()
    shown = bar.currentMessage()
    if MISTAKE not in shown:
        assert shown.endswith("…")
        assert MISTAKE in bar.toolTip() and MISTAKE in bar.accessibleDescription()
    assert MISTAKE in window.status_text()
    # A refusal from elsewhere (not a click on a box) is not put beside the last box.
    canvas.note = None
    doc.refused.emit("Not from a box.")
    assert canvas.note is None


def _new_ship_and_save_as(window, monkeypatch, name: str) -> str:
    """Welcome's New Ship (a Triplanetary frigate named ``name``), then Save As: the path
    the Save dialog proposes (the dialog answers Cancel)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog

    from shipsheet.ui.dialogs import NewShipDialog

    def run(dialog):
        for i in range(dialog.classes.count()):
            if dialog.classes.item(i).data(Qt.ItemDataRole.UserRole) == "triplanetary/frigate":
                dialog.classes.setCurrentRow(i)
        dialog.name.setText(name)
        return True

    monkeypatch.setattr(NewShipDialog, "exec", run)
    asked: list[str] = []

    def save_dialog(parent, caption="", directory="", filter="", *args, **kwargs):
        asked.append(directory)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_dialog))
    assert window.new_ship()
    assert window.doc.session.name in ("", None) and window.doc.path is None
    assert not window.save_as()  # cancelled: nothing saved
    assert len(asked) == 1
    return asked[0]


def test_save_as_proposes_the_first_ships_name_for_new_ships_nameless_session(window, monkeypatch):
    """Before: "session.shipsheet" for every session New Ship made."""
    from pathlib import Path
    assert Path(_new_ship_and_save_as(window, monkeypatch, "Ajax")).name == "Ajax.shipsheet"


def test_the_proposed_name_is_made_file_safe(window, monkeypatch):
    from pathlib import Path

    from shipsheet.model.files import file_name_problem
    proposed = Path(_new_ship_and_save_as(window, monkeypatch, 'Ajax/II: "Pride" ')).name
    assert file_name_problem(proposed) is None
    assert proposed.startswith("Ajax_II_ _Pride_") and proposed.endswith(".shipsheet")


def test_a_named_session_proposes_its_own_name(window, monkeypatch):
    from pathlib import Path

    from PySide6.QtWidgets import QFileDialog
    assert window.open_sample("triplanetary")
    window.doc.session.name = "CON"  # a device's name on Windows: made safe
    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda parent, caption="", directory="", *a, **k:
                                     (asked.append(directory), ("", ""))[1]))
    assert not window.save_as()
    assert Path(asked[0]).name == "_CON.shipsheet"


def _wheel_down(widget) -> None:
    """One notch of the wheel, down, with the pointer on ``widget``'s middle."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                        QPoint(0, -120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


#: What the headless test platform (offscreen) says it cannot do: not ShipSheet's to fix.
PLATFORM_NOTES = ("This plugin does not support",)


def test_a_desk_session_on_each_sample_gives_no_qt_warnings(window, qtbot):
    """Before: 12-18 "QWidget::mapFrom(): parent must be in parent hierarchy" per run, from
    the wheel passed on from an unfocused value field (``ui/wheel.py`` mapped the point the
    wrong way round). Every sample: open it, visit every ship, click a box and undo it,
    hide and show the docks, wheel over the Actions panel's fields; no Qt warning."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler
    from PySide6.QtWidgets import QAbstractSpinBox, QComboBox

    from shipsheet.model.games import GAME_IDS

    heard: list[str] = []

    def handler(kind, context, message):
        if kind != QtMsgType.QtDebugMsg and kind != QtMsgType.QtInfoMsg \
                and not message.startswith(PLATFORM_NOTES):
            heard.append(f"{kind.name}: {message}")

    previous = qInstallMessageHandler(handler)
    try:
        window.resize(1000, 420)  # short: the panels scroll, the wheel has somewhere to go
        window.show()
        wheeled = 0
        for game in GAME_IDS:
            assert window.open_sample(game), game
            qtbot.wait(10)
            doc, canvas = window.doc, window.sheet_view.canvas
            for ship in doc.session.ships:
                doc.select(ship.id)
                qtbot.wait(1)
            doc.select(doc.session.ships[0].id)
            area = next((a for a in canvas.painter.areas if a.click and not a.refusal), None)
            if area is not None and canvas.click_at(canvas._centre_of(area)):
                window.act_undo.trigger()
            for dock in window._docks:
                dock.hide()
                qtbot.wait(1)
                dock.show()
                qtbot.wait(1)
            canvas.setFocus()
            fields = [w for kind in (QAbstractSpinBox, QComboBox)
                      for w in window.panel.findChildren(kind) if w.isVisible() and not w.hasFocus()]
            for field in fields:
                _wheel_down(field)
            wheeled += len(fields)
            qtbot.wait(5)
            doc.mark_clean()
        assert wheeled  # the wheel was passed on from a field at least once
    finally:
        qInstallMessageHandler(previous)
    assert heard == []

"""Issue 31: the actions panel fits its dock at 1366 × 768 (no sideways scroll bar), for
every ship of every sample session, in every phase; and keeps its place after a change."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractScrollArea, QScrollArea


def _scroll_areas(panel):
    own = [panel] if isinstance(panel, QScrollArea) else []
    return [s for s in own + panel.findChildren(QAbstractScrollArea) if s.isVisible()]


@pytest.mark.parametrize("game", ["war-in-space", "triplanetary", "fedcom"])
def test_the_actions_panel_needs_no_sideways_scroll_bar_at_1366_by_768(window, qtbot, game,
                                                                        monkeypatch):
    from PySide6.QtWidgets import QDialog
    monkeypatch.setattr(QDialog, "exec", lambda self: 0)  # a question at the turn's end
    window.resize(1366, 768)
    window.show()
    assert window.open_sample(game)
    session = window.doc.session
    seen = set()
    while session.phase not in seen:
        seen.add(session.phase)
        for ship in session.ships:
            window.doc.select(ship.id)
            qtbot.wait(1)
            for area in _scroll_areas(window.panel):
                where = f"{session.phase}, {ship.name}: {type(area).__name__}"
                assert not area.horizontalScrollBar().isVisible(), where
                if isinstance(area, QScrollArea) and area.widget() is not None:
                    assert area.widget().minimumSizeHint().width() <= area.viewport().width(), where
        window.next_phase()
    window.doc.mark_clean()


def test_set_cargo_keeps_the_panels_scroll_position_and_focus(window, qtbot):
    """Issue 31: after Set cargo the actions panel was reported to jump back to the top, so
    the next click landed elsewhere. Scrolled down, Set (a click, then Enter in the field):
    the scroll position and the focused widget stay."""
    from PySide6.QtCore import Qt
    window.resize(1366, 768)
    window.show()
    window.activateWindow()
    assert window.open_sample("triplanetary")
    window.doc.select(window.doc.session.ship("Ajax").id)
    panel = window.panel
    bar = panel.findChild(QScrollArea).verticalScrollBar()
    assert bar.maximum() > 0
    qtbot.wait(100)  # the window laid out as shown
    bar.setValue(bar.maximum())
    panel.cargo_spin.setValue(30)
    qtbot.wait(50)
    before = bar.value()
    qtbot.mouseClick(panel.cargo_set, Qt.MouseButton.LeftButton)
    assert window.doc.session.ship("Ajax").state.get("cargo") == 30
    qtbot.wait(50)  # what the change sets going (layouts, deferred refreshes) has run
    assert bar.value() == before
    panel.cargo_spin.setFocus()
    panel.cargo_spin.setValue(40)
    qtbot.keyClick(panel.cargo_spin, Qt.Key.Key_Return)
    assert window.doc.session.ship("Ajax").state.get("cargo") == 40
    qtbot.wait(50)
    assert bar.value() == before
    assert panel.cargo_spin.hasFocus() or not window.isActiveWindow()
    window.doc.mark_clean()

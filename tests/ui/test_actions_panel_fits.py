"""Issue 31: the actions panel fits its dock at 1366 × 768 (no sideways scroll bar), for
every ship of every sample session, in every phase; and keeps its place after a change.
The same in a window half as wide (a laptop's screen shared with another window): the dock
keeps its panel's width and the sheet beside it gives the room."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractScrollArea, QScrollArea


def _scroll_areas(panel):
    own = [panel] if isinstance(panel, QScrollArea) else []
    return [s for s in own + panel.findChildren(QAbstractScrollArea) if s.isVisible()]


def _cut(panel) -> list[str]:
    """The panel's scroll areas scrolled sideways or narrower than their column."""
    cut = []
    for area in _scroll_areas(panel):
        if area.horizontalScrollBar().isVisible():
            cut.append(f"{type(area).__name__} scrolls sideways")
        if isinstance(area, QScrollArea) and area.widget() is not None \
                and area.widget().minimumSizeHint().width() > area.viewport().width():
            cut.append(f"{type(area).__name__} narrower than its column")
    return cut


@pytest.mark.parametrize("size", [(1366, 768), (1024, 600), (800, 600), (683, 740)], ids=["1366x768", "1024x600", "800x600", "half-screen"])
@pytest.mark.parametrize("game", ["war-in-space", "triplanetary", "fedcom"])
def test_the_actions_panel_needs_no_sideways_scroll_bar(window, qtbot, game, size, monkeypatch):
    from PySide6.QtWidgets import QDialog
    monkeypatch.setattr(QDialog, "exec", lambda self: 0)  # a question at the turn's end
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_sample(game)
    session = window.doc.session
    seen = set()
    while session.phase not in seen:
        seen.add(session.phase)
        for ship in session.ships:
            window.doc.select(ship.id)
            qtbot.wait(1)
            assert _scroll_areas(window.panel), "the panel is on the screen"
            for _ in range(50):  # a narrow dock widens to the new ship's column a moment later
                if not _cut(window.panel):
                    break
                qtbot.wait(20)
            assert not _cut(window.panel), f"{session.phase}, {ship.name}: {_cut(window.panel)}"
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

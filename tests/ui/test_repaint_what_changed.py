"""A change redraws the sheet on screen only when it may have changed that sheet: a change
to another ship (a phone's tap on its own ship, a volley at the enemy) leaves the
referee's sheet as it is. Counted paint calls, no clock."""

from __future__ import annotations

import pytest

from shipsheet.model.actions import NextPhase, SetOption
from shipsheet.model.paths import resources_dir
from shipsheet.rules.fedcom import mark_shield_action
from shipsheet.sheets.base import SheetPainter


@pytest.fixture
def painted(monkeypatch):
    """How many sheets were drawn (every drawing of the window's sheet is a paint)."""
    count = {"paint": 0}
    paint = SheetPainter.paint

    def counting(self, painter, theme, **kwargs):
        count["paint"] += 1
        return paint(self, painter, theme, **kwargs)
    monkeypatch.setattr(SheetPainter, "paint", counting)
    return count


def test_a_change_to_another_ship_does_not_redraw_the_sheet_on_screen(window, painted):
    assert window.open_path(str(resources_dir() / "samples" / "fedcom.shipsheet"))
    doc, canvas = window.doc, window.sheet_view.canvas
    session = doc.session
    resolute, hornet = session.ship("Resolute"), session.ship("Hornet")
    doc.select(resolute.id)
    shown = canvas.painter
    painted["paint"] = 0

    assert doc.do(mark_shield_action(hornet, 1, 3))  # the enemy's shield: not this sheet
    assert painted["paint"] == 0 and canvas.painter is shown
    assert doc.undo() is not None  # its undo neither
    assert painted["paint"] == 0 and canvas.painter is shown

    assert doc.do(mark_shield_action(resolute, 1, 2))  # this sheet's own shield
    assert painted["paint"] >= 1 and canvas.painter is not shown
    assert canvas.painter.ship.state["shield_damage"][0] == 2

    before = painted["paint"]
    assert doc.do(NextPhase())  # the turn and phase are on every sheet
    assert painted["paint"] > before
    before = painted["paint"]
    chart = session.options.get("chart")  # an option: no ship's state, but every sheet
    assert doc.do(SetOption("chart", chart, "Use the same chart again"))
    assert painted["paint"] > before
    doc.mark_clean()

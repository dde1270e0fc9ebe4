"""A click redraws the sheet with a new painter; the one it replaces is freed at once.

When hit areas held the painter's own bound methods (tooltips, menus), that was a
reference cycle: left to the cycle collector, each click's painter (about 3,500 objects on
a 200-box card) piled up until a full collection took 10-80 ms in the middle of a click.
Boxes now hold a key, the ship and the session; this keeps it so."""

from __future__ import annotations

import gc
import weakref

import pytest

from shipsheet.model.paths import resources_dir
from shipsheet.sheets import painter_for


@pytest.mark.parametrize("game", ["fedcom", "war-in-space", "triplanetary"])
def test_a_replaced_painter_is_freed_without_the_cycle_collector(window, game):
    assert window.open_path(str(resources_dir() / "samples" / f"{game}.shipsheet"))
    canvas = window.sheet_view.canvas
    old = weakref.ref(canvas.painter)
    action = next(a for a in canvas.painter.areas if a.click is not None and not a.refusal).click()
    gc.collect()
    gc.disable()
    try:
        assert window.doc.do(action)  # the sheet is redrawn by a new painter
        assert canvas.painter is not old()
        assert old() is None, gc.get_referrers(old())
    finally:
        gc.enable()
    window.doc.mark_clean()


def test_printing_frees_its_painters(qapp):
    from shipsheet.model import load_session
    session = load_session(resources_dir() / "samples" / "fedcom.shipsheet")
    sheet = painter_for(session.ships[0], session)
    sheet.layout()
    assert sheet.areas
    ref = weakref.ref(sheet)
    gc.disable()
    try:
        sheet.release()
        del sheet
        assert ref() is None
    finally:
        gc.enable()

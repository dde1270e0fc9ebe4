"""A click redraws only what it changed on the sheet shown: the boxes (and the title
block, status lines) whose drawing differs, found by comparing the sheet's recorded
drawing calls before and after (``sheets.display``). Counted calls, no clock — and the
picture is the one a whole drawing gives, pixel for pixel."""

from __future__ import annotations

import pytest

from shipsheet.model.paths import resources_dir

GAMES = ("fedcom", "triplanetary", "war-in-space")


def _open(window, game):
    assert window.open_path(str(resources_dir() / "samples" / f"{game}.shipsheet"))
    window.resize(1366, 768)
    window.show()
    return window.doc, window.sheet_view.canvas


def _whole(canvas):
    """The sheet drawn whole, as after opening it."""
    canvas._render()
    return canvas._image.copy()


def _clickable(canvas):
    return [a.key for a in canvas.painter.areas if a.click is not None and not a.refusal]


@pytest.mark.parametrize("game", GAMES)
def test_a_click_redraws_a_few_calls_and_the_picture_is_the_whole_drawings(window, game):
    doc, canvas = _open(window, game)
    keys = _clickable(canvas)[:12]
    assert len(keys) >= 6
    partial = drawn = calls = 0
    for key in keys:
        area = next((a for a in canvas.painter.areas if a.key == key), None)
        if area is None or area.click is None or area.refusal:
            continue  # the last click took this one away (a ladder step, a crippled ship)
        assert canvas.click_area(area)
        repaint = canvas.last_repaint
        if repaint is None:  # the sheet grew or shrank: drawn whole
            continue
        partial += 1
        drawn, calls = drawn + repaint.drawn, calls + repaint.calls
        shown = canvas._image.copy()
        assert repaint.drawn < repaint.calls / 2, (key, repaint)
        assert shown == _whole(canvas), key  # the same pixels as a whole drawing
    assert partial >= 4
    assert drawn < calls / 3, (drawn, calls)  # a note under the tracks may span the sheet
    doc.mark_clean()


def test_the_rectangles_repainted_are_the_box_and_the_status_lines(window):
    """On the FedCom card, destroying one box repaints that box, the summary line (boxes
    destroyed) and little else: far less than the sheet."""
    doc, canvas = _open(window, "fedcom")
    area = next(a for a in canvas.painter.areas if a.key.startswith("box:")
                and a.click is not None and a.menu)
    destroy = next(factory for label, factory in area.menu if label.startswith("Destroy"))
    box = area.rect
    assert doc.do(destroy())
    repaint = canvas.last_repaint
    assert repaint is not None and repaint.rects
    zoom = canvas.zoom
    screen_box = box.adjusted(-1, -1, 1, 1)
    assert any(r.contains(round(screen_box.center().x() * zoom), round(screen_box.center().y() * zoom))
               for r in repaint.rects)
    area_px = sum(r.width() * r.height() for r in repaint.rects)
    sheet_px = canvas.width() * canvas.height()
    assert area_px < sheet_px / 5, (area_px, sheet_px)
    assert canvas._image.copy() == _whole(canvas)
    doc.mark_clean()


def test_undo_and_a_change_that_draws_nothing_new(window):
    """Undo repaints the same rectangles back; a change that draws the same sheet (another
    ship's) redraws nothing."""
    doc, canvas = _open(window, "fedcom")
    before = canvas._image.copy()
    area = next(a for a in canvas.painter.areas if a.key.startswith("shield:"))
    assert canvas.click_area(area)
    assert canvas.last_repaint is not None and 0 < canvas.last_repaint.drawn
    assert canvas._image != before
    assert doc.undo() is not None
    assert canvas.last_repaint is not None and canvas.last_repaint.drawn > 0
    assert canvas._image == before
    doc.mark_clean()


@pytest.mark.parametrize("game", GAMES)
def test_in_dark_paper_a_click_gives_the_whole_drawings_pixels(window, game):
    from shipsheet.ui.palette import dark_palette
    window.setPalette(dark_palette())
    doc, canvas = _open(window, game)
    assert canvas._image.pixelColor(2, 2).lightness() < 80  # dark paper
    for key in _clickable(canvas)[:6]:
        area = next((a for a in canvas.painter.areas if a.key == key), None)
        if area is None or area.click is None or area.refusal:
            continue
        assert canvas.click_area(area)
        if canvas.last_repaint is not None:
            assert canvas._image.copy() == _whole(canvas), key
    doc.mark_clean()


def test_at_pixel_ratio_two_the_same_holds():
    """The tests above on a screen of pixel ratio 2 (a Retina or 200 % display), in a Qt of
    its own (the ratio is chosen when Qt starts). A piece cut at its edge once differed
    there by a pixel at this ratio only."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    env = dict(os.environ, QT_SCALE_FACTOR="2", QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-o", "addopts=", __file__, "-k", "not ratio_two"],
                          cwd=Path(__file__).parents[2], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "9 passed" in done.stdout and "skipped" not in done.stdout


def test_on_the_biggest_card_a_click_draws_one_line_of_boxes_afresh(window, monkeypatch):
    """The card limit's five hundred boxes: a click's recording repeats every other line
    of boxes in one go; only the line holding the box clicked runs box by box. (Drawing
    every box's helper again at each click was most of a click's time.)"""
    from ship_variants import CARD_BOXES, biggest_fedcom_card

    from shipsheet.model import Session, new_ship
    from shipsheet.sheets.fedcom import FedComSheet

    session = Session("fedcom", name="Biggest")
    session.add_ship(new_ship(biggest_fedcom_card(), "Colossus"))
    window.open_session(session)
    window.resize(1366, 768)
    window.show()
    canvas = window.sheet_view.canvas
    boxes = [a for a in canvas.painter.areas if a.key.startswith("box:cargo-x")]
    line = [a for a in boxes if a.rect.top() == boxes[100].rect.top()]
    runs = []
    helper = FedComSheet.pen_box
    monkeypatch.setattr(FedComSheet, "pen_box",
                        lambda self, *args, **kwargs: (runs.append(1), helper(self, *args, **kwargs)))
    before = canvas._image.copy()
    assert canvas.click_area(boxes[100])
    assert canvas.last_repaint is not None and canvas._image != before
    # The line's boxes, and the few boxes not in rows (weapons, frame, legend): not 500.
    assert len(line) <= len(runs) < CARD_BOXES // 5, (len(runs), len(line))
    assert canvas._image == _whole(canvas)
    window.doc.mark_clean()

"""Run by test_scaling.py in a process of its own (the scale factor is fixed at start-up).

For each game's sample: the sheet is painted at the device pixel ratio, and a
click at the centre of each of the first clickable boxes (in logical pixels,
as the mouse reports them) hits that very box: exactly one undo step, named
like the box's action.
"""

import sys

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from shipsheet.model.autosave import AutosaveStore
from shipsheet.ui.app import Application, make_qapp

qapp = make_qapp()
ratio = float(sys.argv[1])
application = Application(qapp, AutosaveStore(sys.argv[2]))
window = application.new_window()
window.resize(1400, 1000)
problems = []
for game in ("war-in-space", "triplanetary", "fedcom"):
    window.open_sample(game)
    canvas = window.sheet_view.canvas
    qapp.processEvents()
    image = canvas.grab()
    if abs(image.devicePixelRatio() - ratio) > 0.01:
        problems.append(f"{game}: grab has ratio {image.devicePixelRatio()}, expected {ratio}")
    expected = round(canvas.width() * ratio)
    if abs(image.width() - expected) > 1:
        problems.append(f"{game}: sheet is {image.width()} device pixels wide, expected {expected}")
    areas = [a for a in canvas.painter.areas if a.click is not None and not a.refusal][:6]
    if not areas:
        problems.append(f"{game}: no clickable box")
    for area in areas:
        key = area.key
        expected_name = area.click().name
        before = window.doc.session.undo_status().steps
        centre = area.rect.center()
        QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(round(centre.x() * canvas.zoom), round(centre.y() * canvas.zoom)))
        after = window.doc.session.undo_status().steps
        if after != before + 1 or window.doc.session.undo_status().undo != expected_name:
            problems.append(f"{game}: click on {key} gave {after - before} steps "
                            f"({window.doc.session.undo_status().undo!r}, expected {expected_name!r})")
        window.doc.undo()
        canvas.refresh()
    window.doc.mark_clean()
print("OK" if not problems else "\n".join(problems), flush=True)

"""Run by test_bundled_font.py in a process of its own (fontconfig reads its configuration
once, at start-up): the layout step of every sample ship's sheet, on the paper and on the
phone, and some text widths, as JSON on stdout. The test runs it with the system's fonts
as they are, with none, and with a different "DejaVu Sans", and compares."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtGui import QFontInfo, QFontMetricsF, QGuiApplication  # noqa: E402

from shipsheet.model.games import GAME_IDS, piece  # noqa: E402
from shipsheet.sheets import PHONE, painter_for  # noqa: E402
from shipsheet.sheets.base import measure_device, sheet_font  # noqa: E402

app = QGuiApplication([sys.argv[0]])
WORDS = ("Damage Control", "Phaser-1 Phaser-3 ♠♥♦♣", "Turn 3 · Impulse", "4♦ 5♠ 6♥ 7♣")

out = {"sheets": {}, "widths": {}}
for game in GAME_IDS:
    session = piece(game, "sample")()
    for index, ship in enumerate(session.ships):
        for name, layout in (("paper", None), ("phone", PHONE)):
            sheet = painter_for(ship, session) if layout is None else painter_for(ship, session, layout=layout)
            areas = sheet.layout()
            rects = [[a.key, round(a.rect.x(), 3), round(a.rect.y(), 3),
                      round(a.rect.width(), 3), round(a.rect.height(), 3)] for a in areas]
            size = sheet.size()
            out["sheets"][f"{game}/{index} {ship.name}/{name}"] = {
                "size": [round(size.width(), 3), round(size.height(), 3)], "boxes": rects}
device = measure_device()


class _Measure:
    """The painter the advance helper is handed: only its device is read."""

    def device(self):
        return device


pen = _Measure()
any_sheet = painter_for(piece(GAME_IDS[0], "sample")().ships[0])
for words in WORDS:
    for size in (7.5, 9, 12):
        for bold in (False, True):
            out["widths"][f"{words}|{size}|{bold}"] = round(any_sheet.advance(pen, words, size, bold), 4)
font = sheet_font(9)
out["family"] = QFontInfo(font).family()
out["suits"] = all(QFontMetricsF(font).inFontUcs4(ord(ch)) for ch in "♠♥♦♣")
print(json.dumps(out, ensure_ascii=False))

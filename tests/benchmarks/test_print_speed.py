"""Printing a night's sheets: 50 ships to PDF in under 10 s, time per page flat."""

from __future__ import annotations

import time

from shipsheet.model import Session, list_classes, new_ship
from shipsheet.printing import PrintJob, export_pdf


def session_of(game: str, count: int) -> Session:
    session = Session(game, name=f"{count} ships")
    classes = list_classes(game)
    for i in range(count):
        session.ships.append(new_ship(classes[i % len(classes)], f"Ship {i + 1}"))
    return session


def test_fifty_ship_export(report, qapp, tmp_path):
    for game in ("war-in-space", "triplanetary", "fedcom"):
        warm = session_of(game, 2)
        export_pdf(PrintJob(warm, warm.ships), tmp_path / "warm.pdf")
    per_page = {}
    total = {}
    for count in (10, 50):
        ships = []
        for game in ("war-in-space", "triplanetary", "fedcom"):
            s = session_of(game, count // 3 + 1)
            ships += [(s, ship) for ship in s.ships]
        ships = ships[:count]
        start = time.perf_counter()
        pages = 0
        # One file per game's ships (a session holds one game), timed together.
        for game in ("war-in-space", "triplanetary", "fedcom"):
            mine = [ship for s, ship in ships if ship.game == game]
            if mine:
                s = next(s for s, ship in ships if ship.game == game)
                pages += export_pdf(PrintJob(s, mine), tmp_path / f"{game}-{count}.pdf")
        total[count] = time.perf_counter() - start
        per_page[count] = total[count] / pages
    flat = per_page[50] <= per_page[10] * 1.5
    report.add("PDF export of 50 ships", f"{total[50]:.2f} s", "< 10 s", total[50] < 10)
    report.add("Time per page, 10 vs 50 ships", f"{per_page[10] * 1000:.0f} ms vs {per_page[50] * 1000:.0f} ms",
               "flat (50-ship page <= 1.5x 10-ship page)", flat)
    assert total[50] < 10 and flat

"""Regenerate resources/samples/<game>.shipsheet from each game's sample builder.

Run: .venv/bin/python packaging/make_samples.py
Each game's ``sample`` piece (``model.games.GAMES``) builds its session only through
actions, with a fixed seed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shipsheet.model import GAME_IDS, save_session  # noqa: E402
from shipsheet.model.games import piece  # noqa: E402



def main() -> None:
    out = ROOT / "resources" / "samples"
    out.mkdir(parents=True, exist_ok=True)
    for game in GAME_IDS:
        session = piece(game, "sample")()
        session.uid = f"sample-{game}"  # stable, so regenerating changes only what changed
        # Stable ship ids (from the names), so regenerating changes only what changed.
        ids = {}
        for n, ship in enumerate(session.ships, 1):
            ids[ship.id] = f"{game}-{n}"
            ship.id = ids[ship.id]
        for entry in session.log:
            entry.time = "2026-01-01T12:00:00+00:00"
            entry.ship = ids.get(entry.ship, entry.ship)
        path = out / f"{game}.shipsheet"
        save_session(session, path)
        print(f"{path.relative_to(ROOT)}: {len(session.ships)} ships, turn {session.turn}, {session.phase}")


if __name__ == "__main__":
    main()

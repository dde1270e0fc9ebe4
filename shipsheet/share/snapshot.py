"""What the server may read of the session: a copy taken on the authority's thread.

The referee's session lives on the UI thread (or the headless host's main thread) and
changes there. After every change the host takes a :class:`Snapshot` — a throwaway copy
of the session (``model.trial``: same turn, phase, options, ships and dice position, with
its own dice), the turn's start marks, the log's tail and each ship's revision — and
hands it to the server's thread, which draws and answers from it alone. Only the ships
whose revision moved are copied again; the others are the previous snapshot's copies. Nothing the
server thread does touches the live session.
"""

from __future__ import annotations

from dataclasses import field
from ..model.code_cache import dataclass
from typing import TYPE_CHECKING

from ..model.games import GAME_TITLES
from ..model.trial import trial_session

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Session

#: Log entries a snapshot keeps (a seat is sent at most 200 of its own).
LOG_TAIL = 2000


@dataclass
class Snapshot:
    """The session as the server may show it. ``revs``: ship id -> revision."""

    epoch: str
    seq: int
    session: "Session"  # a copy, never the live session
    revs: dict[str, int]
    log: list  # the log's last entries (the entries themselves: read, never changed here)
    undo_name: str | None
    undo_step: int = 0  # the step Undo would take back (``UndoStatus.step``; 0: none)
    #: ship id -> ship, made when first asked (every request names a ship).
    _ships: dict | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def turn(self) -> int:
        return self.session.turn

    @property
    def phase(self) -> str:
        return self.session.phase

    def ship(self, ship_id: str):
        ships = self._ships
        if ships is None:  # the first of the ids wins, as a scan of the list finds it
            ships = {}
            for s in self.session.ships:
                ships.setdefault(s.id, s)
            self._ships = ships
        return ships.get(ship_id)

    def session_json(self) -> dict:
        s = self.session
        return {"title": s.title, "game": s.game, "game_title": GAME_TITLES.get(s.game, s.game),
                "turn": s.turn, "phase": s.phase, "phases": list(s.rules.phases)}


def take(session: "Session", epoch: str, seq: int, revs: dict[str, int],
         undo_name: str | None = None, undo_step: int = 0,
         previous: Snapshot | None = None) -> Snapshot:
    """Copy what the server needs of ``session`` (on the thread that owns it). The ships
    whose revision has not moved since ``previous`` keep their copies from it (a copy is
    never changed: the server only reads), so a change copies the ships it touched."""
    kept = {}
    if previous is not None and previous.epoch == epoch:
        kept = {s.id: s for s in previous.session.ships
                if s.id in revs and previous.revs.get(s.id) == revs[s.id]}
    copy = trial_session(session, kept)  # its ships keep their ids and sides (trial_ship)
    copy.uid = session.uid
    copy.turn_start = session.turn_start  # replaced, never changed in place
    return Snapshot(epoch, seq, copy, dict(revs), session.log[-LOG_TAIL:], undo_name,
                    undo_step)

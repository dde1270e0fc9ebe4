"""Sheet painters, one per game (the ``sheet`` piece of its entry in ``model.games.GAMES``);
shared by the window and the printer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.games import piece
from .base import PAPER, PHONE, HitArea, SheetLayout, SheetPainter, Theme

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Session, Ship


def painter_class(game: str) -> type[SheetPainter]:
    """The painter class of a game's sheet (an unknown game, or one without a sheet, is an
    error: never a silent placeholder)."""
    return piece(game, "sheet")


def painter_for(ship: "Ship", session: "Session | None" = None, *,
                turn_marks: bool = False, layout: SheetLayout = PAPER) -> SheetPainter:
    """A painter for one ship's sheet. ``turn_marks``: draw the marks made this turn apart
    from earlier ones (a slash, and an X for the earlier). ``layout``: the paper's (the
    window, the printer) or :data:`~shipsheet.sheets.base.PHONE` (Table Link's phones)."""
    cls = painter_class(ship.game)
    painter = cls(ship, session) if layout is PAPER else cls(ship, session, layout=layout)
    painter.turn_marks = turn_marks
    return painter


__all__ = ["HitArea", "PAPER", "PHONE", "SheetLayout", "SheetPainter", "Theme", "painter_class",
           "painter_for"]

"""Sheet painters, one per game; shared by the window, the printer and the phones.

The sheets' registry (``SHEETS``, a ``model.games.Layer``): each game registers its
painter's module here, one line each; the module's ``SHEET`` is its ``sheet`` piece (a
``SheetPainter`` subclass). Registering imports nothing: a game's painter loads when its
first sheet is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.games import Layer, piece
from .base import PAPER, PHONE, HitArea, SheetLayout, SheetPainter, Theme

#: Each game's painter, by game id.
SHEETS = Layer("sheets", ("sheet",), "shipsheet/sheets/__init__.py", {"sheet": ":SHEET"})
SHEETS.register("war-in-space", "shipsheet.sheets.war_in_space")
SHEETS.register("triplanetary", "shipsheet.sheets.triplanetary")
SHEETS.register("fedcom", "shipsheet.sheets.fedcom")

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


__all__ = ["HitArea", "PAPER", "PHONE", "SHEETS", "SheetLayout", "SheetPainter", "Theme",
           "painter_class", "painter_for"]

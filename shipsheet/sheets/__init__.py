"""Sheet painters, one per game; shared by the window and the printer."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .base import HitArea, SheetPainter, Theme
from .placeholder import PlaceholderSheet

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Session, Ship

_MODULES = {
    "war-in-space": "shipsheet.sheets.war_in_space",
    "triplanetary": "shipsheet.sheets.triplanetary",
    "fedcom": "shipsheet.sheets.fedcom",
}


def painter_class(game: str) -> type[SheetPainter]:
    """The painter class of a game's sheet, or the placeholder when it has none yet."""
    module = _MODULES.get(game)
    if module is None:
        return PlaceholderSheet
    try:
        return importlib.import_module(module).SHEET
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return PlaceholderSheet
        raise


def painter_for(ship: "Ship", session: "Session | None" = None) -> SheetPainter:
    """A painter for one ship's sheet."""
    return painter_class(ship.game)(ship, session)


__all__ = ["HitArea", "PlaceholderSheet", "SheetPainter", "Theme", "painter_class", "painter_for"]

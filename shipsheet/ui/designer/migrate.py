"""Deprecated: moved to :mod:`shipsheet.model.update` (and each game's ``carry_over``).

Kept for one release so scripts that followed the README keep working; importing a name
from here warns (``DeprecationWarning``) and names its new home.
"""

from __future__ import annotations

import warnings

_MOVED = ("ShipUpdate", "UpdateShipsAction", "carry_over", "ships_of_class", "update_ships_action")


def __getattr__(name: str):
    if name in _MOVED:
        warnings.warn(f"shipsheet.ui.designer.migrate.{name} has moved to "
                      f"shipsheet.model.update.{name}", DeprecationWarning, stacklevel=2)
        from ...model import update
        return getattr(update, name)
    raise AttributeError(name)

"""ShipSheet: ship sheets for War In Space, Triplanetary and Federation Commander.

The package root wires the games in: importing any part of ShipSheet registers the games'
rules (``shipsheet/rules/__init__.py``, lazily: nothing of a game loads until a piece of
it is asked for), so ``Session("fedcom")`` works in any script.
"""

from .version import __version__
from . import rules  # noqa: F401  (the games, registered)

__all__ = ["__version__"]

"""Python's cycle collector around start-up.

Start-up makes tens of thousands of objects that live as long as the app (modules,
classes, Qt's enums) and no garbage cycles. The collector is paused while they are made
(``pause``, by the command line) — it would scan them again and again, about 15 ms of
start-up — and once the window is up they are frozen out of its reach (``resume``:
``gc.freeze``), which also spares the scan of all of them at exit (about 30 ms).

The first session and the first window are made during start-up too, so they are frozen
with the rest; a frozen cycle is never collected. When one of them is dropped (the
session replaced or closed, a window closed while others stay) ``thaw`` hands everything
back to the collector, so nothing is kept for good.
"""

from __future__ import annotations

import gc

_frozen = False


def pause() -> None:
    gc.disable()


def resume() -> None:
    """Freeze what start-up made and collect what comes after."""
    global _frozen
    gc.freeze()
    gc.enable()
    _frozen = True


def thaw() -> None:
    """Something made at start-up is being dropped: let the collector see it again."""
    global _frozen
    if _frozen:
        gc.unfreeze()
        _frozen = False

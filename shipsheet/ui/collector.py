"""Python's cycle collector: paused during start-up, long-lived objects kept out of its reach.

Start-up makes tens of thousands of objects that live as long as the app (modules,
classes, Qt's enums) and no garbage cycles. The collector is paused while they are made
(``pause``, by the command line) — it would scan them again and again, about 15 ms of
start-up — and once the window is up they are frozen out of its reach (``resume``:
``gc.freeze``), which also spares the scan of all of them at exit (about 30 ms).

Frozen, they also keep every later *full* collection short: a full collection scans
everything not frozen, and over the whole heap of a running app it took 20-50 ms, in the
middle of a click (``make bench``: click to repaint, 95th percentile).

The first session and window are made during start-up too, so they are frozen with the
rest; a frozen cycle is never collected. When one of them is dropped (the session
replaced or closed, a window closed while others stay) ``thaw`` hands everything back to
the collector, and a moment later (once Qt has deleted the dropped widgets)
``refreeze`` collects what was dropped and freezes what is left, so the heap the
collector scans stays small all session long.
"""

from __future__ import annotations

import gc

#: How long after a drop the heap is collected and frozen again (ms).
REFREEZE_DELAY_MS = 700

_frozen = False
_started = False  # resume() has run: the app manages the collector from now on
_timer = None


def pause() -> None:
    gc.disable()


def resume() -> None:
    """Freeze what start-up made and collect what comes after."""
    global _frozen, _started
    gc.freeze()
    gc.enable()
    _frozen = _started = True


def thaw() -> None:
    """Something that may be frozen is being dropped: let the collector see it again,
    and freeze what is left once it is gone (``refreeze``)."""
    global _frozen
    if _frozen:
        gc.unfreeze()
        _frozen = False
    if _started:
        _schedule_refreeze()


def refreeze() -> None:
    """Collect the garbage, then freeze what is alive (one full collection, once).
    Everything is handed back first: a shared table sets its heap aside after each
    drawing (``share/heap.py``), which may have set aside what was dropped meanwhile."""
    global _frozen
    if not _started or not gc.isenabled():  # start-up is still running: resume() will freeze
        return
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _frozen = True


def _schedule_refreeze() -> None:
    global _timer
    from PySide6.QtCore import QTimer
    if _timer is None:
        _timer = QTimer()
        _timer.setSingleShot(True)
        _timer.setInterval(REFREEZE_DELAY_MS)
        _timer.timeout.connect(refreeze)
    _timer.start()


def reset() -> None:
    """Back to before start-up: nothing frozen, nothing scheduled (tests that start the app)."""
    global _frozen, _started
    if _timer is not None:
        _timer.stop()
    gc.unfreeze()
    gc.enable()
    _frozen = _started = False

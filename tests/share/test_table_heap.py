"""The cycle collector while a table is served (``share/heap.py``): each drawing sets the
heap aside, so a collector's pass never walks the whole process in the middle of a busy
table; once the table is quiet the garbage cycles set aside meanwhile are freed. Counted,
no clock: what is set aside, and whether a dropped cycle is freed."""

from __future__ import annotations

import gc
import weakref

from shipsheet.model.actions import SetSide
from shipsheet.share import heap
from shipsheet.share.seats import PLAYER
from shipsheet.ui import collector

from .phone import Phone, sample, share, wait


class _Cycle:
    """Garbage only the cycle collector can free (it refers to itself)."""

    def __init__(self):
        self.me = self


def _dropped_cycle(held: list) -> weakref.ref:
    """A cycle held in ``held`` (to be dropped once it has been set aside)."""
    held.append(_Cycle())
    return weakref.ref(held[-1])


def test_a_busy_table_sets_its_heap_aside_and_frees_its_cycles_when_quiet(qtbot, monkeypatch):
    monkeypatch.setattr(heap, "QUIET_MS", 100)
    session = sample("fedcom")
    gc.unfreeze()
    link, (blue,) = share(session, seats=[("Blue", PLAYER, ("Blue",), ())])
    try:
        phone = Phone(link.url(blue))
        assert wait(qtbot, phone.pair)[0] == 200
        held: list = []
        cycle = _dropped_cycle(held)
        _, state, _ = wait(qtbot, phone.state)  # the sheets are drawn for it
        assert gc.get_freeze_count() > 0  # what the process held is set aside
        held.clear()  # dropped, set aside: garbage only a settling can free
        gc.collect()
        assert cycle() is not None  # set aside: no pass walks it, not even a full one
        session.apply(SetSide(session.ship("Swift"), "Blue"))  # the table changes, then rests
        qtbot.waitUntil(lambda: cycle() is None, timeout=5000)  # settled: freed
    finally:
        link.stop()
        gc.unfreeze()


def test_a_table_stopped_hands_back_what_it_set_aside(qtbot):
    session = sample("fedcom")
    gc.unfreeze()
    link, (blue,) = share(session, seats=[("Blue", PLAYER, ("Blue",), ())])
    phone = Phone(link.url(blue))
    assert wait(qtbot, phone.pair)[0] == 200
    held: list = []
    cycle = _dropped_cycle(held)
    wait(qtbot, phone.state)
    held.clear()
    gc.collect()
    assert cycle() is not None
    link.stop()
    assert cycle() is None
    gc.unfreeze()


def test_the_windows_refreeze_frees_what_a_table_set_aside(monkeypatch):
    """A session dropped while a table froze the heap (after the window's thaw, before its
    refreeze) is still freed by the refreeze."""
    monkeypatch.setattr(collector, "_started", True)
    held: list = []
    cycle = _dropped_cycle(held)
    gc.freeze()  # as a drawing for a phone does
    held.clear()
    collector.refreeze()
    try:
        assert cycle() is None
    finally:
        gc.unfreeze()


def test_while_a_table_is_served_threads_take_turns_every_millisecond():
    """A thread waiting for the interpreter (the window's, a phone's answer) waits at most
    1 ms while a table is served, not Python's 5 ms (``share/switching.py``); two tables at
    once keep it so until both stop, and then it is as it was."""
    import sys

    from shipsheet.share import switching

    before = sys.getswitchinterval()
    assert before > switching.TABLE_INTERVAL
    session = sample("fedcom")
    first, _ = share(session, seats=[("Blue", PLAYER, ("Blue",), ())])
    second, _ = share(sample("fedcom"), seats=[("Red", PLAYER, ("Red",), ())])
    try:
        assert sys.getswitchinterval() == switching.TABLE_INTERVAL
        first.stop()
        assert sys.getswitchinterval() == switching.TABLE_INTERVAL  # the other still serves
    finally:
        first.stop()
        second.stop()
    assert sys.getswitchinterval() == before

"""A thread that serves in the background lets the window's thread have the processor first
(``portable.lower_this_thread``), and the Table Link's threads do so behind a window only.

Why: on a busy machine (two cores, phones tapping, the table drawing their sheets) each
phone's answer, handed from the window's thread to the table's loop, woke a thread that
then took the core from the window's for milliseconds: 12 phones' requests held the window
p95 3.5-4.7 ms (``tests/share/table_gaps.py``); with the table's threads lowered, 1.2-2.3.
The timing is ``make bench``'s; these tests check the calls and what the system keeps."""

from __future__ import annotations

import ctypes
import os
import sys
import threading

import pytest

from shipsheet.model import portable
from shipsheet.share.authority import QtAuthority
from shipsheet.share.link import TableLink
from shipsheet.share.seats import PLAYER, SeatBook

from platforms import CURRENT_THREAD, PLATFORMS, as_platform
from sessions import three_ship_session

#: This machine's system, as it is (``as_platform`` switches ``portable``'s flags): Linux
#: keeps a nice value per thread, which the tests read back.
LINUX = sys.platform.startswith("linux")


def _on_a_thread(fn):
    """``fn()`` on a new thread: its answer, the thread's native id and (Linux) its nice
    value afterwards."""
    out = {}

    def run():
        out["answer"] = fn()
        out["id"] = threading.get_native_id()
        out["nice"] = _nice(out["id"]) if LINUX else None
    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)
    return out


def _nice(native_id: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, native_id)


def test_a_thread_lowered_runs_nicer_than_the_window_thread_which_is_left_alone():
    main_before = _nice(threading.get_native_id()) if LINUX else None
    out = _on_a_thread(lambda: (portable.lower_this_thread(), portable.lower_this_thread()))
    # Linux, Windows and macOS each have a call for it: it is made, and said to be.
    assert out["answer"] == (True, True)
    if LINUX:  # Linux keeps a nice value per thread, which the test can read
        process = _nice(os.getpid())
        assert out["nice"] == min(19, process + portable.NICER)  # twice: no further
        assert _nice(threading.get_native_id()) == main_before


@pytest.mark.parametrize("name", PLATFORMS)
def test_as_windows_and_macos_the_thread_is_lowered_by_their_own_calls(monkeypatch, name):
    before = _nice(threading.get_native_id()) if LINUX else None
    with as_platform(monkeypatch, name) as fake:
        out = _on_a_thread(portable.lower_this_thread)
    assert out["answer"] is True
    if name == "win32":  # THREAD_PRIORITY_BELOW_NORMAL, on the calling thread
        assert fake.thread_calls == [("GetCurrentThread",), ("SetThreadPriority", CURRENT_THREAD, -1)]
        # A thread's HANDLE is pointer-sized: as ctypes' default int, 64-bit Windows would
        # be handed a handle cut in half, and refuse it.
        kernel32 = portable._library("kernel32")
        assert kernel32.GetCurrentThread.restype is ctypes.c_void_p
        assert kernel32.SetThreadPriority.argtypes == (ctypes.c_void_p, ctypes.c_int)
    else:  # QOS_CLASS_UTILITY, relative priority 0
        assert fake.thread_calls == [("pthread_set_qos_class_self_np", 0x11, 0)]
    if LINUX:  # and not Linux's nice value as well
        assert out["nice"] == before


def test_a_system_that_refuses_leaves_the_thread_as_it_was(monkeypatch):
    with as_platform(monkeypatch, "darwin"):
        monkeypatch.setattr(portable, "_library", lambda name: (_ for _ in ()).throw(OSError(name)))
        assert _on_a_thread(portable.lower_this_thread)["answer"] is False


def _table_threads(behind_window: bool, monkeypatch) -> dict[str, bool]:
    """Start a table (``behind_window`` or not), start its render thread, and tell for
    each of the server's threads whether it lowered itself (on Linux also whether the
    system kept it nicer than the process)."""
    session = three_ship_session()
    book = SeatBook(session.uid)
    book.add("Alice", PLAYER, ships=(session.ships[0].id,))
    link = TableLink(session, book, QtAuthority(), session.apply, session.undo,
                     behind_window=behind_window)
    lowered: dict[str, bool] = {}
    real = portable.lower_this_thread

    def noting():
        answer = real()
        name = threading.current_thread().name.split("_")[0]
        lowered[name] = answer
        if LINUX:  # what Linux kept for the thread
            lowered[name + " nicer"] = _nice(threading.get_native_id()) > _nice(os.getpid())
        return answer
    monkeypatch.setattr(portable, "lower_this_thread", noting)
    try:
        link.start(["127.0.0.1"], 0)
        link.server._renderer.submit(lambda: None).result(10)  # the render thread starts
    finally:
        link.stop()
    return lowered


def test_behind_a_window_the_tables_loop_and_render_thread_are_lowered(monkeypatch, qapp):
    expected = {"table-link": True, "table-render": True}
    if LINUX:
        expected.update({"table-link nicer": True, "table-render nicer": True})
    assert _table_threads(True, monkeypatch) == expected


def test_serve_without_a_window_leaves_the_tables_threads_as_they_are(monkeypatch, qapp):
    assert _table_threads(False, monkeypatch) == {}


def test_the_windows_table_link_is_behind_its_window(qapp, tmp_path):
    from shipsheet.ui.document import SessionDocument
    from shipsheet.ui.table_share import make_link
    doc = SessionDocument(three_ship_session())
    assert make_link(doc).behind_window is True

"""Saves that leave nothing behind (issue 30).

A save killed in the middle leaves its temporary file (``.NAME.<random>.saving.tmp``). The
next save in that folder, or the next start (the file opened, the autosave folder), removes
every one whose writer is gone — told by the OS lock the writer holds on it, not by the
clock — and never one a live process is writing. Before, only a later save of the same
file removed them, and only once a minute old: 250 kills had left 49 hidden files, 31 MB.

And a save never quietly changes what a file is: one with other hard links, or another
user's, is refused with words saying why, not replaced by a new file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shipsheet.model import load_session, save_session
from shipsheet.model.autosave import AutosaveStore
from shipsheet.model.filelock import SessionLock
from shipsheet.model.storage import TEMP_SUFFIX, WouldBreakFile, write_atomic

from sessions import three_ship_session

ROOT = Path(__file__).resolve().parents[2]
#: Saves ``argv[1]`` and stops for good just before the data is made durable: a save in the
#: middle, its temporary file written and held, until the test kills it.
STALLED_WRITER = r"""
import sys, time
from shipsheet.model import storage
def stall(fd):
    print("writing", flush=True)
    time.sleep(120)
storage.full_fsync = stall
storage.write_atomic(sys.argv[1], b"x" * 200_000)
"""


def _writers(paths: list[Path]) -> list[subprocess.Popen]:
    procs = [subprocess.Popen([sys.executable, "-c", STALLED_WRITER, str(p)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for p in paths]
    for proc in procs:
        line = proc.stdout.readline()
        assert line.strip() == "writing", proc.stderr.read()
    return procs


def _kill(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        proc.kill()  # as a crash, or a power cut, ends it: nothing cleaned up
    for proc in procs:
        proc.communicate(timeout=30)


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_the_next_save_in_the_folder_removes_what_killed_saves_left_and_not_a_live_one(tmp_path):
    paths = [tmp_path / f"game-{i}.shipsheet" for i in range(8)] + [tmp_path / "night.shipsheet"] * 4
    dead = _writers(paths)
    live = []
    try:
        _kill(dead)
        assert len(_temps(tmp_path)) == 12  # what the kills left, 200 KB each
        live = _writers([tmp_path / "live.shipsheet"])
        save_session(three_ship_session(), tmp_path / "other.shipsheet")  # one save, another file
        [left] = _temps(tmp_path)  # the live writer's, whose save is in progress
        assert left.startswith(".live.shipsheet.") and left.endswith(TEMP_SUFFIX)
        save_session(three_ship_session(), tmp_path / "other.shipsheet")
        assert _temps(tmp_path) == [left]  # never removed while its writer lives
    finally:
        _kill(live)
    # The next start: the file opened (its lock taken) clears the folder.
    lock = SessionLock.acquire(tmp_path / "other.shipsheet")
    assert isinstance(lock, SessionLock)
    lock.release()
    assert _temps(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.shipsheet"]


def test_the_autosave_folder_is_cleared_at_the_next_start(tmp_path):
    store = AutosaveStore(tmp_path / "auto")
    store.folder.mkdir()
    dead = _writers([store.folder / "0123456789abcdef.0.shipsheet"] * 3)
    _kill(dead)
    assert len(_temps(store.folder)) == 3
    assert store.recoverable() == []  # what a start asks first
    assert _temps(store.folder) == []


def test_a_temporary_file_of_this_process_being_written_stays(tmp_path):
    """Another save in the same process (another thread) is a live writer too."""
    from shipsheet.model import storage
    seen = []
    real = storage.full_fsync

    def during(fd):
        storage.full_fsync = real  # the inner save's own fsync is the real one
        seen.append(_temps(tmp_path))
        write_atomic(tmp_path / "b.json", b"{}")  # its clean-up runs while a.json is written
        seen.append(_temps(tmp_path))
        real(fd)
    storage.full_fsync = during
    try:
        write_atomic(tmp_path / "a.json", b"{}")
    finally:
        storage.full_fsync = real
    assert len(seen[0]) == 1 and seen[1] == seen[0]
    assert _temps(tmp_path) == []


def test_a_file_with_other_hard_links_is_not_replaced(tmp_path):
    path = tmp_path / "night.shipsheet"
    save_session(three_ship_session(), path)
    os.link(path, tmp_path / "backup.shipsheet")
    before = path.read_bytes()
    session = three_ship_session()
    session.turn = 5
    with pytest.raises(WouldBreakFile, match="has 1 other hard link: saving replaces the file"):
        save_session(session, path)
    assert path.read_bytes() == before == (tmp_path / "backup.shipsheet").read_bytes()
    assert os.stat(path).st_nlink == 2 and _temps(tmp_path) == []
    os.unlink(tmp_path / "backup.shipsheet")  # as the message says: then it saves
    save_session(session, path)
    assert load_session(path).turn == 5


def test_another_users_file_is_not_replaced(tmp_path, monkeypatch):
    """POSIX only: a file has an owner id to compare with the user's; on Windows a file's
    access list is its folder's (portable.owned_by_someone_else says False there)."""
    path = tmp_path / "night.shipsheet"
    save_session(three_ship_session(), path)
    before = path.read_bytes()
    if os.name == "posix":  # the file is ours; the user is made another one
        monkeypatch.setattr(os, "geteuid", lambda: os.stat(path).st_uid + 1)
        with pytest.raises(WouldBreakFile, match="belongs to another user"):
            save_session(three_ship_session(), path)
        assert path.read_bytes() == before
        monkeypatch.undo()
    save_session(three_ship_session(), path)  # the user's own file saves

"""Start-up arms the plain-text guard late, and still no label ever paints a file's markup.

Why late: a Python event filter on the whole application makes PySide find a Python class
for every object any event reaches; for Qt's private objects made while the window is built
and laid out (a scroll area's gesture manager, the main window's animation timer) that makes
a class for every Qt class there is, 25-30 ms before the first paint. So ``run_app`` arms
the guard as the window first paints (``plaintext.install_when_painted``), converting the
labels made before it. These tests watch every label of a hostile session's window as it
paints, and a question asked over the window before it paints; a third run, with the guard
never armed, shows the watch finds what it looks for.

Each runs in a fresh process (``startup_guard_worker.py``): the guard is installed once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_plain_text import HOSTILE, hostile_session

WORKER = Path(__file__).with_name("startup_guard_worker.py")


def _run(tmp_path, *args) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
               SHIPSHEET_STATE_DIR=str(tmp_path / "state"),
               SHIPSHEET_CONFIG_DIR=str(tmp_path / "config"),
               SHIPSHEET_DATA_DIR=str(tmp_path / "data"))
    out = subprocess.run([sys.executable, str(WORKER), *map(str, args)], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _hostile_labels(result: dict) -> list[dict]:
    return [label for label in result["painted"] if "HOSTILE" in label["text"]]


def test_no_label_of_a_hostile_session_paints_as_markup_at_start_up(tmp_path):
    result = _run(tmp_path, "window", hostile_session("fedcom", tmp_path))
    assert result["code"] == 0 and result["guard"] is True
    hostile = _hostile_labels(result)
    assert hostile, "the window painted no label with the session's text"
    assert all(label["plain"] for label in hostile), hostile
    assert all(label["plain"] or label["rich"] for label in result["painted"]), result["painted"]


def test_the_watch_finds_markup_labels_when_the_guard_is_never_armed(tmp_path):
    """The check above can fail: without the guard, a label holding the session's name
    paints as Qt's automatic (markup-guessing) text."""
    result = _run(tmp_path, "unguarded", hostile_session("fedcom", tmp_path))
    assert result["guard"] is False
    assert any(not label["plain"] and not label["rich"] for label in _hostile_labels(result))


def test_a_question_over_the_window_before_it_paints_is_plain_text(tmp_path):
    """A modal question while the file opens (already open elsewhere; a newer autosave)
    blocks the window before it paints: that arms the guard first."""
    result = _run(tmp_path, "dialog")
    assert result["guard"] is True and result["window_painted"] is False
    hostile = _hostile_labels(result)
    assert hostile and all(label["plain"] for label in hostile), result["painted"]
    assert HOSTILE  # the same hostile text as the plain-text suite


def test_start_up_draws_the_sheet_once_at_the_zoom_that_fits_its_pane(tmp_path):
    """Not at 100 % first and again, fitted, as the window shows (a sheet's drawing is
    most of what start-up draws)."""
    result = _run(tmp_path, "window", hostile_session("fedcom", tmp_path))
    assert len(result["renders"]) == 1, result["renders"]


def test_the_file_opened_at_start_up_is_remembered_once_the_window_is_up(tmp_path):
    path = hostile_session("fedcom", tmp_path)
    _run(tmp_path, "window", path)
    settings = json.loads((tmp_path / "config" / "settings.json").read_text("utf-8"))
    assert settings["recent"][0] == str(path.resolve())

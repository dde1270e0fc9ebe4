"""Start-up arms the plain-text guard late, and still no label ever paints a file's markup.

Why late: a Python event filter on the whole application makes PySide find a Python class
for every object any event reaches; for Qt's private objects made while the window is built
and laid out (a scroll area's gesture manager, the main window's animation timer) that makes
a class for every Qt class there is, 25-30 ms before the first paint. So ``run_app`` arms
the filter once the window has first painted (``plaintext.install_when_painted``); until
then an application style sheet has Qt make each label plain as it is polished, before Qt
measures it. These tests watch every label of a hostile session's window as it paints,
whether an image its names point at is ever loaded, and a question asked over the window
before it paints; runs with nothing guarding show each watch finds what it looks for.

Each runs in a fresh process (``startup_guard_worker.py``): the guard is installed once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from test_plain_text import HOSTILE, hostile_session

from shipsheet.model.paths import resources_dir
from shipsheet.ui import plaintext

WORKER = Path(__file__).with_name("startup_guard_worker.py")


def _env(tmp_path) -> dict:
    return dict(os.environ, QT_QPA_PLATFORM="offscreen",
                SHIPSHEET_STATE_DIR=str(tmp_path / "state"),
                SHIPSHEET_CONFIG_DIR=str(tmp_path / "config"),
                SHIPSHEET_DATA_DIR=str(tmp_path / "data"))


def _run(tmp_path, *args, **env) -> dict:
    out = subprocess.run([sys.executable, str(WORKER), *map(str, args)], capture_output=True,
                         text=True, env={**_env(tmp_path), **env}, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _run_watching(tmp_path, mode: str) -> tuple[bool, dict]:
    """Start-up on a session whose names hold ``<img src="probe.png">``, probe.png being a
    named pipe: whether the app ever opened it (Qt loading the "image" of a label laid out
    as markup), and the worker's report. A writer end opens only while a reader has it open,
    and closing it at once lets the reader go on."""
    fifo = tmp_path / "probe.png"
    os.mkfifo(fifo)
    data = json.loads((resources_dir() / "samples" / "fedcom.shipsheet").read_text("utf-8"))
    marker = '<img src="probe.png">'  # beside the worker's working folder (names are short)
    data["name"] = f"{marker}session"
    for i, ship in enumerate(data["ships"]):
        ship["name"] = f"{marker}HOSTILE{i}"
    path = tmp_path / "probe.shipsheet"
    path.write_text(json.dumps(data), "utf-8")
    proc = subprocess.Popen([sys.executable, str(WORKER), mode, str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=_env(tmp_path),
                            cwd=tmp_path)  # Qt warns once per attempt on a pipe: not read
    opened, deadline = False, time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # no reader: the app has not opened it
            time.sleep(0.002)
            continue
        opened = True
        os.close(fd)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    return opened, json.loads(out.strip().splitlines()[-1])


def _hostile_labels(result: dict) -> list[dict]:
    return [label for label in result["painted"] if "HOSTILE" in label["text"]]


def test_no_label_of_a_hostile_session_paints_as_markup_at_start_up(tmp_path):
    result = _run(tmp_path, "window", hostile_session("fedcom", tmp_path))
    assert result["code"] == 0 and result["guard"] is True
    hostile = _hostile_labels(result)
    assert hostile, "the window painted no label with the session's text"
    assert all(label["plain"] for label in hostile), hostile
    assert all(label["plain"] or label["rich"] for label in result["painted"]), result["painted"]


def test_no_image_named_in_a_hostile_session_is_loaded_at_start_up(tmp_path):
    """Before the guard is armed, labels are still plain before Qt first measures them (the
    start-up style sheet converts each as it is polished): an ``<img>`` in a ship's name is
    never loaded (a 9 KB file naming /dev/zero once took the app to 2 GB)."""
    opened, result = _run_watching(tmp_path, "window")
    assert result["code"] == 0 and result["guard"] is True
    assert not opened, "Qt opened the image a ship's name points at"


def test_the_image_watch_sees_a_load_when_nothing_guards(tmp_path):
    """The watch above can fail: with neither the style sheet nor the guard, the ship name's
    image is loaded as the window lays out its labels."""
    opened, result = _run_watching(tmp_path, "unguarded")
    assert result["guard"] is False
    assert opened


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


def test_the_start_up_style_sheet_goes_once_painted_leaving_the_users_style(tmp_path):
    """The style sheet that guards labels until the first paint is dropped just after it:
    the style is the one the desktop chose (Windows here), and a light appearance after a
    dark one (Fusion) returns to it."""
    result = _run(tmp_path, "appearance", QT_STYLE_OVERRIDE="Windows")
    assert result["during"] == ["", plaintext.STARTUP_SHEET]  # the window's, not the app's
    assert result["after"] == ["", "", "windows"]
    assert (result["dark"], result["light"]) == ("fusion", "windows")

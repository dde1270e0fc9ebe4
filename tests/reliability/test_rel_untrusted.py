"""The hostile-input suite: files from others can do no harm (``untrusted_worker.py``).

Thousands of generated hostile files (wrong types, markup, path-like and unencodable
text, huge and non-finite numbers at every key; special files; damaged autosave stores)
go through load, ``check``, ``print``, the window, save and reopen, in one process of
their own under a memory limit, each case under a time limit. The suite passes with 0
crashes, 0 hangs, 0 files touched outside the chosen folders, 0 accepted files that do
not save and reopen the same, and the peak memory bounded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.mark.slow
def test_hostile_inputs_do_no_harm(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    for var, name in (("SHIPSHEET_DATA_DIR", "data"), ("SHIPSHEET_STATE_DIR", "state"),
                      ("SHIPSHEET_CONFIG_DIR", "config")):
        env[var] = str(tmp_path / "user" / name)
    run = subprocess.run([sys.executable, str(HERE / "untrusted_worker.py"), str(tmp_path / "work")],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    print(f"\nhostile inputs: {report['cases']} cases, {report['accepted']} accepted, "
          f"{report['refused']} refused; {report['windows']} opened in the window, "
          f"{report['prints']} printed, {report['checks']} checked; slowest {report['slowest']}; "
          f"peak memory {report['peak_rss_mb']} MB")
    assert not report["failures"], "\n\n".join(report["failures"][:20])
    assert report["cases"] > 3000 and report["accepted"] > 300 and report["refused"] > 1000
    assert report["windows"] >= 10 and report["prints"] >= 5
    assert report["peak_rss_mb"] < 1500

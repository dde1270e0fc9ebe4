"""Issue 31, rough edges and fit: every window and dialog fits a 1366 × 768 screen at 100 %
and at 150 % (910 × 512 logical pixels), frame included; a second window is cascaded from
the first and still fits. Each scale runs in a process of its own (the scale factor and the
offscreen screen's size are fixed at start-up): ``fits_small_screens_check.py``."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("factor", ["1", "1.5"])
def test_every_window_and_dialog_fits_a_1366_by_768_screen(factor, tmp_path):
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366,
                                                "height": 768, "logicalDpi": 96, "dpr": 1}]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}",
               QT_SCALE_FACTOR=factor, QT_ENABLE_HIGHDPI_SCALING="1",
               PYTHONPATH=str(Path(__file__).resolve().parents[2]))  # this tree's shipsheet
    run = subprocess.run([sys.executable, str(Path(__file__).with_name("fits_small_screens_check.py")),
                          str(tmp_path / "autosave")], capture_output=True, text=True, env=env,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.strip().splitlines()
    assert lines[-1] == "OK", run.stdout
    frames = {line.split(":")[0]: line for line in lines[:-1]}
    for name in ("second window", "QPrintPreviewDialog", "AttackDialog", "OrdersDialog"):
        assert name in frames, run.stdout

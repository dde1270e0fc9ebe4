"""Sheets and hit areas are right at 100 %, 150 % and 200 % scaling (device pixel ratio)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("factor", ["1", "1.5", "2"])
def test_sheets_and_hit_areas_at_device_pixel_ratio(factor, tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR=factor,
               QT_ENABLE_HIGHDPI_SCALING="1")
    run = subprocess.run([sys.executable, str(Path(__file__).with_name("dpr_check.py")), factor,
                          str(tmp_path / "autosave")], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip().splitlines()[-1] == "OK", run.stdout

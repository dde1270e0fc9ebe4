"""The installable app: a wheel that carries its resources, and the one-folder PyInstaller build."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_ships_resources_and_finds_them_when_installed(tmp_path):
    wheels = tmp_path / "wheels"
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                          "-q", "-w", str(wheels), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    wheel = next(wheels.glob("shipsheet-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "shipsheet/resources/ships/triplanetary/frigate.toml" in names
    assert "shipsheet/resources/samples/fedcom.shipsheet" in names
    # Two commands: shipsheet (console) and shipsheet-gui (the window, no console on Windows).
    info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    points = zipfile.ZipFile(wheel).read(info).decode()
    assert "[console_scripts]\nshipsheet = shipsheet.cli:main" in points
    assert "[gui_scripts]\nshipsheet-gui = shipsheet.cli:gui_main" in points
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)  # an installed wheel is its unpacked tree
    code = ("import shipsheet.model.paths as p, shipsheet.model.library as lib; "
            "print(p.resources_dir()); print(len(lib.list_classes()))")
    env = dict(os.environ, PYTHONPATH=str(target))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    folder, count = out.stdout.split()
    assert Path(folder) == target / "shipsheet" / "resources" and int(count) >= 17


@pytest.mark.linux_only  # the Linux build; Windows' and macOS' are made by the release workflow
def test_pyinstaller_one_folder_build_runs(tmp_path):
    run = subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "ERROR",
                          "--distpath", str(tmp_path / "dist"), "--workpath", str(tmp_path / "build"),
                          str(ROOT / "packaging" / "shipsheet.spec")], capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stderr[-3000:]
    binary = tmp_path / "dist" / "shipsheet" / "shipsheet"
    from shipsheet import __version__
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == f"ShipSheet {__version__}"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([str(binary), "--quit-after-startup", str(ROOT / "resources/samples/fedcom.shipsheet")],
                         capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "started: fedcom.shipsheet" in out.stdout

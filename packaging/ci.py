"""The one entry point of continuous integration, here and on GitHub Actions.

``python packaging/ci.py test``
    The whole suite, offscreen. Where ``make`` is (Linux, macOS) it is ``make test``, as
    ``.ci/run`` always ran it. On Windows, which has no make, the same steps in Python:
    ``.venv`` made if missing, ``pip install -e .[test]``, ``packaging/system_deps.py
    --install`` (nothing to install there), pytest with ``QT_QPA_PLATFORM=offscreen``.
    On a GitHub runner it also names the runner's Google Chrome and chromedriver for the
    browser tests (``SHIPSHEET_CHROME``, ``SHIPSHEET_CHROMEDRIVER``), and on Ubuntu
    installs the Debian packages the Linux-only tests use with sudo.

``python packaging/ci.py build``
    The installable app for this system, in ``dist/``: the PyInstaller one-folder build
    (packaging/shipsheet.spec), then
    Linux    ``ShipSheet-<version>-linux-x86_64.tar.gz``
    Windows  ``ShipSheet-<version>-windows-x64.zip`` and, with Inno Setup's ``ISCC``,
             ``ShipSheet-<version>-setup.exe`` (packaging/windows/shipsheet.iss)
    macOS    ``ShipSheet-<version>-macos.dmg`` (``hdiutil``)

Standard library only; every subprocess has a timeout.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
HOUR = 3600


def version() -> str:
    text = (ROOT / "shipsheet" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'__version__ = "([^"]+)"', text).group(1)


def run(cmd: list[str], *, timeout: float, env: dict | None = None, cwd: Path = ROOT) -> None:
    print("+ " + " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, timeout=timeout, env=env, cwd=cwd)


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    """``.venv`` with ShipSheet and its test extras (which carry PyInstaller), as make does."""
    python = venv_python()
    if not python.exists():
        run([sys.executable, "-m", "venv", VENV], timeout=600)
        run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"], timeout=900)
    run([python, "-m", "pip", "install", "--quiet", "-e", ".[test]"], timeout=1800)
    return python


def runner_browser(environ=os.environ, platform: str = sys.platform, exists=os.path.exists) -> dict:
    """On a GitHub runner: its Google Chrome and chromedriver (CHROMEWEBDRIVER is the
    driver's folder there), for tests/share/browser.py; nothing elsewhere or when named."""
    if not environ.get("GITHUB_ACTIONS") or environ.get("SHIPSHEET_CHROME"):
        return {}
    chrome = {
        "win32": r"C:\Program Files\Google\Chrome\Application\chrome.exe",
        "darwin": "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    }.get(platform) or shutil.which("google-chrome") or "/usr/bin/google-chrome"
    folder = environ.get("CHROMEWEBDRIVER", "")
    driver = os.path.join(folder, "chromedriver.exe" if platform == "win32" else "chromedriver")
    if not (folder and exists(chrome) and exists(driver)):
        return {}
    return {"SHIPSHEET_CHROME": chrome, "SHIPSHEET_CHROMEDRIVER": driver}


def test(pytest_args: list[str]) -> int:
    env = dict(os.environ, **runner_browser())
    if pytest_args:
        env["PYTEST_ARGS"] = " ".join(pytest_args)
    make = shutil.which("make")
    if make and os.name != "nt":
        if (sys.platform.startswith("linux") and env.get("GITHUB_ACTIONS")
                and hasattr(os, "geteuid") and os.geteuid() != 0 and shutil.which("sudo")):
            # A runner is not root: the Debian packages of the Linux-only tests, with sudo.
            run([make, ".venv/.installed-test"], timeout=1800, env=env)
            run(["sudo", "-E", venv_python(), "packaging/system_deps.py", "--install"],
                timeout=1800, env=env)
        return subprocess.run([make, "test"], cwd=ROOT, env=env, timeout=2 * HOUR).returncode
    python = ensure_venv()
    run([python, "packaging/system_deps.py", "--install"], timeout=1800, env=env)
    env["QT_QPA_PLATFORM"] = "offscreen"
    return subprocess.run([python, "-m", "pytest", "-q", *pytest_args], cwd=ROOT, env=env,
                          timeout=2 * HOUR).returncode


def inno_setup_compiler() -> str | None:
    found = shutil.which("iscc") or shutil.which("ISCC")
    if found:
        return found
    for base in (os.environ.get("ProgramFiles(x86)", ""), os.environ.get("ProgramFiles", "")):
        candidate = Path(base) / "Inno Setup 6" / "ISCC.exe"
        if base and candidate.is_file():
            return str(candidate)
    return None


def zip_folder(folder: Path, target: Path) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            archive.write(path, Path(folder.name) / path.relative_to(folder))


def build() -> int:
    python = ensure_venv()
    dist, ver = ROOT / "dist", version()
    run([python, "-m", "PyInstaller", "--noconfirm", "--clean", "packaging/shipsheet.spec"],
        timeout=2 * HOUR)
    made: list[Path] = []
    if sys.platform == "win32":
        archive = dist / f"ShipSheet-{ver}-windows-x64.zip"
        zip_folder(dist / "shipsheet", archive)
        made.append(archive)
        iscc = inno_setup_compiler()
        if iscc is None:
            print("ci.py: Inno Setup's ISCC not found (https://jrsoftware.org/isinfo.php): "
                  "no installer", file=sys.stderr)
            return 1
        run([iscc, f"/DAssociation={dist / 'shipsheet-association.iss'}",
             f"/DSourceDir={dist / 'shipsheet'}", f"/O{dist}",
             ROOT / "packaging" / "windows" / "shipsheet.iss"], timeout=HOUR)
        made.append(dist / f"ShipSheet-{ver}-setup.exe")
    elif sys.platform == "darwin":
        staging = ROOT / "build" / "dmg"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        # ditto keeps the bundle's symlinks and signatures as they are.
        run(["ditto", dist / "ShipSheet.app", staging / "ShipSheet.app"], timeout=HOUR)
        os.symlink("/Applications", staging / "Applications")  # drag the app onto it
        image = dist / f"ShipSheet-{ver}-macos.dmg"
        run(["hdiutil", "create", "-volname", "ShipSheet", "-srcfolder", staging, "-ov",
             "-format", "UDZO", image], timeout=HOUR)
        made.append(image)
    else:
        archive = dist / f"ShipSheet-{ver}-linux-x86_64.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(dist / "shipsheet", arcname="shipsheet")
        made.append(archive)
    for path in made:
        print(f"built {path.relative_to(ROOT)}", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("test", help="the whole suite, offscreen (make test where make is); "
                                "further arguments go to pytest")
    sub.add_parser("build", help="the installable app for this system, in dist/")
    args, rest = parser.parse_known_args(argv)
    if args.command == "test":
        return test(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return build()


if __name__ == "__main__":
    sys.exit(main())

"""Which Debian packages this machine lacks for ShipSheet, asked of the libraries themselves.

Qt's wheels (PySide6) bring Qt but not the system libraries Qt links against: libQt6Gui
needs libEGL, libGL and fontconfig even offscreen, and the xcb platform plugin (a real X
window) needs a dozen xcb libraries. The honest question is not "is some stand-in
library installed" but what ``ldd`` says of those two files: every line "not found" is a
library to install, mapped here to the Debian package that provides it.

Two uses, standard library only (it runs before anything else is known to work):

``system_deps.py --install`` (``make test``)
    Also checks the command-line tools a few tests use (pdftotext, xvfb-run, xauth,
    desktop-file-validate, appstreamcli, objdump, chromium and chromedriver, dbus-run-session,
    AT-SPI and Debian's pyatspi for the screen-reader test) and that at
    least one font is installed. As root
    with apt-get it runs ``apt-get update`` and installs what is missing; otherwise it
    prints the exact ``apt-get install`` line and which tests will fail without it.

``system_deps.py --advise`` (``make run``)
    Never installs anything: prints the one ``apt-get install`` line to run and exits 1
    when the app could not start (Qt would abort), so the user reads our line, not Qt's.

On Windows and macOS there is nothing to install: PySide6's wheels carry Qt and what it
links against. ``--install`` says so; ``--advise`` only checks that Qt's GUI library
loads and, when it does not, names that platform's fix (``PLATFORM_FIX``).
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

# Shared libraries Qt's wheels link against -> the Debian (bookworm) package providing it.
LIBRARY_PACKAGES = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libOpenGL.so.0": "libopengl0",
    "libGLdispatch.so.0": "libglvnd0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libexpat.so.1": "libexpat1",
    "libpng16.so.16": "libpng16-16",
    "libz.so.1": "zlib1g",
    "libzstd.so.1": "libzstd1",
    "libbrotlidec.so.1": "libbrotli1",
    "libbrotlicommon.so.1": "libbrotli1",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libpcre2-8.so.0": "libpcre2-8-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libsystemd.so.0": "libsystemd0",
    "libgssapi_krb5.so.2": "libgssapi-krb5-2",
    "libkrb5.so.3": "libkrb5-3",
    "libk5crypto.so.3": "libk5crypto3",
    "libkrb5support.so.0": "libkrb5support0",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
}

# Command-line tools the tests use -> package, and what fails without it.
TEST_TOOLS = {
    "pdftotext": ("poppler-utils", "the PDF tests (text and pictures of printed pages)"),
    "pdftoppm": ("poppler-utils", "the PDF tests (text and pictures of printed pages)"),
    "xvfb-run": ("xvfb", "the real-X-server test"),
    "xauth": ("xauth", "the real-X-server test (xvfb-run needs it)"),
    "desktop-file-validate": ("desktop-file-utils", "the desktop entry test"),
    "appstreamcli": ("appstream", "the AppStream metadata test"),
    "objdump": ("binutils", "the PyInstaller build test (PyInstaller needs objdump)"),
    "chromium": ("chromium", "the Table Link browser tests"),
    "chromedriver": ("chromium-driver", "the Table Link browser tests"),
    "dbus-run-session": ("dbus-daemon", "the screen-reader test (a D-Bus session of its own)"),
    "caddy": ("caddy", "the table-from-home test (Caddy terminates HTTPS in front of serve)"),
    "certutil": ("libnss3-tools", "the table-from-home test (Chromium trusts Caddy's own CA)"),
}
# Files the tests use that are not commands on PATH -> package, and what fails without it.
TEST_FILES = {
    "/usr/libexec/at-spi-bus-launcher": ("at-spi2-core", "the screen-reader test (AT-SPI's bus)"),
    "/usr/lib/python3/dist-packages/pyatspi/__init__.py":
        ("python3-pyatspi", "the screen-reader test (its reader runs on Debian's python3)"),
}
FONT_PACKAGE = "fonts-dejavu-core"
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$")


def package_for(library: str) -> str:
    """The Debian package of a shared library: the table, else Debian's naming policy.

    Policy: ``libfoo-bar.so.N`` ships in ``libfoo-barN``, with a hyphen when the name
    already ends in a digit (``libxkbcommon-x11.so.0`` -> ``libxkbcommon-x11-0``)."""
    if library in LIBRARY_PACKAGES:
        return LIBRARY_PACKAGES[library]
    stem, _, version = library.partition(".so.")
    stem = stem.lower().replace("_", "-")
    major = version.split(".")[0]
    if not major:
        return stem
    return f"{stem}-{major}" if stem[-1:].isdigit() else f"{stem}{major}"


def missing_libraries(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` reports as "not found", each once, in order."""
    found: list[str] = []
    for line in ldd_output.splitlines():
        match = _NOT_FOUND.match(line)
        if match and match.group(1) not in found:
            found.append(match.group(1))
    return found


def packages_for(libraries: list[str]) -> list[str]:
    out: list[str] = []
    for lib in libraries:
        pkg = package_for(lib)
        if pkg not in out:
            out.append(pkg)
    return out


def qt_files() -> tuple[Path, Path]:
    """PySide6's libQt6Gui and its xcb platform plugin, found without importing Qt."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("PySide6 is not installed in this Python")
    qt = Path(list(spec.submodule_search_locations)[0]) / "Qt"
    gui = next(iter(sorted((qt / "lib").glob("libQt6Gui.so*"))), qt / "lib" / "libQt6Gui.so.6")
    return gui, qt / "plugins" / "platforms" / "libqxcb.so"


def run_ldd(path: Path) -> str:
    try:
        return subprocess.run(["ldd", str(path)], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


def has_fonts(dirs=FONT_DIRS) -> bool:
    for folder in dirs:
        root = os.path.expanduser(folder)
        for pattern in ("**/*.ttf", "**/*.otf", "**/*.pfb", "**/*.ttc"):
            if next(iter(glob.iglob(os.path.join(root, pattern), recursive=True)), None):
                return True
    return False


@dataclass
class Report:
    """What is missing, as Debian packages, and what each gap breaks."""

    gui: list[str] = field(default_factory=list)     # Qt cannot start at all
    xcb: list[str] = field(default_factory=list)     # no real X window (offscreen still works)
    fonts: list[str] = field(default_factory=list)   # text draws as nothing
    tools: dict[str, str] = field(default_factory=dict)  # package -> what fails

    def packages(self, *, with_tools: bool) -> list[str]:
        out: list[str] = []
        for pkg in self.gui + self.xcb + self.fonts + (list(self.tools) if with_tools else []):
            if pkg not in out:
                out.append(pkg)
        return out


# Tools another browser stands in for when the tests are told of it (tests/share/browser.py).
NAMED_BROWSER = {"chromium": "SHIPSHEET_CHROME", "chromedriver": "SHIPSHEET_CHROMEDRIVER"}


def check(ldd=run_ldd, which=shutil.which, fonts=has_fonts, files=qt_files,
          environ=os.environ, exists=os.path.exists) -> Report:
    """Ask ``ldd`` of Qt's GUI library and xcb plugin, and look for the test tools and fonts."""
    gui_lib, xcb_plugin = files()
    gui_missing = missing_libraries(ldd(gui_lib))
    report = Report(gui=packages_for(gui_missing))
    xcb_missing = [lib for lib in missing_libraries(ldd(xcb_plugin)) if lib not in gui_missing]
    report.xcb = [p for p in packages_for(xcb_missing) if p not in report.gui]
    if not fonts():
        report.fonts = [FONT_PACKAGE]
    for tool, (pkg, what) in TEST_TOOLS.items():
        if environ.get(NAMED_BROWSER.get(tool, ""), ""):
            continue  # the tests use the browser named in the environment
        if not which(tool) and pkg not in report.tools:
            report.tools[pkg] = what
    for path, (pkg, what) in TEST_FILES.items():
        if not exists(path) and pkg not in report.tools:
            report.tools[pkg] = what
    return report


def install_line(packages: list[str]) -> str:
    return "sudo apt-get install " + " ".join(packages)


def consequences(report: Report, *, with_tools: bool) -> list[str]:
    lines = []
    if report.gui:
        lines.append(f"  {' '.join(report.gui)}: Qt cannot start at all (not even offscreen)")
    if report.xcb:
        lines.append(f"  {' '.join(report.xcb)}: no window on an X display (Qt aborts: "
                     "'Could not load the Qt platform plugin \"xcb\"')")
    if report.fonts:
        lines.append(f"  {' '.join(report.fonts)}: no fonts, so sheets and PDFs show no text")
    if with_tools:
        for pkg, what in report.tools.items():
            lines.append(f"  {pkg}: {what} will fail")
    return lines


def platform_is_xcb(environ=os.environ) -> bool:
    """Would Qt load the xcb plugin here? (An explicit choice, else anything but Wayland.)

    With no ``DISPLAY`` Qt still loads the xcb plugin first (it is Linux's default): a
    missing xcb library then aborts it ("xcb-cursor0 is needed") before it can say there is
    no display, so the libraries are advised then too (``shipsheet`` says the rest)."""
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.split(":")[0].split(";")[0] == "xcb"
    return not environ.get("WAYLAND_DISPLAY")


def can_install() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None


def apt_install(packages: list[str], out=sys.stdout) -> bool:
    print(f"Installing the Debian packages ShipSheet and its tests need: {' '.join(packages)}",
          file=out, flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"],
                ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages]):
        run = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"warning: '{' '.join(cmd)}' failed:\n{run.stdout[-1500:]}{run.stderr[-1500:]}",
                  file=sys.stderr)
            return False
    return True


# Where Qt could not load on a system with nothing to install: what fixes it there.
PLATFORM_FIX = {
    "win32": ("Qt's libraries did not load. PySide6 needs 64-bit Windows 10 or later and a "
              "64-bit Python from python.org; if it still fails, install Microsoft's "
              "\"Visual C++ Redistributable for Visual Studio 2015-2022 (x64)\" and make the "
              "environment again: py -m venv --clear .venv; .venv\\Scripts\\pip install -e ."),
    "darwin": ("Qt's libraries did not load. PySide6 needs macOS 11 or later; make the "
               "environment again with a python.org Python: python3 -m venv --clear .venv && "
               ".venv/bin/pip install -e ."),
}
NOTHING_TO_INSTALL = ("system_deps: nothing to install on {name}: PySide6's wheels carry Qt "
                      "and what it needs")


def platform_name(platform: str) -> str:
    return {"win32": "Windows", "darwin": "macOS"}.get(platform, platform)


def qt_gui_loads(python: str = sys.executable) -> tuple[bool, str]:
    """Does ``from PySide6 import QtGui`` work in a process of its own (a DLL that does not
    load would otherwise end the caller)? The error text when it does not."""
    try:
        run = subprocess.run([python, "-c", "from PySide6 import QtGui"], capture_output=True,
                             text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, str(exc)
    return run.returncode == 0, run.stderr.strip()[-800:]


def other_platform(args, platform: str, out=None, loads=None) -> int:
    """Windows and macOS: nothing to install; ``--advise`` names the fix when Qt cannot load."""
    out = out or sys.stderr
    if args.install:
        print(NOTHING_TO_INSTALL.format(name=platform_name(platform)), file=out)
        return 0
    ok, error = (loads or qt_gui_loads)()
    if ok:
        return 0
    print(error, file=out)
    print(PLATFORM_FIX.get(platform, "Qt's libraries did not load: reinstall PySide6 "
                           "(pip install --force-reinstall PySide6-Essentials)."), file=out)
    return 1


def main(argv: list[str] | None = None, platform: str = sys.platform) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--install", action="store_true",
                      help="for make test: install what is missing when root with apt-get")
    mode.add_argument("--advise", action="store_true",
                      help="for make run: never install; say what to install, exit 1 if Qt cannot start")
    args = parser.parse_args(argv)
    if not platform.startswith("linux"):
        return other_platform(args, platform)

    try:
        report = check()
    except FileNotFoundError as exc:
        print(f"system_deps: {exc}", file=sys.stderr)
        return 1
    with_tools = args.install
    packages = report.packages(with_tools=with_tools)
    if not packages:
        return 0

    if args.install and can_install():
        if apt_install(packages):
            report = check()
            packages = report.packages(with_tools=True)
            if not packages:
                return 0
        print("warning: still missing after apt-get: " + " ".join(packages), file=sys.stderr)

    print("ShipSheet needs Debian packages this machine does not have:", file=sys.stderr)
    for line in consequences(report, with_tools=with_tools):
        print(line, file=sys.stderr)
    print(f"Install them with:\n  {install_line(packages)}", file=sys.stderr)
    if args.advise and (report.gui or (report.xcb and platform_is_xcb())):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

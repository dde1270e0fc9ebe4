"""packaging/system_deps.py: the system-library check of `make test` and `make run`.

Run against fake ``ldd`` outputs, so it proves what the check asks for on a machine
that lacks the libraries, whatever this machine has."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("system_deps", ROOT / "packaging" / "system_deps.py")
system_deps = importlib.util.module_from_spec(_spec)
sys.modules["system_deps"] = system_deps  # dataclasses look their module up
_spec.loader.exec_module(system_deps)

GUI = Path("/qt/lib/libQt6Gui.so.6")
XCB = Path("/qt/plugins/platforms/libqxcb.so")

GUI_LDD_OK = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6Core.so.6 => /qt/lib/libQt6Core.so.6 (0x00007f56)
\tlibEGL.so.1 => /lib/x86_64-linux-gnu/libEGL.so.1 (0x00007f56)
\tlibfontconfig.so.1 => /lib/x86_64-linux-gnu/libfontconfig.so.1 (0x00007f56)
\tlibGL.so.1 => /lib/x86_64-linux-gnu/libGL.so.1 (0x00007f56)
"""
# What a fresh Debian machine of the project's kind printed for the xcb plugin.
XCB_LDD_MISSING = """\
\tlibQt6XcbQpa.so.6 => /qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007f9a)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f9a)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
"""


def fake_check(gui_ldd, xcb_ldd, tools=(), fonts=True):
    outputs = {GUI: gui_ldd, XCB: xcb_ldd}
    return system_deps.check(ldd=outputs.__getitem__, which=lambda t: t in tools and f"/usr/bin/{t}",
                             fonts=lambda: fonts, files=lambda: (GUI, XCB), environ={},
                             exists=lambda path: path in tools)


ALL_TOOLS = tuple(system_deps.TEST_TOOLS) + tuple(system_deps.TEST_FILES)


def test_missing_xcb_libraries_ask_for_their_packages():
    report = fake_check(GUI_LDD_OK, XCB_LDD_MISSING, tools=ALL_TOOLS)
    assert report.gui == []
    assert report.xcb == ["libxcb-icccm4", "libxcb-keysyms1"]
    assert report.packages(with_tools=True) == ["libxcb-icccm4", "libxcb-keysyms1"]
    assert system_deps.install_line(report.packages(with_tools=True)) == \
        "sudo apt-get install libxcb-icccm4 libxcb-keysyms1"


def test_missing_gl_and_fontconfig_stop_qt_even_offscreen():
    gui = GUI_LDD_OK.replace("=> /lib/x86_64-linux-gnu/libEGL.so.1 (0x00007f56)", "=> not found") \
                    .replace("=> /lib/x86_64-linux-gnu/libfontconfig.so.1 (0x00007f56)", "=> not found")
    # The plugin links libQt6Gui, so ldd repeats the GUI library's gaps for it.
    xcb = XCB_LDD_MISSING + "\tlibEGL.so.1 => not found\n"
    report = fake_check(gui, xcb, tools=ALL_TOOLS)
    assert report.gui == ["libegl1", "libfontconfig1"]
    assert report.xcb == ["libxcb-icccm4", "libxcb-keysyms1"]
    text = "\n".join(system_deps.consequences(report, with_tools=True))
    assert "libegl1 libfontconfig1: Qt cannot start at all" in text


def test_tools_and_fonts_are_asked_for_with_what_fails_without_them():
    report = fake_check(GUI_LDD_OK, "", tools=("appstreamcli",), fonts=False)
    assert report.fonts == ["fonts-dejavu-core"]
    assert list(report.tools) == ["poppler-utils", "xvfb", "xauth", "desktop-file-utils", "binutils",
                                  "chromium", "chromium-driver", "dbus-daemon", "caddy", "libnss3-tools", "at-spi2-core",
                                  "python3-pyatspi"]
    assert report.packages(with_tools=False) == ["fonts-dejavu-core"]
    text = "\n".join(system_deps.consequences(report, with_tools=True))
    assert "xvfb: the real-X-server test will fail" in text


def test_browser_tests_ask_for_chromium_and_its_driver():
    report = fake_check(GUI_LDD_OK, "", tools=tuple(t for t in ALL_TOOLS if t not in ("chromium", "chromedriver")))
    assert report.tools == {"chromium": "the Table Link browser tests",
                            "chromium-driver": "the Table Link browser tests"}
    text = "\n".join(system_deps.consequences(report, with_tools=True))
    assert "chromium-driver: the Table Link browser tests will fail" in text


def test_unknown_library_named_by_debian_policy():
    assert system_deps.package_for("libxcb-frob.so.0") == "libxcb-frob0"
    assert system_deps.package_for("libfoo-x11.so.2") == "libfoo-x11-2"
    assert system_deps.package_for("libxcb-icccm.so.4") == "libxcb-icccm4"


def test_platform_choice():
    assert system_deps.platform_is_xcb({"DISPLAY": ":0"})
    assert not system_deps.platform_is_xcb({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"})
    assert not system_deps.platform_is_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"})
    assert system_deps.platform_is_xcb({"QT_QPA_PLATFORM": "xcb"})
    # No display at all: Qt still loads the xcb plugin first (and aborts if it cannot).
    assert system_deps.platform_is_xcb({})
    assert not system_deps.platform_is_xcb({"WAYLAND_DISPLAY": "wayland-0"})
    assert not system_deps.platform_is_xcb({"QT_QPA_PLATFORM": "offscreen"})


@pytest.mark.linux_only  # apt-get
def test_advise_never_installs_and_stops_before_qt_would_abort(monkeypatch, capsys):
    report = fake_check(GUI_LDD_OK, XCB_LDD_MISSING, tools=())
    monkeypatch.setattr(system_deps, "check", lambda: report)
    monkeypatch.setattr(system_deps, "apt_install", lambda *a, **k: pytest_fail("installed"))
    monkeypatch.setattr(system_deps, "can_install", lambda: True)  # even as root
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    assert system_deps.main(["--advise"]) == 1
    err = capsys.readouterr().err
    # One line to run, without the test-only tools.
    assert "  sudo apt-get install libxcb-icccm4 libxcb-keysyms1\n" in err
    assert "poppler-utils" not in err
    # No display (an ssh login): Qt would load the xcb plugin all the same and abort.
    monkeypatch.delenv("DISPLAY")
    assert system_deps.main(["--advise"]) == 1
    assert "  sudo apt-get install libxcb-icccm4 libxcb-keysyms1\n" in capsys.readouterr().err
    # Offscreen the xcb libraries are not needed: say so, go on.
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert system_deps.main(["--advise"]) == 0


@pytest.mark.linux_only  # apt-get
def test_install_mode_installs_then_checks_again(monkeypatch, capsys):
    reports = [fake_check(GUI_LDD_OK, XCB_LDD_MISSING, tools=()),
               fake_check(GUI_LDD_OK, "", tools=ALL_TOOLS)]
    monkeypatch.setattr(system_deps, "check", lambda: reports.pop(0))
    asked = []
    monkeypatch.setattr(system_deps, "can_install", lambda: True)
    monkeypatch.setattr(system_deps, "apt_install", lambda pkgs, **k: asked.append(pkgs) or True)
    assert system_deps.main(["--install"]) == 0
    assert asked == [["libxcb-icccm4", "libxcb-keysyms1", "poppler-utils", "xvfb", "xauth",
                      "desktop-file-utils", "appstream", "binutils", "chromium", "chromium-driver",
                      "dbus-daemon", "caddy", "libnss3-tools", "at-spi2-core", "python3-pyatspi"]]
    assert capsys.readouterr().err == ""


@pytest.mark.linux_only  # apt-get
def test_install_mode_without_root_prints_the_line(monkeypatch, capsys):
    report = fake_check(GUI_LDD_OK, XCB_LDD_MISSING, tools=ALL_TOOLS)
    monkeypatch.setattr(system_deps, "check", lambda: report)
    monkeypatch.setattr(system_deps, "can_install", lambda: False)
    assert system_deps.main(["--install"]) == 0
    err = capsys.readouterr().err
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in err
    assert "no window on an X display" in err


@pytest.mark.linux_only  # apt-get
def test_this_machine_passes_the_check_after_make_test():
    """The real question, asked of this machine's PySide6: make test installed the rest."""
    run = subprocess.run([sys.executable, str(ROOT / "packaging/system_deps.py"), "--advise"],
                         capture_output=True, text=True, env={"QT_QPA_PLATFORM": "xcb", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr


def pytest_fail(msg):
    raise AssertionError(msg)


# Windows and macOS (the platform passed in, so these run everywhere).

@pytest.mark.parametrize("platform, name", [("win32", "Windows"), ("darwin", "macOS")])
def test_nothing_to_install_on_windows_and_macos(monkeypatch, capsys, platform, name):
    monkeypatch.setattr(system_deps, "check", lambda: pytest_fail("ldd asked"))
    monkeypatch.setattr(system_deps, "apt_install", lambda *a, **k: pytest_fail("apt-get"))
    assert system_deps.main(["--install"], platform=platform) == 0
    err = capsys.readouterr().err
    assert f"nothing to install on {name}: PySide6's wheels carry Qt" in err
    assert "apt-get" not in err


@pytest.mark.parametrize("platform, fix", [("win32", "Visual C++ Redistributable"),
                                           ("darwin", "macOS 11 or later")])
def test_qt_that_cannot_load_names_the_platforms_fix(monkeypatch, capsys, platform, fix):
    monkeypatch.setattr(system_deps, "qt_gui_loads", lambda: (False, "ImportError: DLL load failed"))
    assert system_deps.main(["--advise"], platform=platform) == 1
    err = capsys.readouterr().err
    assert "DLL load failed" in err and fix in err and "apt-get" not in err
    monkeypatch.setattr(system_deps, "qt_gui_loads", lambda: (True, ""))
    assert system_deps.main(["--advise"], platform=platform) == 0
    assert capsys.readouterr().err == ""


def test_qt_gui_loads_here():
    assert system_deps.qt_gui_loads() == (True, "")


def test_a_named_browser_is_not_asked_for(monkeypatch):
    outputs = {GUI: GUI_LDD_OK, XCB: ""}
    report = system_deps.check(ldd=outputs.__getitem__, which=lambda t: None, fonts=lambda: True,
                               files=lambda: (GUI, XCB),
                               environ={"SHIPSHEET_CHROME": "C:/chrome.exe",
                                        "SHIPSHEET_CHROMEDRIVER": "C:/chromedriver.exe"})
    assert "chromium" not in report.tools and "chromium-driver" not in report.tools
    assert "poppler-utils" in report.tools

"""packaging/shipsheet.spec, read as PyInstaller reads it, for each system.

The spec is executed with PyInstaller's build names (Analysis, PYZ, EXE, COLLECT, BUNDLE)
replaced by fakes that record their arguments and ``sys.platform`` set to each system's,
so what a Windows or macOS build asks for is checked here, on Linux, in a second. (The real
Linux build is tests/packaging/test_build.py; the Windows and macOS builds are made only by
the release workflow, .github/workflows/release.yml.)"""

from __future__ import annotations

import plistlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "packaging" / "shipsheet.spec"


class Call:
    """One PyInstaller object: the arguments it was made with."""

    def __init__(self, kind, calls, *args, **kwargs):
        self.kind, self.args, self.kwargs = kind, args, kwargs
        calls.append(self)
        # What a real Analysis exposes, as markers naming where they came from.
        script = Path(args[0][0]).name if kind == "Analysis" else None
        self.pure = ("pure", script)
        self.scripts = ("scripts", script)
        self.binaries = ("binaries", script)
        self.datas = ("datas", script)

    def __repr__(self):
        return f"{self.kind}({self.args}, {self.kwargs})"


def run_spec(platform, tmp_path, monkeypatch):
    calls: list[Call] = []
    import PyInstaller.utils.hooks as hooks
    monkeypatch.setattr(hooks, "collect_submodules", lambda name: [f"{name}.fake"])
    names = {kind: (lambda *a, _k=kind, **k: Call(_k, calls, *a, **k))
             for kind in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")}
    namespace = dict(names, SPECPATH=str(SPEC.parent), DISTPATH=str(tmp_path / "dist"),
                     workpath=str(tmp_path / "build"), __file__=str(SPEC), __name__="__main__")
    monkeypatch.setattr(sys, "platform", platform)
    exec(compile(SPEC.read_text(), str(SPEC), "exec"), namespace)
    monkeypatch.undo()  # sys.platform back before pytest looks at anything
    by_kind: dict[str, list[Call]] = {}
    for call in calls:
        by_kind.setdefault(call.kind, []).append(call)
    return by_kind, namespace


def exes(by_kind):
    return {call.kwargs["name"]: call for call in by_kind["EXE"]}


def test_linux_build_is_the_one_console_executable_as_before(tmp_path, monkeypatch):
    by_kind, _ = run_spec("linux", tmp_path, monkeypatch)
    assert "BUNDLE" not in by_kind and len(by_kind["Analysis"]) == 1
    [exe] = by_kind["EXE"]
    assert exe.kwargs["name"] == "shipsheet" and exe.kwargs["console"] is True
    assert exe.kwargs["icon"].endswith(".png")
    [coll] = by_kind["COLLECT"]
    assert coll.kwargs["name"] == "shipsheet" and coll.args[0] is exe
    assert not (tmp_path / "dist").exists()


def test_windows_one_folder_with_the_window_and_the_command_line(tmp_path, monkeypatch):
    by_kind, ns = run_spec("win32", tmp_path, monkeypatch)
    assert "BUNDLE" not in by_kind
    entries = sorted(Path(a.args[0][0]).name for a in by_kind["Analysis"])
    assert entries == ["pyinstaller_entry.py", "pyinstaller_gui_entry.py"]
    made = exes(by_kind)
    assert set(made) == {"shipsheet-gui", "shipsheet"}  # two names, also apart case-blind
    gui, cli = made["shipsheet-gui"], made["shipsheet"]
    assert gui.kwargs["console"] is False and cli.kwargs["console"] is True
    assert gui.args[1] == ("scripts", "pyinstaller_gui_entry.py")
    assert cli.args[1] == ("scripts", "pyinstaller_entry.py")
    for exe in (gui, cli):
        assert exe.kwargs["icon"] == str(ROOT / "packaging" / "icons" / "shipsheet.ico")
        assert exe.kwargs["exclude_binaries"] is True  # one folder, not one file
        assert Path(exe.kwargs["icon"]).is_file()
    [coll] = by_kind["COLLECT"]
    assert coll.args[:2] == (gui, cli) and coll.kwargs["name"] == "shipsheet"
    assert ("datas", "pyinstaller_gui_entry.py") in coll.args and ("binaries", "pyinstaller_entry.py") in coll.args
    # The installer's file association, written beside the build for the Inno Setup script.
    inc = (tmp_path / "dist" / "shipsheet-association.iss").read_text()
    from shipsheet import __version__
    for line in (f'#define AppVersion "{__version__}"', '#define GuiExe "shipsheet-gui.exe"',
                 '#define CliExe "shipsheet.exe"', '#define FileExt ".shipsheet"',
                 '#define FileProgId "ShipSheet.Session"',
                 '#define FileMime "application/x-shipsheet-session"'):
        assert line in inc.splitlines()


def test_macos_bundle_declares_shipsheet_files(tmp_path, monkeypatch):
    by_kind, _ = run_spec("darwin", tmp_path, monkeypatch)
    made = exes(by_kind)
    gui, cli = made["shipsheet-gui"], made["shipsheet"]
    assert gui.kwargs["console"] is False and gui.kwargs["argv_emulation"] is False
    assert cli.kwargs["console"] is True  # Contents/MacOS/shipsheet, the command line
    [coll] = by_kind["COLLECT"]
    assert coll.args[:2] == (gui, cli)  # the bundle runs the first executable: the window
    [bundle] = by_kind["BUNDLE"]
    assert bundle.args == (coll,)
    kw = bundle.kwargs
    assert kw["name"] == "ShipSheet.app" and kw["bundle_identifier"] == "io.github.shipsheet.ShipSheet"
    assert kw["icon"] == str(ROOT / "packaging" / "icons" / "shipsheet.icns") and Path(kw["icon"]).is_file()
    plist = kw["info_plist"]
    assert plist["NSHighResolutionCapable"] is True
    [doc] = plist["CFBundleDocumentTypes"]
    assert doc["LSItemContentTypes"] == ["io.github.shipsheet.session"]
    assert doc["CFBundleTypeRole"] == "Editor"
    [uti] = plist["UTExportedTypeDeclarations"]
    assert uti["UTTypeIdentifier"] == "io.github.shipsheet.session"
    assert uti["UTTypeTagSpecification"]["public.filename-extension"] == ["shipsheet"]
    assert uti["UTTypeTagSpecification"]["public.mime-type"] == ["application/x-shipsheet-session"]
    plistlib.dumps(plist)  # PyInstaller writes it with plistlib: only plist types
    from shipsheet import __version__
    assert plist["CFBundleShortVersionString"] == kw["version"] == __version__


@pytest.mark.parametrize("name, sizes", [
    ("shipsheet.ico", [(n, n) for n in (16, 24, 32, 48, 64, 128, 256)]),
])
def test_windows_icon_has_every_size(name, sizes):
    from PIL import Image
    image = Image.open(ROOT / "packaging" / "icons" / name)
    assert image.format == "ICO" and sorted(image.info["sizes"]) == sizes


def test_macos_icon_has_the_retina_sizes():
    from PIL import Image
    image = Image.open(ROOT / "packaging" / "icons" / "shipsheet.icns")
    assert image.format == "ICNS"
    assert {(512, 512, 2), (256, 256, 2), (128, 128, 1), (32, 32, 2), (16, 16, 2)} <= set(image.info["sizes"])

"""The command line: version, module entry point, check."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shipsheet import __version__
from shipsheet.cli import main
from shipsheet.model import save_session
from shipsheet.model.paths import resources_dir

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "model"))
from sessions import autosaved_past_its_file, three_ship_session  # noqa: E402


def test_version_from_module_and_console_script():
    out = subprocess.run([sys.executable, "-m", "shipsheet", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"ShipSheet {__version__}"
    script = __import__("pathlib").Path(sys.executable).with_name("shipsheet")
    out = subprocess.run([str(script), "--version"], capture_output=True, text=True)
    assert out.stdout.strip() == f"ShipSheet {__version__}"


def test_check_good_session_and_definition(tmp_path, capsys):
    path = tmp_path / "night.shipsheet"
    save_session(three_ship_session(), path)
    assert main(["check", str(path), str(resources_dir() / "ships/triplanetary/frigate.toml")]) == 0
    out = capsys.readouterr().out
    assert "night.shipsheet: OK, Test night: 3 ships, turn 1" in out
    assert 'frigate.toml: OK, triplanetary ship class "Frigate"' in out


def test_check_bad_files_exit_1_with_reason(tmp_path, capsys):
    bad = tmp_path / "mail.shipsheet"
    bad.write_text("Dear referee")
    ship = tmp_path / "ca.toml"
    ship.write_text('game = "fedcom"\n')
    assert main(["check", str(bad), str(ship)]) == 1
    err = capsys.readouterr().err
    assert "mail.shipsheet: ERROR: mail.shipsheet: damaged or truncated" in err
    assert "ca.toml: ERROR: ca.toml: class: missing" in err


def test_check_runs_without_qt(tmp_path):
    path = tmp_path / "night.shipsheet"
    save_session(three_ship_session(), path)
    code = ("import sys; from shipsheet.cli import main; rc = main(['check', sys.argv[1]]); "
            "assert 'PySide6' not in sys.modules, 'Qt imported'; sys.exit(rc)")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


# Each subcommand with arguments that succeed on the fedcom sample ({out}: a file to write).
HEADLESS_RUNS = {
    "check": ["{sample}"],
    "print": ["{sample}", "--all", "-o", "{out}"],
    # Runs until Ctrl+C: the test stops it with SIGINT once it listens (it saves the copy).
    "serve": ["{copy}", "--seat", "Blue=Blue", "--bind", "127.0.0.1", "--port", "0", "--no-qr"],
    # Names the players of the copy (and saves it).
    "pbem": ["setup", "{copy}", "--player", "Blue=Blue", "--player", "Red=Red"],
    # The sample rolls the old dice scheme: nothing wrong, nothing proven (exit 3).
    "verify-dice": ["{sample}"],
}
#: Commands whose run above succeeds with another status than 0.
HEADLESS_STATUS = {"verify-dice": 3}


def test_every_subcommand_has_a_headless_run():
    from shipsheet.cli import COMMANDS
    assert set(HEADLESS_RUNS) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(HEADLESS_RUNS))
def test_subcommands_need_no_display_whatever_the_platform(command, tmp_path):
    """QT_QPA_PLATFORM=xcb with no DISPLAY: Qt would abort (134); the command picks offscreen."""
    sample = resources_dir() / "samples" / "fedcom.shipsheet"
    out = tmp_path / "x.pdf"
    copy = tmp_path / "copy.shipsheet"
    copy.write_bytes(sample.read_bytes())
    args = [a.format(sample=sample, out=out, copy=copy) for a in HEADLESS_RUNS[command]]
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = "xcb"
    script = Path(sys.executable).with_name("shipsheet")
    if command == "serve":
        run = _serve_until_listening([str(script), command, *args], env)
        assert run.returncode == 0, run.stderr[-2000:]
        assert "Blue (player): http://127.0.0.1:" in run.stdout and "nothing changed" in run.stdout
        return
    run = subprocess.run([str(script), command, *args], capture_output=True, text=True, env=env,
                         timeout=120)
    assert run.returncode == HEADLESS_STATUS.get(command, 0), run.stderr[-2000:]
    if command == "print":
        assert out.read_bytes().startswith(b"%PDF") and "pages (5 ships)" in run.stdout
    if command == "verify-dice":
        assert "cannot be verified: old dice scheme" in run.stdout


@pytest.mark.parametrize("platform", [None, "xcb"])
def test_the_window_with_no_display_says_what_to_do_in_its_own_words(platform, tmp_path):
    """``make run`` over ssh: Qt aborted with its own text ("xcb-cursor0 is needed", or
    "could not connect to display") and ShipSheet said nothing. Now it says, before Qt loads,
    and exits 2."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    if platform:
        env["QT_QPA_PLATFORM"] = platform
    script = [str(Path(sys.executable).with_name("shipsheet"))]
    if not sys.platform.startswith("linux"):  # Windows and macOS have a display: run as Linux
        as_linux = ("import sys; sys.platform = 'linux'; "
                    "from shipsheet.cli import main; sys.exit(main(sys.argv[1:]))")
        script = [sys.executable, "-c", as_linux]
    sample = resources_dir() / "samples" / "fedcom.shipsheet"
    for argv in ([script] if platform is None else [[*script, str(sample)]]):
        run = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
        assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
        assert run.stderr.startswith("ShipSheet needs a display: neither DISPLAY nor WAYLAND_DISPLAY")
        assert "desktop session" in run.stderr and "'shipsheet print'" in run.stderr
        assert "'shipsheet check'" in run.stderr and "'shipsheet serve'" in run.stderr
        assert "xcb" not in run.stderr and "Qt" not in run.stderr  # Qt never started


def test_quit_after_startup_on_a_file_it_cannot_open_says_why_and_exits_1(tmp_path):
    """``--quit-after-startup`` (timing start-up; the packaged build's smoke test) on a file
    that cannot be opened: the window's message waited for a click nobody would give, and
    the process never ended. It now says why as ``check`` does, and exits 1."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    script = str(Path(sys.executable).with_name("shipsheet"))
    bad = tmp_path / "mail.shipsheet"
    bad.write_text("Dear referee")
    for path, reason in ((bad, "damaged or truncated"), (tmp_path / "gone.shipsheet", "cannot read the file")):
        run = subprocess.run([script, "--quit-after-startup", str(path)], capture_output=True, text=True,
                             env=env, cwd=tmp_path, timeout=60)
        assert run.returncode == 1, (run.returncode, run.stderr[-2000:])
        assert run.stderr.startswith(f"{path}: ERROR: {path.name}: {reason}"), run.stderr
        assert "started:" not in run.stdout


def test_quit_after_startup_offers_no_newer_autosave(tmp_path):
    """An autosave newer than the file (a window that ended without saving) was offered by a
    question at ``--quit-after-startup`` too, which nobody answers: a timing run hung on the
    sample after a killed window had changed it. It now opens the file and exits; the
    autosave is left for the next real start to offer."""
    from shipsheet.model.autosave import AutosaveStore
    state = tmp_path / "state"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SHIPSHEET_STATE_DIR=str(state),
               SHIPSHEET_CONFIG_DIR=str(tmp_path / "config"), SHIPSHEET_DATA_DIR=str(tmp_path / "data"))
    file = tmp_path / "night.shipsheet"
    store = AutosaveStore(state / "autosave")
    autosaved_past_its_file(store, three_ship_session(), file)
    assert store.newer_than_file(file) is not None
    script = str(Path(sys.executable).with_name("shipsheet"))
    run = subprocess.run([script, "--quit-after-startup", str(file)], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "started: night.shipsheet" in run.stdout
    assert store.newer_than_file(file) is not None  # still there to offer


def test_no_display_is_told_only_where_there_is_none():
    from shipsheet.cli import no_display
    assert no_display({}, "linux") and no_display({"QT_QPA_PLATFORM": "xcb"}, "linux")
    assert no_display({"QT_QPA_PLATFORM": "wayland;xcb"}, "linux")
    assert not no_display({"DISPLAY": ":0"}, "linux")
    assert not no_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    for platform in ("offscreen", "minimal", "eglfs", "linuxfb", "vnc:size=800x600", "wayland;offscreen"):
        assert not no_display({"QT_QPA_PLATFORM": platform}, "linux"), platform
    assert not no_display({}, "win32") and not no_display({}, "darwin")


def _serve_until_listening(argv, env):
    """Start ``shipsheet serve``, wait for its links, stop it with Ctrl+C (SIGINT)."""
    import signal
    import time
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "(player): http" in line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, "".join(lines) + out, err)


def test_check_warns_of_fields_a_box_kind_does_not_use(tmp_path, capsys):
    """Issue 17: an arc on a warp box loads (old files keep working) and ``check`` names it."""
    text = (resources_dir() / "ships/fedcom/sample-frigate.toml").read_text("utf-8")
    card = tmp_path / "frigate.toml"
    card.write_text(text.replace('{ id = "left-warp", kind = "left-warp", count = 3 }',
                                 '{ id = "left-warp", kind = "left-warp", count = 3, arc = "FA" }'),
                    "utf-8")
    assert main(["check", str(card)]) == 0
    out = capsys.readouterr().out
    assert "frigate.toml: OK, fedcom ship class" in out
    assert "frigate.toml: warning: boxes[" in out and "arc" in out and "ignored" in out
    main(["check", str(resources_dir() / "ships/fedcom/sample-frigate.toml")])
    assert "warning" not in capsys.readouterr().out


def test_gui_entry_point_is_the_window_alone(monkeypatch):
    """``shipsheet-gui`` (pyproject's gui-scripts): the window's arguments only, macOS's old
    ``-psn_…`` process argument dropped; a subcommand name is a file name there."""
    from shipsheet import cli
    seen = []
    monkeypatch.setattr(cli, "_window", lambda argv: seen.append(argv) or 0)
    assert cli.gui_main(["-psn_0_12345", "game.shipsheet"]) == 0
    assert cli.gui_main(["check"]) == 0
    assert seen == [["game.shipsheet"], ["check"]]
    from importlib.metadata import entry_points
    [point] = [p for p in entry_points(group="gui_scripts") if p.name == "shipsheet-gui"]
    assert point.value == "shipsheet.cli:gui_main"  # installed beside the console script


def test_the_windows_common_starts_are_read_as_the_parser_reads_them(monkeypatch):
    """No argument, or one file (as a double-click hands it over), is read without building
    argparse's parser (start-up), and means what the parser makes of it; anything else goes
    to the parser, which answers in its own words."""
    from shipsheet import cli
    common = [[], ["fleet.shipsheet"], ["My Fleet.shipsheet", "--quit-after-startup"],
              ["--quit-after-startup"], ["--quit-after-startup", "C:\\games\\fleet.shipsheet"]]
    expected = []
    for argv in common:
        args = cli._app_parser().parse_args(argv)
        expected.append((args.file, args.quit_after_startup))

    def no_parser():
        raise AssertionError("the parser was built for a common start")
    monkeypatch.setattr(cli, "_app_parser", no_parser)
    assert [cli._window_args(argv) for argv in common] == expected
    monkeypatch.undo()
    for argv, code in ((["--help"], 0), (["a.shipsheet", "b.shipsheet"], 2), (["-x"], 2),
                       (["--frobnicate"], 2)):
        with pytest.raises(SystemExit) as stop:
            cli._window_args(argv)
        assert stop.value.code == code, argv

"""The command line: version, module entry point, check."""

import subprocess
import sys

from shipsheet import __version__
from shipsheet.cli import main
from shipsheet.model import save_session
from shipsheet.model.paths import resources_dir

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "model"))
from sessions import three_ship_session  # noqa: E402


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

"""Continuous integration: the GitHub workflows, their one entry point (packaging/ci.py)
and the Windows installer script, checked offline.

check-jsonschema (a test extra) carries GitHub's workflow schema: nothing is downloaded.
The workflows themselves only run on GitHub; what they call is tested here."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
OSES = ["ubuntu-latest", "windows-latest", "macos-latest"]
# The newest Python the dependencies have wheels for (PySide6-Essentials below 6.12:
# Requires-Python <3.15). Raise it with that pin.
NEWEST_PYTHON = "3.14"

_spec = importlib.util.spec_from_file_location("shipsheet_ci", ROOT / "packaging" / "ci.py")
ci = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ci)


def load(name):
    from ruamel.yaml import YAML  # check-jsonschema's YAML reader
    return YAML(typ="safe").load((WORKFLOWS / name).read_text(encoding="utf-8"))


def validate(*paths):
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema",
                           "vendor.github-workflows", *map(str, paths)],
                          capture_output=True, text=True, timeout=120)


def test_both_workflows_match_githubs_schema():
    run = validate(WORKFLOWS / "test.yml", WORKFLOWS / "release.yml")
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_schema_check_does_reject_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    stepz: []\n")
    run = validate(broken)
    assert run.returncode != 0 and "stepz" in run.stdout


def oldest_python():
    import tomllib
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    return re.fullmatch(r">=\s*(\d+\.\d+)", requires).group(1)


def run_lines(job):
    return [step["run"].strip() for step in job["steps"] if "run" in step]


def test_suite_runs_on_three_systems_with_oldest_and_newest_python():
    flow = load("test.yml")
    [job] = flow["jobs"].values()
    assert job["strategy"]["matrix"]["os"] == OSES
    assert job["strategy"]["matrix"]["python"] == [oldest_python(), NEWEST_PYTHON]
    assert job["strategy"]["fail-fast"] is False
    assert job["env"]["QT_QPA_PLATFORM"] == "offscreen"
    assert run_lines(job) == ["python packaging/ci.py test"]
    # ... the entry point .ci/run calls here.
    assert "python3 packaging/ci.py test" in (ROOT / ".ci" / "run").read_text()


def test_release_builds_the_three_installers_as_artefacts():
    flow = load("release.yml")
    [job] = flow["jobs"].values()
    assert job["strategy"]["matrix"]["os"] == OSES
    assert "python packaging/ci.py build" in run_lines(job)
    [upload] = [s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    paths = upload["with"]["path"].split()
    assert {"dist/ShipSheet-*-setup.exe", "dist/ShipSheet-*.zip", "dist/ShipSheet-*.dmg",
            "dist/ShipSheet-*.tar.gz"} <= set(paths)


def test_ci_test_is_make_test_where_make_is(monkeypatch):
    calls = []
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setattr(ci.shutil, "which", lambda name: "/usr/bin/make" if name == "make" else None)
    monkeypatch.setattr(ci.os, "name", "posix")
    monkeypatch.setattr(ci.subprocess, "run", lambda cmd, **kw: calls.append((cmd, kw)) or
                        subprocess.CompletedProcess(cmd, 0))
    assert ci.main(["test"]) == 0
    [(cmd, kw)] = calls
    assert cmd == ["/usr/bin/make", "test"] and kw["cwd"] == ci.ROOT and kw["timeout"]


def test_ci_test_without_make_does_make_tests_steps(monkeypatch, tmp_path):
    calls = []
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setattr(ci.shutil, "which", lambda name: None)
    python = tmp_path / "venv-python"
    monkeypatch.setattr(ci, "venv_python", lambda: python)
    monkeypatch.setattr(ci.subprocess, "run", lambda cmd, **kw: calls.append((cmd, kw)) or
                        subprocess.CompletedProcess(cmd, 0))
    assert ci.main(["test", "-x"]) == 0
    cmds = [[str(c) for c in cmd] for cmd, _ in calls]
    assert cmds[0] == [sys.executable, "-m", "venv", str(ci.VENV)]
    assert [str(python), "-m", "pip", "install", "--quiet", "-e", ".[test]"] in cmds
    assert [str(python), "packaging/system_deps.py", "--install"] in cmds
    assert cmds[-1] == [str(python), "-m", "pytest", "-q", "-x"]
    assert calls[-1][1]["env"]["QT_QPA_PLATFORM"] == "offscreen"
    assert all(kw.get("timeout") for _, kw in calls)


@pytest.mark.parametrize("platform, chrome", [
    ("win32", r"C:\Program Files\Google\Chrome\Application\chrome.exe"),
    ("darwin", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"),
])
def test_runner_chrome_is_named_for_the_browser_tests(platform, chrome):
    env = {"GITHUB_ACTIONS": "true", "CHROMEWEBDRIVER": "/drivers"}
    found = ci.runner_browser(env, platform, exists=lambda p: True)
    assert found["SHIPSHEET_CHROME"] == chrome
    assert Path(found["SHIPSHEET_CHROMEDRIVER"]).name.startswith("chromedriver")
    assert ci.runner_browser({}, platform, exists=lambda p: True) == {}  # not on a runner
    assert ci.runner_browser(dict(env, SHIPSHEET_CHROME="x"), platform, exists=lambda p: True) == {}


def test_inno_setup_script_uses_only_what_the_spec_defines():
    iss = (ROOT / "packaging" / "windows" / "shipsheet.iss").read_text()
    spec = (ROOT / "packaging" / "shipsheet.spec").read_text()
    used = set(re.findall(r"\{#(\w+)\}", iss))
    defined_here = set(re.findall(r"#define (\w+)", iss))
    from_spec = set(re.findall(r'^\s*"(\w+)": ', spec.split("defines = {", 1)[1].split("}", 1)[0], re.M))
    assert used and used <= defined_here | from_spec, used - defined_here - from_spec
    # The .shipsheet association: the type, its program id, and how it opens.
    assert "ChangesAssociations=yes" in iss
    assert 'Subkey: "Software\\Classes\\{#FileExt}"' in iss
    assert '""{app}\\{#GuiExe}"" ""%1""' in iss
    assert "SetupIconFile=..\\icons\\shipsheet.ico" in iss


def test_linux_only_tests_are_skipped_elsewhere_with_the_rule(monkeypatch):
    """tests/conftest.py's hook, with the platform faked: ``linux_only`` tests get a skip
    that states the rule on Windows and macOS, nothing on Linux; no other test is touched."""
    spec = importlib.util.spec_from_file_location("suite_conftest", ROOT / "tests" / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)

    class Item:
        def __init__(self, *marks):
            self.keywords = dict.fromkeys(marks, True)
            self.added = []

        def add_marker(self, mark):
            self.added.append(mark)

    for platform, skipped in (("win32", True), ("darwin", True), ("linux", False)):
        marked, plain = Item("linux_only"), Item("slow")
        monkeypatch.setattr(conftest.sys, "platform", platform)
        conftest.pytest_collection_modifyitems(None, [marked, plain])
        monkeypatch.undo()
        assert plain.added == []
        if skipped:
            [mark] = marked.added
            assert mark.name == "skip" and "apt-get" in mark.kwargs["reason"]
        else:
            assert marked.added == []
    # The rule is written where --markers shows it.
    import tomllib
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith("linux_only: ") and "apt-get" in m for m in markers)

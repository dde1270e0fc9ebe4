"""The model and the rules never import Qt (checked in the source and at run time)."""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "shipsheet"
QT = ("PySide6", "shiboken6", "PyQt5", "PyQt6")


def test_no_qt_import_in_model_or_rules_source():
    offenders = []
    for folder in ("model", "rules"):
        for path in (PACKAGE / folder).rglob("*.py"):
            tree = ast.parse(path.read_text("utf-8"))
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                elif isinstance(node, ast.ImportFrom) and node.level > 0 and node.module:
                    names = [node.module] if node.module.split(".")[0] in ("ui", "sheets", "printing") else []
                    if names:
                        offenders.append(f"{path}: imports the Qt layer {node.module}")
                        continue
                offenders += [f"{path}: {n}" for n in names if n.split(".")[0] in QT]
    assert offenders == []


def test_importing_model_and_every_game_loads_no_qt():
    code = ("import sys, shipsheet.model, shipsheet.model.autosave, shipsheet.rules.war_in_space, "
            "shipsheet.rules.triplanetary, shipsheet.rules.fedcom; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')]; "
            "assert not bad, bad")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr

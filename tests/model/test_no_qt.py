"""The model, the rules and the PBEM desk's core never import Qt (checked in the source and
at run time). ``share/`` draws sheets with Qt by design and is not among them."""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "shipsheet"
QT = ("PySide6", "shiboken6", "PyQt5", "PyQt6")


#: The folders of the package that hold no Qt.
NO_QT = ("model", "rules", "pbem")


def test_no_qt_import_in_model_rules_or_pbem_source():
    offenders = []
    for folder in NO_QT:
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


def test_importing_model_every_game_and_pbem_loads_no_qt():
    modules = sorted(".".join(("shipsheet",) + p.relative_to(PACKAGE).with_suffix("").parts)
                     for folder in NO_QT for p in (PACKAGE / folder).rglob("*.py")
                     if p.name != "__init__.py")
    assert "shipsheet.pbem.orders" in modules and "shipsheet.rules.fedcom.boxes" in modules
    code = ("import sys, importlib\n"
            f"for name in {modules!r}: importlib.import_module(name)\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')]\n"
            "assert not bad, bad")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr

"""Every test ``shipsheet/rules/RULES.md`` (and each game's RULES.md) names as a rule's proof
exists: a renamed or removed test leaves no rule unproven unseen."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_CELL = re.compile(r"`((?:tests/)?[\w/.-]+\.py)?(::\w+)`")


def _tests_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    return {node.name for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name.startswith("test")}


def _named(rules: Path) -> list[tuple[str, str, str]]:
    """(table row's first words, test file, test name) of every test the file names. A
    ``::name`` with no file is in the last file named on its row."""
    out = []
    for line in rules.read_text("utf-8").splitlines():
        if not line.startswith("|"):
            continue
        current = None
        for file, name in _CELL.findall(line.split("|")[-2] if line.count("|") > 2 else ""):
            if file:
                current = file
            if current is not None:
                out.append((line[:60], current, name[2:]))
    return out


def test_every_test_a_rules_table_names_exists():
    missing = []
    tables = [ROOT / "shipsheet" / "rules" / "RULES.md",
              *sorted((ROOT / "shipsheet" / "rules").glob("*/RULES.md"))]
    named = 0
    for rules in tables:
        for row, file, name in _named(rules):
            path = ROOT / file if file.startswith("tests/") else \
                ROOT / "tests" / "rules" / rules.parent.name / file.split("/")[-1]
            if not path.exists():
                path = next(ROOT.glob(f"tests/**/{Path(file).name}"), path)
            named += 1
            if not path.exists() or name not in _tests_of(path):
                missing.append(f"{rules.relative_to(ROOT)}: {file}::{name} ({row.strip()}…)")
    assert named > 100
    assert not missing, "\n".join(missing)

"""The shape of the code: layers import downwards only, and no package imports itself
in a circle (not even through an import tucked inside a function), and no module names a
module of a layer above it in a string either (a lazy import by name is an import).

Layers, from the bottom: ``model`` (and ``version``); ``rules``; ``pbem`` and ``sheets``;
``printing`` and ``share``; ``ui``; ``cli``. A module may import its own layer and the ones
below it. The package root (``shipsheet/__init__.py``) is above them all: it wires the
games' registrations in (``shipsheet.model.games``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "shipsheet"
LAYERS = {"model": 0, "version": 0, "rules": 1, "pbem": 2, "sheets": 2, "printing": 3,
          "share": 3, "ui": 4, "cli": 5, "__main__": 5, "__init__": 6}
#: A module of ShipSheet named in a string: ``shipsheet.ui.games.fedcom``, ``"shipsheet.sheets"``.
NAMED = re.compile(r"\bshipsheet\.(\w+)")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(module: str, node: ast.ImportFrom | ast.Import, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    found = [target]
    for alias in node.names:  # from package import submodule
        if f"{target}.{alias.name}" in MODULES:
            found.append(f"{target}.{alias.name}")
    return found


def imports() -> dict[str, set[str]]:
    """module -> the shipsheet modules it imports, anywhere in its code."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text("utf-8"))
        is_package = path.name == "__init__.py"
        typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(block.test) for n in ast.walk(block)}
        targets = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in typing_only:
                targets |= {t for t in _resolve(name, node, is_package) if t in MODULES}
        graph[name] = targets - {name}
    return graph


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS[parts[1] if len(parts) > 1 else "__init__"]


def test_layers_import_downwards_only():
    wrong = [f"{m} imports {t}" for m, targets in imports().items() for t in targets
             if layer(t) > layer(m)]
    assert not wrong, "\n".join(sorted(wrong))


def named_in_strings() -> dict[str, set[str]]:
    """module -> the layers (by their package name) it names in string literals other than
    docstrings: ``"shipsheet.ui.panels.fedcom:Panel"`` names the ``ui`` layer."""
    found: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text("utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                           ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings):
                found.setdefault(name, set()).update(
                    m.group(1) for m in NAMED.finditer(node.value) if m.group(1) in LAYERS)
    return found


def test_no_module_names_a_module_of_a_higher_layer_in_a_string():
    wrong = [f"{m} names shipsheet.{target} in a string" for m, targets in named_in_strings().items()
             for target in targets if LAYERS[target] > layer(m)]
    assert not wrong, "\n".join(sorted(wrong))


def test_the_string_check_sees_a_lazy_import_of_a_higher_layer(tmp_path, monkeypatch):
    """As the games table did: the model naming the window's panels in strings."""
    sample = tmp_path / "shipsheet" / "model" / "table.py"
    sample.parent.mkdir(parents=True)
    sample.write_text('"""A table."""\nPANEL = "shipsheet.ui.panels.fedcom:Panel"\n')
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    monkeypatch.setattr(__import__(__name__), "MODULES", {"shipsheet.model.table": sample})
    assert named_in_strings() == {"shipsheet.model.table": {"ui"}}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_package_imports_itself_in_a_circle():
    """A package's ``__init__`` gathering its modules is not a circle; a module reaching back
    to a module that (through others) imports it is, wherever the import statement sits."""
    graph = imports()
    inner = {m: {t for t in targets if not MODULES[t].name == "__init__.py"}
             for m, targets in graph.items()}
    cycles = _cycles(inner)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_check_sees_a_cycle_and_a_wrong_layer():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert layer("shipsheet.model.games") < layer("shipsheet.ui.app")

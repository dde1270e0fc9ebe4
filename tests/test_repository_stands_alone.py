"""The repository stands alone: no document, comment or test points to a folder outside it.

Rule sources are named in the project's own words (shipsheet/rules/RULES.md), not by a
path to a file somebody else has."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = re.compile(r"\.\./shared|shared/(seeds|spec)|/work/|rules-(fedcom|triplanetary|war-in-space)\.md"
                     r"|product\.md|style\.md")
SKIP = {".venv", ".git", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis"}


def _text_files():
    for path in ROOT.rglob("*"):
        if SKIP & set(path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix in {".md", ".py", ".toml", ".sh", ".txt", ".cfg", ".spec", ".xml", ".desktop"} \
                or path.name in {"Makefile", "run"}:
            yield path


def test_no_file_points_outside_the_repository():
    this = Path(__file__).resolve()
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in _text_files() if p.resolve() != this
             for n, line in enumerate(p.read_text("utf-8", "replace").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert not found, "\n".join(found)

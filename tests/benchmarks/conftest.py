"""Benchmarks (``make bench``): each records its figure, target and verdict in one table.

At the end the table is printed and written to tests/benchmarks/RESULTS.md
with the date and the machine.
"""

from __future__ import annotations

import os
import platform
import sys
from datetime import datetime
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

_ROWS: list[tuple[str, str, str, bool]] = []


def _verdict(ok: bool | None) -> str:
    return "reference" if ok is None else "pass" if ok else "FAIL"


class Report:
    def add(self, name: str, figure: str, target: str, ok: bool | None) -> None:
        """One row; ``ok`` None for a reference figure that has no target."""
        _ROWS.append((name, figure, target, ok))
        print(f"\n{name}: {figure} (target {target}) {_verdict(ok).upper()}")


@pytest.fixture
def report() -> Report:
    return Report()


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}")


def pytest_sessionfinish(session, exitstatus):
    if not _ROWS:
        return
    from PySide6 import __version__ as pyside
    lines = [
        "# Benchmark results",
        "",
        f"Run with `make bench` on {datetime.now().strftime('%Y-%m-%d %H:%M')}; "
        f"machine: {_machine()}; PySide6 {pyside}.",
        "",
        "| figure | measured | target | verdict |",
        "| --- | --- | --- | --- |",
    ]
    lines += [f"| {n} | {f} | {t} | {_verdict(ok)} |" for n, f, t, ok in _ROWS]
    text = "\n".join(lines) + "\n"
    print("\n\n" + text)
    # Only a run of the whole folder rewrites the table (a single file's run would drop the
    # other rows).
    whole = all(Path(a).resolve() == Path(__file__).parent for a in session.config.args)
    if whole and "-k" not in sys.argv:
        (Path(__file__).parent / "RESULTS.md").write_text(text)

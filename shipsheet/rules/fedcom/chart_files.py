"""Damage Allocation Chart files for the chart editor: a blank chart, validation, writing.

Like ship class files (``shipsheet.model.classfiles``): validated by the loader's own
``parse_chart``, written with tomlkit into the file they were read from, so a user's
comments survive a save.
"""

from __future__ import annotations

from pathlib import Path

import tomlkit

from shipsheet.model.classfiles import Problem, faithful_text, split_message, write_file
from shipsheet.model.errors import ShipDefinitionError
from shipsheet.model.paths import user_charts_dir
from shipsheet.model.ship import clone
from shipsheet.model.toml_files import to_text

from .card import STANDARD_KINDS
from .chart import COLUMNS, FRAME, ROWS, Chart, load_chart, parse_chart, split_cell


def is_chart_data(data: object) -> bool:
    """A chart file has ``rows``; a ship definition has ``class``."""
    return isinstance(data, dict) and "rows" in data and "class" not in data


def library_kinds() -> list[str]:
    """The kinds the library knows: the standard ones, then the ship classes' own kinds."""
    from shipsheet.model.library import list_classes
    kinds = list(STANDARD_KINDS)
    for cls in list_classes("fedcom"):
        for kind in getattr(cls.spec, "extra_kinds", {}):
            if kind not in kinds:
                kinds.append(kind)
    return kinds


def chart_data(name: str, rows: list[list[str]], *, notes: str = "", sample: bool = False,
               own_kinds: list[str] = ()) -> dict:
    """A chart as its file holds it, from what the editor's fields say: its own kinds, and
    those of the library's ship classes its cells use, declared as ``extra_kinds`` (a kind
    beyond the standard ones is refused unless the chart declares it)."""
    data: dict = {"game": "fedcom", "name": name.strip()}
    if sample:
        data["sample"] = True
    if notes.strip():
        data["notes"] = notes.strip()
    used = {part for row in rows for text in row for part in split_cell(text) if part}
    extra = list(own_kinds)
    known = library_kinds()  # kinds of the ship classes, declared for the chart as used
    extra += sorted(k for k in used if k not in STANDARD_KINDS and k != FRAME
                    and k not in extra and k in known)
    if extra:
        data["extra_kinds"] = extra
    data["rows"] = rows
    return data


def blank_chart() -> dict:
    """A chart whose cells are still to be picked (each empty cell is reported in turn)."""
    return {"game": "fedcom", "name": "New chart", "rows": [[""] * COLUMNS for _ in range(ROWS)]}


def check_chart(data: dict, stem: str) -> tuple[Chart | None, Problem | None]:
    """Validate a chart as the loader would a file ``<stem>.toml``."""
    source = f"{stem or 'chart'}.toml"
    try:
        return parse_chart(clone(data), source, stem or "chart"), None
    except ShipDefinitionError as exc:
        return None, split_message(str(exc), source)


def user_chart_path(stem: str) -> Path:
    """``<user data>/charts/fedcom/<stem>.toml``: where the chart list finds the user's charts."""
    return user_charts_dir() / "fedcom" / f"{stem}.toml"


def chart_text(data: dict, document: tomlkit.TOMLDocument | None = None) -> str:
    """The TOML text of a chart: written into ``document`` when given, else a new file
    with a short header."""
    header = [f"{data.get('name', 'Chart')}: a Damage Allocation Chart made with the "
              "ShipSheet designer.",
              "Six rows (the d6 roll), ten columns; a cell is a primary kind and an "
              'optional alternate after "/";',
              "frame is only ever the alternate of column 10."]
    return to_text(data, document, header)


def save_chart(data: dict, path: str | Path, document: tomlkit.TOMLDocument | None = None) -> Chart:
    """Write a chart (refused with ShipDefinitionError unless it validates); load it back."""
    path = Path(path)
    text = faithful_text(data, chart_text, document, path.name)
    _, problem = check_chart(data, path.stem)
    if problem is not None:
        raise ShipDefinitionError(problem.message)
    write_file(path, text)
    return load_chart(path)


__all__ = ["blank_chart", "chart_data", "chart_text", "check_chart", "is_chart_data",
           "library_kinds", "save_chart", "user_chart_path"]

"""Damage Allocation Charts: TOML files of six rows of ten cells.

A chart file::

    name = "Training chart"
    sample = true                       # optional: a ShipSheet sample
    notes = "..."                       # optional
    extra_kinds = ["fighter-bay"]       # optional: kinds beyond the standard ones
    rows = [
      ["bridge", "phaser", "torpedo/lab", ..., "lab/frame"],   # ten cells
      ...                                                      # six rows
    ]

Each cell names a primary kind and may name an alternate after a ``/``
[FC]. Frame is only ever the alternate of column 10
[seed 8FC2] "Frame damage will only be scored (by this procedure) as the
alternate to the last damage point on a given Damage Allocation Chart."

Charts are found in the bundled ``resources/charts/fedcom/`` and the user's
``<data folder>/charts/fedcom/``; a chart's id is its file stem, and the
user's file wins over a bundled one of the same id.
"""

from __future__ import annotations

import re
from ...model.code_cache import dataclass
from pathlib import Path
from typing import Any

from shipsheet.model.errors import RuleViolation, ShipDefinitionError
from shipsheet.model.keypath import Node
from shipsheet.model.library import load_folder, read_toml_file
from shipsheet.model.paths import resources_dir, user_charts_dir

from .card import STANDARD_KINDS, check_extra_kind

ROWS = 6
COLUMNS = 10
FRAME = "frame"
#: The chart used when a session has chosen none.
DEFAULT_CHART = "training"
MAX_CHART_BYTES = 100_000


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of the chart: a primary kind and an optional alternate."""

    primary: str
    alternate: str | None = None

    @property
    def text(self) -> str:
        return self.primary if self.alternate is None else f"{self.primary}/{self.alternate}"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, eq=False)
class Chart:
    """A validated Damage Allocation Chart: ``rows[row - 1][column - 1]`` is a Cell."""

    id: str
    name: str
    rows: tuple[tuple[Cell, ...], ...]
    notes: str = ""
    sample: bool = False
    source: str = ""
    extra_kinds: tuple[str, ...] = ()

    def cell(self, row: int, column: int) -> Cell:
        """The cell at die roll ``row`` (1..6) and ``column`` (1..10)."""
        return self.rows[row - 1][column - 1]

    def to_json(self) -> dict:
        """The chart as plain data (stored in a session so it replays anywhere)."""
        data: dict[str, Any] = {"name": self.name,
                                "rows": [[c.text for c in row] for row in self.rows]}
        if self.notes:
            data["notes"] = self.notes
        if self.sample:
            data["sample"] = True
        if self.extra_kinds:
            data["extra_kinds"] = list(self.extra_kinds)
        return data


def parse_chart(data: object, source: str = "", chart_id: str = "",
                error: type[Exception] = ShipDefinitionError) -> Chart:
    """Validate a chart given as plain data; errors name ``source`` and the position."""
    root = Node(data, source, "", error).table()
    root.only_keys("name", "rows", "notes", "sample", "extra_kinds", "game")
    if root.has("game"):
        root.get("game").str(choices=("fedcom",))
    name = root.get("name").str(max_len=120)
    notes = root.get("notes", "").str(nonempty=False, max_len=4000)
    sample = root.get("sample", False).bool()
    extra: list[str] = []
    for item in root.get("extra_kinds", []).list(max_len=50):
        kind = item.str(max_len=30)
        check_extra_kind(item, kind)
        extra.append(kind)
    known = set(STANDARD_KINDS) | set(extra)

    rows_node = root.get("rows")
    rows_list = rows_node.list()
    if len(rows_list) != ROWS:
        rows_node.fail(f"a chart has {ROWS} rows (one per die roll), found {len(rows_list)}")
    rows = []
    for row_node in rows_list:
        cells_list = row_node.list()
        if len(cells_list) != COLUMNS:
            row_node.fail(f"a row has {COLUMNS} cells, found {len(cells_list)}")
        cells = []
        for col, cell_node in enumerate(cells_list, start=1):
            cells.append(_parse_cell(cell_node, col, known))
        rows.append(tuple(cells))
    return Chart(chart_id or (Path(source).stem if source else name), name, tuple(rows),
                 notes, sample, source, tuple(extra))


def split_cell(text: str) -> list[str]:
    """A chart cell's kinds as written ("power/hull"): the primary kind, then the alternate
    if any, each without the spaces round it (a well-formed cell has one or two; the chart's
    check refuses others). The one reading of a cell: the chart file's and the editor's."""
    return [part.strip() for part in text.split("/")]


def _parse_cell(node: Node, column: int, known: set[str]) -> Cell:
    text = node.str(max_len=80)
    parts = split_cell(text)
    if len(parts) > 2:
        node.fail(f'"{text}": a cell names a primary kind and at most one alternate')
    for part in parts:
        if not part:
            node.fail(f'"{text}": empty kind name')
        if part != FRAME and part not in known:
            node.fail(f'unknown kind "{part}" (known: {", ".join(sorted(known))}, and frame '
                      f'as the alternate of column {COLUMNS}; a chart\'s own kinds go in '
                      f'extra_kinds)')
    primary = parts[0]
    alternate = parts[1] if len(parts) == 2 else None
    if primary == FRAME:
        node.fail('frame is never a primary kind: it is only the alternate of column '
                  f'{COLUMNS} [8FC2]')
    if alternate == FRAME and column != COLUMNS:
        node.fail(f"frame is only the alternate of column {COLUMNS} [8FC2], "
                  f"not of column {column}")
    if alternate == primary:
        node.fail(f'"{text}": the alternate repeats the primary kind')
    return Cell(primary, alternate)


def load_chart(path: str | Path) -> Chart:
    """Load and validate one chart file; errors name the file and the first bad position."""
    path = Path(path)
    data = read_toml_file(path, "a chart", MAX_CHART_BYTES)
    return parse_chart(data, path.name, path.stem)


# -- finding charts ------------------------------------------------------------------

@dataclass(frozen=True)
class ChartInfo:
    """A chart file found on disk: its id, name, where it is, whether it is the user's."""

    id: str
    name: str
    path: Path
    user: bool
    sample: bool


def chart_folders() -> list[tuple[Path, bool]]:
    """The folders charts are read from: bundled first, then the user's (which wins)."""
    return [(resources_dir() / "charts" / "fedcom", False), (user_charts_dir() / "fedcom", True)]


def _scan() -> tuple[dict[str, tuple[Chart, Path, bool]], list[str]]:
    found: dict[str, tuple[Chart, Path, bool]] = {}
    problems: list[str] = []
    for folder, user in chart_folders():
        loaded, bad = load_folder(folder, load_chart, "charts/fedcom/")
        problems.extend(bad)
        for path, chart in loaded:
            found[chart.id] = (chart, path, user)
    return found, problems


def list_charts() -> list[ChartInfo]:
    """Every usable chart, bundled and the user's, sorted by name."""
    found, _ = _scan()
    infos = [ChartInfo(cid, chart.name, path, user, chart.sample)
             for cid, (chart, path, user) in found.items()]
    return sorted(infos, key=lambda i: (i.name.casefold(), i.id))


def chart_problems() -> list[str]:
    """Messages for chart files that were skipped because they do not validate."""
    return _scan()[1]


def get_chart(chart_id: str = DEFAULT_CHART) -> Chart:
    """The chart with this id (file stem), the user's first; refuses an unknown id."""
    for folder, _user in reversed(chart_folders()):
        path = folder / f"{chart_id}.toml"
        if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", chart_id or "") and path.is_file():
            return load_chart(path)
    known = ", ".join(i.id for i in list_charts()) or "none"
    raise RuleViolation(f'There is no damage allocation chart "{chart_id}" (charts: {known}).')


_default: Chart | None = None


def default_chart() -> Chart:
    """The bundled training chart (cached)."""
    global _default
    if _default is None:
        _default = load_chart(resources_dir() / "charts" / "fedcom" / f"{DEFAULT_CHART}.toml")
    return _default


# -- the session's choice --------------------------------------------------------------

#: Session option keys: the chosen chart's id, and a copy of it (so the session
#: replays the same chart on a machine that lacks the file).
OPTION_CHART = "chart"
OPTION_CHART_DATA = "chart_data"


def session_chart(options: dict) -> Chart:
    """The chart a session uses: ``options["chart"]`` (a chart id), read from the copy the
    session keeps (``options["chart_data"]``, so it replays on a machine without the
    file), else from the chart files; the training chart when none was chosen."""
    chart_id = options.get(OPTION_CHART)
    if chart_id is None:
        return default_chart()
    if not isinstance(chart_id, str):
        raise RuleViolation(f"The session's chart choice {chart_id!r} is not a chart id. "
                            "Choose a chart again.")
    data = options.get(OPTION_CHART_DATA)
    if isinstance(data, dict) and data.get("id") == chart_id:
        data = {k: v for k, v in data.items() if k != "id"}
        try:
            return parse_chart(data, f'the session\'s chart "{chart_id}"', chart_id)
        except ShipDefinitionError as exc:
            raise RuleViolation(f"{exc}. Choose a chart again.") from None
    return get_chart(chart_id)


CHART_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def check_chart_options(chart_node: Node, data_node: Node) -> None:
    """A session file's chart choice: absent, or a chart id (file-stem letters) whose kept
    copy, when there is one, is that chart and validates (SessionFileError naming the key)."""
    if chart_node.value is None:
        if data_node.value is not None:
            data_node.table()
        return
    chart_id = chart_node.str(max_len=64)
    if not CHART_ID.fullmatch(chart_id):
        chart_node.fail(f'"{chart_id}" is not a chart id (letters, digits, "-", "_", ".")')
    if data_node.value is None:
        return
    data_node.table()
    if data_node.value.get("id") != chart_id:
        return  # a copy of another chart: not used (session_chart reads the chart files)
    data = {k: v for k, v in data_node.value.items() if k != "id"}
    try:
        parse_chart(data, "", chart_id)
    except ShipDefinitionError as exc:
        data_node.fail(f"the kept chart does not validate: {exc}")


def chart_options(chart: Chart) -> dict:
    """The session options that choose ``chart`` (its id and a copy of it)."""
    return {OPTION_CHART: chart.id, OPTION_CHART_DATA: {"id": chart.id, **chart.to_json()}}


__all__ = ["COLUMNS", "Cell", "Chart", "ChartInfo", "DEFAULT_CHART", "FRAME", "ROWS",
           "chart_problems", "default_chart", "get_chart", "list_charts", "load_chart",
           "chart_options", "parse_chart", "session_chart"]

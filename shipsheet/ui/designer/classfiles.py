"""Ship class and chart files for the designer: templates, names, validation, reading, writing.

No Qt here. Validation is the loader's own (``parse_ship_class``,
``parse_chart``), so the designer shows exactly the messages a file would
get; :func:`split_message` finds the key path in such a message so the
window can show it at the field it names.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from shipsheet.model.errors import ShipDefinitionError
from shipsheet.model.games import GAME_IDS
from shipsheet.model.library import load_ship_class, parse_ship_class, read_toml_document
from shipsheet.model.paths import user_charts_dir, user_ships_dir
from shipsheet.model.ship import ShipClass, clone
from shipsheet.model.storage import write_atomic
from shipsheet.model.toml_writer import Comments, dumps, extract_comments
from shipsheet.rules.fedcom.chart import COLUMNS, ROWS, Chart, load_chart, parse_chart

#: File names (stems) the designer saves under: the class id is ``<game>/<stem>``.
STEM_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")
_SLUG = re.compile(r"[^a-z0-9]+")
#: A key path at the start of a loader message: ``boxes[12].arc``, ``suits.hearts[1]``.
_PATH_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*(?:\[\d+\]|\.[A-Za-z0-9_-]+)*$")


# -- templates ---------------------------------------------------------------------------

def blank_definition(game: str) -> dict:
    """A small valid class to start from, so the preview shows at once (the game's piece)."""
    from shipsheet.model.games import piece
    return piece(game, "blank_definition")()


def blank_chart() -> dict:
    """A chart whose cells are still to be picked (each empty cell is reported in turn)."""
    return {"game": "fedcom", "name": "New chart", "rows": [[""] * COLUMNS for _ in range(ROWS)]}


def slug(name: str, fallback: str = "my-class") -> str:
    """A file name for a class or chart name: ``"Vigilant-class Cruiser"`` -> ``vigilant-class-cruiser``."""
    text = _SLUG.sub("-", name.strip().lower()).strip("-")
    if len(text) > 40:  # a short file name, cut at a word
        text = text[:41].rsplit("-", 1)[0] if "-" in text[:41] else text[:40]
    return text.strip("-") or fallback


def stem_problem(stem: str) -> str | None:
    """Why ``stem`` cannot be a file name, or None."""
    if not stem:
        return "the file name must not be empty"
    if not STEM_RE.fullmatch(stem):
        return (f'"{stem}" is not a usable file name (letters, digits, "-", "_" and "."; '
                f"starting with a letter or digit; at most 80 characters)")
    return None


# -- validation -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    """A validation message split for display: the full text, its key path and its words."""

    message: str  # as the file loader says it: "ca.toml: boxes[12].arc: unknown arc "FQ""
    path: str  # "boxes[12].arc" ("" when it names no key)
    text: str  # "unknown arc "FQ""


def top_key(path: str) -> str:
    """The top-level key a key path names: ``boxes[12].arc`` -> ``boxes``."""
    return path.split(".")[0].split("[")[0]


def split_message(message: str, source: str = "") -> Problem:
    """Find the key path in a loader message (``<source>: <path>: <text>``)."""
    rest = message
    if source and rest.startswith(source + ": "):
        rest = rest[len(source) + 2:]
    head, sep, tail = rest.partition(": ")
    if sep and _PATH_RE.match(head):
        return Problem(message, head, tail)
    return Problem(message, "", rest)


def check_definition(data: dict, stem: str) -> tuple[ShipClass | None, Problem | None]:
    """Validate a definition as the loader would a file ``<stem>.toml``."""
    source = f"{stem or 'class'}.toml"
    game = data.get("game") if isinstance(data, dict) else None
    class_id = f"{game}/{stem}" if isinstance(game, str) and stem else None
    try:
        return parse_ship_class(clone(data), source, class_id), None
    except ShipDefinitionError as exc:
        return None, split_message(str(exc), source)


def check_chart(data: dict, stem: str) -> tuple[Chart | None, Problem | None]:
    """Validate a chart as the loader would a file ``<stem>.toml``."""
    source = f"{stem or 'chart'}.toml"
    try:
        return parse_chart(clone(data), source, stem or "chart"), None
    except ShipDefinitionError as exc:
        return None, split_message(str(exc), source)


# -- where files go -------------------------------------------------------------------------------

def user_class_path(game: str, stem: str) -> Path:
    """``<user data>/ships/<game>/<stem>.toml``: where the library finds the user's classes."""
    return user_ships_dir() / game / f"{stem}.toml"


def user_chart_path(stem: str) -> Path:
    """``<user data>/charts/fedcom/<stem>.toml``: where the chart list finds the user's charts."""
    return user_charts_dir() / "fedcom" / f"{stem}.toml"


# -- reading ------------------------------------------------------------------------------------------

def read_toml(path: str | Path) -> tuple[dict, Comments]:
    """A TOML file's data and its comments; unreadable or not TOML -> ShipDefinitionError."""
    data, text = read_toml_document(path, "a ship definition or chart")
    return data, extract_comments(text)


def is_chart_data(data: object) -> bool:
    """A chart file has ``rows``; a ship definition has ``class``."""
    return isinstance(data, dict) and "rows" in data and "class" not in data


# -- writing ------------------------------------------------------------------------------------------

def definition_text(data: dict, comments: Comments | None = None) -> str:
    """The TOML text of a definition (comments kept where given, else a short header)."""
    header = None
    if not comments or not comments.header:
        header = [f"{data.get('class', 'Ship class')}: made with the ShipSheet designer.",
                  "Hand-editable: the format is described in the README (\"Your own ships\")."]
    return dumps(data, header=header, comments=comments)


def chart_text(data: dict, comments: Comments | None = None) -> str:
    """The TOML text of a chart (comments kept where given, else a short header)."""
    header = None
    if not comments or not comments.header:
        header = [f"{data.get('name', 'Chart')}: a Damage Allocation Chart made with the "
                  "ShipSheet designer.",
                  "Six rows (the d6 roll), ten columns; a cell is a primary kind and an "
                  'optional alternate after "/";',
                  "frame is only ever the alternate of column 10."]
    return dumps(data, header=header, comments=comments)


def _write(path: Path, text: str) -> None:
    """Write atomically; make sure the file's time changes so the library sees the edit."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        before = path.stat().st_mtime_ns
    except OSError:
        before = None
    write_atomic(path, text.encode("utf-8"))
    if before is not None:
        after = path.stat()
        if after.st_mtime_ns <= before:
            # The library re-reads a folder when a file's time or size changes; a quick
            # second save of the same size within the clock's resolution would be missed.
            os.utime(path, ns=(after.st_atime_ns, before + 1_000))


def _faithful_text(data: dict, make, comments: Comments | None, label: str) -> str:
    """The text to write, checked to read back as ``data`` (without the comments if they spoil it)."""
    for attempt in ((comments, None) if comments else (None,)):
        text = make(data, attempt)
        try:
            if tomllib.loads(text) == data:
                return text
        except tomllib.TOMLDecodeError:
            pass
    raise ShipDefinitionError(f"{label}: could not be written faithfully as TOML")


def save_definition(data: dict, path: str | Path, comments: Comments | None = None) -> ShipClass:
    """Write a definition (refused with ShipDefinitionError unless it validates); load it back."""
    path = Path(path)
    text = _faithful_text(data, definition_text, comments, path.name)  # checked before writing
    _, problem = check_definition(data, path.stem)
    if problem is not None:
        raise ShipDefinitionError(problem.message)
    _write(path, text)
    return load_ship_class(path)


def save_chart(data: dict, path: str | Path, comments: Comments | None = None) -> Chart:
    """Write a chart (refused with ShipDefinitionError unless it validates); load it back."""
    path = Path(path)
    text = _faithful_text(data, chart_text, comments, path.name)
    _, problem = check_chart(data, path.stem)
    if problem is not None:
        raise ShipDefinitionError(problem.message)
    _write(path, text)
    return load_chart(path)

"""Ship class files: names, validation, reading and writing (the designer's file logic).

Validation is the loader's own (``parse_ship_class``), so the designer shows exactly
the messages a file would get; :func:`split_message` finds the key path in such a
message so the window can show it at the field it names. Files are written with
tomlkit through :mod:`.toml_files`, merged into the file they were read from, so every
comment a user wrote survives a save. Charts (Federation Commander's) have their own
module beside their rules: ``shipsheet.rules.fedcom.chart_files``.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import tomlkit

from .errors import ShipDefinitionError
from .files import file_name_problem
from .games import piece
from .library import load_ship_class, parse_ship_class, read_toml_document
from .paths import user_ships_dir
from .ship import ShipClass, clone
from .storage import write_atomic
from .toml_files import TomlWriteError, to_text

#: File names (stems) the designer saves under: the class id is ``<game>/<stem>``.
STEM_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")
_SLUG = re.compile(r"[^a-z0-9]+")
#: A key path at the start of a loader message: ``boxes[12].arc``, ``suits.hearts[1]``.
_PATH_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*(?:\[\d+\]|\.[A-Za-z0-9_-]+)*$")


# -- templates and names --------------------------------------------------------------------

def blank_definition(game: str) -> dict:
    """A small valid class to start from, so the preview shows at once (the game's piece)."""
    return piece(game, "blank_definition")()


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
    # Every system's rules (Windows' reserved names, a trailing dot): model.files, once.
    return file_name_problem(stem) or file_name_problem(f"{stem}.toml")


# -- validation -----------------------------------------------------------------------------

class Problem:
    """A validation message split for display: the full text, its key path and its words."""

    __slots__ = ("message", "path", "text")

    def __init__(self, message: str, path: str, text: str):
        self.message = message  # as the loader says it: "ca.toml: boxes[12].arc: unknown arc "FQ""
        self.path = path  # "boxes[12].arc" ("" when it names no key)
        self.text = text  # "unknown arc "FQ""

    def __eq__(self, other) -> bool:
        return isinstance(other, Problem) and (self.message, self.path, self.text) == (
            other.message, other.path, other.text)

    def __repr__(self) -> str:
        return f"Problem({self.message!r}, {self.path!r}, {self.text!r})"


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


# -- where files go -------------------------------------------------------------------------------

def user_class_path(game: str, stem: str) -> Path:
    """``<user data>/ships/<game>/<stem>.toml``: where the library finds the user's classes."""
    return user_ships_dir() / game / f"{stem}.toml"


# -- reading ------------------------------------------------------------------------------------------

def read_toml(path: str | Path) -> tuple[dict, tomlkit.TOMLDocument]:
    """A TOML file's data and its document (its comments and layout, for the next save);
    unreadable or not TOML -> ShipDefinitionError."""
    data, text = read_toml_document(path, "a ship definition or chart")
    try:
        return data, tomlkit.parse(text)
    except Exception as exc:  # noqa: BLE001 - tomllib read it: a layout tomlkit does not keep
        raise ShipDefinitionError(f"{Path(path).name}: cannot keep its layout ({exc})") from None


# -- writing ------------------------------------------------------------------------------------------

def definition_text(data: dict, document: tomlkit.TOMLDocument | None = None) -> str:
    """The TOML text of a definition: written into ``document`` (the file it was read
    from, comments and all) when given, else a new file with a short header."""
    header = [f"{data.get('class', 'Ship class')}: made with the ShipSheet designer.",
              "Hand-editable: the format is described in the README (\"Your own ships\")."]
    return to_text(data, document, header)


def write_file(path: Path, text: str) -> None:
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


def faithful_text(data: dict, make, document, label: str) -> str:
    """The text to write, checked to read back as ``data`` (a fresh layout if the file's
    own could not hold the new data faithfully)."""
    for attempt in ((document, None) if document is not None else (None,)):
        try:
            text = make(data, attempt)
            if tomllib.loads(text) == data:
                return text
        except TomlWriteError as exc:
            raise ShipDefinitionError(f"{label}: {exc}") from None
        except (tomllib.TOMLDecodeError, ValueError, TypeError):
            pass
    raise ShipDefinitionError(f"{label}: could not be written faithfully as TOML")


def save_definition(data: dict, path: str | Path, document: tomlkit.TOMLDocument | None = None
                    ) -> ShipClass:
    """Write a definition (refused with ShipDefinitionError unless it validates); load it back.

    ``document``: the file the definition was read from (:func:`read_toml`), whose
    comments and layout the new file keeps."""
    path = Path(path)
    text = faithful_text(data, definition_text, document, path.name)  # checked before writing
    _, problem = check_definition(data, path.stem)
    if problem is not None:
        raise ShipDefinitionError(problem.message)
    write_file(path, text)
    return load_ship_class(path)


__all__ = ["Problem", "STEM_RE", "blank_definition", "check_definition", "definition_text",
           "faithful_text", "read_toml", "save_definition", "slug", "split_message",
           "stem_problem", "top_key", "user_class_path", "write_file"]

"""The ship library: bundled TOML definitions plus the user's own.

Class ids are ``<game>/<file stem>``: ``resources/ships/fedcom/ca.toml`` is
``fedcom/ca``. A user's file with the same id takes precedence over the
bundled one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, TypeVar

from .errors import RuleViolation, ShipDefinitionError, ShipSheetError
from .files import problem, read_regular
from .games import COMMON_KEYS, GAME_IDS, get_game
from .keypath import Node
from .paths import resources_dir, user_ships_dir
from .ship import Ship, ShipClass

T = TypeVar("T")

#: Definitions larger than this are refused unread (no ship needs 1 MB of TOML).
MAX_DEFINITION_BYTES = 1024 * 1024


class UnknownClassError(ShipSheetError, KeyError):
    """No ship class with that id in the library."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown ship class"


def parse_ship_class(data: object, source: str = "", class_id: str | None = None,
                     error=ShipDefinitionError) -> ShipClass:
    """Validate a definition given as plain data and return the ShipClass.

    ``source`` prefixes error messages (a file name or a key path in a session
    file); ``error`` is the exception class raised.
    """
    root = Node(data, source, "", error).table()
    game = root.get("game").str(choices=GAME_IDS)
    name = root.get("class").str(max_len=120)
    root.get("sample", False).bool()
    root.get("notes", "").str(nonempty=False, max_len=4000)
    rules = get_game(game)
    spec = rules.parse_class(root)
    if class_id is None:
        stem = Path(source).stem if source else name.lower().replace(" ", "-")
        class_id = f"{game}/{stem}"
    return ShipClass(class_id, game, name, data, spec, source)


def read_toml_document(path: str | Path, what: str, max_bytes: int = MAX_DEFINITION_BYTES
                       ) -> tuple[dict, str]:
    """A TOML file's data and text, or ShipDefinitionError naming the file and the problem."""
    path = Path(path)
    label = path.name
    try:
        raw = read_regular(path, max_bytes)
    except OSError as exc:
        raise ShipDefinitionError(f"{label}: {problem(exc)} ({what})") from None
    import tomllib  # here, not at start-up: a session file never needs it
    try:
        text = raw.decode("utf-8-sig")
        return tomllib.loads(text), text
    except UnicodeDecodeError:
        raise ShipDefinitionError(f"{label}: not a text file (TOML must be UTF-8)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ShipDefinitionError(f"{label}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ShipDefinitionError(f"{label}: nested too deeply") from None


def read_toml_file(path: str | Path, what: str, max_bytes: int = MAX_DEFINITION_BYTES) -> dict:
    """Read a TOML file (a ship definition, a chart) or raise ShipDefinitionError naming it."""
    return read_toml_document(path, what, max_bytes)[0]


def load_ship_class(path: str | Path) -> ShipClass:
    """Load and validate one TOML ship definition file."""
    path = Path(path)
    data = read_toml_file(path, "a ship definition")
    game = data.get("game")
    class_id = f"{game}/{path.stem}" if isinstance(game, str) else None
    return parse_ship_class(data, path.name, class_id)


def load_folder(folder: Path, loader: Callable[[Path], T], label: str
                ) -> tuple[list[tuple[Path, T]], list[str]]:
    """Load every ``*.toml`` of ``folder`` (in name order) with ``loader``.

    A file that does not validate becomes a problem line (``label`` + its message)
    instead of hiding the others: one bad file never empties a library.
    """
    loaded: list[tuple[Path, T]] = []
    problems: list[str] = []
    if folder.is_dir():
        for path in sorted(folder.glob("*.toml")):
            try:
                loaded.append((path, loader(path)))
            except ShipDefinitionError as exc:
                problems.append(f"{label}{exc}")
    return loaded, problems


def _scan(folder: Path, game: str | None) -> tuple[dict[str, ShipClass], list[str]]:
    found: dict[str, ShipClass] = {}
    problems: list[str] = []
    games = [game] if game else list(GAME_IDS)
    for g in games:
        loaded, bad = load_folder(folder / g, load_ship_class, f"{g}/")
        problems.extend(bad)
        for path, cls in loaded:
            if cls.game != g:
                problems.append(f"{g}/{path.name}: game: \"{cls.game}\" does not match its folder {g}/")
                continue
            found[cls.id] = cls
    return found, problems


_cache: dict[tuple, tuple[dict[str, ShipClass], list[str]]] = {}


def _folder_key(folder: Path) -> tuple:
    """Changes when any definition in the folder is added, removed or edited."""
    if not folder.is_dir():
        return ()
    key = []
    for path in folder.glob("*/*.toml"):
        try:
            st = path.stat()
        except OSError:
            continue
        key.append((str(path), st.st_mtime_ns, st.st_size, st.st_ino))  # a save replaces the file
    return tuple(sorted(key))


def _library(game: str | None) -> tuple[dict[str, ShipClass], list[str]]:
    folders = [resources_dir() / "ships", user_ships_dir()]
    key = (game, tuple(_folder_key(f) for f in folders), tuple(str(f) for f in folders))
    if key not in _cache:
        classes: dict[str, ShipClass] = {}
        problems: list[str] = []
        for folder in folders:  # the user's folder last: it overrides
            found, bad = _scan(folder, game)
            classes.update(found)
            problems.extend(bad)
        _cache.clear()
        _cache[key] = (classes, problems)
    return _cache[key]


def list_classes(game: str | None = None) -> list[ShipClass]:
    """Every ship class in the library (bundled and user), sorted by game then name."""
    if game is not None and game not in GAME_IDS:
        raise UnknownClassError(f'unknown game "{game}" (known: {", ".join(GAME_IDS)})')
    classes = _library(game)[0].values()
    return sorted(classes, key=lambda c: (GAME_IDS.index(c.game), c.name.casefold()))


def library_problems() -> list[str]:
    """Messages for definition files that were skipped because they do not validate."""
    return list(_library(None)[1])


def get_class(class_id: str) -> ShipClass:
    """The class with id ``<game>/<file stem>``, e.g. ``triplanetary/frigate``."""
    game = class_id.split("/", 1)[0]
    classes = _library(game if game in GAME_IDS else None)[0]
    if class_id not in classes:
        raise UnknownClassError(f'no ship class "{class_id}" in the library')
    return classes[class_id]


def new_ship(ship_class: ShipClass, name: str, side: str | None = None) -> Ship:
    """A new, undamaged ship of ``ship_class``."""
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        raise RuleViolation("A ship needs a name.")
    state = get_game(ship_class.game).initial_state(ship_class)
    return Ship(name=name, ship_class=ship_class, state=state, side=side)


__all__ = ["COMMON_KEYS", "UnknownClassError", "get_class", "library_problems",
           "list_classes", "load_ship_class", "new_ship", "parse_ship_class"]

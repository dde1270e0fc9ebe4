"""Session files (``.shipsheet``): JSON, validated on load, written atomically.

Format::

    {"format": "shipsheet-session", "version": 1, "game": "fedcom",
     "name": "...", "uid": "...", "turn": 3, "phase": "...",
     "dice": {"seed": 123, "count": 17}, "options": {...},
     "ships": [{"id": "...", "name": "...", "side": "...", "class_id": "fedcom/ca",
                "class": {...the definition...}, "state": {...}}],
     "log": [{"text": "...", "kind": "action", "turn": 1, "phase": "...", ...}]}

Never pickle, never eval: files come by e-mail from other players.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from .dice import Dice
from .errors import SessionFileError, ShipDefinitionError
from .games import GAME_IDS
from .keypath import Node
from .library import parse_ship_class
from .log import LogEntry
from .session import Session
from .ship import Ship

FORMAT = "shipsheet-session"
VERSION = 1
#: Larger files are refused without being read in full.
MAX_FILE_BYTES = 50 * 1024 * 1024
#: Deeper JSON is refused (no session nests past a dozen levels).
MAX_DEPTH = 40
MAX_SHIPS = 5000
MAX_LOG = 1_000_000
LOG_KINDS = ("action", "roll", "detail", "phase", "note")


def _v0_to_v1(data: dict) -> dict:
    """Version 0 (early development files): ships carried ``definition`` and ``damage``,
    the dice were a bare ``seed``, and there was no log."""
    data = dict(data)
    ships = []
    for ship in data.get("ships", []):
        if isinstance(ship, dict):
            ship = dict(ship)
            if "definition" in ship:
                ship["class"] = ship.pop("definition")
            if "damage" in ship:
                ship["state"] = ship.pop("damage")
        ships.append(ship)
    data["ships"] = ships
    seed = data.pop("seed", None)
    data.setdefault("dice", {"seed": seed if isinstance(seed, int) else 0, "count": 0})
    data.setdefault("log", [])
    data["version"] = 1
    return data


#: version -> function turning that version's data into the next version's.
MIGRATIONS: dict[int, Callable[[dict], dict]] = {0: _v0_to_v1}


# -- writing -------------------------------------------------------------------

def session_to_data(session: Session) -> dict:
    """The session as plain JSON data (what is written to the file)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": session.game,
        "name": session.name,
        "uid": session.uid,
        "turn": session.turn,
        "phase": session.phase,
        "dice": {"seed": session.dice.seed, "count": session.dice.count},
        "options": session.options,
        "ships": [
            {"id": s.id, "name": s.name, "side": s.side, "class_id": s.ship_class.id,
             "class": s.ship_class.data, "state": s.state}
            for s in session.ships
        ],
        "log": [e.to_json() for e in session.log],
    }


def session_to_bytes(session: Session) -> bytes:
    return json.dumps(session_to_data(session), ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")


@contextmanager
def replacing(path: str | Path) -> Iterator[Path]:
    """Write a file under a temporary name beside ``path``, then put it in place at once.

    The block writes to the yielded path; if it raises, the temporary file goes and
    ``path`` is untouched. Otherwise the new file replaces ``path`` (``os.replace``)
    and the folder is fsynced, so a crash leaves the old file or the new one.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    import tempfile  # on first save (it pulls in shutil): keeps start-up light
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    tmp = Path(name)
    try:
        os.fchmod(fd, _file_mode(path))
        os.close(fd)
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def write_atomic(path: str | Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` so that a crash leaves the old file or the new one
    (temp file in the same folder, write, flush, fsync, rename, fsync the folder)."""
    with replacing(path) as tmp, open(tmp, "wb") as fh:
        fh.write(payload)
        fh.flush()
        os.fsync(fh.fileno())


def _file_mode(path: Path) -> int:
    """The existing file's permissions, else the usual ones for a new file (0666 less umask)."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def save_session(session: Session, path: str | Path) -> None:
    """Save ``session`` to ``path`` atomically (the old file survives any crash)."""
    write_atomic(path, session_to_bytes(session))


# -- reading -------------------------------------------------------------------

def _depth_ok(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a session file")


def parse_session_bytes(raw: bytes, label: str = "session") -> Session:
    """Build a Session from the bytes of a session file, or raise SessionFileError."""
    def fail(message: str) -> SessionFileError:
        return SessionFileError(f"{label}: {message}")

    if not raw.strip():
        raise fail("the file is empty")
    if len(raw) > MAX_FILE_BYTES:
        raise fail(f"the file is too large ({len(raw) // (1024 * 1024)} MB) to be a session")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise fail("not a ShipSheet session (the file is not text; it may be damaged)") from None
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise fail("nested too deeply; not a ShipSheet session") from None
    except ValueError as exc:
        raise fail(f"damaged or truncated ({exc})") from None
    return session_from_data(data, label)


def session_from_data(data: Any, label: str = "session") -> Session:
    """Validate plain data read from a session file and build the Session."""
    root = Node(data, label, "", SessionFileError)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        root.fail("not a ShipSheet session (no \"format\": \"shipsheet-session\")")
    version = root.get("version").int(lo=0)
    if version > VERSION:
        root.fail(f"made by a newer ShipSheet (file version {version}; this version reads up to "
                  f"{VERSION}). Update ShipSheet to open it.")
    while version < VERSION:
        data = MIGRATIONS[version](data)
        version = data["version"]
    root = Node(data, label, "", SessionFileError)

    game = root.get("game").str(choices=GAME_IDS)
    session = Session(game)
    session.name = root.get("name", "").str(nonempty=False)
    uid = root.get("uid", session.uid).str(max_len=64)
    session.uid = uid
    session.turn = root.get("turn", 1).int(lo=1, hi=1_000_000)
    phase = root.get("phase", session.rules.phases[0])
    session.phase = phase.str(choices=session.rules.phases)
    dice = root.get("dice", {"seed": 0, "count": 0}).table()
    session.dice = Dice(dice.get("seed").int(lo=0, hi=2**64), dice.get("count", 0).int(lo=0, hi=2**48))
    options = root.get("options", {}).table()
    if not _depth_ok(options.value, MAX_DEPTH):
        options.fail("nested too deeply")
    session.options = dict(options.value)

    seen_ids: set[str] = set()
    parsed: list[tuple[dict, str | None, object]] = []  # ships of one class share its parse
    for node in root.get("ships", []).list(max_len=MAX_SHIPS):
        node.table()
        sid = node.get("id").str(max_len=64)
        if sid in seen_ids:
            node.get("id").fail(f'ship id "{sid}" appears twice')
        seen_ids.add(sid)
        name = node.get("name").str(max_len=80)
        side_node = node.get("side", None)
        side = None if side_node.value is None else side_node.str(nonempty=False, max_len=80) or None
        class_node = node.get("class").table()
        class_id_node = node.get("class_id", None)
        class_id = None if class_id_node.value is None else class_id_node.str(max_len=200)
        ship_class = next((c for data, cid, c in parsed
                           if cid == class_id and data == class_node.value), None)
        if ship_class is None:
            if not _depth_ok(class_node.value, MAX_DEPTH):
                class_node.fail("nested too deeply")
            try:
                ship_class = parse_ship_class(class_node.value, f"{label}: {class_node.path}", class_id,
                                              error=SessionFileError)
            except ShipDefinitionError as exc:  # a game module raising the definition error
                raise SessionFileError(f"{label}: {class_node.path}: {exc}") from None
            parsed.append((class_node.value, class_id, ship_class))
        if ship_class.game != game:
            class_node.fail(f'a {ship_class.game} ship in a {game} session')
        state_node = node.get("state").table()
        if not _depth_ok(state_node.value, MAX_DEPTH):
            state_node.fail("nested too deeply")
        state = session.rules.check_state(ship_class, state_node)
        session.ships.append(Ship(name=name, ship_class=ship_class, state=state, side=side, id=sid))

    session.log = _read_log(root.get("log", []))
    session._seq = max((e.action for e in session.log), default=0)
    return session


_LOG_FIELDS = ("text", "kind", "turn", "phase", "ship", "action", "undone", "time")
#: Limits of a log entry's fields, for the fast check and the Node path alike.
_TEXT_LEN, _PHASE_LEN, _SHIP_LEN, _TIME_LEN = 10_000, 200, 64, 64
_TURN_MAX, _ACTION_MAX = 1_000_000, 2**48


def _read_log(node: Node) -> list[LogEntry]:
    """Validate the log quickly: plain type checks per entry (a log has thousands);
    an entry in doubt goes through the Node path for a message with its key path."""
    raw = node.value
    if not isinstance(raw, list):
        node.list()  # raises with the key path
    if len(raw) > MAX_LOG:
        node.list(max_len=MAX_LOG)
    entries = []
    append = entries.append
    kinds = set(LOG_KINDS)
    allowed = frozenset(_LOG_FIELDS)
    for i, item in enumerate(raw):
        if type(item) is dict and item.keys() <= allowed:
            text = item.get("text")
            kind = item.get("kind", "action")
            turn = item.get("turn", 1)
            phase = item.get("phase", "")
            ship = item.get("ship")
            action = item.get("action", 0)
            undone = item.get("undone", False)
            time = item.get("time", "")
            # Only what the Node path would return unchanged (its texts are stripped).
            if (type(text) is str and len(text) <= _TEXT_LEN and text.strip() == text
                    and type(kind) is str and kind in kinds
                    and type(turn) is int and 0 <= turn <= _TURN_MAX
                    and type(phase) is str and len(phase) <= _PHASE_LEN and phase.strip() == phase
                    and (ship is None or (type(ship) is str and 0 < len(ship) <= _SHIP_LEN
                                          and ship.strip() == ship))
                    and type(action) is int and 0 <= action <= _ACTION_MAX
                    and type(undone) is bool
                    and type(time) is str and len(time) <= _TIME_LEN and time.strip() == time):
                append(LogEntry(text, kind, turn, phase, ship, action, undone, time))
                continue
        append(_read_log_entry(node.child(i, item)))
    return entries


def _read_log_entry(node: Node) -> LogEntry:
    node.table()
    node.only_keys(*_LOG_FIELDS)
    ship_node = node.get("ship", None)
    return LogEntry(
        text=node.get("text").str(nonempty=False, max_len=_TEXT_LEN),
        kind=node.get("kind", "action").str(choices=LOG_KINDS),
        turn=node.get("turn", 1).int(lo=0, hi=_TURN_MAX),
        phase=node.get("phase", "").str(nonempty=False, max_len=_PHASE_LEN),
        ship=None if ship_node.value is None else ship_node.str(max_len=_SHIP_LEN),
        action=node.get("action", 0).int(lo=0, hi=_ACTION_MAX),
        undone=node.get("undone", False).bool(),
        time=node.get("time", "").str(nonempty=False, max_len=_TIME_LEN),
    )


def load_session(path: str | Path) -> Session:
    """Read a session file. Any problem raises SessionFileError; the file is never written."""
    path = Path(path)
    label = path.name
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        raise SessionFileError(f"{label}: is a folder, not a session file") from None
    except OSError as exc:
        raise SessionFileError(f"{label}: cannot read the file ({exc.strerror or exc})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise SessionFileError(f"{label}: the file is too large (over "
                               f"{MAX_FILE_BYTES // (1024 * 1024)} MB) to be a session")
    return parse_session_bytes(raw, label)

"""Session files (``.shipsheet``): JSON, validated on load, written atomically.

Format::

    {"format": "shipsheet-session", "version": 1, "game": "fedcom",
     "name": "...", "uid": "...", "turn": 3, "phase": "...",
     "dice": {"seed": 123, "count": 17, "scheme": "seeded-v1"}, "options": {...},
     "ships": [{"id": "...", "name": "...", "side": "...", "class_id": "fedcom/ca",
                "class": {...the definition...}, "state": {...}}],
     "log": [{"text": "...", "kind": "action", "turn": 1, "phase": "...", ...}],
     "pbem": {...}, "archive": [{...}, ...]}

``pbem`` (the play-by-e-mail record) and ``archive`` (its desk's ledger, which undo
never takes back) are plain JSON here, checked by ``shipsheet.pbem`` where used.

Never pickle, never eval: files come by e-mail from other players.
"""

from __future__ import annotations

import gc
import json
import math
import os
import threading
from collections import Counter
from contextlib import contextmanager
from itertools import compress, repeat
from pathlib import Path
from typing import Any, Callable, Iterator

from .dice import SCHEMES, SEEDED, Dice, bind_session, session_scheme
from .errors import SessionFileError, ShipDefinitionError
from .files import problem, read_regular
from .games import GAME_IDS
from .keypath import Node
from .library import parse_ship_class
from .log import LogEntry
from .session import Session, valid_uid
from .portable import (BINARY, CLOEXEC, NOFOLLOW, NONBLOCK, WINDOWS, full_fsync, owned_by_someone_else,
                       release_lock_file, replace, set_mode, sync_folder, try_lock)
from .ship import Ship, clone, new_id

FORMAT = "shipsheet-session"
VERSION = 1
#: Larger files are refused without being read in full.
MAX_FILE_BYTES = 50 * 1024 * 1024
#: Deeper JSON is refused (no session nests past a dozen levels).
MAX_DEPTH = 40
MAX_SHIPS = 5000
MAX_LOG = 1_000_000
#: A session file whose log marks its private lines (``LogEntry.private``) says so; a file
#: without it is from before, and its log is marked as it loads (``model.privacy``).
LOG_MARKS = 1
#: Entries of a session's play-by-e-mail ledger (``Session.archive``) at most.
MAX_ARCHIVE = 20_000
#: Files up to this size are not saved once at load to check their saved size: saving
#: writes every value at most 4.5 times as long as its shortest form in a file (the
#: float ``1E15`` saves as ``1000000000000000.0``; a log entry saves its defaults left
#: out), so these cannot save past ``MAX_FILE_BYTES``.
SAVE_CHECK_BYTES = MAX_FILE_BYTES // 5
LOG_KINDS = ("action", "roll", "detail", "phase", "note")


def _v0_to_v1(data: dict) -> dict:
    """Version 0 (early development files): ships carried ``definition`` and ``damage``,
    the dice were a bare ``seed``, and there was no log."""
    data = dict(data)
    ships = data.get("ships", [])
    if isinstance(ships, list):  # anything else is refused below, naming "ships"
        converted = []
        for ship in ships:
            if isinstance(ship, dict):
                ship = dict(ship)
                if "definition" in ship:
                    ship["class"] = ship.pop("definition")
                if "damage" in ship:
                    ship["state"] = ship.pop("damage")
            converted.append(ship)
        data["ships"] = converted
    seed = data.pop("seed", None)
    data.setdefault("dice", {"seed": seed if isinstance(seed, int) else 0, "count": 0})
    data.setdefault("log", [])
    data["version"] = 1
    return data


#: version -> function turning that version's data into the next version's.
MIGRATIONS: dict[int, Callable[[dict], dict]] = {0: _v0_to_v1}


# -- writing -------------------------------------------------------------------

def _ship_data(session: Session, ship) -> dict:
    data = {"id": ship.id, "name": ship.name, "side": ship.side, "class_id": ship.ship_class.id,
            "class": ship.ship_class.data, "state": ship.state}
    start = session.turn_start.get(ship.id)
    if start is not None and start != ship.state:  # kept only when this turn marked it
        data["turn_start"] = start
    return data


def session_to_data(session: Session, with_log: bool = True, *, with_ships: bool = True) -> dict:
    """The session as plain JSON data (what is written to the file); ``with_ships=False``:
    its ships' list left empty."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": session.game,
        "name": session.name,
        "uid": session.uid,
        "turn": session.turn,
        "phase": session.phase,
        "dice": {"seed": session.dice.seed, "count": session.dice.count,
                 "scheme": session_scheme(session)},
        "options": session.options,
        "ships": [_ship_data(session, s) for s in session.ships] if with_ships else [],
    }
    if session.pbem:
        data["pbem"] = session.pbem
    if session.archive:
        data["archive"] = session.archive
    data["log_marks"] = LOG_MARKS  # the log's private lines are marked (model/privacy.py)
    if with_log:
        data["log"] = [e.to_json() for e in session.log]
    return data


def session_to_bytes(session: Session) -> bytes:
    """The session file's bytes (those of ``json.dumps(session_to_data(session))``).

    The log is written in blocks whose JSON is kept between saves (entries are only ever
    appended, and change only by their undone mark), so autosaving a long log costs a join,
    not a million dicts: the window does not freeze at each autosave."""
    return "".join(_session_text(session)).encode("utf-8")


def saved_size(session: Session) -> int:
    """``len(session_to_bytes(session))``, without joining and encoding the file's text
    (a large file is saved once at load to be sure it can be: ``parse_session_bytes``)."""
    return sum(map(_utf8_len, _session_text(session)))


def _saved_size_at_most(session: Session, raw_size: int, grown: int) -> int:
    """At least ``saved_size(session)``, for a session just read from a file of ``raw_size``
    bytes whose numbers save ``grown`` bytes longer than the file wrote them
    (:func:`_decode`), worked out without writing each ship's class, which is most of a
    file: ``parse_session_bytes`` saves a large file only when this says it might not fit.

    Why it holds. A ship's class is kept as the very JSON object read from the file
    (``parse_ship_class`` keeps its data), and JSON written from what JSON read is never
    longer than what was read but for its floats (counted in ``grown``): no spaces; a
    string with no more escapes than it was read with (JSON text cannot hold a control
    character unescaped, and only those, ``"`` and ``\\`` are escaped; other text is
    written as itself); integers with the same digits (``-0`` as ``0``); ``true``,
    ``false`` and ``null`` as they were. The classes, each read from its own part of the
    file, so save in at most ``raw_size + grown`` bytes. A class shared by ships whose
    definitions were equal (``_ClassCache``; ``1 == 1.0 == True``, which save unlike) is
    counted as it saves, for each of its ships. Everything else — the session's own fields,
    each ship's id, name, side, class id, state and turn start, the log — is counted as it
    saves, on top."""
    def size(data) -> int:
        return _utf8_len(_file_json(data))

    uses = Counter(id(ship.ship_class) for ship in session.ships)
    shared: dict[int, int] = {}
    total = (raw_size + grown + size(session_to_data(session, with_log=False, with_ships=False))
             + _utf8_len(_log_json(session)) + 16)  # ',"log":[', "]}" and the commas' room
    for ship in session.ships:
        data = _ship_data(session, ship)
        data["class"] = None  # the class: in ``raw_size`` below, or counted as shared
        total += size(data) + 1
        if uses[id(ship.ship_class)] > 1:
            found = shared.get(id(ship.ship_class))
            if found is None:
                found = shared[id(ship.ship_class)] = size(ship.ship_class.data)
            total += found
    return total


def _file_json(data) -> str:
    """``data`` as a session file writes it: compact, text as itself (not ``\\u`` escapes)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _utf8_len(text: str) -> int:
    """The length of ``text`` in UTF-8 (UnicodeEncodeError as ``encode`` for a lone surrogate)."""
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _session_text(session: Session) -> tuple[str, ...]:
    """The file's text in pieces: the session's JSON but its log, and the log spliced in
    before the closing brace."""
    head = _file_json(session_to_data(session, with_log=False))
    return head[:-1], ',"log":[', _log_json(session), "]}"


_LOG_BLOCK = 1024


def _log_json(session: Session) -> str:
    """The log's entries as JSON, without the brackets, from the session's block cache."""
    cache: dict = session.__dict__.setdefault("_log_json_blocks", {})
    log = session.log
    parts = []
    for start in range(0, len(log), _LOG_BLOCK):
        block = log[start:start + _LOG_BLOCK]
        marks = tuple(e.undone for e in block)
        hit = cache.get(start)
        # The first entry is held by the cache, so "is" cannot match a new entry at its address.
        if hit is None or hit[0] is not block[0] or hit[1] != marks:
            text = _file_json([e.to_json() for e in block])
            hit = cache[start] = (block[0], marks, text[1:-1])
        parts.append(hit[2])
    for start in [s for s in cache if s >= len(log)]:
        del cache[start]
    return ",".join(parts)


class SessionTooLarge(OSError):
    """A session that would save past what a session file may hold (and so never load)."""


def check_saved_size(payload: bytes) -> bytes:
    """``payload`` if a session file that large can be opened again; else SessionTooLarge."""
    if len(payload) > MAX_FILE_BYTES:
        raise SessionTooLarge(
            f"the session is too large to save ({len(payload) // (1024 * 1024)} MB; a session "
            f"file may have at most {MAX_FILE_BYTES // (1024 * 1024)} MB, or it could not be "
            "opened again). Remove ships, or go on in a new session")
    return payload


def check_savable(session: Session) -> None:
    """Refuse (SessionTooLarge) a session with more ships, log entries or ledger entries
    than a session file may hold: whatever saves, loads."""
    for what, count, limit in (("ships", len(session.ships), MAX_SHIPS),
                               ("log entries", len(session.log), MAX_LOG),
                               ("ledger entries", len(session.archive or ()), MAX_ARCHIVE)):
        if count > limit:
            raise SessionTooLarge(
                f"the session is too large to save ({count:,} {what}; a session file may "
                f"have at most {limit:,}, or it could not be opened again). Remove some, or "
                "go on in a new session")


class WouldBreakFile(OSError):
    """A save refused because replacing the file would quietly change what it is: it has
    other hard links (they would keep the old content), or it belongs to another user (the
    new file would be ours). ``str()`` says which, and what to do."""

    def __str__(self) -> str:
        return self.args[0] if self.args else "the file cannot be replaced safely"


#: The end of the name of a temporary file a save writes (``.NAME.<random>.saving.tmp``).
TEMP_SUFFIX = ".saving.tmp"


def check_replaceable(path: Path) -> None:
    """Refuse (:class:`WouldBreakFile`) to replace a file with other hard links, or (POSIX)
    one that belongs to another user: a new file put in its place would break the links (they
    would keep the old content) or change its owner (``SECURITY.md``, "Saving"). Save it
    under another name instead. A missing file is fine."""
    try:
        st = os.stat(path)
    except OSError:
        return
    if st.st_nlink > 1:
        raise WouldBreakFile(
            f"{path.name} has {st.st_nlink - 1} other hard link{'s' if st.st_nlink > 2 else ''}: "
            "saving replaces the file with a new one, and the other links would keep the old "
            "content. Save under another name (Save As), or remove the other links first")
    if owned_by_someone_else(st):
        raise WouldBreakFile(
            f"{path.name} belongs to another user: saving replaces the file with a new one, "
            "which would be yours. Save under another name (Save As)")


class _Temporary:
    """A temporary file being written: its descriptor (None once closed) and its name."""

    __slots__ = ("fd", "path")

    def __init__(self, fd: int, path: Path):
        self.fd: int | None = fd
        self.path = path

    def close(self) -> None:
        fd, self.fd = self.fd, None
        if fd is not None:
            os.close(fd)


@contextmanager
def _temporary(path: Path, private: bool, lock: bool) -> Iterator[_Temporary]:
    """A new temporary file beside ``path``, open, with the OS lock held on it (``lock``) so
    that :func:`remove_abandoned_temporaries` in any process sees its writer is alive.
    Closed, and removed if the block raises."""
    folder = path.parent if str(path.parent) else Path(".")
    import tempfile  # on first save (it pulls in shutil): keeps start-up light
    for attempt in range(5):
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=folder)
        tmp = Path(name)
        if not lock or _locked_as_named(fd, tmp) or attempt == 4:
            break
        # Another process's clean-up took it between its making and our lock (it saw no
        # writer): let it go and make another.
        os.close(fd)
        try:
            tmp.unlink()
        except OSError:
            pass
    temp = _Temporary(fd, tmp)
    try:
        set_mode(fd, 0o600 if private else _file_mode(path))
        yield temp
    except BaseException:
        try:
            temp.close()
        except OSError:
            pass
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    temp.close()


def _locked_as_named(fd: int, tmp: Path) -> bool:
    """Take the OS lock on the new temporary ``fd`` and check ``tmp`` still names it; True
    too where the file system has no locks (the age of a temporary file tells then)."""
    try:
        if not try_lock(fd):
            return False
    except OSError:
        return True
    try:
        return os.stat(tmp).st_ino == os.fstat(fd).st_ino
    except OSError:
        return False


def _put_in_place(temp: _Temporary, path: Path) -> None:
    """Rename the temporary file over ``path`` and close it: POSIX closes after (the lock
    held to the end), Windows before (it cannot rename an open file; in the moment between,
    another process's clean-up could remove it, and the save then fails, raising, with the
    old file kept)."""
    folder = path.parent if str(path.parent) else Path(".")
    if WINDOWS:
        temp.close()
        replace(temp.path, path)
    else:
        try:
            replace(temp.path, path)
        finally:
            temp.close()
    remove_abandoned_temporaries(folder, path.name)
    sync_folder(folder)


def _target(path: str | Path) -> Path:
    path = Path(path)
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    check_replaceable(path)
    return path


@contextmanager
def replacing(path: str | Path, *, private: bool = False) -> Iterator[Path]:
    """Write a file under a temporary name beside ``path``, then put it in place at once.

    The block writes to the yielded path; if it raises, the temporary file goes and
    ``path`` is untouched. Otherwise the new file replaces ``path`` (``portable.replace``)
    and the folder is fsynced, so a crash leaves the old file or the new one.

    A symlink is written through: its target is replaced, the link stays. A file with other
    hard links, or another user's, is not replaced (:func:`check_replaceable`). Temporary
    files killed saves left in the folder are removed after a save succeeds
    (:func:`remove_abandoned_temporaries`).

    ``private``: readable by the user only (0600) from the first byte written — for files
    that hold secrets (a player's file, the table's seats); otherwise the file keeps the
    permissions it had (new files: the usual ones).

    The temporary file is held with the OS lock while the block runs, except on Windows,
    where the lock would stop the block's own writes to its first byte; there, a file open
    in a live process cannot be removed, which protects it as well.
    """
    path = _target(path)
    with _temporary(path, private, lock=not WINDOWS) as temp:
        yield temp.path
        _put_in_place(temp, path)


#: Where the file system has no locks, a temporary file this old is not another save in
#: progress: a killed save left it. (Temporary files of older ShipSheets, which were not
#: locked, are told by their age too.)
STALE_TEMP_SECONDS = 60


def remove_abandoned_temporaries(folder: str | Path, name: str | None = None) -> int:
    """Remove the temporary files (``.*.saving.tmp``) that saves killed in the middle left in
    ``folder``, any file's, and return how many went. Cheap: one listing of the folder.

    A temporary file's writer holds the OS lock on it (:func:`replacing`): one whose lock can
    be taken has no writer left and goes; one whose lock is held is a save in progress and
    stays. No clock is asked, except where the file system has no locks at all (a file
    older than :data:`STALE_TEMP_SECONDS` then goes). With ``name``, an older ShipSheet's
    ``.NAME.*.tmp`` files beside ``name`` go too when older than that."""
    import time
    folder = Path(folder)
    now = time.time()
    prefix = f".{name}." if name else None
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    removed = 0
    for entry in entries:
        ours = entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)
        older = prefix is not None and entry.name.startswith(prefix) and entry.name.endswith(".tmp")
        if not (ours or older):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if ours and _writer_gone(entry.path, now):
                removed += 1
            elif older and not ours and now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            pass
    return removed


def _writer_gone(path: str, now: float) -> bool:
    """Remove the temporary file ``path`` if no process is writing it; True if removed."""
    fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK | CLOEXEC | BINARY)
    try:
        taken = try_lock(fd)
    except OSError:  # no locks here: its age tells
        os.close(fd)
        if now - os.stat(path, follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS:
            os.unlink(path)
            return True
        return False
    if not taken:
        os.close(fd)
        return False
    release_lock_file(fd, Path(path))  # removes it (POSIX: while still holding the lock)
    return not os.path.lexists(path)


def write_atomic(path: str | Path, payload: bytes, *, private: bool = False) -> None:
    """Write ``payload`` to ``path`` so that a crash leaves the old file or the new one
    (temp file in the same folder, write, flush, fsync, rename, fsync the folder).
    ``private``: readable by the user only (see :func:`replacing`). The payload is written
    through the descriptor that holds the temporary file's lock, on every system."""
    path = _target(path)
    with _temporary(path, private, lock=True) as temp:
        view = memoryview(payload)
        while view:
            view = view[os.write(temp.fd, view):]
        full_fsync(temp.fd)
        _put_in_place(temp, path)


def _file_mode(path: Path) -> int:
    """The existing file's permissions, else the usual ones for a new file (0666 less umask)."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def save_session(session: Session, path: str | Path, *, private: bool = False) -> None:
    """Save ``session`` to ``path`` atomically (the old file survives any crash). A session
    too large to be opened again is not written (SessionTooLarge, an OSError). ``private``:
    readable by the user only (a play-by-e-mail player file holds the player's secret)."""
    check_savable(session)
    write_atomic(path, check_saved_size(session_to_bytes(session)), private=private)


# -- reading -------------------------------------------------------------------

_CONTAINERS = (dict, list)


def _depth_ok(value: Any, limit: int) -> bool:
    """Is no value nested deeper than ``limit`` (``value`` itself at depth 1)?

    Read a level at a time: the values at one depth are the entries of the tables and
    lists at the one above, and only those tables and lists go on to the next level (a
    ship's class has a few hundred plain values; looked at one by one, they were a tenth
    of a load)."""
    if limit < 1:
        return False
    level = [value] if isinstance(value, _CONTAINERS) else []
    depth = 1  # of the tables and lists in ``level``
    while level:
        entries: list = []
        for item in level:
            entries += item.values() if isinstance(item, dict) else item
        if entries and depth >= limit:
            return False
        level = list(compress(entries, map(isinstance, entries, repeat(_CONTAINERS))))
        depth += 1
    return True


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a session file")


def _finite_float(text: str) -> float:
    """A number that saves as it loads: ``1e400`` would read as infinity, which JSON
    cannot write back."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is too large")
    return value


_SURROGATE = None


def _unencodable_path(data: Any, text: str) -> str | None:
    """The key path of the first text that cannot be written back as UTF-8 (a lone
    surrogate such as ``"\\ud800"`` is valid JSON but no character), or None.

    Only escapes can make one, so the walk runs only when the file has such an escape."""
    global _SURROGATE
    if _SURROGATE is None:
        import re
        _SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
    if not _SURROGATE.search(text):
        return None
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return path or "(top)"
        elif isinstance(value, dict):
            for key, item in value.items():
                child = f"{path}.{key}" if path else str(key)
                try:
                    key.encode("utf-8")
                except UnicodeEncodeError:
                    return child.encode("utf-8", "backslashreplace").decode("ascii")
                stack.append((item, child))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
    return None


_pause_lock = threading.Lock()
_pauses = 0  # loads under way (threads may load at once)
_was_enabled = False


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a session loads, then as it was.

    A load makes a few hundred thousand objects that all live on (the file's data, the
    ships, their classes) and little garbage, none of it in cycles: each pass of the
    collector, started by so many new objects, goes over all of them and finds nothing.
    Those passes made a ship of a 5,000-ship file a quarter dearer than one of a 100-ship
    file; paused, the load is linear. Loads in several threads at once share one pause
    (the last one to finish restores the collector)."""
    global _pauses, _was_enabled
    with _pause_lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()


def parse_session_bytes(raw: bytes, label: str = "session") -> Session:
    """Build a Session from the bytes of a session file, or raise SessionFileError."""
    with _collector_paused():
        data, grown = _decode(raw, label)
        session = session_from_data(data, label)
        if len(raw) > SAVE_CHECK_BYTES and \
                _saved_size_at_most(session, len(raw), grown) > MAX_FILE_BYTES:
            # Whatever loads must save and load again: a large file that might save past the
            # limit is saved here once to be sure (below ``SAVE_CHECK_BYTES`` no session can;
            # above it, most are shown to fit without writing their ships' classes).
            size = saved_size(session)
            if size > MAX_FILE_BYTES:
                raise SessionFileError(f"{label}: the session would save as {size // (1024 * 1024)} MB, "
                                       f"over the {MAX_FILE_BYTES // (1024 * 1024)} MB a session file may have")
    return session


def decode_session_json(raw: bytes, label: str = "session") -> Any:
    """The JSON data of a session file's bytes, refusing what could not be saved back
    (non-finite numbers, text that is not Unicode), or raise SessionFileError."""
    return _decode(raw, label)[0]


def _decode(raw: bytes, label: str) -> tuple[Any, int]:
    """``decode_session_json``, and how many bytes longer its floats save than the file
    wrote them (``1E15`` saves as ``1000000000000000.0``: 14 more; every other JSON value
    saves no longer than it was read: ``_saved_size_at_most``)."""
    grown = 0

    def read_float(text: str) -> float:
        nonlocal grown
        value = _finite_float(text)
        grown += max(0, len(repr(value)) - len(text))
        return value

    def fail(message: str) -> SessionFileError:
        return SessionFileError(f"{label}: {message}")

    if not raw.strip():
        raise fail("the file is empty")
    if len(raw) > MAX_FILE_BYTES:
        raise fail(f"the file is too large ({len(raw) // (1024 * 1024)} MB) to be a session")
    try:
        text = raw.decode("utf-8-sig")  # a byte order mark is allowed, and dropped
    except UnicodeDecodeError:
        raise fail("not a ShipSheet session (the file is not text; it may be damaged)") from None
    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_float=read_float)
    except RecursionError:
        raise fail("nested too deeply; not a ShipSheet session") from None
    except ValueError as exc:
        raise fail(f"damaged or truncated ({exc})") from None
    where = _unencodable_path(data, text)
    if where is not None:
        raise fail(f"{where}: contains text that is not valid Unicode (a lone surrogate); "
                   "the file cannot be saved again as it is")
    return data, grown


def session_from_data(data: Any, label: str = "session") -> Session:
    """Validate plain data read from a session file and build the Session."""
    with _collector_paused():
        return _session_from_data(data, label)


def _session_from_data(data: Any, label: str) -> Session:
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
    uid = root.get("uid", session.uid).str(nonempty=False, max_len=200)
    # The uid says which sessions are the same; it is never a file name. One that is not
    # plain letters and digits is replaced (the file stays valid), not refused.
    session.uid = uid if valid_uid(uid) else new_id(16)
    session.turn = root.get("turn", 1).int(lo=1, hi=1_000_000)
    phase = root.get("phase", session.rules.phases[0])
    session.phase = phase.str(choices=session.rules.phases)
    dice = root.get("dice", {"seed": 0, "count": 0}).table()
    # Files saved before dice schemes rolled seeded-v1 (model/dice.py).
    scheme = dice.get("scheme", SEEDED).str(choices=SCHEMES)
    session.dice = Dice(dice.get("seed").int(lo=0, hi=2**64), dice.get("count", 0).int(lo=0, hi=2**48),
                        scheme)
    options = root.get("options", {}).table()
    if not _depth_ok(options.value, MAX_DEPTH):
        options.fail("nested too deeply")
    session.options = session.rules.check_options(options)
    pbem = root.get("pbem", {}).table()  # plain JSON here; shipsheet.pbem checks its meaning
    if not _depth_ok(pbem.value, MAX_DEPTH):
        pbem.fail("nested too deeply")
    session.pbem = dict(pbem.value)
    archive = root.get("archive", [])
    for item in archive.list(max_len=MAX_ARCHIVE):
        item.table()  # each a JSON object; shipsheet.pbem checks what it says
    if not _depth_ok(archive.value, MAX_DEPTH):
        archive.fail("nested too deeply")
    session.archive = list(archive.value)
    bind_session(session)  # the dice's scheme now follows session.pbem["dice"]
    if session_scheme(session) != scheme:
        dice.get("scheme", SEEDED).fail(
            f'says the dice are "{scheme}" but the play-by-e-mail record says '
            f'"{session_scheme(session)}"')

    seen_ids: set[str] = set()
    turn_start: dict[str, dict] = {}
    classes = _ClassCache()  # ships of one class share its parse
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
        ship_class = classes.get(class_id, class_node.value,
                                 lambda: _parse_class(class_node, label, class_id))
        if ship_class.game != game:
            class_node.fail(f'a {ship_class.game} ship in a {game} session')
        state_node = node.get("state").table()
        if not _depth_ok(state_node.value, MAX_DEPTH):
            state_node.fail("nested too deeply")
        state = session.rules.check_state(ship_class, state_node)
        session.ships.append(Ship(name=name, ship_class=ship_class, state=state, side=side, id=sid))
        if node.has("turn_start"):  # the ship's state when this turn began
            start_node = node.get("turn_start").table()
            if not _depth_ok(start_node.value, MAX_DEPTH):
                start_node.fail("nested too deeply")
            turn_start[sid] = session.rules.check_state(ship_class, start_node)
        else:
            turn_start[sid] = clone(state)

    session.turn_start = turn_start
    session.log = _read_log(root.get("log", []))
    session._seq = max((e.action for e in session.log), default=0)
    if not root.has("log_marks") and session.log:
        from .privacy import mark_old_log
        mark_old_log(session)  # a log from before private lines were marked
    return session


def _parse_class(node: Node, label: str, class_id: str | None):
    """A ship's class (``node``, a table), checked as a definition file would be."""
    if not _depth_ok(node.value, MAX_DEPTH):
        node.fail("nested too deeply")
    try:
        return parse_ship_class(node.value, f"{label}: {node.path}", class_id, error=SessionFileError)
    except ShipDefinitionError as exc:  # a game module raising the definition error
        raise SessionFileError(f"{label}: {node.path}: {exc}") from None


class _ClassCache:
    """The classes parsed so far, found again in constant time: by class id, then by the
    definition itself (a few per id are compared; more are looked up by their canonical
    JSON), so loading stays linear in the ship count however the file is made.

    A canonical text costs about a fifth of a class's check, so past the few compared,
    a class is first looked for by its name: a definition whose id and name no class
    parsed before has cannot be one of them, and needs no text (a file of many classes,
    each its own, makes none). Texts are made when a second class has the id and name."""

    LINEAR = 4

    def __init__(self):
        self._by_id: dict[str | None, list[tuple[dict, object]]] = {}
        self._by_name: dict[tuple, _Named] = {}

    @staticmethod
    def _text(data: dict) -> str:
        return json.dumps(data, sort_keys=True, ensure_ascii=False)

    def _named(self, class_id: str | None, data: dict) -> "_Named":
        name = data.get("class")
        key = (class_id, name if type(name) is str else None)  # anything else: one group
        named = self._by_name.get(key)
        if named is None:
            named = self._by_name[key] = _Named()
        return named

    def get(self, class_id: str | None, data: dict, parse: Callable[[], object]):
        """The class parsed before from a definition equal to ``data`` under ``class_id``,
        or ``parse()``'s, kept for the ships after (a class that is refused is not)."""
        known = self._by_id.setdefault(class_id, [])
        if len(known) <= self.LINEAR:
            found = next((c for d, c in known if d == data), None)
            if found is None:
                found = parse()
                known.append((data, found))
                if len(known) > self.LINEAR:  # from now on found by name and text
                    for d, c in known:
                        self._named(class_id, d).untexted.append((d, c))
            return found
        named = self._named(class_id, data)
        text = None
        if named:
            text = self._text(data)
            found = named.find(text, self._text)
            if found is not None:
                return found
        found = parse()
        known.append((data, found))
        named.add(text, data, found)
        return found


class _Named:
    """The classes of one id and name (past ``_ClassCache.LINEAR``), by canonical text;
    those whose text no lookup has needed yet are kept aside without one."""

    __slots__ = ("by_text", "untexted")

    def __init__(self):
        self.by_text: dict[str, object] = {}
        self.untexted: list[tuple[dict, object]] = []

    def __bool__(self) -> bool:
        return bool(self.by_text or self.untexted)

    def find(self, text: str, to_text: Callable[[dict], str]):
        for data, ship_class in self.untexted:
            self.by_text.setdefault(to_text(data), ship_class)
        self.untexted.clear()
        return self.by_text.get(text)

    def add(self, text: str | None, data: dict, ship_class) -> None:
        if text is None:
            self.untexted.append((data, ship_class))
        else:
            self.by_text.setdefault(text, ship_class)


_LOG_FIELDS = ("text", "kind", "turn", "phase", "ship", "action", "undone", "time", "by", "roll",
               "private", "public")
_PRIVATE_LEN = 40
_ROLL_LEN = 8  # whole numbers in a roll's record at most
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
            by = item.get("by")
            roll = item.get("roll")
            private = item.get("private")
            public = item.get("public")
            # Only what the Node path would return unchanged (its texts are stripped).
            if (type(text) is str and len(text) <= _TEXT_LEN and text.strip() == text
                    and type(kind) is str and kind in kinds
                    and type(turn) is int and 0 <= turn <= _TURN_MAX
                    and type(phase) is str and len(phase) <= _PHASE_LEN and phase.strip() == phase
                    and (ship is None or (type(ship) is str and 0 < len(ship) <= _SHIP_LEN
                                          and ship.strip() == ship))
                    and type(action) is int and 0 <= action <= _ACTION_MAX
                    and type(undone) is bool
                    and type(time) is str and len(time) <= _TIME_LEN and time.strip() == time
                    and (by is None or (type(by) is str and 0 < len(by) <= _SHIP_LEN
                                        and by.strip() == by))
                    and (roll is None or (type(roll) is list and len(roll) <= _ROLL_LEN
                                          and all(type(v) is int and 0 <= v <= 2**64 for v in roll)))
                    and (private is None or (type(private) is str
                                             and 0 < len(private) <= _PRIVATE_LEN
                                             and private.strip() == private))
                    and (public is None or (private is not None and type(public) is str
                                            and len(public) <= _TEXT_LEN
                                            and public.strip() == public))):
                append(LogEntry(text, kind, turn, phase, ship, action, undone, time, by, roll,
                                private, public))
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
        by=None if node.get("by", None).value is None else node.get("by").str(max_len=_SHIP_LEN),
        roll=_read_roll(node.get("roll", None)),
        private=None if node.get("private", None).value is None else
        node.get("private").str(max_len=_PRIVATE_LEN),
        public=_read_public(node),
    )


def _read_public(node: Node) -> str | None:
    """A private line's public wording (a public line has none)."""
    if node.get("public", None).value is None:
        return None
    if node.get("private", None).value is None:
        node.get("public").fail("only a private line has a public wording")
    return node.get("public").str(nonempty=False, max_len=_TEXT_LEN)


def _read_roll(node: Node) -> list | None:
    if node.value is None:
        return None
    return [item.int(lo=0, hi=2**64) for item in node.list(max_len=_ROLL_LEN)]


def load_session(path: str | Path) -> Session:
    """Read a session file. Any problem raises SessionFileError; the file is never written."""
    path = Path(path)
    label = path.name
    try:
        raw = read_regular(path, MAX_FILE_BYTES)
    except OSError as exc:
        raise SessionFileError(f"{label}: {problem(exc)}") from None
    return parse_session_bytes(raw, label)

"""The journal: every applied change on disk before anyone is told it was applied.

An autosave is written a moment after a change (at most 1.5 s later, ``ui/document.py``);
a crash in that moment would lose a change a phone at the table was already told was
applied. So every change (and every undo and redo) is also appended to the document's
journal, ``<key>.journal`` beside its autosave slots, and the file is fsynced before the
table answers the phone that asked (``share/server.py`` waits for :meth:`Journal.durable`).

The file is JSON lines (``ensure_ascii``, so no record holds a newline):

- a header: ``{"journal": 1, "id": <random hex>}`` — the id of this document's journal;
- records, numbered 1, 2, 3 … by ``"t"`` (the **ticket**), each either ``"full"`` (the
  whole session, as a session file holds it: the first record of every journal) or a
  delta: the ships the change touched (whole, as saved), the order of the ships, the turn,
  phase, dice position and name, the options and play-by-e-mail record when they changed,
  and the tails of the log and the archive from the first entry that changed (undo marks
  entries undone; entries are otherwise only appended).

Each autosave slot says which journal it was made with and the last ticket it holds
(``{"journal": id, "upto": t}`` in its autosave entry); once the slot is on disk the journal
is rewritten to hold only the later records (:meth:`Journal.rebase`), so it stays small.

Recovery (:func:`recover`) takes the newest slot and replays the records after its ticket,
on the data, before the session is built from it and checked as any session file is; a
journal whose slot was never written starts from its own full record. A torn last line
(the crash came mid-write) is the end of the journal; a record that is not a well-formed
delta ends the replay there and is reported.

No Qt here: the window and ``shipsheet serve`` both use it through ``ui.document``.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import threading
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .portable import BINARY, NOFOLLOW, full_fsync
from .dice import session_scheme
from .storage import _ship_data, session_to_data, write_atomic

if TYPE_CHECKING:  # pragma: no cover
    from .session import Change, Session

#: A journal larger than this is not read (it would be a damaged or foreign file: between
#: two autosaves a journal holds a second or two of changes).
MAX_JOURNAL_BYTES = 256 * 1024 * 1024
SUFFIX = ".journal"
_FORMAT = 1


def _line(data: dict) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"


class Journal:
    """One document's journal (``folder/<key>.journal``).

    :meth:`record` runs on the thread that changes the session (it reads the session) and
    only queues the record; a writer thread of the journal's own appends and fsyncs
    (records that queue up while it syncs go in one write and one sync: a burst of taps
    costs one sync per batch). :meth:`durable` is a future that is done once everything
    recorded so far is on disk."""

    def __init__(self, folder: str | Path, key: str, source: str | Path | None = None,
                 base: tuple | None = None):
        """``source``: the session's own file (None: never saved), named in the header so
        that a journal recovered without a slot says which file it is the work of; ``base``:
        what that file was on disk when the work began (``DiskState.key``), as a slot keeps
        it (``model/autosave.py``)."""
        self.folder = Path(folder)
        self.source = str(Path(source).resolve()) if source else None
        self.base = list(base) if base is not None else None
        self.key = key
        self.path = self.folder / f"{key}{SUFFIX}"
        self.id = os.urandom(8).hex()
        #: The last failure to write, in words ("" while the journal works).
        self.error = ""
        self._ticket = 0  # the last ticket handed out (authority's thread)
        self._seen: dict[str, Any] | None = None  # what the last record saw of the session
        self._lock = threading.Condition()
        self._queue: deque = deque()
        self._waiting: list[tuple[int, concurrent.futures.Future]] = []
        self._durable = 0  # the last ticket on disk
        self._kept: list[tuple[int, bytes]] = []  # the records since the last rebase
        self._fd: int | None = None
        self._closed = False
        self._thread: threading.Thread | None = None

    # -- the authority's thread -------------------------------------------------------
    def record(self, session: "Session", change: "Change | None") -> int:
        """Queue the record of ``change`` (just applied, undone or redone; None: anything
        may have changed) and return its ticket."""
        self._ticket += 1
        ticket = self._ticket
        texts = (json.dumps(session.options, sort_keys=True), json.dumps(session.pbem, sort_keys=True))
        data = self._delta(session, change, texts) if self._seen is not None else None
        if data is None:
            data = {"full": session_to_data(session)}
        data["t"] = ticket
        self._remember(session, texts)
        self._put(("record", ticket, _line(data)))
        return ticket

    def mark(self) -> tuple[str, int]:
        """(this journal's id, the last ticket): what an autosave made now holds."""
        return self.id, self._ticket

    def durable(self, ticket: int | None = None) -> concurrent.futures.Future:
        """A future done once ``ticket`` (default: the last one) is on disk; its result is
        "" or, when the journal could not be written, why."""
        ticket = self._ticket if ticket is None else ticket
        future: concurrent.futures.Future = concurrent.futures.Future()
        with self._lock:
            if ticket <= self._durable or self._closed:
                future.set_result(self.error)
            else:
                self._waiting.append((ticket, future))
        return future

    def _remember(self, session: "Session", texts: tuple[str, str]) -> None:
        self._seen = {
            "log": len(session.log), "archive": len(session.archive),
            "options": texts[0], "pbem": texts[1],
            "turn_start": session.turn_start, "ids": [s.id for s in session.ships],
        }

    def _delta(self, session: "Session", change: "Change | None",
               texts: tuple[str, str]) -> dict | None:
        """The record of a change as a delta, or None when only a full record says it.
        ``texts``: the session's options and play-by-e-mail record as JSON, now."""
        seen = self._seen
        if change is None or len(session.log) < min(seen["log"], change.log_start) \
                or len(session.archive) < seen["archive"]:
            return None
        touched = change.action.touches(session)
        ids = [s.id for s in session.ships]
        if touched is None or session.turn_start is not seen["turn_start"]:
            # Every ship (a new turn replaces every ship's turn-start marks).
            ships = list(session.ships)
        else:
            wanted = set(touched) | (set(ids) - set(seen["ids"]))
            ships = [s for s in session.ships if s.id in wanted]
        log_from = min(seen["log"], change.log_start)
        record: dict[str, Any] = {
            "order": ids, "ships": [_ship_data(session, s) for s in ships],
            "name": session.name, "turn": session.turn, "phase": session.phase,
            "dice": {"seed": session.dice.seed, "count": session.dice.count,
                     "scheme": session_scheme(session)},
            "log_from": log_from, "log": [e.to_json() for e in session.log[log_from:]],
            "archive_from": seen["archive"], "archive": session.archive[seen["archive"]:],
        }
        if texts[0] != seen["options"]:
            record["options"] = session.options
        if texts[1] != seen["pbem"]:
            record["pbem"] = session.pbem
        return record

    # -- any thread -----------------------------------------------------------------
    def rebase(self, upto: int) -> None:
        """An autosave slot holding every record up to ``upto`` is on disk: the journal
        keeps only the later ones (rewritten atomically, on the writer thread)."""
        self._put(("rebase", upto, b""))

    def close(self) -> None:
        """Write what is queued, then stop the writer (the file stays, for a recovery)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=30)
        self._close_fd()
        with self._lock:
            waiting, self._waiting = self._waiting, []
        for _ticket, future in waiting:
            future.set_result(self.error or "the journal was closed")

    def discard(self) -> None:
        """Close and remove the file (the session was saved, or closed cleanly)."""
        self.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass

    # -- the writer thread --------------------------------------------------------------
    def _put(self, item: tuple) -> None:
        with self._lock:
            if self._closed:
                return
            self._queue.append(item)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="journal", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    self._lock.wait()
                if not self._queue and self._closed:
                    return
                batch = list(self._queue)
                self._queue.clear()
            last = self._write(batch)
            with self._lock:
                self._durable = max(self._durable, last)
                done = [f for t, f in self._waiting if t <= self._durable]
                self._waiting = [(t, f) for t, f in self._waiting if t > self._durable]
            for future in done:
                future.set_result(self.error)

    def _write(self, batch: list[tuple]) -> int:
        """Write a batch in order; returns the last ticket it holds (on disk, or failed:
        a failure is kept in :attr:`error` and every waiting phone is told it)."""
        last = 0
        try:
            pending = b""
            for kind, ticket, line in batch:
                if kind == "record":
                    self._kept.append((ticket, line))
                    pending += line
                    last = ticket
                else:
                    if pending:
                        self._append(pending)
                        pending = b""
                    self._kept = [(t, b) for t, b in self._kept if t > ticket]
                    self._rewrite()
            if pending:
                self._append(pending)
            if self._fd is not None:
                full_fsync(self._fd)
            self.error = ""
        except OSError as exc:
            self.error = f"the journal could not be written: {exc.strerror or exc}"
            self._close_fd()  # the next write starts the file again from what is kept
        return last

    def _header(self) -> bytes:
        header = {"journal": _FORMAT, "id": self.id, "source": self.source}
        if self.base is not None:
            header["base"] = self.base
        return _line(header)

    def _append(self, payload: bytes) -> None:
        if self._fd is None:
            self._rewrite()  # the file starts as the header and every kept record
            return
        os.write(self._fd, payload)

    def _rewrite(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._close_fd()
        write_atomic(self.path, self._header() + b"".join(b for _t, b in self._kept), private=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | NOFOLLOW | BINARY)

    def _close_fd(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


# -- reading a journal back ---------------------------------------------------------------

class JournalRead:
    """What a journal file holds: its id, its records (ticket order, contiguous), and what
    was wrong with it ("" when nothing)."""

    __slots__ = ("id", "records", "problem", "source", "base")

    def __init__(self, journal_id: str | None, records: list[dict], problem: str = "",
                 source: str | None = None, base: list | None = None):
        self.id = journal_id
        self.source = source
        self.base = base
        self.records = records
        self.problem = problem


def read_journal(raw: bytes) -> JournalRead:
    """Parse a journal's bytes: the header, then every record up to the first that is torn,
    not JSON, or out of order (a torn last line is a crash mid-write, not a problem)."""
    lines = raw.split(b"\n")
    torn = lines.pop() if lines else b""  # after the last newline: "" unless a write was cut
    if not lines:
        return JournalRead(None, [], "" if not torn else "its header is incomplete")
    try:
        header = json.loads(lines[0])
    except ValueError:
        return JournalRead(None, [], "its header is not JSON")
    if not isinstance(header, dict) or header.get("journal") != _FORMAT \
            or not isinstance(header.get("id"), str):
        return JournalRead(None, [], "it is not a ShipSheet journal")
    records, problem = [], ""
    for number, line in enumerate(lines[1:], start=2):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            problem = f"line {number} is not JSON"
            break
        ticket = record.get("t") if isinstance(record, dict) else None
        if not isinstance(ticket, int) or isinstance(ticket, bool) or \
                (records and ticket != records[-1]["t"] + 1):
            problem = f"line {number} is out of order"
            break
        records.append(record)
    source = header.get("source")
    base = header.get("base")
    if not (isinstance(base, list) and len(base) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) for v in base)):
        base = None
    return JournalRead(header["id"], records, problem, source if isinstance(source, str) else None,
                       base)


class BadRecord(ValueError):
    """A journal record that is not a well-formed delta."""


def _list(record: dict, key: str, of: type) -> list:
    value = record.get(key)
    if not isinstance(value, list) or not all(isinstance(v, of) for v in value):
        raise BadRecord(f"its {key!r} is not a list")
    return value


def _index(record: dict, key: str, limit: int) -> int:
    value = record.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        raise BadRecord(f"its {key!r} is out of range")
    return value


def apply_record(data: dict, record: dict) -> dict:
    """The session data after one record (a new dict; ``data`` is left as it was).
    Raises BadRecord for a record that is not a well-formed delta."""
    if "full" in record:
        if not isinstance(record["full"], dict):
            raise BadRecord("its full session is not an object")
        return dict(record["full"])
    out = dict(data)
    old = {s.get("id"): s for s in data.get("ships", []) if isinstance(s, dict)}
    for ship in _list(record, "ships", dict):
        if not isinstance(ship.get("id"), str):
            raise BadRecord("a ship has no id")
        old[ship["id"]] = ship
    order = _list(record, "order", str)
    if any(i not in old for i in order):
        raise BadRecord("it names a ship it does not hold")
    out["ships"] = [old[i] for i in order]
    for key in ("name", "turn", "phase", "dice", "options", "pbem"):
        if key in record:
            out[key] = record[key]
    log = data.get("log", [])
    log = log if isinstance(log, list) else []
    out["log"] = log[:_index(record, "log_from", len(log))] + _list(record, "log", dict)
    archive = data.get("archive", [])
    archive = archive if isinstance(archive, list) else []
    tail = _list(record, "archive", object)
    out["archive"] = archive[:_index(record, "archive_from", len(archive))] + tail
    if not out["archive"]:
        out.pop("archive")
    if not out.get("pbem"):
        out.pop("pbem", None)
    return out


def replay(data: dict | None, records: list[dict], after: int = 0) -> tuple[dict | None, int, str]:
    """``data`` (a slot's session data, or None) with the ``records`` after ticket ``after``
    applied: (the data, how many records were applied, what stopped the replay or "")."""
    applied = 0
    for record in records:
        if record["t"] <= after:
            continue
        if "full" not in record and record["t"] != after + applied + 1:
            return data, applied, f"record {after + applied + 1} is missing"
        if data is None and "full" not in record:
            return data, applied, "the journal does not begin with the whole session"
        try:
            data = apply_record(data or {}, record)
        except BadRecord as exc:
            return data, applied, f"record {record['t']}: {exc}"
        applied += 1
    return data, applied, ""

"""The audit bundle: a finished game checked by anyone, with no secret of anyone's.

``shipsheet pbem audit-export SESSION -o DIR`` (:func:`export_bundle`) writes, from the
moderator's session:

- ``DIR/audit.json``: the game, its players and every public key they joined with, the
  moderator's own player, every turn's commitment, the seed of every closed turn, each
  turn's record (stage, the set of contributions, first roll, transcript count and
  hash), the full transcript of every closed turn, the desk's ledger in order (each file
  received and what became of it, each closing of orders with its set, each closing of a
  turn, each time a seed left the desk), the turn desk's last record of each player's
  orders, and the log of the closed turns;
- ``DIR/files/``: every file the ledger kept, byte for byte: orders files, accepted or
  refused, and join files.

Never in it: a player's secret, a private key (the moderator has none), the seed of a turn
not closed, the session's own seeded dice, the log of a turn not closed.

``shipsheet pbem audit DIR [--fingerprint NAME=HEX] [--pins FILE]`` (:func:`audit`) checks,
with no state folder and no secret: every file's bytes against its digest; every join
file's own signature; every signed orders file's signature against the key its player had
for its turn, the commitment it quotes, its contribution, and the transcripts it quotes;
that no orders of a player who had joined were taken unsigned; each turn's set against the
files that came before its orders closed (so a refusal or an undo that steered it shows);
each file applied or refused as the ledger and the log say; every closed turn's seed
against its commitment, its transcript against its hash and the log, and every roll
recomputed; and every key against the fingerprints the players pinned (their ``shipsheet
pbem pins`` file, or ``--fingerprint``), so a key the moderator registered in a player's
name shows. The verdict says per turn which guarantee held.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import field
from ..model.code_cache import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from shipsheet.model.dice import (CLOSED, TURN_HMAC, TURN_SET, commitment, contribution_set,
                                  dice_record, is_hex64, turn_scheme, turn_set_key,
                                  turn_set_value)
from shipsheet.model.errors import RuleViolation
from shipsheet.model.files import problem, read_regular
from shipsheet.model.log import LogEntry
from shipsheet.model.storage import write_atomic

from . import ledger, record, stages, transcript
from .keys import contribution_message, fingerprint, same_fingerprint, show_fingerprint, verify
from .public import shown_seeds, turn_table
from .verify import TurnVerdict

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session

FORMAT = "shipsheet-audit"
VERSION = 1
MANIFEST = "audit.json"
FILES = "files"
MAX_MANIFEST = 50 * 1024 * 1024
MAX_FILE = 256 * 1024


class AuditError(RuleViolation):
    """A bundle that cannot be read (the message says why)."""


# -- writing -----------------------------------------------------------------------------------

def _log_of_closed(session: "Session", shown: set[int]) -> list[dict]:
    return [e.to_json() for e in session.log if e.turn in shown]


def bundle(session: "Session") -> tuple[dict, list[tuple[str, bytes]]]:
    """(the manifest, [(file name, bytes)]) of the audit bundle of a moderator's session."""
    from .inbox import ORDERS
    from ..model.files import safe_file_name
    if not record.is_moderator(session):
        raise RuleViolation("An audit bundle is made from the moderator's session.")
    found = dice_record(session.pbem) or {}
    shown = set(stages.revealable(session))
    dice: dict[str, Any] = {k: found[k] for k in ("scheme", "v2_from", "since", "since_turn",
                                                  "nonces") if k in found}
    dice["commitments"] = dict(found.get("commitments") or {})
    dice["seeds"] = shown_seeds(found, shown)
    dice["turns"] = {t: {k: v for k, v in e.items()} for t, e in
                     (found.get("turns") or {}).items() if isinstance(e, dict)}
    closed = [t for t in stages.closed_turns(session) if stages.scheme_of(session, t) == TURN_SET]
    readings = transcript.read_turns(session, closed)
    written: list[tuple[str, bytes]] = []
    entries: list[dict] = []
    for index, item in enumerate(session.archive):
        if not isinstance(item, dict):
            continue
        if item.get("kind") == ledger.FILE:
            got = ledger._file(index, item)
            if got is None:
                entries.append({"kind": "damaged"})
                continue
            name = (f"{len(written) + 1:04d}-{safe_file_name(got.player, 24)}-t{got.turn}-"
                    f"{got.what}" + (f"-{got.seq}" if got.what == ORDERS else "") + ".json")
            if got.text:  # (a file kept by its digest alone has no bytes to give)
                written.append((name, got.text.encode("utf-8")))
            entries.append({"kind": ledger.FILE, "file": f"{FILES}/{name}" if got.text else None,
                            "what": got.what,
                            "player": got.player, "turn": got.turn, "seq": got.seq,
                            "digest": got.digest, "status": got.status, "reason": got.reason})
        else:
            entries.append(item)
    orders = session.pbem.get("orders") if isinstance(session.pbem.get("orders"), dict) else {}
    manifest = {
        "format": FORMAT, "version": VERSION, "made": date.today().isoformat(),
        "game": session.game, "session": session.uid, "title": session.title,
        "turn": session.turn,
        "players": [{"name": p.name, "keys": [k.to_json() for k in p.keys]}
                    for p in record.players(session)],
        "moderator_plays": record.moderator_plays(session),
        "dice": dice,
        "transcripts": {str(t): readings[t].entries for t in closed},
        "ledger": entries,
        "orders": orders,
        "log": _log_of_closed(session, shown),
    }
    return manifest, written


def export_bundle(session: "Session", folder: str | Path) -> list[Path]:
    """Write the audit bundle into ``folder`` (module docstring); the files written. The
    closed turns' seeds go out in it: the ledger marks them revealed first (a change of
    the session, to save after)."""
    stages.mark_revealed(session, "an audit bundle")
    manifest, files = bundle(session)
    folder = Path(folder)
    (folder / FILES).mkdir(parents=True, exist_ok=True)
    out = []
    for name, raw in files:
        path = folder / FILES / name
        write_atomic(path, raw)
        out.append(path)
    path = folder / MANIFEST
    write_atomic(path, json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8"))
    return [path, *out]


# -- checking -----------------------------------------------------------------------------------

class AuditTurn(TurnVerdict):
    """One turn's audit: said as ``verify-dice`` says a turn."""

    NOT_CLOSED = "not closed (its seed is secret; not checked)"


@dataclass
class AuditResult:
    """What :func:`audit` found."""

    title: str = ""
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    turns: list[AuditTurn] = field(default_factory=list)
    files: int = 0
    incomplete: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        if self.problems or any(t.problems for t in self.turns):
            return "failed"
        return "incomplete" if self.incomplete else "verified"

    def lines(self) -> list[str]:
        head = {"failed": "AUDIT FAILED (see below).",
                "incomplete": "Nothing wrong found, but not everything is proven (see below).",
                "verified": f"Audit passed: {self.files} file(s) and every roll of every closed "
                            f"turn checked."}[self.status]
        out = [f"{self.title}", head]
        out += [f"! {p}" for p in self.problems]
        out += [f"- {n}" for n in self.incomplete]
        out += self.notes
        for turn in self.turns:
            out += turn.lines()
        return out


def _read_json(path: Path, limit: int) -> Any:
    try:
        raw = read_regular(path, limit)
    except OSError as exc:
        raise AuditError(f"{path}: {problem(exc)}") from None
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise AuditError(f"{path}: not JSON (damaged?)") from None


def _pairs(value: Any) -> list | None:
    """A set of contributions as a sorted list of [name, hex] (None: not one)."""
    found = contribution_set(value)
    return None if found is None else sorted(found)


def _table(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


class _Keys:
    """The players' keys as the bundle lists them."""

    def __init__(self, players: list):
        self.keys: dict[str, list[record.PlayerKey]] = {}
        for p in players:
            if not (isinstance(p, dict) and isinstance(p.get("name"), str)):
                continue
            listed = []
            for k in _list(p.get("keys")):
                since = k.get("from") if isinstance(k, dict) else None
                if isinstance(k, dict) and is_hex64(k.get("public")) and isinstance(since, int):
                    listed.append(record.PlayerKey(k["public"], since))
            self.keys[p["name"]] = listed

    def for_turn(self, name: str, turn: int) -> record.PlayerKey | None:
        return record.key_for(self.keys.get(name, []), turn)


def _pinned(pins_files: Iterable[Path], fingerprints: Mapping[str, list[str]], result: AuditResult,
            uid: str) -> tuple[dict[str, list[str]], list]:
    """name -> the fingerprints the players pinned or gave; and the pins read."""
    from .pins import from_json
    accepted: dict[str, list[str]] = {n: list(v) for n, v in fingerprints.items()}
    read = []
    for path in pins_files:
        pins = from_json(_read_json(Path(path), 4 * 1024 * 1024))
        if pins is None:
            raise AuditError(f"{path}: not a ShipSheet pins file (shipsheet pbem pins writes one)")
        if pins.session != uid:
            result.problems.append(f"{Path(path).name}: the pins of another game")
            continue
        read.append(pins)
        if pins.own:
            accepted.setdefault(pins.player, []).extend(pins.own_keys or [pins.own])
    return accepted, read


def audit(folder: str | Path, *, fingerprints: Mapping[str, list[str]] | None = None,
          pins: Iterable[str | Path] = ()) -> AuditResult:
    """Check an audit bundle (module docstring). ``fingerprints``: player name -> the
    fingerprints they say are theirs; ``pins``: players' pins files. AuditError when the
    bundle cannot be read at all; a bundle that reads but holds nonsense fails."""
    folder = Path(folder)
    manifest = _read_json(folder / MANIFEST, MAX_MANIFEST)
    if not (isinstance(manifest, dict) and manifest.get("format") == FORMAT):
        raise AuditError(f"{folder / MANIFEST}: not a ShipSheet audit bundle")
    return _Audit(folder, manifest).run(fingerprints or {}, pins)


#: What a part of a hostile bundle may raise where it holds the wrong kind of thing.
_DAMAGED = (TypeError, ValueError, KeyError, AttributeError, IndexError)


class _Audit:
    """One bundle being checked: what it says, and what was found."""

    def __init__(self, folder: Path, manifest: dict):
        self.folder = folder
        self.manifest = manifest
        self.result = AuditResult(f"{manifest.get('title', '')} ({manifest.get('game', '')}, "
                                  f"session {manifest.get('session', '')})")
        uid = manifest.get("session")
        self.uid = uid if isinstance(uid, str) else ""
        self.keys = _Keys(_list(manifest.get("players")))
        self.excluded = manifest.get("moderator_plays")
        self.dice = _table(manifest.get("dice"))
        self.commitments = turn_table(self.dice.get("commitments"))
        self.seeds = turn_table(self.dice.get("seeds"))
        self.records = turn_table(self.dice.get("turns"), lambda v: isinstance(v, dict))
        self.fixed_hashes = {t: _table(e.get("transcript")).get("hash")
                             for t, e in self.records.items()}
        # What the ledger walk gathers.
        self.contributions: dict[int, dict[str, str]] = {}
        self.queued: dict[int, dict[str, tuple[int, str]]] = {}
        self.closes: dict[int, list[dict]] = {}
        self.applied: list[tuple[str, int, int]] = []
        self.file_turns: set[int] = set()
        #: turn -> its rolls read from the log (:meth:`run`; None: read per turn).
        self.readings: dict[int, transcript.Reading] | None = None

    def run(self, fingerprints: Mapping[str, list[str]], pins: Iterable[str | Path]) -> AuditResult:
        result = self.result
        self.check_keys(fingerprints, pins)
        for index, entry in enumerate(_list(self.manifest.get("ledger")), 1):
            try:
                self.ledger_entry(entry)
            except _DAMAGED:
                result.problems.append(f"ledger entry {index} is damaged")
        log = [e for e in (_entry(d) for d in _list(self.manifest.get("log"))) if e is not None]
        self.log = log
        self.view = _LogView(log, self.manifest)
        self.full = turn_table(self.manifest.get("transcripts"), lambda v: True)
        old = {e.turn for e in log if e.kind == "roll" and isinstance(e.roll, list)
               and e.roll[:1] == [2]}
        listed = sorted(set(self.records) | set(self.full) | set(self.closes) | old)
        try:  # every turn's rolls in one pass over the log
            self.readings = transcript.read_turns(self.view, listed)  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - a damaged log: each turn read alone (turn_entries)
            self.readings = None
        for turn in listed:
            scheme = turn_scheme(self.dice, turn)
            rec = self.records.get(turn, {})
            closed = rec.get("stage") == CLOSED or scheme == TURN_HMAC and turn in self.seeds
            at = AuditTurn(turn, scheme, closed)
            result.turns.append(at)
            try:
                self.check_turn(at, rec)
            except _DAMAGED:
                at.problems.append("the bundle's record of this turn is damaged")
        for player, turn, seq in self.applied:
            if not self.view.applied(player, seq, turn):
                result.problems.append(f"{player}'s orders number {seq} for turn {turn}: "
                                       f"listed as applied, but the log does not apply them")
        return result

    # -- the keys, against what the players pinned -----------------------------------------
    def check_keys(self, fingerprints: Mapping[str, list[str]], pins: Iterable[str | Path]) -> None:
        result, keys = self.result, self.keys
        accepted, read_pins = _pinned(pins, fingerprints, result, self.uid)
        for name, given in sorted(accepted.items()):
            if name not in keys.keys:
                result.problems.append(f'a fingerprint is given for "{name}", who is not a '
                                       f"player")
                continue
            for key in keys.keys[name]:
                fp = fingerprint(key.public)
                if not any(same_fingerprint(g, fp) for g in given):
                    result.problems.append(
                        f"{name}'s key from turn {key.since} ({show_fingerprint(fp)}) is not "
                        f"one {name} pinned or gave: someone else registered it in {name}'s "
                        f"name, and the orders signed with it are not {name}'s")
        for name, listed in keys.keys.items():
            if listed and name not in accepted:
                result.incomplete.append(f"{name}'s key is not checked against {name}'s own "
                                         f"pins (give --pins or --fingerprint for {name})")
        for p in read_pins:
            for label, table, mine in (("commitment", p.commitments, self.commitments),
                                       ("seed", p.seeds, self.seeds),
                                       ("transcript", p.transcripts, self.fixed_hashes)):
                for turn, value in table.items():
                    if turn in mine and mine[turn] != value:
                        result.problems.append(f"{p.player} was shown turn {turn}'s {label} "
                                               f"as {value}; the bundle says {mine[turn]}")

    # -- the ledger, in order ---------------------------------------------------------------
    def ledger_entry(self, entry: Any) -> None:
        result = self.result
        if not isinstance(entry, dict):
            result.problems.append("the ledger has an entry that is not an object")
            return
        kind = entry.get("kind")
        turn = entry.get("turn") if isinstance(entry.get("turn"), int) else None
        if kind == ledger.CLOSE_ORDERS and turn is not None:
            seen = sorted([n, c] for n, c in self.contributions.get(turn, {}).items())
            self.closes.setdefault(turn, []).append({"set": seen, "mark": entry})
            return
        if kind != ledger.FILE:
            return
        result.files += 1
        if turn is not None:
            self.file_turns.add(turn)
        name, status, player = entry.get("file"), entry.get("status"), entry.get("player")
        if name is None and status not in ("queued", "applied", "joined"):
            result.incomplete.append(f"a {status} file from {player} for turn {turn}: kept by "
                                     f"its digest alone (their share of the ledger was full)")
            return
        if not (isinstance(name, str) and name.startswith(f"{FILES}/")
                and "/" not in name[len(FILES) + 1:] and ".." not in name):
            result.problems.append(f"{name}: not a file of the bundle")
            return
        try:
            raw = read_regular(self.folder / name, MAX_FILE)
        except OSError as exc:
            result.problems.append(f"{name}: missing from the bundle ({problem(exc)})")
            return
        if hashlib.sha256(raw).hexdigest() != entry.get("digest"):
            result.problems.append(f"{name}: its bytes are not those the moderator received "
                                   f"(the digest differs)")
            return
        if entry.get("what") == ledger.JOIN:
            self.join_file(name, raw, player, status)
        else:
            self.orders_file(name, raw, entry, player, status)

    def join_file(self, label: str, raw: bytes, player: Any, status: Any) -> None:
        from .joins import is_join, parse_join, proves_possession
        result = self.result
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            data = None
        if not is_join(data):
            result.problems.append(f"{label}: listed as a join file, is none")
            return
        try:
            parse_join(data, label)
        except RuleViolation as exc:
            result.problems.append(str(exc))
            return
        if not proves_possession(data):
            result.problems.append(f"{label}: the key's own signature does not hold")
        elif status == "joined" and not any(k.public == data["public_key"]
                                            for k in self.keys.keys.get(player, [])):
            result.problems.append(f"{label}: {player} joined with this key, which the record "
                                   f"does not list")

    def orders_file(self, label: str, raw: bytes, entry: dict, player: Any, status: Any) -> None:
        from .orders import OrdersFileError, parse_orders, signature_holds
        result = self.result
        try:
            data = parse_orders(raw, label)
        except (RuleViolation, OrdersFileError) as exc:
            result.problems.append(str(exc))
            return
        turn, seq = data["turn"], data["seq"]
        if data["player"] != player or turn != entry.get("turn"):
            result.problems.append(f"{label}: the ledger lists it for another player or turn")
            return
        had = self.keys.for_turn(player, turn)
        if data["version"] == 1:
            if had is not None:
                result.problems.append(f"{label}: unsigned orders from {player}, who had joined "
                                       f"(key {show_fingerprint(fingerprint(had.public))}), "
                                       f"taken with status {status!r}")
            else:
                result.incomplete.append(f"{label}: {player}'s orders for turn {turn} are not "
                                         f"signed ({player} had not joined): that {player} "
                                         f"wrote them rests on the moderator's word")
        else:
            if had is None or data["key"] != fingerprint(had.public) or \
                    not signature_holds(data, had.public):
                result.problems.append(f"{label}: not signed with {player}'s key for turn "
                                       f"{turn}")
                return
            commit = self.commitments.get(turn)
            if data["commitment"] is not None and data["commitment"] != commit:
                result.problems.append(f"{label}: it quotes turn {turn}'s commitment as "
                                       f"{data['commitment']}; the bundle says {commit}")
            elif data["contribution"] is not None:
                if not verify(had.public, contribution_message(self.uid, turn,
                                                               data["commitment"]),
                              data["contribution"]):
                    result.problems.append(f"{label}: its contribution is not {player}'s "
                                           f"signature of the turn's commitment")
                elif status != "late" and player != self.excluded:
                    self.contributions.setdefault(turn, {}).setdefault(player,
                                                                       data["contribution"])
            for key, value in _table(_table(data.get("seen")).get("transcripts")).items():
                quoted = int(key)
                if self.fixed_hashes.get(quoted) != value:
                    result.problems.append(f"{label}: {player} was shown turn {quoted}'s "
                                           f"transcript as {value}; the bundle says "
                                           f"{self.fixed_hashes.get(quoted)}")
        if status == "queued":
            self.queued.setdefault(turn, {})[player] = (seq, entry.get("digest"))
        elif status == "applied":
            self.applied.append((player, turn, seq))

    # -- each turn ---------------------------------------------------------------------------
    def turn_entries(self, turn: int) -> list[dict]:
        """The log's rolls of ``turn``, as transcript entries: from the one pass over the log,
        or, when a damaged log stopped it, read for this turn alone (its damage failing
        this turn only)."""
        if self.readings is not None:
            return self.readings[turn].entries
        return transcript.read_turns(self.view, [turn])[turn].entries  # type: ignore[arg-type]

    def check_turn(self, at: AuditTurn, rec: dict) -> None:
        turn = at.turn
        if at.scheme != TURN_SET:
            _old_turn(at, turn, self.log, self.seeds, self.commitments,
                      _table(self.dice.get("nonces")))
            if turn not in self.file_turns:
                at.notes.append("its orders files came before the desk kept every file: they "
                                "are not in the bundle")
            self.result.incomplete.append(f"turn {turn} rolled turn-hmac-v1 (begun before "
                                          f"turns had stages): its promise is weaker")
            return
        made = self.closes.get(turn, [])
        if len(made) > 1:
            at.notes.append(f"its orders were closed {len(made)} times (an undo between): "
                            f"every closing is listed in the ledger")
        if made:
            last = made[-1]
            if _pairs(last["mark"].get("set")) != last["set"]:
                at.problems.append("the set of contributions when the orders closed is not the "
                                   "set of the files that had come: a refusal or an undo "
                                   "steered it, or a contribution was made up")
            if _pairs(rec.get("set")) != last["set"]:
                at.problems.append("the turn's record of contributions is not the set the "
                                   "files make")
            _check_applied(at, last["mark"], self.queued.get(turn, {}), self.view, turn)
        if not at.closed:
            return
        if not made:
            at.problems.append("closed without its orders closing")
        seed = self.seeds.get(turn)
        if seed is None:
            at.problems.append("no seed revealed for a closed turn")
            return
        if self.commitments.get(turn) != commitment(seed):
            at.problems.append("the seed does not match its commitment")
        listed = _list(self.full.get(turn))
        entries = [e for e in listed if transcript._entry_ok(e)]
        if len(entries) != len(listed):
            at.problems.append("the transcript has damaged rolls")
        fixed = _table(rec.get("transcript"))
        if transcript.fixed(turn, entries) != {"count": fixed.get("count"),
                                               "hash": fixed.get("hash")}:
            at.problems.append("the transcript does not make the count and hash fixed when the "
                               "turn closed")
        if self.turn_entries(turn) != entries:
            at.problems.append("the log's rolls of the turn are not the transcript's")
        contributions = _pairs(rec.get("set"))
        key = None if at.problems or contributions is None else \
            turn_set_key(seed, self.uid, turn, contributions)
        for e in entries:
            if e["typed"]:
                at.problems.append(f"{transcript.describe(e)}: typed in")
            elif key is not None and 1 <= e["sides"] <= 2**32:
                want = turn_set_value(key, e["n"], e["sides"],
                                      (e["ship"] or "", e["action"], e["reason"]))
                if want != e["value"]:
                    at.problems.append(f"{transcript.describe(e)}: the seed gives {want}")
                else:
                    at.checked += 1
        live = [e["n"] for e in entries if not e["undone"]]
        first = rec.get("first")
        if live and isinstance(first, int) and live != list(range(first, first + len(live))):
            at.problems.append("the roll numbers are not one run from the turn's first")
        undone = sum(1 for e in entries if e["undone"])
        if undone:
            at.notes.append(f"{undone} undone roll(s) kept in the transcript")


def _old_turn(at: AuditTurn, turn: int, log: list[LogEntry], seeds: dict, commitments: dict,
              nonces: dict) -> None:
    """A turn of the older scheme: its rolls recomputed from its seed and the nonces in the
    order they were mixed in (``pbem/dice.py``)."""
    from shipsheet.model.dice import turn_hmac_value, turn_key
    seed = seeds.get(turn)
    if seed is None:
        at.closed = False
        return
    if commitments.get(turn) not in (None, commitment(seed)):
        at.problems.append("the seed does not match its commitment")
    listed = [n for n in _list(nonces.get(str(turn))) if is_hex64(n)]
    for entry in log:
        roll = entry.roll
        if entry.turn != turn or entry.kind != "roll" or not (
                isinstance(roll, list) and len(roll) == 6 and roll[0] == 2
                and all(isinstance(v, int) for v in roll)):
            continue
        _, number, sides, value, typed, k = roll
        if typed:
            at.notes.append(f"roll #{number} typed in from physical dice (not checkable)")
            continue
        if k > len(listed) or not 1 <= sides <= 2**32:
            at.problems.append(f"roll #{number}: mixes in {k} nonce(s); the record has "
                               f"{len(listed)}")
            continue
        if turn_hmac_value(turn_key(seed, listed[:k]), number, sides) != value:
            at.problems.append(f'roll #{number} ("{entry.text}"): not what the seed gives')
        else:
            at.checked += 1


def _check_applied(at: AuditTurn, mark: dict, queued: dict[str, tuple[int, str]], view,
                   turn: int) -> None:
    """Each player's last queued file applied or refused when the orders closed, as the
    ledger and the log say."""
    applied = {a[0]: a for a in _list(mark.get("applied")) if isinstance(a, list) and len(a) == 3}
    refused = {r[0]: r for r in _list(mark.get("refused")) if isinstance(r, list) and len(r) == 4}
    for player, (seq, digest) in sorted(queued.items()):
        if player in applied:
            if applied[player][1:] != [seq, digest]:
                at.problems.append(f"{player}: file number {applied[player][1]} applied, but "
                                   f"number {seq} was the last queued")
            elif not view.applied(player, seq, turn):
                at.problems.append(f"{player}'s orders number {seq}: listed as applied, the log "
                                   f"does not apply them")
        elif player in refused:
            at.notes.append(f"{player}'s orders number {seq} refused when the orders closed: "
                            f"{refused[player][3]}")
        else:
            at.problems.append(f"{player}'s queued orders number {seq} were neither applied nor "
                               f"refused when the orders closed")
    for player in applied:
        if player not in queued:
            at.problems.append(f"{player}: orders applied that were never queued")


def _entry(data: Any) -> LogEntry | None:
    if not (isinstance(data, dict) and isinstance(data.get("text"), str)):
        return None
    roll = data.get("roll")
    return LogEntry(data["text"], data.get("kind", "action"), data.get("turn", 1),
                    data.get("phase", ""), data.get("ship"), data.get("action", 0),
                    bool(data.get("undone", False)), data.get("time", ""), data.get("by"),
                    roll if isinstance(roll, list) else None)


class _LogView:
    """The bundle's log, as ``transcript.read_turns`` reads a session's."""

    def __init__(self, log: list[LogEntry], manifest: dict):
        self.log = log
        since = _table(manifest.get("dice")).get("since", 0)
        self.pbem = {"dice": {"since": since if isinstance(since, int) else 0}}

    def applied(self, player: str, seq: int, turn: int) -> bool:
        prefix = f"{player}'s orders number {seq}: "
        return any(e.turn == turn and e.text.startswith(prefix) and " applied of " in e.text
                   and not e.undone for e in self.log)


__all__ = ["AuditError", "AuditResult", "AuditTurn", "FORMAT", "MANIFEST", "audit", "bundle",
           "export_bundle"]

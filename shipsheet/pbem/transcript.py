"""A turn's transcript: every roll of a ``turn-set-v2`` turn, read from the log, fixed when
the turn closes by its count and one hash (SECURITY.md, "What the moderator cannot do
unseen").

Each roll of the turn is an **entry** — what the log says of it::

    {"n": roll number, "sides": s, "value": v, "typed": 0, "undone": false,
     "ship": the change's ship id or null, "action": the change's headline,
     "reason": the roll's reason, "phase": the phase, "about": [ship ids of the change]}

``ship``, ``action`` and ``reason`` are the roll's purpose (``model.dice.turn_set_value``);
``about`` names every ship a line of the change is about or by (an attack's attacker and
target), so each player's view holds in full the rolls that concern their ships.

Its **digest** is SHA-256 of ``b"shipsheet roll v2\\n"`` + the entry's canonical JSON; the
turn's **hash** is SHA-256 of ``b"shipsheet transcript v2\\n"`` + the canonical JSON of
``{"turn": t, "count": n, "rolls": [digest, ...]}``, the entries in log order, undone
ones included (a re-roll by undo stays visible). Deleting, inserting, editing,
renumbering or reordering a roll changes the hash.

A **view** is the transcript as one player receives it: their entries in full
(``{"roll": entry}``), everyone else's as digests (``{"digest": hex}``), from which the
player recomputes the same hash without learning another's dice early.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import field
from ..model.code_cache import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from shipsheet.model.dice import SCHEME_IDS, TURN_SET, canonical_json, is_hex64

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.log import LogEntry
    from shipsheet.model.session import Session

ROLL_PREFIX = b"shipsheet roll v2\n"
HASH_PREFIX = b"shipsheet transcript v2\n"
#: Fields of an entry, in the order they are described.
FIELDS = ("n", "sides", "value", "typed", "undone", "ship", "action", "reason", "phase", "about")
_ROLL_TEXT = re.compile(r"d(\d+) (rolled|typed in): (\d+)(?: for (.*))?")
MAX_ROLLS = 100_000  # one turn's, in a view


@dataclass
class Reading:
    """A turn's rolls as read from a log: the entries, and every roll line that cannot be
    an entry (no record, a damaged one, a line at odds with it, no headline), with why."""

    entries: list[dict] = field(default_factory=list)
    problems: list[tuple["LogEntry", str]] = field(default_factory=list)


def _groups(log: list["LogEntry"]) -> dict[int, list["LogEntry"]]:
    """The log's entries by the change (action number) they belong to."""
    groups: dict[int, list] = {}
    for entry in log:
        if entry.action:
            groups.setdefault(entry.action, []).append(entry)
    return groups


def read_turn(session: "Session", turn: int) -> Reading:
    """Turn ``turn``'s ``turn-set-v2`` rolls, as entries, in log order."""
    return read_turns(session, [turn])[turn]


def read_turns(session: "Session", turns: Iterable[int]) -> dict[int, Reading]:
    """:func:`read_turn` for several turns at once (one pass over the log). Rolls of the
    changes made before the session's dice became verifiable (``"since"``, the switch's
    change number) are not the turn's."""
    wanted = {t: Reading() for t in turns}
    groups = _groups(session.log)
    scheme = SCHEME_IDS[TURN_SET]
    record = session.pbem.get("dice") if isinstance(session.pbem, dict) else None
    since = record.get("since", 0) if isinstance(record, dict) else 0
    since = since if isinstance(since, int) and not isinstance(since, bool) else 0
    for entry in session.log:
        if entry.kind != "roll" or entry.turn not in wanted or entry.action <= since:
            continue
        roll = entry.roll
        if not (isinstance(roll, list) and roll and roll[0] == scheme):
            why = ("no roll record" if roll is None else
                   "rolled with an older scheme in a turn-set-v2 turn"
                   if isinstance(roll, list) and roll and roll[0] in SCHEME_IDS.values()
                   else "a damaged roll record")
            wanted[entry.turn].problems.append((entry, why))
            continue
        made, why = entry_of(entry, groups.get(entry.action, []))
        if made is None:
            wanted[entry.turn].problems.append((entry, why))
        else:
            wanted[entry.turn].entries.append(made)
    return wanted


def entry_of(entry: "LogEntry", group: list["LogEntry"]) -> tuple[dict | None, str]:
    """The transcript entry of one roll line (``group``: its change's lines), or (None, why)."""
    roll = entry.roll
    if len(roll) != 6 or any(isinstance(v, bool) or not isinstance(v, int) for v in roll):
        return None, "a damaged roll record"
    _, number, sides, value, typed, _mixed = roll
    if not (sides >= 1 and 1 <= value <= sides and typed in (0, 1) and number >= 0):
        return None, "a damaged roll record"
    said = _ROLL_TEXT.fullmatch(entry.text)
    if said is None:
        return None, "the log line does not read as a roll"
    if (int(said[1]), int(said[3]), said[2] == "typed in") != (sides, value, bool(typed)):
        return None, (f"the log line says d{said[1]} {said[2]} {said[3]}, its record "
                      f"d{sides} {'typed in' if typed else 'rolled'} {value}")
    head = group[0] if group and group[0].kind == "action" else None
    if head is None:
        return None, "no headline: the roll belongs to no change of the log"
    about = sorted({s for e in group for s in (e.ship, e.by) if isinstance(s, str)})
    return {"n": number, "sides": sides, "value": value, "typed": typed,
            "undone": bool(entry.undone), "ship": head.ship, "action": head.text,
            "reason": said[4] or "", "phase": entry.phase, "about": about}, ""


def digest(entry: dict) -> str:
    """An entry's digest (64 hex digits)."""
    return hashlib.sha256(ROLL_PREFIX + canonical_json(entry)).hexdigest()


def turn_hash(turn: int, digests: list[str]) -> str:
    """The hash of turn ``turn``'s transcript, from its entries' digests in order."""
    return hashlib.sha256(HASH_PREFIX + canonical_json(
        {"turn": turn, "count": len(digests), "rolls": digests})).hexdigest()


def fixed(turn: int, entries: list[dict]) -> dict:
    """What Close Turn fixes of a transcript: ``{"count": n, "hash": hex}``."""
    return {"count": len(entries), "hash": turn_hash(turn, [digest(e) for e in entries])}


def concerns(entry: dict, ships: set[str]) -> bool:
    """Whether a roll concerns one of ``ships`` (it is about or by one of them)."""
    about = entry.get("about")
    return isinstance(about, list) and any(s in ships for s in about)


def view_for(entries: list[dict], ships: Iterable[str]) -> list[dict]:
    """The transcript as one player receives it: the rolls about or by their ``ships`` in
    full, every other roll as its digest."""
    mine = set(ships)
    return [{"roll": e} if concerns(e, mine) else {"digest": digest(e)} for e in entries]


@dataclass
class View:
    """A view read back (from a player file): its entries in full, and the digests of all
    its rolls in order; ``problems`` when part of it is damaged."""

    full: list[dict] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _entry_ok(entry: Any) -> bool:
    if not (isinstance(entry, dict) and set(entry) == set(FIELDS)):
        return False
    ints = [entry[k] for k in ("n", "sides", "value", "typed")]
    if any(isinstance(v, bool) or not isinstance(v, int) for v in ints):
        return False
    texts = [entry["action"], entry["reason"], entry["phase"]]
    return (all(isinstance(v, str) for v in texts) and isinstance(entry["undone"], bool)
            and (entry["ship"] is None or isinstance(entry["ship"], str))
            and isinstance(entry["about"], list)
            and all(isinstance(s, str) for s in entry["about"])
            and 1 <= entry["value"] <= entry["sides"] and entry["n"] >= 0)


def read_view(items: Any) -> View:
    """A view from a file, checked."""
    view = View()
    if not isinstance(items, list) or len(items) > MAX_ROLLS:
        view.problems.append("the transcript is not a list of rolls")
        return view
    for i, item in enumerate(items, 1):
        if isinstance(item, dict) and set(item) == {"roll"} and _entry_ok(item["roll"]):
            view.full.append(item["roll"])
            view.digests.append(digest(item["roll"]))
        elif isinstance(item, dict) and set(item) == {"digest"} and is_hex64(item["digest"]):
            view.digests.append(item["digest"])
        else:
            view.problems.append(f"roll {i} of the transcript is damaged")
    return view


def describe(entry: dict) -> str:
    """One entry in words: ``roll #17: d6 4 for DAC row, group 1 (Volley of 12 at Hornet)``."""
    reason = f" for {entry['reason']}" if entry.get("reason") else ""
    undone = " (undone)" if entry.get("undone") else ""
    return (f"roll #{entry['n']}: d{entry['sides']} {entry['value']}{reason} "
            f"({entry['action']}){undone}")


__all__ = ["FIELDS", "Reading", "View", "concerns", "describe", "digest", "entry_of", "fixed",
           "read_turn", "read_turns", "read_view", "turn_hash", "view_for"]

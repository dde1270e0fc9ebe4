"""``verify-dice``: every roll checked, turn by turn, from the moderator's session file or from
a player file alone (SECURITY.md, "Play by e-mail: the threat model").

For each ``turn-set-v2`` turn (``model/dice.py``):

- a closed turn: its seed against its commitment (the file's, any given, and, for a player
  file, the ones its player's ShipSheet pinned); each contribution of its set against the
  public key of its player for that turn; its transcript — from the log (a moderator's
  file) or from the player's view of it (a player file: their rolls in full, the others'
  as digests) — against the count and hash fixed when it closed; each roll recomputed from
  the seed, the set, its number and its purpose; no roll typed in; the roll numbers one
  run from the turn's first, each used once. Any of these failing fails the verdict.
- a turn not closed yet: its seed is secret; what was rolled so far is not final.

Turns played before the switch (``turn-hmac-v1``) are checked as that scheme allows
(``pbem/dice.py``, :func:`shipsheet.pbem.dice.verify`), and said to be so: the verdict
states per turn which guarantee held.
"""

from __future__ import annotations

from dataclasses import field
from ..model.code_cache import dataclass
from typing import TYPE_CHECKING, ClassVar, Mapping

from shipsheet.model.dice import (CLOSED, OPEN, SCHEME_IDS, SEEDED, TURN_HMAC, TURN_SET,
                                  commitment, contribution_set, dice_record, is_hex64,
                                  turn_entry, turn_set_key, turn_set_value, v2_from)

from . import record, transcript
from .keys import contribution_message, fingerprint, show_fingerprint, verify as verify_signature

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session

VERIFIED, FAILED, INCOMPLETE = "verified", "failed", "incomplete"
#: What checking a part of a hostile file may raise where it holds the wrong kind of thing:
#: that part fails, in words; the rest is still checked.
DAMAGED = (TypeError, ValueError, KeyError, AttributeError, IndexError)
#: What each turn's scheme promises, in a line.
PROMISES = {
    TURN_SET: "turn-set-v2: no player could aim a roll; the moderator could not change, "
              "drop, add or reorder one unseen",
    TURN_HMAC: "turn-hmac-v1 (begun before turns had stages): the rolls are the seed's, but "
               "the moderator chose the order the nonces were mixed in, and a roll was not "
               "bound to its purpose",
}


@dataclass
class TurnVerdict:
    """One turn's check."""

    #: How a turn not closed is said (its seed is secret).
    NOT_CLOSED: ClassVar[str] = "not closed yet"

    turn: int
    scheme: str
    closed: bool = True
    checked: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        if self.problems:
            head = f"Turn {self.turn}: FAILED"
        elif not self.closed:
            head = f"Turn {self.turn}: {self.NOT_CLOSED}"
        else:
            head = f"Turn {self.turn}: verified, {self.checked} roll(s) recomputed and equal"
        out = [head + f" ({PROMISES.get(self.scheme, self.scheme)})"]
        out += [f"  ! {p}" for p in self.problems]
        out += [f"  {n}" for n in self.notes]
        return out


@dataclass
class Verdict:
    """What :func:`verify_session` found: a line per turn, and what holds for the file."""

    kind: str  # "moderator", "player" or "session"
    turns: list[TurnVerdict] = field(default_factory=list)
    old: object = None  # the turn-hmac-v1 / seeded-v1 part (pbem.dice.VerifyResult) or None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        old = self.old
        if self.problems or any(not t.ok for t in self.turns) or (
                old is not None and old.status == FAILED):
            return FAILED
        if any(not t.closed for t in self.turns if t.checked or t.notes) or (
                old is not None and old.status != VERIFIED) or (
                old is None and not self.turns):
            return INCOMPLETE
        return VERIFIED

    def old_turn_lines(self) -> list[str]:
        """A line per turn of the older scheme: what held for it."""
        old = self.old
        if old is None or not old.verifiable:
            return []
        turns: dict[int, list[int]] = {}
        for kind, rolls in (("bad", old.mismatched), ("unknown", old.unchecked)):
            for r in rolls:
                turns.setdefault(r.turn, [0, 0])[0 if kind == "bad" else 1] += 1
        for turn in sorted(old.nonces):
            turns.setdefault(turn, [0, 0])
        out = []
        for turn, (bad, unknown) in sorted(turns.items()):
            word = ("FAILED" if bad else "seed not revealed: not checked" if unknown
                    else "recomputed and equal")
            out.append(f"Turn {turn}: {word} ({PROMISES[TURN_HMAC]})")
        return out

    def headline(self) -> str:
        checked = sum(t.checked for t in self.turns) + (self.old.checked if self.old else 0)
        if self.status == FAILED:
            bad = sum(1 for t in self.turns if not t.ok)
            parts = ([f"{bad} turn(s) fail"] if bad else []) + (
                ["the file fails its checks"] if self.problems else []) + (
                ["the older turns fail"] if self.old is not None and self.old.status == FAILED
                else [])
            return f"FAILED: {', '.join(parts)} (see below)."
        if self.old is not None and not self.turns:
            return self.old.headline()  # a session of the older schemes only
        if self.status == VERIFIED:
            return f"Verified: all {checked} roll(s) recomputed and equal, every turn closed."
        return (f"Nothing wrong found, but not everything is proven: {checked} roll(s) "
                f"recomputed and equal (see below).")

    def lines(self) -> list[str]:
        out = [self.headline()]
        out += [f"! {p}" for p in self.problems]
        out += self.notes
        if self.old is not None:
            out += self.old_turn_lines()
            out.append("Turns before turn-set-v2, in full:" if self.turns else "Dice:")
            out += [f"  {line}" for line in self.old.lines()]
        for turn in self.turns:
            out += turn.lines()
        return out


def verify_session(session: "Session", *, seeds: Mapping[int, str] | None = None,
                   commitments: Mapping[int, str] | None = None,
                   pins: bool = True) -> Verdict:
    """Check every roll of a session file (module docstring). ``seeds``, ``commitments``:
    turn -> hex given on the command line (checked besides the file's); ``pins``: a player
    file is checked against (and adds to) what its player's ShipSheet pinned."""
    from .dice import verify as verify_old
    if record.is_player_file(session):
        return _player_file(session, seeds or {}, commitments or {}, pins)
    found = dice_record(session.pbem)
    verdict = Verdict("moderator" if found is not None else "session")
    first = v2_from(found) if found is not None else None
    old = verify_old(session, seeds, commitments)
    if first is None or old.scheme == SEEDED or _says_something(old):
        verdict.old = old
    if found is None or first is None:
        return verdict
    since = found.get("since", 0) if isinstance(found.get("since"), int) else 0
    before = sum(1 for e in session.log if e.kind == "roll" and e.action <= since)
    if before:
        verdict.notes.append(f"{before} roll(s) made before the dice became verifiable (not "
                             f"checked: they were the session's own seeded dice).")
    from .public import turn_table
    from .transcript import read_turns
    wanted = _v2_turns(turn_table(found.get("turns"), lambda v: True), first, session)
    readings = read_turns(session, wanted)
    uid = session.pbem.get("session") if isinstance(session.pbem.get("session"), str) \
        else session.uid
    for turn in wanted:
        try:
            verdict.turns.append(_moderator_turn(session, found, turn, readings[turn], uid,
                                                 commitments or {}, seeds or {}))
        except DAMAGED:
            verdict.turns.append(TurnVerdict(turn, TURN_SET, problems=[
                "the file's record of this turn is damaged"]))
    return verdict


def _says_something(old) -> bool:
    """Whether the older turns' check found rolls to speak of (checked, wrong, unknown)."""
    return bool(old.checked or old.mismatched or old.unchecked or old.typed or old.damaged
                or old.bad_seeds)


def _v2_turns(listed: Mapping[int, object], first: int, session: "Session") -> list[int]:
    """The turns from ``first`` on that the record lists or the log rolled in."""
    rolled = {e.turn for e in session.log if e.kind == "roll"}
    return sorted(t for t in set(listed) | rolled if t >= first)


def _seed_problems(turn: int, seed: str | None, checks: list[tuple[str, str | None]]
                   ) -> list[str]:
    out = []
    if seed is None:
        return [f"the seed of turn {turn} is not in the file although the turn is closed"]
    found = commitment(seed)
    for source, expected in checks:
        if expected is not None and expected != found:
            out.append(f"the seed does not match {source}: its SHA-256 is {found}, the "
                       f"commitment is {expected}")
    if all(expected is None for _, expected in checks):
        out.append("no commitment to this turn's seed is known: it could have been chosen "
                   "after the rolls")
    return out


def _set_problems(turn: int, contributions: object, key_of, uid: str, commit: str | None,
                  excluded: list[str]) -> tuple[list[list[str]], list[str]]:
    """(the set, as a list, and what is wrong with it)."""
    out: list[str] = []
    chosen = contribution_set(contributions)
    if chosen is None:
        return [], ["the set of contributions is damaged"]
    names = [c[0] for c in chosen]
    if len(set(names)) != len(names):
        out.append("a player's contribution is in the set twice")
    for name, signature in chosen:
        if name in excluded:
            out.append(f"{name}, the moderator's own player, has a contribution in the set "
                       f"(the moderator knows the seed: his adds nothing but a choice)")
        key = key_of(name, turn)
        if key is None:
            out.append(f"{name}'s contribution: {name} had no key for turn {turn}")
        elif commit is None or not verify_signature(
                key, contribution_message(uid, turn, commit), signature):
            out.append(f"{name}'s contribution is not {name}'s signature of the turn's "
                       f"commitment (key {show_fingerprint(fingerprint(key))}): it was made "
                       f"up or changed")
    return chosen, out


def _recompute(turn: int, entries: list[dict], key: bytes | None, first: int | None,
               verdict: TurnVerdict) -> None:
    """Each entry's value, and the numbering, into ``verdict``."""
    for entry in entries:
        if entry["typed"]:
            verdict.problems.append(f"{transcript.describe(entry)}: typed in from physical "
                                    f"dice, which a verifiable turn never takes")
            continue
        if key is None:
            continue
        if entry["sides"] > 2**32:
            verdict.problems.append(f"{transcript.describe(entry)}: too many sides")
            continue
        expected = turn_set_value(key, entry["n"], entry["sides"],
                                  (entry["ship"] or "", entry["action"], entry["reason"]))
        if expected != entry["value"]:
            verdict.problems.append(f"{transcript.describe(entry)}: logged {entry['value']}, "
                                    f"the seed gives {expected} for this number and purpose")
        else:
            verdict.checked += 1
    undone = [e for e in entries if e["undone"]]
    if undone:
        verdict.notes.append(f"{len(undone)} undone roll(s), kept (a re-roll by undo is "
                             f"visible): " + "; ".join(transcript.describe(e) for e in undone[:5])
                             + (" …" if len(undone) > 5 else ""))
    live = [e["n"] for e in entries if not e["undone"]]
    if first is not None and live:
        expected = list(range(first, first + len(live)))
        if live != expected:
            twice = sorted({n for n in live if live.count(n) > 1})
            missing = sorted(set(expected) - set(live))
            extra = sorted(set(live) - set(expected))
            words = []
            if missing:
                words.append(f"missing {', '.join(map(str, missing[:10]))}")
            if twice:
                words.append(f"twice {', '.join(map(str, twice[:10]))}")
            if extra:
                words.append(f"out of the turn's run {', '.join(map(str, extra[:10]))}")
            if not words:
                words.append("out of order")
            verdict.problems.append(f"the roll numbers are not one run from {first} in the "
                                    f"order rolled ({'; '.join(words)})")


def _moderator_turn(session: "Session", found: dict, turn: int, reading, uid: str,
                    given_commitments: Mapping[int, str], given_seeds: Mapping[int, str]
                    ) -> TurnVerdict:
    from .stages import info
    verdict = TurnVerdict(turn, TURN_SET)
    about = info(session, turn)
    if about.stage != CLOSED:
        verdict.closed = False
        rolled = len(reading.entries) + len(reading.problems)
        if about.stage == OPEN and rolled:
            verdict.problems.append(f"{rolled} roll(s) logged while the turn's orders were "
                                    f"open, when no die of it rolls")
        elif rolled:
            verdict.notes.append(f"{rolled} roll(s) so far: not final until the turn closes, "
                                 f"and its seed is secret until then")
        return verdict
    seeds = found.get("seeds") if isinstance(found.get("seeds"), dict) else {}
    seed = seeds.get(str(turn)) if is_hex64(seeds.get(str(turn))) else None
    given = given_seeds.get(turn)
    if given is not None and seed is not None and given != seed:
        verdict.problems.append("the seed given differs from the one in the file")
    seed = seed or given
    table = found.get("commitments") if isinstance(found.get("commitments"), dict) else {}
    commit = table.get(str(turn)) if is_hex64(table.get(str(turn))) else None
    verdict.problems += _seed_problems(turn, seed, [
        ("the commitment in the session file", commit),
        ("the commitment given", given_commitments.get(turn))])

    def key_of(name: str, t: int) -> str | None:
        player = record.find_player(session, name)
        key = record.key_for(player.keys, t) if player is not None else None
        return key.public if key is not None else None

    entry = turn_entry(found, turn)
    chosen, bad = _set_problems(turn, entry.get("set"), key_of, uid, commit,
                                list(about.excluded))
    verdict.problems += bad
    _notes_of_set(verdict, chosen, about.unsigned, about.missing, about.excluded)
    for line, why in reading.problems:
        verdict.problems.append(f'"{line.text}": {why}')
    fixed = about.transcript
    if not (isinstance(fixed, dict) and isinstance(fixed.get("count"), int)
            and is_hex64(fixed.get("hash"))):
        verdict.problems.append("the transcript fixed when the turn closed is missing or "
                                "damaged")
    else:
        now = transcript.fixed(turn, reading.entries)
        if now != {"count": fixed["count"], "hash": fixed["hash"]}:
            verdict.problems.append(
                f"the log's rolls of turn {turn} are not those fixed when it closed ("
                + (f"{now['count']} roll(s) now, {fixed['count']} then" if now["count"] !=
                   fixed["count"] else "a roll was changed, moved or reordered") + ")")
    key = turn_set_key(seed, uid, turn, chosen) if seed is not None and not bad else None
    _recompute(turn, reading.entries, key, about.first, verdict)
    return verdict


def _notes_of_set(verdict: TurnVerdict, chosen: list[list[str]], unsigned, missing,
                  excluded) -> None:
    from .stages import mix_words
    words = mix_words(chosen, list(unsigned), list(missing), list(excluded))
    verdict.notes.append(words[0].upper() + words[1:])


# -- a player file --------------------------------------------------------------------------------

def _player_file(pf: "Session", seeds: Mapping[int, str], commitments: Mapping[int, str],
                 use_pins: bool) -> Verdict:
    from .dice import verify as verify_old
    from .public import known, sealed
    verdict = Verdict("player")
    dice = pf.pbem.get("dice") if isinstance(pf.pbem.get("dice"), dict) else {}
    first = v2_from(dice) if dice else None
    is_sealed = sealed(pf)
    if is_sealed is False:
        verdict.problems.append("the file's record of keys and dice was changed after the "
                                "moderator sealed it (or the file is not yours)")
    elif is_sealed is None:
        verdict.notes.append("This player file is not sealed (an older ShipSheet made it): "
                             "its record is the moderator's word only.")
    pinned = None
    if use_pins:
        from .pins import check
        pinned = check(pf, is_sealed=bool(is_sealed))
        verdict.problems += pinned.problems
        verdict.notes += pinned.notes
    old_seeds = dict(seeds)
    verdict.old = verify_old(pf, {t: s for t, s in old_seeds.items()
                                  if first is None or t < first}, commitments)
    if first is None:
        return verdict
    if not _says_something(verdict.old):
        verdict.old = None
    shown = pinned.shown if pinned is not None and pinned.shown is not None else known(pf)
    keys, file_seeds, file_commitments = shown.keys, shown.seeds, shown.commitments
    uid = pf.pbem.get("session") if isinstance(pf.pbem.get("session"), str) else ""
    own_rolls = _own_rolls(pf, first)
    for turn, entry in sorted(shown.turns.items()):
        if turn < first:
            continue
        try:
            verdict.turns.append(_player_turn(turn, entry, keys, file_seeds, file_commitments,
                                              seeds, commitments, uid,
                                              own_rolls.get(turn, []), pinned))
        except DAMAGED:
            verdict.turns.append(TurnVerdict(turn, TURN_SET, problems=[
                "the file's record of this turn is damaged"]))
    return verdict


def _texts(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _own_rolls(pf: "Session", first: int) -> dict[int, list]:
    out: dict[int, list] = {}
    for entry in pf.log:  # turn-set-v2 rolls only (a roll before the switch is not one)
        if entry.kind == "roll" and entry.turn >= first and not entry.undone and \
                isinstance(entry.roll, list) and entry.roll[:1] == [SCHEME_IDS[TURN_SET]]:
            out.setdefault(entry.turn, []).append(entry)
    return out


def _player_turn(turn: int, entry: dict, keys: dict, file_seeds: dict, file_commitments: dict,
                 seeds: Mapping[int, str], commitments: Mapping[int, str], uid: str,
                 own_rolls: list, pinned) -> TurnVerdict:
    verdict = TurnVerdict(turn, TURN_SET)
    stage = entry.get("stage")
    fixed = entry.get("transcript")
    if stage != CLOSED or not isinstance(fixed, dict):
        verdict.closed = False
        verdict.notes.append("its seed is secret until the moderator closes the turn" +
                             ("" if stage != CLOSED else " (this file has no transcript of it)"))
        return verdict
    seed = seeds.get(turn) or file_seeds.get(turn)
    if seeds.get(turn) and file_seeds.get(turn) and seeds[turn] != file_seeds[turn]:
        verdict.problems.append("the seed given differs from the one in the file")
    checks = [("the commitment in the player file", file_commitments.get(turn)),
              ("the commitment given", commitments.get(turn))]
    if pinned is not None and turn in pinned.commitments:
        checks.append(("the commitment your ShipSheet pinned", pinned.commitments[turn]))
    verdict.problems += _seed_problems(turn, seed, checks)

    def key_of(name: str, t: int) -> str | None:
        found = record.key_for(keys.get(name, []), t)
        return found.public if found is not None else None

    chosen, bad = _set_problems(turn, entry.get("set"), key_of, uid,
                                file_commitments.get(turn), _texts(entry.get("excluded")))
    verdict.problems += bad
    _notes_of_set(verdict, chosen, _texts(entry.get("unsigned")), _texts(entry.get("missing")),
                  _texts(entry.get("excluded")))
    view = transcript.read_view(fixed.get("view"))
    verdict.problems += view.problems
    count, hashed = fixed.get("count"), fixed.get("hash")
    if not (isinstance(count, int) and is_hex64(hashed)):
        verdict.problems.append("the transcript's count and hash are damaged")
    elif not view.problems:
        if len(view.digests) != count:
            verdict.problems.append(f"the transcript lists {len(view.digests)} roll(s); the "
                                    f"turn closed with {count}")
        if transcript.turn_hash(turn, view.digests) != hashed:
            verdict.problems.append("the transcript's rolls do not make the hash fixed when "
                                    "the turn closed (a roll was changed, added or left out)")
    if pinned is not None and turn in pinned.transcripts and pinned.transcripts[turn] != hashed:
        verdict.problems.append(f"your ShipSheet was shown another transcript of turn {turn} "
                                f"before ({pinned.transcripts[turn]}): the moderator changed it")
    first = entry.get("first")
    key = turn_set_key(seed, uid, turn, chosen) if seed is not None and not bad else None
    _recompute(turn, view.full, key, None, verdict)
    if isinstance(first, int) and view.full:
        numbers = [e["n"] for e in view.full if not e["undone"]]
        if any(n < first for n in numbers):
            verdict.problems.append(f"a roll numbered before the turn's first roll ({first})")
    listed = {(e["n"], e["value"], e["sides"]) for e in view.full}
    for line in own_rolls:
        roll = line.roll
        if isinstance(roll, list) and len(roll) == 6 and (roll[1], roll[3], roll[2]) not in listed:
            verdict.problems.append(f'your ship\'s log has "{line.text}" (roll #{roll[1]}), '
                                    f"which the transcript does not hold")
    verdict.notes.append(f"your rolls in full: {len(view.full)}; everyone else's as digests: "
                         f"{len(view.digests) - len(view.full)}")
    return verdict


__all__ = ["FAILED", "INCOMPLETE", "PROMISES", "TurnVerdict", "VERIFIED", "Verdict",
           "verify_session"]

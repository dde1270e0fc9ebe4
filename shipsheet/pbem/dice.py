"""Dice anyone can verify: switching a session to them, and the older ``turn-hmac-v1`` scheme.

:func:`start_verifiable` switches a session to ``turn-set-v2``, the scheme of every turn
played now: its rolls are described in ``model/dice.py`` and DESK.md ("Turns with
stages, and verifiable dice"), its turns' stages in ``pbem/stages.py`` and
``pbem/turns.py``, its checking in ``pbem/verify.py`` and its threat model in SECURITY.md.
What follows is the **older** scheme, ``turn-hmac-v1``, which sessions begun before turns
had stages played: this module still rolls the rest of such a turn and checks such turns
(:func:`verify`), and says what it could not promise ("Who controls a roll", below: the
order nonces were mixed in was the moderator's, and a roll was not bound to its purpose —
what ``turn-set-v2`` mends).

The older scheme
================

*Seeds.* Each turn *t* has a fresh secret seed ``S_t``: 32 bytes from ``secrets``, kept
as 64 hex digits in the moderator's file (``session.pbem["dice"]["seeds"][str(t)]``). Its
commitment is ``C_t = SHA-256(S_t)`` (64 hex digits, ``["commitments"]``). The turn
report of turn *t* reveals ``S_t`` and carries ``C_{t+1}`` (:func:`reveal`); anyone
checks ``SHA-256(S_t) == C_t`` against the commitment of the report before.

*Nonces.* Each accepted orders file carries a nonce (32 random bytes the player's program
chose, DESK.md); the import adds it to its turn's list ``["nonces"][str(t)]``
(:func:`add_nonce`, inside the import's undoable step) in the order accepted.

*A roll.* Roll number *n* (the session's roll counter, ``Dice.count``; it only grows,
except that undo rewinds it with the change it takes back) of a die of *s* sides
(1 <= s <= 2**32), made in turn *t* when *k* of the turn's nonces had been accepted:

    key  = HMAC-SHA256(key=S_t, msg=b"nonces:" + N_1 + ... + N_k)   (N_i: the nonce's 32 bytes)
    for a = 0, 1, 2, ...:
        x = int.from_bytes(HMAC-SHA256(key=key, msg=f"{n}:{a}".encode("ascii"))[:8], "big")
        if x < 2**64 - (2**64 % s): value = x % s + 1; stop

Rejection sampling makes every face exactly equally likely (the accepted range is a whole
multiple of *s*; for a d6 a draw is rejected with probability 2**-62).

*The record.* Every roll, random or typed in, logs a line "d6 rolled: 4 for …" whose
``LogEntry.roll`` is ``[scheme, n, s, value, typed, k]`` (scheme 2 = turn-hmac-v1, 1 =
seeded-v1; typed 1 for a value read off physical dice; the turn and phase are the log
entry's). A typed roll does not use up a number. Undo keeps the entries of the change it
takes back, marked undone, and rewinds the counter: a roll made again after an undo has
the same number and is listed beside the undone one. Nothing is hidden by undoing.

*Verifying* (:func:`verify`, ``shipsheet verify-dice SESSION [--seed T=HEX]``): with the
revealed seeds, recompute every recorded roll of the verifiable turns; list the rolls
that differ (or whose log line differs from its record, or that have no record), the seeds
that do not match a commitment, the turns whose seed is unknown yet, the undone and the
typed rolls, the rolls no player's nonce had reached yet, and the roll numbers missing
from the log.

Who controls a roll
-------------------

Neither the moderator nor a player alone. The moderator commits to ``S_t`` before the
players' orders for turn *t* arrive, so cannot choose it knowing their nonces; a player
chooses a nonce without knowing ``S_t``, so cannot aim it. What remains, said plainly:

- The moderator knows ``S_t`` and the nonces, so knows each numbered roll's value before
  rolling it (the window's previews show it). He cannot change a value, but can choose what
  to spend the next number on; the log shows the order, the undone rolls and any numbers
  skipped.
- A roll made before any nonce of its turn (``k = 0``, e.g. at the start of a turn) is
  decided by the seed alone, which the moderator made before committing; verify lists them.
- The moderator decides which orders files to accept, and in which order (the turn's
  orders record shows arrivals and refusals).
- A seed is only as good as its commitment's publication. The model makes a seed itself
  when a roll needs one that is missing (a turn that no report committed to): it is marked
  ``late`` and verify says so. Players should keep each report's commitment and pass it
  (``--commitment T=HEX``) when they verify: the file's own commitments are the
  moderator's word.
- Once a turn's seed is revealed, accepting more orders for that turn would let their
  sender aim a nonce: :func:`add_nonce` refuses turns already past; a report made before
  the turn ends (``reveal`` of the current turn) is the moderator's promise to accept no
  more orders for it.

Old files and sessions not played by e-mail roll ``seeded-v1`` (``model/dice.py``): the
seed is in the file, so they cannot be verified. :func:`verify` says so, and still
recomputes their recorded rolls from it, which shows the log is consistent with the file
and proves nothing else.

The record (``session.pbem["dice"]``)::

    {"scheme": "turn-hmac-v1", "since": <the action number that switched>,
     "since_turn": 3, "since_number": <the roll counter then>,
     "seeds": {"3": hex, ...}, "commitments": {"3": hex, ...},
     "nonces": {"3": [hex, ...]}, "late": [turns whose seed was made in that turn]}

A player file holds :func:`public_record` (``"public": true``, no seed not yet revealed):
its own dice roll seeded-v1, and only its log lines' records are checked.
"""

from __future__ import annotations

import re
from dataclasses import field
from ..model.code_cache import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from shipsheet.model.actions import SessionAction
from shipsheet.model.dice import (CLOSED, MAX_SIDES, SCHEME_IDS, SEEDED, TURN_HMAC, TURN_SET,
                                  bind_session, commitment as _commitment, dice_record,
                                  is_hex64, make_seeds, new_seed, seeded_value,
                                  is_turn_key, turn_hmac_value, turn_key, turn_stage, v2_from)
from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import clone

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.log import LogEntry
    from shipsheet.model.session import Session

__all__ = ["AHEAD", "DiceError", "RollLine", "SeedProblem", "VerifyResult", "add_nonce",
           "check_seed", "commitment", "ensure_seeds", "ensure_seeds_action",
           "is_verifiable", "missing_seeds", "public_record", "reveal", "start_verifiable",
           "start_verifiable_action", "verify"]

#: Seeds made ahead of the turn being played (so a report can always commit to the next).
AHEAD = 2
#: Nonces one turn may mix in (orders files, corrections included).
MAX_NONCES = 1000
_ROLL_TEXT = re.compile(r"d(\d+) (rolled|typed in): (\d+)(?: for |$)")


class DiceError(RuleViolation):
    """A seed, nonce or dice record refused (e.g. a seed that does not match its
    commitment), with the reason."""


def commitment(seed_hex: str) -> str:
    """The commitment to a seed: SHA-256 of its 32 bytes, as 64 hex digits."""
    if not is_hex64(seed_hex):
        raise DiceError("A dice seed is 64 hex digits (0-9, a-f).")
    return _commitment(seed_hex)


def is_verifiable(session: "Session") -> bool:
    """Whether the session rolls verifiable dice (a moderator's session after
    :func:`start_verifiable`)."""
    return dice_record(session.pbem) is not None


# -- the moderator's side ---------------------------------------------------------------------

def start_verifiable_action(session: "Session") -> SessionAction:
    """The action switching the session to verifiable dice, ``turn-set-v2`` from this turn
    (for ``doc.do`` in the window; :func:`start_verifiable` applies it): fresh seeds for
    this turn and the next two, the switch's action number and roll counter recorded,
    logged with this turn's commitment. Refused when the session already has a dice
    record."""
    if isinstance(session.pbem.get("dice"), dict):
        raise DiceError("This session already has a dice record"
                        + (" (verifiable dice)." if is_verifiable(session) else "."))

    def fn(s: "Session", ctx) -> None:
        if isinstance(s.pbem.get("dice"), dict):
            raise DiceError("This session already has a dice record.")
        bind_session(s)
        turn = s.turn
        seeds = {str(t): new_seed() for t in range(turn, turn + 1 + AHEAD)}
        s.pbem["dice"] = {
            "scheme": TURN_SET, "v2_from": turn, "since": ctx.seq, "since_turn": turn,
            "since_number": s.dice.count, "seeds": seeds,
            "commitments": {t: _commitment(h) for t, h in seeds.items()}, "turns": {}}
        ctx.log(f"Dice: verifiable ({TURN_SET}) from turn {turn}; the commitment to "
                f"turn {turn}'s seed is {_commitment(seeds[str(turn)])}")

    return SessionAction("Verifiable dice", fn, ships=())


def start_verifiable(session: "Session") -> str:
    """Switch the session to verifiable dice (one undo step, logged). Returns the
    commitment to this turn's seed, for the players before the turn's rolls (e.g. in the
    setup mail). Refused when already switched."""
    session.apply(start_verifiable_action(session))
    return session.pbem["dice"]["commitments"][str(session.turn)]


def _live(session: "Session") -> dict:
    record = dice_record(session.pbem)
    if record is None:
        raise DiceError("This session's dice are not verifiable (start verifiable dice "
                        "first; a player file holds only the moderator's commitments).")
    bind_session(session)
    return record


def _missing(session: "Session") -> list[int]:
    return missing_seeds(_live(session), session.turn)


def missing_seeds(record: dict, first: int) -> list[int]:
    """The turns of ``first`` and the :data:`AHEAD` after it whose seed the dice record
    ``record`` lacks."""
    seeds = record.get("seeds")
    return [t for t in range(first, first + 1 + AHEAD)
            if not (isinstance(seeds, dict) and is_hex64(seeds.get(str(t))))]


def ensure_seeds_action(session: "Session") -> SessionAction | None:
    """The action making any missing seed of this turn and the next two, or None when none
    is missing (see :func:`ensure_seeds`)."""
    if not _missing(session):
        return None

    def fn(s: "Session", ctx) -> None:
        missing = _missing(s)
        make_seeds(s, [t for t in missing if t == s.turn])
        make_seeds(s, [t for t in missing if t > s.turn], ahead=True)
        for t in missing:
            ctx.log(f"Dice: seed made for turn {t}" + (
                " (during the turn: no report committed to it)" if t == s.turn else ""))

    return SessionAction("Dice seeds", fn, ships=())


def ensure_seeds(session: "Session") -> bool:
    """Make any missing seed of this turn and the next two, as one undo step; True when
    one was made. The seeds are normally there already (made at the switch, at each roll
    and at each orders import); call it before :func:`reveal` when a session may have had
    a turn with neither, and save the session afterwards."""
    action = ensure_seeds_action(session)
    if action is None:
        return False
    session.apply(action)
    return True


def add_nonce(session: "Session", turn: int, nonce_hex: str) -> bool:
    """Mix an accepted orders file's nonce into ``turn``'s dice. Call it from inside the
    import's action (``Session.apply``), so undoing the import removes it. False (nothing
    done) when the session's dice are not verifiable; refused for a turn already past
    (its seed may be revealed), a nonce that is not 64 hex digits, or one already mixed in
    (the same orders file again)."""
    if session.dice.on_roll is None:
        raise RuntimeError("add_nonce must run inside an action (Session.apply), so undo "
                           "takes it back")
    if dice_record(session.pbem) is None:
        return False
    record = _live(session)
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        raise DiceError(f"A turn is a whole number of at least 1, not {turn!r}.")
    if turn < session.turn:
        raise DiceError(f"Turn {turn} is over: its dice take no more orders' nonces (its "
                        "seed may be revealed already).")
    nonce = nonce_hex.lower() if isinstance(nonce_hex, str) else nonce_hex
    if not is_hex64(nonce):
        raise DiceError("An orders file's nonce is 64 hex digits (0-9, a-f).")
    nonces = record.setdefault("nonces", {})
    if not isinstance(nonces, dict):
        raise DiceError('The dice record\'s "nonces" is damaged.')
    listed = nonces.setdefault(str(turn), [])
    if not isinstance(listed, list):
        raise DiceError(f"The dice record's nonces for turn {turn} are damaged.")
    if nonce in listed:
        raise DiceError(f"This nonce is already mixed into turn {turn}'s dice (the same "
                        "orders file again?).")
    if len(listed) >= MAX_NONCES:
        raise DiceError(f"Turn {turn} has {MAX_NONCES} nonces already.")
    make_seeds(session, [t for t in (turn,) if t <= session.turn])
    make_seeds(session, list(range(max(turn, session.turn + 1), turn + 1 + AHEAD)),
               ahead=True)
    listed.append(nonce)
    return True


def reveal(session: "Session", turn: int) -> tuple[str, str]:
    """(the seed of ``turn``, the commitment to turn + 1's seed), for the report of
    ``turn``. Nothing is changed. Refused for a turn not closed (its seed stays secret:
    ``pbem/turns.py``), a turn played before the dice became verifiable, a seed that does
    not match its commitment, or when turn + 1's seed is not made yet (:func:`ensure_seeds`
    makes it; save the session after)."""
    record = _live(session)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= session.turn:
        raise DiceError(f"Turn {turn!r} has not been played: its seed stays secret.")
    if turn_stage(record, turn) != CLOSED and turn >= session.turn:
        raise DiceError(f"Turn {turn} is not closed: its seed stays secret until it is "
                        f"(Close Turn).")
    since = record.get("since_turn", 1)
    seeds = record.get("seeds") if isinstance(record.get("seeds"), dict) else {}
    seed = seeds.get(str(turn))
    if not is_hex64(seed):
        if isinstance(since, int) and turn < since:
            raise DiceError(f"Turn {turn} was played before the dice became verifiable "
                            f"(turn {since}): it has no seed to reveal.")
        raise DiceError(f"The seed of turn {turn} is missing from the dice record.")
    check_seed(session, turn, seed)
    following = seeds.get(str(turn + 1))
    if not is_hex64(following):
        raise DiceError(f"The seed of turn {turn + 1} is not made yet (make it with "
                        "ensure_seeds, and save the session, before the report).")
    check_seed(session, turn + 1, following)
    return seed, _commitment(following)


def check_seed(session: "Session", turn: int, seed_hex: str,
               commitments: Mapping[int, str] | None = None) -> str:
    """``seed_hex`` (lower case) if it matches turn ``turn``'s commitment in the session's
    dice record (and in ``commitments``, e.g. one a player kept from a report); refused
    with DiceError saying which commitment it does not match."""
    seed = seed_hex.strip().lower() if isinstance(seed_hex, str) else seed_hex
    found = commitment(seed)
    for source, expected in _commitments_of(session, turn, commitments):
        if expected != found:
            raise DiceError(f"The seed given for turn {turn} does not match {source}: its "
                            f"SHA-256 is {found}, the commitment is {expected}.")
    return seed


def _commitments_of(session: "Session", turn: int,
                    given: Mapping[int, str] | None) -> list[tuple[str, str]]:
    record = session.pbem.get("dice")
    out = []
    table = record.get("commitments") if isinstance(record, dict) else None
    if isinstance(table, dict) and str(turn) in table:
        out.append(("the commitment in the session file", str(table[str(turn)]).lower()))
    if given and turn in given:
        out.append(("the commitment given", str(given[turn]).strip().lower()))
    return out


def public_record(record: Any, before_turn: int | None = None) -> dict:
    """The dice record for a player file: the scheme, the commitments, the nonces, the late
    turns and the switch, marked ``"public": true``; the seeds only of turns before
    ``before_turn`` (None: no seed at all). A player file's dice are its own."""
    if not isinstance(record, dict):
        return {}
    public = {k: clone(record[k]) for k in ("scheme", "since", "since_turn", "since_number",
                                            "commitments", "nonces", "late") if k in record}
    public["public"] = True
    seeds = record.get("seeds")
    if before_turn is not None and isinstance(seeds, dict):
        public["seeds"] = {t: h for t, h in seeds.items()
                           if is_turn_key(t) and int(t) < before_turn}
    return public


# -- verifying ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class RollLine:
    """One roll of the log, as verify saw it."""

    index: int  # in session.log
    turn: int
    phase: str
    text: str
    number: int | None = None
    sides: int | None = None
    logged: int | None = None  # the value logged
    expected: int | None = None  # the value recomputed (None: not recomputed)
    nonces: int = 0
    undone: bool = False
    typed: bool = False
    why: str = ""  # for a mismatch: what is wrong

    def describe(self) -> str:
        number = "" if self.number is None else f" roll #{self.number}"
        where = f"T{self.turn} {self.phase}".strip() + number
        out = f'{where}: "{self.text}"'
        if self.undone:
            out += " (undone)"
        if self.why:
            out += f" — {self.why}"
        return out


@dataclass(frozen=True)
class SeedProblem:
    """A seed that does not match a commitment (or a seed given twice, differently)."""

    turn: int
    message: str

    def describe(self) -> str:
        return f"turn {self.turn}: {self.message}"


@dataclass
class VerifyResult:
    """What :func:`verify` found. ``status``: "verified" (every recorded roll recomputed
    and equal, every seed matches), "failed" (a roll or a seed does not), or "incomplete"
    (nothing wrong found, but not everything could be checked: an old-scheme session,
    a seed not revealed yet, a seed made late). :meth:`lines` says it all in plain text."""

    scheme: str
    verifiable: bool
    checked: int = 0
    mismatched: list[RollLine] = field(default_factory=list)
    undone: list[RollLine] = field(default_factory=list)
    typed: list[RollLine] = field(default_factory=list)
    unchecked: list[RollLine] = field(default_factory=list)
    unknown_seed_turns: list[int] = field(default_factory=list)
    bad_seeds: list[SeedProblem] = field(default_factory=list)
    late_turns: list[int] = field(default_factory=list)
    seed_alone: list[RollLine] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)
    before_switch: int = 0
    unrecorded: int = 0
    missing_numbers: list[int] = field(default_factory=list)
    nonces: dict[int, list[str]] = field(default_factory=dict)
    since_turn: int | None = None

    @property
    def ok(self) -> bool:
        """No roll differs from its recomputation and no seed from its commitment."""
        return not (self.mismatched or self.bad_seeds or self.damaged)

    @property
    def complete(self) -> bool:
        """Every roll of the verifiable turns was checked, with seeds committed in advance."""
        return (self.ok and self.verifiable and not self.unchecked and not self.late_turns
                and not self.unrecorded)

    @property
    def status(self) -> str:
        return "failed" if not self.ok else "verified" if self.complete else "incomplete"

    def headline(self) -> str:
        if not self.verifiable:
            head = (f"These dice cannot be verified: old dice scheme ({SEEDED}). Its seed is "
                    "in the session file and was known to whoever held it all along, so "
                    "recomputing the rolls from it proves nothing.")
            if self.mismatched:
                return head + f" And {len(self.mismatched)} recorded roll(s) do not even " \
                              "match that seed."
            return head + f" {self.checked} recorded roll(s) are consistent with it."
        if not self.ok:
            bad = []
            if self.mismatched:
                bad.append(f"{len(self.mismatched)} roll(s) do not match")
            if self.bad_seeds:
                bad.append(f"{len(self.bad_seeds)} seed(s) do not match their commitment")
            if self.damaged:
                bad.append("the dice record is damaged")
            return f"FAILED: {', '.join(bad)} ({self.checked} roll(s) recomputed and equal)."
        if self.complete:
            return f"Verified: all {self.checked} roll(s) recomputed and equal."
        why = []
        if self.unchecked:
            why.append(f"{len(self.unchecked)} roll(s) of turns whose seed is not known")
        if self.late_turns:
            why.append("seeds no report committed to first")
        if self.unrecorded:
            why.append(f"{self.unrecorded} roll(s) without a record")
        return (f"Nothing wrong found, but not everything is proven: {self.checked} roll(s) "
                f"recomputed and equal; {'; '.join(why)} (see below).")

    def lines(self) -> list[str]:
        """The result in plain text: the headline, then each list that is not empty."""
        out = [f"Dice scheme: {self.scheme}" + (
            f" (verifiable from turn {self.since_turn})" if self.since_turn else ""),
            self.headline()]

        def section(title: str, items: list[str], limit: int = 200) -> None:
            if items:
                out.append(title)
                out.extend(f"  {item}" for item in items[:limit])
                if len(items) > limit:
                    out.append(f"  … and {len(items) - limit} more")

        section("The dice record is damaged:", self.damaged)
        section("Rolls that do not match:", [r.describe() for r in self.mismatched])
        section("Seeds that do not match their commitment:",
                [s.describe() for s in self.bad_seeds])
        if self.unknown_seed_turns:
            out.append(f"Turns whose seed is not known (not revealed yet: give it with "
                       f"--seed TURN=HEX): {', '.join(map(str, self.unknown_seed_turns))} "
                       f"({len(self.unchecked)} roll(s) not checked)")
        if self.late_turns:
            out.append("Seeds made during their own turn (no report committed to them "
                       f"first): turn {', '.join(map(str, self.late_turns))}")
        if self.unrecorded:
            out.append(f"Rolls logged without a record (saved before rolls were recorded): "
                       f"{self.unrecorded}")
        section("Undone rolls (kept in the log; undo rewinds the numbers, so a roll made "
                "again after an undo has one of these numbers):",
                [r.describe() for r in self.undone])
        section("Typed-in rolls (read off physical dice: not random, not checkable):",
                [r.describe() for r in self.typed])
        if self.seed_alone:
            out.append(f"Rolls made before any orders of their turn (the committed seed "
                       f"alone decided them): {len(self.seed_alone)}")
        for turn in sorted(self.nonces):
            listed = self.nonces[turn]
            shown = ", ".join(n[:12] + "…" for n in listed) or "none"
            out.append(f"Turn {turn}: {len(listed)} orders nonce(s) mixed in: {shown}")
        if self.missing_numbers:
            shown = ", ".join(map(str, self.missing_numbers[:20]))
            more = " …" if len(self.missing_numbers) > 20 else ""
            out.append(f"Roll numbers used but not in this log: {shown}{more}")
        if self.before_switch:
            out.append(f"Rolls before the dice became verifiable (not checked): "
                       f"{self.before_switch}")
        return out


def _line(index: int, entry, **kw) -> RollLine:
    return RollLine(index, entry.turn, entry.phase, entry.text, undone=entry.undone, **kw)


def _bad_line(index: int, entry, why: str) -> RollLine:
    """A roll whose record is missing, damaged or at odds with its line: named by what of
    the record can be read."""
    roll = entry.roll
    if isinstance(roll, list) and len(roll) == 6 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in roll):
        return _line(index, entry, number=roll[1], sides=roll[2], logged=roll[3],
                     nonces=roll[5], typed=roll[4] == 1, why=why)
    return _line(index, entry, why=why)


def _parse_record(entry) -> tuple[list[int] | None, str]:
    """The entry's record if well formed and agreeing with its text, else (None, why)."""
    roll = entry.roll
    if roll is None:
        return None, "no roll record"
    if len(roll) != 6 or any(isinstance(v, bool) or not isinstance(v, int) for v in roll):
        return None, "a damaged roll record"
    scheme, number, sides, value, typed, nonces = roll
    if scheme not in SCHEME_IDS.values() or typed not in (0, 1) or not 1 <= sides or \
            not 1 <= value <= sides or number < 0 or nonces < 0:
        return None, "a damaged roll record"
    said = _ROLL_TEXT.match(entry.text)
    if said is None:
        return None, "the log line does not read as a roll"
    text_sides, how, text_value = int(said[1]), said[2], int(said[3])
    if (text_sides, text_value, how == "typed in") != (sides, value, bool(typed)):
        return None, (f"the log line says d{text_sides} {how} {text_value}, its record "
                      f"d{sides} {'typed in' if typed else 'rolled'} {value}")
    return list(roll), ""


def _hex_table(record: dict, key: str, damaged: list[str]) -> dict[int, str]:
    table = record.get(key, {})
    out: dict[int, str] = {}
    if not isinstance(table, dict):
        damaged.append(f'"{key}" is not a table')
        return out
    for turn, value in table.items():
        if not (is_turn_key(turn) and is_hex64(value)):
            damaged.append(f'"{key}" has an entry that is not turn: 64 hex digits')
            continue
        out[int(turn)] = value
    return out


def verify(session: "Session", seeds: Mapping[int, str] | None = None,
           commitments: Mapping[int, str] | None = None) -> VerifyResult:
    """Recompute every recorded roll of the session's log (see the module docstring).
    ``seeds``: turn -> seed hex, revealed in reports (added to the file's own);
    ``commitments``: turn -> commitment hex a player kept from earlier reports (checked
    besides the file's). Nothing is changed."""
    record = session.pbem.get("dice") if isinstance(session.pbem, dict) else None
    if not (isinstance(record, dict) and record.get("scheme") in (TURN_HMAC, TURN_SET)):
        return _verify_seeded(session)
    result = VerifyResult(TURN_HMAC, True)
    first_v2 = v2_from(record)
    damaged = result.damaged
    file_seeds = _hex_table(record, "seeds", damaged)
    file_commitments = _hex_table(record, "commitments", damaged)
    nonces: dict[int, list[str]] = {}
    raw = record.get("nonces", {})
    if isinstance(raw, dict):
        for turn, listed in raw.items():
            if (is_turn_key(turn) and isinstance(listed, list)
                    and all(is_hex64(n) for n in listed)):
                nonces[int(turn)] = listed
            else:
                damaged.append(f"the nonces of turn {turn!r} are damaged")
    else:
        damaged.append('"nonces" is not a table')
    since = record.get("since", 0)
    since = since if isinstance(since, int) and not isinstance(since, bool) else 0
    since_turn = record.get("since_turn")
    result.since_turn = since_turn if isinstance(since_turn, int) else None
    late = record.get("late", [])
    result.late_turns = sorted({t for t in late if isinstance(t, int)}) if isinstance(late, list) else []

    # The seeds: the file's and the ones given, each against every commitment known.
    known: dict[int, str] = dict(file_seeds)
    for turn, seed in (seeds or {}).items():
        seed = seed.strip().lower() if isinstance(seed, str) else seed
        if not is_hex64(seed):
            result.bad_seeds.append(SeedProblem(turn, "the seed given is not 64 hex digits"))
            continue
        if turn in file_seeds and file_seeds[turn] != seed:
            result.bad_seeds.append(SeedProblem(turn, "the seed given differs from the one "
                                                      "in the session file"))
        known[turn] = seed
    for turn, seed in sorted(known.items()):
        found = _commitment(seed)
        checks = [("the commitment in the session file", file_commitments.get(turn))]
        if commitments and turn in commitments:
            checks.append(("the commitment given", str(commitments[turn]).strip().lower()))
        for source, expected in checks:
            if expected is not None and expected != found:
                result.bad_seeds.append(SeedProblem(
                    turn, f"the seed does not match {source}: its SHA-256 is {found}, the "
                          f"commitment is {expected}"))
        if all(expected is None for _, expected in checks) and turn not in result.late_turns:
            result.late_turns.append(turn)  # never committed to, as far as this file says
    result.late_turns.sort()

    used: set[int] = set()
    unknown: set[int] = set()
    keys: dict[tuple[int, int], bytes] = {}
    def skip(e) -> bool:
        return e.action <= since or (first_v2 is not None and e.turn >= first_v2)

    for index, entry, roll in _rolls(session, result, skip):
        if roll is None:
            if first_v2 is None or entry.turn < first_v2:
                result.before_switch += 1
            continue
        scheme, number, sides, value, typed, k = roll
        line = dict(number=number, sides=sides, logged=value, nonces=k, typed=bool(typed))
        if scheme != SCHEME_IDS[TURN_HMAC]:
            result.mismatched.append(_line(index, entry, **line, why=(
                "rolled with the old scheme after the dice became verifiable")))
            continue
        if sides > MAX_SIDES:
            result.mismatched.append(_line(index, entry, **line, why="too many sides"))
            continue
        if entry.undone:
            result.undone.append(_line(index, entry, **line))
        if typed:
            result.typed.append(_line(index, entry, **line))
            continue
        used.add(number)
        seed = known.get(entry.turn)
        if seed is None:
            unknown.add(entry.turn)
            result.unchecked.append(_line(index, entry, **line))
            continue
        listed = nonces.get(entry.turn, [])
        if k > len(listed):
            result.mismatched.append(_line(index, entry, **line, why=(
                f"mixes in {k} nonce(s); the record has {len(listed)} for turn {entry.turn}")))
            continue
        key = keys.get((entry.turn, k))
        if key is None:
            key = keys[(entry.turn, k)] = turn_key(seed, listed[:k])
        expected = turn_hmac_value(key, number, sides)
        if expected != value:
            result.mismatched.append(_line(index, entry, **line, expected=expected, why=(
                f"logged {value}, the seed gives {expected}")))
            continue
        result.checked += 1
        if k == 0:
            result.seed_alone.append(_line(index, entry, **line, expected=expected))
    result.unknown_seed_turns = sorted(unknown)
    result.nonces = {t: list(n) for t, n in sorted(nonces.items())}
    start = record.get("since_number")
    if not record.get("public") and isinstance(start, int) and not isinstance(start, bool):
        end = session.dice.count
        if first_v2 is not None:  # the numbers of the turn-hmac-v1 turns only
            later = [e.roll[1] for e in session.log if e.kind == "roll" and e.turn >= first_v2
                     and isinstance(e.roll, list) and len(e.roll) == 6
                     and isinstance(e.roll[1], int)]
            end = min(later, default=end)
        count = min(end, start + 1_000_000)
        result.missing_numbers = [n for n in range(start, count) if n not in used]
    return result


def _verify_seeded(session: "Session") -> VerifyResult:
    """An old-scheme session: its recorded rolls recomputed from the file's seed (which
    proves nothing: the seed was never secret)."""
    result = VerifyResult(SEEDED, False)
    for index, entry, roll in _rolls(session, result, lambda e: e.roll is None):
        if roll is None:
            result.unrecorded += 1
            continue
        scheme, number, sides, value, typed, _ = roll
        line = dict(number=number, sides=sides, logged=value)
        listed = _line(index, entry, **line, typed=bool(typed))
        if entry.undone:
            result.undone.append(listed)
        if typed:
            result.typed.append(listed)
            continue
        if scheme != SCHEME_IDS[SEEDED]:
            result.mismatched.append(_line(index, entry, **line, why=(
                "a verifiable roll in a session without verifiable dice")))
            continue
        expected = seeded_value(session.dice.seed, number, sides)
        if expected != value:
            result.mismatched.append(_line(index, entry, **line, expected=expected, why=(
                f"logged {value}, the seed gives {expected}")))
        else:
            result.checked += 1
    return result


def _rolls(session: "Session", result: VerifyResult, skip: Callable[["LogEntry"], bool]
           ) -> Iterator[tuple[int, "LogEntry", list[int] | None]]:
    """(index in the log, entry, record) of each roll of the log; the record None for a
    roll ``skip`` passes over (the caller counts it). A roll whose record is damaged or at
    odds with its line (:func:`_parse_record`) is listed in ``result.mismatched`` instead."""
    for index, entry in enumerate(session.log):
        if entry.kind != "roll":
            continue
        if skip(entry):
            yield index, entry, None
            continue
        roll, why = _parse_record(entry)
        if roll is None:
            result.mismatched.append(_bad_line(index, entry, why))
        else:
            yield index, entry, roll


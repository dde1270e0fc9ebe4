"""Session dice: seeded, reproducible, every roll logged, physical rolls accepted.

Each roll is derived from a seed and the roll's number, so a session replays
exactly from its file, and undoing a change rewinds the counter: undo and redo
the same attack and the same dice come up again.

Two schemes (``Dice.scheme``; the session file's ``"dice": {"scheme": ...}``):

- ``seeded-v1`` (every file saved before schemes existed, and every session not
  played by e-mail): roll *n* is ``random.Random(f"{seed}:{n}").randint(1, sides)``
  with the session seed kept in the file. Reproducible, but it proves nothing to
  anyone else: whoever holds the file knew the seed all along.
- ``turn-hmac-v1`` (the first verifiable dice, in sessions begun before turns had
  stages): roll *n* of turn *t* is HMAC-SHA256 with rejection sampling
  (:func:`turn_hmac_value`) keyed by the turn's secret seed mixed with the nonces of the
  turn's orders in the order they were imported (:func:`turn_key`). Kept to roll the
  rest of such a turn and to verify old turns; a session switches to ``turn-set-v2`` at
  its next turn.
- ``turn-set-v2`` (verifiable dice now): roll *n* of turn *t* is HMAC-SHA256 with
  rejection sampling of the turn's key, the roll's number, its sides and its purpose
  (the ship and action of the change that rolls it, and the roll's reason, as the log
  states them: :func:`turn_set_value`). The turn's key mixes its secret seed with the
  *set* of the players' contributions, fixed when the turn's orders close
  (:func:`turn_set_key`). No die of such a turn rolls before its orders close or after
  it closes, and none is typed in.

The seeds, nonces, contributions, stages and commitments are plain JSON in
``session.pbem["dice"]``; the schemes are documented in ``shipsheet/pbem/dice.py``. The
model reads that record (never importing ``pbem``) through :class:`SessionKeys`. In a
``turn-hmac-v1`` turn it makes a seed itself when a roll needs one that is not there yet
(``os.urandom``; marked ``late``); a ``turn-set-v2`` turn never makes one (its seed was
committed to when the previous turn closed).

Every roll, random or typed, leaves its record in :attr:`Dice.last_record` for the
session to put in the roll's log entry (``LogEntry.roll``, see :data:`RECORD_FIELDS`).

Physical dice: :meth:`Dice.type_in` queues values read off real dice; the
next rolls take them instead of random numbers, after checking each is
possible on the die being rolled. A typed roll does not use up a number.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Callable, Protocol

from .errors import RuleViolation

if TYPE_CHECKING:  # pragma: no cover
    from .session import Session

SEEDED = "seeded-v1"
TURN_HMAC = "turn-hmac-v1"
TURN_SET = "turn-set-v2"
SCHEMES = (SEEDED, TURN_HMAC, TURN_SET)
_NO_TYPED = ("These dice are verifiable: every roll is the session's, so none can be typed "
             "in from physical dice.")
#: The verifiable schemes (a play-by-e-mail record's ``"scheme"``).
VERIFIABLE = (TURN_HMAC, TURN_SET)
#: The first number of a roll's record names its scheme.
SCHEME_IDS = {SEEDED: 1, TURN_HMAC: 2, TURN_SET: 3}
#: A turn's stages in ``turn-set-v2`` (``record["turns"][str(t)]["stage"]``; absent: open).
#: Dice roll only while the orders are closed; "closing" is the moment inside Close Turn
#: when the turn's end-of-turn steps run (they may roll) and the turn may end.
OPEN, ORDERS_CLOSED, CLOSING, CLOSED = "open", "orders-closed", "closing", "closed"
STAGES = (OPEN, ORDERS_CLOSED, CLOSING, CLOSED)
#: A roll's record (``LogEntry.roll``): these whole numbers, in this order. ``number``
#: is the roll's number (``Dice.count`` when it was rolled; a typed roll records the
#: number the next random roll takes, and does not use it up); ``typed`` is 1 for a
#: value typed in off physical dice; ``nonces`` how many of the turn's order nonces were
#: mixed into the key (``turn-hmac-v1`` only; 0 otherwise). The turn is the log entry's.
RECORD_FIELDS = ("scheme", "number", "sides", "value", "typed", "nonces")
#: Verifiable dice have at most this many sides (a roll's record holds numbers up to 2**64).
MAX_SIDES = 2**32
_RECORD_MAX = 2**64
_HEX64 = re.compile(r"[0-9a-f]{64}")


def check_die(value: object, sides: int, what: str = "") -> int:
    """Return ``value`` if a ``sides``-sided die can show it, else refuse."""
    label = f" for {what}" if what else ""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(f"A die roll{label} must be a whole number, not {value!r}.")
    if not 1 <= value <= sides:
        raise RuleViolation(
            f"A d{sides} shows 1 to {sides}; {value} is impossible{label}.")
    return value


# -- the two schemes' values (also what ``shipsheet verify-dice`` recomputes) -----------

def seeded_value(seed: int, number: int, sides: int) -> int:
    """``seeded-v1``: roll ``number`` of a ``sides``-sided die from the session seed."""
    import random  # here, not at the top: hashing and random stay off the start-up path
    return random.Random(f"{seed}:{number}").randint(1, sides)


def is_turn_key(text: object) -> bool:
    """A turn as a table's key: 1 to 7 ASCII digits ("3"). ``str.isdigit`` alone passes
    "²" and other digits ``int`` does not read, which a hostile file may hold."""
    return isinstance(text, str) and 0 < len(text) <= 7 and text.isascii() and text.isdigit()


def is_hex64(text: object) -> bool:
    """32 bytes as 64 lower-case hex digits (a seed, a nonce, a commitment)."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def commitment(seed_hex: str) -> str:
    """The commitment to a turn's seed: SHA-256 of its 32 bytes, as 64 hex digits."""
    import hashlib
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def new_seed() -> str:
    """A fresh 256-bit secret seed, as 64 hex digits."""
    return os.urandom(32).hex()  # what secrets.token_bytes returns


def turn_key(seed_hex: str, nonces: list[str]) -> bytes:
    """``turn-hmac-v1``: the key of a turn's rolls, the turn's seed mixed with the first
    nonces of its accepted orders: HMAC-SHA256(seed, b"nonces:" + nonce bytes...)."""
    import hashlib
    import hmac
    mix = b"nonces:" + b"".join(bytes.fromhex(n) for n in nonces)
    return hmac.new(bytes.fromhex(seed_hex), mix, hashlib.sha256).digest()


def turn_hmac_value(key: bytes, number: int, sides: int) -> int:
    """``turn-hmac-v1``: roll ``number`` of a ``sides``-sided die, unbiased.

    For attempt a = 0, 1, ...: x = the first 8 bytes (big-endian) of
    HMAC-SHA256(key, f"{number}:{a}"); x is accepted when below the largest multiple
    of ``sides`` not above 2**64, and the value is x % sides + 1."""
    if not 1 <= sides <= MAX_SIDES:
        raise RuleViolation(f"A verifiable die has 1 to {MAX_SIDES} sides, not {sides}.")
    import hashlib
    import hmac
    limit = 2**64 - (2**64 % sides)
    attempt = 0
    while True:
        digest = hmac.new(key, f"{number}:{attempt}".encode(), hashlib.sha256).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < limit:
            return x % sides + 1
        attempt += 1


def canonical_json(value: object) -> bytes:
    """The one byte form of JSON data that verifiable dice and signatures hash: keys
    sorted, no spaces, UTF-8 (DESK.md)."""
    import json
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def turn_set_key(seed_hex: str, session_uid: str, turn: int,
                 contributions: list[list[str]]) -> bytes:
    """``turn-set-v2``: the key of turn ``turn``'s rolls. ``contributions``: the set of
    [player name, contribution hex] fixed when the turn's orders closed (sorted here, so
    the order they arrived in changes nothing)::

        HMAC-SHA256(key=seed, msg=b"shipsheet turn-set-v2 key\n" + canonical JSON of
                    {"session": uid, "turn": t, "set": sorted contributions})"""
    import hashlib
    import hmac
    mix = canonical_json({"session": session_uid, "turn": turn,
                          "set": sorted([str(n), str(c)] for n, c in contributions)})
    return hmac.new(bytes.fromhex(seed_hex), b"shipsheet turn-set-v2 key\n" + mix,
                    hashlib.sha256).digest()


def turn_set_value(key: bytes, number: int, sides: int, purpose: tuple[str, str, str]) -> int:
    """``turn-set-v2``: roll ``number`` of a ``sides``-sided die for ``purpose`` (the ship id
    or "", the action's headline, the roll's reason, as the log states them), unbiased.

    For attempt a = 0, 1, ...: x = the first 8 bytes (big-endian) of HMAC-SHA256(key,
    canonical JSON of [number, sides, ship, action, reason, a]); x is accepted when below
    the largest multiple of ``sides`` not above 2**64, and the value is x % sides + 1."""
    if not 1 <= sides <= MAX_SIDES:
        raise RuleViolation(f"A verifiable die has 1 to {MAX_SIDES} sides, not {sides}.")
    import hashlib
    import hmac
    ship, action, reason = purpose
    limit = 2**64 - (2**64 % sides)
    attempt = 0
    while True:
        message = canonical_json([number, sides, ship, action, reason, attempt])
        x = int.from_bytes(hmac.new(key, message, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % sides + 1
        attempt += 1


def clean_reason(reason: str) -> str:
    """A roll's reason as its log line states it (runs of white space made one space)."""
    return " ".join(str(reason).split())


# -- where a verifiable roll's key comes from ----------------------------------------

class KeySource(Protocol):
    """What verifiable dice ask before each roll (see :class:`SessionKeys`)."""

    def scheme(self) -> str: ...

    def position(self) -> int:
        """How many nonces the current turn's key mixes in (no seed is made)."""

    def key(self) -> tuple[bytes, int]:
        """(the current turn's key, how many nonces it mixes in)."""

    def preview(self) -> "KeySource":
        """A source for a copy of the dice: the same keys, changing nothing."""


def dice_record(pbem: dict) -> dict | None:
    """The record of the verifiable dice this session rolls (``pbem["dice"]``), or None.
    A player file's copy (``"public": true``: commitments, nonces, revealed seeds) is no
    such record: its own dice are seeded-v1, for trying things out."""
    record = pbem.get("dice") if isinstance(pbem, dict) else None
    if (isinstance(record, dict) and record.get("scheme") in VERIFIABLE
            and not record.get("public")):
        return record
    return None


def v2_from(record: dict) -> int | None:
    """The first turn a dice record rolls ``turn-set-v2`` (None: every turn ``turn-hmac-v1``)."""
    first = record.get("v2_from")
    if isinstance(first, int) and not isinstance(first, bool) and first >= 1:
        return first
    return None


def turn_scheme(record: dict, turn: int) -> str:
    """The verifiable scheme turn ``turn`` of this dice record rolls."""
    first = v2_from(record)
    return TURN_SET if first is not None and turn >= first else TURN_HMAC


def turn_entry(record: dict, turn: int) -> dict:
    """The record's entry of turn ``turn`` (``record["turns"][str(turn)]``; {} when none)."""
    turns = record.get("turns")
    entry = turns.get(str(turn)) if isinstance(turns, dict) else None
    return entry if isinstance(entry, dict) else {}


def contribution_set(value: object) -> list[list[str]] | None:
    """A turn's set of contributions as the record holds it: a list of [player name,
    contribution hex], each a copy, in the record's order; None when ``value`` is not one."""
    if not (isinstance(value, list) and all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(v, str) for v in c)
            for c in value)):
        return None
    return [list(c) for c in value]


def turn_stage(record: dict, turn: int) -> str:
    """The stage of turn ``turn``: "open" (orders arrive), "orders-closed" (the set is fixed;
    the dice roll), "closing" (Close Turn is ending it) or "closed"."""
    stage = turn_entry(record, turn).get("stage", OPEN)
    return stage if stage in STAGES else OPEN


def check_turn_end(session: "Session") -> None:
    """Refuse ending the turn of a session with verifiable dice except inside Close Turn
    (the play-by-e-mail desk's, which fixes and reveals the turn's rolls): the rules call
    this before a turn's end-of-turn steps."""
    record = dice_record(session.pbem)
    if record is None or turn_stage(record, session.turn) == CLOSING:
        return
    raise RuleViolation(
        f"Turn {session.turn} is played by e-mail with dice anyone can verify: it ends with "
        f"Close Turn (the Turn Desk, or shipsheet pbem close-turn), which fixes and reveals "
        f"its rolls" + (", after its orders are closed." if turn_stage(record, session.turn)
                        == OPEN else "."))


def session_scheme(session: "Session") -> str:
    """The scheme a session's dice roll now: the current turn's verifiable scheme when its
    play-by-e-mail record holds verifiable dice, else the dice's own (what a session file
    says it rolls)."""
    record = dice_record(session.pbem)
    if record is not None:
        return turn_scheme(record, session.turn)
    keys = session.dice.keys
    return SEEDED if isinstance(keys, SessionKeys) else session.dice.scheme


def turn_nonces(record: dict, turn: int) -> list[str]:
    """The nonces mixed into ``turn``'s dice so far (checked; refused when damaged)."""
    nonces = record.get("nonces", {})
    found = nonces.get(str(turn), []) if isinstance(nonces, dict) else None
    if not isinstance(found, list) or not all(is_hex64(n) for n in found):
        raise RuleViolation(f"The dice record's nonces for turn {turn} are damaged.")
    return found


def _table(record: dict, key: str) -> dict:
    table = record.setdefault(key, {})
    if not isinstance(table, dict):
        raise RuleViolation(f'The dice record\'s "{key}" is damaged.')
    return table


def _foreign(record: dict, turn: int) -> bool:
    """Whether ``turn`` has a seed entry or a commitment but no usable seed here."""
    seeds, commitments = record.get("seeds"), record.get("commitments")
    if isinstance(seeds, dict) and is_hex64(seeds.get(str(turn))):
        return False
    return ((isinstance(seeds, dict) and str(turn) in seeds)
            or (isinstance(commitments, dict) and str(turn) in commitments))


def _foreign_refusal(turn: int) -> RuleViolation:
    return RuleViolation(
        f"The dice of turn {turn} are the moderator's: this file holds no seed for them "
        "(only its commitment), so it cannot roll them.")


def make_seeds(session: "Session", turns: list[int], pending: dict | None = None, *,
               ahead: bool = False) -> None:
    """Make a fresh seed (and its commitment) for each of ``turns`` that has none, in the
    session's dice record. A seed made for the turn being played (or an earlier one) is
    marked ``late``: no report can have committed to it before its rolls. A turn with a
    commitment but no seed is another's (a player file holds the moderator's
    commitments): refused, or, with ``ahead`` (seeds made in advance), left alone."""
    record = dice_record(session.pbem)
    if record is None:
        raise RuleViolation("This session's dice are not verifiable.")
    seeds, commitments = _table(record, "seeds"), _table(record, "commitments")
    for turn in turns:
        if is_hex64(seeds.get(str(turn))):
            continue
        if _foreign(record, turn):
            if ahead:
                continue
            raise _foreign_refusal(turn)
        seed = (pending or {}).pop(turn, None) or new_seed()
        seeds[str(turn)] = seed
        commitments[str(turn)] = commitment(seed)
        if turn <= session.turn:
            late = record.setdefault("late", [])
            if isinstance(late, list) and turn not in late:
                late.append(turn)


class SessionKeys:
    """The keys of a session's verifiable dice, read from ``session.pbem["dice"]`` at
    each roll (undo replaces that record, so it is never held). In a ``turn-hmac-v1``
    turn the live source makes the current turn's seed when a roll needs one, and the
    next turn's; a preview (for a copy of the dice) changes nothing, keeping any seed it
    had to make in ``pending`` for the real roll, so a preview rolls what the real roll
    will. A ``turn-set-v2`` turn's key needs its seed and its closed set of contributions:
    before the turn's orders close, and after the turn closed, its dice refuse to roll."""

    def __init__(self, session: "Session", *, live: bool = True, pending: dict | None = None):
        self.session = session
        self.live = live
        self.pending: dict[int, str] = {} if pending is None else pending

    def scheme(self) -> str:
        record = dice_record(self.session.pbem)
        return SEEDED if record is None else turn_scheme(record, self.session.turn)

    def _record(self) -> dict:
        record = dice_record(self.session.pbem)
        if record is None:
            raise RuleViolation("This session's dice are not verifiable.")
        return record

    def position(self) -> int:
        record = self._record()
        if turn_scheme(record, self.session.turn) == TURN_SET:
            return 0
        return len(turn_nonces(record, self.session.turn))

    def key(self) -> tuple[bytes, int]:
        record, turn = self._record(), self.session.turn
        if turn_scheme(record, turn) == TURN_SET:
            return set_key(record, turn, self.session.pbem.get("session") or self.session.uid), 0
        seeds = record.get("seeds", {})
        seed = seeds.get(str(turn)) if isinstance(seeds, dict) else None
        if self.live:
            make_seeds(self.session, [turn], self.pending)
            make_seeds(self.session, [turn + 1, turn + 2], self.pending, ahead=True)
            seed = record["seeds"][str(turn)]
        elif not is_hex64(seed):
            if _foreign(record, turn):
                raise _foreign_refusal(turn)
            seed = self.pending.setdefault(turn, new_seed())
        nonces = turn_nonces(record, turn)
        return turn_key(seed, nonces), len(nonces)

    def preview(self) -> "SessionKeys":
        return SessionKeys(self.session, live=False, pending=self.pending)


def set_key(record: dict, turn: int, session_uid: object) -> bytes:
    """The ``turn-set-v2`` key of turn ``turn`` (:func:`turn_set_key`), or a refusal saying
    why the turn's dice cannot roll now: its orders still open, the turn closed, its seed
    or set missing or damaged."""
    stage = turn_stage(record, turn)
    if stage == OPEN:
        raise RuleViolation(
            f"Turn {turn}'s orders are still open: no die of a turn played by e-mail with "
            f"verifiable dice rolls before they close (the Turn Desk's Close Orders, or "
            f"shipsheet pbem close-orders), so no arrival can change a roll.")
    if stage == CLOSED:
        raise RuleViolation(f"Turn {turn} is closed: its rolls are fixed and revealed.")
    seeds = record.get("seeds")
    seed = seeds.get(str(turn)) if isinstance(seeds, dict) else None
    if not is_hex64(seed):
        raise _foreign_refusal(turn) if _foreign(record, turn) else RuleViolation(
            f"The dice record has no seed for turn {turn}.")
    contributions = contribution_set(turn_entry(record, turn).get("set"))
    if contributions is None:
        raise RuleViolation(f"The dice record's set of contributions for turn {turn} is "
                            "damaged.")
    if not (isinstance(session_uid, str) and session_uid):
        raise RuleViolation("The play-by-e-mail record names no session.")
    return turn_set_key(seed, session_uid, turn, contributions)


def bind_session(session: "Session") -> None:
    """Let the session's dice find their keys in its play-by-e-mail record (the dice's
    scheme then follows ``session.pbem["dice"]``, so undo switches it back too)."""
    if not isinstance(session.dice.keys, SessionKeys) or session.dice.keys.session is not session:
        session.dice.keys = SessionKeys(session)


class Dice:
    """The session's dice. Usable as the ``rng`` of rule functions."""

    def __init__(self, seed: int | None = None, count: int = 0, scheme: str = SEEDED):
        self.seed = seed if seed is not None else int.from_bytes(os.urandom(6), "big")
        self.count = count
        if scheme not in SCHEMES:
            raise ValueError(f"unknown dice scheme {scheme!r}")
        self._scheme = scheme
        self._typed: list[int] = []
        # Set by the session while an action runs, so rolls land in its log.
        self.on_roll: Callable[[int, int, str, bool], None] | None = None
        #: Where verifiable rolls get their key (:class:`SessionKeys`), or None.
        self.keys: KeySource | None = None
        #: The record of the last roll (:data:`RECORD_FIELDS`), set before ``on_roll``.
        self.last_record: list[int] | None = None
        #: Set by the session while an action runs: (the ship id or "", the action's
        #: headline) of the change rolling, a ``turn-set-v2`` roll's purpose with its reason.
        self.context: Callable[[], tuple[str, str]] | None = None
        #: A preview's purpose (:meth:`copy`): what the action it previews will say.
        self.fixed_context: tuple[str, str] | None = None

    @property
    def scheme(self) -> str:
        """``seeded-v1`` or ``turn-hmac-v1``: the key source's when there is one."""
        return self.keys.scheme() if self.keys is not None else self._scheme

    def copy(self, action: object = None) -> "Dice":
        """Dice that roll exactly what these roll next (typed-in values included) and log
        nowhere: for previews and trials that must not move the session's dice.

        ``action``: the action a preview stands for (its ``ship_id`` and ``name``). A
        ``turn-set-v2`` roll depends on the action rolling it, so a preview that calls the
        rules itself (not through a trial session's ``apply``) names the action it
        previews, and rolls what that action will roll."""
        copy = Dice(self.seed, self.count, self._scheme)
        copy._typed = list(self._typed)
        copy.keys = None if self.keys is None else self.keys.preview()
        if action is not None:
            copy.fixed_context = (getattr(action, "ship_id", None) or "",
                                  str(getattr(action, "name", "")).strip())
        else:
            copy.fixed_context = self.fixed_context
        return copy

    # -- physical dice --------------------------------------------------
    def type_in(self, *values: int) -> None:
        """Queue rolls read off physical dice; they are used before random ones. Refused
        while the dice are verifiable (every roll then is the session's)."""
        if self.scheme == TURN_SET:
            raise RuleViolation(_NO_TYPED)
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise RuleViolation(f"A die roll must be a whole number of at least 1, not {v!r}.")
        self._typed.extend(values)

    def clear_typed(self) -> None:
        """Take back the rolls typed in and not yet used (a script's way out when the dice
        became verifiable after it typed them: the next roll refuses them)."""
        self._typed.clear()

    @property
    def typed_pending(self) -> tuple[int, ...]:
        return tuple(self._typed)

    # -- rolling --------------------------------------------------------
    def _random(self, sides: int) -> int:
        value = seeded_value(self.seed, self.count, sides)
        self.count += 1
        return value

    def _keys(self) -> KeySource:
        if self.keys is None:
            raise RuleViolation("These verifiable dice have no turn seed to roll with.")
        return self.keys

    def roll(self, sides: int = 6, reason: str = "") -> int:
        """Roll one die of ``sides`` sides (typed-in value first), and log it."""
        if sides < 1:
            raise RuleViolation(f"A die needs at least one side, not {sides}.")
        scheme = self.scheme
        if scheme in VERIFIABLE and sides > MAX_SIDES:
            raise RuleViolation(f"A verifiable die has at most {MAX_SIDES} sides, not {sides}.")
        typed = bool(self._typed)
        number = self.count
        reason = clean_reason(reason)
        if scheme == TURN_SET:
            if typed:
                raise RuleViolation(_NO_TYPED + " Rolls typed in before they became "
                                    "verifiable wait unused: take them back (Dice.clear_typed) "
                                    "and let the dice roll.")
            context = self.context() if self.context is not None else self.fixed_context
            if context is None:
                raise RuleViolation("A verifiable die rolls inside an action (its purpose is "
                                    "part of the roll).")
            key, mixed = self._keys().key()
            value = turn_set_value(key, number, sides, (*context, reason))
            self.count += 1
        elif typed:
            value = check_die(self._typed[0], sides, reason)
            mixed = self._keys().position() if scheme == TURN_HMAC else 0
            self._typed.pop(0)
        elif scheme == TURN_HMAC:
            key, mixed = self._keys().key()
            value = turn_hmac_value(key, number, sides)
            self.count += 1
        else:
            value, mixed = self._random(sides), 0
        record = [SCHEME_IDS[scheme], number, sides, value, int(typed), mixed]
        self.last_record = record if sides <= _RECORD_MAX else None
        if self.on_roll is not None:
            self.on_roll(sides, value, reason, typed)
        return value

    # random.Random-compatible subset, for rule functions taking ``rng``.
    def randint(self, a: int, b: int) -> int:
        return a - 1 + self.roll(b - a + 1, "random choice")

    def choice(self, seq):
        return seq[self.randint(1, len(seq)) - 1]

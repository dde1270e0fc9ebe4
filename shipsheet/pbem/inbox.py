"""Files in at the moderator: orders and join files, checked, kept, queued or applied.

Every file is hostile until checked (DESK.md, "Import checks"; SECURITY.md): read bounded,
parsed, then its game, session and player, then its **authenticity** — an orders file's
signature with the key its player joined with (version 2), or, until the player joins,
its HMAC with their secret (version 1); a join file's MAC and its key's own signature.
A file that fails any of these changes nothing at all and is not kept.

An authentic file is kept in the desk's ledger (``pbem/ledger.py``), with what became of
it, whatever becomes of it: refused ones too, so its contribution to the dice and the
refusal's reason stay on record whatever is undone.

Then, for an orders file: the turn (not past, not to come), the turn's stage (orders
open; never once the turn's seed has left the desk), the commitment it quotes and the
contribution it carries (the player's signature of that commitment), the sequence
number, and every order (on a copy). In a turn with stages (``pbem/stages.py``) a good
file is **queued**, applied when the turn's orders close; in a session without
verifiable dice, and in the rest of a turn begun before stages, it is applied at once as
one undo step (``orders.ApplyOrders``).

Join files are taken first, so a player's join and first signed orders may be imported
together.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import field
from ..model.code_cache import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from shipsheet.model.actions import Action
from shipsheet.model.dice import TURN_SET, Dice, dice_record, turn_entry
from shipsheet.model.errors import RuleViolation
from shipsheet.model.files import problem, read_regular
from shipsheet.model.games import GAME_TITLES
from shipsheet.model.session import Session
from shipsheet.model.trial import trial_session

from . import joins, ledger, record, stages
from .keys import contribution_message, fingerprint, show_fingerprint, verify
from .orders import (MAX_BYTES, ApplyOrders, OrdersFileError, check_orders, compute_mac,
                     decode_orders, signature_holds)
from .record import APPLIED, ARRIVED, QUEUED, REFUSED, OrdersEntry, Player

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Apply
    from shipsheet.model.session import ActionContext

#: ``ImportResult.status`` values, with :data:`record.QUEUED` ("queued") and
#: :data:`record.REFUSED` ("refused").
ACCEPTED, DUPLICATE, NEEDS_CONFIRMATION = "accepted", "duplicate", "needs-confirmation"
ORDERS, JOIN = ledger.ORDERS, ledger.JOIN


@dataclass
class ImportResult:
    """What became of one file: ``status`` is "accepted" (applied, or a join taken),
    "queued" (applied when the turn's orders close), "refused", "duplicate" or
    "needs-confirmation"; ``reason`` says why in plain words; ``changed``: the session
    changed; ``warnings``: what the file says that the record does not (a transcript the
    player saw otherwise)."""

    path: Path
    status: str
    reason: str
    player: str | None = None
    turn: int | None = None
    seq: int | None = None
    changed: bool = False
    kind: str = ORDERS
    warnings: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        """Taken: applied, queued or (a join) recorded."""
        return self.status in (ACCEPTED, QUEUED)

    def line(self) -> str:
        word = {ACCEPTED: "accepted", QUEUED: "queued", REFUSED: "REFUSED",
                DUPLICATE: "duplicate", NEEDS_CONFIRMATION: "needs confirmation"}[self.status]
        text = f"{self.path.name}: {word}: {self.reason}"
        return text + "".join(f"\n  WARNING: {w}" for w in self.warnings)


class _Receive(Action):
    """One file received: kept in the ledger and whatever ``work`` does, in one undo step
    (the ledger keeps the file whatever is undone after)."""

    def __init__(self, name: str, keep: Callable[[Session], None],
                 work: Callable[[Session, "ActionContext"], None]):
        self.name = name
        self.keep = keep
        self.work = work

    def touches(self, session: Session):
        return None

    def apply(self, session: Session, ctx: "ActionContext") -> None:
        self.keep(session)
        self.work(session, ctx)


# -- reading -----------------------------------------------------------------------------------

def _load(path: Path) -> tuple[str, dict, bytes]:
    """(``"orders"`` or ``"join"``, the checked content, the bytes) of a file, or
    OrdersFileError / JoinFileError saying why it is neither."""
    try:
        raw = read_regular(path, MAX_BYTES)
    except OSError as exc:
        raise OrdersFileError(f"{path.name}: {problem(exc)}") from None
    data = decode_orders(raw, path.name)  # not JSON: refused in parse_orders's words
    if joins.is_join(data):
        if len(raw) > joins.MAX_BYTES:
            raise joins.JoinFileError(f"{path.name}: too large for a join file")
        try:
            return JOIN, joins.parse_join(data, path.name), raw
        except RuleViolation as exc:
            raise joins.JoinFileError(str(exc)) from None
    return ORDERS, check_orders(data, path.name), raw


# -- importing ---------------------------------------------------------------------------------

def import_files(session: Session, paths: Iterable[str | Path], *,
                 confirm: bool = False, apply: "Apply | None" = None) -> list[ImportResult]:
    """Check and take orders and join files at the moderator, joins first; one
    :class:`ImportResult` per file, in the order given. ``confirm``: apply a correction
    of orders already applied this turn (a turn without stages), and take a join that
    replaces a player's key. ``apply``: how each file's step is applied (the window's
    ``SessionDocument.apply``, so its guard is asked and it is one step of the one
    history; ``session.apply`` when None)."""
    apply = apply or session.apply
    if not record.is_moderator(session):
        if record.is_player_file(session):
            raise RuleViolation("This is a player file: orders are imported into the "
                                "moderator's session.")
        raise RuleViolation("This session is not played by e-mail: set up its players first.")
    record.players(session)  # a damaged record is refused before any file is read
    paths = [Path(p) for p in paths]
    loaded: list[tuple[str, dict, bytes] | ImportResult] = []
    for path in paths:
        try:
            loaded.append(_load(path))
        except (RuleViolation, OrdersFileError) as exc:
            loaded.append(ImportResult(path, REFUSED, str(exc)))
    results: dict[int, ImportResult] = {}
    for want in (JOIN, ORDERS):
        for i, (path, item) in enumerate(zip(paths, loaded)):
            if isinstance(item, ImportResult):
                results[i] = item
            elif item[0] == want:
                take = _take_join if want == JOIN else _take_orders
                results[i] = take(session, apply, path, item[1], item[2], confirm)
    return [results[i] for i in range(len(paths))]


def _who(session: Session, path: Path, data: dict, what: str) -> Player | ImportResult:
    """The file's player, or the refusal of a file for another game, session or player."""
    def refused(reason: str) -> ImportResult:
        return ImportResult(path, REFUSED, reason, kind=what)
    if data["game"] != session.game:
        return refused(f"{what} for a {GAME_TITLES.get(data['game'], data['game'])} session; "
                       f"this session plays {session.rules.title}.")
    if data["session"] != session.uid:
        return refused(f"{what} for another session (a different session uid): not this "
                       f"one's.")
    player = record.find_player(session, data["player"])
    if player is None or player.name != data["player"]:
        return refused(f'there is no player called "{data["player"]}" in this session.')
    return player


def _keep(what: str, player: str, turn: int, seq: int, digest: str, raw: bytes, status: str,
          reason: str = "", contribution: str = "") -> Callable[[Session], None]:
    def keep(s: Session) -> None:
        ledger.add_file(s, what, player, turn, seq, digest, raw, status, reason[:record.MAX_REASON],
                        contribution)
    return keep


def _nothing(s: Session, ctx: "ActionContext") -> None:
    return None


# -- join files -----------------------------------------------------------------------------------

def _take_join(session: Session, apply: "Apply", path: Path, data: dict, raw: bytes,
               confirm: bool) -> ImportResult:
    who = _who(session, path, data, JOIN)
    if isinstance(who, ImportResult):
        return who
    player = who
    known = {"player": player.name, "turn": session.turn, "kind": JOIN}
    if not joins.authentic(data, player.secret):
        return ImportResult(path, REFUSED, f"not authentic: the join file does not match "
                            f"{player.name}'s secret (changed after it was written, or not "
                            f"written with {player.name}'s player file).", **known)
    if not joins.proves_possession(data):
        return ImportResult(path, REFUSED, "not authentic: the key's own signature does not "
                            "hold (the file was changed after it was written).", **known)
    public, digest = data["public_key"], hashlib.sha256(raw).hexdigest()
    shown = show_fingerprint(fingerprint(public))
    latest = player.keys[-1] if player.keys else None
    if latest is not None and latest.public == public:
        return ImportResult(path, DUPLICATE, f"{player.name} joined with this key already "
                            f"(fingerprint {shown}).", **known)
    turn = session.turn
    if latest is not None and not confirm:
        reason = (f"{player.name} asks to replace their key (joined with "
                  f"{show_fingerprint(fingerprint(latest.public))}) by {shown}: import it "
                  f"again with confirmation to take it. Check with {player.name} first: "
                  f"a key replaced by someone else signs as {player.name}.")
        apply(_Receive(f"key replacement from {player.name} held",
                               _keep(JOIN, player.name, turn, 0, digest, raw, "held", reason),
                               _nothing))
        return ImportResult(path, NEEDS_CONFIRMATION, reason, changed=True, **known)

    def work(s: Session, ctx: "ActionContext") -> None:
        me = record.find_player(s, player.name)
        keys = [k for k in me.keys if k.since < turn]
        keys.append(record.PlayerKey(public, turn))
        record.put_keys(s, me.name, tuple(keys))
        if latest is None:
            ctx.log(f"{me.name} joined: orders signed with the key {shown} from turn {turn}")
        else:
            ctx.log(f"{me.name}'s key replaced from turn {turn}: now {shown} (was "
                    f"{show_fingerprint(fingerprint(latest.public))})")

    name = f"{player.name} joined" if latest is None else f"{player.name}'s key replaced"
    apply(_Receive(name, _keep(JOIN, player.name, turn, 0, digest, raw, "joined"), work))
    return ImportResult(path, ACCEPTED, f"{name}: key {shown}, signing their orders from turn "
                        f"{turn}.", changed=True, **known)


# -- orders files ----------------------------------------------------------------------------------

def _authenticate(player: Player, data: dict) -> str | None:
    """Why the orders file is not ``player``'s, or None."""
    turn = data["turn"]
    if data["version"] == 1:
        if player.joined:
            return (f"not signed: {player.name} has joined (key "
                    f"{show_fingerprint(fingerprint(player.keys[-1].public))}), so their "
                    f"orders are signed with that key; this file is authenticated only with "
                    f"the shared secret, which the moderator holds too.")
        if not hmac.compare_digest(compute_mac(player.secret, data), data["mac"]):
            return (f"not authentic: the file does not match {player.name}'s secret (it was "
                    f"changed after it was written, or not written by {player.name}).")
        return None
    key = player.key_for(turn)
    if key is None:
        return (f"signed with a key {player.name} has not joined with" + (
            f" for turn {turn}" if player.joined else "") + f": import {player.name}'s join "
            f"file first (shipsheet pbem join makes it).")
    if data["key"] != fingerprint(key.public):
        earlier = any(fingerprint(k.public) == data["key"] for k in player.keys)
        return (f"signed with {'an earlier key of' if earlier else 'a key that is not'} "
                f"{player.name}'s key for turn {turn} "
                f"({show_fingerprint(fingerprint(key.public))}).")
    if not signature_holds(data, key.public):
        return (f"not authentic: the signature does not hold with {player.name}'s key (the "
                f"file was changed after it was signed, or not signed by {player.name}).")
    return None


def _quotes(session: Session, data: dict) -> list[str]:
    """What the file quotes of closed turns that the record says otherwise."""
    if data["version"] != 2:
        return []
    found = dice_record(session.pbem)
    out = []
    for key, value in sorted(data.get("seen", {}).get("transcripts", {}).items()):
        turn = int(key)
        # (a turn written otherwise than ShipSheet writes it, "03", names no entry)
        entry = turn_entry(found, turn) if found is not None and key == str(turn) else {}
        fixed = entry.get("transcript")
        have = fixed.get("hash") if isinstance(fixed, dict) else None
        if have != value:
            out.append(f"{data['player']} was shown turn {turn}'s transcript as {value}; the "
                       f"record says {have or 'none'}.")
    return out


def _precheck(session: Session, player: Player, data: dict, digest: str) -> str | None:
    """Why the rules would refuse these orders now, or None: tried on a copy whose dice roll
    anything (a queued file's dice are rolled when the orders close; this is legality)."""
    trial = trial_session(session)
    trial.dice = Dice(0)
    try:
        trial.apply(ApplyOrders(player, data, digest))
    except RuleViolation as exc:
        return str(exc)
    return None


def _take_orders(session: Session, apply: "Apply", path: Path, data: dict, raw: bytes,
                 confirm: bool) -> ImportResult:
    who = _who(session, path, data, ORDERS)
    if isinstance(who, ImportResult):
        return who
    player = who
    turn, seq = data["turn"], data["seq"]
    known: dict[str, Any] = {"player": player.name, "turn": turn, "seq": seq}
    why = _authenticate(player, data)
    if why is not None:
        return ImportResult(path, REFUSED, why, **known)
    # Another turn's file changes nothing (it is not this turn's to keep).
    if turn < session.turn:
        return ImportResult(path, REFUSED, f"orders for turn {turn}, which is over (this is "
                            f"turn {session.turn}): a replay of an old file.", **known)
    if turn > session.turn:
        return ImportResult(path, REFUSED, f"orders for turn {turn}, a turn still to come "
                            f"(this is turn {session.turn}).", **known)
    digest = hashlib.sha256(raw).hexdigest()
    staged = stages.staged(session)
    set_turn = staged and stages.scheme_of(session, turn) == TURN_SET
    contribution = ""
    if set_turn and data["version"] == 2:
        contribution, why = _contribution(session, player, data)
        if why is not None:
            return _refuse(session, apply, path, player, data, raw, digest, why, known)

    def refused(reason: str, status: str = "refused") -> ImportResult:
        """Kept in the ledger; not on the turn desk, whose entry is the file it has."""
        return _refuse(session, apply, path, player, data, raw, digest, reason, known, status,
                       contribution, on_desk=False)

    if staged and turn in ledger.revealed(session):
        return refused(f"turn {turn}'s seed has left the desk (in a report or an audit "
                       f"bundle): no orders for it are taken, whatever their number.", "late")
    if staged and stages.stage(session, turn) != stages.OPEN:
        return refused(f"too late: turn {turn}'s orders are closed "
                       f"({stages.WORDS.get(stages.stage(session, turn), '')}).", "late")
    entries = record.orders_entries(session, player.name)
    nonce = data.get("nonce")
    if nonce and any(e.nonce == nonce and t != turn for t, e in entries.items()):
        return refused("a replay: these orders' nonce was used in another turn.")
    entry = entries.get(turn)
    if entry is not None:
        if seq < entry.seq:
            return refused(f"number {seq} is older than number {entry.seq}, already received "
                           f"for turn {turn}: a replay or a file its correction overtook.")
        if seq == entry.seq and entry.digest != digest:
            return refused(f"another file numbered {seq} was already received for turn {turn}: "
                           f"a file is numbered once (export the orders again).")
    full = ledger.room_for(session, player.name, turn, len(raw))
    if full is not None:
        return refused(full)
    warnings = _quotes(session, data)
    if set_turn:
        return _queue(session, apply, path, player, data, raw, digest, entry, contribution,
                      known, warnings)
    return _apply_now(session, apply, path, player, data, raw, digest, entry, confirm, known,
                      warnings)


def _contribution(session: Session, player: Player, data: dict) -> tuple[str, str | None]:
    """(the file's contribution, why it is refused or None)."""
    found = dice_record(session.pbem)
    commitments = found.get("commitments") if isinstance(found.get("commitments"), dict) else {}
    turn = data["turn"]
    expected = commitments.get(str(turn))
    if data["commitment"] != expected:
        return "", (f"the orders quote another commitment for turn {turn} "
                    f"({data['commitment'] or 'none'}) than this session's ({expected}): "
                    f"they were written from a file of another game or turn.")
    key = player.key_for(turn)
    if not verify(key.public, contribution_message(session.uid, turn, expected),
                  data["contribution"]):
        return "", (f"the contribution to turn {turn}'s dice is not {player.name}'s "
                    f"signature of the turn's commitment.")
    for earlier in ledger.files(session, ORDERS, turn):
        if earlier.player == player.name and earlier.contribution and \
                earlier.contribution != data["contribution"]:
            return "", (f"the contribution to turn {turn}'s dice differs from the one "
                        f"{player.name}'s earlier file carried (a contribution is fixed by "
                        f"the key and the turn).")
    return data["contribution"], None


def _refuse(session: Session, apply: "Apply", path: Path, player: Player, data: dict,
            raw: bytes, digest: str,
            reason: str, known: dict, status: str = "refused", contribution: str = "", *,
            on_desk: bool = True) -> ImportResult:
    """An authentic file of this turn refused: kept in the ledger (with the reason) and,
    ``on_desk``, noted on the turn desk (a refusal for what its orders say, which the
    player must mend); nothing else changes. The same bytes refused again change nothing."""
    turn, seq = data["turn"], data["seq"]
    if ledger.find_digest(session, digest) is not None:
        return ImportResult(path, REFUSED, reason, **known)  # kept already: nothing new
    before = record.orders_entry(session, player.name, turn) if on_desk else None

    def work(s: Session, ctx: "ActionContext") -> None:
        if on_desk:
            record.put_orders_entry(s, player.name, turn, OrdersEntry(
                seq, REFUSED, data.get("nonce", ""), f"refused: {reason}"[:record.MAX_REASON],
                digest, before.applied if before else ()))
        ctx.log(f"orders number {seq} from {player.name} for turn {turn} refused: {reason}")

    apply(_Receive(f"refused orders from {player.name} for turn {turn}",
                           _keep(ORDERS, player.name, turn, seq, digest, raw, status, reason,
                                 contribution), work))
    return ImportResult(path, REFUSED, reason, changed=True, **known)


def _queue(session: Session, apply: "Apply", path: Path, player: Player, data: dict,
           raw: bytes, digest: str,
           entry: OrdersEntry | None, contribution: str, known: dict,
           warnings: list[str]) -> ImportResult:
    turn, seq = data["turn"], data["seq"]
    if entry is not None and entry.seq == seq:
        return ImportResult(path, DUPLICATE, f"already received ({entry.status}): orders "
                            f"number {seq} from {player.name} for turn {turn}.", **known)
    why = _precheck(session, player, data, digest)
    if why is not None:
        return _refuse(session, apply, path, player, data, raw, digest, why, known,
                       contribution=contribution)
    count = len(data["orders"])
    replaces = f", replacing number {entry.seq}" if entry is not None else ""

    def work(s: Session, ctx: "ActionContext") -> None:
        record.put_orders_entry(s, player.name, turn, OrdersEntry(
            seq, QUEUED, data.get("nonce", ""), "", digest, ()))
        ctx.log(f"orders number {seq} from {player.name} for turn {turn} queued "
                f"({count} order{'s' if count != 1 else ''}{replaces}): applied when the "
                f"turn's orders close")
        for warning in warnings:
            ctx.log(f"WARNING: {warning}")

    apply(_Receive(f"orders from {player.name} for turn {turn} queued",
                           _keep(ORDERS, player.name, turn, seq, digest, raw, QUEUED, "",
                                 contribution), work))
    signed = "signed" if data["version"] == 2 else "not signed (not joined yet)"
    return ImportResult(path, QUEUED, f"{count} order{'s' if count != 1 else ''}, number "
                        f"{seq}{replaces}, {signed}; applied when turn {turn}'s orders close.",
                        changed=True, warnings=warnings, **known)


def _apply_now(session: Session, apply: "Apply", path: Path, player: Player, data: dict,
               raw: bytes,
               digest: str, entry: OrdersEntry | None, confirm: bool, known: dict,
               warnings: list[str]) -> ImportResult:
    """A session without stages (or a turn begun before them): applied at once, one step."""
    turn, seq = data["turn"], data["seq"]
    held = False
    if entry is not None:
        if seq == entry.seq:
            if entry.status == ARRIVED and confirm:
                held = True
            elif entry.status == ARRIVED:
                return ImportResult(path, NEEDS_CONFIRMATION, _held_words(player, turn, seq),
                                    **known)
            else:
                return ImportResult(path, DUPLICATE, f"already received ({entry.status}): "
                                    f"orders number {seq} from {player.name} for turn {turn}.",
                                    **known)
        if entry.applied and not confirm and not held:
            reason = _held_words(player, turn, seq)

            def note(s: Session, ctx: "ActionContext") -> None:
                record.put_orders_entry(s, player.name, turn, OrdersEntry(
                    seq, ARRIVED, data.get("nonce", ""), reason, digest, entry.applied))
                ctx.log(reason)
            apply(_Receive(f"correction from {player.name} for turn {turn} held",
                                   _keep(ORDERS, player.name, turn, seq, digest, raw, "held",
                                         reason), note))
            return ImportResult(path, NEEDS_CONFIRMATION, reason, changed=True, **known)
    action = ApplyOrders(player, data, digest)
    try:
        apply(_Receive(action.name, _keep(ORDERS, player.name, turn, seq, digest, raw,
                                                  APPLIED), action.apply))
    except RuleViolation as exc:
        return _refuse(session, apply, path, player, data, raw, digest, str(exc), known)
    count = len(data["orders"])
    return ImportResult(path, ACCEPTED, f"applied as one step: {action.name} "
                        f"({count} order{'s' if count != 1 else ''}, number {seq}).",
                        changed=True, warnings=warnings, **known)


def _held_words(player: Player, turn: int, seq: int) -> str:
    return (f"a correction (number {seq}) of {player.name}'s orders for turn {turn}, which were "
            f"applied already: import it again with confirmation to apply it as a new step.")


#: The name the desk has always called it by.
import_orders = import_files

__all__ = ["ACCEPTED", "DUPLICATE", "ImportResult", "NEEDS_CONFIRMATION", "import_files",
           "import_orders"]

"""Orders files: a player's decisions for one turn, out of their file, into the moderator's.

**Out, from the player.** :func:`current_orders` reads the player's decisions from their
file: every decision form of their own ships whose values now differ from the same form
on the ship as exported (the baseline: standing orders, a recovery choice, planned
repairs...), after the decisions made with ``players.decide`` whose form carries no value
of its own (a turn state, the boxes to repair, War In Space's Energy Allocation). Dice
fields are left empty: the dice are the moderator's to roll. :func:`order_warnings` tries
them on a copy of the file as exported and says every order the moderator would refuse and
every one the rules would not apply (the DDAP's notes), before anything is sent.
:func:`export_orders` writes the file (DESK.md): signed with the player's own key
(version 2, ``pbem/keys.py``) once they have one, else authenticated with their secret
(version 1, until they join).

**In, at the moderator.** :func:`import_orders` (``pbem/inbox.py``) checks each file
(DESK.md, "Import checks"). In a turn with stages it is queued, and applied when the
turn's orders close (``pbem/turns.py``); elsewhere it is applied at once as one undo step
(:class:`ApplyOrders`, logged "orders from Blue for turn 3"). A refused file changes
nothing of the game; an authentic file is kept, with what became of it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple

from shipsheet.model.actions import Action
from shipsheet.model.dice import TURN_HMAC, canonical_json, is_turn_key
from shipsheet.model.errors import RuleViolation, ShipSheetError
from shipsheet.model.files import problem, read_regular
from shipsheet.model.games import GAME_IDS, piece
from shipsheet.model.keypath import Node
from shipsheet.model.session import Session, valid_uid
from shipsheet.model.ship import Ship, clone
from shipsheet.model.storage import write_atomic
from shipsheet.model.trial import trial_session

from . import record, stages
from .dice import add_nonce
from .players import OrdersSent, checked_values, dice_fields, find_form, form_current
from .record import APPLIED, OrdersEntry, Player, check_name, is_hex64

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Apply
    from shipsheet.model.session import ActionContext

    from .keys import PlayerKey


FORMAT = "shipsheet-orders"
#: 2: signed with the player's own key, quoting the turn's commitment, with the player's
#: contribution to the turn's dice; 1: HMAC with the player's secret and a nonce (read
#: until the player has joined).
VERSION = 2
SUFFIX = ".orders.json"
#: Larger files are refused unread.
MAX_BYTES = 256 * 1024
MAX_ORDERS = 500
MAX_FIELDS = 100
MAX_TEXT = 10_000

class OrdersFileError(ShipSheetError):
    """A file that is not a readable orders file; the message says why."""


# -- the MAC ------------------------------------------------------------------------------------

def canonical(data: Mapping) -> bytes:
    """The bytes the MAC covers: ``data`` without ``mac``, as canonical JSON (DESK.md)."""
    return canonical_json({k: v for k, v in data.items() if k != "mac"})


def compute_mac(secret: str, data: Mapping) -> str:
    """HMAC-SHA256 of :func:`canonical` ``data`` with the player's secret (64 hex digits)."""
    return hmac.new(bytes.fromhex(secret), canonical(data), hashlib.sha256).hexdigest()


def sign(data: Mapping, secret: str) -> dict:
    """``data`` with its ``mac`` (version 1)."""
    out = {k: v for k, v in data.items() if k != "mac"}
    out["mac"] = compute_mac(secret, out)
    return out


def signed_by_key(data: Mapping, key) -> dict:
    """``data`` with its ``signature`` (version 2): the player's Ed25519 signature of
    ``b"shipsheet orders v2\n"`` + the canonical JSON of the rest (``pbem/keys.py``)."""
    from .keys import ORDERS, signed_bytes
    out = {k: v for k, v in data.items() if k != "signature"}
    out["signature"] = key.sign(signed_bytes(ORDERS, out))
    return out


def signature_holds(data: Mapping, public_hex: str) -> bool:
    """Whether a version-2 file's signature is ``public_hex``'s."""
    from .keys import ORDERS, signed_bytes, verify
    return verify(public_hex, signed_bytes(ORDERS, data, "signature"), data.get("signature"))


# -- one order ------------------------------------------------------------------------------------

class _Target(NamedTuple):
    """What an order names, as things stand: its ship and decision form (None: not found),
    and its label for messages ("Swift, Standing orders")."""

    ship: Ship | None
    spec: dict | None
    label: str


def _target(session: Session, order: Any) -> _Target:
    if not isinstance(order, Mapping):
        return _Target(None, None, "an order")
    ship = next((s for s in session.ships if s.id == order.get("ship")), None)
    spec = find_form(session, ship, order.get("form")) if ship is not None else None
    name = ship.name if ship is not None else f'ship "{str(order.get("ship"))[:64]}"'
    return _Target(ship, spec, f"{name}, {spec['title'] if spec else str(order.get('form'))[:80]}")


def order_action(session: Session, player: Player, order: Any) -> Action | None:
    """The game's action for one order of ``player``'s, as things stand in ``session``; None
    when the form already holds these values (nothing to do). RuleViolation, in words, when
    the ship is not the player's, the form is not offered now or its values are not valid,
    or the order fills a die (the dice are the moderator's)."""
    return _order_action(session, player, order, _target(session, order))


def _order_action(session: Session, player: Player, order: Any, target: _Target) -> Action | None:
    """:func:`order_action`, with the order's :func:`_target` found already."""
    if not isinstance(order, Mapping) or not isinstance(order.get("ship"), str) \
            or not isinstance(order.get("form"), str):
        raise RuleViolation("An order names a ship and a decision form.")
    ship, spec = target.ship, target.spec
    if ship is None:
        raise RuleViolation(f'there is no ship "{order["ship"][:64]}" in the session.')
    if not player.owns(ship):
        raise RuleViolation(f"{ship.name} is not {player.name}'s ship: its own player "
                            f"gives its orders.")
    kind = order["form"]
    if spec is None:
        raise RuleViolation(f'{ship.name}: there is no decision "{kind[:80]}" to make now.')
    values = order.get("values", {})
    if not isinstance(values, Mapping):
        raise RuleViolation("The form's values must be a table of names and values.")
    dice = dice_fields(spec)
    typed = [n for n in dice if values.get(n) not in (None, "")]
    if typed:
        raise RuleViolation(f"{spec['title']}: the dice are the moderator's to roll; leave "
                            f"{', '.join(typed)} empty.")
    if not dice:
        # An order the form already holds is nothing to do ("as ordered already"), asked
        # before the game's action, which may refuse a change that changes nothing.
        now = checked_values(spec, form_current(spec))
        if now is not None and now == checked_values(spec, values):
            return None
    decisions = piece(session.game, "decisions")
    return decisions.action(session, ship, kind, values)  # checks the values (form_values)


# -- out: the player's orders ----------------------------------------------------------------------

def baseline_session(player_file: Session) -> Session:
    """A throwaway copy of a player file with its own ships as they were exported."""
    copy = trial_session(player_file)
    states = record.baseline(player_file)
    for ship in copy.ships:
        if ship.id in states:
            ship.state = clone(states[ship.id])
    return copy


def current_orders(player_file: Session) -> list[dict]:
    """The player's orders for this turn, read from their file (see the module docstring):
    ``[{"ship": id, "form": kind, "values": {...}}]``, dice fields empty."""
    me = record.own_player(player_file)
    decisions = piece(player_file.game, "decisions")
    base = baseline_session(player_file)
    own = me.own_ships(player_file)
    #: (ship id, kind) -> the form offered now and its values checked (the first of a kind,
    #: as ``find_form``), for the recorded decisions below.
    offered: dict[tuple[str, str], tuple[dict, dict | None]] = {}
    changed: list[dict] = []
    for ship in own:
        base_ship = next((s for s in base.ships if s.id == ship.id), None)
        before = {} if base_ship is None else {
            f["kind"]: checked_values(f, form_current(f)) for f in decisions.forms(base, base_ship)}
        for spec in decisions.forms(player_file, ship):
            now = form_current(spec)
            checked = checked_values(spec, now)
            offered.setdefault((ship.id, spec["kind"]), (spec, checked))
            if spec["kind"] in before:
                if checked == before[spec["kind"]]:
                    continue
            elif not any(v not in (None, "", False) for v in now.values()):
                continue  # a form offered since, left as it came
            changed.append({"ship": ship.id, "form": spec["kind"],
                            "values": checked if checked is not None else now})
    made = record.decided(player_file, player_file.turn)
    last = {(o["ship"], o["form"]): o["values"] for o in made}
    own_ids = {s.id for s in own}
    out: list[dict] = []
    for order in made:
        if order["ship"] not in own_ids:
            continue
        key = (order["ship"], order["form"])
        spec, now = offered.get(key, (None, None))
        if spec is not None and not dice_fields(spec):
            if now is not None and now == checked_values(spec, last[key]):
                continue  # the form shows it: the change above carries it
        values = dict(order["values"])
        if spec is not None:
            values.update({n: None for n in dice_fields(spec)})
        item = {"ship": order["ship"], "form": order["form"], "values": values}
        if item not in out and item not in changed:
            out.append(item)
    return out + changed


def ignored_orders(session: Session, ship: Ship) -> list[str]:
    """What of the ship's standing orders the rules would not apply, and why (the game's
    own checks; [] for a game without standing orders)."""
    return piece(session.game, "ignored_orders")(session, ship)




def order_warnings(player_file: Session, orders: Iterable[Any]) -> list[str]:
    """Every order the moderator would refuse, and why (tried in turn on a copy of the file
    as it was exported, as the moderator applies them), then every standing order the rules
    would not apply (e.g. the DDAP's) on the player's ships after them. [] when all is well."""
    me = record.own_player(player_file)
    trial = baseline_session(player_file)
    warnings = []
    for order in orders:
        target = _target(trial, order)
        try:
            action = _order_action(trial, me, order, target)
            if action is not None:
                trial.apply(action)
        except RuleViolation as exc:
            warnings.append(f"{target.label}: would be refused: {exc}")
    for ship in me.own_ships(trial):
        warnings += [f"{ship.name}: {note}" for note in ignored_orders(trial, ship)]
    return warnings


_EXPORTED = re.compile(r"Orders for turn (\d+) exported as number (\d+)")


def _next_seq(player_file: Session, turn: int) -> int:
    """One more than any number used for ``turn``: the record, and the log (its lines stay
    when an undo takes the record back, so a number is never used twice)."""
    used = record.sent(player_file).get(turn, 0)
    for entry in player_file.log:
        found = _EXPORTED.fullmatch(entry.text)
        if found and int(found.group(1)) == turn:
            used = max(used, int(found.group(2)))
    return used + 1


def _checked_orders(orders: Any) -> list[dict]:
    node = Node(orders, "orders", "", RuleViolation)
    _check_orders_list(node)
    return [{"ship": o["ship"], "form": o["form"], "values": dict(o.get("values", {}))}
            for o in orders]


def export_orders(player_file: Session, turn: int, path: str | Path,
                  orders: list[dict] | None = None, key: "PlayerKey | None" = None, *,
                  apply: "Apply | None" = None) -> Path:
    """Write the player's orders for ``turn`` (this file's turn) to ``path``: ``orders``, or
    :func:`current_orders`. Numbered one past the last sent (recorded in the file: the
    caller saves the player file after). Signed with the player's own key when they have
    one in their state folder (version 2: with the turn's commitment as the player file
    has it, the player's contribution to the turn's dice, and the transcripts of the
    closed turns it knows); else, until they join, HMAC with their secret (version 1).
    ``key``: the player's key as the caller loaded it already (None: looked for here).
    ``apply``: how the number sent is recorded (:class:`OrdersSent`; ``session.apply`` when
    None). The path."""
    from .keys import load_key
    from .public import known_commitment, known_transcripts
    me = record.own_player(player_file)
    uid = record.moderator_uid(player_file)
    if isinstance(turn, bool) or not isinstance(turn, int) or turn != player_file.turn:
        raise RuleViolation(f"This player file is for turn {player_file.turn}: its orders are "
                            f"for that turn, not turn {turn}.")
    orders = current_orders(player_file) if orders is None else _checked_orders(orders)
    seq = _next_seq(player_file, turn)
    if key is None:
        key = load_key(uid, me.name)
    data: dict[str, Any] = {"format": FORMAT, "game": player_file.game, "session": uid,
                            "turn": turn, "player": me.name, "seq": seq}
    if key is None:
        data.update(version=1, nonce=secrets.token_hex(32), orders=orders)
        data = sign(data, me.secret)
    else:
        commitment = known_commitment(player_file, turn)
        data.update(version=2, key=key.fingerprint, commitment=commitment,
                    contribution=key.contribution(turn, commitment) if commitment else None,
                    seen={"transcripts": {str(t): h for t, h in
                                          sorted(known_transcripts(player_file).items())}},
                    orders=orders)
        data = signed_by_key(data, key)
    payload = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    if len(payload) > MAX_BYTES:
        raise RuleViolation(f"These orders are too long for an orders file (at most "
                            f"{MAX_BYTES // 1024} KB).")
    write_atomic(path, payload)

    (apply or player_file.apply)(OrdersSent(turn, seq))
    return Path(path)


# -- in: reading a file ------------------------------------------------------------------------------

def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in an orders file")


def _check_orders_list(node: Node) -> None:
    for item in node.list(max_len=MAX_ORDERS):
        item.table()
        item.only_keys("ship", "form", "values")
        item.get("ship").str(max_len=64)
        item.get("form").str(max_len=80)
        values = item.get("values", {}).table()
        if len(values.value) > MAX_FIELDS:
            values.fail(f"at most {MAX_FIELDS} values")
        for key, value in values.items():
            if len(key) > 80:
                value.fail("a field name is at most 80 characters")
            v = value.value
            if v is None or isinstance(v, bool):
                continue
            if isinstance(v, int):
                if abs(v) > 2**53:
                    value.fail("the number is too large")
            elif isinstance(v, str):
                if len(v) > MAX_TEXT:
                    value.fail(f"at most {MAX_TEXT} characters")
            else:
                value.fail("a value is text, a whole number, true/false or empty (null)")


def _what_it_is(data: Any) -> str | None:
    """What a JSON object that is not an orders file is, in words, or None."""
    if not isinstance(data, dict):
        return None
    if data.get("format") == "shipsheet-session":
        pbem = data.get("pbem")
        if isinstance(pbem, dict) and pbem.get("role") == "player":
            who = pbem.get("player")
            who = f"{who[:40]}'s" if isinstance(who, str) else "a player's"
            return (f"a player file ({who} session file), not an orders file: the player "
                    f"sends their orders with File ▸ PBEM ▸ Export Orders…")
        return "a session file, not an orders file"
    return None


def parse_orders(raw: bytes, label: str = "orders") -> dict:
    """The checked content of an orders file's bytes, or OrdersFileError saying why."""
    return check_orders(decode_orders(raw, label), label)


def decode_orders(raw: bytes, label: str = "orders") -> Any:
    """The JSON value of a file's bytes, unchecked (NaN and Infinity refused), or
    OrdersFileError saying why they are none (empty, not UTF-8, damaged)."""
    def fail(message: str) -> OrdersFileError:
        return OrdersFileError(f"{label}: {message}")

    if not raw.strip():
        raise fail("the file is empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise fail("not an orders file (not UTF-8 text; it may be damaged)") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise fail("nested too deeply; not an orders file") from None
    except ValueError as exc:
        raise fail(f"damaged or truncated ({exc})") from None


def check_orders(data: Any, label: str = "orders") -> dict:
    """The checked content of an orders file's JSON value (:func:`decode_orders`), or
    OrdersFileError saying why it is not one (a session or player file says so)."""
    def fail(message: str) -> OrdersFileError:
        return OrdersFileError(f"{label}: {message}")

    if not isinstance(data, dict):
        raise fail("not an orders file (a JSON object is expected)")
    other = _what_it_is(data)
    if other is not None:
        raise fail(f"this is {other}")
    root = Node(data, label, "", OrdersFileError)
    if data.get("format") != FORMAT:
        root.fail(f'not a ShipSheet orders file (no "format": "{FORMAT}")')
    version = root.get("version").int(lo=1)
    if version > VERSION:
        root.fail(f"made by a newer ShipSheet (orders version {version}; this version reads "
                  f"up to {VERSION}). Update ShipSheet to read it.")
    if version == 1:
        root.only_keys("format", "version", "game", "session", "turn", "player", "seq",
                       "nonce", "orders", "mac")
    else:
        root.only_keys("format", "version", "game", "session", "turn", "player", "seq",
                       "key", "commitment", "contribution", "seen", "orders", "signature")
    root.get("game").str(choices=tuple(GAME_IDS))
    uid = root.get("session")
    if not (isinstance(uid.value, str) and valid_uid(uid.value)):
        uid.fail("not a session uid")
    root.get("turn").int(lo=1, hi=record.MAX_TURN)
    player = root.get("player")
    try:
        if check_name(player.value) != player.value:
            raise RuleViolation("not written as ShipSheet writes a name")
    except RuleViolation as exc:
        player.fail(str(exc))
    root.get("seq").int(lo=1, hi=record.MAX_SEQ)
    if version == 1:
        for key in ("nonce", "mac"):
            if not is_hex64(root.get(key).value):
                root.get(key).fail("64 hex digits expected")
    else:
        _check_signed(root)
    _check_orders_list(root.get("orders"))
    if not _all_text_encodable(data):  # "\ud800" is valid JSON, but no character
        raise fail("contains text that is not valid Unicode (a lone surrogate)")
    return data


def _check_signed(root: Node) -> None:
    """The fields of a version-2 file."""
    from .keys import is_signature
    if not is_hex64(root.get("key").value):
        root.get("key").fail("a key fingerprint is 64 hex digits")
    commitment = root.get("commitment", None)
    if commitment.value is not None and not is_hex64(commitment.value):
        commitment.fail("a commitment is 64 hex digits (or null)")
    contribution = root.get("contribution", None)
    if contribution.value is not None and not is_signature(contribution.value):
        contribution.fail("a contribution is a signature: 128 hex digits (or null)")
    if (contribution.value is None) != (commitment.value is None):
        contribution.fail("a contribution goes with the commitment it signs")
    seen = root.get("seen", {}).table()
    seen.only_keys("transcripts")
    transcripts = seen.get("transcripts", {}).table()
    if len(transcripts.value) > record.MAX_TURN_QUOTES:
        transcripts.fail(f"at most {record.MAX_TURN_QUOTES} turns")
    for turn, value in transcripts.items():
        if not (is_turn_key(turn) and is_hex64(value.value)):
            value.fail("a turn's transcript hash is 64 hex digits")
    if not is_signature(root.get("signature").value):
        root.get("signature").fail("a signature is 128 hex digits")


def _all_text_encodable(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _read(path: str | Path) -> tuple[dict, bytes]:
    path = Path(path)
    try:
        raw = read_regular(path, MAX_BYTES)
    except OSError as exc:
        raise OrdersFileError(f"{path.name}: {problem(exc)}") from None
    return parse_orders(raw, path.name), raw


def read_orders(path: str | Path) -> dict:
    """The checked content of an orders file (at most 256 KB, read bounded), or
    OrdersFileError saying why it is not one (a session or player file says so)."""
    return _read(path)[0]


# -- in: applying ---------------------------------------------------------------------------------

class ApplyOrders(Action):
    """A player's orders file applied: each order's decision action, in order, in one step
    (one undo step), its nonce added to the turn's dice mix, the record marked applied."""

    def __init__(self, player: Player, data: Mapping, digest: str):
        self.player = player
        self.data = data
        self.digest = digest
        self.name = f"orders from {player.name} for turn {data['turn']}"

    def touches(self, session: Session):
        return None

    def apply(self, session: Session, ctx: "ActionContext") -> None:
        data, name = self.data, self.player.name
        turn, seq = data["turn"], data["seq"]
        if turn != session.turn:
            raise RuleViolation(f"These orders are for turn {turn}; this is turn {session.turn}.")
        # A turn-hmac-v1 turn mixes the nonces in at import, in import order.
        if data.get("version") == 1 and stages.scheme_of(session, turn) == TURN_HMAC:
            add_nonce(session, turn, data["nonce"])  # into the turn's dice (undone with it)
        done = 0
        for i, order in enumerate(data["orders"], 1):
            target = _target(session, order)
            label = target.label
            try:
                action = _order_action(session, self.player, order, target)
            except RuleViolation as exc:
                raise RuleViolation(f"order {i} ({label}): {exc}") from None
            ship_id = order["ship"]
            if action is None:
                private = target.spec.get("private") if target.spec else None
                ctx.log(f"{label}: as ordered already", ship=ship_id, private=private)
                continue
            with ctx.within(action):  # the order's ship, and its privacy, for its lines
                ctx.log(action.name, ship=ship_id)
                try:
                    action.apply(session, ctx)
                except RuleViolation as exc:
                    raise RuleViolation(f"order {i} ({label}): {exc}") from None
            done += 1
        before = record.orders_entry(session, name, turn)
        applied = (before.applied if before else ()) + (seq,)
        record.put_orders_entry(session, name, turn, OrdersEntry(
            seq, APPLIED, data.get("nonce", ""), "", self.digest, applied))
        ctx.log(f"{name}'s orders number {seq}: {done} applied of {len(data['orders'])}")


__all__ = ["ApplyOrders", "FORMAT", "MAX_BYTES", "OrdersFileError", "SUFFIX", "VERSION",
           "canonical", "check_orders", "compute_mac", "current_orders", "decode_orders",
           "export_orders", "ignored_orders", "order_action", "order_warnings", "parse_orders",
           "read_orders", "sign", "signature_holds", "signed_by_key"]

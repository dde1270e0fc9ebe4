"""Typed, checked access to a session's play-by-e-mail record (``session.pbem``, DESK.md).

The record is plain JSON inside a session file, and a session file may come from anyone:
every value is checked here before it is used, and a record that does not hold together is
refused with :class:`RecordError` (a :class:`RuleViolation`) naming its key path, so a
window or a command line shows it like any refusal. Nothing here changes the session: the
writers (:func:`put_orders_entry`, ...) are called by actions, inside ``Session.apply``.
"""

from __future__ import annotations

import unicodedata
from ..model.code_cache import dataclass
from typing import TYPE_CHECKING, Any, Iterable

# is_hex64: 64 lowercase hex digits (a secret, a nonce, a MAC, a SHA-256 digest).
from shipsheet.model.dice import is_hex64, is_turn_key
from shipsheet.model.errors import RuleViolation
from shipsheet.model.keypath import Node
from shipsheet.model.session import valid_uid

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

MODERATOR, PLAYER = "moderator", "player"
ROLES = (MODERATOR, PLAYER)
#: The statuses of a turn's orders in the moderator's record; "missing" is their absence.
#: "queued": arrived while the turn's orders are open (turns with stages), applied when
#: they close.
ARRIVED, APPLIED, REFUSED, QUEUED = "arrived", "applied", "refused", "queued"
STATUSES = (ARRIVED, APPLIED, REFUSED, QUEUED)
#: Keys a player may have had in one session (a lost key replaced, ...).
MAX_KEYS = 20
MAX_PLAYERS = 32
MAX_NAME = 40
MAX_ITEMS = 200  # sides or ships one player may have
MAX_TURN = 1_000_000
MAX_SEQ = 1_000_000
MAX_REASON = 2000
#: Turns whose transcript hash one orders file may quote.
MAX_TURN_QUOTES = 10_000


class RecordError(RuleViolation):
    """The session's play-by-e-mail record is damaged or was made by hand wrongly."""


def _node(session: "Session") -> Node:
    return Node(session.pbem, "the play-by-e-mail record", "", RecordError).table()


def check_name(name: Any) -> str:
    """A player's name: 1-40 characters, no control characters, no path separators (it
    names the player's file), not "." or ".."; RuleViolation saying why, else the name."""
    if not isinstance(name, str):
        raise RuleViolation("A player's name must be text.")
    name = " ".join(name.split())
    if not name:
        raise RuleViolation("A player needs a name.")
    if len(name) > MAX_NAME:
        raise RuleViolation(f"A player's name can be at most {MAX_NAME} characters long.")
    bad = next((c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")
                or c in '/\\:*?"<>|'), None)
    if bad is not None or name in (".", ".."):
        raise RuleViolation(f'"{name.encode("ascii", "backslashreplace").decode()}" cannot '
                            f'be a player\'s name: use letters, digits, spaces and - _ . ( ).')
    return name


@dataclass(frozen=True)
class PlayerKey:
    """A public key a player joined with (``pbem/keys.py``): it signs their orders from
    turn ``since`` on (until a later key replaces it)."""

    public: str
    since: int

    def to_json(self) -> dict:
        return {"public": self.public, "from": self.since}


def key_for(keys: Iterable[PlayerKey], turn: int) -> PlayerKey | None:
    """The key of ``keys`` (a player's, oldest first) that signs their orders for ``turn``:
    the last from that turn or before (None: not joined by then)."""
    found = None
    for key in keys:
        if key.since <= turn:
            found = key
    return found


@dataclass(frozen=True)
class Player:
    """One player: a name, the sides and ships they command, their secret (64 hex digits:
    it authenticates what the moderator sends them, their join file and, until they
    join, their orders; "" before the record gives them one), and the public keys they
    joined with, oldest first (none: not joined)."""

    name: str
    sides: tuple[str, ...] = ()
    ships: tuple[str, ...] = ()
    secret: str = ""
    keys: tuple[PlayerKey, ...] = ()

    def key_for(self, turn: int) -> PlayerKey | None:
        """The key that signs this player's orders for ``turn`` (None: not joined by then)."""
        return key_for(self.keys, turn)

    @property
    def joined(self) -> bool:
        return bool(self.keys)

    def owns(self, ship: "Ship") -> bool:
        """The ship is this player's: its id is listed, or its side is one of theirs (a ship
        that changes sides changes owners)."""
        return ship.id in self.ships or (ship.side is not None and ship.side in self.sides)

    def own_ships(self, session: "Session") -> list["Ship"]:
        return [s for s in session.ships if self.owns(s)]

    def to_json(self) -> dict:
        data = {"name": self.name, "sides": list(self.sides), "ships": list(self.ships),
                "secret": self.secret}
        if self.keys:
            data["keys"] = [k.to_json() for k in self.keys]
        return data


def _player(node: Node) -> Player:
    node.table()
    try:
        name = check_name(node.get("name").value)
    except RuleViolation as exc:
        node.get("name").fail(str(exc))
    def texts(key: str, limit: int) -> tuple[str, ...]:
        return tuple(item.str(max_len=limit) for item in node.get(key, []).list(max_len=MAX_ITEMS))
    secret = node.get("secret").value
    if not is_hex64(secret):
        node.get("secret").fail("a player's secret is 64 hex digits")
    keys = []
    for item in node.get("keys", []).list(max_len=MAX_KEYS):
        item.table()
        public = item.get("public").value
        if not is_hex64(public):
            item.get("public").fail("a public key is 64 hex digits")
        since = item.get("from").int(lo=1, hi=MAX_TURN)
        if keys and since < keys[-1].since:
            item.get("from").fail("keys are listed oldest first")
        keys.append(PlayerKey(public, since))
    return Player(name, texts("sides", 80), texts("ships", 64), secret, tuple(keys))


# -- reading --------------------------------------------------------------------------------

def role(session: "Session") -> str | None:
    """"moderator", "player", or None when the session is not played by e-mail (a record
    with no role holds only verifiable dice)."""
    if not session.pbem or "role" not in session.pbem:
        return None
    return _node(session).get("role").str(choices=ROLES)


def is_player_file(session: "Session") -> bool:
    return role(session) == PLAYER


def is_moderator(session: "Session") -> bool:
    return role(session) == MODERATOR


def moderator_uid(session: "Session") -> str:
    """The moderator's session uid (a player file keeps its moderator's)."""
    node = _node(session).get("session")
    uid = node.str(max_len=64)
    if not valid_uid(uid):
        node.fail("not a session uid")
    return uid


def players(session: "Session") -> list[Player]:
    """Every player of the record (a player file: its own), checked; [] without a record."""
    if not session.pbem:
        return []
    node = _node(session).get("players", [])
    found = [_player(n) for n in node.list(max_len=MAX_PLAYERS)]
    seen: set[str] = set()
    for i, p in enumerate(found):
        if p.name.casefold() in seen:
            node.child(i, None).fail(f'the player "{p.name}" is named twice')
        seen.add(p.name.casefold())
    return found


def find_player(session: "Session", name: Any) -> Player | None:
    """The player called ``name`` (exactly, else ignoring case), or None."""
    if not isinstance(name, str):
        return None
    everyone = players(session)
    return (next((p for p in everyone if p.name == name), None)
            or next((p for p in everyone if p.name.casefold() == name.casefold()), None))


def player_name(session: "Session") -> str:
    """A player file's player."""
    node = _node(session).get("player")
    try:
        return check_name(node.value)
    except RuleViolation as exc:
        node.fail(str(exc))


def own_player(session: "Session") -> Player:
    """A player file's own entry (its name, ships and secret); RecordError if it has none."""
    if not is_player_file(session):
        raise RuleViolation("This is not a player file (File ▸ PBEM ▸ Export Player Files… "
                            "makes one for each player).")
    name = player_name(session)
    me = find_player(session, name)
    if me is None:
        raise RecordError(f'the play-by-e-mail record: players: no entry for "{name}", '
                          f'the player of this file')
    return me


def moderator_plays(session: "Session") -> str | None:
    """The player the moderator plays himself (named at setup), or None. That player's
    contribution is not mixed into the dice: the moderator knows the seed already."""
    if not session.pbem:
        return None
    node = _node(session).get("moderator_plays", None)
    if node.value is None:
        return None
    name = node.str(max_len=MAX_NAME)
    if find_player(session, name) is None:
        node.fail(f'names no player of this session ("{name}")')
    return find_player(session, name).name


def show_others(session: "Session") -> bool:
    """Whether player files show the other players' ships (without their orders)."""
    if not session.pbem:
        return False
    return _node(session).get("show_others", False).bool()


@dataclass(frozen=True)
class OrdersEntry:
    """The moderator's record of one player's orders for one turn: the last file received
    (its sequence number, nonce and SHA-256 digest), its status and why, and the sequence
    numbers applied so far this turn."""

    seq: int
    status: str
    nonce: str = ""
    reason: str = ""
    digest: str = ""
    applied: tuple[int, ...] = ()

    def to_json(self) -> dict:
        data: dict[str, Any] = {"seq": self.seq, "status": self.status, "nonce": self.nonce,
                                "reason": self.reason, "digest": self.digest}
        if self.applied:
            data["applied"] = list(self.applied)
        return data


def _entry(node: Node) -> OrdersEntry:
    node.table()
    seq = node.get("seq").int(lo=1, hi=MAX_SEQ)
    status = node.get("status").str(choices=STATUSES)
    nonce = node.get("nonce", "").value
    if nonce != "" and not is_hex64(nonce):
        node.get("nonce").fail("a nonce is 64 hex digits")
    digest = node.get("digest", "").value
    if digest != "" and not is_hex64(digest):
        node.get("digest").fail("a digest is 64 hex digits")
    reason = node.get("reason", "").str(nonempty=False, max_len=MAX_REASON)
    applied = tuple(n.int(lo=1, hi=MAX_SEQ) for n in node.get("applied", []).list(max_len=1000))
    return OrdersEntry(seq, status, nonce, reason, digest, applied)


def _turn_key(node: Node, key: str) -> int:
    if not (is_turn_key(key) and 1 <= int(key) <= MAX_TURN):
        node.fail("a turn is a whole number")
    return int(key)


def orders_entries(session: "Session", player: str) -> dict[int, OrdersEntry]:
    """turn -> the record of ``player``'s orders that turn (the moderator's record)."""
    if not session.pbem:
        return {}
    table = _node(session).get("orders", {}).table()
    if not table.has(player):
        return {}
    out = {}
    for key, node in table.get(player).items():
        out[_turn_key(node, key)] = _entry(node)
    return out


def orders_entry(session: "Session", player: str, turn: int) -> OrdersEntry | None:
    return orders_entries(session, player).get(turn)


def sent(session: "Session") -> dict[int, int]:
    """A player file's turn -> the last sequence number exported."""
    if not session.pbem:
        return {}
    return {_turn_key(node, key): node.int(lo=0, hi=MAX_SEQ)
            for key, node in _node(session).get("sent", {}).items()}


def baseline(session: "Session") -> dict[str, dict]:
    """A player file's ship id -> that ship's state when the file was made (checked as a
    session file's state is): what the player changed since is what their orders say."""
    if not session.pbem:
        return {}
    node = _node(session).get("baseline", {}).table()
    out: dict[str, dict] = {}
    for ship in session.ships:
        if node.has(ship.id):
            out[ship.id] = session.rules.check_state(ship.ship_class, node.get(ship.id))
    return out


def decided(session: "Session", turn: int) -> list[dict]:
    """A player file's decisions recorded for ``turn`` (order dicts: ship, form, values)."""
    if not session.pbem:
        return []
    table = _node(session).get("decided", {}).table()
    if not table.has(str(turn)):
        return []
    out = []
    for item in table.get(str(turn)).list(max_len=10_000):
        item.table()
        out.append({"ship": item.get("ship").str(max_len=64),
                    "form": item.get("form").str(max_len=80),
                    "values": dict(item.get("values").table().value)})
    return out


# -- writing (inside an action) ---------------------------------------------------------------

def put_orders_entry(session: "Session", player: str, turn: int, entry: OrdersEntry) -> None:
    orders = session.pbem.setdefault("orders", {})
    orders.setdefault(player, {})[str(turn)] = entry.to_json()


def put_keys(session: "Session", player: str, keys: tuple[PlayerKey, ...]) -> None:
    """Set a player's keys in the moderator's record."""
    for entry in session.pbem.get("players", []):
        if isinstance(entry, dict) and entry.get("name") == player:
            entry["keys"] = [k.to_json() for k in keys]
            return
    raise RecordError(f'the play-by-e-mail record: players: no entry for "{player}"')


def put_sent(session: "Session", turn: int, seq: int) -> None:
    session.pbem.setdefault("sent", {})[str(turn)] = seq


def add_decided(session: "Session", turn: int, order: dict, *, replace: bool) -> None:
    """Record a decision made in a player file; ``replace``: instead of an earlier one of
    the same ship and form (a decision left for the moderator to apply)."""
    table = session.pbem.setdefault("decided", {})
    items = table.setdefault(str(turn), [])
    if replace:
        items[:] = [o for o in items
                    if not (o.get("ship") == order["ship"] and o.get("form") == order["form"])]
    items.append(order)


__all__ = ["APPLIED", "ARRIVED", "MODERATOR", "OrdersEntry", "PLAYER", "Player", "PlayerKey",
           "QUEUED", "REFUSED", "RecordError", "add_decided", "baseline", "check_name",
           "decided", "find_player", "is_hex64", "is_moderator", "is_player_file", "key_for",
           "moderator_plays", "moderator_uid", "orders_entries", "orders_entry",
           "own_player", "player_name", "players", "put_keys", "put_orders_entry",
           "put_sent", "role", "sent", "show_others"]

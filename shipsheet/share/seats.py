"""The seats at a shared table: who may see and do what, and the secrets that open them.

A seat is a name ("Blue"), a role and the sides and ships it controls. Its secret opens
it from a link (only ever in the link's fragment); a phone trades the secret once for a
device token. Both are random 32-byte strings, compared in constant time.

Seats belong to the user, not to the session file: they are kept in the user's state
folder (``table-link/seats-<session uid>.json``, readable by the user only), so a session
file received from someone else never brings seats its sender knows. The session's uid
names the file only after :func:`~shipsheet.model.session.valid_uid` has checked it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from ..model.decisions import MARK
from ..model.errors import RuleViolation
from ..model.files import read_regular
from ..model.paths import user_state_dir
from ..model.session import valid_uid
from ..model.storage import write_atomic

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Session, Ship

PLAYER, SPECTATOR, REFEREE = "player", "spectator", "referee"
ROLES = (PLAYER, SPECTATOR, REFEREE)
RIGHTS = ("view", "decide", "mark", "undo", "admin")
#: What each role may do unless the referee changes it for a seat (PROTOCOL.md, Seats).
DEFAULT_RIGHTS = {
    PLAYER: frozenset({"view", "decide"}),
    SPECTATOR: frozenset({"view"}),
    REFEREE: frozenset(RIGHTS),
}
MAX_SEATS = 32
MAX_DEVICES = 8  # device tokens a seat keeps (the oldest goes first)
#: The longest seat name, side and ship list a seat may have.
MAX_NAME = 40
#: A seats file larger than this is not read (32 seats take a few kilobytes).
MAX_FILE_BYTES = 1_000_000


def new_secret() -> str:
    """32 random bytes, url-safe (256 bits: the issue asks for at least 128)."""
    return secrets.token_urlsafe(32)


def digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()


def not_yours(right: str, ship_name: str) -> str:
    """Why a seat may not do what needs ``right`` (``"mark"`` or ``"decide"``) on the ship
    ``ship_name``: the refusal of the seat's view and of a request (PROTOCOL.md, "The
    seat's view")."""
    if right == MARK:
        return "Your seat may not mark damage; the referee does."
    return f"Your seat does not make {ship_name}'s decisions."


@dataclass
class Seat:
    """One seat. ``rights`` None: the role's defaults."""

    id: str
    name: str
    role: str = PLAYER
    sides: tuple[str, ...] = ()
    ships: tuple[str, ...] = ()
    rights: frozenset[str] | None = None
    secret: str = field(default_factory=new_secret, repr=False)
    #: Digests of the device tokens this seat has given out (newest last).
    devices: list[str] = field(default_factory=list, repr=False)

    @property
    def allowed(self) -> frozenset[str]:
        return self.rights if self.rights is not None else DEFAULT_RIGHTS[self.role]

    def may(self, right: str) -> bool:
        return right in self.allowed

    def owns(self, ship: "Ship") -> bool:
        """The ship is this seat's own: its id is listed, or its side is one of the seat's.
        A captured ship (its side changed) moves to the seat of its new side at once."""
        if self.role == REFEREE:
            return True
        return ship.id in self.ships or (ship.side is not None and ship.side in self.sides)

    def reads_private(self, ship: "Ship") -> bool:
        """The seat may see the ship's owner's private decisions (``model/privacy.py``): the
        referee's seat, and a player's seat that owns the ship; never a spectator's, whatever
        ships it watches."""
        return self.role == REFEREE or (self.role == PLAYER and self.owns(ship))

    def sees(self, ship: "Ship") -> bool:
        """A player sees its own ships; a spectator those listed for it (all when none are);
        the referee all."""
        if not self.may("view"):
            return False
        if self.role == SPECTATOR and not self.ships and not self.sides:
            return True
        return self.owns(ship)

    def visible(self, session: "Session") -> list["Ship"]:
        return [s for s in session.ships if self.sees(s)]

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "role": self.role, "sides": list(self.sides),
                "ships": list(self.ships),
                "rights": None if self.rights is None else sorted(self.rights),
                "secret": self.secret, "devices": list(self.devices)}

    @staticmethod
    def from_json(data: dict) -> "Seat":
        """A seat from the user's own state file, checked like anything read from disk."""
        def strings(value, limit=64) -> tuple[str, ...]:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ValueError("a list of strings is needed")
            return tuple(v[:200] for v in value[:limit])
        rights = data.get("rights")
        seat = Seat(
            id=_checked_id(data["id"]), name=str(data["name"])[:MAX_NAME],
            role=data["role"] if data.get("role") in ROLES else PLAYER,
            sides=strings(data.get("sides", [])), ships=strings(data.get("ships", [])),
            rights=None if rights is None else frozenset(r for r in strings(rights) if r in RIGHTS),
            secret=str(data["secret"]), devices=list(strings(data.get("devices", []), MAX_DEVICES)))
        if len(seat.secret) < 22:  # 22 url-safe characters: the 128 bits
            raise ValueError("a seat's secret is too short")
        return seat


def _checked_id(value) -> str:
    if not isinstance(value, str) or not valid_uid(value):
        raise ValueError("a seat id is letters, digits, _ and -")
    return value


class SeatBook:
    """The seats of one session, kept in the user's state folder. Thread-safe: the server
    checks tokens on its own thread while the window edits seats."""

    def __init__(self, session_uid: str, folder: Path | None = None):
        if not valid_uid(session_uid):
            raise ValueError("the session's uid cannot name a file")
        self.path = (folder or user_state_dir() / "table-link") / f"seats-{session_uid}.json"
        self._lock = threading.RLock()
        self.seats: list[Seat] = []
        #: The port the table was last shared on (used again when it is free).
        self.port: int | None = None
        #: Set when the file could not be read (the seats start empty; it is not overwritten
        #: until the user changes a seat).
        self.problem = ""
        self._load()

    # -- the file --------------------------------------------------------------
    def _load(self) -> None:
        try:
            raw = read_regular(self.path, MAX_FILE_BYTES)
        except FileNotFoundError:
            return
        except OSError as exc:
            self.problem = f"The table's seats could not be read: {exc.strerror or exc}"
            return
        try:
            data = json.loads(raw.decode("utf-8"))
            self.seats = [Seat.from_json(s) for s in data["seats"][:MAX_SEATS]]
            port = data.get("port")
            self.port = port if isinstance(port, int) and 1024 <= port <= 65535 else None
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            self.problem = f"The table's seats could not be read ({exc}); starting with none."
            self.seats = []

    def save(self) -> None:
        """Write the seats (atomically, readable by the user only). Raises OSError."""
        with self._lock:
            payload = json.dumps({"version": 1, "port": self.port,
                                  "seats": [s.to_json() for s in self.seats]},
                                 indent=1, ensure_ascii=False).encode("utf-8")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, payload, private=True)
            self.problem = ""

    # -- seats -------------------------------------------------------------------
    def seat(self, seat_id: str) -> Seat | None:
        with self._lock:
            return next((s for s in self.seats if s.id == seat_id), None)

    def add(self, name: str, role: str = PLAYER, *, sides: Iterable[str] = (),
            ships: Iterable[str] = (), rights: Iterable[str] | None = None) -> Seat:
        name, role = _seat_name(name), _role(role)
        with self._lock:
            if len(self.seats) >= MAX_SEATS:
                raise RuleViolation(f"A table has at most {MAX_SEATS} seats.")
            self._check_free(name)
            seat = Seat(secrets.token_urlsafe(9), name, role, tuple(sides), tuple(ships),
                        _rights(rights))
            self.seats.append(seat)
            return seat

    def update(self, seat_id: str, **changes) -> Seat:
        """Change a seat's ``name``, ``role``, ``sides``, ``ships`` or ``rights``."""
        with self._lock:
            seat = self._need(seat_id)
            for key, value in changes.items():
                if key == "name":
                    value = _seat_name(value)
                    self._check_free(value, seat)
                elif key == "role":
                    value = _role(value)
                elif key in ("sides", "ships"):
                    value = tuple(value)
                elif key == "rights":
                    value = _rights(value)
                else:
                    raise KeyError(key)
                setattr(seat, key, value)
            return seat

    def remove(self, seat_id: str) -> None:
        with self._lock:
            self.seats = [s for s in self.seats if s.id != seat_id]

    def renew(self, seat_id: str) -> Seat:
        """A new secret for the seat, and every device it paired forgotten (revoked)."""
        with self._lock:
            seat = self._need(seat_id)
            seat.secret = new_secret()
            seat.devices = []
            return seat

    def _check_free(self, name: str, renamed: Seat | None = None) -> None:
        if any(s is not renamed and s.name.casefold() == name.casefold() for s in self.seats):
            raise RuleViolation(f'There is already a seat called "{name}".')

    def _need(self, seat_id: str) -> Seat:
        seat = self.seat(seat_id)
        if seat is None:
            raise RuleViolation("There is no such seat.")
        return seat

    # -- secrets and devices --------------------------------------------------------
    def pair(self, seat_id: str, secret: str) -> str | None:
        """A new device token when ``secret`` opens the seat, else None (constant time)."""
        with self._lock:
            seat = self.seat(seat_id)
            expected = seat.secret if seat is not None else new_secret()
            ok = hmac.compare_digest(expected.encode("utf-8", "replace"),
                                     str(secret).encode("utf-8", "replace"))
            if seat is None or not ok:
                return None
            token = new_secret()
            seat.devices = (seat.devices + [digest(token)])[-MAX_DEVICES:]
        try:
            self.save()
        except OSError:
            pass  # the device works for this run; the next pairing tries again
        return token

    def by_token(self, seat_id: str, token: str | None) -> Seat | None:
        """The seat a device token opens (constant-time comparison), else None."""
        if not token:
            return None
        with self._lock:
            seat = self.seat(seat_id)
            if seat is None:
                return None
            wanted = digest(token)
            found = False
            for known in seat.devices:
                found |= hmac.compare_digest(known, wanted)
            return seat if found else None


def _seat_name(name) -> str:
    name = str(name).strip()
    if not name:
        raise RuleViolation("A seat needs a name.")
    if len(name) > MAX_NAME:
        raise RuleViolation(f"A seat's name can be at most {MAX_NAME} characters long.")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise RuleViolation("The seat's name contains a character that cannot be saved.") from None
    return name


def _role(role) -> str:
    if role not in ROLES:
        raise RuleViolation(f'A seat is a {", ".join(ROLES)}, not "{role}".')
    return role


def _rights(rights: Iterable[str] | None) -> frozenset[str] | None:
    """The rights given, less any that is not one (None: the role's defaults)."""
    return None if rights is None else frozenset(rights) & frozenset(RIGHTS)

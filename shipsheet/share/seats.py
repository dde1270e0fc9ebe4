"""The seats at a shared table: who may see and do what, and the secrets that open them.

A seat is a name ("Blue"), a role and the sides and ships it controls. Its secret opens
it from a link (only ever in the link's fragment); a phone trades the secret once for a
device token. Both are random 32-byte strings, compared in constant time.

Seats belong to the user and to **one session file**, never to the session file's
contents: they are kept in the user's state folder
(``table-link/seats-<session uid>-<file key>.json``, readable by the user only), so a
session file received from someone else never brings seats its sender knows, and a copy
of a file (copied on disk, or by Save As: the copy keeps the session's uid) starts with
no seats of its own. The file key is the first 16 hex digits of the SHA-256 of the session
file's resolved path (:func:`file_key`); the session's uid names the file only after
:func:`~shipsheet.model.session.valid_uid` has checked it, and the path itself never
becomes part of a path (it is stored inside the seats file, and checked when read).
Moving or renaming a session file therefore starts it with no seats too.

An unsaved session has no file to belong to: its book is kept in memory only until the
session is first saved (:meth:`SeatBook.keep_with`). Seats files from before issue 29
(``seats-<session uid>.json``, one per uid) are never read.

Each seat records when its link was made (``Seat.made``: added, or given a New Link); a
seat made by an earlier run of ShipSheet is "from an earlier evening" (``Seat.earlier``),
which the Share dialog says beside its name.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import secrets
import threading
import time
from dataclasses import field
from ..model.code_cache import dataclass
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
#: The devices a seat keeps: a pairing past them is refused (:class:`SeatFull`), never
#: evicts a phone; only New Link (:meth:`SeatBook.renew`) moves a seat to new devices.
MAX_DEVICES = 8
#: The longest seat name, side and ship list a seat may have.
MAX_NAME = 40
#: A seats file larger than this is not read (32 seats take a few kilobytes).
MAX_FILE_BYTES = 1_000_000


#: When this run of ShipSheet started (the seats module is imported with the table's code):
#: a seat made before it was made by an earlier run, "from an earlier evening".
RUN_STARTED = time.time()


class SeatFull(RuleViolation):
    """A pairing with the right secret, refused: the seat already has ``MAX_DEVICES``
    devices (the server answers 409 with these words)."""

    def __init__(self):
        super().__init__(f"This seat already has {MAX_DEVICES} phones paired. Ask the referee "
                         "for a New Link to move it to new phones.")


def file_key(session_path: str | Path) -> str:
    """The session file's key in its seats file's name: the first 16 hex digits of the
    SHA-256 of its resolved path (case-folded where the system's paths are)."""
    resolved = os.path.normcase(str(Path(session_path).resolve()))
    return hashlib.sha256(os.fsencode(resolved)).hexdigest()[:16]


def _path_text(path: Path) -> str:
    """A path as text that is always valid UTF-8 (an undecodable byte as ``\\udcXX``)."""
    return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def _same_file(stored, session_path: Path) -> bool:
    """The seats file names ``session_path`` as its session file (read from disk: checked)."""
    return isinstance(stored, str) and (os.path.normcase(stored)
                                        == os.path.normcase(_path_text(session_path)))


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
    #: When the seat's current link was made (seconds since the epoch): when the seat was
    #: added, or given a New Link. 0: not known (an earlier evening's, then).
    made: float = field(default_factory=time.time)

    @property
    def earlier(self) -> bool:
        """The seat's link was made by an earlier run of ShipSheet ("from an earlier
        evening"): its link may be in hands from then. A seat added or given a New Link in
        this run is not."""
        return self.made < RUN_STARTED

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
        """The ships the seat :meth:`sees`, in the session's order. Asked for every connected
        seat at each change: the seat's role and rights are read once, not ship by ship."""
        if not self.may("view"):
            return []
        if self.role == REFEREE or (self.role == SPECTATOR and not self.ships and not self.sides):
            return list(session.ships)
        ships, sides = self.ships, self.sides
        return [s for s in session.ships if s.id in ships or (s.side is not None and s.side in sides)]

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "role": self.role, "sides": list(self.sides),
                "ships": list(self.ships),
                "rights": None if self.rights is None else sorted(self.rights),
                "secret": self.secret, "devices": list(self.devices), "made": self.made}

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
            secret=str(data["secret"]), devices=list(strings(data.get("devices", []), MAX_DEVICES)),
            made=_made(data.get("made")))
        if len(seat.secret) < 22:  # 22 url-safe characters: the 128 bits
            raise ValueError("a seat's secret is too short")
        return seat


def _made(value) -> float:
    """When a seat read from disk was made: a time not in the future, else 0 (not known,
    so it counts as an earlier evening's)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return 0.0
    return float(value) if 0 < value <= time.time() + 60 else 0.0


def _checked_id(value) -> str:
    if not isinstance(value, str) or not valid_uid(value):
        raise ValueError("a seat id is letters, digits, _ and -")
    return value


def _reach_from_json(data) -> dict:
    """The ``reach`` of a seats file, as far as it is well formed (short strings, a few
    proxies, a bool); anything else is dropped, never trusted further."""
    if not isinstance(data, dict):
        return {}
    out: dict = {}
    url = data.get("public_url")
    if isinstance(url, str) and 0 < len(url) <= 300:
        out["public_url"] = url
    proxies = data.get("proxies")
    if isinstance(proxies, list):
        out["proxies"] = [p for p in proxies[:8] if isinstance(p, str) and 0 < len(p) <= 60]
    if isinstance(data.get("approve_joins"), bool):
        out["approve_joins"] = data["approve_joins"]
    return out


class SeatBook:
    """The seats of one session file, kept in the user's state folder. Thread-safe: the
    server checks tokens on its own thread while the window edits seats.

    ``path``: the session file the seats belong to (it need not exist yet); None for an
    unsaved session, whose seats are kept in memory only (:attr:`path` is None, nothing is
    read or written) until :meth:`keep_with` gives them the file it is first saved as.
    ``folder``: where seats files are kept (default: ``table-link`` in the user's state
    folder)."""

    def __init__(self, session_uid: str, folder: Path | None = None, *,
                 path: str | Path | None = None):
        if not valid_uid(session_uid):
            raise ValueError("the session's uid cannot name a file")
        self.uid = session_uid
        self.folder = folder or user_state_dir() / "table-link"
        #: The session file the seats belong to (resolved), None while it has none.
        self.session_path: Path | None = None
        #: The seats file, None while the seats are kept in memory only.
        self.path: Path | None = None
        self._lock = threading.RLock()
        self.seats: list[Seat] = []
        #: The port the table was last shared on (used again when it is free).
        self.port: int | None = None
        #: How the table was last reached from outside the room, as the referee typed it in
        #: the Share dialog: {"public_url": str, "proxies": [str], "approve_joins": bool}
        #: ({}: at the table only). Checked again (exposure.Exposure.from_options) when used.
        self.reach: dict = {}
        #: Set when the file could not be read (the seats start empty; it is not overwritten
        #: until the user changes a seat).
        self.problem = ""
        if path is not None:
            self._belong_to(path)
            self._load()

    # -- the file --------------------------------------------------------------
    def _belong_to(self, session_path: str | Path) -> None:
        self.session_path = Path(session_path).resolve()
        self.path = self.folder / f"seats-{self.uid}-{file_key(self.session_path)}.json"

    def keep_with(self, session_path: str | Path) -> None:
        """The unsaved session was saved as ``session_path``: its seats (kept in memory so
        far) are that file's from now on, and saved there. Does nothing when the book
        already belongs to a file (its seats stay that file's: a Save As starts the new file
        with none). Raises OSError when the seats cannot be saved (they are that file's all
        the same, for this run)."""
        with self._lock:
            if self.path is not None:
                return
            self._belong_to(session_path)
        self.save()

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
            if not _same_file(data.get("file"), self.session_path):
                raise ValueError("they are another session file's")
            self.seats = [Seat.from_json(s) for s in data["seats"][:MAX_SEATS]]
            port = data.get("port")
            self.port = port if isinstance(port, int) and 1024 <= port <= 65535 else None
            self.reach = _reach_from_json(data.get("reach"))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            self.problem = f"The table's seats could not be read ({exc}); starting with none."
            self.seats = []

    def save(self) -> None:
        """Write the seats (atomically, readable by the user only). Raises OSError. An
        unsaved session's seats are kept in memory only: nothing is written."""
        with self._lock:
            if self.path is None:
                self.problem = ""
                return
            payload = json.dumps({"version": 1, "file": _path_text(self.session_path),
                                  "port": self.port,
                                  **({"reach": self.reach} if self.reach else {}),
                                  "seats": [s.to_json() for s in self.seats]},
                                 indent=1, ensure_ascii=False).encode("utf-8")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, payload, private=True)
            self.problem = ""

    # -- seats -------------------------------------------------------------------
    def seat(self, seat_id: str) -> Seat | None:
        with self._lock:
            return next((s for s in self.seats if s.id == seat_id), None)

    def by_id(self) -> dict[str, Seat]:
        """Every seat by its id, as the seats are now (the server asks for each connected
        seat at every change: one look at the list, not one per seat)."""
        with self._lock:
            return {s.id: s for s in reversed(self.seats)}  # the first of an id wins, as seat()

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
        """A new secret for the seat, and every device it paired forgotten (revoked): a
        seat of this evening from now on (``made`` is now)."""
        with self._lock:
            seat = self._need(seat_id)
            seat.secret = new_secret()
            seat.devices = []
            seat.made = time.time()
            return seat

    def retire_except(self, names: Iterable[str]) -> list[Seat]:
        """Remove every seat whose name is not one of ``names`` (compared case-insensitively,
        as ``serve`` matches seat names); the seats removed, in their order. Their links and
        devices stop opening them at once (the book no longer has them); like
        :meth:`remove` it does not save, and a running server's open connections of those
        seats are closed by the caller (``TableServer.close_seat``)."""
        keep = {str(name).strip().casefold() for name in names}
        with self._lock:
            retired = [s for s in self.seats if s.name.casefold() not in keep]
            self.seats = [s for s in self.seats if s.name.casefold() in keep]
            return retired

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
        """A new device token when ``secret`` opens the seat, else None (constant time).
        Raises :class:`SeatFull` when the secret is right but the seat already has
        ``MAX_DEVICES`` devices: a copied link never evicts the real phone."""
        with self._lock:
            if not self.opens(seat_id, secret):
                return None
            return self.add_device(seat_id)

    def opens(self, seat_id: str, secret: str) -> bool:
        """Whether ``secret`` is the seat's link's (compared in constant time, and as long
        for a seat that does not exist)."""
        with self._lock:
            seat = self.seat(seat_id)
            expected = seat.secret if seat is not None else new_secret()
            ok = hmac.compare_digest(expected.encode("utf-8", "replace"),
                                     str(secret).encode("utf-8", "replace"))
            return seat is not None and ok

    def add_device(self, seat_id: str) -> str:
        """A new device of the seat (its secret was checked, and where the referee's yes is
        wanted, given): its token. Raises :class:`SeatFull` past ``MAX_DEVICES`` (none is
        ever evicted), RuleViolation for a seat that is gone."""
        with self._lock:
            seat = self._need(seat_id)
            if len(seat.devices) >= MAX_DEVICES:
                raise SeatFull()
            token = new_secret()
            seat.devices = seat.devices + [digest(token)]
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

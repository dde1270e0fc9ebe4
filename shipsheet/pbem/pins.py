"""What a player's ShipSheet remembers of their game, to catch a moderator who changes it.

Each player file the moderator sends carries every player's key fingerprints, every
turn's commitment, the seeds and transcripts of closed turns (``pbem/public.py``). The
player's ShipSheet **pins** what it has seen — its own key, the others' keys, each
commitment, seed and transcript hash — in the player's state folder
(``pbem/pins/<hash>.json``, named by a hash of the session and the player), the first time
it sees each, and from then on compares (:func:`check`): a file that lists another key for
the player than the one they made, another key for someone else with no replacement on
record, or another commitment, seed or transcript for a turn it saw before, is named as
such. Only a file whose seal holds (it is the moderator's) adds to the pins. ``shipsheet
pbem pins`` shows them, and writes them for a tournament director (``pbem audit
--pins``).
"""

from __future__ import annotations

import json
from dataclasses import field
from ..model.code_cache import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shipsheet.model.dice import commitment, is_hex64
from shipsheet.model.files import read_regular
from shipsheet.model.paths import user_state_dir

from . import record
from .keys import SigningKeyError, _name_hash, fingerprint, load_key, show_fingerprint
from .public import turn_table

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session

    from .keys import PlayerKey
    from .public import Known

FORMAT = "shipsheet-pins"
_MAX = 4 * 1024 * 1024


@dataclass
class Pins:
    """What one player's ShipSheet has seen of one game."""

    session: str
    player: str
    own: str | None = None  # the fingerprint of the player's own key
    keys: dict[str, str] = field(default_factory=dict)  # player -> the latest fingerprint seen
    own_keys: list[str] = field(default_factory=list)  # every key of their own, oldest first
    commitments: dict[int, str] = field(default_factory=dict)
    seeds: dict[int, str] = field(default_factory=dict)
    transcripts: dict[int, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"format": FORMAT, "version": 1, "session": self.session, "player": self.player,
                "own": self.own, "own_keys": list(self.own_keys),
                "keys": dict(sorted(self.keys.items())),
                **{name: {str(t): h for t, h in sorted(getattr(self, name).items())}
                   for name in ("commitments", "seeds", "transcripts")}}


@dataclass
class PinCheck:
    """What :func:`check` found: problems (the moderator's file disagrees with what was
    pinned, or lists another key for you), notes (keys replaced on record, not joined yet),
    the pins as they stand now; and as the check read them, the player's own key (None:
    none, or it could not be read: a problem says so) and what the file shows (None: its
    record is damaged)."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pins: Pins | None = None
    key: "PlayerKey | None" = None
    shown: "Known | None" = None

    @property
    def commitments(self) -> dict[int, str]:
        return self.pins.commitments if self.pins else {}

    @property
    def transcripts(self) -> dict[int, str]:
        return self.pins.transcripts if self.pins else {}


def pins_path(session_uid: str, player: str) -> Path:
    return user_state_dir() / "pbem" / "pins" / f"{_name_hash('pins', session_uid, player)}.json"


def from_json(data: Any, session_uid: str | None = None, player: str | None = None) -> Pins | None:
    """Pins read back (None: not pins, or another game's or player's)."""
    if not (isinstance(data, dict) and data.get("format") == FORMAT):
        return None
    uid, name = data.get("session"), data.get("player")
    if not (isinstance(uid, str) and isinstance(name, str)):
        return None
    if (session_uid is not None and uid != session_uid) or (player is not None and name != player):
        return None
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    own = data.get("own")
    history = data.get("own_keys") if isinstance(data.get("own_keys"), list) else []
    return Pins(uid, name, own if is_hex64(own) else None,
                {k: v for k, v in keys.items() if isinstance(k, str) and is_hex64(v)},
                [h for h in history if is_hex64(h)][:100],
                turn_table(data.get("commitments")), turn_table(data.get("seeds")),
                turn_table(data.get("transcripts")))


def load(session_uid: str, player: str) -> Pins:
    path = pins_path(session_uid, player)
    try:
        raw = read_regular(path, _MAX)
        found = from_json(json.loads(raw.decode("utf-8")), session_uid, player)
    except (OSError, ValueError):
        found = None
    return found or Pins(session_uid, player)


def save(pins: Pins) -> None:
    from shipsheet.model.storage import write_atomic
    path = pins_path(pins.session, pins.player)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(pins.to_json(), indent=1).encode("utf-8"), private=True)


def check(player_file: "Session", *, keep: bool = True,
          is_sealed: bool | None = None) -> PinCheck:
    """Compare a player file with what its player's ShipSheet pinned, and (``keep``, and
    the file sealed by the moderator) pin what it shows for the first time. ``is_sealed``:
    whether the file's seal holds (``public.sealed``), when the caller knows already (None:
    found out here)."""
    from .public import known, sealed
    out = PinCheck()
    try:
        me = record.own_player(player_file)
        uid = record.moderator_uid(player_file)
    except Exception as exc:  # noqa: BLE001 - a damaged record is said, not raised
        out.problems.append(str(exc))
        return out
    pins = load(uid, me.name)
    out.pins = pins
    try:
        mine = load_key(uid, me.name)
    except SigningKeyError as exc:
        out.problems.append(str(exc))
        mine = None
    out.key = mine
    out.shown = shown = known(player_file)
    listed = shown.keys
    own_listed = listed.get(me.name) or list(me.keys)
    if mine is not None:
        pins.own = mine.fingerprint
        if mine.fingerprint not in pins.own_keys:
            pins.own_keys.append(mine.fingerprint)
        if own_listed and own_listed[-1].public != mine.public:
            out.problems.append(
                f"The moderator's file lists another key for you "
                f"({show_fingerprint(fingerprint(own_listed[-1].public))}) than yours "
                f"({show_fingerprint(mine.fingerprint)}). If you did not replace your key, "
                f"someone — the moderator, or whoever made this file — registered a key in "
                f"your name: orders signed with it are not yours.")
        elif not own_listed:
            out.notes.append(f"Your key ({show_fingerprint(mine.fingerprint)}) is not on the "
                             f"moderator's record yet: send the moderator your join file.")
    elif own_listed:
        out.notes.append("The moderator lists a key for you, but this ShipSheet holds none "
                         "(joined from another machine?): sign orders there, or replace the "
                         "key with shipsheet pbem join --new-key.")
    new_keys: dict[str, str] = {}
    for name, keys in sorted(listed.items()):
        if name == me.name or not keys:
            continue
        latest = fingerprint(keys[-1].public)
        before = pins.keys.get(name)
        history = {fingerprint(k.public) for k in keys[:-1]}
        if before is not None and before != latest:
            if before in history:
                out.notes.append(f"{name}'s key was replaced from turn {keys[-1].since}: now "
                                 f"{show_fingerprint(latest)}.")
            else:
                out.problems.append(f"{name}'s key is now {show_fingerprint(latest)}, but you "
                                    f"were shown {show_fingerprint(before)} before, with no "
                                    f"replacement on record.")
        if before is None or before in history:
            new_keys[name] = latest
    tables = ((pins.commitments, shown.commitments), (pins.seeds, shown.seeds),
              (pins.transcripts, shown.transcripts))
    for label, (table, there) in zip(("commitment", "seed", "transcript"), tables):
        for turn, value in sorted(there.items()):
            if turn in table and table[turn] != value:
                out.problems.append(f"Turn {turn}'s {label} is {value} in this file, but you "
                                    f"were shown {table[turn]} before: the moderator changed it.")
    for turn, seed in shown.seeds.items():
        expected = pins.commitments.get(turn) or shown.commitments.get(turn)
        if expected is not None and commitment(seed) != expected:
            out.problems.append(f"Turn {turn}'s seed does not match the commitment to it.")
    is_sealed = bool(sealed(player_file) if is_sealed is None else is_sealed)
    if keep and is_sealed and not out.problems:
        pins.keys.update(new_keys)
        for table, there in tables:
            for turn, value in there.items():
                table.setdefault(turn, value)
    if keep and (is_sealed or mine is not None):
        try:
            save(pins)
        except OSError as exc:
            out.notes.append(f"What this file shows could not be pinned: {exc}")
    return out


__all__ = ["FORMAT", "PinCheck", "Pins", "check", "from_json", "load", "pins_path", "save"]

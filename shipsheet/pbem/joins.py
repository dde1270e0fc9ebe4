"""Join files: a player tells the moderator the public key their orders will be signed with.

``shipsheet pbem join PLAYERFILE`` (or the window's first Export Orders) makes the player's
key on their machine (``pbem/keys.py``) and writes a join file, which the moderator
imports once, like an orders file::

    {"format": "shipsheet-join", "version": 1, "game": "fedcom", "session": "uid",
     "player": "Blue", "turn": 3, "public_key": "64 hex", "replaces": null | "64 hex",
     "signature": "128 hex", "mac": "64 hex"}

``signature`` is the new key's own (Ed25519 of ``b"shipsheet join v1\\n"`` + the canonical
JSON of the rest but ``mac``): it proves the player holds the private key. ``mac`` is
HMAC-SHA256 of the canonical JSON of everything but ``mac`` with the player's secret —
the one thing a player sends before they have a key, so the secret authenticates it.
``replaces``: the fingerprint of the key this one replaces (a lost or stolen key:
``--new-key``), which the moderator confirms. The key holds from the moderator's turn then
on; earlier turns' orders stay checked with the key of their turn.
"""

from __future__ import annotations

import hmac
import json
from pathlib import Path
from typing import Any

from shipsheet.model.dice import is_hex64
from shipsheet.model.errors import RuleViolation
from shipsheet.model.games import GAME_IDS
from shipsheet.model.keypath import Node
from shipsheet.model.session import Session, valid_uid
from shipsheet.model.storage import write_atomic

from . import record
from .keys import (JOIN, PlayerKey, fingerprint, is_signature, load_key, make_key,
                   signed_bytes, verify)
from .orders import compute_mac

FORMAT = "shipsheet-join"
VERSION = 1
SUFFIX = ".join.json"
MAX_BYTES = 16 * 1024


class JoinFileError(RuleViolation):
    """A file that is not a readable join file; the message says why."""


#: A join file's ``mac`` (module docstring): an orders file's version-1 MAC, the same sum.
mac_of = compute_mac


def make_join(player_file: Session, *, new_key: bool = False) -> tuple[dict, PlayerKey]:
    """The player's join file (and their key): the key in their state folder, made when
    they have none (or ``new_key``: a fresh one, replacing the old)."""
    from .public import known_keys
    me = record.own_player(player_file)
    uid = record.moderator_uid(player_file)
    old = load_key(uid, me.name)
    key = make_key(uid, me.name) if (old is None or new_key) else old
    listed = known_keys(player_file).get(me.name) or list(me.keys)
    replaces = None
    if listed and listed[-1].public != key.public:
        replaces = fingerprint(listed[-1].public)
    elif old is not None and old.public != key.public:
        replaces = old.fingerprint
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": player_file.game,
                            "session": uid, "player": me.name, "turn": player_file.turn,
                            "public_key": key.public, "replaces": replaces}
    data["signature"] = key.sign(signed_bytes(JOIN, data))
    data["mac"] = mac_of(me.secret, data)
    return data, key


def write_join(data: dict, path: str | Path) -> Path:
    write_atomic(path, json.dumps(data, indent=1).encode("utf-8"))
    return Path(path)


def is_join(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def parse_join(data: dict, label: str) -> dict:
    """The checked content of a join file's JSON object (JoinFileError saying why)."""
    root = Node(data, label, "", JoinFileError)
    version = root.get("version").int(lo=1)
    if version > VERSION:
        root.fail(f"made by a newer ShipSheet (join version {version}; this version reads up "
                  f"to {VERSION}). Update ShipSheet to read it.")
    root.only_keys("format", "version", "game", "session", "player", "turn", "public_key",
                   "replaces", "signature", "mac")
    root.get("game").str(choices=tuple(GAME_IDS))
    uid = root.get("session")
    if not (isinstance(uid.value, str) and valid_uid(uid.value)):
        uid.fail("not a session uid")
    player = root.get("player")
    try:
        if record.check_name(player.value) != player.value:
            raise RuleViolation("not written as ShipSheet writes a name")
    except RuleViolation as exc:
        player.fail(str(exc))
    root.get("turn").int(lo=1, hi=record.MAX_TURN)
    if not is_hex64(root.get("public_key").value):
        root.get("public_key").fail("a public key is 64 hex digits")
    replaces = root.get("replaces", None)
    if replaces.value is not None and not is_hex64(replaces.value):
        replaces.fail("a fingerprint is 64 hex digits (or null)")
    if not is_signature(root.get("signature").value):
        root.get("signature").fail("a signature is 128 hex digits")
    if not is_hex64(root.get("mac").value):
        root.get("mac").fail("64 hex digits expected")
    return data


def proves_possession(data: dict) -> bool:
    """Whether the join file's signature is its own key's (needs no secret)."""
    return verify(data["public_key"], signed_bytes(JOIN, data, "signature", "mac"),
                  data["signature"])


def authentic(data: dict, secret: str) -> bool:
    """Whether the join file's MAC holds with the player's secret (constant time)."""
    return hmac.compare_digest(mac_of(secret, data), data["mac"])


__all__ = ["FORMAT", "JoinFileError", "MAX_BYTES", "SUFFIX", "VERSION", "authentic",
           "is_join", "mac_of", "make_join", "parse_join", "proves_possession", "write_join"]

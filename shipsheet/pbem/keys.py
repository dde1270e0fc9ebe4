"""A player's own signing key: Ed25519, made on the player's machine, never sent.

Orders are signed with the player's key so that nobody else — the moderator included,
who holds the shared secret of every player file — can write them (SECURITY.md, "Play by
e-mail: the threat model"). The key also makes the player's **contribution** to each
turn's dice: the Ed25519 signature of the turn's published commitment. Ed25519 signatures
(RFC 8032) are deterministic, so a key has exactly one contribution per turn: there is
nothing to search, nothing to aim.

The cryptography is the ``cryptography`` package's (imported when first used, so start-up
does not pay for it); nothing here is written by hand but the byte strings signed.

What is signed (each prefixed with its own line, so a signature of one kind is never one
of another):

- a contribution: ``b"shipsheet dice contribution v2\\n"`` + canonical JSON of
  ``{"session": uid, "turn": t, "commitment": C_t}`` (:func:`contribution_message`);
- an orders file: ``b"shipsheet orders v2\\n"`` + canonical JSON of the file without its
  ``signature`` (:func:`signed_bytes`);
- a join file: ``b"shipsheet join v1\\n"`` + canonical JSON of the file without its
  ``signature`` and ``mac``.

The private key lives in the player's state folder (``pbem/keys/<hash>.json``, readable
by the player only), named by a hash of the session uid and the player's name: no name
from a file becomes a path. The moderator rewrites the player file every turn, so the key
is never kept in it.
"""

from __future__ import annotations

import hashlib
import json
from ..model.code_cache import dataclass
from pathlib import Path
from typing import Any, Mapping

from shipsheet.model.dice import canonical_json, is_hex64
from shipsheet.model.errors import RuleViolation
from shipsheet.model.files import problem, read_regular
from shipsheet.model.paths import user_state_dir

#: The prefixes of what is signed (module docstring).
CONTRIBUTION = b"shipsheet dice contribution v2\n"
ORDERS = b"shipsheet orders v2\n"
JOIN = b"shipsheet join v1\n"
#: A key file is a few hundred bytes.
_MAX_KEY_FILE = 8 * 1024
_HEX128 = frozenset("0123456789abcdef")


class SigningKeyError(RuleViolation):
    """A key, a signature or a key file refused, with the reason."""


# -- the primitives (``cryptography``) ------------------------------------------------------------

def _ed25519():
    from cryptography.hazmat.primitives.asymmetric import ed25519  # on first use
    return ed25519


def generate() -> tuple[str, str]:
    """A fresh key pair: (private key, public key), each 32 bytes as 64 hex digits."""
    from cryptography.hazmat.primitives import serialization
    private = _ed25519().Ed25519PrivateKey.generate()
    raw = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                serialization.NoEncryption())
    return raw.hex(), public_of(raw.hex())


def public_of(private_hex: str) -> str:
    """The public key (64 hex digits) of a private key."""
    from cryptography.hazmat.primitives import serialization
    key = _ed25519().Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
    return key.public_key().public_bytes(serialization.Encoding.Raw,
                                         serialization.PublicFormat.Raw).hex()


def sign(private_hex: str, message: bytes) -> str:
    """The Ed25519 signature (128 hex digits) of ``message``."""
    key = _ed25519().Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
    return key.sign(message).hex()


def is_signature(text: object) -> bool:
    """64 bytes as 128 lower-case hex digits."""
    return isinstance(text, str) and len(text) == 128 and _HEX128.issuperset(text)


def verify(public_hex: str, message: bytes, signature_hex: object) -> bool:
    """Whether ``signature_hex`` is ``public_hex``'s signature of ``message`` (False for
    anything malformed: never raises)."""
    if not (is_hex64(public_hex) and is_signature(signature_hex)):
        return False
    from cryptography.exceptions import InvalidSignature
    try:
        key = _ed25519().Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        key.verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def fingerprint(public_hex: str) -> str:
    """A public key's fingerprint: SHA-256 of its 32 bytes, 64 hex digits."""
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()


def show_fingerprint(fp: str) -> str:
    """A fingerprint as people compare it: its first 32 hex digits (128 bits) in groups of
    eight, ``1a2b3c4d 5e6f7a8b 9c0d1e2f 3a4b5c6d``."""
    return " ".join(fp[i:i + 8] for i in range(0, 32, 8))


def same_fingerprint(given: str, fp: str) -> bool:
    """Whether a fingerprint typed or pasted (the full 64 hex digits, or the 32 shown;
    spaces and case ignored) names the fingerprint ``fp``."""
    text = "".join(str(given).split()).lower()
    return len(text) in (32, 64) and _HEX128.issuperset(text) and fp.startswith(text)


# -- what is signed ---------------------------------------------------------------------------------

def contribution_message(session_uid: str, turn: int, commitment: str) -> bytes:
    """The bytes a player's contribution to turn ``turn``'s dice signs."""
    return CONTRIBUTION + canonical_json({"session": session_uid, "turn": turn,
                                          "commitment": commitment})


def signed_bytes(prefix: bytes, data: Mapping, *leave_out: str) -> bytes:
    """``prefix`` + canonical JSON of ``data`` without the keys ``leave_out``."""
    return prefix + canonical_json({k: v for k, v in data.items() if k not in leave_out})


# -- the player's key, in their state folder -----------------------------------------------------

@dataclass(frozen=True)
class PlayerKey:
    """A player's key pair for one session, as kept in their state folder."""

    session: str
    player: str
    private: str
    public: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def sign(self, message: bytes) -> str:
        return sign(self.private, message)

    def contribution(self, turn: int, commitment: str) -> str:
        """This key's contribution to turn ``turn``'s dice (deterministic)."""
        return self.sign(contribution_message(self.session, turn, commitment))


def _name_hash(kind: str, session_uid: str, player: str) -> str:
    text = f"shipsheet {kind}\n{session_uid}\n{player}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def key_path(session_uid: str, player: str) -> Path:
    """Where the player's key of this session is kept (named by a hash, never by a name)."""
    return user_state_dir() / "pbem" / "keys" / f"{_name_hash('key', session_uid, player)}.json"


def load_key(session_uid: str, player: str) -> PlayerKey | None:
    """The player's key of this session, or None when they have none here. A key file that
    is damaged or another's is refused (SigningKeyError), never used."""
    path = key_path(session_uid, player)
    try:
        raw = read_regular(path, _MAX_KEY_FILE)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SigningKeyError(f"Your signing key ({path}) cannot be read: {problem(exc)}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
        private, public = data["private"], data["public"]
        ok = (data.get("format") == "shipsheet-key" and data.get("session") == session_uid
              and data.get("player") == player and is_hex64(private) and is_hex64(public)
              and public_of(private) == public)
    except (ValueError, KeyError, TypeError, AttributeError):
        ok = False
    if not ok:
        raise SigningKeyError(f"Your signing key ({path}) is damaged: ShipSheet will not sign with "
                        f"it. Move it away and make a new key (shipsheet pbem join "
                        f"PLAYERFILE --new-key).")
    return PlayerKey(session_uid, player, private, public)


def make_key(session_uid: str, player: str) -> PlayerKey:
    """A new key pair for the player of this session, saved in their state folder
    (readable by them only), replacing any there. The caller says which."""
    from shipsheet.model.storage import write_atomic
    private, public = generate()
    data: dict[str, Any] = {"format": "shipsheet-key", "version": 1, "session": session_uid,
                            "player": player, "private": private, "public": public}
    path = key_path(session_uid, player)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, indent=1).encode("utf-8"), private=True)
    return PlayerKey(session_uid, player, private, public)


__all__ = ["CONTRIBUTION", "JOIN", "SigningKeyError", "ORDERS", "PlayerKey", "contribution_message",
           "fingerprint", "generate", "is_signature", "key_path", "load_key", "make_key",
           "public_of", "same_fingerprint", "show_fingerprint", "sign", "signed_bytes",
           "verify"]

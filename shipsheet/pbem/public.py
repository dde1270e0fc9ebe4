"""What a player file carries so its player can check the dice: the public block.

The moderator writes into each player file (``players.player_session``):

- ``keys``: every player's public keys (``{name: [{"public", "from"}, ...]}``), so the
  player can check every contribution and compare fingerprints;
- ``moderator_plays``: the player the moderator plays himself, if any;
- ``dice``: the dice record as this player may see it (:func:`dice_for`): every turn's
  commitment; the seed of every turn that may be revealed (closed ones: a turn still open
  gives its commitment only); and per ``turn-set-v2`` turn its stage, the set of
  contributions mixed in, who sent none, the number of its first roll and, once closed,
  its transcript's count and hash with this player's **view** of it (the rolls about or by
  their ships in full, the others as digests: ``pbem/transcript.py``);
- ``seal``: HMAC-SHA256 of all that with the player's secret (:func:`seal`). The secret is
  the moderator's and the player's only, so what is sealed came from the moderator: the
  player's ShipSheet pins only sealed values (``pbem/pins.py``).

No private key, no secret of another player, no seed of a turn not closed is ever in it.
"""

from __future__ import annotations

import hashlib
import hmac
from ..model.code_cache import dataclass
from typing import TYPE_CHECKING, Any, Callable

from shipsheet.model.dice import (TURN_SET, canonical_json, dice_record, is_hex64, is_turn_key,
                                  turn_scheme)
from shipsheet.model.ship import clone

from . import record

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session

    from .transcript import Reading

SEAL_PREFIX = b"shipsheet player file v2\n"
#: What the seal covers.
SEALED = ("session", "player", "turn", "keys", "moderator_plays", "dice")


def keys_table(session: "Session") -> dict[str, list[dict]]:
    """Every player's public keys, as the player files carry them."""
    return {p.name: [k.to_json() for k in p.keys] for p in record.players(session)}


def turn_table(table: Any, ok: Callable[[Any], bool] = is_hex64) -> dict[int, Any]:
    """A JSON table keyed by turn (``{"3": value}``) as turn -> value: the entries whose key
    is a turn (at most 7 digits) and whose value is ``ok`` (64 hex digits); {} for no table."""
    if not isinstance(table, dict):
        return {}
    return {int(t): v for t, v in table.items()
            if is_turn_key(t) and ok(v)}


def shown_seeds(found: dict, shown: set[int]) -> dict[str, Any]:
    """The seeds of a dice record's ``shown`` turns (the revealable ones), as it keys them."""
    seeds = found.get("seeds") if isinstance(found.get("seeds"), dict) else {}
    return {t: h for t, h in seeds.items()
            if is_turn_key(t) and int(t) in shown}


def _listed_v2(found: dict) -> list[int]:
    """The ``turn-set-v2`` turns of a dice record's ``turns`` table."""
    turns = found.get("turns") if isinstance(found.get("turns"), dict) else {}
    return sorted(int(t) for t in turns if is_turn_key(t)
                  and turn_scheme(found, int(t)) == TURN_SET)


def dice_readings(session: "Session") -> "dict[int, Reading] | None":
    """The transcripts that every player's :func:`dice_for` reads (the closed ``turn-set-v2``
    turns', from the log), read once for files made together (None: no verifiable dice)."""
    from .stages import revealable
    from .transcript import read_turns
    found = dice_record(session.pbem)
    if found is None:
        return None
    shown = set(revealable(session))
    return read_turns(session, [t for t in _listed_v2(found) if t in shown])


def dice_for(session: "Session", player: record.Player,
             readings: "dict[int, Reading] | None" = None) -> dict:
    """The moderator's dice record as ``player``'s file carries it (module docstring).
    ``readings``: :func:`dice_readings` of the session as it stands (None: read here)."""
    from .dice import public_record
    from .transcript import view_for
    from .stages import info, revealable
    found = dice_record(session.pbem)
    if found is None:
        return {}
    shown = set(revealable(session))
    public = public_record(found)
    public["seeds"] = shown_seeds(found, shown)
    if "v2_from" in found:
        public["v2_from"] = found["v2_from"]
    v2 = _listed_v2(found)
    if readings is None:
        readings = dice_readings(session)
    mine = {s.id for s in player.own_ships(session)} | set(player.ships)
    out: dict[str, dict] = {}
    for turn in v2:
        about = info(session, turn)
        entry: dict[str, Any] = {"stage": about.stage, "set": [list(c) for c in about.contributions],
                                 "missing": list(about.missing),
                                 "unsigned": list(about.unsigned),
                                 "excluded": list(about.excluded)}
        if about.first is not None:
            entry["first"] = about.first
        if turn in shown and about.transcript is not None:
            entry["transcript"] = {**clone(about.transcript),
                                   "view": view_for(readings[turn].entries, mine)}
        out[str(turn)] = entry
    public["turns"] = out
    return public


def block(player_file_pbem: dict, turn: int) -> dict:
    """The part of a player file's record the seal covers."""
    return {"session": player_file_pbem.get("session"), "player": player_file_pbem.get("player"),
            "turn": turn, **{k: player_file_pbem.get(k) for k in SEALED[3:]}}


def seal(pbem: dict, turn: int, secret: str) -> str:
    """The seal of a player file's public block (module docstring)."""
    return hmac.new(bytes.fromhex(secret), SEAL_PREFIX + canonical_json(block(pbem, turn)),
                    hashlib.sha256).hexdigest()


def sealed(player_file: "Session") -> bool | None:
    """True: the player file's public block is the moderator's (its seal holds with the
    player's secret); False: it was changed since; None: it has no seal (made by a
    ShipSheet from before seals)."""
    pbem = player_file.pbem
    given = pbem.get("seal") if isinstance(pbem, dict) else None
    if given is None:
        return None
    try:
        me = record.own_player(player_file)
    except Exception:  # noqa: BLE001 - a damaged record: nothing holds
        return False
    return is_hex64(given) and hmac.compare_digest(seal(pbem, player_file.turn, me.secret), given)


# -- what a player file knows ---------------------------------------------------------------------

def _dice(player_file: "Session") -> dict:
    found = player_file.pbem.get("dice") if isinstance(player_file.pbem, dict) else None
    return found if isinstance(found, dict) else {}


def known_commitment(player_file: "Session", turn: int) -> str | None:
    """The commitment to turn ``turn``'s seed as the player file has it (None: none)."""
    return known_commitments(player_file).get(turn)


def known_commitments(player_file: "Session") -> dict[int, str]:
    return turn_table(_dice(player_file).get("commitments"))


def known_seeds(player_file: "Session") -> dict[int, str]:
    return turn_table(_dice(player_file).get("seeds"))


def known_turns(player_file: "Session") -> dict[int, dict]:
    """turn -> the public record of a ``turn-set-v2`` turn (unchecked: verify checks it)."""
    return turn_table(_dice(player_file).get("turns"), lambda e: isinstance(e, dict))


def known_transcripts(player_file: "Session") -> dict[int, str]:
    """turn -> the hash of each closed turn's transcript the player file carries."""
    return _transcripts(known_turns(player_file))


def _transcripts(turns: dict[int, dict]) -> dict[int, str]:
    out = {}
    for turn, entry in turns.items():
        fixed = entry.get("transcript")
        if isinstance(fixed, dict) and is_hex64(fixed.get("hash")):
            out[turn] = fixed["hash"]
    return out


def known_keys(player_file: "Session") -> dict[str, list[record.PlayerKey]]:
    """name -> the public keys the player file lists for each player, oldest first."""
    table = player_file.pbem.get("keys") if isinstance(player_file.pbem, dict) else None
    out: dict[str, list[record.PlayerKey]] = {}
    if not isinstance(table, dict):
        return out
    for name, keys in table.items():
        if not (isinstance(name, str) and isinstance(keys, list)):
            continue
        listed = []
        for key in keys[:record.MAX_KEYS]:
            since = key.get("from") if isinstance(key, dict) else None
            if (isinstance(key, dict) and is_hex64(key.get("public"))
                    and isinstance(since, int) and not isinstance(since, bool)):
                listed.append(record.PlayerKey(key["public"], since))
        out[name] = listed
    return out


@dataclass(frozen=True)
class Known:
    """What a player file shows, each table read once (:func:`known`)."""

    keys: dict[str, list[record.PlayerKey]]
    commitments: dict[int, str]
    seeds: dict[int, str]
    turns: dict[int, dict]
    transcripts: dict[int, str]


def known(player_file: "Session") -> Known:
    """:func:`known_keys`, :func:`known_commitments`, :func:`known_seeds`,
    :func:`known_turns` and :func:`known_transcripts` of a player file, together."""
    turns = known_turns(player_file)
    return Known(known_keys(player_file), known_commitments(player_file),
                 known_seeds(player_file), turns, _transcripts(turns))


__all__ = ["Known", "SEALED", "block", "dice_for", "dice_readings", "keys_table", "known",
           "known_commitment", "known_commitments", "known_keys", "known_seeds",
           "known_transcripts", "known_turns", "seal", "sealed", "shown_seeds", "turn_table"]

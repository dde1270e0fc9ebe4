"""The desk's ledger (``Session.archive``): what arrived and what left, never undone.

Undo takes back a change of the game; it must not take back a fact. Every authentic file
the moderator received (orders, joins: its bytes, its player, turn and number, and what
became of it when it arrived), each closing of a turn's orders (the set of contributions
fixed then), each closing of a turn (its transcript) and each time a turn's seed left the
desk (a report, a player file, an audit bundle) is appended here, inside the action that
does it, and stays whatever is undone after. So a refusal or an undo cannot take a
player's contribution out of a turn's dice, and no orders are accepted for a turn whose
seed has been seen (SECURITY.md). The audit bundle is made from it (``pbem/audit.py``).

Entries are plain JSON objects with a ``"kind"``:

- ``{"kind": "file", "what": "orders" | "join", "player", "turn", "seq", "digest",
  "text", "status", "reason"[, "contribution"]}``: a file, as received (``text``: its
  UTF-8 text; ``contribution``: a signed orders file's contribution to its turn's dice);
  ``status`` what the import made of it then ("queued", "applied", "refused", "late",
  "held", "joined");
- ``{"kind": "close-orders", "turn", "set", "applied", "refused"}``;
- ``{"kind": "close-turn", "turn", "transcript": {"count", "hash"}}``;
- ``{"kind": "revealed", "turn", "by"}``: the turn's seed left the desk (``by``: how).

A session file may come from anyone, so everything read here is checked; entries that
do not read are skipped by the readers (an audit bundle lists a file entry that does not
read as damaged).
"""

from __future__ import annotations

from ..model.code_cache import dataclass
from typing import TYPE_CHECKING, Any, Iterator

from shipsheet.model.dice import is_hex64

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session

FILE, CLOSE_ORDERS, CLOSE_TURN, REVEALED = "file", "close-orders", "close-turn", "revealed"
ORDERS, JOIN = "orders", "join"
#: What one player's files for one turn may take in the ledger (the session file holds
#: them): past either, a file to queue or apply is refused (a player can crowd out only
#: themselves), and a refused one is kept by its digest alone.
MAX_FILES_PER_TURN = 20
MAX_BYTES_PER_TURN = 512 * 1024
#: Past this many bytes of kept text in all, refused files are kept by their digest alone.
MAX_TEXT_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class Received:
    """One file of the ledger."""

    index: int
    what: str
    player: str
    turn: int
    seq: int
    digest: str
    text: str
    status: str
    reason: str
    contribution: str = ""  # a signed orders file's contribution to its turn's dice


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _file(index: int, item: Any) -> Received | None:
    if not (isinstance(item, dict) and item.get("kind") == FILE):
        return None
    what, player, text = item.get("what"), item.get("player"), item.get("text")
    turn, seq, digest = _int(item.get("turn")), _int(item.get("seq")), item.get("digest")
    status, reason = item.get("status", ""), item.get("reason", "")
    contribution = item.get("contribution", "")
    if (what in (ORDERS, JOIN) and isinstance(player, str) and isinstance(text, str)
            and turn is not None and seq is not None and is_hex64(digest)
            and isinstance(status, str) and isinstance(reason, str)
            and isinstance(contribution, str) and len(contribution) in (0, 128)):
        return Received(index, what, player, turn, seq, digest, text, status, reason,
                        contribution)
    return None


def files(session: "Session", what: str | None = None, turn: int | None = None
          ) -> Iterator[Received]:
    """The files of the ledger, in the order they arrived (``what``: only orders or joins;
    ``turn``: only those for this turn)."""
    for index, item in enumerate(session.archive):
        found = _file(index, item)
        if found and (what is None or found.what == what) and (turn is None or found.turn == turn):
            yield found


def files_list(session: "Session") -> list[Received]:
    """Every file of the ledger, in order."""
    return list(files(session))


def find_digest(session: "Session", digest: str) -> Received | None:
    return next((f for f in files(session) if f.digest == digest), None)


def marks(session: "Session", kind: str, turn: int | None = None) -> Iterator[tuple[int, dict]]:
    """(index, entry) of each entry of ``kind`` (for ``turn``)."""
    for index, item in enumerate(session.archive):
        if isinstance(item, dict) and item.get("kind") == kind and (
                turn is None or _int(item.get("turn")) == turn):
            yield index, item


def revealed(session: "Session") -> set[int]:
    """The turns whose seed has left the desk."""
    return {t for _, item in marks(session, REVEALED)
            if (t := _int(item.get("turn"))) is not None}


# -- writing (inside an action) ---------------------------------------------------------------

def _text_bytes(session: "Session") -> int:
    return sum(len(f.text.encode("utf-8")) for f in files(session))


def room_for(session: "Session", player: str, turn: int, size: int) -> str | None:
    """Why a file of ``size`` bytes from ``player`` for ``turn`` cannot be queued or applied
    (the ledger would not keep all of it), or None."""
    mine = [f for f in files(session, ORDERS, turn) if f.player == player]
    if len(mine) >= MAX_FILES_PER_TURN:
        return (f"{player} has sent {MAX_FILES_PER_TURN} files for turn {turn} already: send "
                f"one file with all your orders (it replaces the others).")
    if sum(len(f.text.encode("utf-8")) for f in mine) + size > MAX_BYTES_PER_TURN:
        return (f"{player}'s files for turn {turn} come to more than "
                f"{MAX_BYTES_PER_TURN // 1024} KB: send one file with all your orders.")
    return None


def add_file(session: "Session", what: str, player: str, turn: int, seq: int, digest: str,
             raw: bytes, status: str, reason: str = "", contribution: str = "") -> bool:
    """Keep a received file (False, nothing kept: the same bytes are kept already). A file
    that is not to be applied (refused, late, held) is kept by its digest alone when its
    player's share of the ledger, or the ledger, is full (and then adds no contribution:
    one that cannot be shown is not counted); one to apply is checked first
    (:func:`room_for`)."""
    if find_digest(session, digest) is not None:
        return False
    text = raw.decode("utf-8")
    if status not in ("queued", "applied", "joined") and (
            room_for(session, player, turn, len(raw)) is not None
            or _text_bytes(session) + len(raw) > MAX_TEXT_BYTES):
        text, contribution = "", ""  # the digest, who and why stay; not the bytes
    entry = {"kind": FILE, "what": what, "player": player, "turn": turn, "seq": seq,
             "digest": digest, "text": text, "status": status, "reason": reason}
    if contribution:
        entry["contribution"] = contribution
    session.archive.append(entry)
    return True


def add_mark(session: "Session", kind: str, turn: int, **fields: Any) -> None:
    session.archive.append({"kind": kind, "turn": turn, **fields})


__all__ = ["CLOSE_ORDERS", "CLOSE_TURN", "FILE", "JOIN", "ORDERS", "REVEALED", "Received",
           "add_file", "add_mark", "files", "files_list", "find_digest", "marks", "revealed"]

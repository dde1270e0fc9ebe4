"""A turn's stages, moved on: Close Orders and Close Turn (SECURITY.md, "Play by e-mail: the
threat model"; where a turn stands is read in ``pbem/stages.py``).

- **Orders open.** Orders files arrive and are checked and queued, in any order
  (``pbem/inbox.py``). No die of the turn rolls.
- **Orders closed** (:func:`close_orders_action`: the Turn Desk's Close Orders, ``shipsheet
  pbem close-orders``). The set of the players' contributions to the turn's dice is fixed:
  one per player who sent at least one authentic file for the turn before now (refused
  ones too: the desk's ledger keeps every one, and an undo does not take one back), sorted
  by name; the moderator's own player, when he plays, adds nothing. Then each player's
  last queued file is applied, in the players' order — so the order in which files
  arrived, or were imported, changes nothing. A file the rules refuse now changes nothing
  and is noted with why. From here the turn's dice roll (``model.dice.turn_set_key``).
- **Resolved.** The moderator resolves the turn: volleys, attacks, whatever rolls.
- **Closed** (:func:`close_turn_action`: Close Turn, ``shipsheet pbem close-turn``). The
  turn's end-of-turn steps run and the next turn starts; the turn's transcript (every
  roll, ``pbem/transcript.py``) is fixed by its count and hash, and the turn's seed may
  now be revealed: reports of the turn come after. A turn with verifiable dice ends in
  no other way (``model.dice.check_turn_end``).

A session begun with ``turn-hmac-v1`` (before stages) plays the rest of its current turn
as it began (files applied as they are imported) and switches to ``turn-set-v2`` when
that turn closes: Close Orders then only stops further files for it.

Each step is one undo step, logged, and leaves its mark in the ledger (``pbem/ledger.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.actions import NextTurn, SessionAction
from shipsheet.model.dice import (CLOSED, CLOSING, OPEN, ORDERS_CLOSED, TURN_HMAC, TURN_SET,
                                  make_seeds, turn_scheme)
from shipsheet.model.errors import RuleViolation

from . import ledger, record
from .dice import AHEAD, missing_seeds
from .record import QUEUED, REFUSED, OrdersEntry
from .stages import WORDS, contributions, mix_words, record_of, stage

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import ActionContext, Change, Session

def _set_entry(found: dict, turn: int, **fields) -> dict:
    turns = found.setdefault("turns", {})
    if not isinstance(turns, dict):
        raise RuleViolation('The dice record\'s "turns" is damaged.')
    entry = turns.setdefault(str(turn), {})
    if not isinstance(entry, dict):
        raise RuleViolation(f"The dice record of turn {turn} is damaged.")
    entry.update(fields)
    return entry


def _ensure_ahead(session: "Session", found: dict, first: int) -> list[int]:
    """Seeds (with their commitments) for ``first`` and the :data:`AHEAD` turns after it,
    made where missing; the turns made. Made before any orders for them can exist."""
    missing = missing_seeds(found, first)
    make_seeds(session, missing, ahead=True)
    return missing


# -- closing the orders -----------------------------------------------------------------------

def close_orders_action(session: "Session") -> SessionAction:
    """Close the orders of the session's turn (one undo step): see the module docstring."""
    record_of(session)
    turn = session.turn
    if stage(session) != OPEN:
        raise RuleViolation(f"Turn {turn}'s orders are closed already ({WORDS[stage(session)]}).")
    return SessionAction(f"Close orders for turn {turn}", _close_orders)  # any ship


def _close_orders(s: "Session", ctx: "ActionContext") -> None:
    from .orders import ApplyOrders, OrdersFileError, parse_orders
    found, turn = record_of(s), s.turn
    if stage(s) != OPEN:
        raise RuleViolation(f"Turn {turn}'s orders are closed already.")
    if turn_scheme(found, turn) == TURN_HMAC:
        _set_entry(found, turn, stage=ORDERS_CLOSED)
        ledger.add_mark(s, ledger.CLOSE_ORDERS, turn, set=[], applied=[], refused=[])
        ctx.log(f"Turn {turn} rolls turn-hmac-v1 (begun before turns had stages): its orders "
                f"were applied as they came; no more are taken.")
        return
    mix = contributions(s, turn)
    chosen = mix.chosen
    _set_entry(found, turn, stage=ORDERS_CLOSED, set=chosen, missing=mix.missing,
               unsigned=mix.unsigned, excluded=mix.excluded, first=s.dice.count)
    ctx.log(f"Dice of turn {turn}: {mix_words(chosen, mix.unsigned, mix.missing, mix.excluded)}")
    applied, refused = [], []
    for player in record.players(s):
        entry = record.orders_entry(s, player.name, turn)
        if entry is None or entry.status != QUEUED:
            continue
        kept = ledger.find_digest(s, entry.digest)
        try:
            if kept is None:
                raise RuleViolation("the queued file is missing from the desk's ledger")
            data = parse_orders(kept.text.encode("utf-8"), f"{player.name}'s orders")
            with s.all_or_nothing():
                ApplyOrders(player, data, entry.digest).apply(s, ctx)
            applied.append([player.name, entry.seq, entry.digest])
        except (RuleViolation, OrdersFileError) as exc:
            reason = f"refused when the orders closed: {exc}"[:record.MAX_REASON]
            record.put_orders_entry(s, player.name, turn, OrdersEntry(
                entry.seq, REFUSED, entry.nonce, reason, entry.digest, entry.applied))
            ctx.log(f"{player.name}'s orders number {entry.seq}: {reason}")
            refused.append([player.name, entry.seq, entry.digest, reason])
    ledger.add_mark(s, ledger.CLOSE_ORDERS, turn, set=chosen, applied=applied, refused=refused)
    ctx.log(f"Orders for turn {turn} closed: {len(applied)} applied"
            + (f", {len(refused)} refused" if refused else "") + "; the turn's dice may roll.")


def close_orders(session: "Session") -> "Change":
    return session.apply(close_orders_action(session))


# -- closing the turn -------------------------------------------------------------------------

def close_turn_action(session: "Session") -> SessionAction:
    """End the session's turn (one undo step): see the module docstring."""
    found = record_of(session)
    turn = session.turn
    now = stage(session)
    if now == OPEN and turn_scheme(found, turn) == TURN_SET:
        raise RuleViolation(f"Turn {turn}'s orders are still open: close them first (Close "
                            f"Orders), so the turn's dice can roll and be revealed.")
    if now not in (OPEN, ORDERS_CLOSED):
        raise RuleViolation(f"Turn {turn} is {WORDS.get(now, now)}.")
    return SessionAction(f"Close turn {turn}", _close_turn)  # every ship (the turn's end)


def _close_turn(s: "Session", ctx: "ActionContext") -> None:
    from .transcript import fixed, read_turn
    found, turn = record_of(s), s.turn
    scheme = turn_scheme(found, turn)
    if stage(s) == OPEN:
        if scheme == TURN_SET:
            raise RuleViolation(f"Turn {turn}'s orders are still open.")
        ledger.add_mark(s, ledger.CLOSE_ORDERS, turn, set=[], applied=[], refused=[])
    _set_entry(found, turn, stage=CLOSING)
    NextTurn().apply(s, ctx)  # the turn's end-of-turn steps (they may roll), then the next
    if scheme == TURN_SET:
        reading = read_turn(s, turn)
        if reading.problems:
            entry, why = reading.problems[0]
            raise RuleViolation(f"A roll of turn {turn} cannot be put in its transcript "
                                f"({entry.text!r}: {why}).")
        done = fixed(turn, reading.entries)
        _set_entry(found, turn, stage=CLOSED, transcript=done)
        ledger.add_mark(s, ledger.CLOSE_TURN, turn, transcript=done)
        ctx.log(f"Turn {turn} closed: {done['count']} roll(s), transcript {done['hash']}; its "
                f"seed is revealed in the turn's reports.")
    else:
        _set_entry(found, turn, stage=CLOSED)
        ledger.add_mark(s, ledger.CLOSE_TURN, turn, transcript=None)
        found["v2_from"] = turn + 1
        found["scheme"] = TURN_SET
        ctx.log(f"Turn {turn} closed. From turn {turn + 1} the dice are {TURN_SET}: each roll "
                f"bound to its purpose, the players' contributions fixed when the orders "
                f"close, every turn's rolls fixed when it closes.")
    made = _ensure_ahead(s, found, s.turn)
    if made:
        ctx.log(f"Dice: seed(s) made for turn(s) {', '.join(map(str, made))} (their "
                f"commitments go out with the reports)")


def close_turn(session: "Session") -> "Change":
    return session.apply(close_turn_action(session))


__all__ = ["AHEAD", "close_orders", "close_orders_action", "close_turn", "close_turn_action"]

"""Shared pieces of the play-by-e-mail desk's tests: the three games' sessions with their
players, a scripted player's edits, and a fingerprint of everything a session saves."""

from __future__ import annotations

import json
from pathlib import Path

from shipsheet.model.actions import SetSide
from shipsheet.model.games import piece
from shipsheet.model.storage import load_session, save_session, session_to_data
from shipsheet.pbem import players as P


def decisions(session):
    return piece(session.game, "decisions")


def form_of(session, ship, kind):
    return next(f for f in decisions(session).forms(session, ship) if f["kind"] == kind)


def values_of(session, ship, kind, **changes):
    """The form as offered (its current values), with some fields changed."""
    values = {f["name"]: f["value"] for f in form_of(session, ship, kind)["fields"]}
    values.update(changes)
    return values


def give(session, ship, kind, **changes):
    """A scripted player fills a form and applies it, as the game's decisions piece says."""
    ship = session.ship(ship) if isinstance(ship, str) else ship
    return session.apply(decisions(session).action(session, ship, kind,
                                                   values_of(session, ship, kind, **changes)))


def fingerprint(session) -> str:
    """Everything the session saves, plus its undo and redo tops."""
    return json.dumps([session_to_data(session), session.undo_status().undo, session.undo_status().redo],
                      sort_keys=True, default=str)


def game_state(session) -> str:
    """The game itself: the ships' states, the turn, phase and dice position."""
    return json.dumps([[s.id, s.side, s.state] for s in session.ships]
                      + [session.turn, session.phase, session.dice.count], sort_keys=True)


# -- the three games, each with its players ------------------------------------------------

def fedcom_session():
    """The Federation Commander sample (turn 2, Combat) with three players: Bastion moves
    to a third side, Green."""
    s = piece("fedcom", "sample")()
    s.apply(SetSide(s.ship("Bastion"), "Green"))
    s.apply(P.set_players_action(s, [P.player_from_items(s, n, [n]) for n in ("Blue", "Red", "Green")]))
    return s


def war_in_space_session():
    """The War In Space sample moved on to turn 3, Energy Allocation; Concord and
    Hegemony."""
    s = piece("war-in-space", "sample")()
    s.next_turn()
    s.apply(P.set_players_action(s, [P.player_from_items(s, n, [n]) for n in ("Concord", "Hegemony")]))
    return s


def triplanetary_session():
    """The Triplanetary sample (turn 2, Movement, advanced combat): the Mars Patrol and
    the Pirates."""
    s = piece("triplanetary", "sample")()
    s.apply(P.set_players_action(s, [P.player_from_items(s, n, [n]) for n in ("Mars Patrol", "Pirates")]))
    return s


def fedcom_edits(ps, player):
    """Each player's standing orders, given through the orders form; Blue also sets a turn
    state with ``decide`` (a form without a value of its own)."""
    if player == "Blue":
        give(ps, "Resolute", "orders", first="ph-1, ph-2")
        P.decide(ps, "Resolute", "turn_state", {"box": "ph-4", "state": "fired"})
    elif player == "Red":
        give(ps, "Hornet", "orders", first="drone-2", frame_skip=True)
    elif player == "Green":
        give(ps, "Bastion", "orders", last="ph-1")


def war_in_space_edits(ps, player):
    """Energy Allocation as orders: the card, Damage Control, a Joker's assignment; the
    dice are left to the moderator."""
    if player == "Concord":
        P.decide(ps, "Vigilant", "energy", {"card": "QH", "damage_control": True})
        P.decide(ps, "Resolute", "energy", {"card": "JOKER", "joker1": "attack",
                                            "joker2": "attack", "joker3": "defense"})
    else:
        P.decide(ps, "Lancer", "energy", {"card": "9D"})


def triplanetary_edits(ps, player):
    """The recovery choice as orders."""
    if player == "Mars Patrol":
        give(ps, "Vigilant", "recovery", track="weapon", then="drive")
    else:
        give(ps, "Raven", "recovery", track="structure")


GAMES = {
    "fedcom": (fedcom_session, fedcom_edits),
    "war-in-space": (war_in_space_session, war_in_space_edits),
    "triplanetary": (triplanetary_session, triplanetary_edits),
}


def player_files(session, folder: Path) -> dict[str, Path]:
    """Every player's file written to ``folder``: player name -> path (the file's name is
    made from the player's: ``Mars_Patrol.shipsheet``)."""
    from shipsheet.pbem import record
    return {record.own_player(load_session(p)).name: p
            for p in P.export_player_files(session, folder)}


def play(path: Path, edit, player):
    """A player opens their file, decides, and saves it."""
    ps = load_session(path)
    edit(ps, player)
    save_session(ps, path)
    return ps


# -- verifiable dice, joined players (the turn's stages) ----------------------------------------

def join(player_file: Path, *, new_key: bool = False) -> Path:
    """A player makes their key (in this test's state folder) and writes their join file."""
    from shipsheet.pbem.joins import SUFFIX, make_join, write_join
    data, _ = make_join(load_session(player_file), new_key=new_key)
    return write_join(data, player_file.with_name(player_file.stem + SUFFIX))


def send_orders(player_file: Path, edit, player, out: Path) -> Path:
    """A player decides (``edit``), exports this turn's orders to ``out`` and saves."""
    from shipsheet.pbem.orders import export_orders
    ps = load_session(player_file)
    if edit is not None:
        edit(ps, player)
    export_orders(ps, ps.turn, out)
    save_session(ps, player_file)
    return out


def verifiable_game(game: str, folder: Path, joined: tuple[str, ...] | None = None):
    """The game's session with its players and verifiable dice (turn-set-v2), the player
    files written in ``folder``, and the players in ``joined`` (default: all) joined.
    Returns (session, {player: player file})."""
    from shipsheet.pbem.dice import start_verifiable
    from shipsheet.pbem.inbox import import_files
    build, _ = GAMES[game]
    s = build()
    start_verifiable(s)
    files = player_files(s, folder)
    names = list(files) if joined is None else list(joined)
    if names:
        results = import_files(s, [join(files[n]) for n in names])
        assert all(r.accepted for r in results), [r.line() for r in results]
    return s, files


def the_turns_rolls(session):
    """The session's rolls of turn-set-v2: (number, sides, value) of the live ones."""
    return [tuple(e.roll[1:4]) for e in session.log
            if e.kind == "roll" and not e.undone and e.roll and e.roll[0] == 3]


def resolve(session):
    """The turn's attacks, with the session's verifiable dice (orders closed first)."""
    from shipsheet.model.actions import NextPhase
    if session.game == "fedcom":
        from shipsheet.rules.fedcom.actions import volley_action
        session.apply(volley_action(session.ship("Resolute"), 18, shield=1,
                                    attacker=session.ship("Hornet")))
        session.apply(volley_action(session.ship("Hornet"), 12, shield=1,
                                    attacker=session.ship("Resolute")))
        session.apply(volley_action(session.ship("Bastion"), 9, shield=2,
                                    attacker=session.ship("Lance")))
    elif session.game == "triplanetary":
        from shipsheet.rules import triplanetary as tp
        while session.phase != "Combat":
            session.apply(NextPhase())
        session.apply(tp.attack(session.ship("Kite"), session.ship("Ajax")))
    # War In Space: the energy orders rolled their dice when the orders closed.

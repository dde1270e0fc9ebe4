"""Players and their files: who commands what, and the session file each player receives.

The moderator names the players (:func:`set_players_action`, one undo step): each has a
name, the sides and ships they command, and a secret (32 random bytes) that authenticates
what the moderator sends them, their join file and, until they join with a key of their
own (``pbem/joins.py``), their orders. :func:`player_session` builds a player's file from
the moderator's session: the player's own ships as they are, the other players' ships
shown as others see them (``model.privacy.public_state``: without what the game keeps to
their owners) or left out, the session's turn,
phase and options, the log lines about the player's own ships, and a ``pbem`` record with
role "player", the player's own entry (secret included), the moderator's session uid, the
baseline (each own ship's state as exported: what the player changes from it is what
their orders say) and the public block a player checks the dice with (``pbem/public.py``:
every player's public keys, the commitments, the seeds of closed turns only — the file's
own dice get a fresh seed — and the player's view of each closed turn's transcript),
sealed with the player's secret.

In a player file only the player's decisions apply. The model cannot ask this layer, so
**the window must ask** :func:`may_apply` before it applies an action in a session, and make
a player's decisions with :func:`decide` (the game's decision forms, as Table Link's phones
do). Whatever else a player does to their file (marks damage, ends the turn) never reaches
the moderator anyway: orders are made of decision forms only (``pbem.orders``).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from shipsheet.model.actions import Action, SessionAction
from shipsheet.model.decisions import form_values
from shipsheet.model.dice import Dice, dice_record
from shipsheet.model.errors import RuleViolation
from shipsheet.model.files import safe_file_name
from shipsheet.model.games import piece
from shipsheet.model.privacy import public_state
from shipsheet.model.session import Session
from shipsheet.model.ship import Ship, clone, new_id
from shipsheet.model.storage import save_session
from shipsheet.model.trial import refusal, trial_ship

from . import record
from .dice import public_record
from .public import dice_for, dice_readings, keys_table, seal
from .record import MAX_PLAYERS, MODERATOR, PLAYER, Player, RecordError, check_name

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Apply
    from shipsheet.model.session import ActionContext

    from .transcript import Reading

#: A form's field that is a die the player would read off a physical die (War In Space's
#: ``die1``...): in play by e-mail the dice are the moderator's to roll (the PBEM desk's
#: requirement, rules/RULES.md "Play by e-mail"), so such fields are left empty in orders,
#: and a form with one is not applied in a player file.
DICE_FIELD = re.compile(r"die\d+")
#: Longest session name a file may hold (``storage.session_from_data``).
_MAX_SESSION_NAME = 200


# -- forms ----------------------------------------------------------------------------------

def dice_fields(spec: Mapping) -> list[str]:
    """The names of the fields of a form that are dice."""
    return [f["name"] for f in spec["fields"] if f["type"] == "int" and DICE_FIELD.fullmatch(f["name"])]


def form_current(spec: Mapping) -> dict[str, Any]:
    """A form's values as offered (its fields' current values), dice fields emptied."""
    dice = set(dice_fields(spec))
    return {f["name"]: (None if f["name"] in dice else f.get("value")) for f in spec["fields"]}


def checked_values(spec: Mapping, values: Any) -> dict[str, Any] | None:
    """``values`` checked against the form (``form_values``), dice fields emptied; None when
    the form refuses them."""
    try:
        checked = form_values(spec, values)
    except RuleViolation:
        return None
    for name in dice_fields(spec):
        checked[name] = None
    return checked


def find_form(session: Session, ship: Ship, kind: str) -> dict | None:
    return next((f for f in piece(session.game, "decisions").forms(session, ship)
                 if f["kind"] == kind), None)


# -- players ----------------------------------------------------------------------------------

def _as_player(item: Any) -> Player:
    if isinstance(item, Player):
        return item
    if isinstance(item, Mapping):
        def texts(key: str) -> tuple[str, ...]:
            value = item.get(key, ())
            if isinstance(value, str) or not all(isinstance(v, str) for v in value):
                raise RuleViolation(f"A player's {key} are a list of names.")
            return tuple(value)
        return Player(str(item.get("name", "")), texts("sides"), texts("ships"))
    raise RuleViolation("A player is a name with sides and ships.")


def player_from_items(session: Session, name: str, items: Iterable[str]) -> Player:
    """A player from what a referee types: ``items`` are sides of the session, or ships (by
    id or name; RuleViolation naming one that is neither)."""
    sides: list[str] = []
    ships: list[str] = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        if item in session.sides:
            sides.append(item)
            continue
        try:
            ships.append(session.ship(item).id)
        except RuleViolation:
            raise RuleViolation(f'{name}: "{item}" is neither a side nor a ship of this '
                                f'session (sides: {", ".join(session.sides) or "none"}).') from None
    return Player(name, tuple(sides), tuple(ships))


def set_players_action(session: Session, players: Iterable[Player | Mapping],
                       show_others: bool = False, moderator_plays: str | None = None) -> Action:
    """Make the session a moderator's, with these players (one undo step, logged). A player
    already known by name keeps their secret and the keys they joined with, so files
    already sent stay good; a new one gets a fresh secret. ``moderator_plays``: the
    player the moderator plays himself (his contribution to the dice is not mixed in: he
    knows the seed). Refused (nothing changed): no player, a name twice or unusable, a
    player with no ships, a side no ship has, an unknown ship, a ship two players own, a
    moderator's player who is not one of them."""
    wanted = [_as_player(p) for p in players]
    show = bool(show_others)

    def fn(s: Session, ctx: "ActionContext") -> None:
        if record.is_player_file(s):
            raise RuleViolation("This is a player file: its moderator names the players.")
        if not wanted:
            raise RuleViolation("Name at least one player.")
        if len(wanted) > MAX_PLAYERS:
            raise RuleViolation(f"A session has at most {MAX_PLAYERS} players.")
        try:
            old = {p.name.casefold(): p for p in record.players(s)}
        except RecordError:
            old = {}  # a damaged record is replaced
        made: list[Player] = []
        for p in wanted:
            name = check_name(p.name)
            if any(m.name.casefold() == name.casefold() for m in made):
                raise RuleViolation(f'There are two players called "{name}".')
            for side in p.sides:
                if side not in s.sides:
                    raise RuleViolation(f'{name}: no ship is on the side "{side}".')
            ships = []
            for ship_id in p.ships:
                if not any(x.id == ship_id for x in s.ships):
                    raise RuleViolation(f'{name}: there is no ship "{ship_id}" in this session.')
                if ship_id not in ships:
                    ships.append(ship_id)
            known = old.get(name.casefold())
            player = Player(name, tuple(dict.fromkeys(p.sides)), tuple(ships),
                            known.secret if known else secrets.token_hex(32),
                            known.keys if known else ())
            if not player.own_ships(s):
                raise RuleViolation(f"{name} commands no ship: give them a side or ships.")
            made.append(player)
        for ship in s.ships:
            owners = [p.name for p in made if p.owns(ship)]
            if len(owners) > 1:
                raise RuleViolation(f"{ship.name} would be commanded by {' and '.join(owners)}: "
                                    f"a ship has one player.")
        mine = None
        if moderator_plays:
            mine = next((m.name for m in made
                         if m.name.casefold() == str(moderator_plays).strip().casefold()), None)
            if mine is None:
                raise RuleViolation(f'The moderator\'s own player "{moderator_plays}" is not '
                                    f'one of the players.')
        s.pbem["role"] = MODERATOR
        s.pbem["session"] = s.uid
        s.pbem["players"] = [p.to_json() for p in made]
        s.pbem["show_others"] = show
        if mine:
            s.pbem["moderator_plays"] = mine
        else:
            s.pbem.pop("moderator_plays", None)
        for p in made:
            ctx.log(f"{p.name}: {', '.join(x.name for x in p.own_ships(s))}"
                    + (" (the moderator's own player)" if p.name == mine else ""))
        ctx.log("Player files show the other players' ships (without their orders)" if show
                else "Player files show each player's own ships only")

    return SessionAction("Set play-by-e-mail players", fn, ships=())


# -- a player's file ----------------------------------------------------------------------------

def player_session(session: Session, player: Player | str,
                   readings: "dict[int, Reading] | None" = None) -> Session:
    """The session file for ``player`` (see the module docstring). The moderator's session
    is not changed. The other players' ships, when shown, carry no orders: in FedCom's
    play by e-mail (8FC) orders are sent to the moderator alone (rules/RULES.md, "Play by
    e-mail"). ``readings``: the closed turns' transcripts, read once for files made
    together (``public.dice_readings``; None: read here)."""
    if not record.is_moderator(session):
        raise RuleViolation("Set up the players first (File ▸ PBEM ▸ Players…): this session "
                            "is not played by e-mail yet.")
    name = player.name if isinstance(player, Player) else player
    me = record.find_player(session, name)
    if me is None:
        raise RuleViolation(f'There is no player called "{name}" in this session.')
    show = record.show_others(session)

    suffix = f" — {me.name}"
    ps = Session(session.game, name=session.title[:_MAX_SESSION_NAME - len(suffix)] + suffix)
    ps.uid = new_id(16)
    ps.dice = Dice()  # a fresh seed: never the moderator's
    ps.turn = session.turn
    ps.phase = session.phase
    ps.options = clone(session.options)
    turn_start: dict[str, dict] = {}
    own: list[Ship] = []
    for ship in session.ships:
        if me.owns(ship):
            copy = trial_ship(ship)
            turn_start[ship.id] = clone(session.turn_start_state(ship))
            own.append(copy)
        elif show:  # as someone who is not its owner sees it (model/privacy.py)
            copy = trial_ship(ship, public_state(session, ship))
            start = trial_ship(ship, session.turn_start_state(ship))
            turn_start[ship.id] = public_state(session, start)
        else:
            continue
        ps.ships.append(copy)
    ps.turn_start = turn_start
    mine = {s.id for s in own}
    ps.log = [replace(e, roll=clone(e.roll)) for e in session.log
              if e.ship in mine and not e.undone]
    ps._seq = max((e.action for e in ps.log), default=0)
    seen = record.orders_entry(session, me.name, session.turn)
    ps.pbem = {
        "role": PLAYER,
        "session": session.uid,
        "player": me.name,
        "players": [me.to_json()],
        # A file made again for the same turn goes on numbering after what arrived.
        "sent": {str(session.turn): seen.seq} if seen is not None else {},
        "baseline": {s.id: clone(s.state) for s in own},
        "keys": keys_table(session),
    }
    mine = record.moderator_plays(session)
    if mine:
        ps.pbem["moderator_plays"] = mine
    if "dice" in session.pbem:  # commitments; seeds of closed turns only (pbem/public.py)
        ps.pbem["dice"] = dice_for(session, me, readings) \
            if dice_record(session.pbem) is not None else public_record(session.pbem["dice"])
    ps.pbem["seal"] = seal(ps.pbem, ps.turn, me.secret)
    return ps


def player_file_name(player: Player | str) -> str:
    """``<name>.shipsheet``: a player's file, named as the player's turn reports and orders
    files are (``model.files.safe_file_name``: a file that travels by e-mail, on every
    system: ``Blue``, ``_CON`` for ``CON``, ``Zoe`` for ``Zoë``)."""
    return f"{safe_file_name(player.name if isinstance(player, Player) else player)}.shipsheet"


def save_player_file(player_file: Session, path: str | Path) -> None:
    """Save a player file readable by its owner only (it holds the player's secret), from
    the first byte written."""
    save_session(player_file, path, private=True)


def export_player_files(session: Session, folder: str | Path, *,
                        apply: "Apply | None" = None) -> list[Path]:
    """Write each player's file (``<name>.shipsheet``, readable by its owner only: it holds
    the player's secret, :func:`save_player_file`) into ``folder`` (made if missing); the
    paths written. The seeds of closed turns go out in them: the ledger marks them
    revealed first (a change of the session, to save after)."""
    everyone = record.players(session) if record.is_moderator(session) else []
    if not everyone:
        raise RuleViolation("Set up the players first (File ▸ PBEM ▸ Players…): this session "
                            "has no play-by-e-mail players.")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    from .stages import mark_revealed
    mark_revealed(session, "player files", apply)  # they carry the closed turns' seeds
    readings = dice_readings(session)
    files = [(folder / player_file_name(p), player_session(session, p, readings))
             for p in everyone]
    for path, ps in files:
        save_player_file(ps, path)
    return [path for path, _ in files]


# -- decisions in a player file -----------------------------------------------------------------

class Decision(Action):
    """A player's decision in their player file: the game's decision form, filled, as the
    game's own action, recorded for the orders (``pbem["decided"]``) in the same undo step.

    A form with dice fields (War In Space's Energy Allocation) is not applied in the player
    file: its outcome needs the moderator's dice. It is tried on a copy (refused as the
    moderator would refuse it) and recorded, replacing an earlier one for the same ship."""

    def __init__(self, session: Session, ship: Ship, kind: str, values: Any):
        decisions = piece(session.game, "decisions")
        spec = find_form(session, ship, kind)
        inner = decisions.action(session, ship, kind, values)  # refuses what the form does not offer
        checked = form_values(spec, values)
        dice = dice_fields(spec)
        self.held = bool(dice)
        if self.held:
            checked.update(dict.fromkeys(dice))
            inner = decisions.action(session, ship, kind, checked)
        self.inner = inner
        self.order = {"ship": ship.id, "form": kind, "values": checked}
        self.ship_id = ship.id
        self.private = inner.private
        self.name = inner.name + (" (for the moderator to apply)" if self.held else "")

    def touches(self, session: Session):
        return () if self.held else self.inner.touches(session)

    def apply(self, session: Session, ctx: "ActionContext") -> None:
        me = record.own_player(session)
        ship = session.ship(self.ship_id)
        if not me.owns(ship):
            raise RuleViolation(f"{ship.name} is not {me.name}'s ship.")
        with ctx.within(self.inner):
            if self.held:
                why = refusal(session, self.inner)
                if why is not None:
                    raise RuleViolation(why)
                ctx.log("Sent with the orders; the moderator rolls the dice and applies it.")
            else:
                self.inner.apply(session, ctx)
        record.add_decided(session, session.turn, clone(self.order), replace=self.held)


def decide(session: Session, ship: Ship | str, kind: str, values: Any):
    """Make a player's decision in their player file (one undo step); the Change."""
    me = record.own_player(session)
    ship = ship if isinstance(ship, Ship) else session.ship(ship)
    if not me.owns(ship):
        raise RuleViolation(f"{ship.name} is not {me.name}'s ship: its player decides for it.")
    return session.apply(Decision(session, ship, kind, values))


class OrdersSent(Action):
    """A player file records the number of the orders it sent for a turn (the next are
    numbered past it): the one change a player file makes that is not a decision
    (``players.may_apply`` lets it through)."""

    def __init__(self, turn: int, seq: int):
        self.turn, self.seq = turn, seq
        self.name = f"Orders for turn {turn} exported as number {seq}"

    def touches(self, session: Session):
        return ()

    def apply(self, session: Session, ctx: "ActionContext") -> None:
        record.put_sent(session, self.turn, self.seq)


def may_apply(session: Session, action: Action) -> str | None:
    """Why ``action`` may not be applied to ``session``, or None. In a player file only the
    player's own decisions (:class:`Decision`, made with :func:`decide`) apply; elsewhere
    everything does. The window calls this before ``Session.apply``."""
    try:
        if not record.is_player_file(session):
            return None
        me = record.own_player(session)
    except RuleViolation as exc:
        return str(exc)
    if isinstance(action, OrdersSent):
        return None  # the player's own record of the orders they sent
    if isinstance(action, Decision):
        ship = next((s for s in session.ships if s.id == action.ship_id), None)
        if ship is not None and me.owns(ship):
            return None
        return f"That ship is not {me.name}'s: its own player decides for it."
    return (f"This is {me.name}'s player file: only {me.name}'s decisions are made here "
            f"(orders and the choices of the decision forms); damage, the turn and the rest "
            f"are the moderator's.")


def role_of(session: "Session | None") -> str | None:
    """"moderator", "player", None (not played by e-mail, or no session), or "damaged" (a
    play-by-e-mail record that does not read)."""
    if session is None or not session.pbem:
        return None
    try:
        return record.role(session)
    except RuleViolation:
        return "damaged"


def guard_for(session: Session, hint: str = "") -> Callable[[Action], str | None] | None:
    """In a player file, what refuses every change but the player's own decisions
    (:func:`may_apply`), adding ``hint`` (where the decisions are made) to a refusal of
    anything else; None elsewhere (a moderator's session, one not played by e-mail)."""
    if role_of(session) != PLAYER:
        return None

    def guard(action: Action) -> str | None:
        why = may_apply(session, action)
        if why and hint and not isinstance(action, Decision):
            why += " " + hint
        return why
    return guard


__all__ = ["DICE_FIELD", "Decision", "OrdersSent", "checked_values", "decide", "dice_fields",
           "export_player_files", "find_form", "form_current", "guard_for", "may_apply",
           "player_file_name", "player_from_items", "player_session", "save_player_file",
           "role_of", "set_players_action"]

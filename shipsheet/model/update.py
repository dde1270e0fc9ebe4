"""Moving ships in a session to an edited version of their class, carrying their damage over.

A ship keeps its own copy of its class, so editing a class never changes a ship in play.
Moving ships to the new version is an explicit action (:func:`update_ships_action`, one
undo step) that carries each ship's state over where the two versions still match, and
says what could not be matched. How a state carries over is the game's own: the
``carry_over`` piece of its entry in ``model.games.GAMES`` (``rules/<game>/carry_over.py``).

Every new state is checked with the game's own session-file validation before anything
changes, so the session always saves and reopens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from .actions import Action
from .errors import RuleViolation, SessionFileError
from .games import get_game, piece
from .keypath import Node
from .ship import Ship, ShipClass, clone

if TYPE_CHECKING:  # pragma: no cover
    from .session import ActionContext, Session


class ShipUpdate:
    """What updating one ship does: its new state, what was kept, what could not be matched."""

    __slots__ = ("ship_id", "ship_name", "state", "kept", "unmatched")

    def __init__(self, ship_id: str, ship_name: str, state: dict):
        self.ship_id = ship_id
        self.ship_name = ship_name
        self.state = state
        self.kept: list[str] = []
        self.unmatched: list[str] = []

    def lines(self, named: bool = True) -> list[str]:
        """The report in words; ``named`` starts each line with the ship's name."""
        who = f"{self.ship_name}: " if named else ""
        out = [f"{who}kept {'; '.join(self.kept)}" if self.kept
               else f"{who}no damage to carry over"]
        out += [f"{who}not matched: {line}" for line in self.unmatched]
        return out


def carry_over(ship: Ship, new_class: ShipClass) -> ShipUpdate:
    """The state ``ship`` would have as a ``new_class``, and the report; changes nothing."""
    if ship.game != new_class.game:
        raise RuleViolation(f"{ship.name} is a {ship.game} ship; {new_class.name} is a "
                            f"{new_class.game} class.")
    rules = get_game(new_class.game)
    update = ShipUpdate(ship.id, ship.name, rules.initial_state(new_class))
    piece(new_class.game, "carry_over")(ship.ship_class, clone(ship.state), new_class, update)
    try:
        update.state = rules.check_state(
            new_class, Node(clone(update.state), update.ship_name, "", SessionFileError))
    except SessionFileError as exc:
        raise RuleViolation(f"{update.ship_name} cannot be updated to {new_class.name}: {exc}") from None
    return update


def valid_state(new_class: ShipClass, state: dict, name: str) -> bool:
    """Whether the game's session-file validation accepts ``state`` for ``new_class``."""
    try:
        get_game(new_class.game).check_state(new_class, Node(clone(state), name, "", SessionFileError))
    except SessionFileError:
        return False
    return True


def some(ids: list[str], most: int = 8) -> str:
    """``a, b, c`` or ``a, b, … and 12 more``."""
    if len(ids) <= most:
        return ", ".join(ids)
    return ", ".join(ids[:most]) + f" and {len(ids) - most} more"


def count_words(count: int, word: str, plural: str | None = None) -> str:
    """``1 box``, ``3 boxes``, ``2 marked boxes``."""
    return f"{count} {word if count == 1 else (plural or word + ('es' if word.endswith('x') else 's'))}"


def ships_of_class(session: "Session", class_ids: Iterable[str]) -> list[Ship]:
    """The ships in ``session`` whose class id is one of ``class_ids``."""
    wanted = set(class_ids)
    return [s for s in session.ships if s.ship_class.id in wanted]


class UpdateShipsAction(Action):
    """"Update 3 ships to Vigilant-class Cruiser": one undo step for all of them.

    The ships are replaced by new Ship objects (same id, name and side) holding
    the new class and the carried-over state, so undo (which restores the
    session's list of ship objects and their states) brings the old class back
    too. After applying, :attr:`reports` holds one :class:`ShipUpdate` per ship.
    """

    def __init__(self, ship_ids: Iterable[str], new_class: ShipClass):
        self.ship_ids = tuple(dict.fromkeys(ship_ids))
        self.new_class = new_class
        count = len(self.ship_ids)
        self.name = f"Update {count} ship{'s' if count != 1 else ''} to {new_class.name}"
        self.reports: list[ShipUpdate] = []

    def touches(self, session: "Session") -> Iterable[str]:
        return self.ship_ids

    def apply(self, session: "Session", ctx: "ActionContext") -> None:
        if not self.ship_ids:
            raise RuleViolation("No ships to update.")
        if self.new_class.game != session.game:
            raise RuleViolation(f"{self.new_class.name} is a {self.new_class.game} class; this "
                                f"session plays {session.game}.")
        ships = [session.ship(i) for i in self.ship_ids]
        reports = [carry_over(ship, self.new_class) for ship in ships]  # all checked first
        for ship, report in zip(ships, reports):
            index = session.ships.index(ship)
            session.ships[index] = Ship(ship.name, self.new_class, report.state, ship.side, ship.id)
            for line in report.lines(named=False):  # the log names the ship itself
                ctx.log(line, ship=ship.id)
        self.reports = reports


def update_ships_action(ship_ids: Iterable[str], new_class: ShipClass) -> UpdateShipsAction:
    """The action that moves the given ships to ``new_class``, keeping what damage matches."""
    return UpdateShipsAction(ship_ids, new_class)


__all__ = ["ShipUpdate", "UpdateShipsAction", "carry_over", "count_words", "ships_of_class",
           "some", "update_ships_action", "valid_state"]

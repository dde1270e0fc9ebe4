"""A tiny game registered for tests of the model core (sessions, undo, dice).

It is not one of the three games: it has one counter per ship, so the tests
of the action path do not depend on any game's rules.
"""

from shipsheet.model import RuleViolation, Session, Ship, ShipClass
from shipsheet.model.games import GameRules, register_game


class CounterGame(GameRules):
    id = "counter-test"
    title = "Counter (test game)"
    phases = ("First", "Second", "Third")

    def initial_state(self, ship_class):
        return {"marks": 0, "ended": 0}

    def status_chips(self, ship):
        return ["Marked"] if ship.state["marks"] else []

    def end_turn(self, session, ctx):
        for ship in session.ships:
            ship.state["ended"] += 1


GAME = CounterGame()
register_game(GAME)
CLASS = ShipClass("counter-test/box", "counter-test", "Box", {"game": "counter-test", "class": "Box"}, None)


def make_ship(name="Alpha"):
    return Ship(name, CLASS, GAME.initial_state(CLASS))


def make_session(*names, seed=7):
    session = Session("counter-test", seed=seed)
    for name in names or ("Alpha",):
        session.add_ship(make_ship(name))
    return session


def mark(ship, ctx, limit=3):
    """Mark one box; refused past ``limit`` (after a partial change, to test rollback)."""
    ship.state["marks"] += 1
    if ship.state["marks"] > limit:
        raise RuleViolation(f"{ship.name} has only {limit} boxes.")
    return f"marks now {ship.state['marks']}"

"""A tiny game for tests of the model core (sessions, undo, dice), registered as a game by
``tests/model/conftest.py`` for each test of this folder.

It is not one of the three games: it has one counter per ship, so the tests of the
action path do not depend on any game's rules. It has the model's pieces only (no sheet,
no panel: the model core asks for none).
"""

from shipsheet.model import RuleViolation, Session, Ship, ShipClass
from shipsheet.model.games import GameRules

#: Its model pieces: its own rules; the rest the fourth test game's (the model core never
#: asks for them).
ENTRY = {
    "rules": ":GAME", "house_rules": "fourth_game:HOUSE_RULES", "source": "fourth_game:SOURCE",
    "blank_definition": "fourth_game.rules:blank_definition",
    "carry_over": "fourth_game.rules:carry_over", "sample": "fourth_game.rules:build_sample_session",
    "decisions": "fourth_game.rules:DECISIONS", "privacy": "fourth_game.rules:PRIVACY",
    "boxes": "fourth_game.boxes:BOXES", "summary": "fourth_game.rules:damage_summary",
    "ignored_orders": "shipsheet.model.games:nothing_ignored",
}


class CounterGame(GameRules):
    id = "counter-test"
    phases = ("First", "Second", "Third")

    def initial_state(self, ship_class):
        return {"marks": 0, "ended": 0}

    def status_chips(self, ship):
        return ["Marked"] if ship.state["marks"] else []

    def end_turn(self, session, ctx):
        for ship in session.ships:
            ship.state["ended"] += 1


GAME = CounterGame()
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

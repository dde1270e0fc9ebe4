"""Skirmish's rules: two tracks, hull and engine; a ship with its hull all hit is wrecked."""

from __future__ import annotations

from shipsheet.model import RuleViolation, Session, ShipAction, get_class, new_ship
from shipsheet.model.games import GameRules
from shipsheet.model.keypath import Node
from shipsheet.model.library import parse_ship_class

TRACKS = ("hull", "engine")


class SkirmishClass:
    """A parsed definition: how many boxes each track has."""

    def __init__(self, hull: int, engine: int):
        self.hull = hull
        self.engine = engine

    def boxes(self, track: str) -> int:
        return getattr(self, track)


class SkirmishRules(GameRules):
    id = "skirmish"
    phases = ("Fight", "Mend")
    class_keys = TRACKS

    def parse_class(self, node: Node) -> SkirmishClass:
        super().parse_class(node)
        return SkirmishClass(node.get("hull").int(lo=1, hi=20), node.get("engine").int(lo=1, hi=20))

    def initial_state(self, ship_class) -> dict:
        return {track: 0 for track in TRACKS}

    def check_state(self, ship_class, node: Node) -> dict:
        node.table()
        node.only_keys(*TRACKS)
        return {t: node.get(t, 0).int(lo=0, hi=ship_class.spec.boxes(t)) for t in TRACKS}

    def status_chips(self, ship) -> list[str]:
        return ["Wrecked"] if wrecked(ship) else []


GAME = SkirmishRules()


def wrecked(ship) -> bool:  # [SK-H1]
    """The one rule: a hull all hit wrecks the ship."""
    return ship.state["hull"] >= ship.ship_class.spec.hull


def mark(ship, track: str) -> None:
    """One more hit on ``track``; refused on a wrecked ship or a full track."""
    if track not in TRACKS:
        raise RuleViolation(f'There is no "{track}" track.')
    if wrecked(ship):
        raise RuleViolation(f"{ship.name} is wrecked: nothing more can be marked.")
    if ship.state[track] >= ship.ship_class.spec.boxes(track):
        raise RuleViolation(f"{ship.name}'s {track} is all hit already.")
    ship.state[track] += 1


def mark_action(ship, track: str) -> ShipAction:
    return ShipAction(f"Mark {track}", ship, lambda s, ctx: mark(s, track))


def blank_definition() -> dict:
    return {"game": "skirmish", "class": "New skiff", "hull": 3, "engine": 2}


def damage_summary(ship) -> list[str]:
    """A turn report's lines on the ship's damage (its ``summary`` piece)."""
    return [f"Hull {ship.state['hull']} hit, engine {ship.state['engine']} hit"]


def carry_over(old_class, old: dict, new_class, up) -> None:
    """Hits kept up to the new track lengths."""
    for track in TRACKS:
        hits = old.get(track, 0)
        up.state[track] = min(hits, new_class.spec.boxes(track))
        if hits:
            up.kept.append(f"{track} {up.state[track]} hit")
        if hits > new_class.spec.boxes(track):
            up.unmatched.append(f"{track}: {hits} hits, the new class has {new_class.spec.boxes(track)} boxes")


def skiff_class(name: str = "Skiff", hull: int = 3, engine: int = 2):
    return parse_ship_class({"game": "skirmish", "class": name, "hull": hull, "engine": engine},
                            "skiff.toml", "skirmish/skiff")


def build_sample_session() -> Session:
    session = Session("skirmish", name="Skirmish sample", seed=4)
    cls = skiff_class()
    a = session.add_ship(new_ship(cls, "Dart"))
    session.add_ship(new_ship(cls, "Wasp"))
    session.apply(mark_action(a, "engine"))
    return session


__all__ = ["GAME", "TRACKS", "blank_definition", "build_sample_session", "carry_over", "get_class",
           "mark", "mark_action", "skiff_class", "wrecked"]


from shipsheet.model.decisions import GameDecisions  # noqa: E402
from shipsheet.model.privacy import GamePrivacy  # noqa: E402

#: Skirmish has no player decisions: every box is damage, the referee's to mark.
DECISIONS = GameDecisions()

#: Skirmish keeps nothing private: every box is damage, seen by all.
PRIVACY = GamePrivacy()

"""Real sessions of the three games, built through the public API, for storage tests."""

from shipsheet.model import Session, get_class, new_ship


def three_ship_session(game="triplanetary", name="Test night"):
    session = Session(game, name=name, seed=1234)
    for i, cls in enumerate(c for c in __import__("shipsheet.model.library", fromlist=["x"]).list_classes(game)[:3]):
        session.add_ship(new_ship(cls, f"Ship {i + 1}"), side="Red" if i % 2 else "Blue")
    return session


def frigate_session(turn_marks=0):
    session = Session("triplanetary", name="Frigates", seed=77)
    session.add_ship(new_ship(get_class("triplanetary/frigate"), "Nike"), side="Inner")
    session.add_ship(new_ship(get_class("triplanetary/corsair"), "Raven"), side="Pirates")
    return session

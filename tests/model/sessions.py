"""Real sessions of the three games, built through the public API, for storage tests."""

import os
import time

from shipsheet.model import Session, get_class, new_ship, save_session


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


def autosaved_past_its_file(store, session, file, turn=3):
    """``session`` saved to ``file`` 100 s ago, then changed (its turn made ``turn``) and
    autosaved in ``store`` by a window that ended without saving: an autosave newer than
    the file. Returns the autosave's handle."""
    save_session(session, file)
    old = time.time() - 100
    os.utime(file, (old, old))
    session.turn = turn
    handle = store.handle()
    handle.write(session, file)
    handle.abandon()
    return handle

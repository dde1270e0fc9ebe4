"""Helpers of the Triplanetary rules tests: ships added to a session through actions."""

from shipsheet.model import get_class, new_ship
from shipsheet.rules import triplanetary as tp


def add(session, stem="frigate", name="Ajax", side="Mars", **damage):
    """A ship of type ``stem`` added to ``session``, its ``damage`` marked by hand (one action)."""
    ship = session.add_ship(new_ship(get_class(f"triplanetary/{stem}"), name), side)
    if damage:
        session.apply(tp.damage_action(ship, **damage))
    return ship

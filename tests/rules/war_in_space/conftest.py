"""Fixtures for the War In Space rules tests: sample ships and sessions."""

import pytest

from shipsheet.model import Session, get_class, new_ship


@pytest.fixture
def cruiser():
    """The sample cruiser: Reactor d10 (4 boxes), Drive d8 (3), Fire Control d8 (3);
    suits ♠ attack/movement, ♥ defense/attack, ♦ attack/defense, ♣ movement/defense."""
    return new_ship(get_class("war-in-space/cruiser"), "Vigilant")


@pytest.fixture
def session():
    return Session("war-in-space", name="test", seed=1234)


@pytest.fixture
def cruiser_in(session):
    """The cruiser, added to the session (which starts at Energy Allocation, turn 1)."""
    return session.add_ship(new_ship(get_class("war-in-space/cruiser"), "Vigilant"), "Blue")

"""The model core's tests play the counter test game (fake_game.py): in the games table
while each test of this folder runs, out of it afterwards."""

import pytest

from shipsheet.model.games import add_game, remove_game


@pytest.fixture(autouse=True)
def counter_game():
    import fake_game
    add_game(fake_game.ENTRY)
    yield
    remove_game(fake_game.ENTRY.id)

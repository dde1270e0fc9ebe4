"""The model core's tests play the counter test game (fake_game.py): registered as a game
while each test of this folder runs, taken out afterwards."""

import pytest

from shipsheet.model.games import register_game, unregister_game


@pytest.fixture(autouse=True)
def counter_game():
    register_game("counter-test", "Counter (test game)", "fake_game")
    yield
    unregister_game("counter-test")

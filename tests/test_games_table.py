"""Every registered game has every piece of every layer, of the right kind; a game one layer
knows and another does not is an error said at start, naming the line to write.

A game missing a piece is a failure here, not a placeholder sheet, an empty panel, a turn
report without its summary or a ship whose damage is dropped when its class is updated."""

from __future__ import annotations

import inspect

import pytest

from shipsheet.model import GAME_IDS, GAME_TITLES, GameRules
from shipsheet.model.games import (MODEL, MODEL_PIECES, GameError, check_games, get_game, layers,
                                   piece, register_game, unregister_game)
from shipsheet.model.house import HouseRule


def _all_layers():
    """Every layer's registry (importing a layer registers its games)."""
    import shipsheet.sheets  # noqa: F401
    import shipsheet.ui  # noqa: F401
    return {layer.name: layer for layer in layers()}


def test_the_three_games_are_registered_in_every_layer():
    found = _all_layers()
    assert set(found) == {"model", "sheets", "ui"}
    assert tuple(GAME_IDS) == ("war-in-space", "triplanetary", "fedcom")
    for layer in found.values():
        assert layer.games() == tuple(GAME_IDS), layer.name
    check_games()


@pytest.mark.parametrize("game", list(GAME_IDS))
def test_every_game_has_every_piece(game, qapp):
    from PySide6.QtWidgets import QWidget

    from shipsheet.sheets import SheetPainter
    from shipsheet.ui.designer.editor_base import GameEditor
    from shipsheet.ui.games import Tool
    for layer in _all_layers().values():
        for name in layer.pieces:
            piece(game, name)  # loads
    rules = piece(game, "rules")
    assert isinstance(rules, GameRules) and rules.id == game and rules.title == GAME_TITLES[game]
    assert all(isinstance(r, HouseRule) and r.id and r.topic and r.text
               for r in piece(game, "house_rules"))
    assert isinstance(piece(game, "source"), str) and piece(game, "source")
    blank = piece(game, "blank_definition")()
    assert blank["game"] == game
    assert len(inspect.signature(piece(game, "carry_over")).parameters) == 4
    session = piece(game, "sample")()
    assert session.game == game and session.ships
    assert issubclass(piece(game, "sheet"), SheetPainter)
    # Every box the sample's sheets lay out is one the game's boxes piece answers for.
    from shipsheet.model.boxes import GameBoxes, box_answer
    from shipsheet.sheets import painter_for
    assert isinstance(piece(game, "boxes"), GameBoxes)
    for ship in session.ships:
        keys = [box.key for box in painter_for(ship, session).layout()]
        assert keys and len(set(keys)) == len(keys), f"{ship.name}: no boxes, or a key twice"
        unanswered = [k for k in keys if box_answer(session, ship, k) is None]
        assert unanswered == [], f"{ship.name}: no answer for {unanswered}"
        summary = piece(game, "summary")(ship)
        assert summary and all(isinstance(line, str) and line for line in summary)
        assert piece(game, "ignored_orders")(session, ship) == []  # the sample's orders all apply
    assert issubclass(piece(game, "panel"), QWidget)
    assert issubclass(piece(game, "editor"), GameEditor)
    assert all(isinstance(tool, Tool) for tool in piece(game, "tools"))


def test_ids_and_titles_are_the_registrations():
    assert dict(GAME_TITLES) == {"war-in-space": "War In Space", "triplanetary": "Triplanetary",
                                 "fedcom": "Federation Commander"}
    assert get_game("fedcom").title == "Federation Commander"
    assert MODEL.pieces == MODEL_PIECES


def test_an_unknown_game_or_piece_is_an_error_naming_what_is_known():
    _all_layers()
    with pytest.raises(KeyError, match='unknown game "chess".*fedcom'):
        piece("chess", "sheet")
    with pytest.raises(KeyError, match='no game piece "board"'):
        piece("fedcom", "board")


def test_a_game_a_layer_does_not_know_is_an_error_at_start_naming_the_line_to_write():
    """A fifth game registered in the rules but not in the window: ``check_games`` (which
    the app runs as it starts) says so, naming the layer and the file its line goes in;
    nothing falls back to another game's panel or to none."""
    found = _all_layers()
    register_game("half-done", "Half Done", "fourth_game")
    found["sheets"].register("half-done", "fourth_game.sheet")
    try:
        with pytest.raises(GameError, match=r"half-done: not registered in the ui layer "
                                            r"\(a line in shipsheet/ui/games/__init__.py\)"):
            check_games()
        check_games("model", "sheets")  # those two know it
        with pytest.raises(GameError, match="half-done: not registered in the ui layer"):
            piece("half-done", "panel")
    finally:
        unregister_game("half-done")
    check_games()


def test_an_entry_missing_a_piece_names_it():
    found = _all_layers()
    register_game("half-done", "Half Done", "fourth_game.rules")  # no ENTRY: conventions only
    try:
        with pytest.raises(GameError, match=r"half-done: fourth_game.rules.ENTRY lacks summary, "
                                            r"ignored_orders"):
            piece("half-done", "rules")
        found["ui"].register("half-done", "fourth_game.ui_wrong")
        with pytest.raises(GameError, match=r"half-done: its ui entry \(fourth_game.ui_wrong\) "
                                            r"cannot be loaded"):
            piece("half-done", "panel")
        found["ui"].register("half-done", "fourth_game.boxes")  # a module with no ENTRY
        with pytest.raises(GameError, match="fourth_game.boxes.ENTRY lacks editor"):
            piece("half-done", "panel")
    finally:
        unregister_game("half-done")

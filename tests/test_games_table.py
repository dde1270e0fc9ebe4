"""One place per game: every entry of the games table has every piece, of the right kind.

A game missing a piece is a failure here, not a placeholder sheet, an empty panel or a
ship whose damage is dropped when its class is updated."""

from __future__ import annotations

import inspect

import pytest

from shipsheet.model import GAME_IDS, GAME_TITLES, GameRules
from shipsheet.model.house import HouseRule
from shipsheet.model.games import GAMES, PIECES, game_entry, get_game, piece


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_has_every_piece(game, qapp):
    from PySide6.QtWidgets import QWidget

    from shipsheet.sheets import SheetPainter
    from shipsheet.ui.designer.editor_base import GameEditor
    entry = game_entry(game)
    for name in PIECES:
        assert getattr(entry, name).count(":") == 1, f"{game}.{name}: not 'module:attribute'"
        piece(game, name)  # loads
    rules = piece(game, "rules")
    assert isinstance(rules, GameRules) and rules.id == game and rules.title == entry.title
    assert all(isinstance(r, HouseRule) and r.id and r.topic and r.text
               for r in piece(game, "house_rules"))
    assert isinstance(piece(game, "source"), str) and piece(game, "source")
    blank = piece(game, "blank_definition")()
    assert blank["game"] == game
    assert len(inspect.signature(piece(game, "carry_over")).parameters) == 4
    session = piece(game, "sample")()
    assert session.game == game and session.ships
    assert issubclass(piece(game, "sheet"), SheetPainter)
    assert issubclass(piece(game, "panel"), QWidget)
    assert issubclass(piece(game, "editor"), GameEditor)


def test_ids_and_titles_are_the_tables():
    assert tuple(GAME_IDS) == tuple(GAMES) == ("war-in-space", "triplanetary", "fedcom")
    assert dict(GAME_TITLES) == {g: e.title for g, e in GAMES.items()}
    assert get_game("fedcom").title == "Federation Commander"


def test_an_unknown_game_or_piece_is_an_error_naming_what_is_known():
    with pytest.raises(KeyError, match='unknown game "chess".*fedcom'):
        piece("chess", "sheet")
    with pytest.raises(KeyError, match='no game piece "board"'):
        piece("fedcom", "board")

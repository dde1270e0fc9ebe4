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
    # Every box the sample's sheets lay out is one the game's boxes piece answers for.
    from shipsheet.model.boxes import GameBoxes, box_answer
    from shipsheet.sheets import painter_for
    assert isinstance(piece(game, "boxes"), GameBoxes)
    for ship in session.ships:
        keys = [box.key for box in painter_for(ship, session).layout()]
        assert keys and len(set(keys)) == len(keys), f"{ship.name}: no boxes, or a key twice"
        unanswered = [k for k in keys if box_answer(session, ship, k) is None]
        assert unanswered == [], f"{ship.name}: no answer for {unanswered}"
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

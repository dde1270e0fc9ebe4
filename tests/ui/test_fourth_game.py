"""A fourth game, plugged in by its files and one registration line per layer.

Skirmish (``tests/fourth_game``) is made up for this test: two damage tracks and one rule.
Registered as ``REGISTER`` does (HACKING.md, "A game, end to end"), nothing else in
ShipSheet changes, and it has everything the three real games have: a session that saves
and loads, its sheet in the window with clicks that follow its rule, its panel, its
designer editor, its house rules in the help, its carry-over when ships move to a new
version of their class, its sample and its turn report.
"""

from __future__ import annotations

import pytest

from shipsheet.model import GAME_IDS, RuleViolation, load_session, save_session
from shipsheet.model.games import check_games, piece, register_game, unregister_game
from shipsheet.sheets import SHEETS
from shipsheet.ui.games import UI
from shipsheet.model.update import update_ships_action

from fourth_game.rules import mark_action, skiff_class


@pytest.fixture
def skirmish():
    """Skirmish in the games table for one test; the windows that test opened (a window,
    a designer) go with it, so no later test meets a sheet of a game that is gone."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication
    before = set(map(id, QApplication.topLevelWidgets())) if QApplication.instance() else set()
    REGISTER()
    yield "skirmish"
    if QApplication.instance() is not None:
        for widget in QApplication.topLevelWidgets():
            if id(widget) not in before:
                widget.close()
                widget.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    unregister_game("skirmish")


def REGISTER() -> None:
    """Skirmish's registration: one line per layer, as HACKING.md shows."""
    register_game("skirmish", "Skirmish", "fourth_game")  # the rules' (the model's registry)
    SHEETS.register("skirmish", "fourth_game.sheet")  # the sheets'
    UI.register("skirmish", "fourth_game.ui")  # the window's


def test_one_line_per_layer_makes_it_a_game(skirmish):
    assert "skirmish" in GAME_IDS
    check_games()
    from test_games_table import test_every_game_has_every_piece
    from PySide6.QtWidgets import QApplication
    QApplication.instance() or QApplication([])
    test_every_game_has_every_piece("skirmish", None)


def test_its_session_saves_and_loads_with_its_rule(skirmish, tmp_path):
    session = piece("skirmish", "sample")()
    dart = session.ship("Dart")
    for _ in range(3):
        session.apply(mark_action(dart, "hull"))
    assert session.rules.status_chips(dart) == ["Wrecked"]
    with pytest.raises(RuleViolation, match="Dart is wrecked"):
        session.apply(mark_action(dart, "engine"))
    path = tmp_path / "skirmish.shipsheet"
    save_session(session, path)
    again = load_session(path)
    assert again.ship("Dart").state == {"hull": 3, "engine": 1}


def test_its_carry_over_keeps_the_hits_that_fit(skirmish):
    session = piece("skirmish", "sample")()
    dart = session.ship("Dart")
    session.apply(mark_action(dart, "hull"))
    smaller = skiff_class("Skiff Mk II", hull=5, engine=1)
    action = update_ships_action([dart.id], smaller)
    session.apply(action)
    assert session.ship("Dart").state == {"hull": 1, "engine": 1}
    assert action.reports[0].lines()[0] == "Dart: kept hull 1 hit; engine 1 hit"


def test_it_plays_in_the_window(skirmish, app, qtbot, dialogs):
    window = app.new_window()
    qtbot.addWidget(window)
    session = piece("skirmish", "sample")()
    window.open_session(session)
    window.doc.select(session.ship("Wasp").id)
    canvas = window.sheet_view.canvas
    assert type(canvas.painter).__name__ == "SkirmishSheet"
    area = next(a for a in canvas.painter.areas if a.key == "hull:0")
    assert window.doc.do(area.click())
    assert session.ship("Wasp").state["hull"] == 1
    assert window.panel.mark("hull") and window.panel.mark("hull")
    assert window.panel.status.text() == "Wasp: wrecked"
    assert not window.panel.mark("engine")  # the rule refuses: one undo step less
    assert window.roster.item_for(session.ship("Wasp").id).data(2, 257) == ["Wrecked"]
    window.doc.mark_clean()


def test_its_editor_and_help(skirmish, qapp):
    from shipsheet.ui.designer import open_designer
    from shipsheet.ui.rules_help import house_rules, rules_html
    designer = open_designer(game="skirmish")
    assert type(designer.editor).__name__ == "SkirmishEditor"
    assert designer.editor.values() == {"hull": 3, "engine": 2}
    designer.close()
    assert house_rules("skirmish")[0].topic == "Wrecked"
    assert "SK-H1 · Wrecked" in rules_html("skirmish")
    assert "made up for ShipSheet" in rules_html("skirmish")


def test_its_turn_report_has_its_summary(skirmish):
    from shipsheet.pbem.reports import ship_summary
    session = piece("skirmish", "sample")()
    dart = session.ship("Dart")
    session.apply(mark_action(dart, "hull"))
    assert ship_summary(session, dart) == ["Hull 1 hit, engine 1 hit"]  # the sample hit its engine

"""Skirmish: a fourth game made up for the tests, plugged in as a new game would be.

Two damage tracks, hull and engine, and one rule: a ship whose hull is all hit is
wrecked, and nothing more can be marked on it. Its pieces are the ones every game has
(``shipsheet.model.games.GameEntry``): rules (``rules.py``), house rules and source (here),
a blank definition and a carry-over (``rules.py``), a sample (``rules.py``), a sheet
(``sheet.py``) and what its boxes do (``boxes.py``), a panel (``panel.py``) and a
designer editor (``editor.py``). ENTRY is its line of the games table;
``tests/test_fourth_game.py`` adds it and plays it.
"""

from shipsheet.model.games import GameEntry
from shipsheet.model.house import HouseRule, check_house_rules

SOURCE = "Skirmish, a game made up for ShipSheet's tests: two damage tracks and one rule."
HOUSE_RULES = check_house_rules("SK", [
    HouseRule("SK-H1", "Wrecked",
              "A ship whose hull is all hit is wrecked: nothing more is marked on it."),
])

ENTRY = GameEntry(
    "skirmish", "Skirmish",
    rules="fourth_game.rules:GAME",
    house_rules="fourth_game:HOUSE_RULES",
    source="fourth_game:SOURCE",
    blank_definition="fourth_game.rules:blank_definition",
    carry_over="fourth_game.rules:carry_over",
    sample="fourth_game.rules:build_sample_session",
    sheet="fourth_game.sheet:SHEET",
    panel="fourth_game.panel:Panel",
    editor="fourth_game.editor:SkirmishEditor",
    decisions="fourth_game.rules:DECISIONS",
    privacy="fourth_game.rules:PRIVACY", boxes="fourth_game.boxes:BOXES")

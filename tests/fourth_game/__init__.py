"""Skirmish: a fourth game made up for the tests, added exactly as HACKING.md ("A game,
end to end") says a new game is.

Two damage tracks, hull and engine, and one rule: a ship whose hull is all hit is
wrecked, and nothing more can be marked on it. Its files, by layer:

- the rules (this package and ``rules.py``, ``boxes.py``): ``ENTRY`` below names its
  model pieces — rules, house rules and source (here), blank class, carry-over, sample,
  decisions, privacy, boxes, report summary and order checks;
- the sheet: ``sheet.py`` (its ``SHEET``, where the sheets layer looks);
- the window: ``ui.py`` (its ``ENTRY`` names ``editor.py``'s designer editor; ``panel.py``'s
  ``Panel`` and ``TOOLS``, none, are where the window's layer looks).

And one registration line per layer (``tests/ui/test_fourth_game.py``, ``REGISTER``):
``register_game("skirmish", "Skirmish", "fourth_game")``,
``SHEETS.register("skirmish", "fourth_game.sheet")``,
``UI.register("skirmish", "fourth_game.ui")``.
"""

from shipsheet.model.house import HouseRule, check_house_rules

SOURCE = "Skirmish, a game made up for ShipSheet's tests: two damage tracks and one rule."
HOUSE_RULES = check_house_rules("SK", [
    HouseRule("SK-H1", "Wrecked",
              "A ship whose hull is all hit is wrecked: nothing more is marked on it."),
])

#: Where the model finds this game's pieces: its rules are in ``rules.py``, not where a
#: rules package keeps them (``model.games.MODEL_CONVENTIONS``), so every piece is named.
ENTRY = {
    "rules": ".rules:GAME",
    "house_rules": ":HOUSE_RULES",
    "source": ":SOURCE",
    "blank_definition": ".rules:blank_definition",
    "carry_over": ".rules:carry_over",
    "sample": ".rules:build_sample_session",
    "decisions": ".rules:DECISIONS",
    "privacy": ".rules:PRIVACY",
    "boxes": ".boxes:BOXES",
    "summary": ".rules:damage_summary",
    "ignored_orders": "shipsheet.model.games:nothing_ignored",
}

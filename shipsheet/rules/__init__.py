"""Game rules, one package per game. Pure Python: never imports Qt.

Each package defines ``GAME`` (a :class:`shipsheet.model.GameRules`), found by
:func:`shipsheet.model.get_game` from the game id.

Working on a game module? Read HACKING.md at the repository root first
(model API, conventions, which files are yours, never commit).
"""

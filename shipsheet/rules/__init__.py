"""Game rules, one package per game. Pure Python: never imports Qt.

Each game registers here, in the model's registry (``shipsheet.model.games.MODEL``): its
id, its title and its package, whose ``ENTRY`` says where each of its model pieces is
(the rules, a ``GameRules`` as ``GAME``; house rules, samples, decisions …). Registering
imports nothing of the game: its package loads when a piece is first asked for. This
package is imported by ``shipsheet/__init__.py``, so every script that uses ShipSheet
finds the games.

Working on a game module? Read HACKING.md at the repository root first.
"""

from ..model.games import register_game

register_game("war-in-space", "War In Space", "shipsheet.rules.war_in_space")
register_game("triplanetary", "Triplanetary", "shipsheet.rules.triplanetary")
register_game("fedcom", "Federation Commander", "shipsheet.rules.fedcom")

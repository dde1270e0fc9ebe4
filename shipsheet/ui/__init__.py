"""The Qt layer: windows, views and dialogs. Holds no rule: it calls the model.

Importing it registers each game's pieces of the window (``ui/games/``: nothing of a game
loads until its panel, editor or tools are asked for)."""

from . import games  # noqa: F401  (the games' panels, editors and tools, registered)

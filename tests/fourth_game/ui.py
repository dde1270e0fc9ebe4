"""Skirmish in the window: its pieces of the window's layer (registered with
``UI.register("skirmish", "fourth_game.ui")``)."""

#: No window of its own for the Tools menus.
TOOLS: tuple = ()

#: Its designer editor (its panel is ``panel.py``'s ``Panel``: the layer's convention).
ENTRY = {"editor": ".editor:SkirmishEditor"}

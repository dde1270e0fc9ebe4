"""Skirmish in the window: its pieces of the window's layer (registered with
``UI.register("skirmish", "fourth_game.ui")``)."""

#: No window of its own for the Tools menus.
TOOLS: tuple = ()

ENTRY = {"panel": ".panel:Panel", "editor": ".editor:SkirmishEditor", "tools": ":TOOLS"}

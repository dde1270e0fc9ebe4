"""War In Space in the window: its actions panel, its dialogs and its designer editor.

Registered in ``shipsheet/ui/games/__init__.py``; ``ENTRY`` says where its pieces are.
"""

#: This game has no window of its own for the Tools menus.
TOOLS: tuple = ()

#: Its designer editor (its panel is ``panel.py``'s ``Panel``, the layer's convention).
ENTRY = {"editor": ".editor:WarInSpaceEditor"}

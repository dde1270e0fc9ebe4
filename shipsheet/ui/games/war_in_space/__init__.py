"""War In Space in the window: its actions panel, its dialogs and its designer editor.

Registered in ``shipsheet/ui/games/__init__.py``; ``ENTRY`` says where its pieces are.
"""

#: This game has no window of its own for the Tools menus.
TOOLS: tuple = ()

#: This game's pieces of the window's layer ("module:attribute"; a leading dot for this
#: package's modules, nothing before the colon for this module).
ENTRY = {"panel": ".panel:Panel", "editor": ".editor:WarInSpaceEditor", "tools": ":TOOLS"}

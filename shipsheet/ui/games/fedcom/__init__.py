"""Federation Commander in the window: its actions panel, its dialogs (volley, standing
orders), its designer editor and its chart editor.

Registered in ``shipsheet/ui/games/__init__.py``; ``ENTRY`` says where its pieces are.
"""

#: This game's pieces of the window's layer ("module:attribute"; a leading dot for this
#: package's modules).
ENTRY = {"panel": ".panel:Panel", "editor": ".editor:FedComEditor", "tools": ".tools:TOOLS"}

"""Federation Commander in the window: its actions panel, its dialogs (volley, standing
orders), its designer editor and its chart editor.

Registered in ``shipsheet/ui/games/__init__.py``; ``ENTRY`` says where its pieces are.
"""

#: Its designer editor and its tools (its panel is ``panel.py``'s ``Panel``, the layer's
#: convention).
ENTRY = {"editor": ".editor:FedComEditor", "tools": ".tools:TOOLS"}

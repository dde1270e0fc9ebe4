"""Deprecated: the designer's file logic moved out of the UI.

Ship class files: :mod:`shipsheet.model.classfiles`; chart files:
:mod:`shipsheet.rules.fedcom.chart_files`. Kept for one release so scripts that followed
the README keep working; a name taken from here warns (``DeprecationWarning``) and names
its new home.
"""

from __future__ import annotations

import warnings

_CHARTS = ("blank_chart", "chart_text", "check_chart", "save_chart", "user_chart_path")
_CLASSES = ("Problem", "STEM_RE", "blank_definition", "check_definition", "definition_text",
            "is_chart_data", "read_toml", "save_definition", "slug", "split_message", "stem_problem",
            "top_key", "user_class_path")


def __getattr__(name: str):
    if name in _CLASSES:
        home = "shipsheet.model.classfiles"
    elif name in _CHARTS:
        home = "shipsheet.rules.fedcom.chart_files"
    else:
        raise AttributeError(name)
    warnings.warn(f"shipsheet.ui.designer.classfiles.{name} has moved to {home}.{name}",
                  DeprecationWarning, stacklevel=2)
    import importlib
    return getattr(importlib.import_module(home), name)

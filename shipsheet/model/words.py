"""The words of a box, a refusal or a form for the device that shows them.

The rules, the sheets and the forms speak the window's language ("Click: …", "right-click
it to restore it by hand", "Set an exact amount in the Actions panel"): that is their one
source. Each device then says it with its own verbs — a phone taps and long-presses and
has its forms under the sheet; a screen reader activates and opens a box's menu with the
menu key — through :func:`for_device`, which every text Table Link sends a phone passes
(box labels and refusals, menu entries, forms, answers, log lines: ``share/render.py``,
``share/server.py``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

WINDOW, PHONE, READER = "window", "phone", "reader"

#: Each device's words for the window's: (pattern, replacement), applied in order.
_PHONE = (
    (r"\bRight-click\b", "Long-press"), (r"\bright-click\b", "long-press"),
    (r"\bDouble-click\b", "Double-tap"), (r"\bdouble-click\b", "double-tap"),
    (r"\bClick\b", "Tap"), (r"\bclick\b", "tap"),
    (r"\bClicks\b", "Taps"), (r"\bclicks\b", "taps"),
    (r"\s*\((?:in )?the Actions panel\)", ""),
    (r"\s*\(Actions panel\)", ""),
    (r"\bin the Actions panel\b", "in the forms under the sheet"),
    (r"\bthe Actions panel\b", "the forms under the sheet"),
)

_READER = (
    (r"\bRight-click (it|this box|the box|a box)\b", r"Press the menu key on \1"),
    (r"\bright-click (it|this box|the box|a box)\b", r"press the menu key on \1"),
    (r"\bRight-click\b", "Menu key"), (r"\bright-click\b", "press the menu key"),
    (r"\bDouble-click\b", "Activate twice"), (r"\bdouble-click\b", "activate twice"),
    (r"\bClick\b", "Activate"), (r"\bclick\b", "activate"),
    (r"\bClicks\b", "Activations"), (r"\bclicks\b", "activations"),
)

_TABLES = {PHONE: _PHONE, READER: _READER}


@lru_cache(maxsize=None)
def _compiled(device: str) -> tuple:
    """``device``'s table with its patterns compiled (when a text first needs it: the
    window, starting, says everything in its own words)."""
    return tuple((re.compile(pattern), words) for pattern, words in _TABLES[device])


#: The keys of a form (PROTOCOL.md, Decisions) whose values are words for the player; the
#: others (names, values, kinds) are what the form sends back and are never touched.
FORM_WORDS = frozenset({"title", "text", "label", "submit", "over", "help", "note"})


def for_device(text: str, device: str) -> str:
    """``text`` (the window's words) in ``device``'s words (``WINDOW``: as it is)."""
    if not text or device not in _TABLES or ("lick" not in text and "Actions panel" not in text):
        return text  # most texts (log lines above all) have nothing to say otherwise
    return _said(text, device)


@lru_cache(maxsize=4096)
def _said(text: str, device: str) -> str:
    """The same texts come again and again (a sheet's boxes, every look at the table)."""
    for pattern, words in _compiled(device):
        text = pattern.sub(words, text)
    return text


def form_for_device(value: Any, device: str) -> Any:
    """A form (or a list of them, or a part of one) with its words in ``device``'s: the
    strings under :data:`FORM_WORDS` keys, wherever they are nested; a new object."""
    if isinstance(value, dict):
        return {k: (for_device(v, device) if k in FORM_WORDS and isinstance(v, str)
                    else form_for_device(v, device)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [form_for_device(v, device) for v in value]
    return value


def possessive(name: str) -> str:
    """"Blue's", and "Pirates'" for a name that ends in s (a side's plural)."""
    return f"{name}'" if name.endswith(("s", "S")) and len(name) > 1 else f"{name}'s"

"""Federation Commander in words: what the card, the dialogs and the panel print.

The sheet draws and the dialogs ask; the names and words they show come from here,
beside the rules they name.
"""

from __future__ import annotations

import functools
import re

from .card import BoxSpec
from .state import turn_states

#: Shield facings by number [FC]: #1 is the front, numbered clockwise.
SHIELD_NAMES = {1: "front", 2: "right front", 3: "right rear", 4: "rear", 5: "left rear",
                6: "left front"}
CHIP_TITLES = {"phaser": "Phasers", "torpedo": "Heavy weapons", "drone": "Drone racks",
               "shuttle": "Shuttle bays", "tractor": "Tractor beams"}
KIND_NOUNS = {"phaser": "phasers", "torpedo": "heavy weapons", "drone": "drone racks",
              "shuttle": "shuttle bays", "tractor": "tractors"}
CATEGORY_TITLES = {"weapons": "Weapons", "systems": "Ship systems", "control": "Control",
                   "power": "Power", "hull": "Hull"}

#: Turn states in words.
STATE_WORDS = {
    "unfired": "unfired", "fired": "fired", "charging": "charging",
    "launched": "launched", "unused": "unused", "used": "used",
    "used-dropped": "used & dropped", "holding": "holding",
}
DRONE_DEFAULT_WORD = "not launched"
OCCUPANT_WORDS = {"empty": "empty", "admin": "admin shuttle", "suicide": "suicide shuttle"}

_NUMBER = re.compile(r"(\d+)$")


def box_number(box: BoxSpec) -> str:
    """The number written in a box: its label, else the digits its id ends with."""
    return box.label or _id_number(box.id)


@functools.lru_cache(maxsize=4096)
def _id_number(box_id: str) -> str:
    """(Asked for every box every time a card is drawn: remembered.)"""
    found = _NUMBER.search(box_id)
    return found.group(1) if found else ""


def kind_title(kind: str) -> str:
    """A kind as a heading word: "left-warp" -> "Left warp"."""
    return kind.replace("-", " ").capitalize()


def state_word(kind: str, state: str) -> str:
    """A turn state in words for the card and tooltips."""
    if kind == "drone" and state == turn_states(kind)[0]:
        return DRONE_DEFAULT_WORD
    return STATE_WORDS.get(state, state)


__all__ = ["CATEGORY_TITLES", "CHIP_TITLES", "DRONE_DEFAULT_WORD", "KIND_NOUNS", "OCCUPANT_WORDS",
           "SHIELD_NAMES", "STATE_WORDS", "box_number", "kind_title", "state_word"]

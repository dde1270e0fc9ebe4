"""What a box of a sheet is and does: the rules' answer to (session, ship, box key).

Every place a user can point at on a sheet — a damage box, a track step, a suit's
critical, an explanation to hover — has a **key**, a short string each game names once
(its ``boxes`` piece, ``rules/<game>/boxes.py``). The game answers for a key with a
:class:`BoxAnswer`: what the box is (``label``) and what it holds now (``state``), what a
click or a phone's tap does (``click``, an action builder) or why it cannot (``refusal``),
the right a tap needs (``right``: MARK, the referee's damage marks, or DECIDE, the owner's
decisions), the context menu's entries, and the tooltip.

The sheet painters only place keys (``sheets.base.HitArea``); the window, the printer,
the phone's SVG and the Table Link server all ask here with the key. No answer is made
while drawing, so a phone's tap is answered from a snapshot of the session on the
server's thread, without drawing anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Hashable, Union

from .decisions import MARK
from .games import piece

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .session import Session
    from .ship import Ship

#: Builds the action a click (or a menu entry) applies: called only when the user acts.
ActionFactory = Callable[[], "Action"]
MenuEntries = list[tuple[str, ActionFactory]]
Lazy = Union[str, Callable[[], str]]


class BoxAnswer:
    """One box's answer. ``tooltip`` and ``menu`` may be zero-argument callables: they are
    worked out only when the user hovers or opens the menu (a card has hundreds of boxes).
    ``menu=None``: the box has no menu; ``[]``: it has one with nothing in it now."""

    __slots__ = ("label", "state", "right", "click", "refusal", "_tooltip", "_menu")

    def __init__(self, label: str, *, state: str = "", right: str = MARK,
                 click: ActionFactory | None = None, refusal: str | None = None,
                 tooltip: Lazy | None = None,
                 menu: "MenuEntries | Callable[[], MenuEntries] | None" = None):
        self.label = label
        self.state = state
        self.right = right
        self.click = click
        self.refusal = refusal
        self._tooltip = tooltip
        self._menu = menu

    @property
    def tooltip(self) -> str:
        """What the box is and what clicking does (the label when nothing more is said)."""
        if callable(self._tooltip):
            self._tooltip = self._tooltip()
        return self._tooltip if self._tooltip is not None else self.label

    def has_menu(self) -> bool:
        return self._menu is not None

    @property
    def menu(self) -> MenuEntries:
        """Context-menu entries: (label, action builder)."""
        if callable(self._menu):
            self._menu = self._menu()
        return self._menu or []

    def __repr__(self) -> str:
        return f"BoxAnswer({self.label!r}, state={self.state!r})"


def key_number(text: str, digits: int = 6) -> int | None:
    """A number as a key writes it — ASCII digits, at most ``digits`` of them, no sign, no
    leading zero — else None. Keys come from phones: "²", "-1", "1e3", "007" are no number."""
    if not (0 < len(text) <= digits and text.isascii() and text.isdigit()):
        return None
    if len(text) > 1 and text[0] == "0":
        return None
    return int(text)


class GameBoxes:
    """A game's boxes piece: its keys and its answers. Subclass per game."""

    def answer(self, session: "Session | None", ship: "Ship", key: str) -> BoxAnswer | None:
        """What box ``key`` of ``ship``'s sheet is and does now; None when the sheet has no
        such box. ``session`` is None for a sheet drawn without one (a blank sheet)."""
        return None

    def answers(self, session: "Session | None", ship: "Ship",
                keys: "list[str]") -> "list[BoxAnswer | None]":
        """:meth:`answer` for every key at once (a phone's sheet lists every box with its
        label): a game may work out once what many boxes' answers share. The answers are
        of this moment: read them before the ship changes."""
        return [self.answer(session, ship, key) for key in keys]

    def says(self, session: "Session | None", ship: "Ship",
             keys: "list[str]") -> "list[Hashable | None]":
        """For each key, what its answer's words are worked out from (a hashable; None: not
        named): for one key of ships of this game, equal ``says`` mean answers with the
        same label, state, right, refusal, tooltip and menu labels, and a click doing
        something on both or on neither. A phone's sheet is drawn again at every change of
        its ship and most of its boxes say what they said: ``share/render.py`` asks for the
        answers of the others alone. Cheaper than the answers (that is its point); a game
        that names none answers every box each time. Tested for every game that names
        them (``tests/rules/fedcom/test_fc_box_says.py``)."""
        return [None] * len(keys)


def box_answer(session: "Session | None", ship: "Ship", key: str) -> BoxAnswer | None:
    """The game's answer for box ``key`` of ``ship`` (None: no such box)."""
    return piece(ship.game, "boxes").answer(session, ship, key)


def box_answers(session: "Session | None", ship: "Ship", keys: "list[str]") -> "list[BoxAnswer | None]":
    """The game's answers for all of ``keys`` at once (:meth:`GameBoxes.answers`)."""
    return piece(ship.game, "boxes").answers(session, ship, keys)


def box_says(session: "Session | None", ship: "Ship", keys: "list[str]") -> "list[Hashable | None]":
    """What each of ``keys``' answers is worked out from (:meth:`GameBoxes.says`)."""
    return piece(ship.game, "boxes").says(session, ship, keys)


__all__ = ["ActionFactory", "BoxAnswer", "GameBoxes", "MenuEntries", "box_answer", "box_answers",
           "box_says", "key_number"]

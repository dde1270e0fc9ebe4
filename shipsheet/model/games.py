"""Every game ShipSheet plays, in one table, and the interface each game's rules offer.

:data:`GAMES` is the one place that names the games. Each :class:`GameEntry` says where
each of the game's pieces lives, as ``"module:attribute"`` strings, so nothing is
imported at start-up and the model (which never imports Qt) can hold the UI's pieces by
name: :func:`piece` imports one on first use. Everything that needs "all games" (the
model validating a ship, the window's sheet and panel, the designer, the help, the
samples) reads this table; a game missing a piece is an error, never a silent fallback
(``tests/test_games_table.py`` loads every piece of every game).

A game is added by writing its packages and adding one entry here (or, for a plug-in or
a test, with :func:`add_game`): HACKING.md, "A game, end to end".
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .keypath import Node

if TYPE_CHECKING:  # pragma: no cover
    from .session import Session, ActionContext
    from .ship import Ship, ShipClass


class GameEntry:
    """One game: its id and title, and where each of its pieces is.

    ``rules``: the :class:`GameRules` instance; ``house_rules``: (topic, text) pairs of our
    own readings; ``source``: the rule text it implements, in words; ``blank_definition``:
    a function giving a small valid class to start the designer from; ``carry_over``: the
    function that carries a ship's state to a new version of its class
    (``model.update``); ``sample``: a function building the sample session; ``sheet``:
    the ``SheetPainter`` subclass; ``panel``: the actions dock's widget class
    (``Panel(doc, parent)``); ``editor``: the designer's ``GameEditor`` subclass;
    ``decisions``: the ``model.decisions.GameDecisions`` saying what a player decides
    (from a phone or an orders file) and which action each decision is; ``privacy``: the
    ``model.privacy.GamePrivacy`` saying what of a ship only its owner may see, and when it
    becomes public (every boundary — player files, reports, phones — applies it);
    ``boxes``: the ``model.boxes.GameBoxes`` naming the keys of the sheet's boxes and
    answering what each is and does (the window, the printer and the phones ask it).
    """

    __slots__ = ("id", "title", "rules", "house_rules", "source", "blank_definition",
                 "carry_over", "sample", "sheet", "panel", "editor", "decisions", "privacy", "boxes")

    def __init__(self, id: str, title: str, *, rules: str, house_rules: str, source: str,
                 blank_definition: str, carry_over: str, sample: str, sheet: str, panel: str,
                 editor: str, decisions: str, privacy: str, boxes: str):
        self.id = id
        self.title = title
        self.rules = rules
        self.house_rules = house_rules
        self.source = source
        self.blank_definition = blank_definition
        self.carry_over = carry_over
        self.sample = sample
        self.sheet = sheet
        self.panel = panel
        self.editor = editor
        self.decisions = decisions
        self.privacy = privacy
        self.boxes = boxes

    def __repr__(self) -> str:
        return f"GameEntry({self.id!r})"


#: The pieces every game has, in the order a newcomer would write them.
PIECES = ("rules", "house_rules", "source", "blank_definition", "carry_over", "sample",
          "sheet", "panel", "editor", "decisions", "privacy", "boxes")

GAMES: dict[str, GameEntry] = {
    "war-in-space": GameEntry(
        "war-in-space", "War In Space",
        rules="shipsheet.rules.war_in_space:GAME",
        house_rules="shipsheet.rules.war_in_space:HOUSE_RULES",
        source="shipsheet.rules.war_in_space:SOURCE",
        blank_definition="shipsheet.rules.war_in_space.templates:blank_definition",
        carry_over="shipsheet.rules.war_in_space.carry_over:carry_over",
        sample="shipsheet.rules.war_in_space.sample:build_sample_session",
        sheet="shipsheet.sheets.war_in_space:SHEET",
        panel="shipsheet.ui.panels.war_in_space:Panel",
        editor="shipsheet.ui.designer.wis_editor:WarInSpaceEditor",
        decisions="shipsheet.rules.war_in_space.decisions:DECISIONS",
        privacy="shipsheet.rules.war_in_space.privacy:PRIVACY",
        boxes="shipsheet.rules.war_in_space.boxes:BOXES"),
    "triplanetary": GameEntry(
        "triplanetary", "Triplanetary",
        rules="shipsheet.rules.triplanetary:GAME",
        house_rules="shipsheet.rules.triplanetary:HOUSE_RULES",
        source="shipsheet.rules.triplanetary:SOURCE",
        blank_definition="shipsheet.rules.triplanetary.templates:blank_definition",
        carry_over="shipsheet.rules.triplanetary.carry_over:carry_over",
        sample="shipsheet.rules.triplanetary.sample:build_sample_session",
        sheet="shipsheet.sheets.triplanetary:SHEET",
        panel="shipsheet.ui.panels.triplanetary:Panel",
        editor="shipsheet.ui.designer.triplanetary_editor:TriplanetaryEditor",
        decisions="shipsheet.rules.triplanetary.decisions:DECISIONS",
        privacy="shipsheet.rules.triplanetary.privacy:PRIVACY",
        boxes="shipsheet.rules.triplanetary.boxes:BOXES"),
    "fedcom": GameEntry(
        "fedcom", "Federation Commander",
        rules="shipsheet.rules.fedcom:GAME",
        house_rules="shipsheet.rules.fedcom:HOUSE_RULES",
        source="shipsheet.rules.fedcom:SOURCE",
        blank_definition="shipsheet.rules.fedcom.templates:blank_definition",
        carry_over="shipsheet.rules.fedcom.carry_over:carry_over",
        sample="shipsheet.rules.fedcom.sample:build_sample_session",
        sheet="shipsheet.sheets.fedcom:SHEET",
        panel="shipsheet.ui.panels.fedcom:Panel",
        editor="shipsheet.ui.designer.fedcom_editor:FedComEditor",
        decisions="shipsheet.rules.fedcom.decisions:DECISIONS",
        privacy="shipsheet.rules.fedcom.privacy:PRIVACY",
        boxes="shipsheet.rules.fedcom.boxes:BOXES"),
}


class _GameIds(Sequence):
    """The game ids, in table order: a live view of :data:`GAMES` (tuple-like)."""

    def __getitem__(self, index):
        return tuple(GAMES)[index]

    def __len__(self) -> int:
        return len(GAMES)

    def __repr__(self) -> str:
        return repr(tuple(GAMES))


class _GameTitles(Mapping):
    """game id -> title: a live view of :data:`GAMES`."""

    def __getitem__(self, game_id: str) -> str:
        return GAMES[game_id].title

    def __iter__(self):
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


GAME_IDS: Sequence[str] = _GameIds()
GAME_TITLES: Mapping[str, str] = _GameTitles()
#: Keys every ship definition may carry, whatever its game.
COMMON_KEYS = ("game", "class", "sample", "notes")

_loaded: dict[tuple[str, str], Any] = {}


def game_entry(game_id: str) -> GameEntry:
    """The table entry of ``game_id``; KeyError naming the known games."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f'unknown game "{game_id}" (known: {", ".join(GAMES)})') from None


def piece(game_id: str, name: str) -> Any:
    """One piece of a game (see :class:`GameEntry`), imported on first use."""
    key = (game_id, name)
    if key not in _loaded:
        if name not in PIECES:
            raise KeyError(f'no game piece "{name}" (pieces: {", ".join(PIECES)})')
        where = getattr(game_entry(game_id), name)
        module, _, attribute = where.partition(":")
        try:
            _loaded[key] = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as exc:
            raise LookupError(f'{game_id}: its {name} ("{where}") cannot be loaded: {exc}') from exc
    return _loaded[key]


def add_game(entry: GameEntry) -> None:
    """Add a game to the table (a plug-in, or a test's made-up game)."""
    GAMES[entry.id] = entry


def remove_game(game_id: str) -> None:
    """Take a game added with :func:`add_game` out again (and forget its loaded pieces)."""
    GAMES.pop(game_id, None)
    for key in [k for k in _loaded if k[0] == game_id]:
        del _loaded[key]


class GameRules:
    """What the model needs from a game. Subclass per game; override as needed."""

    id: str = ""
    #: The turn's phases, in order. The session starts each turn at the first.
    phases: tuple[str, ...] = ("Turn",)
    #: Keys a ship definition of this game may have besides COMMON_KEYS.
    class_keys: tuple[str, ...] = ()

    def parse_class(self, node: Node) -> Any:
        """Validate a definition (the root table) and return its parsed spec."""
        node.only_keys(*COMMON_KEYS, *self.class_keys)
        return dict(node.value)

    def initial_state(self, ship_class: "ShipClass") -> dict:
        """The damage state of a new, undamaged ship of this class."""
        return {}

    def check_state(self, ship_class: "ShipClass", node: Node) -> dict:
        """Validate a state read from a session file (``node`` raises SessionFileError)."""
        node.table()
        return dict(node.value)

    def check_options(self, node: Node) -> dict:
        """Validate a session's options read from a file (``node`` raises SessionFileError):
        a game checks the options it reads, so a wrong type is refused at load, not met
        later by a panel or a painter."""
        node.table()
        return dict(node.value)

    def status_chips(self, ship: "Ship") -> list[str]:
        """Short status words for the roster ("Destroyed", "Can't fire", "♦ locked")."""
        return []

    def definition_warnings(self, data: Mapping) -> list[str]:
        """What a valid definition holds that this game ignores, each naming its key path
        (``shipsheet check`` prints them; the designer does not write them back)."""
        return []

    def describe_class(self, ship_class: "ShipClass") -> str:
        """One line describing a class in pickers."""
        return ship_class.name

    def enter_phase(self, session: "Session", phase: str, ctx: "ActionContext") -> None:
        """Called when the session enters ``phase`` (within the phase-change action)."""

    def end_turn(self, session: "Session", ctx: "ActionContext") -> None:
        """Called as a turn ends, before the next turn's first phase."""

    def choices_before_turn_end(self, session: "Session") -> list["Ship"]:
        """Ships whose owners still have a choice to make before the turn ends. The window
        asks once (its game's panel ``ask_before_turn_end``) and never blocks: the rules
        apply a stated default to any choice left open. None by default."""
        return []

    @property
    def title(self) -> str:
        """The game's title, from its table entry."""
        return game_entry(self.id).title


def get_game(game_id: str) -> GameRules:
    """The rules of ``game_id``; raises KeyError naming the known games."""
    return piece(game_id, "rules")

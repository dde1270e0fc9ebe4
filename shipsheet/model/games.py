"""The games ShipSheet plays, and where each layer finds each game's pieces.

Every layer of the code keeps its own registry of the games' pieces, keyed by the game id
(:class:`Layer`), and each game registers itself in each from its own package: one line
per layer naming the game's module in that layer, whose ``ENTRY`` says where each of the
layer's pieces is.

- The model's, :data:`MODEL` (here): the game's id, title and rules package; the line is
  in ``shipsheet/rules/__init__.py``, and the package's ``ENTRY`` names the rules, house
  rules, source, blank class, carry-over, sample, decisions, privacy, boxes, report
  summary and order checks (:data:`MODEL_PIECES`).
- The sheets', in ``shipsheet/sheets/__init__.py``: the painter.
- The window's, in ``shipsheet/ui/games/__init__.py``: the panel, the designer's editor,
  the game's tools.

No registry names a module of a layer above its own, even in a string: the model knows a
game's rules package only because the rules layer registered it. The package root
(``shipsheet/__init__.py``) imports the rules' registrations, so ``Session("fedcom")``
works in any script; the sheets' and the window's come with those layers. Registering
imports nothing of the game: a piece is imported on first use (:func:`piece`), so start-up
loads only the game it opens. A game one layer knows and another does not is an error said
at start (:func:`check_games`), never a fallback later; ``tests/test_games_table.py``
loads every piece of every game. HACKING.md, "A game, end to end", adds a fourth.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .keypath import Node

if TYPE_CHECKING:  # pragma: no cover
    from .session import Session, ActionContext
    from .ship import Ship, ShipClass


class GameError(LookupError):
    """A game's registration is missing or wrong somewhere: said at start, with where."""


class Layer:
    """One layer's registry: for each game id, the module (of this layer, or the game's own
    package outside ShipSheet) whose ``ENTRY`` maps each of the layer's ``pieces`` the
    layer's ``conventions`` do not place (or places elsewhere) to where it is, as
    ``"module:attribute"``. A module name starting with a dot is relative
    to the registered module's package, as in an import (``".templates:blank_definition"``),
    and ``":GAME"`` an attribute of the registered module itself. ``where``: the file holding the layer's
    registration lines, for the words of an error."""

    def __init__(self, name: str, pieces: tuple[str, ...], where: str,
                 conventions: Mapping[str, str] | None = None):
        self.name = name
        self.pieces = pieces
        self.where = where
        #: Where a piece is when a game's ``ENTRY`` does not say (the games follow them:
        #: ``":GAME"``, ``".sample:build_sample_session"``): an entry names the rest.
        self.conventions = dict(conventions or {})
        self._modules: dict[str, str] = {}
        self._loaded: dict[tuple[str, str], Any] = {}
        _LAYERS[name] = self
        for piece_name in pieces:
            _PIECE_LAYER[piece_name] = self

    def register(self, game_id: str, module: str) -> None:
        """The game's pieces of this layer are as ``module``'s ``ENTRY`` says."""
        self._modules[game_id] = module

    def unregister(self, game_id: str) -> None:
        """Take a game out of this layer again (and forget its loaded pieces)."""
        self._modules.pop(game_id, None)
        for key in [k for k in self._loaded if k[0] == game_id]:
            del self._loaded[key]

    def games(self) -> tuple[str, ...]:
        """The games registered here, in the order they were."""
        return tuple(self._modules)

    def has(self, game_id: str) -> bool:
        return game_id in self._modules

    def module(self, game_id: str) -> str:
        """The module the game registered in this layer."""
        if game_id not in MODEL._modules:
            raise KeyError(f'unknown game "{game_id}" (known: {", ".join(GAME_IDS)})')
        try:
            return self._modules[game_id]
        except KeyError:
            raise GameError(f'{game_id}: not registered in the {self.name} layer (a line in '
                            f'{self.where})') from None

    def entry(self, game_id: str) -> Mapping[str, str]:
        """Where each of the game's pieces of this layer is: the layer's conventions, and
        what the game's ``ENTRY`` says besides or instead (every piece, and no other)."""
        module = self.module(game_id)
        try:
            found = self._module_object(game_id)
        except ImportError as exc:
            raise GameError(f"{game_id}: its {self.name} entry ({module}) cannot be "
                            f"loaded: {exc}") from exc
        entry = {**self.conventions, **getattr(found, "ENTRY", {})}
        missing = [p for p in self.pieces if p not in entry]
        extra = [p for p in entry if p not in self.pieces]
        if missing or extra:
            raise GameError(f"{game_id}: {module}.ENTRY " + "; ".join(
                ([f"lacks {', '.join(missing)}"] if missing else [])
                + ([f"has no such piece as {', '.join(extra)}"] if extra else [])))
        return entry

    def _module_object(self, game_id: str):
        return importlib.import_module(self.module(game_id))

    def piece(self, game_id: str, name: str) -> Any:
        """One piece of the game, imported on first use."""
        key = (game_id, name)
        if key not in self._loaded:
            where = self.entry(game_id)[name]
            module, _, attribute = where.partition(":")
            registered = self._module_object(game_id)
            try:
                found = (importlib.import_module(module, registered.__package__) if module
                         else registered)
                self._loaded[key] = getattr(found, attribute)
            except (ImportError, AttributeError, TypeError) as exc:
                raise GameError(f'{game_id}: its {name} ("{where}" of {registered.__name__}) '
                                f"cannot be loaded: {exc}") from exc
        return self._loaded[key]


_LAYERS: dict[str, Layer] = {}
_PIECE_LAYER: dict[str, Layer] = {}

#: The model's pieces of every game, in the order a newcomer would write them.
MODEL_PIECES = ("rules", "house_rules", "source", "blank_definition", "carry_over", "sample",
                "decisions", "privacy", "boxes", "summary", "ignored_orders")


#: Where a game's rules package keeps its model pieces, unless its ``ENTRY`` says otherwise.
MODEL_CONVENTIONS = {
    "rules": ":GAME", "house_rules": ":HOUSE_RULES", "source": ":SOURCE",
    "blank_definition": ".templates:blank_definition", "carry_over": ".carry_over:carry_over",
    "sample": ".sample:build_sample_session", "decisions": ".decisions:DECISIONS",
    "privacy": ".privacy:PRIVACY", "boxes": ".boxes:BOXES",
}


class _ModelLayer(Layer):
    """The model's registry: a game is registered with its title too (menus and lists name
    every game without loading any)."""

    def __init__(self):
        super().__init__("model", MODEL_PIECES, "shipsheet/rules/__init__.py", MODEL_CONVENTIONS)
        self.titles: dict[str, str] = {}

    def register(self, game_id: str, module: str, title: str = "") -> None:  # type: ignore[override]
        if not title:
            raise GameError(f"{game_id}: a game is registered with its title")
        super().register(game_id, module)
        self.titles[game_id] = title

    def unregister(self, game_id: str) -> None:
        super().unregister(game_id)
        self.titles.pop(game_id, None)


#: The model's registry: the games themselves. Their rules packages register in
#: ``shipsheet/rules/__init__.py``.
MODEL = _ModelLayer()

def register_game(game_id: str, title: str, module: str) -> None:
    """A game, its title and its rules package (whose ``ENTRY`` names its model pieces)."""
    MODEL.register(game_id, module, title)


def unregister_game(game_id: str) -> None:
    """Take a game out of every layer (a test's made-up game)."""
    for layer in list(_LAYERS.values()):
        layer.unregister(game_id)


def layers() -> tuple[Layer, ...]:
    """The registries known now: the model's, and each layer's that has been imported."""
    return tuple(_LAYERS.values())


def check_games(*names: str) -> None:
    """Every game the model knows is registered in each layer named (all known when none
    are), and each layer knows no game the model does not: GameError otherwise, naming the
    game, the layer and the file its line goes in. Imports nothing of the games."""
    wanted = [_LAYERS[n] for n in names] if names else list(_LAYERS.values())
    problems = []
    for layer in wanted:
        problems += [f'{g}: not registered in the {layer.name} layer (a line in {layer.where})'
                     for g in MODEL.games() if not layer.has(g)]
        problems += [f'{g}: registered in the {layer.name} layer but not as a game (a line in '
                     f'{MODEL.where})' for g in layer.games() if not MODEL.has(g)]
    if problems:
        raise GameError("; ".join(problems))


class _GameIds(Sequence):
    """The game ids, in the order they were registered: a live view (tuple-like)."""

    def __getitem__(self, index):
        return MODEL.games()[index]

    def __len__(self) -> int:
        return len(MODEL.games())

    def __repr__(self) -> str:
        return repr(MODEL.games())


class _GameTitles(Mapping):
    """game id -> title: a live view of the registered games."""

    def __getitem__(self, game_id: str) -> str:
        return MODEL.titles[game_id]

    def __iter__(self):
        return iter(MODEL.games())

    def __len__(self) -> int:
        return len(MODEL.games())


GAME_IDS: Sequence[str] = _GameIds()
GAME_TITLES: Mapping[str, str] = _GameTitles()
#: Keys every ship definition may carry, whatever its game.
COMMON_KEYS = ("game", "class", "sample", "notes")


def piece(game_id: str, name: str) -> Any:
    """One piece of a game, whichever layer holds it (see :class:`Layer`), imported on first
    use. The layer must have been imported (the sheets' for ``sheet``, the window's for
    ``panel``): a layer asks for its own pieces and those below it."""
    layer = _PIECE_LAYER.get(name)
    if layer is None:
        raise KeyError(f'no game piece "{name}" (pieces: {", ".join(_PIECE_LAYER)})')
    if game_id not in MODEL.games():
        raise KeyError(f'unknown game "{game_id}" (known: {", ".join(GAME_IDS)})')
    return layer.piece(game_id, name)


def nothing_ignored(session: "Session", ship: "Ship") -> list[str]:
    """The order checks of a game without standing orders: nothing of a ship's orders is
    ever ignored (a game's ``ignored_orders`` piece)."""
    return []


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
        """The game's title, as the game registered it."""
        return GAME_TITLES[self.id]


def get_game(game_id: str) -> GameRules:
    """The rules of ``game_id``; raises KeyError naming the known games."""
    return piece(game_id, "rules")

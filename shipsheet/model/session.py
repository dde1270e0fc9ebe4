"""A session: one game's ships, the turn and phase, the log, the dice, undo/redo.

Every change goes through :meth:`Session.apply`: the action runs against the
live session; if it raises (a :class:`RuleViolation` or anything else) the
session is restored to exactly what it was, so nothing is half-changed. On
success its log entries are kept and a :class:`Change` (snapshots before and
after) goes on the undo stack. Undo restores the snapshot taken before and
marks the change's log entries as undone; redo restores the one taken after.

This history is the only one: the window reads it (:meth:`Session.undo_status`: what Undo
and Redo would name, and whether the session is as last saved — the clean mark, kept here
with the history it marks) as it reads the ships; it keeps no stack of its own.

Two records are never taken back by undo: the log (its entries are marked undone, not
removed) and :attr:`Session.archive`, the play-by-e-mail desk's ledger of what arrived
and what left (files received, orders closed, seeds revealed): what happened stays
known, so an undo can never make a file unreceived or a revealed seed secret again.
"""

from __future__ import annotations

from contextlib import contextmanager
from .code_cache import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from .dice import SCHEME_IDS, VERIFIABLE, Dice, dice_record
from .errors import RuleViolation
from .games import GAME_TITLES, get_game
from .log import LogEntry, log_as_text
from .ship import Ship, clone, new_id

_UID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def valid_uid(uid: str) -> bool:
    """A session uid is 1-64 letters, digits, ``_`` or ``-`` (ShipSheet makes 32 hex digits)."""
    return 0 < len(uid) <= 64 and _UID_CHARS.issuperset(uid)


if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action


@dataclass
class _Snapshot:
    """A session's state before an action (what undo puts back)."""

    turn: int
    phase: str
    options: dict
    dice_count: int
    typed: list
    ships: list  # the ship objects, in order
    details: dict  # ship id -> (name, side, state copy) for the ships touched
    turn_start: dict  # the session's turn_start mapping (replaced, never changed in place)
    pbem: dict  # a copy of the session's play-by-e-mail record

    def restore(self, session: "Session") -> None:
        session.turn_start = self.turn_start
        session.pbem = clone(self.pbem)
        session.turn = self.turn
        session.phase = self.phase
        session.options = clone(self.options)
        session.dice.count = self.dice_count
        session.dice._typed[:] = self.typed
        session.ships[:] = self.ships
        for ship in self.ships:
            if ship.id in self.details:
                ship.name, ship.side, state = self.details[ship.id]
                ship.state = clone(state)


@dataclass(frozen=True)
class UndoStatus:
    """What the history offers now, as a window shows it."""

    undo: str | None  # the name of the step Undo would take back (None: nothing to undo)
    redo: str | None  # the name of the step Redo would make again
    #: The step Undo would take back (its ``Change.seq``; 0: none): a request to undo names
    #: it, so it never takes back a step that arrived after it was asked.
    step: int
    steps: int  # how many steps Undo can take back, one after another
    clean: bool  # the session is as it was last saved (or opened)


@dataclass
class Change:
    """A change that was applied: what it was, and how to take it back."""

    action: "Action"
    name: str
    seq: int
    before: _Snapshot
    after: _Snapshot
    log_start: int
    log_end: int

    @property
    def entries(self) -> slice:
        return slice(self.log_start, self.log_end)


class ActionContext:
    """What an action sees while it runs: the session, its dice, and its log lines."""

    def __init__(self, session: "Session", seq: int, ship: str | None,
                 private: str | None = None):
        self.session = session
        self.dice = session.dice
        self.seq = seq
        self.ship = ship
        #: The lines logged now are private decisions of this kind (the change's own).
        self.private = private

    def log(self, text: str, *, ship: str | None = None, kind: str = "detail",
            by: str | None = None, private: str | None = None,
            public: str | None = None) -> None:
        """Add a log line. Kept trimmed, as a session file reads it back (``Node.str``).
        ``by``: the ship that did it to ``ship`` (an attacker), for turn reports.
        ``private``: the kind of the owner's private decision the line tells of (default:
        the change's own, :attr:`private`); ``public``: the line as everyone else reads it
        (None: they read nothing of it). A line with ``public`` is private."""
        s = self.session
        private = private or self.private
        s.log.append(LogEntry(text.strip(), kind, s.turn, s.phase, ship or self.ship, self.seq,
                              by=by, private=private,
                              public=None if public is None or private is None else public.strip()))

    @contextmanager
    def within(self, action: "Action") -> Iterator[None]:
        """While one action applies another's work inside its own change (orders applied
        from a file): that action's ship and privacy are the lines' in the block."""
        ship, private = self.ship, self.private
        self.ship = action.ship_id or ship
        self.private = action.private or private
        try:
            yield
        finally:
            self.ship, self.private = ship, private

    def _on_roll(self, sides: int, value: int, reason: str, typed: bool) -> None:
        """Log a roll, with its record (``Dice.last_record``: scheme, number, sides, value,
        typed, nonces mixed in) so ``shipsheet verify-dice`` can recompute it later."""
        how = "typed in" if typed else "rolled"
        what = f" for {reason}" if reason else ""
        self.log(f"d{sides} {how}: {value}{what}", kind="roll")
        record, self.dice.last_record = self.dice.last_record, None
        if record is not None and record[2:5] == [sides, value, int(typed)]:
            if record[0] not in (SCHEME_IDS[s] for s in VERIFIABLE) and \
                    dice_record(self.session.pbem):
                raise RuleViolation("This session's dice are verifiable, but these dice are not "
                                    "bound to it (model.dice.bind_session).")
            self.session.log[-1].roll = list(record)


class Session:
    """One game's play: ships (with sides), turn, phase, log, dice, undo/redo."""

    def __init__(self, game: str, *, name: str = "", seed: int | None = None):
        self.rules = get_game(game)
        self.game = game
        self.name = name
        self.uid = new_id(16)
        self.turn = 1
        self.phase = self.rules.phases[0]
        self.ships: list[Ship] = []
        self.log: list[LogEntry] = []
        #: Counts the undos and redos that marked log entries undone or done again: a view
        #: of the log that saw the same count need only read the entries added since.
        self.log_marks = 0
        self.dice = Dice(seed)
        #: Session-level settings and game data (e.g. a chart choice); plain JSON values.
        self.options: dict = {}
        #: Each ship's state when this turn began (or when it joined): the sheets show the
        #: marks made since apart, as players mark hits during fire and cross them out at
        #: the end of the turn. A mapping that is replaced, never changed in place (so an
        #: undo snapshot holds it without a copy).
        self.turn_start: dict[str, dict] = {}
        #: The play-by-e-mail record (players, orders received, the dice's turn seeds): plain
        #: JSON kept by ``shipsheet.pbem``; {} when the session is not played by e-mail.
        self.pbem: dict = {}
        #: The play-by-e-mail desk's ledger (plain JSON objects, kept by ``shipsheet.pbem``):
        #: appended to inside actions, never taken back by undo or redo (see the module
        #: docstring); an action that fails leaves nothing in it.
        self.archive: list[dict] = []
        self._undo: list[Change] = []
        self._redo: list[Change] = []
        self._seq = 0
        #: The clean mark: the ``step`` (see :class:`UndoStatus`) at which the session was
        #: last saved or opened; None when no step of the history is (a recovered autosave).
        self._clean: int | None = 0
        self._listeners: list[Callable[[Change | None], None]] = []

    def __repr__(self) -> str:
        return f"Session({self.game!r}, {len(self.ships)} ships, turn {self.turn})"

    @property
    def title(self) -> str:
        return self.name or f"{GAME_TITLES.get(self.game, self.game)} session"

    # -- ships ---------------------------------------------------------
    def ship(self, key: str) -> Ship:
        """The ship with this id, or else this name (case-insensitive)."""
        for ship in self.ships:
            if ship.id == key:
                return ship
        for ship in self.ships:
            if ship.name.casefold() == key.casefold():
                return ship
        raise RuleViolation(f'There is no ship "{key}" in this session.')

    def turn_start_state(self, ship: Ship) -> dict:
        """The ship's state when this turn began (its state now, if it has no record)."""
        return self.turn_start.get(ship.id, ship.state)

    def start_turn_record(self) -> None:
        """Record every ship's state as this turn's start (at the end of each turn)."""
        self.turn_start = {s.id: clone(s.state) for s in self.ships}

    def add_ship(self, ship: Ship, side: str | None = None) -> Ship:
        """Add a ship (an undoable, logged action). Returns the ship."""
        from .actions import AddShip
        self.apply(AddShip(ship, side))
        return ship

    @property
    def sides(self) -> list[str]:
        seen: list[str] = []
        for ship in self.ships:
            if ship.side and ship.side not in seen:
                seen.append(ship.side)
        return seen

    def ship_names(self) -> dict[str, str]:
        return {s.id: s.name for s in self.ships}

    def log_text(self, ship: str | None = None, include_undone: bool = False) -> str:
        entries = [e for e in self.log if ship is None or e.ship == ship]
        return log_as_text(entries, self.ship_names(), include_undone)

    # -- the one path for every change ------------------------------------
    def _snapshot(self, touched: Iterable[str] | None) -> _Snapshot:
        ships = list(self.ships)
        wanted = None if touched is None else set(touched)
        details = {s.id: (s.name, s.side, clone(s.state)) for s in ships
                   if wanted is None or s.id in wanted}
        return _Snapshot(self.turn, self.phase, clone(self.options), self.dice.count,
                         list(self.dice._typed), ships, details, self.turn_start,
                         clone(self.pbem))

    def apply(self, action: "Action") -> Change:
        """Check and apply ``action``; refuse with RuleViolation, changing nothing."""
        touched = action.touches(self)
        before = self._snapshot(touched)
        log_start = len(self.log)
        archived = len(self.archive)
        seq = self._seq + 1
        ctx = ActionContext(self, seq, action.ship_id, action.private)
        self.dice.on_roll = ctx._on_roll
        try:
            ctx.log(action.name, kind="action")
            headline = self.log[log_start]
            # A verifiable roll's purpose: the change's ship and headline, as logged.
            self.dice.context = lambda: (headline.ship or "", headline.text)
            action.apply(self, ctx)
        except BaseException:
            before.restore(self)
            del self.log[log_start:]
            del self.archive[archived:]
            raise
        finally:
            self.dice.on_roll = None
            self.dice.context = None
        self._seq = seq
        after = self._snapshot(touched)
        change = Change(action, action.name, seq, before, after, log_start, len(self.log))
        self._undo.append(change)
        self._redo.clear()
        self._notify(change)
        return change

    @contextmanager
    def all_or_nothing(self) -> Iterator[None]:
        """Inside an action: a part of it that applies whole or leaves nothing behind. A
        RuleViolation raised in the block restores the session as it was when the block
        began (ships, turn, phase, options, dice, play-by-e-mail record, log, ledger) and
        goes on; the action itself goes on or stops as its caller decides (the desk applies
        each player's orders this way when a turn's orders close: one refused file takes
        nothing of the others)."""
        before = self._snapshot(None)
        log_start, archived = len(self.log), len(self.archive)
        try:
            yield
        except RuleViolation:
            before.restore(self)
            del self.log[log_start:]
            del self.archive[archived:]
            raise

    def undo_step(self) -> Change | None:
        """The change Undo would take back (to ask about it first), or None."""
        return self._undo[-1] if self._undo else None

    def _step(self) -> int:
        return self._undo[-1].seq if self._undo else 0

    def undo_status(self) -> UndoStatus:
        return UndoStatus(self._undo[-1].name if self._undo else None,
                          self._redo[-1].name if self._redo else None,
                          self._step(), len(self._undo), self._clean == self._step())

    @property
    def dirty(self) -> bool:
        """Changed since it was last saved or opened (an undo back to there is clean)."""
        return self._clean != self._step()

    def mark_clean(self) -> None:
        """The session is as saved now (after a save or a load)."""
        self._clean = self._step()

    def mark_dirty(self) -> None:
        """No step of the history is as saved (a recovered autosave, never saved here)."""
        self._clean = None

    def undo(self, step: int | None = None) -> Change:
        """Take back the last change (its log entries stay, marked undone). ``step``: the
        change the caller means (its ``seq``, as ``undo_status().step`` named it); if
        another is last now, nothing is undone and RuleViolation says which is."""
        if not self._undo:
            raise RuleViolation("There is nothing to undo.")
        if step is not None and step != self._undo[-1].seq:
            raise RuleViolation(f"Not undone: the last step is now “{self._undo[-1].name}”. "
                                "Look, and undo again if that is the one.")
        change = self._undo.pop()
        change.before.restore(self)
        for entry in self.log[change.entries]:
            entry.undone = True
        self.log_marks += 1
        self._redo.append(change)
        self._notify(change)
        return change

    def redo(self) -> Change:
        """Apply again the last change that was undone."""
        if not self._redo:
            raise RuleViolation("There is nothing to redo.")
        change = self._redo.pop()
        change.after.restore(self)
        for entry in self.log[change.entries]:
            entry.undone = False
        self.log_marks += 1
        self._undo.append(change)
        self._notify(change)
        return change

    def clear_history(self) -> None:
        """Forget undo/redo (e.g. after loading a file); a clean session stays clean."""
        clean = not self.dirty
        self._undo.clear()
        self._redo.clear()
        self._clean = 0 if clean else None

    # -- observers -------------------------------------------------------
    def subscribe(self, callback: Callable[[Change | None], None]) -> None:
        """Call ``callback(change)`` after every apply, undo and redo."""
        self._listeners.append(callback)

    def unsubscribe(self, callback: Callable[[Change | None], None]) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def _notify(self, change: Change | None) -> None:
        for callback in list(self._listeners):
            callback(change)

    # -- turn and phase ----------------------------------------------------
    def next_phase(self) -> Change:
        from .actions import NextPhase
        return self.apply(NextPhase())

    def next_turn(self) -> Change:
        from .actions import NextTurn
        return self.apply(NextTurn())

"""Actions: every change to a session is one of these, applied by Session.apply."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from .dice import check_turn_end
from .errors import RuleViolation
from .ship import clone

if TYPE_CHECKING:  # pragma: no cover
    from .session import ActionContext, Session
    from .ship import Ship


class Action:
    """A change to a session.

    ``name`` is what the user sees ("Mark drive box"; the UI shows "Undo Mark
    drive box"). :meth:`apply` checks the rules and raises RuleViolation, or
    changes the session and may add detail lines with ``ctx.log``. The
    session takes care of atomicity, the headline log entry and undo.
    """

    name = "Change"
    #: The ship the change is about, if any (for the log's ship filter).
    ship_id: str | None = None
    #: Who made the change when it was not made in this window (a seat's name: a phone at
    #: the table): the window's Undo asks before taking it back.
    seat_name: str | None = None
    #: The kind of private decision of its ship's owner this change is (its log lines are
    #: private: ``LogEntry.private``; the game's ``privacy`` piece names the kinds), or None.
    private: str | None = None

    def touches(self, session: "Session") -> Iterable[str] | None:
        """Ids of the ships whose state may change; None means all of them."""
        return None if self.ship_id is None else (self.ship_id,)

    def apply(self, session: "Session", ctx: "ActionContext") -> None:
        """Check the rules, then change the session. Subclasses override this."""
        raise RuleViolation(f"{self.name}: this action does nothing.")


#: How a lower layer applies the changes it makes, passed in by its caller: ``Session.apply``,
#: or the window's ``SessionDocument.apply`` (its guard asked first). Either way each change
#: is one step of the session's one history.
Apply = Callable[[Action], Any]


class ShipAction(Action):
    """Apply ``fn(ship, ctx)`` to one ship; ``fn`` may return detail lines for the log."""

    def __init__(self, name: str, ship: "Ship | str", fn: Callable[["Ship", "ActionContext"], Any],
                 *, private: str | None = None):
        self.name = name
        self.ship_id = ship if isinstance(ship, str) else ship.id
        self.fn = fn
        self.private = private

    def apply(self, session: "Session", ctx: "ActionContext") -> None:
        ship = session.ship(self.ship_id)
        result = self.fn(ship, ctx)
        if isinstance(result, str):
            ctx.log(result)
        elif isinstance(result, (list, tuple)) and all(isinstance(r, str) for r in result):
            for line in result:
                ctx.log(line)


class SessionAction(Action):
    """Apply ``fn(session, ctx)``, touching the listed ships (all when None)."""

    def __init__(self, name: str, fn: Callable[["Session", "ActionContext"], Any],
                 ships: Iterable[str] | None = None):
        self.name = name
        self.fn = fn
        self._ships = None if ships is None else tuple(ships)

    def touches(self, session: "Session") -> Iterable[str] | None:
        return self._ships

    def apply(self, session: "Session", ctx: "ActionContext") -> None:
        self.fn(session, ctx)


class Together(Action):
    """Two actions as one change, one undo step (the PBEM desk's players and the verifiable
    dice from this turn): named after the first; both checked and applied in order, and
    the second refusing takes the first back too (the session's snapshot holds both)."""

    def __init__(self, first: Action, second: Action):
        self.first, self.second = first, second
        self.name = first.name

    def touches(self, session: "Session"):
        a, b = self.first.touches(session), self.second.touches(session)
        return None if a is None or b is None else (*a, *b)

    def apply(self, session: "Session", ctx: "ActionContext") -> None:
        self.first.apply(session, ctx)
        self.second.apply(session, ctx)


def storable(text: str, what: str) -> str:
    """``text`` if a session file can hold it; refuses text that is no character (a lone
    surrogate, which a paste can bring), so every session that is made can be saved."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RuleViolation(f"{what} contains a character that cannot be saved.") from None
    return text


class AddShip(Action):
    def __init__(self, ship: "Ship", side: str | None = None):
        self.ship = ship
        self.side = side
        self.name = f"Add {ship.name}"
        self.ship_id = ship.id

    def touches(self, session):
        return (self.ship.id,)

    def apply(self, session, ctx):
        if self.ship.game != session.game:
            raise RuleViolation(
                f"{self.ship.name} is a {self.ship.ship_class.name} of another game "
                f"({self.ship.game}); this session plays {session.game}.")
        if any(s.id == self.ship.id for s in session.ships):
            raise RuleViolation(f"{self.ship.name} is already in this session.")
        storable(self.ship.name, "The ship's name")
        if self.side is not None:
            self.ship.side = storable(self.side, "The side").strip() or None
        session.ships.append(self.ship)
        # It joins with what it has: nothing of it counts as marked this turn.
        session.turn_start = {**session.turn_start, self.ship.id: clone(self.ship.state)}
        ctx.log(f"{self.ship.ship_class.name}" + (f", side {self.ship.side}" if self.ship.side else ""))


class RemoveShip(Action):
    def __init__(self, ship: "Ship"):
        self.ship_id = ship.id
        self.name = f"Remove {ship.name}"

    def apply(self, session, ctx):
        ship = session.ship(self.ship_id)
        session.ships.remove(ship)


class RenameShip(Action):
    def __init__(self, ship: "Ship", name: str):
        self.ship_id = ship.id
        self.new_name = name.strip()
        self.name = f"Rename {ship.name}"

    def apply(self, session, ctx):
        if not self.new_name:
            raise RuleViolation("A ship needs a name.")
        if len(self.new_name) > 80:
            raise RuleViolation("A ship's name can be at most 80 characters long.")
        storable(self.new_name, "The name")
        ship = session.ship(self.ship_id)
        ctx.log(f"{ship.name} is now {self.new_name}")
        ship.name = self.new_name


class SetSide(Action):
    def __init__(self, ship: "Ship", side: str | None):
        self.ship_id = ship.id
        self.side = (side or "").strip() or None
        self.name = f"Set side of {ship.name}"

    def apply(self, session, ctx):
        if self.side is not None:
            storable(self.side, "The side")
            if len(self.side) > 80:
                raise RuleViolation("A side can be at most 80 characters long.")
        ship = session.ship(self.ship_id)
        ship.side = self.side
        ctx.log(f"side: {self.side or 'none'}")


class NextPhase(Action):
    """Go to the next phase; past the last phase, end the turn and start the next."""

    name = "Next phase"

    def apply(self, session, ctx):
        phases = session.rules.phases
        index = phases.index(session.phase) if session.phase in phases else -1
        if index + 1 < len(phases):
            session.phase = phases[index + 1]
        else:
            check_turn_end(session)  # a turn by e-mail with verifiable dice: Close Turn only
            session.rules.end_turn(session, ctx)
            session.turn += 1
            session.phase = phases[0]
            session.start_turn_record()
        ctx.log(f"Turn {session.turn}, {session.phase}", kind="phase")
        session.rules.enter_phase(session, session.phase, ctx)


class NextTurn(Action):
    """Run through the turn's remaining phases and start the next turn."""

    name = "Next turn"

    def apply(self, session, ctx):
        turn = session.turn
        while session.turn == turn:
            NextPhase().apply(session, ctx)


class SetOption(Action):
    """Set a session option (a plain JSON value), e.g. a chart or ruleset choice."""

    def __init__(self, key: str, value: Any, name: str | None = None):
        self.key = key
        self.value = value
        self.name = name or f"Set {key}"

    def touches(self, session):
        return ()

    def apply(self, session, ctx):
        session.options[self.key] = self.value
        ctx.log(f"{self.key} = {self.value}")

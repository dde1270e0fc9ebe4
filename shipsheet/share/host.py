"""The referee's side of Table Link: revisions, and a phone's request turned into an action.

:class:`TableHost` runs on the **authority's thread** (the window's UI thread, or the
headless host's main thread), the one thread that changes the session. The server thread
reaches it only through :class:`Authority` (``call(fn)`` → a future), so a phone's tap
goes through the same path as a click: the rules check it first and refuse with their
own words, changing nothing, or it is applied as one undo step, logged with the seat.

What a tap on a box asks for is worked out *before* that, on the server's side, from the
snapshot the phone's sheet was drawn from (:func:`resolve`: the game's answer for the
box's key, ``model.boxes``): the authority's thread only checks that the ship is still at
that revision and applies the action — it never draws a sheet to learn what a tap means.

Revisions: each ship has a number that only goes up, bumped for the ships a change (or
its undo) touches, and the host has an ``epoch`` (random, new at every start). A request
names the revision its phone drew; one that no longer applies is refused and answered
with the current sheet. A request carries its own id: a retry of an id already answered
gets the first answer again, so it is applied once.
"""

from __future__ import annotations

import concurrent.futures
import secrets
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Callable, Protocol

from ..model.actions import Action, NextPhase, NextTurn
from ..model.boxes import box_answer
from ..model.decisions import DECIDE, MARK
from ..model.errors import RuleViolation
from ..model.games import piece
from ..model.words import possessive
from .seats import Seat, not_yours
from .snapshot import Snapshot, take

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Session
    from ..model.session import Change

#: Answers kept for retries (a phone retries within seconds; this is hours of taps).
ANSWERS_KEPT = 20000
#: A request's kinds (PROTOCOL.md, Requests).
KINDS = ("tap", "menu", "decide", "undo", "phase", "revoke")
#: The kinds that point at a box of a sheet.
BOX_KINDS = ("tap", "menu")
#: Every kind about one ship, turned into its action from the snapshot (:func:`resolve`).
SHIP_KINDS = BOX_KINDS + ("decide",)


class Authority(Protocol):
    """What the server needs of the thread that owns the session: ``call(fn)`` runs ``fn``
    there, may be used from any thread, and returns a ``concurrent.futures.Future``
    (``authority.QtAuthority`` is the one the window and ``shipsheet serve`` use)."""

    def call(self, fn: Callable[[], Any]) -> concurrent.futures.Future: ...


class FromSeat(Action):
    """A seat's request, applied as the action it asked for, named with the seat: the log
    reads "Mark drive box — Blue's phone", and so does the window's Undo."""

    def __init__(self, inner: Action, seat: Seat):
        self.inner = inner
        self.seat_id = seat.id
        self.seat_name = seat.name
        self.name = f"{inner.name} — {possessive(seat.name)} phone"
        self.ship_id = inner.ship_id
        self.private = inner.private  # a private decision stays one (model/privacy.py)

    def touches(self, session):
        return self.inner.touches(session)

    def apply(self, session, ctx):
        self.inner.apply(session, ctx)


def qr_rows(text: str) -> list[str]:
    """``text`` as a QR code (segno, error correction M), one string of "1" (dark) and "0"
    per row, with no border: the referee's phone draws it as SVG rectangles."""
    import segno
    return ["".join("1" if cell else "0" for cell in row)
            for row in segno.make(text, error="m").matrix]


class Refused(Exception):
    """A request refused before the rules were asked (stale, forbidden, malformed)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _seen_ship(session: "Session", seat: Seat, request: dict):
    """The ship the request names, if the seat sees it (404 otherwise)."""
    ship_id = request.get("ship")
    ship = next((s for s in session.ships if s.id == ship_id), None) \
        if isinstance(ship_id, str) else None
    if ship is None or not seat.sees(ship):
        raise Refused(404, "There is no such ship at your seat.")
    return ship


def _stale(ship) -> Refused:
    return Refused(409, f"{ship.name} has changed since your phone drew it: "
                        "here is the current sheet. Look, and tap again.")


class Resolved:
    """A tap or menu request resolved from a snapshot: the action it asks for at the
    ship's revision then, or the refusal (raised again on the authority's thread)."""

    __slots__ = ("ship_id", "rev", "action", "error")

    def __init__(self, ship_id: str | None, rev: int | None, action: Action | None = None,
                 error: Exception | None = None):
        self.ship_id = ship_id
        self.rev = rev
        self.action = action
        self.error = error


def resolve(snapshot: "Snapshot", seat: Seat, request: Any,
            drawn: "frozenset[str] | None" = None) -> Resolved:
    """What a phone's request about one ship asks for, worked out from ``snapshot`` alone,
    on any thread: a tap ("tap") or menu entry ("menu") on a box — the box's answer from
    the game's rules for its key, the right it needs, its refusal, its menu — or a filled
    form ("decide", the game's decisions piece). ``drawn``: the keys of the sheet as the
    phone was sent it (a key not drawn there is no box). Never raises: a refusal is kept
    in :attr:`Resolved.error`."""
    if not isinstance(request, dict):
        return Resolved(None, None, error=Refused(400, "A request is a JSON object."))
    ship_id, rev = request.get("ship"), request.get("rev")
    try:
        if request.get("kind") == "decide":
            return Resolved(ship_id, rev, _decision_action(snapshot, seat, request))
        return Resolved(ship_id, rev, _box_action(snapshot, seat, request, drawn))
    except (Refused, RuleViolation) as exc:
        return Resolved(ship_id, rev, error=exc)


def _decision_action(snapshot: "Snapshot", seat: Seat, request: dict) -> Action:
    session = snapshot.session
    ship = _seen_ship(session, seat, request)
    if request.get("rev") != snapshot.revs.get(ship.id):
        raise _stale(ship)
    if not (seat.may(DECIDE) and seat.owns(ship)):
        raise Refused(403, not_yours(DECIDE, ship.name))
    form = request.get("form")
    if not isinstance(form, str):
        raise Refused(400, "A decision names its form.")
    return piece(ship.game, "decisions").action(session, ship, form, request.get("values", {}))


def _box_action(snapshot: "Snapshot", seat: Seat, request: dict,
                drawn: "frozenset[str] | None") -> Action:
    session = snapshot.session
    ship = _seen_ship(session, seat, request)
    if request.get("rev") != snapshot.revs.get(ship.id):
        raise _stale(ship)
    key = request.get("key")
    if not isinstance(key, str) or len(key) > 200:
        raise Refused(400, "A tap names the box it was on.")
    answer = box_answer(session, ship, key) if drawn is None or key in drawn else None
    if answer is None:
        raise Refused(404, f"There is no such box on {ship.name}'s sheet.")
    # A tap needs what the game says (deciding or marking); a box's menu holds corrections
    # of marks, so it is the markers' (the referee's by default).
    kind = request.get("kind")
    right = answer.right if kind == "tap" else MARK
    if not (seat.may(right) and seat.owns(ship)):
        raise Refused(403, not_yours(right, ship.name))
    if kind == "tap":
        if answer.refusal:
            raise RuleViolation(answer.refusal)
        if answer.click is None:
            raise RuleViolation("Nothing happens when this box is tapped.")
        return answer.click()
    index = request.get("index")
    entries = answer.menu if answer.has_menu() else []
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(entries):
        raise Refused(400, "That menu entry is not there (any more).")
    return entries[index][1]()


class TableHost:
    """Keeps revisions and snapshots, and applies seats' requests.

    ``apply(action) -> Change`` applies an action the way the window does (one undo step;
    raises RuleViolation); ``undo(step) -> Change`` undoes the step the referee's phone
    named (``Change.seq``; RuleViolation if another is last now).
    ``publish(snapshot)`` hands each new snapshot to the server (any thread-safe call)."""

    def __init__(self, session: "Session", apply: Callable[[Action], "Change"],
                 undo: Callable[[int], Any] | None = None,
                 durable: Callable[[], concurrent.futures.Future] | None = None):
        self.session = session
        #: ``durable()``: a future done once every change so far is on disk (the journal).
        self._durable = durable
        #: The link of a seat (``TableLink.url``): a new link is shown on the referee's phone.
        self.link_of: Callable[[Seat], str] | None = None
        #: Words for every phone (a recovery after a crash), "" when none.
        self.notice = ""
        self._apply = apply
        self._undo = undo
        #: Set by ``TableLink.start`` to ``TableServer.publish`` (the server needs this
        #: host's first snapshot to be made).
        self.publish: Callable[[Snapshot], None] = lambda snapshot: None
        #: Revokes a seat (``TableLink.revoke``): the referee's seat may do it from a phone.
        self.revoke: Callable[[str], Any] | None = None
        self.epoch = secrets.token_urlsafe(6)
        self.revs: dict[str, int] = {s.id: 1 for s in session.ships}
        self.seq = 0
        self._answers: OrderedDict[tuple[str, str], tuple[int, dict]] = OrderedDict()
        self._listener = self._on_change
        session.subscribe(self._listener)
        self.snapshot = self._take()

    def close(self) -> None:
        self.session.unsubscribe(self._listener)

    def durable(self) -> concurrent.futures.Future | None:
        """A future done once every change made so far (the one just answered included) is
        on disk, or None when nothing is journalled. Call on the authority's thread."""
        return self._durable() if self._durable is not None else None

    # -- revisions and snapshots ---------------------------------------------------
    def _on_change(self, change: "Change | None") -> None:
        touched = None if change is None else change.action.touches(self.session)
        # No ship's state (an option: standard combat, a chart) may still change how every
        # sheet is drawn: every phone draws its sheets again, as for a change to all ships.
        ids = [s.id for s in self.session.ships] if not touched else list(touched)
        for ship in self.session.ships:
            if ship.id not in self.revs:
                self.revs[ship.id] = 0
        for ship_id in ids:
            self.revs[ship_id] = self.revs.get(ship_id, 0) + 1
        self.snapshot = self._take()
        self.publish(self.snapshot)

    def _take(self) -> Snapshot:
        self.seq += 1
        status = self.session.undo_status() if self._undo is not None else None
        return take(self.session, self.epoch, self.seq, self.revs,
                    status.undo if status else None, status.step if status else 0,
                    previous=getattr(self, "snapshot", None))

    # -- requests ---------------------------------------------------------------------
    def handle(self, seat: Seat, request: Any, resolved: Resolved | None = None) -> tuple[int, dict]:
        """Answer one request of ``seat`` (already authenticated): (HTTP status, answer).
        Runs on the authority's thread; never raises for anything a phone can send.
        ``resolved``: a tap's, menu's or decision's :func:`resolve` (made by the server from
        its snapshot); without it such a request is answered as stale."""
        if not isinstance(request, dict):
            return 400, {"ok": False, "error": "A request is a JSON object."}
        req_id = request.get("id")
        if not isinstance(req_id, str) or not 8 <= len(req_id) <= 64 or not all(
                c.isascii() and (c.isalnum() or c in "-_") for c in req_id):
            return 400, {"ok": False, "error": "A request needs an id of 8 to 64 letters, digits, - or _."}
        key = (seat.id, req_id)
        if key in self._answers:
            return self._answers[key]
        try:
            answer = 200, self._handle(seat, request, resolved)
        except Refused as exc:
            answer = exc.status, {"ok": False, "error": str(exc)}
        except RuleViolation as exc:
            answer = 200, {"ok": False, "error": str(exc)}
        if answer[0] not in (400, 409):
            # Stale or malformed requests are not remembered: the phone may send the same
            # id again once it has the current sheet.
            self._answers[key] = answer
            while len(self._answers) > ANSWERS_KEPT:
                self._answers.popitem(last=False)
        return answer

    def _handle(self, seat: Seat, request: dict, resolved: Resolved | None) -> dict:
        kind = request.get("kind")
        if kind not in KINDS:
            raise Refused(400, f"A request's kind is one of {', '.join(KINDS)}.")
        if request.get("epoch") != self.epoch:
            raise Refused(409, "The referee's ShipSheet has restarted since your phone drew "
                               "this sheet: here is the current one.")
        if kind == "undo":
            return self._handle_undo(seat, request)
        if kind in ("phase", "revoke"):
            return self._handle_referee(seat, kind, request)
        ship = _seen_ship(self.session, seat, request)
        rev = request.get("rev")
        if rev != self.revs.get(ship.id):
            raise _stale(ship)
        # Resolved from the snapshot at this very revision: what the phone saw is what the
        # rules answered (the live ship is the same until its revision moves).
        if resolved is None or resolved.ship_id != ship.id or resolved.rev != rev:
            raise _stale(ship)
        if resolved.error is not None:
            raise resolved.error
        action = resolved.action
        change = self._apply(FromSeat(action, seat))
        return {"ok": True, "message": change.name}

    def _handle_referee(self, seat: Seat, kind: str, request: dict) -> dict:
        """What only the referee's seat does from a phone: the next phase or turn (as the
        window's buttons), and a new link for a seat (its phones are closed out)."""
        if not seat.may("admin"):
            raise Refused(403, "Only the referee's seat may do that.")
        if kind == "phase":
            step = request.get("step")
            if step not in ("phase", "turn"):
                raise Refused(400, 'A phase request steps to the next "phase" or "turn".')
            change = self._apply(FromSeat(NextPhase() if step == "phase" else NextTurn(), seat))
            return {"ok": True, "message": change.name}
        target = request.get("seat")
        if not isinstance(target, str) or self.revoke is None:
            raise Refused(400, "A revoke names the seat.")
        if target == seat.id:
            raise Refused(400, "The referee's own seat is given a new link from the window.")
        try:
            revoked = self.revoke(target)
        except RuleViolation as exc:
            raise Refused(404, str(exc)) from None
        answer = {"ok": True, "message": f"New link for {revoked.name}: their phones are closed out."}
        if self.link_of is not None:
            url = self.link_of(revoked)
            answer["link"] = {"seat": revoked.id, "name": revoked.name, "url": url,
                              "qr": qr_rows(url)}
        return answer

    def _handle_undo(self, seat: Seat, request: dict) -> dict:
        """The referee's phone undoes the step its button named (``undo_step``, the snapshot's),, never one that arrived after it drew it."""
        if not seat.may("undo") or self._undo is None:
            raise Refused(403, "Only the referee's seat may undo.")
        step = request.get("undo_step")
        if isinstance(step, bool) or not isinstance(step, int):
            raise Refused(400, "An undo names the step it takes back.")
        last = self.session.undo_step()
        if last is None:
            raise RuleViolation("There is nothing to undo.")
        if last.seq != step:
            raise Refused(409, f"Not undone: the last step is now “{last.name}”. Look, and "
                               "undo again if that is the one.")
        change = self._undo(step)
        return {"ok": True, "message": f"Undone: {change.name}"}

"""Allocating a volley: shield, burn-through, the Damage Allocation Chart and the DDAP.

:func:`allocate_volley` works out every point and changes nothing;
:func:`apply_volley` writes a result onto the ship (through an action in a
session, one undo step).
"""

from __future__ import annotations

from dataclasses import field
from ...model.code_cache import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from shipsheet.model.dice import check_die
from shipsheet.model.errors import RuleViolation

from .chart import COLUMNS, FRAME, Chart, default_chart, get_chart
from .overrides import Overrides, Resolved, as_overrides, orders_of, resolve
from .precedence import KindQueue, build_queue, roll_die
from .card import card
from .state import shield_left

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

#: Outcomes of one allocation attempt.
HIT, FRAME_HIT, SKIPPED, LOST = "hit", "frame", "skipped", "lost"
#: [FC] "A volley of 10 or more that does not penetrate still scores exactly one
#: internal point (burn-through)."
BURN_THROUGH_MIN = 10
MAX_VOLLEY = 10_000


@dataclass(slots=True)
class VolleyPoint:
    """One allocation attempt of one internal point."""

    point: int                 # the point's number in the volley's internal damage (1-based)
    attempt: int               # 1, or 2 when a skipped point is re-allocated
    group: int                 # the group of up to 10 points (one die roll each), 1-based
    roll: int | None           # the d6 that chose the row (None: not rolled, ship destroyed)
    row: int | None
    column: int | None
    cell: str                  # the chart cell, e.g. "torpedo/lab" ("" when not rolled)
    box: str | None            # the box id hit, "frame", or None
    outcome: str               # hit, frame, skipped, lost
    reason: str                # why, in words

    def line(self, volley: int | None = None, *, public: bool = False) -> str:
        """The moderator's log line for this point; ``public``: as those who do not own the
        ship read it (an order that placed the box is "the owner's standing order":
        house rule FC-H15)."""
        head = f"Volley {volley}, point {self.point}" if volley else f"Point {self.point}"
        if self.attempt > 1:
            head += " (re-allocated)"
        if self.roll is None:
            where = "not rolled"
        else:
            where = f"roll {self.roll}, row {self.row}, column {self.column}, {self.cell}"
        if self.outcome == HIT:
            what = f"{self.box} hit"
        elif self.outcome == FRAME_HIT:
            what = "frame"
        else:
            what = self.outcome
        reason = self.reason
        if public:
            from .privacy import public_reason
            reason = public_reason(reason)
        return f"{head}: {where}: {what} ({reason})"

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}


@dataclass
class VolleyResult:
    """A volley worked out against a ship: every point and why. Changes nothing by itself."""

    ship_id: str
    damage: int
    shield: int | None
    shield_points: int         # boxes of the shield destroyed
    internal: int              # internal points allocated on the chart
    burn_through: bool
    chart: str                 # the chart's name
    points: list[VolleyPoint] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    hits: list[str] = field(default_factory=list)      # box ids destroyed, in order
    frame_hits: int = 0        # frame boxes destroyed
    destroys_ship: bool = False
    rolls: list[int] = field(default_factory=list)     # the DAC row rolls used, in order
    typed: int = 0             # how many of ``rolls`` (the first ones) were typed in

    def dice_words(self) -> str:
        """How the DAC rows were rolled, as the log's headline says it (as Triplanetary's):
        " (dice rolled)", " (dice typed in)", " (dice rolled and typed in)", or "" (none)."""
        if not self.rolls:
            return ""
        if not self.typed:
            return " (dice rolled)"
        return " (dice typed in)" if self.typed >= len(self.rolls) else " (dice rolled and typed in)"

    @property
    def skipped(self) -> int:
        return sum(1 for p in self.points if p.outcome == SKIPPED)

    @property
    def lost(self) -> int:
        return sum(1 for p in self.points if p.outcome == LOST)

    def summary(self) -> str:
        """One line: what the volley did."""
        bits = [f"{self.damage} damage"]
        if self.shield is not None:
            bits.append(f"shield #{self.shield} took {self.shield_points}")
        if self.burn_through:
            bits.append("burn-through: 1 internal")
        else:
            bits.append(f"{self.internal} internal")
        if self.internal:
            n = len(self.hits)
            bits.append(f"{n} box{'es' if n != 1 else ''} hit, frame {self.frame_hits}")
            if self.skipped:
                bits.append(f"{self.skipped} skipped")
            if self.lost:
                bits.append(f"{self.lost} lost")
        if self.destroys_ship:
            bits.append("SHIP DESTROYED")
        return "; ".join(bits)

    def lines(self, volley: int | None = None) -> list[str]:
        """The moderator's log: a summary (with how the dice came), one line per point,
        then the notes."""
        return [text for text, _private, _public in self.logged(volley)]

    def logged(self, volley: int | None = None) -> list[tuple[str, str | None, str | None]]:
        """:meth:`lines` as the log keeps them: (line, the kind of private decision it
        tells of or None, how others read it). [FC-H15] A point an order placed reads
        "the owner's standing order" for others; a note on the orders, nothing."""
        from .privacy import ORDERS
        out: list[tuple[str, str | None, str | None]] = [
            (self.summary() + self.dice_words(), None, None)]
        for p in self.points:
            text, public = p.line(volley), p.line(volley, public=True)
            out.append((text, ORDERS, public) if public != text else (text, None, None))
        out.extend((f"Note: {n}", ORDERS, None) for n in self.notes)
        return out


def _chart(chart: "Chart | str | None") -> Chart:
    if chart is None:
        return default_chart()
    if isinstance(chart, Chart):
        return chart
    if isinstance(chart, str):
        return get_chart(chart)
    raise RuleViolation(f"A chart must be a Chart or a chart id, not {type(chart).__name__}.")


def standing_orders(ship: "Ship") -> Overrides:
    """The ship's standing orders for this turn (empty when none were given)."""
    return orders_of(ship)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _dice(rolls: Iterable[int] | None, rng: Any, internal: int = 0) -> Iterator[int]:
    """The DAC row rolls: the physical ``rolls`` in order, or else ``rng`` (issue 6).

    Typed rolls are never topped up from ``rng`` (issue 31: a 12-point volley with one
    typed roll once took the second from the session dice, said in one sentence): when
    the typed rolls run out, RuleViolation says how many the volley needs. ``internal``:
    the volley's internal points, for the words (one roll per group of up to 10)."""
    if rolls is None:
        group = 0
        while True:
            group += 1
            if rng is None:
                raise RuleViolation(
                    f"This volley needs a DAC row roll for group {group} and no roll is left: "
                    f"type in the rolls or let the dice roll.")
            yield roll_die(rng, 6, f"DAC row, group {group}")
    checked = [check_die(r, 6, "a DAC row") for r in rolls]
    yield from checked
    typed = len(checked)
    first = -(-internal // COLUMNS)  # the first pass's groups of up to 10 points
    was = "was" if typed == 1 else "were"
    if typed < first:
        raise RuleViolation(
            f"This volley needs {_plural(first, 'DAC roll')} ({internal} internal points: one "
            f"per group of up to {COLUMNS}) and {typed} {was} typed: type "
            f"{first - typed} more, or roll them all with the session dice.")
    raise RuleViolation(
        f"This volley needs a DAC roll for group {typed + 1} (points skipped are allocated "
        f"again, one roll per group) and {typed} {was} typed: type 1 more, or roll them all "
        f"with the session dice.")


def allocate_volley(ship: "Ship", points: int, *, rolls: Iterable[int] | None = None,
                    shield: int | None = None, overrides: "Overrides | dict | None" = None,
                    chart: "Chart | str | None" = None, rng: Any = None) -> VolleyResult:
    """Work out a volley of ``points`` damage against ``ship``; change nothing.

    ``shield`` (1..6) is the shield facing the volley, or None for internal
    damage only. ``rolls`` are physical DAC row rolls, used in order (one per
    group of up to 10 points, re-allocated groups included); leftovers are
    ignored; too few are refused (RuleViolation: how many the volley needs), never
    topped up. ``rolls`` None: ``rng`` rolls every row (the session dice, or any object
    with ``randint``). ``overrides`` None means the ship's standing orders for this
    turn. ``chart`` is a Chart or chart id; None means the training chart.
    """
    spec = card(ship)
    st = ship.state
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise RuleViolation(f"A volley's damage is a whole number of points, not {points!r}.")
    if points > MAX_VOLLEY:
        raise RuleViolation(f"A volley of {points} points is more than ShipSheet allocates at once "
                            f"(at most {MAX_VOLLEY}).")
    if st["ship_destroyed"]:
        raise RuleViolation(f"{ship.name} is already destroyed.")
    the_chart = _chart(chart)
    orders = standing_orders(ship) if overrides is None else as_overrides(overrides)
    typed_rolls = None if rolls is None else list(rolls)
    rolls = typed_rolls or []

    # -- the shield [FC] ------------------------------------------------------------
    internal = points
    shield_points = 0
    burn = False
    if shield is not None:
        left = shield_left(ship, shield)  # refuses a shield number outside 1..6
        if points > left:
            shield_points, internal = left, points - left
        elif points >= BURN_THROUGH_MIN:
            # [FC] burn-through: "A volley of 10 or more that does not penetrate still
            # scores exactly one internal point." [FC-H12] (a published rules answer) 20
            # points on a 20-box shield: 19 to the shield and 1 burn-through point.
            shield_points, internal, burn = points - 1, 1, True
        else:
            shield_points, internal = points, 0
    result = VolleyResult(ship.id, points, shield, shield_points, internal, burn, the_chart.name)
    if not internal:
        return result
    dice = _dice(typed_rolls, rng, internal)

    resolved = resolve(spec, st["destroyed"], orders)
    result.notes.extend(resolved.notes)
    gone = set(st["destroyed"])
    queues: dict[str, KindQueue] = {}
    by_kind = spec.by_kind
    fil = resolved.frame_instead_of_last
    fis = resolved.frame_instead_of_skip
    frame_left = spec.frame - st["frame_hits"]
    out = result.points
    hits = result.hits
    used_rolls = result.rolls
    noted: set[str] = set()

    def queue(kind: str) -> KindQueue | None:
        q = queues.get(kind)
        if q is None:
            if kind not in by_kind:
                return None
            q = queues[kind] = build_queue(spec, kind, st, resolved, gone)
        return q

    def note_once(text: str) -> None:
        if text not in noted:
            noted.add(text)
            result.notes.append(text)

    def hit(kind: str, lead: str) -> tuple[str, str, str] | None:
        """Hit a box of ``kind`` if one is intact: (outcome, box, reason), else None."""
        nonlocal frame_left
        q = queue(kind)
        if q is None or not q.left:
            return None
        if q.left == 1 and kind in fil:
            if frame_left > 0:
                # [seed 8FC2] "the player can use (8FC3) to override this rule and take
                # frame damage in place of the last box of certain systems"
                frame_left -= 1
                return FRAME_HIT, FRAME, ((f"{lead}; " if lead else "")
                                          + f"frame instead of the last {kind} (standing order)")
            # [FC-H6] "Frame as the last resort": not applied when it would destroy the ship.
            note_once(f"frame_instead_of_last: \"{kind}\" not applied to the last {kind}: "
                      f"no frame box is left, so frame damage would destroy the ship.")
        box_id, why = q.take(rng)
        gone.add(box_id)
        hits.append(box_id)
        return HIT, box_id, (f"{lead}; {why}" if lead else why)

    pending = list(range(1, internal + 1))
    attempt = 1
    group = 0
    destroyed = False
    while pending:
        skipped: list[int] = []
        for start in range(0, len(pending), COLUMNS):
            group_points = pending[start:start + COLUMNS]
            group += 1
            if destroyed:
                for p in group_points:
                    out.append(VolleyPoint(p, attempt, group, None, None, None, "", None, LOST,
                                           "the ship was destroyed by an earlier point"))
                continue
            roll = next(dice)
            used_rolls.append(roll)
            cells = the_chart.rows[roll - 1]
            for column, p in enumerate(group_points, start=1):
                if destroyed:
                    out.append(VolleyPoint(p, attempt, group, roll, roll, column,
                                           cells[column - 1].text, None, LOST,
                                           "the ship was destroyed by an earlier point"))
                    continue
                cell = cells[column - 1]
                primary, alt = cell.primary, cell.alternate
                # [seed 8FC2] primary kind if a box is intact; else the alternate.
                got = hit(primary, "")
                if got is None and alt is not None:
                    if alt == FRAME:
                        # [seed 8FC2] "Frame damage will only be scored (by this procedure)
                        # as the alternate to the last damage point"
                        if frame_left > 0:
                            frame_left -= 1
                            got = (FRAME_HIT, FRAME,
                                   f"no {primary} left; column {COLUMNS}'s alternate is frame")
                        else:
                            # [FC] "Destroyed: a frame hit when every frame box is already
                            # destroyed"; [FC-H6] "Frame as the last resort".
                            got = FRAME_HIT, FRAME, (f"no {primary} left; column {COLUMNS}'s "
                                                    f"alternate is frame, and no frame is left: "
                                                    f"the ship is destroyed")
                            destroyed = True
                    else:
                        got = hit(alt, f"no {primary} left; alternate {alt}")
                if got is None:
                    why = f"no {primary} left" + (f" and no {alt} left" if alt else "")
                    if fis:
                        if frame_left > 0:
                            # [seed 8FC2] "...or instead of skipping a damage point."
                            frame_left -= 1
                            got = (FRAME_HIT, FRAME,
                                   f"{why}; frame instead of skipping (standing order)")
                        else:
                            # [FC-H6] "Frame as the last resort".
                            note_once("frame_instead_of_skip not applied: no frame box is left, "
                                      "so frame damage would destroy the ship.")
                if got is None:
                    if attempt == 1:
                        # [seed 8FC2] "the damage point will be skipped instead of scoring
                        # frame damage"; [FC] re-allocated at the end of the volley.
                        skipped.append(p)
                        out.append(VolleyPoint(
                            p, attempt, group, roll, roll, column, cell.text, None, SKIPPED,
                            f"{why}; skipped, re-allocated after the last point"))
                    else:
                        # [FC-H3] a point skipped a second time is lost.
                        out.append(VolleyPoint(p, attempt, group, roll, roll, column, cell.text,
                                               None, LOST, f"{why}; skipped a second time: lost"))
                    continue
                outcome, box, reason = got
                out.append(VolleyPoint(p, attempt, group, roll, roll, column, cell.text,
                                       box, outcome, reason))
        pending = skipped
        attempt += 1
        if attempt > 2:
            break

    frames = sum(1 for p in out if p.outcome == FRAME_HIT)
    result.frame_hits = min(frames, spec.frame - st["frame_hits"])
    result.destroys_ship = destroyed
    result.typed = min(len(rolls), len(used_rolls))  # typed rolls come first (_dice)
    return result


def hit_order(ship: "Ship", kind: str, *, overrides: "Overrides | dict | None" = None,
              rng: Any = None) -> list[str]:
    """The intact box ids of ``kind`` in the order the DDAP would hit them [seed 8FC4].

    The kind's 8FC4 line with the turn states, then the most restricted arc,
    then ``rng`` (random tie-breaks; with ``rng=None`` the last ties fall in
    card order). ``overrides`` None means the ship's standing orders.
    """
    return [box_id for box_id, _ in explain_order(ship, kind, overrides=overrides, rng=rng)[0]]


def explain_order(ship: "Ship", kind: str, *, overrides: "Overrides | dict | None" = None,
                  rng: Any = None, resolved: "Resolved | None" = None
                  ) -> tuple[list[tuple[str, str]], list[str]]:
    """Like :func:`hit_order`, with the reason for each place and the notes on the orders.
    ``resolved``: the orders already checked against the ship as it is now
    (:func:`resolved_orders`), by a caller asking for several kinds at once."""
    spec = card(ship)
    if resolved is None:
        resolved = resolved_orders(ship, overrides)
    q = build_queue(spec, kind, ship.state, resolved)
    out = []
    while q.left:
        out.append(q.take(rng))
    return out, resolved.notes


def resolved_orders(ship: "Ship", overrides: "Overrides | dict | None" = None) -> "Resolved":
    """``overrides`` (None: the ship's standing orders) checked against the ship as it is
    now [seed 8FC3]: what :func:`explain_order` applies to every kind."""
    orders = standing_orders(ship) if overrides is None else as_overrides(overrides)
    return resolve(card(ship), ship.state["destroyed"], orders)


def volley_number(session: "Session | None", ship: "Ship") -> int:
    """The number the ship's next volley has in this turn (1 for the turn's first): the
    volleys it has taken since the turn began, plus one."""
    taken = ship.state.get("volleys", 0)
    start = session.turn_start_state(ship).get("volleys", 0) if session is not None else 0
    return max(1, taken - start + 1)


def apply_volley(ship: "Ship", result: VolleyResult, number: int | None = None) -> list[str]:
    """Write an allocated volley onto the ship; return the log lines (checked first).
    ``number``: the volley's number in the turn (:func:`volley_number`; default: of all
    the volleys the ship has taken)."""
    spec = card(ship)
    st = ship.state
    if result.ship_id != ship.id:
        raise RuleViolation("This volley was allocated against another ship.")
    if st["ship_destroyed"]:
        raise RuleViolation(f"{ship.name} is already destroyed.")
    gone = set(st["destroyed"])
    stale = [b for b in result.hits if b in gone or b not in spec.box_index]
    if stale or len(set(result.hits)) != len(result.hits):
        raise RuleViolation("The ship changed since this volley was worked out "
                            f"({', '.join(stale) or 'a box is hit twice'}); allocate it again.")
    if result.shield is not None:
        left = shield_left(ship, result.shield)
        if result.shield_points > left:
            raise RuleViolation(f"Shield #{result.shield} has only {left} boxes left; the "
                                "ship changed since this volley was worked out: allocate it again.")
    if result.frame_hits > spec.frame - st["frame_hits"]:
        raise RuleViolation("The ship changed since this volley was worked out; allocate it again.")
    # -- checks done; change the ship --
    st["volleys"] += 1
    if result.shield is not None:
        st["shield_damage"][result.shield - 1] += result.shield_points
    st["destroyed"].extend(result.hits)
    for box_id in result.hits:
        st["turn"].pop(box_id, None)
    st["frame_hits"] += result.frame_hits
    if result.destroys_ship:
        st["ship_destroyed"] = True
    return result.lines(number or st["volleys"])


__all__ = ["BURN_THROUGH_MIN", "FRAME_HIT", "HIT", "LOST", "SKIPPED", "VolleyPoint",
           "VolleyResult", "allocate_volley", "apply_volley", "explain_order", "hit_order", "resolved_orders",
           "volley_number",
           "standing_orders"]

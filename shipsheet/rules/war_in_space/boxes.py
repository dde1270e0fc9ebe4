"""The boxes of a War In Space Ship Data Sheet (SDS): their keys, and what each is and does.

The sheet (``sheets/war_in_space.py``) places these boxes, each key named here once:

- ``box:<i>:<k>`` (:func:`box_key`): damage box ``k`` (from 0) of energy system ``i`` (from
  0, the SDS's order). A click marks the system's next box ([seed] each mark steps its die
  one type down; boxes are marked left to right, marks are a count); a marked box is
  refused with the words of the rules (repaired only by Damage Control, 4 energy a box
  [seed]) and its menu corrects the mark [WIS-H10]. A damage mark: the referee's (MARK).
- ``crit:<suit>`` (:func:`critical_key`, suit ``spades`` … ``clubs``): the suit's critical
  box. A click marks it (the suit's cards are locked out of Energy Allocation, a Joker never
  [WIS-H4]); a marked one is refused (repaired by Damage Control, 8 energy [seed]) and its
  menu corrects the mark [WIS-H10]. A damage mark (MARK).
- ``ladder:<i>`` (:func:`ladder_key`): system ``i``'s die ladder, hover only [WIS-H2].
- ``rolled:<i>`` (:func:`rolled_key`): the die system ``i`` rolled this turn, hover only; the
  owner's turn record (DECIDE).
- :data:`ENERGY_KEY` (this turn's energy cells), :data:`REPAIRS_KEY` (the planned repairs,
  drawn when some are planned [WIS-H9]): hover only, the owner's (DECIDE).
- :data:`TERTIARY_KEY` (the suit table's Tertiary column [WIS-H3]), :data:`DEAD_KEY` ("dead
  in space", drawn when it is [WIS-H11]), :data:`LOST_KEY` (unspent energy is lost
  [WIS-H7]): hover only (MARK, as every box that is not the owner's record).

:class:`WarInSpaceBoxes` answers for any of them (``model.boxes``) with the words the sheet
has always shown and the rules' own action builders (``actions.py``); any other string — a
phone may send anything — has no answer (None). Pure Python, no Qt.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from shipsheet.model.boxes import BoxAnswer, GameBoxes, key_number
from shipsheet.model.decisions import DECIDE, MARK

from .actions import correct_mark_action, mark_critical_action, mark_system_box_action
from .damage import current_die, die_label, is_dead_in_space, locked_suits, marked_boxes
from .definition import spec_of
from .energy import committed_allocation, committed_sides, rolled_dice
from .game import DAMAGE_CONTROL_PHASE
from .house_rules import house_rule
from .repairs import BOX_COST, CRITICAL_COST, RepairPlan, planned_repairs
from .terms import SUIT_SYMBOLS, SUITS, parse_card

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

#: The sorts of key that carry a number or a suit (the part before the first ":").
BOX, CRITICAL, LADDER, ROLLED = "box", "crit", "ladder", "rolled"
#: The keys of the sheet's single areas (each also its own sort in :func:`parse_key`).
TERTIARY_KEY = "tertiary"
DEAD_KEY = "dead"
ENERGY_KEY = "energy"
REPAIRS_KEY = "repairs"
LOST_KEY = "lost"
_SINGLE = (TERTIARY_KEY, DEAD_KEY, ENERGY_KEY, REPAIRS_KEY, LOST_KEY)
_SEP = ":"
#: The most digits a number of a key may have (three systems, a handful of boxes each).
_DIGITS = 3


def box_key(system: int, k: int) -> str:
    """The key of damage box ``k`` (from 0) of energy system ``system`` (from 0): ``box:1:2``."""
    return f"{BOX}{_SEP}{system}{_SEP}{k}"


def critical_key(suit: str) -> str:
    """The key of the suit's critical box (``suit`` as ``terms.SUITS`` names it): ``crit:clubs``."""
    return f"{CRITICAL}{_SEP}{suit}"


def ladder_key(system: int) -> str:
    """The key of system ``system``'s die ladder (from 0): ``ladder:0``."""
    return f"{LADDER}{_SEP}{system}"


def rolled_key(system: int) -> str:
    """The key of the die system ``system`` (from 0) rolled this turn: ``rolled:2``."""
    return f"{ROLLED}{_SEP}{system}"


def parse_key(key: object) -> tuple | None:
    """What a key names, by its form alone (not checked against a ship): ``(BOX, i, k)``,
    ``(CRITICAL, suit)``, ``(LADDER, i)``, ``(ROLLED, i)``, or ``(key,)`` for the single
    areas (:data:`TERTIARY_KEY` …); None for anything else."""
    if not isinstance(key, str):
        return None
    if key in _SINGLE:
        return (key,)
    sort, sep, rest = key.partition(_SEP)
    if not sep:
        return None
    if sort == CRITICAL:
        return (CRITICAL, rest) if rest in SUITS else None
    if sort == BOX:
        first, sep, second = rest.partition(_SEP)
        i, k = key_number(first, _DIGITS), key_number(second, _DIGITS)
        return None if not sep or i is None or k is None else (BOX, i, k)
    if sort in (LADDER, ROLLED):
        i = key_number(rest, _DIGITS)
        return None if i is None else (sort, i)
    return None


class WarInSpaceBoxes(GameBoxes):
    """The answers for the SDS's boxes (see the module's docstring)."""

    def answer(self, session: "Session | None", ship: "Ship", key: str) -> BoxAnswer | None:
        parsed = parse_key(key)
        if parsed is None:
            return None
        systems = spec_of(ship).systems
        sort = parsed[0]
        if sort == BOX:
            _, i, k = parsed
            if i >= len(systems) or k >= systems[i].boxes:
                return None
            return _box_answer(ship, i, k)
        if sort == CRITICAL:
            return _critical_answer(ship, parsed[1])
        if sort in (LADDER, ROLLED):
            i = parsed[1]
            if i >= len(systems):
                return None
            return _ladder_answer(ship, i) if sort == LADDER else _rolled_answer(ship, i)
        if sort == TERTIARY_KEY:
            return _tertiary_answer()
        if sort == DEAD_KEY:
            return _dead_answer() if is_dead_in_space(ship) else None
        if sort == ENERGY_KEY:
            return _energy_answer(ship)
        if sort == REPAIRS_KEY:
            plan = planned_repairs(ship)
            return None if plan is None or plan.is_empty else _repairs_answer(ship, plan)
        return _lost_answer()  # LOST_KEY: the last of the single areas


# -- what the sheet shows this turn (the drawing and the answers alike) -----------------------

def dice_this_turn(ship: "Ship") -> tuple[int, ...] | None:
    """The dice of this turn: those of the committed allocation, else those rolled and not
    yet committed, else None."""
    allocation = committed_allocation(ship)
    if allocation is not None:
        return tuple(allocation.dice)
    return rolled_dice(ship)


def die_this_turn(ship: "Ship", i: int) -> int | None:
    """What system ``i``'s die shows this turn, None when not rolled yet. A system at 0 rolls
    nothing: its die counts 0 every turn [WIS-H2]."""
    rolled = dice_this_turn(ship)
    value = rolled[i] if rolled else None
    if value is None and current_die(ship, i) == 0:
        return 0
    return value


def rolled_on(ship: "Ship", i: int) -> int:
    """The die this turn's value of system ``i`` was rolled on: a box marked after the commit
    steps the system's die down, but the value was rolled on the die it had then."""
    sides = committed_sides(ship)
    return sides[i] if sides is not None else current_die(ship, i)


def planned_boxes(ship: "Ship", i: int) -> int:
    """How many of system ``i``'s marks a planned repair erases (the last ones)."""
    plan = planned_repairs(ship)
    return plan.boxes[i] if plan else 0


# -- system boxes and critical hits: damage marks --------------------------------------------

def _box_answer(ship: "Ship", i: int, k: int) -> BoxAnswer:
    """Damage box ``k`` of system ``i``: a click marks the system's next box [seed]; a marked
    box is repaired only by Damage Control [seed] or corrected [WIS-H10]."""
    system = spec_of(ship).systems[i]
    name = system.name
    ladder = system.ladder
    marks = marked_boxes(ship, i)
    where = f"{name} box {k + 1} of {system.boxes}"
    if k < marks:
        is_planned = k >= marks - planned_boxes(ship, i)  # repairs erase the last marks
        tip = (f"{where}: marked (damage). It took {name} from {die_label(ladder[k])} to "
               f"{die_label(ladder[k + 1])}.")
        if is_planned:
            tip += (f"\nRepair planned ({BOX_COST} Damage Control energy): it takes effect "
                    f"in the {DAMAGE_CONTROL_PHASE} phase.")
        refusal = (f"{where} is already marked. A mark is repaired only by Damage Control "
                   f"({BOX_COST} energy a box: plan it in the Actions panel; it takes effect "
                   f"in the {DAMAGE_CONTROL_PHASE} phase). A mistaken mark: Undo, or "
                   f"right-click ▸ Correct mark (logged as a correction).")
        menu = [(f"Correct mark: {name} box (logged as a correction, not a repair)",
                 partial(correct_mark_action, ship, i))]
        return BoxAnswer(where, state="marked", right=MARK, refusal=refusal, tooltip=tip,
                         menu=menu)
    nxt = marks  # marks are a count: the next mark always goes in the first free box
    tip = (f"{where}: unmarked. Click to mark damage: "
           + (f"box {nxt + 1} (boxes are marked left to right) gets the slash and "
              if nxt != k else "")
           + f"{name} steps from {die_label(ladder[nxt])} to {die_label(ladder[nxt + 1])}. "
           f"One undo step.")
    # Boxes are marked left to right, so an unmarked box means a free one: the click is
    # offered (and the rules still check it when the action is applied).
    return BoxAnswer(where, state="unmarked", right=MARK, tooltip=tip,
                     click=partial(mark_system_box_action, ship, i))


def _critical_answer(ship: "Ship", suit: str) -> BoxAnswer:
    """The suit's critical box: marked, the suit's cards are locked out [seed], a Joker never
    [WIS-H4]; one box a suit [WIS-H16], repaired by Damage Control [seed] or corrected
    [WIS-H10]."""
    sym = SUIT_SYMBOLS[suit]
    label = f"{sym} critical hit"
    if suit in locked_suits(ship):
        tip = (f"{label}: marked. No card of {suit} may be played for Energy "
               f"Allocation until it is repaired ({CRITICAL_COST} Damage Control energy).")
        plan = planned_repairs(ship)
        if plan and suit in plan.criticals:
            tip += f"\nRepair planned: it takes effect in the {DAMAGE_CONTROL_PHASE} phase."
        refusal = (f"The {label} is already marked. It is repaired only by Damage "
                   f"Control ({CRITICAL_COST} energy: plan it in the Actions panel). A "
                   f"mistaken mark: Undo, or right-click ▸ Correct mark (logged as a "
                   f"correction).")
        menu = [(f"Correct mark: {sym} critical (logged as a correction, not a repair)",
                 partial(correct_mark_action, ship, suit=suit))]
        return BoxAnswer(label, state="marked", right=MARK, refusal=refusal, tooltip=tip,
                         menu=menu)
    tip = (f"{label}: unmarked. Click to mark it: cards of {suit} can no longer "
           f"be played for Energy Allocation (a Joker still can). One undo step.\n\n"
           + house_rule("Jokers are never locked"))
    # An unmarked critical can always be marked (the rules check it when applied).
    return BoxAnswer(label, state="unmarked", right=MARK, tooltip=tip,
                     click=partial(mark_critical_action, ship, suit))


# -- the areas that explain (hover only) ---------------------------------------------------------

def _ladder_answer(ship: "Ship", i: int) -> BoxAnswer:
    """System ``i``'s die ladder [WIS-H2]."""
    system = spec_of(ship).systems[i]
    ladder = system.ladder
    now = current_die(ship, i)
    zero = (" It reaches 0 when all its boxes are marked: it then produces no energy."
            if ladder[-1] == 0 else "")
    nothing = " (it produces no energy)" if not now else ""
    tip = (f"{system.name} die ladder: {' → '.join(die_label(d) for d in ladder)}. "
           f"It rolls a {die_label(now)} now{nothing}; undamaged d{system.die}. Each "
           f"marked box steps it one type down; each repaired box one type up, never "
           f"above d{system.die}.{zero}\n\n" + house_rule("A system at 0"))
    return BoxAnswer(f"{system.name} die ladder", state=die_label(now), right=MARK, tooltip=tip)


def _rolled_answer(ship: "Ship", i: int) -> BoxAnswer:
    """The die system ``i`` rolled this turn: the owner's turn record."""
    name = spec_of(ship).systems[i].name
    rolled = die_this_turn(ship, i)
    on = rolled_on(ship, i)
    now = current_die(ship, i)
    tip = (f"{name}: the die rolled this turn" +
           (f": {rolled} on its {die_label(on)}" if rolled is not None else
            " (not rolled yet: use Roll in the Actions panel, or type the physical die "
            "there)") + (f"; its die is {die_label(now)} now" if on != now else ""))
    return BoxAnswer(f"{name} die this turn",
                     state="not rolled" if rolled is None else f"rolled {rolled}",
                     right=DECIDE, tooltip=tip)


def _tertiary_answer() -> BoxAnswer:
    """The suit table's Tertiary column [WIS-H3]."""
    return BoxAnswer("Tertiary action", right=MARK, tooltip=(
        "Tertiary: the action the suit table leaves out for a suit; it gets the "
        "lowest die of an Ace to 10 played without Damage Control.\n\n"
        + house_rule("Tertiary action")))


def _dead_answer() -> BoxAnswer:
    """A ship whose three systems produce nothing [WIS-H11]."""
    return BoxAnswer("Dead in space", state="dead in space", right=MARK, tooltip=(
        "Dead in space: none of the three systems produces energy, so the ship rolls "
        "nothing.\n\n" + house_rule("Dead in space")))


def _energy_answer(ship: "Ship") -> BoxAnswer:
    """This turn's energy cells [WIS-H6, WIS-H5]: the owner's turn record."""
    allocation = committed_allocation(ship)
    if allocation is not None:
        tip = (f"This turn's energy, committed: {allocation.describe()} "
               f"(dice {list(allocation.dice)}, {parse_card(allocation.card).label}).")
        if not allocation.damage_control_announced:
            tip += "\n\n" + house_rule("Allocation without Damage Control")
    else:
        tip = ("This turn's energy: play a card and roll (or type) the dice in the Actions "
               "panel, then Commit.\n\n"
               + house_rule("One roll, one commit per turn"))
    return BoxAnswer("This turn's energy",
                     state="committed" if allocation is not None else "not committed",
                     right=DECIDE, tooltip=tip)


def _repairs_answer(ship: "Ship", plan: RepairPlan) -> BoxAnswer:
    """The repairs planned this turn [WIS-H9]: the owner's turn record."""
    parts = plan.describe(ship)
    tip = ("Planned repairs: " + "; ".join(parts) + ".\n"
           f"Planned against this turn's Damage Control energy; they take "
           f"effect in the {DAMAGE_CONTROL_PHASE} phase (Next Phase in the toolbar)."
           f"\n\n" + house_rule("Planning repairs"))
    return BoxAnswer("Planned repairs", state="planned", right=DECIDE, tooltip=tip)


def _lost_answer() -> BoxAnswer:
    """Unspent energy is lost at the end of the turn [WIS-H7]."""
    return BoxAnswer("Unspent energy is lost", right=MARK,
                     tooltip=house_rule("Unspent energy is lost"))


BOXES = WarInSpaceBoxes()

__all__ = ["BOX", "BOXES", "CRITICAL", "DEAD_KEY", "ENERGY_KEY", "LADDER", "LOST_KEY",
           "REPAIRS_KEY", "ROLLED", "TERTIARY_KEY", "WarInSpaceBoxes", "box_key",
           "critical_key", "dice_this_turn", "die_this_turn", "ladder_key", "parse_key",
           "planned_boxes", "rolled_key", "rolled_on"]

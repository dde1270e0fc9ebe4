"""What a War In Space player decides for a ship (from a phone or an orders file): the
Energy Allocation (card, Damage Control announced, the dice) and the repair plan.

Each filled form becomes the action a click in the Actions panel applies
(:func:`.actions.commit_energy_action`, :func:`.actions.plan_repairs_action`), so the rules,
the refusals and the log are the same. See ``shipsheet/model/decisions.py``. Which right a
tap on a box of the sheet needs (a damage mark, or the player's own turn record) is the
box's answer (``boxes.py``, ``BoxAnswer.right``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.decisions import (GameDecisions, all_or_none, boolean, choice, field_name,
                                       field_values, form, integer, numbered)
from shipsheet.model.errors import RuleViolation
from shipsheet.model.text import ordinal

from . import privacy
from .actions import commit_energy_action, plan_repairs_in_order_action
from .damage import current_dice, current_die, die_label, locked_suits, marked_boxes
from .definition import spec_of
from .energy import committed_allocation, remaining_damage_control, rolled_dice
from .game import COMBAT, DAMAGE_CONTROL_PHASE, ENERGY_ALLOCATION
from .repairs import (BOX_COST, CRITICAL_COST, damage_control_budget, item_words, planned_order,
                      planned_repairs)
from .terms import ACTION_TITLES, ACTIONS, JOKER, RANKS, SUIT_SYMBOLS, SUITS, Card, parse_card

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Action
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

ENERGY, REPAIRS = "energy", "repairs"
#: The series of like fields (``model.decisions.field_name``), numbered by system from 1 or
#: ``die1`` (the name ``pbem.players.DICE_FIELD`` knows a die by), ``joker1``, ``repair1``
#: (the repair list's places, first paid first).
_DIE, _JOKER, _REPAIR = "die", "joker", "repair"
#: An empty place of the repair list, and how many places it has at most.
_NO_REPAIR = "none"
MAX_REPAIRS = 12


def _card_options(ship: "Ship") -> list[tuple[str, str]]:
    """Every card of the deck and the Joker. A locked suit's cards stay listed (marked
    locked): playing one is refused with the rule's words, which say why ([seed] a critical
    hit costs the ability "to play cards from a particular suit"; [WIS-H4] never the Joker)."""
    locked = set(locked_suits(ship))
    options = []
    for suit in SUITS:
        for rank in RANKS:
            card = Card(rank, suit)
            note = f" (locked: {SUIT_SYMBOLS[suit]} critical hit)" if suit in locked else ""
            options.append((card.code, card.label + note))
    joker = Card(JOKER)
    options.append((joker.code, joker.label))
    return options


class WarInSpaceDecisions(GameDecisions):
    """Energy Allocation (Energy Allocation phase, once a turn [WIS-H6, WIS-H8]) and the
    repair plan (until this turn's Damage Control phase is over [WIS-H9])."""

    def forms(self, session: "Session", ship: "Ship") -> list[dict]:
        forms = []
        if session.phase == ENERGY_ALLOCATION and committed_allocation(ship) is None:
            forms.append(self._energy_form(ship))
        # [WIS-H9] as ``actions.plan_repairs_action``: refused once Combat has begun.
        if session.phase != COMBAT and self._has_repairs_to_plan(ship):
            forms.append(self._repairs_form(ship))
        return forms

    # -- Energy Allocation ---------------------------------------------------------------
    def _energy_form(self, ship: "Ship") -> dict:
        systems = spec_of(ship).systems
        rolled = rolled_dice(ship)
        fields = [choice("card", "Card played", _card_options(ship), None),
                  boolean("damage_control", "Announce Damage Control")]
        for i, (system, sides) in enumerate(zip(systems, current_dice(ship))):
            name = field_name(_DIE, i + 1)
            if sides:  # [product] each system rolls its current die
                value = rolled[i] if rolled is not None and 1 <= rolled[i] <= sides else None
                fields.append(integer(name, f"{system.name} die ({die_label(sides)})", 1, sides,
                                      value, optional=True))
            else:  # [WIS-H2] a system at 0 counts 0 and is not rolled
                fields.append(integer(name, f"{system.name} (0: produces no energy)", 0, 0, 0,
                                      optional=True))
        # [WIS-H5] a Joker without Damage Control: each die to Attack, Defense or Movement.
        for n, system in enumerate(systems, start=1):
            fields.append(choice(field_name(_JOKER, n), f"Joker without Damage Control: the "
                                 f"{system.name} die goes to",
                                 [(a, ACTION_TITLES[a]) for a in ACTIONS], None, optional=True))
        dice = ("The dice rolled this turn are filled in." if rolled is not None else
                "Type the dice read off the physical dice, or leave them all empty and the "
                "session rolls them (logged).")
        return form(ENERGY, "Energy Allocation",
                    fields, submit="Commit", private=privacy.ENERGY,
                    text=(f"{ship.name}: play one card and say whether Damage Control is "
                          f"announced. {dice} Only a Joker played without Damage Control lets "
                          f"you say where each die goes. One commit per turn."))  # [WIS-H6]

    def _energy_action(self, ship: "Ship", values: dict) -> "Action":
        systems = spec_of(ship).systems
        typed = field_values(values, _DIE, numbered(len(systems)))
        live = [i for i, sides in enumerate(current_dice(ship)) if sides]
        names = ", ".join(systems[i].name for i in live)
        dice: tuple[int, ...] | None = None  # this turn's roll, or rolled inside the action
        if all_or_none([typed[i] for i in live], f"Type every die ({names}), or leave them "
                                                  f"all empty for the session to roll them."):
            dice = tuple(0 if v is None else v for v in typed)  # [WIS-H2] a system at 0: 0
        given = [a for a in field_values(values, _JOKER, numbered(len(systems))) if a]
        return commit_energy_action(ship, values["card"], dice,
                                    damage_control=values["damage_control"],
                                    joker_assignment=given or None)

    # -- repairs -------------------------------------------------------------------------
    @staticmethod
    def _has_repairs_to_plan(ship: "Ship") -> bool:
        """Something to repair: a marked system box or critical hit ([seed] "Ships may not
        "repair" themselves to perform at higher than their original, undamaged
        capabilities"), or a plan already made, to change or clear."""
        return (any(marked_boxes(ship, i) for i in range(len(spec_of(ship).systems)))
                or bool(locked_suits(ship)) or planned_repairs(ship) is not None)

    def _repairs_form(self, ship: "Ship") -> dict:
        """The repair plan as a priority list [seed: 4 energy a system box (``BOX_COST``), 8 a
        critical hit (``CRITICAL_COST``), never past undamaged]: one choice a place, first
        paid first; what this turn's Damage Control energy does not pay is dropped and said.
        So the plan may travel in one orders file with the Energy Allocation that pays it."""
        systems = spec_of(ship).systems
        options = [(_NO_REPAIR, "—")]
        for i, system in enumerate(systems):
            if marked_boxes(ship, i):
                options.append((f"box:{i + 1}", f"{system.name} box ({BOX_COST} energy; "
                                                f"{marked_boxes(ship, i)} marked, die "
                                                f"{die_label(current_die(ship, i))})"))
        for suit in locked_suits(ship):
            options.append((f"critical:{suit}", f"{SUIT_SYMBOLS[suit]} critical hit "
                                                f"({CRITICAL_COST} energy)"))
        places = min(MAX_REPAIRS, sum(marked_boxes(ship, i) for i in range(len(systems)))
                     + len(locked_suits(ship)))
        order = planned_order(ship)
        fields = []
        for n in numbered(places):
            now = order[n - 1] if n <= len(order) else None
            value = (_NO_REPAIR if now is None else f"box:{now[1] + 1}" if now[0] == "box"
                     else f"critical:{now[1]}")
            fields.append(choice(field_name(_REPAIR, n), f"Repair {ordinal(n)}", options,
                                 value if any(v == value for v, _ in options) else _NO_REPAIR))
        energy = committed_allocation(ship)
        if energy is None:
            budget = ("No Energy Allocation is committed yet: the list is paid, in its order, "
                      "from the Damage Control energy it gives.")
        elif not energy.damage_control_announced:
            budget = "Damage Control was not announced this turn: there is no energy for repairs."
        else:
            budget = (f"{damage_control_budget(ship, energy)}. The list below is paid from the "
                      f"{remaining_damage_control(ship)} not yet spent.")
        return form(REPAIRS, "Repairs (Damage Control)", fields, submit="Plan repairs",
                    private=privacy.REPAIRS,
                    text=(f"{budget} A box costs {BOX_COST}, a critical hit {CRITICAL_COST}. "
                          f"List the repairs first to last: they are paid in this order, and "
                          f"what the energy does not pay is dropped (and said). They take "
                          f"effect in the {DAMAGE_CONTROL_PHASE} phase; planned during it "
                          f"they happen at once. All empty: no repairs planned."))

    def _repairs_action(self, ship: "Ship", values: dict) -> "Action":
        places = len([k for k in values if k.startswith(_REPAIR)])
        items = []
        for value in field_values(values, _REPAIR, numbered(places)):
            if value in (None, _NO_REPAIR):
                continue
            kind, _, key = value.partition(":")
            items.append(("box", int(key) - 1) if kind == "box" else ("critical", key))
        return plan_repairs_in_order_action(ship, items)

    # -- the GameDecisions API -----------------------------------------------------------
    def build(self, session: "Session", ship: "Ship", kind: str, values: dict) -> "Action":
        if kind == ENERGY:
            return self._energy_action(ship, values)
        if kind == REPAIRS:
            return self._repairs_action(ship, values)
        return super().build(session, ship, kind, values)

    def in_force(self, session: "Session", ship: "Ship") -> list[str]:
        """This turn's Energy Allocation (the card played and where the energy went) once
        committed, and the repair plan in its order of priority."""
        lines = []
        energy = committed_allocation(ship)
        if energy is not None:
            try:
                card = parse_card(energy.card).label
            except RuleViolation:
                card = "a card"
            announced = "announced" if energy.damage_control_announced else "not announced"
            lines.append(f"Energy Allocation, turn {session.turn}: {card}, Damage Control "
                         f"{announced}; {energy.describe()}")
        elif session.phase == ENERGY_ALLOCATION:
            lines.append(f"Energy Allocation, turn {session.turn}: not committed yet")
        order = planned_order(ship)
        if order:
            lines.append("Repairs planned, first paid first: "
                         + ", ".join(item_words(ship, item) for item in order))
        elif self._has_repairs_to_plan(ship):
            lines.append("Repairs planned: none")
        return lines


DECISIONS = WarInSpaceDecisions()

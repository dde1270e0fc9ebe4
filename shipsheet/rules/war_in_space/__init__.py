"""War In Space: the SDS, Energy Allocation with cards and dice, Damage Control repairs.

The source is War In Space, part 7: Damage Control; the map rule -> code -> test is
RULES.md beside this file.
Headless example::

    from shipsheet.model import get_class, new_ship
    from shipsheet.rules.war_in_space import allocate_energy, mark_system_box

    ship = new_ship(get_class("war-in-space/cruiser"), "Vigilant")
    mark_system_box(ship, "Drive")                  # Drive d8 -> d6
    allocate_energy(ship, "4D", [7, 5, 2], damage_control=True)
    # EnergyAllocation(attack=5, defense=2, movement=0, damage_control=7)
"""

from .actions import (cancel_repairs_action, commit_allocation_action, commit_energy_action,
                      correct_mark_action, mark_critical_action, mark_system_box_action,
                      plan_repairs_action, roll_energy_action)
from .damage import (correct_mark, current_dice, current_die, die_label, is_dead_in_space,
                     locked_suits, mark_critical, mark_system_box, marked_boxes, system_index)
from .definition import SuitActions, SystemSpec, WarInSpaceClass
from .energy import (EnergyAllocation, allocate_energy, check_card_playable, commit_allocation,
                     committed_allocation, committed_sides, discard_energy, remaining_damage_control,
                     roll_energy_dice, roll_for_turn, rolled_dice)
from .game import GAME, PHASES, WarInSpaceRules
from .house_rules import HOUSE_RULES, house_rule
from .repairs import (BOX_COST, CRITICAL_COST, RepairPlan, cancel_planned_repairs, plan_repairs,
                      planned_repairs)
from .terms import ACTIONS, DIE_LADDER, SUIT_SYMBOLS, SUITS, Card, parse_card, parse_suit

#: The rule text this package implements, in words (Help > Rules and House Rules).
SOURCE = ("War In Space, part 7: Damage Control (energy allocation with cards and dice, "
          "repair costs, suit lockouts).")


#: Where the model finds this game's pieces (``shipsheet.model.games``; the game is
#: registered in ``shipsheet/rules/__init__.py``) besides the conventional places
#: (``model.games.MODEL_CONVENTIONS``: ``GAME``, ``HOUSE_RULES``, ``SOURCE`` here,
#: ``templates``, ``carry_over``, ``sample``, ``decisions``, ``privacy``, ``boxes``).
ENTRY = {"summary": ".damage:damage_summary", "ignored_orders": "shipsheet.model.games:nothing_ignored"}

__all__ = [
    "ENTRY", "SOURCE",
    "ACTIONS", "BOX_COST", "CRITICAL_COST", "Card", "DIE_LADDER", "EnergyAllocation", "GAME",
    "HOUSE_RULES", "PHASES", "RepairPlan", "SUITS", "SUIT_SYMBOLS", "SuitActions", "SystemSpec",
    "WarInSpaceClass", "WarInSpaceRules", "allocate_energy",
    "cancel_planned_repairs", "cancel_repairs_action",
    "check_card_playable", "commit_allocation", "commit_allocation_action",
    "commit_energy_action", "committed_allocation", "committed_sides", "correct_mark", "correct_mark_action",
    "current_dice", "current_die", "die_label", "discard_energy", "house_rule", "is_dead_in_space",
    "locked_suits", "mark_critical", "mark_critical_action", "mark_system_box",
    "mark_system_box_action", "marked_boxes", "parse_card", "parse_suit", "plan_repairs",
    "plan_repairs_action", "planned_repairs", "remaining_damage_control", "roll_energy_action",
    "roll_energy_dice", "roll_for_turn", "rolled_dice", "system_index",
]

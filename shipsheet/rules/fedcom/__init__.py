"""Federation Commander: ship cards, the Damage Allocation Chart and the PBEM DDAP (8FC).

Pure Python, no Qt. The source is Federation Commander's PBEM rule 8FC (the Default
Damage Allocation Procedure); the map from each rule to its code and test is
``RULES.md`` beside this file.

Headless use::

    from shipsheet.model.library import get_class, new_ship
    from shipsheet.rules import fedcom
    ship = new_ship(get_class("fedcom/sample-heavy-cruiser"), "Excalibur")
    fedcom.set_turn_state(ship, "ph-1", "fired")
    result = fedcom.allocate_volley(ship, 14, shield=1, rolls=[3, 5])
    print("\\n".join(result.lines()))
    fedcom.apply_volley(ship, result)
"""

from .actions import (cancel_copy_orders_action, copy_orders_action, edit_orders_action, mark_box_action,
                      mark_frame_action, mark_shield_action, preview_volley, repair_action,
                      set_chart_action, set_drones_action, set_occupant_action,
                      set_orders_action, set_turn_state_action, volley_action)
from .card import (ARC_DEGREES, OCCUPANTS, PHASER_TYPES, REPAIR_COSTS, STANDARD_KINDS,
                   TRACTOR_STATES, BoxSpec, FedComClass, arc_width)
from .chart import (Cell, Chart, ChartInfo, DEFAULT_CHART, chart_options, chart_problems,
                    default_chart, get_chart, list_charts, load_chart, parse_chart,
                    session_chart)
from .game import GAME, FedComRules
from .house import HOUSE_RULES, house_rule
from .overrides import (Overrides, cancel_copy_forward, copy_orders_forward, orders_of,
                        set_orders)
from .state import (boxes_used_this_turn, end_turn, frame_left, initial_state, is_destroyed,
                    mark_box, mark_frame, mark_shield, set_drones, set_occupant,
                    set_turn_state, shield_left, turn_state, turn_states)
from .status import (RepairPlan, RepairStep, ShipStatus, apply_repair, plan_repair,
                     repair_cost, status, status_chips)
from .volley import (VolleyPoint, VolleyResult, allocate_volley, apply_volley, explain_order,
                     hit_order, standing_orders)

#: The rule text this package implements, in words (Help > Rules and House Rules).
SOURCE = ("Federation Commander PBEM rule 8FC, the Default Damage Allocation Procedure. "
          "The bundled chart and ships are our own training samples, not the official ones.")


#: Where the model finds this game's pieces (``shipsheet.model.games``; the game is
#: registered in ``shipsheet/rules/__init__.py``) besides the conventional places
#: (``model.games.MODEL_CONVENTIONS``: ``GAME``, ``HOUSE_RULES``, ``SOURCE`` here,
#: ``templates``, ``carry_over``, ``sample``, ``decisions``, ``privacy``, ``boxes``).
ENTRY = {"summary": ".status:damage_summary", "ignored_orders": ".ignored:ignored_orders"}

__all__ = [
    "ENTRY", "SOURCE", "edit_orders_action",
    "ARC_DEGREES", "BoxSpec", "Cell", "Chart", "ChartInfo", "DEFAULT_CHART", "FedComClass",
    "FedComRules", "GAME", "HOUSE_RULES", "house_rule", "OCCUPANTS", "Overrides", "PHASER_TYPES",
    "REPAIR_COSTS", "RepairPlan", "RepairStep", "STANDARD_KINDS", "ShipStatus",
    "TRACTOR_STATES", "VolleyPoint", "VolleyResult", "allocate_volley", "apply_repair",
    "apply_volley", "arc_width", "cancel_copy_forward", "cancel_copy_orders_action",
    "chart_options", "chart_problems", "copy_orders_action", "copy_orders_forward",
    "default_chart", "end_turn",
    "explain_order", "frame_left", "get_chart", "hit_order", "initial_state", "is_destroyed",
    "list_charts", "load_chart", "mark_box", "mark_box_action", "mark_frame",
    "mark_frame_action", "mark_shield", "mark_shield_action", "orders_of", "parse_chart",
    "plan_repair", "preview_volley", "repair_action", "repair_cost", "session_chart",
    "set_chart_action", "set_drones", "set_drones_action", "set_occupant",
    "set_occupant_action", "set_orders", "set_orders_action", "set_turn_state",
    "set_turn_state_action", "shield_left", "standing_orders", "status", "status_chips",
    "turn_state", "turn_states", "boxes_used_this_turn", "volley_action",
]

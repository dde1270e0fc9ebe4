"""Triplanetary with the Advanced Combat System: ship types, D-tracks, attacks, recovery.

Pure Python (no Qt). ``GAME`` is the game's :class:`shipsheet.model.GameRules`.
Headless use::

    from shipsheet.model import Session, get_class, new_ship
    from shipsheet.rules import triplanetary as tp

    s = Session("triplanetary", seed=1)
    frigate = s.add_ship(new_ship(get_class("triplanetary/frigate"), "Ajax"), "Mars")
    corsair = s.add_ship(new_ship(get_class("triplanetary/corsair"), "Kite"), "Pirates")
    while s.phase != tp.COMBAT:               # gun attacks belong to the Combat phase
        s.next_phase()
    s.apply(tp.attack(frigate, corsair, range=1, to_hit_roll=6, damage_rolls=[3, 5]))
    tp.status(corsair).can_fire               # False: weapon D1
    s.apply(tp.choose_recovery_action(corsair, "weapon"))   # the owner's choice
    s.next_turn()                             # Kite recovers 1 weapon D as the turn ends

Every rule and its source: ``RULES.md`` beside this file; our own readings, each with an id
such as ``TRI-H13``: :data:`HOUSE_RULES`.
"""

from .actions import (apply_attack, attack, capture_action, cargo_action, choose_recovery_action,
                      combat_option_action, damage_action, fuel_action, launch_ordnance_action,
                      lose_at_map_edge_action, loot_action, maintain_action, mark_level,
                      mark_level_action, other_damage, recover_action, remove_ordnance_action,
                      standard_result_action)
from .combat import (ADVANCED, COMBAT_SYSTEMS, STANDARD, AttackResult, DamageRoll,
                     TargetPreview, check_attacker, check_gun_timing, combat_system,
                     combined_strength, resolve_attack, resolve_other)
from .definitions import CLASS_KEYS, UNLIMITED, TriplanetaryClass, parse_definition
from .events import capture, check_disabled, free_hold, lose_at_map_edge, loot
from .game import GAME, TriplanetaryRules, status_chips
from .house import HOUSE_RULES, house_rule
from .ordnance import (check_launch, check_launch_timing, describe_launch, in_flight, launch,
                       launchable_kinds)
from .recovery import (DEFAULT_ORDER, choose_recovery, default_track, describe_choice, end_turn,
                       needs_choice, planned_recovery, recovery_choice, tracks_shown)
from .state import (ALL_TRACKS, COMBAT, MOVEMENT, ORDNANCE, ORDNANCE_KINDS, PHASES,
                    RECOVERY_PHASE, STANDARD_TRACK, TRACKS)
from .tables import (COLUMNS, OTHER_KINDS, Damage, damage_for_roll, gun_hits, gun_modifier,
                     gun_modifier_parts,
                     modified_roll, odds_column, other_hits, standard_gun_result,
                     standard_levels, standard_other_result)
from .tracks import (Status, add_standard, apply_damage, apply_standard, describe_levels,
                     is_damaged, is_destroyed, is_lost, levels, maintain, out_of_play, recover,
                     recover_one,
                     recoverable_tracks, recovered_this_turn, set_cargo, set_fuel,
                     standard_level, status, track_level)

#: The rule text this package implements, in words (Help > Rules and House Rules).
SOURCE = ("Triplanetary, Advanced Combat System (to-hit tables, damage table, weapon, drive "
          "and structure D-tracks); the standard combat table is a session option.")


#: Where the model finds this game's pieces (``shipsheet.model.games``; the game is
#: registered in ``shipsheet/rules/__init__.py``) besides the conventional places
#: (``model.games.MODEL_CONVENTIONS``: ``GAME``, ``HOUSE_RULES``, ``SOURCE`` here,
#: ``templates``, ``carry_over``, ``sample``, ``decisions``, ``privacy``, ``boxes``).
ENTRY = {"summary": ".ordnance:damage_summary", "ignored_orders": "shipsheet.model.games:nothing_ignored"}

__all__ = [
    "ENTRY", "SOURCE",
    "ADVANCED", "ALL_TRACKS", "AttackResult", "CLASS_KEYS", "COLUMNS", "COMBAT", "COMBAT_SYSTEMS",
    "DEFAULT_ORDER", "Damage", "DamageRoll", "GAME", "HOUSE_RULES", "MOVEMENT", "ORDNANCE",
    "ORDNANCE_KINDS", "OTHER_KINDS", "PHASES", "RECOVERY_PHASE", "STANDARD", "STANDARD_TRACK",
    "Status", "TRACKS", "TargetPreview", "TriplanetaryClass", "TriplanetaryRules", "UNLIMITED",
    "add_standard", "apply_attack", "apply_damage", "apply_standard", "attack", "capture",
    "capture_action", "cargo_action", "check_attacker", "check_disabled", "check_gun_timing",
    "check_launch", "check_launch_timing", "choose_recovery", "choose_recovery_action",
    "combat_option_action", "combat_system", "combined_strength", "damage_action",
    "damage_for_roll", "default_track", "describe_choice", "describe_launch", "describe_levels",
    "end_turn", "free_hold", "fuel_action", "gun_hits", "gun_modifier", "gun_modifier_parts",
    "house_rule", "in_flight", "is_damaged", "is_destroyed", "is_lost", "launch",
    "launch_ordnance_action", "launchable_kinds", "levels", "lose_at_map_edge",
    "lose_at_map_edge_action", "loot", "loot_action", "maintain", "maintain_action",
    "mark_level", "mark_level_action", "modified_roll", "needs_choice", "odds_column",
    "other_damage", "other_hits", "out_of_play", "parse_definition", "planned_recovery",
    "recover", "recover_action", "recover_one", "recoverable_tracks", "recovered_this_turn",
    "recovery_choice",
    "remove_ordnance_action", "resolve_attack", "resolve_other", "set_cargo", "set_fuel",
    "standard_gun_result", "standard_level", "standard_levels", "standard_other_result",
    "track_level", "tracks_shown",
    "standard_result_action", "status", "status_chips",
]

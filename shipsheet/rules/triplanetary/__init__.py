"""Triplanetary with the Advanced Combat System: ship types, D-tracks, attacks, recovery.

Pure Python (no Qt). ``GAME`` is the game's :class:`shipsheet.model.GameRules`.
Headless use::

    from shipsheet.model import Session, get_class, new_ship
    from shipsheet.rules import triplanetary as tp

    s = Session("triplanetary", seed=1)
    frigate = s.add_ship(new_ship(get_class("triplanetary/frigate"), "Ajax"), "Mars")
    corsair = s.add_ship(new_ship(get_class("triplanetary/corsair"), "Kite"), "Pirates")
    result = tp.resolve_attack([frigate], [corsair], range=1, to_hit_roll=6, damage_rolls=[3, 5])
    s.apply(tp.apply_attack(result))          # one undo step, one log line per target
    tp.status(corsair).can_fire               # False: weapon D1
"""

from .actions import (apply_attack, attack, cargo_action, combat_option_action, damage_action,
                      fuel_action, maintain_action, mark_level, mark_level_action, other_damage,
                      recover_action, standard_result_action)
from .combat import (ADVANCED, COMBAT_SYSTEMS, STANDARD, AttackResult, DamageRoll,
                     TargetPreview, check_attacker, combat_system, combined_strength,
                     resolve_attack, resolve_other)
from .definitions import CLASS_KEYS, UNLIMITED, TriplanetaryClass, parse_definition
from .game import GAME, TriplanetaryRules, status_chips
from .house import HOUSE_RULES
from .state import ALL_TRACKS, STANDARD_TRACK, TRACKS
from .tables import (COLUMNS, OTHER_KINDS, Damage, damage_for_roll, gun_hits, gun_modifier,
                     gun_modifier_parts,
                     modified_roll, odds_column, other_hits, standard_gun_result,
                     standard_levels, standard_other_result)
from .tracks import (Status, add_standard, apply_damage, apply_standard, describe_levels,
                     end_turn, is_damaged, is_destroyed, levels, maintain, recover,
                     recoverable_tracks, recovered_this_turn, set_cargo, set_fuel,
                     standard_level, status)

#: The rule text this package implements, in words (Help > Rules and House Rules).
SOURCE = ("Triplanetary, Advanced Combat System (to-hit tables, damage table, weapon, drive "
          "and structure D-tracks); the standard combat table is a session option.")

__all__ = [
    "SOURCE",
    "ADVANCED", "ALL_TRACKS", "AttackResult", "CLASS_KEYS", "COLUMNS", "COMBAT_SYSTEMS",
    "Damage", "DamageRoll", "GAME", "HOUSE_RULES", "OTHER_KINDS", "STANDARD", "STANDARD_TRACK",
    "Status", "TRACKS", "TargetPreview", "TriplanetaryClass", "TriplanetaryRules", "UNLIMITED",
    "add_standard", "apply_attack", "apply_damage", "apply_standard", "attack", "cargo_action",
    "standard_result_action", "check_attacker", "combat_option_action", "combat_system", "damage_action",
    "damage_for_roll", "describe_levels", "end_turn", "fuel_action", "gun_hits",
    "gun_modifier", "gun_modifier_parts", "combined_strength", "is_damaged", "is_destroyed", "levels", "maintain", "maintain_action",
    "mark_level", "mark_level_action", "modified_roll", "odds_column", "other_damage",
    "other_hits", "parse_definition", "recover", "recover_action", "recoverable_tracks",
    "recovered_this_turn", "resolve_attack", "resolve_other", "set_cargo", "set_fuel",
    "standard_gun_result", "standard_level", "standard_levels", "standard_other_result",
    "status", "status_chips",
]

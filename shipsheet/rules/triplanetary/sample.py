"""A sample Triplanetary session: two sides, six ships in varied states of damage."""

from __future__ import annotations

from shipsheet.model import Session, get_class, new_ship

from .actions import (attack, cargo_action, choose_recovery_action, damage_action, fuel_action,
                      launch_ordnance_action, loot_action, other_damage)
from .state import COMBAT, ORDNANCE

SAMPLE_SEED = 2018


def build_sample_session() -> Session:
    """Build the sample session only through actions, with typed dice and a fixed seed.

    Turn 1: Kite lays a mine in the Ordnance phase; in the Combat phase Kite and Raven fire
    on Ajax and Vigilant counter-attacks Raven (its own attack in the same phase, [TRI-H16]);
    Ajax's owner chooses to recover structure, Raven's leaves the default [TRI-H13]; the
    turn ends and both recover. Turn 2, Movement: Kite's mine hits the Ceres Mule, which is
    left disabled, and Kite loots it.
    """
    s = Session("triplanetary", name="Triplanetary sample: raid on the Ceres run",
                seed=SAMPLE_SEED)

    def add(stem: str, name: str, side: str):
        return s.add_ship(new_ship(get_class(f"triplanetary/{stem}"), name), side)

    def phase(name: str) -> None:
        while s.phase != name:
            s.next_phase()

    ajax = add("frigate", "Ajax", "Mars Patrol")
    vigilant = add("dreadnaught", "Vigilant", "Mars Patrol")
    add("orbital-base", "Phobos Station", "Mars Patrol")
    mule = add("transport", "Ceres Mule", "Mars Patrol")
    kite = add("corsair", "Kite", "Pirates")
    raven = add("frigate", "Raven", "Pirates")

    s.apply(cargo_action(mule, 50))
    s.apply(fuel_action(ajax, 14))
    phase(ORDNANCE)
    s.apply(launch_ordnance_action(kite, "mine"))  # Kite's mine 1, in the Ceres lane
    phase(COMBAT)
    # Kite and Raven (4 + 8 = 12) fire on Ajax (8): 1:1, roll 6 -> 2 hits;
    # damage rolls 4 (1 weapon D, 1 structure D) and 6 (1 structure D, 1 drive D).
    s.apply(attack([kite, raven], [ajax], to_hit_roll=6, damage_rolls=[4, 6]))
    # Vigilant (15) counter-attacks Raven (8): 1:1, roll 4 + 1 heroic = 5 -> 1 hit; roll 5.
    s.apply(attack([vigilant], [raven], heroic=True, to_hit_roll=4, damage_rolls=[5]))
    s.apply(choose_recovery_action(ajax, "structure"))
    s.next_turn()  # Ajax recovers structure (its owner's choice), Raven its drive (default)
    # Turn 2, Movement: Kite's mine 1 hits the transport: roll 6 -> 2 hits (drive, weapon).
    s.apply(other_damage("mine", [mule], sources=[kite], launch=1, to_hit_roll=6,
                         damage_rolls=[2, 1]))
    s.apply(loot_action(kite, mule, 10))  # the Mule is disabled: Kite fills its hold
    s.apply(damage_action(vigilant, weapon=2))
    return s

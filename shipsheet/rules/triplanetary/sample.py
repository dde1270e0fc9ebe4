"""A sample Triplanetary session: two sides, six ships in varied states of damage."""

from __future__ import annotations

from shipsheet.model import Session, get_class, new_ship

from .actions import apply_attack, cargo_action, damage_action, fuel_action, recover_action
from .combat import resolve_attack, resolve_other

SAMPLE_SEED = 2018


def build_sample_session() -> Session:
    """Build the sample session only through actions, with typed dice and a fixed seed."""
    s = Session("triplanetary", name="Triplanetary sample: raid on the Ceres run",
                seed=SAMPLE_SEED)

    def add(stem: str, name: str, side: str):
        return s.add_ship(new_ship(get_class(f"triplanetary/{stem}"), name), side)

    ajax = add("frigate", "Ajax", "Mars Patrol")
    vigilant = add("dreadnaught", "Vigilant", "Mars Patrol")
    add("orbital-base", "Phobos Station", "Mars Patrol")
    mule = add("transport", "Ceres Mule", "Mars Patrol")
    kite = add("corsair", "Kite", "Pirates")
    raven = add("frigate", "Raven", "Pirates")

    s.apply(cargo_action(mule, 50))
    s.apply(fuel_action(ajax, 14))
    # Kite and Raven (4 + 8 = 12) fire on Ajax (8): 1:1, roll 6 -> 2 hits;
    # damage rolls 4 (1 weapon D, 1 structure D) and 6 (1 structure D, 1 drive D).
    s.apply(apply_attack(resolve_attack([kite, raven], [ajax], to_hit_roll=6,
                                        damage_rolls=[4, 6])))
    # Vigilant (15) answers on Raven (8): 1:1, roll 4 + 1 heroic = 5 -> 1 hit; roll 5.
    s.apply(apply_attack(resolve_attack([vigilant], [raven], heroic=True, to_hit_roll=4,
                                        damage_rolls=[5])))
    # A mine in the Ceres lane: roll 6 -> 2 hits on the transport (drive: disabled).
    s.apply(apply_attack(resolve_other("mine", [mule], to_hit_roll=6, damage_rolls=[2, 1])))
    s.apply(damage_action(vigilant, weapon=2))
    s.next_turn()
    s.apply(recover_action(ajax, "structure"))
    return s

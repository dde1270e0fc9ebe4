"""A sample War In Space session, built only through actions, for the bundled sample file."""

from __future__ import annotations

from shipsheet.model.library import get_class, new_ship
from shipsheet.model.session import Session

from .actions import (commit_energy_action, correct_mark_action, mark_critical_action,
                      mark_system_box_action, plan_repairs_action)

SAMPLE_SEED = 7_1983


def build_sample_session() -> Session:
    """Two sides, five ships in varied states of damage, mid-turn 2 (Movement phase)."""
    session = Session("war-in-space", name="War In Space sample: Battle of the Kessel Gap",
                      seed=SAMPLE_SEED)
    fleet = [
        ("Vigilant", "cruiser", "Concord"),
        ("Kestrel", "escort", "Concord"),
        ("Resolute", "battleship", "Concord"),
        ("Lancer", "frigate", "Hegemony"),
        ("Harrier", "escort", "Hegemony"),
    ]
    ships = {}
    for name, stem, side in fleet:
        ships[name] = session.add_ship(new_ship(get_class(f"war-in-space/{stem}"), name), side)

    # Turn 1: damage from the opening exchange, marked by hand.
    for ship, system in (("Vigilant", "Drive"), ("Vigilant", "Drive"), ("Lancer", "Reactor"),
                         ("Harrier", "Reactor"), ("Harrier", "Reactor"), ("Harrier", "Drive"),
                         ("Harrier", "Drive"), ("Harrier", "Drive"), ("Harrier", "Fire Control"),
                         ("Resolute", "Fire Control")):
        session.apply(mark_system_box_action(ships[ship], system))
    session.apply(mark_critical_action(ships["Vigilant"], "D"))
    session.apply(mark_critical_action(ships["Lancer"], "S"))
    session.apply(mark_critical_action(ships["Resolute"], "H"))
    # A slip of the pen, taken back and logged as a correction.
    session.apply(mark_system_box_action(ships["Kestrel"], "Fire Control"))
    session.apply(correct_mark_action(ships["Kestrel"], "Fire Control"))
    session.next_turn()

    # Turn 2: Energy Allocation. The cruiser announces Damage Control on a face card.
    session.dice.type_in(9, 3, 6)
    session.apply(commit_energy_action(ships["Vigilant"], "KH", damage_control=True))
    session.apply(plan_repairs_action(ships["Vigilant"], boxes={"Drive": 1}, criticals=["D"]))
    session.apply(commit_energy_action(ships["Kestrel"], "7S"))
    session.apply(commit_energy_action(ships["Resolute"], "JOKER",
                                       joker_assignment=["attack", "attack", "defense"]))
    session.apply(commit_energy_action(ships["Lancer"], "10D", damage_control=True))
    session.next_phase()  # Movement: the cruiser's repairs wait for Damage Control
    return session

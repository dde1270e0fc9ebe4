"""A sample Federation Commander session, built only through actions (fixed seed)."""

from __future__ import annotations

from shipsheet.model.actions import NextPhase
from shipsheet.model.library import get_class, new_ship
from shipsheet.model.session import Session

from .actions import (copy_orders_action, repair_action, set_chart_action, set_occupant_action,
                      set_orders_action, set_turn_state_action, volley_action)
from .overrides import Overrides

SEED = 6_0806


def build_sample_session() -> Session:
    """Two sides, five sample ships in varied states of damage, a turn and a half of play."""
    session = Session("fedcom", name="Federation Commander sample: Sample Hold", seed=SEED)
    session.apply(set_chart_action("training"))
    ships = {}
    for key, name, side in (("sample-heavy-cruiser", "Resolute", "Blue"),
                            ("sample-frigate", "Swift", "Blue"),
                            ("sample-dreadnought", "Bastion", "Blue"),
                            ("sample-drone-cruiser", "Hornet", "Red"),
                            ("sample-frigate", "Lance", "Red")):
        ships[name] = session.add_ship(new_ship(get_class(f"fedcom/{key}"), name), side)

    resolute, swift, bastion = ships["Resolute"], ships["Swift"], ships["Bastion"]
    hornet, lance = ships["Hornet"], ships["Lance"]

    # Energy: standing orders for this turn, one of them copied forward.
    session.apply(set_orders_action(resolute, Overrides(last=("ph-5",),
                                                        frame_instead_of_last=("lab",))))
    session.apply(copy_orders_action(resolute))
    session.apply(set_orders_action(hornet, Overrides(first=("drone-4",),
                                                      frame_instead_of_skip=True)))
    session.apply(NextPhase())  # Movement
    session.apply(set_occupant_action(hornet, "shuttle-2", "admin"))
    session.apply(NextPhase())  # Combat
    for ship, box, state in ((resolute, "ph-1", "fired"), (resolute, "photon-1", "fired"),
                             (resolute, "photon-2", "charging"), (hornet, "drone-1", "launched"),
                             (hornet, "ph-3", "fired"), (lance, "disruptor-1", "fired")):
        session.apply(set_turn_state_action(ship, box, state))
    session.apply(volley_action(hornet, 32, shield=1, rolls=[4, 2]))
    session.apply(volley_action(resolute, 18, shield=2, rolls=[6]))
    session.apply(volley_action(lance, 19, shield=1, rolls=[5, 3, 1]))
    session.apply(volley_action(swift, 12, shield=4))
    session.apply(volley_action(bastion, 11, shield=1))  # burn-through: 1 internal
    session.apply(NextPhase())  # Repair
    damaged = [b for b in resolute.state["destroyed"]][:2]
    if damaged:
        session.apply(repair_action(resolute, damaged))
    session.apply(NextPhase())  # turn 2, Energy: states reset, Hornet's orders lapse
    session.apply(NextPhase())  # Movement
    session.apply(NextPhase())  # Combat
    session.apply(volley_action(lance, 30, shield=1))
    return session

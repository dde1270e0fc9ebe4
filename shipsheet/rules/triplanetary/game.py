"""``GAME``: Triplanetary's :class:`GameRules` (definitions, states, phases, roster chips)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.games import GameRules
from shipsheet.model.keypath import Node

from .definitions import CLASS_KEYS, TriplanetaryClass, parse_definition
from .state import TRACK_TITLES, TRACKS, check_state, new_state
from .tracks import end_turn, recoverable_tracks, standard_level, status

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import ActionContext, Session
    from shipsheet.model.ship import Ship, ShipClass

RECOVERY_PHASE = "Recovery"


def status_chips(ship: "Ship") -> list[str]:
    """Status words for the roster, worst first: "Destroyed", "Disabled", "Can't fire", …

    Words only where the ship lost something: a defensive-only ship is not marked
    "Can't fire", an orbital base is not marked "Can't maneuver".
    """
    spec: TriplanetaryClass = ship.ship_class.spec
    st = status(ship)
    if st.destroyed:
        return ["Destroyed"]
    chips: list[str] = []
    if st.disabled:
        chips.append("Disabled")
    if not spec.defensive_only and not st.can_fire:
        chips.append("Can't fire")
    elif not spec.defensive_only and not st.can_drop_ordnance:
        chips.append("No ordnance")  # a dreadnaught at weapons D1–D3
    if spec.mine_layer and not st.can_launch_mines and st.weapon:
        chips.append("No mines")
    if not spec.fixed and not st.can_maneuver:
        chips.append("Can't maneuver")
    if st.lost_at_map_edge:
        chips.append("Lost at map edge")
    if not st.weapons_repairable:
        chips.append("Weapons: base only")
    levels = {"weapon": st.weapon, "drive": st.drive, "structure": st.structure}
    chips.extend(f"{TRACK_TITLES[t]} D{levels[t]}" for t in TRACKS if levels[t])
    if standard_level(ship):
        chips.append(f"Disabled D{standard_level(ship)}")
    return chips


class TriplanetaryRules(GameRules):
    """Triplanetary with the Advanced Combat System [seed]; standard combat as an option."""

    id = "triplanetary"
    #: [house] one session turn is one game turn; recovery closes it (our reading:
    #: recovery happens at the end of the owner's turn).
    phases = ("Movement", "Ordnance", "Combat", RECOVERY_PHASE)
    class_keys = CLASS_KEYS

    def parse_class(self, node: Node) -> TriplanetaryClass:
        return parse_definition(node)

    def initial_state(self, ship_class: "ShipClass") -> dict:
        return new_state(ship_class.spec)

    def check_state(self, ship_class: "ShipClass", node: Node) -> dict:
        return check_state(ship_class, node)

    def check_options(self, node: Node) -> dict:
        """``combat``: the combat system, advanced (the default) or standard [2018]."""
        from .combat import COMBAT_SYSTEMS
        options = super().check_options(node)
        if node.has("combat"):
            node.get("combat").str(choices=COMBAT_SYSTEMS)
        return options

    def status_chips(self, ship: "Ship") -> list[str]:
        return status_chips(ship)

    def describe_class(self, ship_class: "ShipClass") -> str:
        spec: TriplanetaryClass = ship_class.spec
        fuel = "unlimited" if spec.fuel is None else str(spec.fuel)
        cargo = "unlimited" if spec.cargo is None else f"{spec.cargo} t"
        return f"{ship_class.name} — combat {spec.strength_label}, fuel {fuel}, cargo {cargo}"

    def enter_phase(self, session: "Session", phase: str, ctx: "ActionContext") -> None:
        """At Recovery, note each ship that may recover 1 D and its choices."""
        if phase != RECOVERY_PHASE:
            return
        for ship in session.ships:
            tracks = recoverable_tracks(ship)
            if tracks:
                words = ", ".join(f"{TRACK_TITLES[t].lower()} D{ship.state.get(t, 0)}"
                                  for t in tracks)
                ctx.log(f"may recover 1 D: {words}", ship=ship.id)

    def end_turn(self, session: "Session", ctx: "ActionContext") -> None:
        """Every ship's turn ends: its recovery limit is reset ([house], see tracks.end_turn)."""
        for ship in session.ships:
            for line in end_turn(ship):
                ctx.log(line, ship=ship.id)


GAME = TriplanetaryRules()

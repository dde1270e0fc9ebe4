"""``GAME``: Triplanetary's :class:`GameRules` (definitions, states, phases, roster chips)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.games import GameRules
from shipsheet.model.keypath import Node

from .definitions import CLASS_KEYS, TriplanetaryClass, parse_definition
from .recovery import end_turn, needs_choice, planned_recovery
from .state import PHASES, RECOVERY_PHASE, TRACK_TITLES, TRACKS, check_state, new_state
from .tracks import standard_level, status

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import ActionContext, Session
    from shipsheet.model.ship import Ship, ShipClass



def status_chips(ship: "Ship") -> list[str]:
    """Status words for the roster, worst first: "Destroyed", "Disabled", "Can't fire", …

    Words only where the ship lost something: a defensive-only ship is not marked
    "Can't fire", an orbital base is not marked "Can't maneuver".
    """
    spec: TriplanetaryClass = ship.ship_class.spec
    st = status(ship)
    captured = ship.state.get("captured_from")
    if st.destroyed:
        return ["Destroyed"]
    if st.lost:
        return ["Lost at map edge"]
    chips: list[str] = []
    if captured is not None:
        chips.append(f"Captured (was {captured})" if captured else "Captured")
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
        chips.append("Lost if it reaches the edge")
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
    #: [TRI-H1] one session turn is one game turn; recovery closes it (our reading:
    #: recovery happens at the end of the owner's turn).
    phases = PHASES
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
        """At Recovery, note what each ship that has not recovered will recover, and why."""
        if phase != RECOVERY_PHASE:
            return
        standard = _standard(session)
        for ship in session.ships:
            planned = planned_recovery(ship, standard=standard)
            if planned:
                track, how = planned
                level = int(ship.state.get(track, 0) or 0)
                ctx.log(f"will recover 1 D at the end of the turn ({how}): "
                        f"{TRACK_TITLES[track].lower()} D{level} → D{level - 1}", ship=ship.id)

    def end_turn(self, session: "Session", ctx: "ActionContext") -> None:
        """[seed] "A ship recovers from 1 D a turn ... The ship's owner chooses": every damaged
        ship that has not recovered recovers now, by its owner's choice or, with none, the
        stated default [TRI-H13]; the turn's limits are reset (:func:`.recovery.end_turn`)."""
        standard = _standard(session)
        for ship in session.ships:
            for line in end_turn(ship, standard=standard):
                ctx.log(line, ship=ship.id)

    def choices_before_turn_end(self, session: "Session") -> list["Ship"]:
        """Ships with several tracks to recover and no owner's choice: the window asks once
        before the turn ends (the default applies to any left open)."""
        standard = _standard(session)
        return [s for s in session.ships if needs_choice(s, standard=standard)]


def _standard(session: "Session") -> bool:
    from .combat import STANDARD, combat_system
    return combat_system(session) == STANDARD


GAME = TriplanetaryRules()

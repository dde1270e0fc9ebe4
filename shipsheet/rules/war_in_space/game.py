"""War In Space as the model sees it: definitions, state, phases, status chips, hooks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.games import GameRules
from shipsheet.model.keypath import Node
from shipsheet.model.ship import Ship, ShipClass

from .damage import is_dead_in_space, locked_suits
from .definition import CLASS_KEYS, WarInSpaceClass, parse_definition
from .state import check_state, initial_state
from .terms import SUIT_SYMBOLS

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import ActionContext, Session

ENERGY_ALLOCATION = "Energy Allocation"
MOVEMENT = "Movement"
DAMAGE_CONTROL_PHASE = "Damage Control"
COMBAT = "Combat"
#: [WIS-H8] turn sequence; seed: repairs happen "in the Damage Control phase after movement".
PHASES = (ENERGY_ALLOCATION, MOVEMENT, DAMAGE_CONTROL_PHASE, COMBAT)


class WarInSpaceRules(GameRules):
    """The War In Space rules module (SDS, Energy Allocation, Damage Control)."""

    id = "war-in-space"
    phases = PHASES
    class_keys = CLASS_KEYS

    def parse_class(self, node: Node) -> WarInSpaceClass:
        return parse_definition(node)

    def initial_state(self, ship_class: ShipClass) -> dict:
        return initial_state(ship_class)

    def check_state(self, ship_class: ShipClass, node: Node) -> dict:
        return check_state(ship_class, node)

    def status_chips(self, ship: Ship) -> list[str]:
        """Locked suits ("♦ locked", seed) and "Dead in space" ([WIS-H11]: all systems at 0)."""
        chips = [f"{SUIT_SYMBOLS[s]} locked" for s in locked_suits(ship)]
        if is_dead_in_space(ship):
            chips.insert(0, "Dead in space")
        return chips

    def describe_class(self, ship_class: ShipClass) -> str:
        spec: WarInSpaceClass = ship_class.spec
        dice = ", ".join(f"{s.name} d{s.die}" for s in spec.systems)
        size = f"{spec.size}: " if spec.size else ""
        return f"{ship_class.name} ({size}{dice})"

    def enter_phase(self, session: "Session", phase: str, ctx: "ActionContext") -> None:
        """Seed: "Repairs do not take place until the Damage Control phase after movement"."""
        if phase == DAMAGE_CONTROL_PHASE:
            from .repairs import _carry_out_planned_repairs
            for ship in session.ships:
                for line in _carry_out_planned_repairs(ship):
                    ctx.log(line, ship=ship.id)

    def end_turn(self, session: "Session", ctx: "ActionContext") -> None:
        """[WIS-H7] "Energy not spent this turn is lost at end of turn"."""
        from .energy import discard_energy
        for ship in session.ships:
            line = discard_energy(ship)
            if line:
                ctx.log(line, ship=ship.id)


GAME = WarInSpaceRules()

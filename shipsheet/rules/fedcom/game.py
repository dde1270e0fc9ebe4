"""The Federation Commander entry in the game registry: ``GAME``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipsheet.model.games import GameRules
from shipsheet.model.keypath import Node

from . import state as _state
from .card import CLASS_KEYS, WEAPON_KINDS, FedComClass, parse_card

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.session import ActionContext, Session
    from shipsheet.model.ship import Ship, ShipClass


class FedComRules(GameRules):
    """Federation Commander with the PBEM Default Damage Allocation Procedure (8FC)."""

    id = "fedcom"
    #: [FC-H11] Energy allocation, movement, combat (fire and damage), then the
    #: repair phase at the end of the turn [FC].
    phases = ("Energy", "Movement", "Combat", "Repair")
    class_keys = CLASS_KEYS

    def parse_class(self, node: Node) -> FedComClass:
        return parse_card(node)

    def initial_state(self, ship_class: "ShipClass") -> dict:
        return _state.initial_state(ship_class)

    def check_state(self, ship_class: "ShipClass", node: Node) -> dict:
        return _state.check_state(ship_class, node)

    def check_options(self, node: Node) -> dict:
        """The chart choice: a chart id (or none), and the copy of that chart the session keeps."""
        from .chart import OPTION_CHART, OPTION_CHART_DATA, check_chart_options
        options = super().check_options(node)
        check_chart_options(node.get(OPTION_CHART, None), node.get(OPTION_CHART_DATA, None))
        return options

    def status_chips(self, ship: "Ship") -> list[str]:
        from .status import status_chips
        return status_chips(ship)

    def definition_warnings(self, data) -> list[str]:
        """Fields a box's kind does not use (an arc on a warp box…), named by key path."""
        from .card import unused_fields
        return unused_fields(data)

    def describe_class(self, ship_class: "ShipClass") -> str:
        spec: FedComClass = ship_class.spec
        weapons = sum(1 for b in spec.boxes if b.kind in WEAPON_KINDS)
        # "(sample)" is the picker's to add, for every game alike (it was said twice).
        return (f"{ship_class.name}: {len(spec.boxes)} boxes, {weapons} weapons, "
                f"frame {spec.frame}, damage control {spec.damage_control}")

    def end_turn(self, session: "Session", ctx: "ActionContext") -> None:
        """Every ship: turn states reset, orders lapse (unless copied), repair points lost."""
        from .privacy import ORDERS
        for ship in session.ships:
            for line in _state.end_turn(ship):
                # [FC-H15] whether a ship had orders is its owner's to know.
                private = ORDERS if line in _state.ORDER_LINES else None
                ctx.log(line, ship=ship.id, private=private)


GAME = FedComRules()

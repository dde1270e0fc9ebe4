"""What a Federation Commander player decides for a ship (from a phone or an orders file):
standing orders (hit first, hit last, frame instead, the heavy-weapon type order), copying
them to the next turn, a box's turn state, and the boxes to repair.

Each filled form becomes the action the orders editor, the sheet and the Actions panel
apply (:func:`.actions.edit_orders_action`, :func:`.actions.copy_orders_action`,
:func:`.actions.set_turn_state_action`, :func:`.actions.repair_action`), so the rules, the
refusals and the log are the same. See ``shipsheet/model/decisions.py``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from shipsheet.model.decisions import DECIDE, MARK, GameDecisions, boolean, choice, form, text
from shipsheet.model.errors import RuleViolation

from .actions import (cancel_copy_orders_action, copy_orders_action, edit_orders_action,
                      repair_action, set_turn_state_action)
from .card import card
from .overrides import orders_of
from .state import turn_state, turn_states
from .status import repair_cost

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Action
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

ORDERS, COPY, TURN_STATE, REPAIR = "orders", "copy_orders", "turn_state", "repair"
#: A tap on a box of the card (``box:ph-1``) sets its turn state: fired, charging, used…
#: (shields ``shield:n:k`` and frame ``frame:k`` are damage marks).
BOX_PREFIX = "box:"
#: A box id list is split at commas and spaces ("ph-1, ph-2" or "ph-1 ph-2").
_SEPARATORS = re.compile(r"[,;\s]+")


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _heavy_field(n: int) -> str:
    return f"heavy{n}"


def _frame_field(kind: str) -> str:
    return f"frame:{kind}"


def _repair_field(n: int) -> str:
    return f"repair{n}"


def _id_list_limit(ship: "Ship") -> int:
    """Room for every box id of the card once, comma-separated."""
    return max(80, sum(len(b.id) + 2 for b in card(ship).boxes))


def _frame_kinds(ship: "Ship", orders) -> list[str]:
    """As the orders editor: every kind of the card, and any other kind the orders name."""
    spec = card(ship)
    return list(spec.kinds) + [k for k in orders.frame_instead_of_last if k not in spec.by_kind]


def _box_ids(ship: "Ship", value: str, what: str) -> tuple[str, ...]:
    """Box ids typed in a list, each checked against the ship's card before any use."""
    spec = card(ship)
    ids: list[str] = []
    for box_id in (i for i in _SEPARATORS.split(value) if i):
        if box_id not in spec.box_index:
            raise RuleViolation(f'{what}: {ship.name} has no box "{box_id[:40]}".')
        if box_id in ids:
            raise RuleViolation(f"{what}: {box_id} is listed twice.")
        ids.append(box_id)
    return tuple(ids)


class FedComDecisions(GameDecisions):
    """Nothing for a destroyed ship; standing orders at any time before damage is scored
    [seed 8FC3]; a turn state for each intact box; repairs while repair points are left."""

    def forms(self, session: "Session", ship: "Ship") -> list[dict]:
        st = ship.state
        if st["ship_destroyed"]:
            return []
        forms = [self._orders_form(session, ship)]
        if orders_of(ship) or st.get("next_orders") is not None:
            forms.append(form(COPY, "Copy orders to the next turn", [
                boolean("copy", "Give the same orders next turn",
                        st.get("next_orders") is not None)],
                text="Standing orders lapse at the end of the turn unless they are copied: "
                     "they must be in each SOP (8FC3).", submit="Set"))
        turn = self._turn_state_form(ship)
        if turn is not None:
            forms.append(turn)
        repair = self._repair_form(ship)
        if repair is not None:
            forms.append(repair)
        return forms

    # -- standing orders -----------------------------------------------------------------
    def _orders_form(self, session: "Session", ship: "Ship") -> dict:
        spec = card(ship)
        orders = orders_of(ship)
        limit = _id_list_limit(ship)
        fields = [
            text("first", "Hit first (box ids in order: the first listed is hit first)",
                 ", ".join(orders.first), limit),
            text("last", "Hit last (box ids in order: the last listed is hit last)",
                 ", ".join(orders.last), limit),
        ]
        kinds = _frame_kinds(ship, orders)
        for kind in kinds:
            fields.append(boolean(_frame_field(kind), f"Frame instead of the last {kind} box",
                                  kind in orders.frame_instead_of_last))
        fields.append(boolean("frame_skip", "Frame instead of skipping a point",
                              orders.frame_instead_of_skip))
        types = spec.heavy_types
        if len(types) > 1:
            given = orders.heavy_weapon_order
            ranked = list(given) if given is not None and len(given) == len(types) else None
            for n in range(1, len(types) + 1):
                fields.append({**choice(_heavy_field(n), f"Heavy-weapon type hit {_ordinal(n)}",
                                        [(t, t) for t in types],
                                        ranked[n - 1] if ranked and ranked[n - 1] in types
                                        else None),
                               "optional": True})
        heavy = (f" Heavy-weapon types: rank them all, or leave them empty for the card's "
                 f"order ({', '.join(spec.heavy_weapon_order)})." if len(types) > 1 else "")
        return form(ORDERS, "Standing orders", fields, submit="Give orders", text=(
            f"{ship.name}'s standing orders for turn {session.turn}: they override the Default "
            f"Damage Allocation Procedure for every volley this turn (8FC3). Box ids are "
            f"separated by commas.{heavy}"))

    def _orders_action(self, ship: "Ship", values: dict) -> "Action":
        spec = card(ship)
        orders = orders_of(ship)
        first = _box_ids(ship, values["first"], "Hit first")
        last = _box_ids(ship, values["last"], "Hit last")
        both = [i for i in first if i in last]
        if both:
            # [FC-H7] an id named in more than one place is vague: none of it would apply.
            raise RuleViolation(f"{both[0]} is named in both hit first and hit last, which is "
                                f"vague (house rule FC-H7): name it in one list only.")
        kinds = _frame_kinds(ship, orders)
        frame_kinds = tuple(k for k in kinds if values[_frame_field(k)])
        heavy = orders.heavy_weapon_order
        types = spec.heavy_types
        if len(types) > 1:
            ranked = [values[_heavy_field(n)] for n in range(1, len(types) + 1)]
            if all(t is None for t in ranked):
                heavy = None
            elif any(t is None for t in ranked):
                raise RuleViolation(f"Rank every heavy-weapon type ({', '.join(types)}), or "
                                    f"leave them all empty for the card's order.")
            else:
                twice = next((t for t in ranked if ranked.count(t) > 1), None)
                if twice is not None:
                    raise RuleViolation(f"{twice} is ranked twice: rank each heavy-weapon type "
                                        f"({', '.join(types)}) once.")
                heavy = tuple(ranked)
        new = orders.replaced(first=first, last=last, frame_instead_of_last=frame_kinds,
                              frame_instead_of_skip=values["frame_skip"],
                              heavy_weapon_order=heavy)
        if new == orders:
            raise RuleViolation(f"These are {ship.name}'s standing orders already.")
        return edit_orders_action(ship, new, self._orders_name(orders, new))

    @staticmethod
    def _orders_name(old, new) -> str:
        """What changed, for the undo menu and the log ("Standing orders: hit first, …")."""
        if not new:
            return "none (the DDAP decides)"
        parts = [(new.first != old.first, "hit first"), (new.last != old.last, "hit last"),
                 (new.frame_instead_of_last != old.frame_instead_of_last,
                  "frame instead of the last box"),
                 (new.frame_instead_of_skip != old.frame_instead_of_skip,
                  "frame instead of skipping" if new.frame_instead_of_skip
                  else "skip points again (no frame)"),
                 (new.heavy_weapon_order != old.heavy_weapon_order,
                  "heavy-weapon order " + " → ".join(new.heavy_weapon_order)
                  if new.heavy_weapon_order else "the card's heavy-weapon order")]
        return ", ".join(words for changed, words in parts if changed)

    # -- turn states ---------------------------------------------------------------------
    def _turn_state_form(self, ship: "Ship") -> dict | None:
        spec = card(ship)
        intact = [b for b in spec.boxes if b.id not in ship.state["destroyed"]]
        if not intact:
            return None
        states: list[str] = []
        for box in intact:
            states += [s for s in turn_states(box.kind) if s not in states]
        return form(TURN_STATE, "Turn state of a box", [
            choice("box", "Box", [(b.id, f"{b.id} ({b.kind}: {turn_state(ship, b.id)})")
                                  for b in intact], None),
            choice("state", "This turn", [(s, s) for s in states], None),
        ], submit="Set", text=(
            "Fired, charging or unfired (heavy weapons), fired or unfired (phasers), launched "
            "(drone racks), used, dropped or holding (tractors), used (other systems). "
            "Turn states reset at the end of the turn; charging and holding persist."))

    def _turn_state_action(self, ship: "Ship", values: dict) -> "Action":
        box_id, state = values["box"], values["state"]
        kind = card(ship).box_index[box_id].kind
        same = "launched" if kind == "drone" and state == "fired" else state
        if turn_state(ship, box_id) == same:
            raise RuleViolation(f"{box_id} is {same} already.")
        return set_turn_state_action(ship, box_id, state)

    # -- repair ----------------------------------------------------------------------------
    def _repair_form(self, ship: "Ship") -> dict | None:
        spec = card(ship)
        st = ship.state
        points = spec.damage_control - st["repair_spent"]
        broken = [b for b in st["destroyed"] if b in spec.box_index]
        if not broken or points <= 0:
            return None
        carry = st.get("repair")
        options = []
        for box_id in broken:
            cost = repair_cost(spec, box_id)
            paid = f", {carry['points']} paid" if carry and carry["box"] == box_id else ""
            options.append((box_id, f"{box_id} ({cost} points{paid})"))
        fields = [{**choice(_repair_field(n), f"Repair {_ordinal(n)}", options, None),
                   "optional": True} for n in range(1, min(len(broken), points) + 1)]
        return form(REPAIR, "Repair", fields, submit="Repair", text=(
            f"{points} of {spec.damage_control} repair points left this turn, spent on the "
            f"boxes in the order chosen; points short of a box's cost go toward it and carry "
            f"to the next turn (house rule FC-H10)."))

    def _repair_action(self, ship: "Ship", values: dict) -> "Action":
        ids = [values[_repair_field(n)] for n in range(1, len(values) + 1)
               if values.get(_repair_field(n))]
        if not ids:
            raise RuleViolation("Choose a box to repair.")
        return repair_action(ship, ids)

    # -- the GameDecisions API -----------------------------------------------------------
    def build(self, session: "Session", ship: "Ship", kind: str, values: dict) -> "Action":
        if kind == ORDERS:
            return self._orders_action(ship, values)
        if kind == COPY:
            copied = ship.state.get("next_orders")
            if values["copy"]:
                if copied is not None and copied == ship.state["orders"]:
                    raise RuleViolation(f"{ship.name}'s orders are already copied to the "
                                        f"next turn.")
                return copy_orders_action(ship)
            return cancel_copy_orders_action(ship)
        if kind == TURN_STATE:
            return self._turn_state_action(ship, values)
        if kind == REPAIR:
            return self._repair_action(ship, values)
        return super().build(session, ship, kind, values)

    def tap_right(self, session: "Session", ship: "Ship", key: str) -> str:
        if isinstance(key, str) and key.startswith(BOX_PREFIX):
            if key[len(BOX_PREFIX):] in card(ship).box_index:
                return DECIDE
        return MARK

    def public_state(self, ship: "Ship") -> dict:
        """The state without the owner's standing orders (this turn's and those copied to the
        next): [seed 8FC3] the orders are the player's, sent to the moderator alone."""
        state = super().public_state(ship)
        state["orders"] = {}
        state["next_orders"] = None
        return state


DECISIONS = FedComDecisions()

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

from shipsheet.model.decisions import (TEXT_LIMIT, GameDecisions, all_or_none, boolean, choice,
                                       field_name, field_values, form, numbered, text)
from shipsheet.model.errors import RuleViolation
from shipsheet.model.text import ordinal
from shipsheet.model.update import count_words

from .actions import (cancel_copy_orders_action, copy_orders_action, edit_orders_action,
                      repair_action, set_turn_state_action)
from .card import card
from .overrides import as_overrides, orders_of
from .privacy import ORDERS as PRIVATE
from .state import turn_state, turn_state_refusal, turn_states
from .status import plan_repair, repair_cost, status

if TYPE_CHECKING:  # pragma: no cover
    from shipsheet.model.actions import Action
    from shipsheet.model.session import Session
    from shipsheet.model.ship import Ship

ORDERS, COPY, TURN_STATE, REPAIR = "orders", "copy_orders", "turn_state", "repair"
#: The series of like fields (``model.decisions.field_name``): ``frame:lab`` (a kind),
#: ``heavy1`` … (the heavy-weapon types in rank), ``repair1`` … (the boxes in order).
_FRAME, _HEAVY, _REPAIR = "frame:", "heavy", "repair"
#: A box id list is split at commas and spaces ("ph-1, ph-2" or "ph-1 ph-2").
_SEPARATORS = re.compile(r"[,;\s]+")


def _id_list_limit(ship: "Ship") -> int:
    """Room for every box id of the card once, comma-separated (at least a text field's
    usual room)."""
    return max(TEXT_LIMIT, sum(len(b.id) + 2 for b in card(ship).boxes))


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
    """Nothing for a destroyed ship ([FC], :func:`.status.status`); standing orders at any
    time before damage is scored [seed 8FC3]; a turn state for each box that can take one
    [FC-H5]; repairs while repair points are left [FC], [FC-H10]."""

    def forms(self, session: "Session", ship: "Ship") -> list[dict]:
        st = ship.state
        if status(ship).destroyed:
            return []
        forms = [self._orders_form(session, ship)]
        if orders_of(ship) or st.get("next_orders") is not None:
            forms.append(form(COPY, "Copy orders to the next turn", private=PRIVATE, fields=[
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
        # Frame instead of the last box of a kind [seed 8FC3], or "instead of skipping a
        # damage point" [seed 8FC2].
        for kind in _frame_kinds(ship, orders):
            fields.append(boolean(field_name(_FRAME, kind), f"Frame instead of the last {kind} box",
                                  kind in orders.frame_instead_of_last))
        fields.append(boolean("frame_skip", "Frame instead of skipping a point",
                              orders.frame_instead_of_skip))
        types = spec.heavy_types
        if len(types) > 1:  # [FC-H13] the owner ranks the types of a ship with several
            given = orders.heavy_weapon_order
            ranked = list(given) if given is not None and len(given) == len(types) else None
            for n in numbered(len(types)):
                fields.append(choice(field_name(_HEAVY, n), f"Heavy-weapon type hit {ordinal(n)}",
                                     [(t, t) for t in types],
                                     ranked[n - 1] if ranked and ranked[n - 1] in types else None,
                                     optional=True))
        heavy = (f" Heavy-weapon types: rank them all, or leave them empty for the card's "
                 f"order ({', '.join(spec.heavy_weapon_order)})." if len(types) > 1 else "")
        return form(ORDERS, "Standing orders", fields, submit="Give orders", private=PRIVATE, text=(
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
        frame_kinds = tuple(k for k, on in zip(kinds, field_values(values, _FRAME, kinds)) if on)
        heavy = orders.heavy_weapon_order
        types = spec.heavy_types
        if len(types) > 1:
            # [FC-H13] a type order ranks every type once (``overrides.resolve`` applies no
            # other), or none is given and the card's order applies.
            ranked = field_values(values, _HEAVY, numbered(len(types)))
            if all_or_none(ranked, f"Rank every heavy-weapon type ({', '.join(types)}), or "
                                   f"leave them all empty for the card's order."):
                twice = next((t for t in ranked if ranked.count(t) > 1), None)
                if twice is not None:
                    raise RuleViolation(f"{twice} is ranked twice: rank each heavy-weapon type "
                                        f"({', '.join(types)}) once.")
                heavy = tuple(ranked)
            else:
                heavy = None
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
        """[FC-H5] each box's states (the text says them in words), for the boxes the rule
        gives a turn state now (:func:`.state.turn_state_refusal`: not a destroyed one)."""
        spec = card(ship)
        intact = [b for b in spec.boxes if turn_state_refusal(ship, b.id) is None]
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
        # [seed 8FC4] "Fired/Launched": a drone rack takes "fired" as "launched", as
        # :func:`.state.set_turn_state` does.
        same = "launched" if kind == "drone" and state == "fired" else state
        if turn_state(ship, box_id) == same:
            raise RuleViolation(f"{box_id} is {same} already.")
        return set_turn_state_action(ship, box_id, state)

    # -- repair ----------------------------------------------------------------------------
    def _repair_form(self, ship: "Ship") -> dict | None:
        spec = card(ship)
        st = ship.state
        points = plan_repair(ship, ()).available  # [FC] the rating, less what is spent
        broken = [b for b in st["destroyed"] if b in spec.box_index]
        if not broken or points <= 0:
            return None
        carry = st.get("repair")
        options = []
        for box_id in broken:
            cost = repair_cost(spec, box_id)
            paid = f", {carry['points']} paid" if carry and carry["box"] == box_id else ""
            options.append((box_id, f"{box_id} ({count_words(cost, 'point')}{paid})"))
        fields = [choice(field_name(_REPAIR, n), f"Repair {ordinal(n)}", options, None,
                         optional=True) for n in numbered(min(len(broken), points))]
        return form(REPAIR, "Repair", fields, submit="Repair", text=(
            f"{points} of {spec.damage_control} repair points left this turn, spent on the "
            f"boxes in the order chosen; points short of a box's cost go toward it and carry "
            f"to the next turn (house rule FC-H10)."))

    def _repair_action(self, ship: "Ship", values: dict) -> "Action":
        ids = [i for i in field_values(values, _REPAIR, numbered(len(values))) if i]
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

    def in_force(self, session: "Session", ship: "Ship") -> list[str]:
        """This turn's standing orders (8FC3), and whether they are copied to the next turn
        (a repair under way is damage, in the report's "Your ships")."""
        st = ship.state
        orders = orders_of(ship)
        words = orders.describe()
        lines = [f"Standing orders, turn {session.turn}: "
                 + ("; ".join(words) if words else "none (the DDAP decides)")]
        copied = st.get("next_orders")
        if copied is not None:
            same = copied == st.get("orders")
            nxt = as_overrides(copied).describe()
            lines.append(f"Copied to turn {session.turn + 1}: " + (
                "the same orders" if same else "; ".join(nxt) if nxt else "none"))
        elif words:
            lines.append(f"Not copied: they lapse when turn {session.turn} ends (8FC3).")
        return lines


DECISIONS = FedComDecisions()

"""Federation Commander: carrying a ship's state over to a new version of its class.

The game's ``carry_over`` piece: see :func:`shipsheet.model.update.carry_over`.

Boxes by id (destroyed, turn state, drones left, shuttle occupant, the box under
repair); frame and shield damage up to the new sizes; standing orders (ids the new card
lacks are reported).
"""

from __future__ import annotations

from shipsheet.model.ship import ShipClass
from shipsheet.model.update import ShipUpdate, count_words as _n, some as _some

from .state import turn_states
from .status import repair_cost


def carry_over(old_class: ShipClass, old: dict, new_class: ShipClass, up: ShipUpdate) -> None:
    """Boxes by id, frame and shields up to the new sizes, standing orders, the repair."""
    spec = new_class.spec
    st = up.state
    boxes = spec.box_index

    destroyed = [b for b in old.get("destroyed", []) if b in boxes]
    lost = [b for b in old.get("destroyed", []) if b not in boxes]
    st["destroyed"] = destroyed
    if destroyed:
        up.kept.append(f"{_n(len(destroyed), 'destroyed box', 'destroyed boxes')} "
                       f"({_some(destroyed)})")
    if lost:
        up.unmatched.append(f"destroyed {', '.join(lost)}: no box with that id on the new card")

    for box_id in old_class.spec.box_index:
        if box_id in boxes:  # a box both cards have: its turn state is the ship's, not the card's
            st["turn"].pop(box_id, None)
    for box_id, value in old.get("turn", {}).items():
        box = boxes.get(box_id)
        if box is None or box_id in destroyed:
            continue
        if value in turn_states(box.kind):
            st["turn"][box_id] = value
        else:
            up.unmatched.append(f'{box_id} was "{value}" this turn; a {box.kind} cannot be')
    for box_id, left in old.get("drones", {}).items():
        box = boxes.get(box_id)
        if box is None or box.kind != "drone":
            continue
        st["drones"][box_id] = min(left, box.drones)
        if left > box.drones:
            up.unmatched.append(f"{box_id} held {left} drones; the new rack holds {box.drones}")
    for box_id, who in old.get("occupant", {}).items():
        box = boxes.get(box_id)
        if box is not None and box.kind == "shuttle":
            st["occupant"][box_id] = who

    frame = old.get("frame_hits", 0)
    st["frame_hits"] = min(frame, spec.frame)
    if frame:
        up.kept.append(f"frame {st['frame_hits']} destroyed")
    if frame > spec.frame:
        up.unmatched.append(f"{frame} frame boxes destroyed; the new card has {spec.frame}")
    st["ship_destroyed"] = bool(old.get("ship_destroyed")) and st["frame_hits"] >= spec.frame
    if old.get("ship_destroyed") and not st["ship_destroyed"]:
        up.unmatched.append("the ship was destroyed; with more frame on the new card it is not")

    shields = list(old.get("shield_damage", [0] * 6))[:6]
    shields += [0] * (6 - len(shields))
    for i, damage in enumerate(shields):
        st["shield_damage"][i] = min(damage, spec.shields[i])
        if damage > spec.shields[i]:
            up.unmatched.append(f"shield #{i + 1}: {damage} boxes down; the new shield has "
                                f"{spec.shields[i]}")
    down = [f"#{i + 1} {d}" for i, d in enumerate(st["shield_damage"]) if d]
    if down:
        up.kept.append("shield damage " + ", ".join(down))

    for key in ("orders", "next_orders"):
        orders = old.get(key)
        if orders is None:
            continue
        st[key] = orders
        named = []
        for part in ("first", "last"):
            named += list(orders.get(part, []))
        for ids in (orders.get("order") or {}).values():
            named += list(ids)
        missing = sorted({b for b in named if b not in boxes})
        if missing:
            up.unmatched.append(f"standing orders name {', '.join(missing)}, not on the new card "
                                f"(those orders will be ignored)")
    if old.get("orders"):
        up.kept.append("standing orders")

    repair = old.get("repair")
    if repair:
        box_id = repair.get("box")
        if box_id in destroyed and repair.get("points", 0) < repair_cost(spec, box_id):
            st["repair"] = dict(repair)
            up.kept.append(f"repair of {box_id} under way")
        else:
            up.unmatched.append(f"the repair of {box_id} under way was dropped")
    st["repair_spent"] = min(old.get("repair_spent", 0), spec.damage_control)
    st["volleys"] = old.get("volleys", 0)

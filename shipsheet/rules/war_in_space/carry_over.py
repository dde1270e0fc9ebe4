"""War In Space: carrying a ship's state over to a new version of its class.

The game's ``carry_over`` piece: see :func:`shipsheet.model.update.carry_over`.

Systems by name (marked boxes, up to the new box count) and the critical suits; this
turn's energy, rolled dice and planned repairs stay only when the systems are unchanged in
name and order.
"""

from __future__ import annotations

from shipsheet.model.ship import ShipClass
from shipsheet.model.update import ShipUpdate, count_words as _n, valid_state as _valid

from .terms import SUIT_SYMBOLS


def carry_over(old_class: ShipClass, old: dict, new_class: ShipClass, up: ShipUpdate) -> None:
    """Marks by system name, critical suits, and this turn's energy when the systems match."""
    old_systems = old_class.spec.systems
    new_systems = new_class.spec.systems
    new_index = {s.name.casefold(): i for i, s in enumerate(new_systems)}
    marks = list(up.state["marks"])
    for i, system in enumerate(old_systems):
        m = old["marks"][i] if i < len(old.get("marks", [])) else 0
        j = new_index.get(system.name.casefold())
        if j is None:
            if m:
                up.unmatched.append(f'system "{system.name}" ({_n(m, "marked box")}) is not on '
                                    f"the new class")
            continue
        room = new_systems[j].boxes
        marks[j] = min(m, room)
        if m:
            up.kept.append(f"{new_systems[j].name} {_n(marks[j], 'marked box')}")
        if m > room:
            up.unmatched.append(f"{system.name}: {_n(m, 'marked box')}, the new class has "
                                f"{_n(room, 'box')}; {_n(m - room, 'mark')} dropped")
    up.state["marks"] = marks
    crits = {s: bool(v) for s, v in old.get("criticals", {}).items() if s in up.state["criticals"]}
    up.state["criticals"].update(crits)
    locked = [SUIT_SYMBOLS[s] for s, v in crits.items() if v]
    if locked:
        up.kept.append("critical hits " + " ".join(locked))

    same = [s.name.casefold() for s in old_systems] == [s.name.casefold() for s in new_systems]
    turn = {k: old.get(k) for k in ("energy", "rolled", "planned_repairs")}
    if any(v is not None for v in turn.values()):
        trial = dict(up.state, **(turn if same else {}))
        if same and _valid(new_class, trial, up.ship_name):
            up.state.update(turn)
            up.kept.append("this turn's energy")
        else:
            up.unmatched.append("this turn's energy allocation (dice, card, planned repairs) was "
                                "cleared: it does not fit the new systems; allocate again")

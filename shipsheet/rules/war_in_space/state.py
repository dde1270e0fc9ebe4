"""The damage and energy state of a War In Space ship (plain JSON, saved as is).

Layout of ``ship.state``::

    {
      "marks": [0, 1, 0],                  # marked boxes per system, in system order
      "criticals": {"spades": false, "hearts": false, "diamonds": true, "clubs": false},
      "energy": null | {                   # the allocation committed this turn
        "card": "4D", "dice": [5, 3, 2], "damage_control_announced": true,
        "attack": 3, "defense": 2, "movement": 0, "damage_control": 5,
        "damage_control_spent": 0,
        "sides": [10, 6, 8]                # the die each was rolled on (its system's die then)
      },
      "planned_repairs": null | {"boxes": [0, 1, 0], "criticals": ["diamonds"]
                                 [, "order": [["box", 1], ["critical", "diamonds"]]]},
      "rolled": null | [5, 3, 2]           # energy dice rolled this turn, not yet committed
    }
"""

from __future__ import annotations

from shipsheet.model.errors import RuleViolation
from shipsheet.model.keypath import Node
from shipsheet.model.ship import ShipClass

from .definition import WarInSpaceClass
from .repairs import RepairPlan
from .terms import DAMAGE_CONTROL, ENERGY_ACTIONS, SUITS, parse_card

STATE_KEYS = ("marks", "criticals", "energy", "planned_repairs", "rolled")
ENERGY_KEYS = ("card", "dice", "damage_control_announced", *ENERGY_ACTIONS,
               "damage_control_spent", "sides")
PLAN_KEYS = ("boxes", "criticals", "order")


def initial_state(ship_class: ShipClass) -> dict:
    """An undamaged ship: no box or critical marked, no energy committed, nothing planned."""
    spec: WarInSpaceClass = ship_class.spec
    return {
        "marks": [0 for _ in spec.systems],
        "criticals": {suit: False for suit in SUITS},
        "energy": None,
        "planned_repairs": None,
        "rolled": None,
    }


def _per_system_counts(node: Node, spec: WarInSpaceClass) -> list[int]:
    """A list with one count of boxes per system, each between 0 and that system's boxes."""
    items = node.list()
    if len(items) != len(spec.systems):
        node.fail(f"expected {len(spec.systems)} entries (one per system), found {len(items)}")
    return [item.int(lo=0, hi=system.boxes) for item, system in zip(items, spec.systems)]


def check_state(ship_class: ShipClass, node: Node) -> dict:
    """Validate a state read from a session file; every problem names its key path."""
    spec: WarInSpaceClass = ship_class.spec
    node.table()
    node.only_keys(*STATE_KEYS)

    marks = _per_system_counts(node.get("marks"), spec)

    crit_node = node.get("criticals").table()
    crit_node.only_keys(*SUITS)
    criticals = {suit: crit_node.get(suit).bool() for suit in SUITS}

    energy = _check_energy(node.get("energy", None), spec)
    plan = _check_plan(node.get("planned_repairs", None), spec, marks, criticals, energy)
    rolled = _check_rolled(node.get("rolled", None), spec, energy)
    return {"marks": marks, "criticals": criticals, "energy": energy, "planned_repairs": plan,
            "rolled": rolled}


def _check_rolled(node: Node, spec: WarInSpaceClass, energy: dict | None) -> list[int] | None:
    if node.value is None:
        return None
    dice_nodes = node.list()
    if len(dice_nodes) != len(spec.systems):
        node.fail(f"expected {len(spec.systems)} dice, found {len(dice_nodes)}")
    if energy is not None:
        node.fail("dice rolled for a turn whose energy is already committed")
    return [d.int(lo=0, hi=system.die) for d, system in zip(dice_nodes, spec.systems)]


def _check_energy(node: Node, spec: WarInSpaceClass) -> dict | None:
    if node.value is None:
        return None
    node.table()
    node.only_keys(*ENERGY_KEYS)
    card_node = node.get("card")
    try:
        card = parse_card(card_node.str(max_len=20))
    except RuleViolation as exc:
        card_node.fail(str(exc))
    dice_node = node.get("dice")
    dice_nodes = dice_node.list()
    if len(dice_nodes) != len(spec.systems):
        dice_node.fail(f"expected {len(spec.systems)} dice, found {len(dice_nodes)}")
    dice = [d.int(lo=0, hi=system.die) for d, system in zip(dice_nodes, spec.systems)]
    announced = node.get("damage_control_announced").bool()
    amounts = {key: node.get(key).int(lo=0, hi=3 * 12) for key in ENERGY_ACTIONS}
    spent_node = node.get("damage_control_spent", 0)
    spent = spent_node.int(lo=0, hi=amounts[DAMAGE_CONTROL])
    if sum(amounts.values()) != sum(dice):
        node.fail(f"the energy ({sum(amounts.values())}) does not add up to the dice "
                  f"({sum(dice)})")
    if amounts[DAMAGE_CONTROL] and not announced:
        node.get(DAMAGE_CONTROL).fail("Damage Control energy without Damage Control announced")
    energy = {"card": card.code, "dice": dice, "damage_control_announced": announced,
              **amounts, "damage_control_spent": spent}
    if node.has("sides"):  # sessions saved before it was kept have none
        sides_node = node.get("sides")
        sides_nodes = sides_node.list()
        if len(sides_nodes) != len(spec.systems):
            sides_node.fail(f"expected {len(spec.systems)} dice, found {len(sides_nodes)}")
        sides = [n.int(lo=0, hi=system.die) for n, system in zip(sides_nodes, spec.systems)]
        for i, (value, die) in enumerate(zip(dice, sides)):
            if value > die:
                dice_nodes[i].fail(f"{value} cannot be rolled on a d{die}")
        energy["sides"] = sides
    return energy


def _check_plan(node: Node, spec: WarInSpaceClass, marks: list[int],
                criticals: dict[str, bool], energy: dict | None) -> dict | None:
    if node.value is None:
        return None
    node.table()
    node.only_keys(*PLAN_KEYS)
    boxes = _per_system_counts(node.get("boxes"), spec)
    suits: list[str] = []
    for c in node.get("criticals").list(max_len=len(SUITS)):
        suit = c.str(choices=SUITS)
        if suit in suits:
            c.fail(f'"{suit}" is listed twice')
        suits.append(suit)
    if node.has("order"):  # a priority list: paid in its order when the energy is known
        order = []
        for item in node.get("order").list(max_len=sum(boxes) + len(SUITS) + 1):
            pair = item.list(max_len=2)
            if len(pair) != 2:
                item.fail("an item of the order is [kind, system or suit]")
            if pair[0].str(choices=("box", "critical")) == "box":
                order.append(["box", pair[1].int(lo=0, hi=len(spec.systems) - 1)])
            else:
                order.append(["critical", pair[1].str(choices=SUITS)])
        counts = [sum(1 for k, v in order if k == "box" and v == i) for i in range(len(boxes))]
        if counts != boxes or sorted(v for k, v in order if k == "critical") != sorted(suits):
            node.get("order").fail("lists other repairs than the plan's boxes and criticals")
        return {"boxes": boxes, "criticals": suits, "order": order}
    if energy is None:
        node.fail("repairs are planned but no energy was committed this turn")
    cost = RepairPlan(0, tuple(boxes), tuple(suits)).cost
    available = energy[DAMAGE_CONTROL] - energy["damage_control_spent"]
    if cost > available:
        node.fail(f"the planned repairs cost {cost} energy, more than the {available} "
                  f"Damage Control energy left")
    return {"boxes": boxes, "criticals": suits}

"""Damage on the SDS, marked by hand: system boxes (the die steps down) and critical hits.

[product]: "The combat rules were not published. The sheet therefore lets the
player or referee mark damage by hand: click a system box to mark it (the die
steps down), click a critical box to lock a suit."
"""

from __future__ import annotations

from shipsheet.model.errors import RuleViolation
from shipsheet.model.ship import Ship

from .definition import SystemSpec, spec_of
from .terms import SUIT_SYMBOLS, SUITS, parse_suit


def system_index(ship: Ship, system: object) -> int:
    """The index of the system named ``system`` (case-insensitive), or given by its index."""
    systems = spec_of(ship).systems
    if isinstance(system, SystemSpec):
        system = system.name
    if isinstance(system, int) and not isinstance(system, bool):
        if 0 <= system < len(systems):
            return system
        raise RuleViolation(f"{ship.name} has systems 0 to {len(systems) - 1}, not {system}.")
    if isinstance(system, str):
        wanted = " ".join(system.split()).casefold()
        for i, spec in enumerate(systems):
            if spec.name.casefold() == wanted:
                return i
    names = ", ".join(s.name for s in systems)
    raise RuleViolation(f"{ship.name} has no system {system!r} (its systems: {names}).")


def system_name(ship: Ship, system: object) -> str:
    return spec_of(ship).systems[system_index(ship, system)].name


def marked_boxes(ship: Ship, system: object) -> int:
    """How many of the system's boxes are marked."""
    return ship.state["marks"][system_index(ship, system)]


def current_die(ship: Ship, system: object) -> int:
    """The die the system rolls now, as sides (10 for a d10); 0 when it produces nothing.

    Seed: a repaired box lets the player "roll one die type higher", so each
    marked box steps the die one type down; [WIS-H2] below d4 the system gives 0.
    """
    i = system_index(ship, system)
    return spec_of(ship).systems[i].ladder[ship.state["marks"][i]]


def current_dice(ship: Ship) -> tuple[int, ...]:
    """The current die of each system, in system order (0 for a system at "0")."""
    return tuple(current_die(ship, i) for i in range(len(spec_of(ship).systems)))


def locked_suits(ship: Ship) -> list[str]:
    """Suits whose critical box is marked, in table order (seed: no card of them may be played)."""
    spec_of(ship)
    return [suit for suit in SUITS if ship.state["criticals"][suit]]


def is_dead_in_space(ship: Ship) -> bool:
    """[WIS-H11] All three systems produce 0 energy."""
    return all(d == 0 for d in current_dice(ship))


def mark_system_box(ship: Ship, system: object) -> str:
    """Mark the next box of ``system``: its die steps one type down. Returns a log line.

    [product]: "click a system box to mark it (the die steps down)"; seed: a repaired
    box lets the player "roll one die type higher".
    """
    i = system_index(ship, system)
    spec = spec_of(ship).systems[i]
    marks = ship.state["marks"][i]
    if marks >= spec.boxes:  # [WIS-H12]
        raise RuleViolation(f"All {spec.boxes} boxes of {spec.name} are already marked: a system "
                            f"takes no more marks than its printed boxes (house rule WIS-H12).")
    before = current_die(ship, i)
    ship.state["marks"][i] = marks + 1
    return (f"{spec.name}: box {marks + 1} of {spec.boxes} marked; "
            f"die {die_label(before)} -> {die_label(current_die(ship, i))}")


def mark_critical(ship: Ship, suit: object) -> str:
    """Mark the critical hit of ``suit``: cards of that suit are locked out. Returns a log line.

    Seed: a ship loses "the ability" to play cards from a particular suit
    "after taking damage"; [product]: "click a critical box to lock a suit"; one box a
    suit [WIS-H16].
    """
    suit = parse_suit(suit)
    spec_of(ship)
    if ship.state["criticals"][suit]:
        raise RuleViolation(f"The {SUIT_SYMBOLS[suit]} critical hit is already marked.")
    ship.state["criticals"][suit] = True
    line = f"{SUIT_SYMBOLS[suit]} critical hit marked: {suit} cannot be played"
    if ship.state.get("energy") is not None:  # [WIS-H13]
        line += ("; this turn's committed allocation stands, the lock applies from the next "
                 "Energy Allocation (house rule WIS-H13)")
    return line


def correct_mark(ship: Ship, system: object = None, *, suit: object = None) -> str:
    """Take back a mistaken mark (a system's last box, or a critical); logged as a correction.

    Not a repair: it costs no energy and ignores the phase. [WIS-H10] The sheet
    offers it so a mistake is never fixed silently.
    """
    if (system is None) == (suit is None):
        raise RuleViolation("Say which mark to correct: a system, or a critical hit's suit.")
    if suit is not None:
        suit = parse_suit(suit)
        spec_of(ship)
        if not ship.state["criticals"][suit]:
            raise RuleViolation(f"The {SUIT_SYMBOLS[suit]} critical hit is not marked; "
                                f"there is nothing to correct.")
        ship.state["criticals"][suit] = False
        return f"Correction: {SUIT_SYMBOLS[suit]} critical hit unmarked (a mistaken mark, not a repair)"
    i = system_index(ship, system)
    spec = spec_of(ship).systems[i]
    marks = ship.state["marks"][i]
    if marks == 0:
        raise RuleViolation(f"No box of {spec.name} is marked; there is nothing to correct.")
    ship.state["marks"][i] = marks - 1
    return (f"Correction: {spec.name} box {marks} unmarked (a mistaken mark, not a repair); "
            f"die {die_label(current_die(ship, i))}")


def die_label(sides: int) -> str:
    """"d8", or "0" for a system that produces nothing (as the log and the sheet write it)."""
    return f"d{sides}" if sides else "0"


def damage_summary(ship: Ship) -> list[str]:
    """The ship's damage in a few lines of plain text (a turn report's, under its status
    words): each system's die and boxes marked, and the suits locked by critical hits."""
    systems = []
    for i, system in enumerate(spec_of(ship).systems):
        marks = ship.state["marks"][i]
        hurt = f" ({marks} of {system.boxes} boxes marked)" if marks else ""
        systems.append(f"{system.name} {die_label(current_die(ship, i))}{hurt}")
    lines = ["Systems: " + ", ".join(systems)]
    locked = locked_suits(ship)
    if locked:
        lines.append("Critical hits: " + ", ".join(f"{SUIT_SYMBOLS[s]} {s}" for s in locked))
    return lines

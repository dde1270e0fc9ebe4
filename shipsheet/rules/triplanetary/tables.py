"""The Advanced Combat System's three tables [seed], the odds columns and die
modifiers [2018], and the standard combat table [2018] (a session option).

Every table here is typed in from the seed (``triplanetary-advanced-combat.txt``)
or from the standard-combat table [2018], row by row as printed.
"""

from __future__ import annotations

from ...model.code_cache import dataclass

from shipsheet.model.dice import check_die

#: The odds columns, worst first [2018]: "rounded ... to the columns 1:4, 1:2, 1:1, 2:1, 3:1, 4:1".
COLUMNS = ("1:4", "1:2", "1:1", "2:1", "3:1", "4:1")
#: The kinds of "other damage" [seed] "To-Hit Roll – Other Damage: Torps Mines Asteroid Ram".
OTHER_KINDS = ("torpedo", "mine", "asteroid", "ram")

# [seed] "To-Hit Roll – Guns": roll -> hits per column (1:4 … 4:1); "-" is 0.
_GUN_HITS = {
    1: (0, 0, 0, 0, 0, 1),
    2: (0, 0, 0, 0, 1, 1),
    3: (0, 0, 0, 1, 1, 2),
    4: (0, 0, 1, 1, 2, 2),
    5: (0, 1, 1, 2, 2, 3),
    6: (1, 1, 2, 2, 3, 3),
}

# [seed] "To-Hit Roll – Other Damage": roll -> hits for torpedo, mine, asteroid, ram.
_OTHER_HITS = {
    1: (0, 0, 0, 0),
    2: (0, 0, 0, 0),
    3: (1, 0, 0, 1),
    4: (1, 0, 0, 1),
    5: (1, 1, 1, 2),
    6: (3, 2, 2, 3),
}

# [2018] standard combat, gun table: roll -> result per column ("" is no effect).
_STANDARD_GUNS = {
    1: ("", "", "", "", "", "D2"),
    2: ("", "", "", "", "D2", "D3"),
    3: ("", "", "", "D2", "D3", "D4"),
    4: ("", "", "D2", "D3", "D4", "D5"),
    5: ("", "D2", "D3", "D4", "D5", "E"),
    6: ("D1", "D3", "D4", "D5", "E", "E"),
}

# [2018] standard combat, other damage: "Torpedo 2–4 D1, 5 D2, 6 D3; Mine 5–6 D2;
# Asteroid 5 D1, 6 D2; Ram 3–4 D1, 5 D3, 6 D5."
_STANDARD_OTHER = {
    "torpedo": {2: "D1", 3: "D1", 4: "D1", 5: "D2", 6: "D3"},
    "mine": {5: "D2", 6: "D2"},
    "asteroid": {5: "D1", 6: "D2"},
    "ram": {3: "D1", 4: "D1", 5: "D3", 6: "D5"},
}


@dataclass(frozen=True)
class Damage:
    """D-levels one damage roll adds to each track [seed] "Damage Roll"."""

    weapon: int = 0
    drive: int = 0
    structure: int = 0

    def __add__(self, other: "Damage") -> "Damage":
        return Damage(self.weapon + other.weapon, self.drive + other.drive,
                      self.structure + other.structure)

    def __bool__(self) -> bool:
        return bool(self.weapon or self.drive or self.structure)

    def describe(self) -> str:
        """In the seed's words: ``"1 weapon D, 1 structure D"``; ``"no damage"`` when empty."""
        parts = [f"{n} {word} D" for n, word in ((self.weapon, "weapon"), (self.drive, "drive"),
                                                 (self.structure, "structure")) if n]
        return ", ".join(parts) or "no damage"


# [seed] "Damage Roll – Roll one die: 1 – 1 weapon D / 2 – 1 drive D / 3 – 1 structure D /
# 4 – 1 weapon D, 1 structure D / 5 – 1 weapon D, 1 drive D / 6 – 1 structure D, 1 drive D"
_DAMAGE = {
    1: Damage(weapon=1),
    2: Damage(drive=1),
    3: Damage(structure=1),
    4: Damage(weapon=1, structure=1),
    5: Damage(weapon=1, drive=1),
    6: Damage(structure=1, drive=1),
}


def odds_column(attack: int, defense: int) -> str | None:
    """The odds column of ``attack`` against ``defense``, rounded in the defender's favour.

    [2018] "Odds = total attacking strength : total defending strength, rounded in
    favour of the defender ... Better than 4:1 uses 4:1; worse than 1:4 has no effect."
    None means no effect. A defense of 0 against any attack is 4:1 [TRI-H4].
    """
    for name, value in (("attack", attack), ("defense", defense)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} strength must be a whole number of at least 0, not {value!r}")
    if attack == 0:
        return None
    # Compare with whole numbers only: a : d is at least n:1 when a >= n*d, 1:n when n*a >= d.
    for column, (num, den) in (("4:1", (4, 1)), ("3:1", (3, 1)), ("2:1", (2, 1)),
                               ("1:1", (1, 1)), ("1:2", (1, 2)), ("1:4", (1, 4))):
        if attack * den >= defense * num:
            return column
    return None


def modified_roll(roll: int, *, range: int = 0, relative_velocity: int = 0,
                  heroic: bool = False) -> int:
    """The gun to-hit roll after the die modifiers (may fall below 1 or above 6).

    [2018] "−1 per hex of range; −1 per hex of relative velocity beyond 2; +1 for a heroic ship."
    """
    for name, value in (("range", range), ("relative velocity", relative_velocity)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a whole number of hexes (0 or more), not {value!r}")
    return roll - range - max(0, relative_velocity - 2) + (1 if heroic else 0)


def gun_modifier(*, range: int = 0, relative_velocity: int = 0, heroic: bool = False) -> int:
    """The sum of the gun die modifiers [2018] (see :func:`modified_roll`)."""
    return modified_roll(0, range=range, relative_velocity=relative_velocity, heroic=heroic)


def gun_modifier_parts(*, range: int = 0, relative_velocity: int = 0,
                       heroic: bool = False) -> tuple[tuple[str, int], ...]:
    """Each gun die modifier that applies, with its reason in words [2018]:
    ``(("range 3", -3), ("relative velocity 5", -3), ("heroic", 1))``; they add up to
    :func:`gun_modifier`."""
    modified_roll(0, range=range, relative_velocity=relative_velocity, heroic=heroic)  # checks
    parts = []
    if range:
        parts.append((f"range {range}", -range))
    if relative_velocity > 2:
        parts.append((f"relative velocity {relative_velocity}", -(relative_velocity - 2)))
    if heroic:
        parts.append(("heroic", 1))
    return tuple(parts)


def _clamp(roll: int) -> int | None:
    """[2018] "A modified roll below 1 has no effect; above 6 counts as 6." None: no effect."""
    if isinstance(roll, bool) or not isinstance(roll, int):
        raise ValueError(f"a roll must be a whole number, not {roll!r}")
    if roll < 1:
        return None
    return min(roll, 6)


def _column_index(column: str) -> int:
    if column not in COLUMNS:
        raise ValueError(f'unknown odds column "{column}" (expected one of: {", ".join(COLUMNS)})')
    return COLUMNS.index(column)


def _kind_index(kind: str) -> int:
    if kind not in OTHER_KINDS:
        raise ValueError(f'unknown kind of damage "{kind}" (expected one of: {", ".join(OTHER_KINDS)})')
    return OTHER_KINDS.index(kind)


def gun_hits(column: str | None, roll: int) -> int:
    """Hits from the [seed] "To-Hit Roll – Guns" table; column None (worse than 1:4) gives 0."""
    roll = _clamp(roll)
    if column is None:
        return 0
    index = _column_index(column)
    return 0 if roll is None else _GUN_HITS[roll][index]


def other_hits(kind: str, roll: int) -> int:
    """Hits from the [seed] "To-Hit Roll – Other Damage" table (torpedo, mine, asteroid, ram)."""
    index = _kind_index(kind)
    roll = _clamp(roll)
    return 0 if roll is None else _OTHER_HITS[roll][index]


def damage_for_roll(roll: int) -> Damage:
    """What one damage roll (a d6, 1–6) does [seed] "Damage Roll – Roll one die"."""
    return _DAMAGE[check_die(roll, 6, "a damage roll")]


def standard_gun_result(column: str | None, roll: int) -> str | None:
    """Standard combat's gun table [2018]: ``"D1"``…``"D5"``, ``"E"``, or None (no effect)."""
    roll = _clamp(roll)
    if column is None:
        return None
    index = _column_index(column)
    return (_STANDARD_GUNS[roll][index] or None) if roll is not None else None


def standard_other_result(kind: str, roll: int) -> str | None:
    """Standard combat's other damage [2018]: ``"D1"``…``"D5"`` or None (no effect)."""
    _kind_index(kind)
    roll = _clamp(roll)
    return None if roll is None else _STANDARD_OTHER[kind].get(roll)


def standard_levels(result: str | None) -> int:
    """The D-levels a standard ``"D1"``…``"D5"`` result adds; 0 for None and for ``"E"``
    (eliminated outright, kept as its own mark: [2018] "D6 or more, or E, destroys the ship")."""
    if result is None or result == "E":
        return 0
    if len(result) == 2 and result[0] == "D" and result[1] in "12345":
        return int(result[1])
    raise ValueError(f'unknown standard combat result "{result}"')

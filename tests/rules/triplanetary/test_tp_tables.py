"""The three tables of the seed, cell by cell, the odds columns and the die modifiers.

The expected values are the seed's tables as printed (copied below from
``triplanetary-advanced-combat.txt``), parsed here, not read back from the code.
"""

import pytest

from shipsheet.model import RuleViolation
from shipsheet.rules.triplanetary import (Damage, damage_for_roll, gun_hits, gun_modifier,
                                          modified_roll, odds_column, other_hits)

SEED_GUNS = """
Roll 1:4 1:2 1:1 2:1 3:1 4:1
1     -   -   -   -   -   1
2     -   -   -   -   1   1
3     -   -   -   1   1   2
4     -   -   1   1   2   2
5     -   1   1   2   2   3
6     1   1   2   2   3   3
"""

SEED_OTHER = """
Roll  Torps Mines Asteroid Ram
1       -     -      -      -
2       -     -      -      -
3       1     -      -      1
4       1     -      -      1
5       1     1      1      2
6       3     2      2      3
"""

SEED_DAMAGE = """
1 – 1 weapon D
2 – 1 drive D
3 – 1 structure D
4 – 1 weapon D, 1 structure D
5 – 1 weapon D, 1 drive D
6 – 1 structure D, 1 drive D
"""


def _cells(text):
    lines = [line.split() for line in text.strip().splitlines()]
    header = lines[0][1:]
    for row in lines[1:]:
        roll = int(row[0])
        for name, cell in zip(header, row[1:]):
            yield name, roll, 0 if cell == "-" else int(cell)


GUN_CELLS = list(_cells(SEED_GUNS))
KINDS = {"Torps": "torpedo", "Mines": "mine", "Asteroid": "asteroid", "Ram": "ram"}
OTHER_CELLS = [(KINDS[k], roll, hits) for k, roll, hits in _cells(SEED_OTHER)]


def _damage_rows():
    for line in SEED_DAMAGE.strip().splitlines():
        roll, text = line.split(" – ")
        amounts = {"weapon": 0, "drive": 0, "structure": 0}
        for part in text.split(", "):
            n, track, _d = part.split()
            amounts[track] = int(n)
        yield int(roll), amounts


def test_the_seed_tables_have_every_cell():
    assert len(GUN_CELLS) == 36 and len(OTHER_CELLS) == 24 and len(list(_damage_rows())) == 6


@pytest.mark.parametrize("column,roll,hits", GUN_CELLS)
def test_gun_table_cell(column, roll, hits):
    """[seed] "To-Hit Roll – Guns": one d6 on the odds column gives the hits."""
    assert gun_hits(column, roll) == hits


@pytest.mark.parametrize("kind,roll,hits", OTHER_CELLS)
def test_other_damage_table_cell(kind, roll, hits):
    """[seed] "To-Hit Roll – Other Damage": Torps, Mines, Asteroid, Ram."""
    assert other_hits(kind, roll) == hits


@pytest.mark.parametrize("roll,amounts", list(_damage_rows()))
def test_damage_roll(roll, amounts):
    """[seed] "Damage Roll – Roll one die": e.g. "4 – 1 weapon D, 1 structure D"."""
    assert damage_for_roll(roll) == Damage(**amounts)
    d = damage_for_roll(roll)
    assert (d.weapon, d.drive, d.structure) == (amounts["weapon"], amounts["drive"],
                                                amounts["structure"])


@pytest.mark.parametrize("roll", [0, 7, -1, "3", 2.0, True])
def test_damage_roll_must_be_a_die(roll):
    with pytest.raises(RuleViolation):
        damage_for_roll(roll)


def test_damage_describes_itself_in_the_seed_words():
    assert damage_for_roll(4).describe() == "1 weapon D, 1 structure D"
    assert Damage().describe() == "no damage"


@pytest.mark.parametrize("attack,defense,column", [
    (15, 4, "3:1"),    # 3.75:1 rounds down to 3:1
    (8, 16, "1:2"),    # exactly 1:2
    (2, 9, None),      # 1:4.5 is worse than 1:4: no effect
    (100, 1, "4:1"),   # better than 4:1 uses 4:1
    (4, 4, "1:1"),
    (7, 4, "1:1"),     # 1.75:1 -> 1:1
    (8, 4, "2:1"),
    (11, 4, "2:1"),
    (16, 4, "4:1"),
    (3, 4, "1:2"),     # 0.75 -> 1:2
    (1, 2, "1:2"),
    (1, 3, "1:4"),     # 1:3 -> 1:4
    (2, 8, "1:4"),     # exactly 1:4
    (1, 5, None),
    (0, 5, None),
    (5, 0, "4:1"),
])
def test_odds_rounded_in_the_defenders_favour(attack, defense, column):
    """[2018] "Odds = total attacking strength : total defending strength, rounded in favour
    of the defender ... Better than 4:1 uses 4:1; worse than 1:4 has no effect." """
    assert odds_column(attack, defense) == column


@pytest.mark.parametrize("bad", [(-1, 4), (4, -1), (1.5, 4), (True, 4)])
def test_odds_refuse_impossible_strengths(bad):
    with pytest.raises(ValueError):
        odds_column(*bad)


def test_no_column_no_hits():
    """[2018] "worse than 1:4 has no effect"."""
    assert gun_hits(None, 6) == 0


def test_modifiers():
    """[2018] "−1 per hex of range; −1 per hex of relative velocity beyond 2; +1 for a heroic
    ship." """
    assert modified_roll(5, range=2) == 3
    assert modified_roll(5, relative_velocity=2) == 5
    assert modified_roll(5, relative_velocity=4) == 3
    assert modified_roll(5, heroic=True) == 6
    assert modified_roll(4, range=1, relative_velocity=3, heroic=True) == 3
    assert gun_modifier(range=3, relative_velocity=5) == -6
    with pytest.raises(ValueError):
        modified_roll(4, range=-1)


def test_modified_roll_limits():
    """[2018] "A modified roll below 1 has no effect; above 6 counts as 6." """
    assert gun_hits("4:1", 0) == 0          # the 4:1 column hits on a 1, but 0 is no effect
    assert gun_hits("4:1", -3) == 0
    assert gun_hits("1:4", 7) == 1          # 7 counts as 6
    assert gun_hits("3:1", 9) == 3
    assert other_hits("torpedo", 8) == 3
    assert other_hits("ram", 0) == 0


def test_unknown_column_and_kind_are_refused():
    with pytest.raises(ValueError, match="1:3"):
        gun_hits("1:3", 4)
    with pytest.raises(ValueError, match="laser"):
        other_hits("laser", 4)

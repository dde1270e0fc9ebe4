"""Issue 31: typed DAC rolls too few for the volley are refused in words that say how many
are needed — never topped up from the session dice (once said in one sentence only)."""

from __future__ import annotations

import random

import pytest

from fc_helpers import box, make_ship, uniform_chart
from shipsheet.model import RuleViolation
from shipsheet.rules.fedcom import allocate_volley


def _ship():
    return make_ship([box(f"h{n}", "forward-hull") for n in range(40)]), uniform_chart("forward-hull")


def test_a_12_point_volley_with_one_typed_roll_is_refused_saying_two_are_needed():
    ship, ch = _ship()
    with pytest.raises(RuleViolation) as refused:
        allocate_volley(ship, 12, rolls=[3], chart=ch, rng=random.Random(5))
    text = str(refused.value)
    assert "needs 2 DAC rolls" in text and "1 was typed" in text and "type 1 more" in text


def test_typed_rolls_enough_are_used_alone_and_none_typed_rolls_every_row():
    ship, ch = _ship()
    typed = allocate_volley(ship, 12, rolls=[3, 4], chart=ch, rng=random.Random(5))
    assert typed.rolls == [3, 4] and typed.typed == 2 and typed.dice_words() == " (dice typed in)"
    rolled = allocate_volley(ship, 12, chart=ch, rng=random.Random(5))
    assert len(rolled.rolls) == 2 and rolled.typed == 0
    with pytest.raises(RuleViolation, match=r"needs 3 DAC rolls .* and 0 were typed: type 3 more"):
        allocate_volley(ship, 25, rolls=[], chart=ch, rng=random.Random(5))

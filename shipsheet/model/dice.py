"""Session dice: seeded, reproducible, every roll logged, physical rolls accepted.

Each roll is derived from the session seed and the roll's number, so a
session replays exactly from its file, and undoing a change rewinds the
counter: undo and redo the same attack and the same dice come up again.

Physical dice: :meth:`Dice.type_in` queues values read off real dice; the
next rolls take them instead of random numbers, after checking each is
possible on the die being rolled.
"""

from __future__ import annotations

import random
import os
from typing import Callable

from .errors import RuleViolation


def check_die(value: object, sides: int, what: str = "") -> int:
    """Return ``value`` if a ``sides``-sided die can show it, else refuse."""
    label = f" for {what}" if what else ""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(f"A die roll{label} must be a whole number, not {value!r}.")
    if not 1 <= value <= sides:
        raise RuleViolation(
            f"A d{sides} shows 1 to {sides}; {value} is impossible{label}.")
    return value


class Dice:
    """The session's dice. Usable as the ``rng`` of rule functions."""

    def __init__(self, seed: int | None = None, count: int = 0):
        self.seed = seed if seed is not None else int.from_bytes(os.urandom(6), "big")
        self.count = count
        self._typed: list[int] = []
        # Set by the session while an action runs, so rolls land in its log.
        self.on_roll: Callable[[int, int, str, bool], None] | None = None

    def copy(self) -> "Dice":
        """Dice that roll exactly what these roll next (typed-in values included) and log
        nowhere: for previews and trials that must not move the session's dice."""
        copy = Dice(self.seed, self.count)
        copy._typed = list(self._typed)
        return copy

    # -- physical dice --------------------------------------------------
    def type_in(self, *values: int) -> None:
        """Queue rolls read off physical dice; they are used before random ones."""
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise RuleViolation(f"A die roll must be a whole number of at least 1, not {v!r}.")
        self._typed.extend(values)

    def clear_typed(self) -> None:
        self._typed.clear()

    @property
    def typed_pending(self) -> tuple[int, ...]:
        return tuple(self._typed)

    # -- rolling --------------------------------------------------------
    def _random(self, sides: int) -> int:
        rng = random.Random(f"{self.seed}:{self.count}")
        self.count += 1
        return rng.randint(1, sides)

    def roll(self, sides: int = 6, reason: str = "") -> int:
        """Roll one die of ``sides`` sides (typed-in value first), and log it."""
        if sides < 1:
            raise RuleViolation(f"A die needs at least one side, not {sides}.")
        typed = bool(self._typed)
        if typed:
            value = check_die(self._typed[0], sides, reason)
            self._typed.pop(0)
        else:
            value = self._random(sides)
        if self.on_roll is not None:
            self.on_roll(sides, value, reason, typed)
        return value

    # random.Random-compatible subset, for rule functions taking ``rng``.
    def randint(self, a: int, b: int) -> int:
        return a - 1 + self.roll(b - a + 1, "random choice")

    def choice(self, seq):
        return seq[self.randint(1, len(seq)) - 1]

"""A rule the referee may set aside for one action, and the words the log keeps when he does.

Timing readings ([TRI-H15], [TRI-H16], [TRI-H18]) are refused unless the referee ticks an
override; the ruling is then written in the log, so a table can see every exception made.
"""

from __future__ import annotations

from shipsheet.model.errors import RuleViolation


class Rulings:
    """The referee's rulings one action needed, collected while its rules are checked."""

    def __init__(self) -> None:
        self.words: list[str] = []

    def require(self, ok: bool, overridden: bool, refusal: str, ruling: str) -> None:
        """Nothing when ``ok``; else refused with ``refusal``, unless the referee
        ``overridden`` it — then ``ruling`` is kept for the log."""
        if ok:
            return
        if not overridden:
            raise RuleViolation(refusal)
        self.words.append(ruling)


__all__ = ["Rulings"]

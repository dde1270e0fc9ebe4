"""House rules: our readings where a game's rule text is silent, each with a short stable id.

[product]: "House rules must be visible in the UI, never silent." Each game lists its
readings as :class:`HouseRule` entries (its ``house_rules`` piece). The id (``"TRI-H7"``)
is cited in the code at the place the reading is applied, in the game's ``RULES.md`` and
on Help ▸ Rules and House Rules; a test checks that every cited id is listed and every
listed id is cited. Ids are never reused: a reading dropped keeps its number retired.
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple

#: A house-rule id as cited in code and documents: a game prefix, "-H", a number.
HOUSE_ID = re.compile(r"\b[A-Z]{2,5}-H\d+\b")


class HouseRule(NamedTuple):
    """One house reading: its stable ``id``, a short ``topic`` and the ``text`` users read."""

    id: str
    topic: str
    text: str

    def tip(self) -> str:
        """The reading as a tooltip or help line: ``"House rule TRI-H7 (Several targets): …"``."""
        return f"House rule {self.id} ({self.topic}): {self.text}"


def find_house_rule(rules: Iterable[HouseRule], key: str) -> HouseRule:
    """The rule whose id or topic is ``key`` (case-insensitive); KeyError naming them all."""
    rules = list(rules)
    folded = key.casefold()
    for rule in rules:
        if folded in (rule.id.casefold(), rule.topic.casefold()):
            return rule
    raise KeyError(f'no house rule "{key}" (known: '
                   f'{", ".join(f"{r.id} {r.topic}" for r in rules)})')


def check_house_rules(prefix: str, rules: Iterable[HouseRule]) -> tuple[HouseRule, ...]:
    """The rules as a tuple, after checking each id has the game's ``prefix`` and is unique,
    and each topic is unique (a mistake here is a programming error, so it raises)."""
    rules = tuple(rules)
    ids, topics = set(), set()
    for rule in rules:
        if not re.fullmatch(rf"{re.escape(prefix)}-H\d+", rule.id) or rule.id in ids:
            raise ValueError(f"house rule id {rule.id!r}: expected a new {prefix}-H<number>")
        if rule.topic.casefold() in topics:
            raise ValueError(f"house rule topic {rule.topic!r} is listed twice")
        ids.add(rule.id)
        topics.add(rule.topic.casefold())
    return rules


__all__ = ["HOUSE_ID", "HouseRule", "check_house_rules", "find_house_rule"]

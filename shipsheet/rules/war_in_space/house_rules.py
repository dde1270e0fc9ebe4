"""The [house] readings of War In Space, for the UI's help ("House rule" entries).

[product]: "Everything marked [house] is our reading, chosen to be consistent with
the seed. House rules must be visible in the UI (a "House rule" tooltip or
help entry), never silent."
"""

from __future__ import annotations

#: (topic, text) pairs, in the order of the rules text. Topics are stable keys
#: the UI may use to attach a tooltip to the matching part of the sheet.
HOUSE_RULES: tuple[tuple[str, str], ...] = (
    ("Three energy systems",
     "A ship has exactly three energy systems, one per energy die (e.g. Reactor, Drive, "
     "Fire Control)."),
    ("A system at 0",
     "Each marked box steps the system's die one type down (d12, d10, d8, d6, d4). When the "
     "marks step it below d4 the system produces 0 energy: its die counts 0 and is not rolled. "
     "A system has at most as many boxes as steps from its die to 0 (d10: 4 boxes)."),
    ("Tertiary action",
     "The suit table gives each suit a Primary and a Secondary action; the third action of "
     "Attack, Defense and Movement is that suit's Tertiary action."),
    ("Jokers are never locked",
     "A critical hit locks out the cards of its suit; a Joker has no suit and can always be "
     "played."),
    ("Allocation without Damage Control",
     "Without Damage Control the seed's pattern moves up one slot: Ace to 10 gives the highest "
     "die to the Primary action, the middle one to the Secondary and the lowest to the Tertiary; "
     "J, Q, K give highest + middle to the Primary and the lowest to the Secondary; a Joker lets "
     "the player put each die into Attack, Defense or Movement (not Damage Control)."),
    ("One roll, one commit per turn",
     "The energy dice are rolled once and the allocation committed once per turn; to change "
     "either, undo it (the session's seeded dice then show the same values again)."),
    ("Unspent energy is lost",
     "Energy not spent this turn is lost at the end of the turn, Damage Control energy included; "
     "repairs still planned then are dropped."),
    ("Turn sequence",
     "Each turn: Energy Allocation, Movement, Damage Control (planned repairs take effect: the "
     "seed's \"Damage Control phase after movement\"), Combat, then the end of the turn."),
    ("Planning repairs",
     "Repairs planned before the Damage Control phase wait for it; planned during it they take "
     "effect at once; after it (in Combat) they are refused, as this turn's Damage Control "
     "energy can no longer be spent. A planned repair "
     "whose mark was corrected before the phase is dropped and costs nothing."),
    ("Correct mark",
     "A mistaken damage mark is taken back with Undo or with \"Correct mark\", which is logged as "
     "a correction. It is not a repair and costs no energy."),
    ("Dead in space",
     "A ship whose three systems all produce 0 energy is shown as Dead in space."),
)


def house_rule(topic: str) -> str:
    """The text of the house rule on ``topic`` (KeyError naming the topics if unknown)."""
    for name, text in HOUSE_RULES:
        if name.casefold() == topic.casefold():
            return text
    raise KeyError(f'no house rule "{topic}" (topics: {", ".join(n for n, _ in HOUSE_RULES)})')

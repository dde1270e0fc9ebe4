"""The [house] readings of War In Space, for the UI's help ("House rule" entries).

[product]: "Everything marked [house] is our reading, chosen to be consistent with
the seed. House rules must be visible in the UI (a "House rule" tooltip or
help entry), never silent."
"""

from __future__ import annotations

from shipsheet.model.house import HouseRule as H, check_house_rules, find_house_rule

#: Every house reading, in the order of the rules text. Ids and topics are stable keys: the
#: code cites the id where it applies the reading, the UI finds a tooltip by either.
HOUSE_RULES: tuple[H, ...] = check_house_rules("WIS", (
    H("WIS-H1", "Three energy systems",
      "A ship has exactly three energy systems, one per energy die (e.g. Reactor, Drive, "
      "Fire Control)."),
    H("WIS-H2", "A system at 0",
      "Each marked box steps the system's die one type down (d12, d10, d8, d6, d4). When the "
      "marks step it below d4 the system produces 0 energy: its die counts 0 and is not rolled. "
      "A system has at most as many boxes as steps from its die to 0 (d10: 4 boxes)."),
    H("WIS-H3", "Tertiary action",
      "The suit table gives each suit a Primary and a Secondary action; the third action of "
      "Attack, Defense and Movement is that suit's Tertiary action."),
    H("WIS-H4", "Jokers are never locked",
      "A critical hit locks out the cards of its suit; a Joker has no suit and can always be "
      "played."),
    H("WIS-H5", "Allocation without Damage Control",
      "Without Damage Control the seed's pattern moves up one slot: Ace to 10 gives the highest "
      "die to the Primary action, the middle one to the Secondary and the lowest to the Tertiary; "
      "J, Q, K give highest + middle to the Primary and the lowest to the Secondary; a Joker lets "
      "the player put each die into Attack, Defense or Movement (not Damage Control)."),
    H("WIS-H6", "One roll, one commit per turn",
      "The energy dice are rolled once and the allocation committed once per turn; to change "
      "either, undo it (the session's seeded dice then show the same values again)."),
    H("WIS-H7", "Unspent energy is lost",
      "Energy not spent this turn is lost at the end of the turn, Damage Control energy included; "
      "repairs still planned then are dropped."),
    H("WIS-H8", "Turn sequence",
      "Each turn: Energy Allocation, Movement, Damage Control (planned repairs take effect: the "
      "seed's \"Damage Control phase after movement\"), Combat, then the end of the turn."),
    H("WIS-H9", "Planning repairs",
      "Repairs planned before the Damage Control phase wait for it; planned during it they take "
      "effect at once; after it (in Combat) they are refused, as this turn's Damage Control "
      "energy can no longer be spent. A planned repair "
      "whose mark was corrected before the phase is dropped and costs nothing."),
    H("WIS-H10", "Correct mark",
      "A mistaken damage mark is taken back with Undo or with \"Correct mark\", which is logged as "
      "a correction. It is not a repair and costs no energy."),
    H("WIS-H11", "Dead in space",
      "A ship whose three systems all produce 0 energy is shown as Dead in space."),
    H("WIS-H12", "Marks stop at the printed boxes",
      "A system takes no more marks than the boxes printed for it; a mark on a system whose "
      "boxes are all marked is refused. The rule text does not say what further damage to "
      "such a system does."),
    H("WIS-H13", "A critical after the commit",
      "A critical hit marked after the turn's card was committed leaves that allocation "
      "standing: the suit is locked out from the next Energy Allocation on. The rule text "
      "does not say whether a lock reaches back into a turn already allocated."),
    H("WIS-H14", "Cards revealed when Energy Allocation ends",
      "The text has the Energy Allocation card revealed (\"when a Joker is revealed\"). "
      "ShipSheet reveals every ship's card together when the phase ends: until then a ship's "
      "committed card, Damage Control, dice and energy are its owner's (and the referee's), "
      "from the next phase on everyone's."),
    H("WIS-H15", "A second repair plan replaces the first",
      "A ship plans its repairs once or more in a turn; each plan replaces the one before, "
      "which costs nothing. The text gives one Damage Control budget a turn and says nothing "
      "of changing a plan."),
    H("WIS-H16", "One critical box per suit",
      "A suit has one critical-hit box: it is marked or not, and one repair (8 energy) clears "
      "it. The text speaks of losing \"the ability ... to play cards from a particular "
      "suit\", not of several hits to one suit."),
))


def house_rule(key: str) -> str:
    """The house rule with id or topic ``key`` as a tooltip line ("House rule WIS-H2 (A system
    at 0): …"); KeyError naming the rules if unknown."""
    return find_house_rule(HOUSE_RULES, key).tip()

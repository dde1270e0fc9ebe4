"""The words of War In Space: dice, suits, action types, cards, and how players write them."""

from __future__ import annotations

from ...model.code_cache import dataclass

from shipsheet.model.errors import RuleViolation

#: [product]: "an undamaged die type from the ladder d4 < d6 < d8 < d10 < d12".
DIE_LADDER = (4, 6, 8, 10, 12)
#: The suits in table order (spec: "for each suit ♠ ♥ ♦ ♣").
SUITS = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
SUIT_LETTERS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
#: Seed: "the three basic action types: attack, defense and movement".
ACTIONS = ("attack", "defense", "movement")
DAMAGE_CONTROL = "damage_control"
#: The four amounts of an Energy Allocation, in table order (the allocation tables [seed]).
ENERGY_ACTIONS = (*ACTIONS, DAMAGE_CONTROL)
ACTION_TITLES = {"attack": "Attack", "defense": "Defense", "movement": "Movement",
                 DAMAGE_CONTROL: "Damage Control"}

_SUIT_WORDS: dict[str, str] = {}
for _suit in SUITS:
    for _word in (_suit, _suit[:-1], SUIT_LETTERS[_suit], SUIT_SYMBOLS[_suit]):
        _SUIT_WORDS[_word.casefold()] = _suit
# The white (outline) symbols some keyboards and fonts produce.
_SUIT_WORDS.update({"♤": "spades", "♡": "hearts", "♢": "diamonds", "♧": "clubs"})

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACE_RANKS = ("J", "Q", "K")
JOKER = "JOKER"


def _clean(text: str) -> str:
    # Emoji presentation selectors (♦️) and spaces carry no meaning here.
    return "".join(ch for ch in text if ch not in "\ufe0f\ufe0e").strip()


def parse_suit(suit: object) -> str:
    """The suit named by S/H/D/C, ♠♥♦♣ or spades/hearts/diamonds/clubs (any case)."""
    if isinstance(suit, str):
        found = _SUIT_WORDS.get(_clean(suit).casefold())
        if found:
            return found
    raise RuleViolation(
        f"{suit!r} is not a suit: use S, H, D, C, ♠ ♥ ♦ ♣, or spades, hearts, diamonds, clubs.")


def parse_action(action: object) -> str:
    """attack / defense / movement / damage_control, from a player's spelling."""
    if isinstance(action, str):
        word = _clean(action).casefold().replace("-", " ").replace("_", " ")
        word = " ".join(word.split())
        if word in ("defence",):
            word = "defense"
        if word in ACTIONS:
            return word
        if word in ("damage control", "dc"):
            return DAMAGE_CONTROL
    raise RuleViolation(f"{action!r} is not an action type: use Attack, Defense or Movement.")


@dataclass(frozen=True)
class Card:
    """A played Energy Allocation card: rank A, 2-10, J, Q, K with a suit, or the Joker."""

    rank: str
    suit: str | None = None

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_face(self) -> bool:
        """Seed: "If a face card is played" (J, Q, K)."""
        return self.rank in FACE_RANKS

    @property
    def code(self) -> str:
        """The card as stored: "4D", "10H", "QS", "JOKER"."""
        return JOKER if self.is_joker else f"{self.rank}{SUIT_LETTERS[self.suit]}"

    @property
    def label(self) -> str:
        """The card as shown: "4♦", "Joker"."""
        return "Joker" if self.is_joker else f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self.label


def parse_card(card: object) -> Card:
    """Read a card written "4D", "10H", "QS", "AC", "JOKER" (any case; suits S H D C or ♠♥♦♣)."""
    if isinstance(card, Card):
        return card
    if not isinstance(card, str):
        raise RuleViolation(f"{card!r} is not a card: write it like 4D, 10H, QS, AC or JOKER.")
    text = "".join(_clean(card).split()).upper()
    if text in (JOKER, "JK"):
        return Card(JOKER)
    for rank in sorted(RANKS, key=len, reverse=True):
        if text.startswith(rank) and len(text) > len(rank):
            suit = _SUIT_WORDS.get(text[len(rank):].casefold())
            if suit:
                return Card(rank, suit)
            break
    raise RuleViolation(
        f'"{card}" is not a card: write a rank (A, 2-10, J, Q, K) and a suit '
        f"(S, H, D, C or ♠ ♥ ♦ ♣), like 4D, 10H, QS or AC, or JOKER.")

"""Cards, ranks, suits and the deck, with the notation players type: ``5H``, ``TD``, ``10d``, ``J♠``.

A card is a small frozen value that parses and prints itself. Ranks run A (1) to K (13): the order
for runs and for cutting. The *value* of a card is what it adds to a fifteen or to the count in the
play (A = 1, 2-10 face value, J Q K = 10).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Iterable

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "CardError",
    "DECK",
    "parse_card",
    "parse_cards",
    "format_cards",
]


class CardError(ValueError):
    """A card string that cannot be read, or a card given twice where that is not allowed."""


class Rank(IntEnum):
    """Card rank in cutting and run order: the ace is always low."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """One-character notation: ``A 2 … 9 T J Q K``."""
        return _RANK_SYMBOLS[self - 1]


class Suit(Enum):
    """Card suit; it matters only for flushes and nobs."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The suit glyph: ``♠ ♥ ♦ ♣``."""
        return _SUIT_GLYPHS[self.value]

    @property
    def index(self) -> int:
        """0..3 in the order S H D C."""
        return "SHDC".index(self.value)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return self.index < other.index


_RANK_SYMBOLS = "A23456789TJQK"
_SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANK_FROM_TEXT = {s: Rank(i + 1) for i, s in enumerate(_RANK_SYMBOLS)} | {"10": Rank.TEN}
_SUIT_FROM_TEXT = {s.value: s for s in Suit} | {g: Suit(k) for k, g in _SUIT_GLYPHS.items()} | {
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card; ``str(card)`` is its code, e.g. ``"5H"``, ``"TD"``."""

    rank: Rank
    """Rank, A low (1) to K high (13)."""
    suit: Suit
    """Suit: S H D C."""

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read ``5H``, ``td``, ``10D``, ``J♠``; raise :class:`CardError` naming the bad token."""
        return parse_card(text)

    @property
    def value(self) -> int:
        """Counting value: A=1, 2-10 face value, J Q K = 10."""
        return min(int(self.rank), 10)

    @property
    def code(self) -> str:
        """Two-character code such as ``5H`` or ``TD``."""
        return self.rank.symbol + self.suit.value

    @property
    def index(self) -> int:
        """0..51: suit-major position in :data:`DECK` (S A..K, H A..K, D…, C…)."""
        return self.suit.index * 13 + int(self.rank) - 1

    @property
    def pretty(self) -> str:
        """Rank and suit glyph for people: ``10♦``, ``J♠``."""
        rank = "10" if self.rank == Rank.TEN else self.rank.symbol
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


DECK: tuple[Card, ...] = tuple(Card(Rank(r), s) for s in Suit for r in range(1, 14))
"""The 52 cards in a fixed order (spades, hearts, diamonds, clubs; A to K). ``DECK[c.index] == c``."""

_BY_CODE = {c.code: c for c in DECK}


def parse_card(text: str) -> Card:
    """Read one card; case-insensitive, ``10`` for ten, suit letters or glyphs."""
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}")
    token = text.strip()
    cleaned = token.upper()
    if len(cleaned) < 2:
        raise CardError(f"not a card: {token!r} (write rank then suit, e.g. 5H, TD, 10D, J♠)")
    rank_text, suit_text = cleaned[:-1], cleaned[-1]
    rank = _RANK_FROM_TEXT.get(rank_text)
    if rank is None:
        raise CardError(f"not a card: {token!r} (unknown rank {token[:-1]!r}; ranks are A 2-9 T/10 J Q K)")
    suit = _SUIT_FROM_TEXT.get(suit_text)
    if suit is None:
        raise CardError(f"not a card: {token!r} (unknown suit {token[-1]!r}; suits are S H D C or ♠ ♥ ♦ ♣)")
    return _BY_CODE[rank.symbol + suit.value]


def parse_cards(text: str | Iterable[str], *, allow_duplicates: bool = False) -> list[Card]:
    """Read cards separated by spaces or commas: ``parse_cards("4D 5C 5H JS")``.

    >>> [c.code for c in parse_cards("4d 5C 10h J♠")]
    ['4D', '5C', 'TH', 'JS']
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards: list[Card] = []
    seen: set[Card] = set()
    for token in tokens:
        card = parse_card(token)
        if card in seen and not allow_duplicates:
            raise CardError(f"card given twice: {token!r}")
        seen.add(card)
        cards.append(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Codes separated by spaces: ``"4D 5C 5H JS"``."""
    return " ".join(c.code for c in cards)

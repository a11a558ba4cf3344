"""Scoring, itemised: the show (hands and the crib) and the play (the card just laid).

Every point is a :class:`ScoreItem` naming its kind and its cards, so the board, the score sheet,
the hints and the tests all read the same items. Each rule of RULES.md lives in one function here:

- :func:`fifteens`, :func:`pairs`, :func:`runs`, :func:`flush`, :func:`nobs` for the show;
- :func:`score_hand` puts them together for a hand or the crib;
- :func:`score_play` scores the card just laid in the play (fifteen, thirty-one, pairs, runs);
- :func:`hand_points` is the fast total for the computer opponent, built from the same rules
  (a table of the rank-only points of every five-rank multiset, plus flush and nobs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations
from typing import Iterable, Iterator, Sequence

from .cards import Card, CardError, Rank, Suit, format_cards

__all__ = [
    "ScoreKind",
    "ScoreItem",
    "HandScore",
    "PeggingError",
    "fifteens",
    "pairs",
    "runs",
    "flush",
    "nobs",
    "score_hand",
    "score_play",
    "hand_points",
    "rank_points",
    "possible_totals",
    "MAX_SHOW",
    "PLAY_LIMIT",
    "HEELS_POINTS",
    "GO_POINTS",
    "LAST_CARD_POINTS",
]

PLAY_LIMIT = 31
"""The count may never pass 31 in the play."""
HEELS_POINTS = 2
"""His heels: the dealer pegs 2 when the starter is a jack."""
GO_POINTS = 1
"""The go: 1 to whoever laid the last card of a count that stopped short of 31."""
LAST_CARD_POINTS = 1
"""Last card of the play: 1 (a last card making 31 scores the 2 for thirty-one instead)."""


class ScoreKind(str, Enum):
    """What a scoring item is, in cribbage words."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"
    HEELS = "heels"
    GO = "go"
    LAST_CARD = "last card"
    THIRTY_ONE = "thirty-one"
    CLAIM = "claim"
    """With muggins: the points a player claimed for a hand or crib (its combinations stay unsaid)."""
    MUGGINS = "muggins"
    """With muggins: points a claim missed, or overmarked, taken by the other side."""
    PUT_BACK = "put back"
    """With muggins: an over-claim taken back from its claimant (negative points)."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it, and its points."""

    kind: ScoreKind
    """Fifteen, pair, run, flush, nobs, heels, go, last card or thirty-one."""
    cards: tuple[Card, ...]
    """The cards that make the combination (for go/last card: the card laid)."""
    points: int
    """Points it scores."""

    def describe(self) -> str:
        """A line for the score sheet: ``"fifteen 5♣ J♠ for 2"``."""
        name = str(self.kind)
        if self.kind is ScoreKind.RUN:
            name = f"run of {len(self.cards)}"
        elif self.kind is ScoreKind.PAIR and len(self.cards) == 3:
            name = "pair royal"
        elif self.kind is ScoreKind.PAIR and len(self.cards) == 4:
            name = "double pair royal"
        cards = " ".join(c.pretty for c in self.cards)
        return f"{name} {cards} for {self.points}".replace("  ", " ")

    def to_json(self) -> dict[str, object]:
        """Plain data: ``{"kind": "fifteen", "cards": ["5C", "JS"], "points": 2}``."""
        return {"kind": self.kind.value, "cards": [c.code for c in self.cards], "points": self.points}


@dataclass(frozen=True, slots=True)
class HandScore:
    """The count of one hand or crib: every combination, and the total."""

    hand: tuple[Card, ...]
    """The four cards counted."""
    starter: Card
    """The starter, the fifth card of every count."""
    crib: bool
    """True when this is the crib (only a five-card flush counts)."""
    items: tuple[ScoreItem, ...] = field(default=())
    """Every scoring combination, fifteens first, then pairs, runs, flush, nobs."""

    @property
    def total(self) -> int:
        """Points of the whole count."""
        return sum(item.points for item in self.items)

    def to_json(self) -> dict[str, object]:
        """Plain data for ``--json`` output and saves."""
        return {
            "hand": [c.code for c in self.hand],
            "starter": self.starter.code,
            "crib": self.crib,
            "total": self.total,
            "items": [item.to_json() for item in self.items],
        }

    def __str__(self) -> str:
        what = "crib" if self.crib else "hand"
        return f"{what} {format_cards(self.hand)} + {self.starter}: {self.total}"


class PeggingError(ValueError):
    """A play that cannot happen: the count would pass 31."""


# --- the show ------------------------------------------------------------------------------------


def fifteens(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every distinct set of 2 to 5 cards whose values total 15: 2 points each."""
    return [
        ScoreItem(ScoreKind.FIFTEEN, combo, 2)
        for size in range(2, len(cards) + 1)
        for combo in combinations(cards, size)
        if sum(c.value for c in combo) == 15
    ]


def pairs(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every two cards of equal rank: 2 each (so three of a kind is 6 and four is 12)."""
    return [ScoreItem(ScoreKind.PAIR, (a, b), 2) for a, b in combinations(cards, 2) if a.rank == b.rank]


def runs(cards: Sequence[Card]) -> list[ScoreItem]:
    """Runs of the longest length present (3 to 5): each distinct set of cards scores its length."""
    for size in range(len(cards), 2, -1):
        found = [
            ScoreItem(ScoreKind.RUN, tuple(sorted(combo, key=lambda c: (c.rank, c.suit.index))), size)
            for combo in combinations(cards, size)
            if _is_run([c.rank for c in combo])
        ]
        if found:
            return found
    return []


def _is_run(ranks: Sequence[int]) -> bool:
    """Distinct ranks, consecutive when sorted (the ace is low only)."""
    return len(set(ranks)) == len(ranks) and max(ranks) - min(ranks) == len(ranks) - 1


def flush(hand: Sequence[Card], starter: Card, crib: bool) -> list[ScoreItem]:
    """Four hand cards of one suit score 4, or 5 with the starter; in the crib only 5 counts."""
    suits = {c.suit for c in hand}
    if len(suits) != 1:
        return []
    if starter.suit in suits:
        return [ScoreItem(ScoreKind.FLUSH, (*hand, starter), 5)]
    if crib:
        return []
    return [ScoreItem(ScoreKind.FLUSH, tuple(hand), 4)]


def nobs(hand: Sequence[Card], starter: Card) -> list[ScoreItem]:
    """His nobs: a jack in the hand (not the starter) of the starter's suit scores 1."""
    return [
        ScoreItem(ScoreKind.NOBS, (c,), 1) for c in hand if c.rank == Rank.JACK and c.suit == starter.suit
    ]


def score_hand(hand: Iterable[Card], starter: Card, crib: bool = False) -> HandScore:
    """Count a hand (or, with ``crib=True``, the crib) of four cards with the starter.

    >>> from cribbage.cards import parse_cards
    >>> *hand, starter = parse_cards("4D 5C 5H JS 6S")
    >>> score_hand(hand, starter).total
    17
    """
    cards = tuple(hand)
    if len(cards) != 4:
        raise CardError(f"a hand has 4 cards, not {len(cards)}")
    if len(set(cards)) != 4 or starter in cards:
        raise CardError("a card appears twice in the hand and starter")
    five = (*cards, starter)
    items = [*fifteens(five), *pairs(five), *runs(five), *flush(cards, starter, crib), *nobs(cards, starter)]
    return HandScore(cards, starter, crib, tuple(items))


# --- the play ------------------------------------------------------------------------------------


def score_play(count_cards: Sequence[Card]) -> list[ScoreItem]:
    """What the card just laid (the last of ``count_cards``) scores, from the cards of this count.

    ``count_cards`` are the cards of the current count in the order laid, whoever laid them.
    Go and last-card points are not included: they depend on what the players can still do,
    which the match state knows (see ``state.py``).

    >>> from cribbage.cards import parse_cards
    >>> [i.describe() for i in score_play(parse_cards("4S 6H 5D"))]
    ['fifteen 4♠ 6♥ 5♦ for 2', 'run of 3 4♠ 5♦ 6♥ for 3']
    """
    if not count_cards:
        return []
    if len(set(count_cards)) != len(count_cards):
        raise CardError("a card appears twice in the count")
    count = sum(c.value for c in count_cards)
    if count > PLAY_LIMIT:
        raise PeggingError(f"the count would be {count}, past {PLAY_LIMIT}")
    laid = count_cards[-1]
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem(ScoreKind.FIFTEEN, tuple(count_cards), 2))
    elif count == PLAY_LIMIT:
        items.append(ScoreItem(ScoreKind.THIRTY_ONE, tuple(count_cards), 2))
    # Pairs: the trailing cards of the laid card's rank (2 = pair, 3 = pair royal, 4 = double).
    same = 1
    while same < len(count_cards) and count_cards[-1 - same].rank == laid.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem(ScoreKind.PAIR, tuple(count_cards[-same:]), same * (same - 1)))
    # Runs: the longest trailing group of 3+ cards with distinct consecutive ranks.
    for size in range(len(count_cards), 2, -1):
        tail = count_cards[-size:]
        if _is_run([c.rank for c in tail]):
            items.append(ScoreItem(ScoreKind.RUN, tuple(sorted(tail, key=lambda c: c.rank)), size))
            break
    return items


# --- fast totals for the computer opponent -------------------------------------------------------

# A five-rank multiset is keyed by the sum of 8**(rank-1): 3 bits a rank hold counts up to 4,
# so the key of a hand plus a starter is the hand's key plus the starter's, in any order.
RANK_KEY: tuple[int, ...] = tuple(0 if r == 0 else 8 ** (r - 1) for r in range(14))
_RANK_POINTS: dict[int, int] = {}


def _fill_rank_points(table: dict[int, int], start: int, ranks: list[int]) -> None:
    """Score into ``table`` every five-rank multiset that begins with ``ranks`` (then ranks >= ``start``)."""
    if len(ranks) == 5:
        # Suits are irrelevant to fifteens, pairs and runs; give each copy of a rank its own.
        suits = _SUITS
        cards = [Card(Rank(r), suits[ranks[:i].count(r)]) for i, r in enumerate(ranks)]
        points = sum(i.points for i in (*fifteens(cards), *pairs(cards), *runs(cards)))
        table[sum(RANK_KEY[r] for r in ranks)] = points
        return
    for r in range(start, 14):
        if ranks.count(r) < 4:
            _fill_rank_points(table, r, [*ranks, r])


_SUITS = tuple(Suit)


def _build_rank_points() -> dict[int, int]:
    """Fifteens + pairs + runs of every five-rank multiset, counted by the item functions above."""
    table: dict[int, int] = {}
    _fill_rank_points(table, 1, [])
    return table


def rank_points() -> dict[int, int]:
    """The table {five-rank key: fifteens+pairs+runs points}, built on first use (6,175 entries)."""
    if not _RANK_POINTS:
        _RANK_POINTS.update(_build_rank_points())
    return _RANK_POINTS


def rank_points_steps() -> Iterator[None]:
    """Build the table of :func:`rank_points` a piece at a time (a yield after each three lowest
    ranks: 455 pieces of at most 13 hands), for a page that must not freeze; the same table."""
    if _RANK_POINTS:
        return
    table: dict[int, int] = {}
    for a in range(1, 14):
        for b in range(a, 14):
            for c in range(b, 14):
                _fill_rank_points(table, c, [a, b, c])
                yield
    if not _RANK_POINTS:
        _RANK_POINTS.update(table)


def hand_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The total of :func:`score_hand` without the items: the fast path for the computer."""
    table = _RANK_POINTS or rank_points()
    key = RANK_KEY[starter.rank]
    for c in hand:
        key += RANK_KEY[c.rank]
    points = table[key]
    s = hand[0].suit
    if hand[1].suit is s and hand[2].suit is s and hand[3].suit is s:
        if starter.suit is s:
            points += 5
        elif not crib:
            points += 4
    for c in hand:
        if c.rank == Rank.JACK and c.suit is starter.suit:
            points += 1
    return points


MAX_SHOW = 29
"""The most a hand or crib can count: three fives and the jack, the fourth five turned up in the
jack's suit."""
_POSSIBLE: dict[bool, frozenset[int]] = {}


def possible_totals(crib: bool = False) -> frozenset[int]:
    """Every total a hand (or the crib) with a starter can count, derived from the scorer's own
    tables: the rank points of every five-rank multiset (:func:`rank_points`), plus what the
    suits can add to it by :func:`flush` and :func:`nobs`. The counts missing from 0-29 are the
    ones no hand scores (19, 25, 26 and 27: a "nineteen hand" is slang for zero).

    Built on first use (the rank table takes about a second); cached after that.
    """
    if crib in _POSSIBLE:
        return _POSSIBLE[crib]
    jack = int(Rank.JACK)
    found: set[int] = set()
    for key, points in rank_points().items():
        ranks = [r for r in range(1, 14) for _ in range((key // RANK_KEY[r]) % 8)]
        for starter in set(ranks):
            hand = list(ranks)
            hand.remove(starter)
            jacks = hand.count(jack)
            distinct = len(set(hand)) == 4
            # No flush and no nobs: possible unless all four jacks are in the hand (one of them
            # then has the starter's suit).
            if jacks < 4:
                found.add(points)
            # His nobs, no flush: a jack of the starter's suit (the starter itself is not a jack).
            if jacks and starter != jack:
                found.add(points + 1)
            # A four-card flush in a suit other than the starter's (no nobs then): hands only.
            if distinct and not crib:
                found.add(points + 4)
            # Five of one suit: every hand jack is then of the starter's suit.
            if distinct and starter not in hand:
                found.add(points + 5 + jacks)
    _POSSIBLE[crib] = frozenset(found)
    return _POSSIBLE[crib]

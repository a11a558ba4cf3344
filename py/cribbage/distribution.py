"""The distribution of hand scores over all 12,994,800 four-card hands with a starter.

The published figures (mean 4.7692; 19, 25, 26 and 27 never occur) pin the scorer to numbers
from outside, the way perft pins a chess move generator.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from .cards import DECK
from .scoring import hand_points

__all__ = ["hand_score_distribution", "ALL_HANDS"]

ALL_HANDS = 12_994_800
"""C(52,4) four-card hands times the 48 possible starters."""


def hand_score_distribution(crib: bool = False) -> dict[int, int]:
    """Count every hand+starter (or crib+starter) by its :func:`scoring.hand_points` total."""
    counts: Counter[int] = Counter()
    for hand in combinations(DECK, 4):
        local = Counter(hand_points(hand, starter, crib) for starter in DECK if starter not in hand)
        counts.update(local)
    return dict(counts)

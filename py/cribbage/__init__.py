"""Cribbage for two, three or four players (four as partners): cards, scoring, the match state machine,
views and the match record."""

from .cards import Card, CardError, Rank, Suit, parse_card, parse_cards
from .scoring import HandScore, ScoreItem, ScoreKind, score_hand, score_play

__all__ = [
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "parse_card",
    "parse_cards",
    "HandScore",
    "ScoreItem",
    "ScoreKind",
    "score_hand",
    "score_play",
]
__version__ = "0.1.0"

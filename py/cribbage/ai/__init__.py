"""The computer opponent and the coach.

- :func:`make_player` builds a :class:`Player` by name (``PLAYER_NAMES``); a player's ``choose``
  receives only a :class:`~cribbage.view.SeatView` and returns a legal action, in every phase.
- :mod:`cribbage.ai.coach`: :func:`analyze_discards`, :func:`analyze_plays`, :func:`hint`,
  :func:`review_hand`.
- :mod:`cribbage.ai.simulate`: duplicate matches between two players, with statistics.

The engine never imports this package; this package never imports pyscript or js.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..actions import Action
from ..view import SeatView
from .coach import (
    DecisionReview,
    DiscardChoice,
    Hint,
    PlayChoice,
    analyze_discards,
    analyze_plays,
    hint,
    review_hand,
)
from .players import ExpertPlayer, GreedyPlayer, RandomPlayer

__all__ = [
    "Player",
    "PLAYER_NAMES",
    "make_player",
    "DiscardChoice",
    "PlayChoice",
    "Hint",
    "DecisionReview",
    "analyze_discards",
    "analyze_plays",
    "hint",
    "review_hand",
]


@runtime_checkable
class Player(Protocol):
    """A computer player: sees one seat's view, returns one of its legal actions."""

    name: str

    def choose(self, view: SeatView) -> Action:
        """The action to take now (``view.legal_actions`` must not be empty)."""
        ...


PLAYER_NAMES: tuple[str, ...] = ("random", "greedy", "easy", "medium", "expert")
"""The players :func:`make_player` knows, weakest first."""

# The weaker levels are the expert with calibrated mistakes (see BENCH.md for their strength).
_LEVELS = {
    "easy": dict(top_k=5, discard_temperature=1.5, play_temperature=1.5, samples=12),
    "medium": dict(top_k=3, discard_temperature=0.5, play_temperature=0.5, samples=20),
    "expert": dict(),
}


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name: ``random``, ``greedy``, ``easy``, ``medium`` or ``expert``."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key == "random":
        return RandomPlayer(seed)
    if key == "greedy":
        return GreedyPlayer(seed)
    if key in _LEVELS:
        return ExpertPlayer(seed, name=key, **_LEVELS[key])  # type: ignore[arg-type]
    raise ValueError(f"unknown player {name!r}: choose one of {', '.join(PLAYER_NAMES)}")

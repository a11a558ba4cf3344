"""Refinements on top of the plain expected-points arithmetic: a pegging term for discards and
the end of the game (where the chance of winning, not points, is what counts)."""

from __future__ import annotations

import random
from typing import Sequence

from ..cards import Card
from .pegging import PlayState

__all__ = ["peg_ev_of_keep", "endgame_play_values"]


def peg_ev_of_keep(keep: Sequence[Card], dealer: bool) -> float:
    """Pegging value of a keep relative to an average one (0.0: not modelled yet)."""
    return 0.0


def endgame_play_values(view, ps: PlayState, samples: int, rng: random.Random) -> dict[int, float] | None:  # noqa: ANN001
    """Chance of winning for each rank near 121, or None when points are what matter."""
    return None

"""The race to 121: every scoring event with every side's score after it (the record's chart)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..state import Event

# --- the race to 121 ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceStep:
    """One scoring event: who scored, from which source, and both scores after it."""

    hand: int
    seat: int
    source: str
    points: int
    scores: tuple[int, ...]


def race(events: Iterable[Event]) -> list[RaceStep]:
    """Every scoring event of a match in order (the score sheet's points, as a chart reads them)."""
    return [RaceStep(e.hand, e.seat, e.source, e.points, e.scores)
            for e in events if e.points and e.seat is not None and e.source is not None]

"""One deal of a recorded match (:class:`HandRecord`), a best count (:class:`Best`) and the coach's
totals for one seat (:class:`CoachTotals`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import SOURCES, RecordError, _dict, _int, _list, _opt_int, _pair

# --- one match ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Best:
    """A best count: its points and cards (the four, then the starter)."""

    points: int
    cards: tuple[str, ...]
    """Card codes, e.g. ``("5C", "5D", "5H", "JS", "5S")``; the starter last."""

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"points": self.points, "cards": list(self.cards)}

    @classmethod
    def from_json(cls, data: Any) -> Best | None:
        """Read one (None stays None)."""
        if data is None:
            return None
        d = _dict(data, "a best count")
        cards = _list(d.get("cards"), "a best count's cards")
        if len(cards) != 5 or not all(isinstance(c, str) for c in cards):
            raise RecordError("a best count does not hold five cards")
        return cls(_int(d, "points"), tuple(cards))


def _better(a: Best | None, b: Best | None) -> Best | None:
    """The higher of two (the first on a tie)."""
    if b is None:
        return a
    if a is None or b.points > a.points:
        return b
    return a


@dataclass(frozen=True)
class HandRecord:
    """One deal: who dealt, each seat's points by source, the shows (None where not reached)."""

    number: int
    dealer: int
    points: tuple[dict[str, int], ...]
    """Per seat: ``{"pegging": 3, "hand": 8, "crib": 0, "heels": 0}`` (every source present; stored as
    a list in the order of :data:`SOURCES`)."""
    shows: tuple[int | None, ...]
    """Each seat's hand count (0 is a count); None if the match ended before it."""
    crib: int | None
    """The dealer's crib count; None if the match ended before it."""

    @property
    def complete(self) -> bool:
        """True when the hand was played out to the crib (only complete hands enter averages)."""
        return self.crib is not None

    @property
    def pone(self) -> int:
        """The non-dealer (more players: the dealer's left)."""
        return (self.dealer + 1) % len(self.points)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"number": self.number, "dealer": self.dealer,
                "points": [[p[s] for s in SOURCES] for p in self.points],  # compact: 500 records are kept
                "shows": list(self.shows), "crib": self.crib}

    @classmethod
    def from_json(cls, data: Any) -> HandRecord:
        """Read one, checking every field."""
        d = _dict(data, "a hand")
        raw_points = _pair(d.get("points"), "a hand's points", 0)
        dealer = _int(d, "dealer")
        if dealer >= len(raw_points):
            raise RecordError("a hand's dealer is not a seat")
        points = []
        for p in raw_points:
            values = _list(p, "a hand's points")
            if len(values) != len(SOURCES):
                raise RecordError("a hand's points do not give every source")
            points.append({s: _int({s: v}, s) for s, v in zip(SOURCES, values)})
        shows = _pair(d.get("shows"), "a hand's shows", len(points))
        return cls(_int(d, "number", 1), dealer, tuple(points),
                   tuple(_opt_int(sh, "a show") for sh in shows), _opt_int(d.get("crib"), "a crib"))


@dataclass(frozen=True)
class CoachTotals:
    """The coach's view of one seat's decisions: counts and points lost (in thousandths, exact sums)."""

    discards: int = 0
    discard_loss: int = 0
    """Expected points given away by all discards against the expert's choice, ×1000."""
    plays: int = 0
    """Plays with a real choice (two ranks or more could be laid)."""
    play_loss: int = 0
    """Expected net pegging given away by those plays, ×1000."""

    @property
    def per_discard(self) -> float | None:
        """Average expected points lost a discard."""
        return self.discard_loss / 1000 / self.discards if self.discards else None

    @property
    def per_play(self) -> float | None:
        """Average expected points lost a play."""
        return self.play_loss / 1000 / self.plays if self.plays else None

    def __add__(self, o: CoachTotals) -> CoachTotals:
        return CoachTotals(self.discards + o.discards, self.discard_loss + o.discard_loss,
                           self.plays + o.plays, self.play_loss + o.play_loss)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"discards": self.discards, "discard_loss": self.discard_loss, "plays": self.plays,
                "play_loss": self.play_loss}

    @classmethod
    def from_json(cls, data: Any) -> CoachTotals | None:
        """Read one (None stays None)."""
        if data is None:
            return None
        d = _dict(data, "the coach's totals")
        return cls(_int(d, "discards"), _int(d, "discard_loss"), _int(d, "plays"), _int(d, "play_loss"))

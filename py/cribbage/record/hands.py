"""One deal of a recorded match (:class:`HandRecord`), a best count (:class:`Best`) and the coach's
totals for one seat (:class:`CoachTotals`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import SOURCES, RecordError, fields

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
        f = fields(data, "a best count")
        cards = f.list_of("cards", str, length=5, what="a best count's cards")
        return cls(f.int("points", min=0), tuple(cards))


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
        f = fields(data, "a hand")
        raw_points = f.list("points", length=(2, 4), what="a hand's points")
        dealer = f.int("dealer", min=0, max=len(raw_points) - 1, what="a hand's dealer")
        points = []
        for p in raw_points:
            if not (isinstance(p, list) and len(p) == len(SOURCES) and all(type(v) is int and v >= 0 for v in p)):
                raise RecordError("a hand's points do not give every source as a whole number")
            points.append(dict(zip(SOURCES, p)))
        shows = f.list("shows", length=len(points), what="a hand's shows")
        if not all(sh is None or (type(sh) is int and sh >= 0) for sh in shows):
            raise RecordError("a hand's show is not a whole number")
        return cls(f.int("number", min=1), dealer, tuple(points), tuple(shows),
                   f.optional("crib", lambda k: f.int(k, min=0, what="a hand's crib")))


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
        f = fields(data, "the coach's totals")
        return cls(*(f.int(k, min=0) for k in ("discards", "discard_loss", "plays", "play_loss")))

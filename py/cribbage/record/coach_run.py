"""The coach's review of a recorded match (:func:`coach_totals`, :class:`CoachRun` one action at a
time): the only part of the record that uses :mod:`cribbage.ai`, imported when a review starts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..actions import Discard, Play
from .hands import CoachTotals

if TYPE_CHECKING:
    from ..match import Match

def coach_totals(match: Match, seats: Iterable[int] | None = None,
                 samples: int = 64) -> tuple[CoachTotals | None, ...]:
    """The coach's view of each seat's decisions (default: the human seats). Slow: seconds a match.

    Discards are valued as the coach's discard analysis (hand + crib + pegging estimate), plays by its
    expected net pegging to the end of the play (in points even near 121, so the units stay points).
    """
    run = CoachRun(match, seats, samples)
    while not run.done:
        run.step()
    return run.result()


class CoachRun:
    """:func:`coach_totals` one action at a time, so a page can spread it over timer ticks."""

    def __init__(self, match: Match, seats: Iterable[int] | None = None, samples: int = 64) -> None:
        from ..ai.coach import analyze_plays, discard_choices
        from ..view import view as view_of

        self._discards, self._plays, self._view = discard_choices, analyze_plays, view_of
        self.samples = samples
        self.who = set(match.humans if seats is None else seats)
        self.acc: dict[int, list[int]] = {s: [0, 0, 0, 0] for s in self.who}
        self.actions = list(match.actions)
        self.index = 0
        """The next action to look at."""
        self.state = match.new_state()

    @property
    def done(self) -> bool:
        """True once every action has been looked at."""
        return self.index >= len(self.actions)

    def step(self) -> None:
        """Look at the next action (one coach analysis at most)."""
        action = self.actions[self.index]
        self.index += 1
        seat = getattr(action, "seat", None)
        if seat in self.who and isinstance(action, (Discard, Play)):
            v = self._view(self.state, seat)
            acc = self.acc[seat]
            if isinstance(action, Discard):
                choices = self._discards(v, endgame=False)  # any table: six cards or five
                chosen = next(c for c in choices if set(c.discard) == set(action.cards))
                acc[0] += 1
                acc[1] += round(1000 * max(0.0, choices[0].net - chosen.net))
            else:
                plays = self._plays(v, samples=self.samples, endgame=False)
                if len({p.card.rank for p in plays if p.card is not None}) >= 2:
                    chosen_p = next(p for p in plays if p.card == action.card)
                    acc[2] += 1
                    acc[3] += round(1000 * max(0.0, plays[0].ev - chosen_p.ev))
        self.state.apply(action)

    def result(self) -> tuple[CoachTotals | None, ...]:
        """The totals per seat (None for a seat not reviewed)."""
        return tuple(CoachTotals(*self.acc[s]) if s in self.acc else None for s in range(self.state.rules.players))

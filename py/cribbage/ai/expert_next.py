"""Challengers to the expert (issue 34), each measured against it over duplicate deals
(:mod:`cribbage.ai.duplicate`, ``py/tools/promote.py``) before it may replace it.

The expert plays for points until the end is near (discards within
:data:`~cribbage.ai.strategy.ENDGAME_DISCARD_NEED`, plays within
:data:`~cribbage.ai.strategy.ENDGAME_NEED` points of the target), then for the chance of winning.
A challenger here changes one thing at a time:

- ``discard_need``: from this many points needed (either side) down, the discard is ranked by the
  phase model's chance of winning (:func:`cribbage.ai.discard_wins.rank_by_winning`, the daily
  puzzle's ranking: the kept four's exact show, the crib moved to the table's value, the play and
  the other hand from self-play, then the win table) instead of the expert's histogram rule;
- ``play_need``: the play is searched for the chance of winning from this many points needed down
  (the expert: 40), the endgame search earlier in the hand.

Both are two-player, six-card only (the models' tables were made there); elsewhere a challenger
plays exactly as the expert. :func:`make_previous_expert` is the expert as it stood before this
round, frozen for the figures in docs/performance.md.
"""

from __future__ import annotations

from ..actions import Action, Discard, Go, Play
from ..view import SeatView
from .coach import analyze_plays_steps
from .players import ExpertPlayer
from .steps import Steps
from .winchance import supports

__all__ = ["NextExpert", "make_previous_expert", "make_next_expert", "VARIANTS"]


class NextExpert(ExpertPlayer):
    """The expert with the chance of winning used earlier (see the module's docstring)."""

    def __init__(self, seed: int | None = None, *, name: str = "expert-next", discard_need: int | None = None,
                 play_need: int | None = None) -> None:
        super().__init__(seed, name=name)
        self.discard_need = discard_need
        self.play_need = play_need

    def _needs(self, view: SeatView) -> int:
        target = view.rules.target
        return min(target - view.scores[view.seat], target - view.scores[1 - view.seat])

    def discard(self, view: SeatView) -> Action:
        rules = view.rules
        if (self.discard_need is None or not supports(rules) or rules.discards != 2 or len(view.hand) != 6
                or self._needs(view) > self.discard_need):
            return super().discard(view)
        from .discard_wins import rank_by_winning

        dealer = view.dealer == view.seat
        scores = (view.scores[view.seat], view.scores[1 - view.seat])
        best = rank_by_winning(view.hand, dealer, scores, rules.target)[0]
        return Discard(view.seat, best.discard)

    def play_steps(self, view: SeatView) -> Steps[Action]:
        if self.play_need is None:
            return (yield from super().play_steps(view))
        plays = yield from analyze_plays_steps(view, samples=self.samples, rng=self.rng, endgame_need=self.play_need)
        card = plays[0].card
        return Play(view.seat, card) if card is not None else Go(view.seat)


VARIANTS: dict[str, dict[str, int]] = {
    "expert-next": {"discard_need": 60},
    "expert-next-discard": {"discard_need": 60},
    "expert-next-play": {"play_need": 60},
    "expert-next-both": {"discard_need": 60, "play_need": 60},
}
"""The challengers by name: ``expert-next`` is the one proposed for promotion."""


def make_previous_expert(seed: int) -> ExpertPlayer:
    """The expert as it was before issue 34 (the default ExpertPlayer of 2026-12-04)."""
    return ExpertPlayer(seed, name="expert-previous")


def make_variant(name: str, seed: int) -> NextExpert:
    return NextExpert(seed, name=name, **VARIANTS[name])


def make_next_expert(seed: int) -> NextExpert:
    """The challenger proposed for promotion."""
    return make_variant("expert-next", seed)

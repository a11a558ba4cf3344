"""The weaker levels: the expert's own evaluation, with the mistakes people make.

A level ranks its legal choices by the expert's evaluation (:func:`~cribbage.ai.coach.discard_choices`
for a discard, :func:`~cribbage.ai.coach.analyze_plays_steps` for a card in the play) and draws one with
a chance that falls with what it costs: a softmax over the loss against the best choice (in points, or
in percent of the chance of winning where the expert weighs that; one percent weighs like a point), at
the level's temperature. So it mostly makes small mistakes, sometimes a middling one, and never an
absurd one:

- a choice losing more than the level's cap (:attr:`Level.discard_cap`, :attr:`Level.play_cap`) is
  never drawn: no throwing points into the opponent's crib for nothing; and when the expert keeps a
  sure big hand (four cards scoring 12 or more on their own: the 5-5-5-J of a 29 hand), the level
  keeps four that score as much (see :func:`absurd_discards`);
- in the play it never passes up points the expert takes: when the expert's card scores 2 or more now
  (a fifteen, a pair, a 31, a run), the level's card scores at least as much now; when a card makes 31,
  it lays a card making 31 (see :func:`absurd_plays`);
- it only ever draws among the legal actions.

Its draws come from the player's own ``random.Random(seed)``: the same seed and view, the same choice.
The level's cuts and its counting under muggins are the expert player's (:data:`~.table.LEVEL_HABITS`).

:func:`pick` is the rule alone, on a list of values (fast to test over thousands of positions);
:class:`LevelPlayer` applies it to a view. :data:`LEVELS` holds the calibrated levels
(``py/tools/bench_levels.py`` measures them against the expert; docs/performance.md, "Levels").
:func:`decision_weight` says how hard a decision looks (the computer's pause scales with it).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Sequence

from ..actions import Action, Discard, Go, Play
from ..cards import Card
from ..scoring import fifteens, pairs, runs
from ..view import SeatView
from .coach import DiscardChoice, PlayChoice, analyze_plays_steps, discard_choices
from .pegging import peg_points
from .players import ExpertPlayer
from .steps import Steps
from .table import EXACT, LEVEL_HABITS

__all__ = ["Level", "LEVELS", "LevelPlayer", "pick", "discard_values", "play_values", "absurd_discards",
           "absurd_plays", "choose_discard", "choose_play", "decision_weight", "sure_points", "SCORING_PLAY",
           "SURE_BIG_HAND"]

SCORING_PLAY = 2
"""Points scored at once by a card that a level never passes up when the expert takes them."""
SURE_BIG_HAND = 12
"""Points four kept cards score on their own (whatever the starter) that make them a sure big hand:
when the expert keeps one, a level never keeps four cards that score less on their own."""


@dataclass(frozen=True)
class Level:
    """How a level errs: a softmax temperature over the loss and a cap on it, for each decision."""

    name: str
    discard_temperature: float
    """Points of loss that make a discard e (2.718…) times less likely than the best."""
    discard_cap: float
    """The most a discard may lose against the best (points, or percent of the chance of winning)."""
    play_temperature: float
    play_cap: float
    samples: int = 24
    """The play search's samples of the opponent's hand (fewer: a little less foresight)."""


LEVELS: dict[str, Level] = {
    "easy": Level("easy", discard_temperature=2.0, discard_cap=5.5, play_temperature=1.6, play_cap=3.5,
                  samples=12),
    "medium": Level("medium", discard_temperature=0.6, discard_cap=3.0, play_temperature=0.45, play_cap=2.0,
                    samples=20),
}
"""The calibrated levels (targets at two players against the expert: easy about 25%, medium about 40%)."""


def pick(values: Sequence[float], temperature: float, cap: float, rng: random.Random,
         allowed: Sequence[bool] | None = None) -> int:
    """The index of the choice drawn among ``values`` (higher is better, any order).

    A choice's weight is ``exp(-loss / temperature)``, its loss being the best value minus its own;
    choices losing more than ``cap`` and those with ``allowed[i]`` false weigh nothing (the best is
    always allowed). Temperature 0 is the best (the first of equals). One draw from ``rng`` unless
    only one choice may be drawn.
    """
    if not values:
        raise ValueError("no choice to pick from")
    best = max(range(len(values)), key=lambda i: (values[i], -i))
    top = values[best]
    if temperature <= 0:
        return best
    eligible = [i for i, v in enumerate(values)
                if i == best or (top - v <= cap and (allowed is None or allowed[i]))]
    if len(eligible) == 1:
        return best
    weights = [math.exp(-(top - values[i]) / temperature) for i in eligible]
    return eligible[rng.choices(range(len(eligible)), weights)[0]]


def discard_values(choices: Sequence[DiscardChoice]) -> list[float]:
    """The value of each discard as the expert weighs it: percent of the chance of winning near the
    target, else the net points (hand, crib for or against, pegging)."""
    if choices and choices[0].win_chance is not None:
        return [100.0 * (d.win_chance or 0.0) for d in choices]
    return [d.net for d in choices]


def sure_points(keep: Sequence[Card]) -> int:
    """What the kept cards score on their own, whatever the starter (fifteens, pairs, runs)."""
    cards = list(keep)
    return sum(item.points for item in (*fifteens(cards), *pairs(cards), *runs(cards)))


def absurd_discards(choices: Sequence[DiscardChoice], cap: float) -> list[bool]:
    """Which discards a level never makes: those losing more than ``cap`` against the best, and,
    when the expert's keep is a sure big hand (:data:`SURE_BIG_HAND`, e.g. 5-5-5-J of a 29 hand),
    any keep scoring less on its own than the expert's."""
    values = discard_values(choices)
    top_i = max(range(len(values)), key=lambda i: (values[i], -i))
    top = values[top_i]
    big = sure_points(choices[top_i].keep)
    out = [top - v > cap or (big >= SURE_BIG_HAND and sure_points(d.keep) < big)
           for d, v in zip(choices, values)]
    out[top_i] = False
    return out


def play_values(plays: Sequence[PlayChoice]) -> list[float]:
    """The value of each card as the expert weighs it (net pegging points, or percent of winning)."""
    return [p.ev for p in plays]


def _makes_31(play: PlayChoice, count: int) -> bool:
    return play.card is not None and count + play.card.value == 31


def absurd_plays(plays: Sequence[PlayChoice], count: int, cap: float) -> list[bool]:
    """Which cards a level never lays: losing more than ``cap``; scoring less now than the expert's
    card when that scores :data:`SCORING_PLAY` or more; not making 31 when a card makes it."""
    values = play_values(plays)
    top_i = max(range(len(values)), key=lambda i: (values[i], -i))
    top = values[top_i]
    expert_points = plays[top_i].points
    any_31 = any(_makes_31(p, count) for p in plays)
    out = []
    for p, v in zip(plays, values):
        bad = top - v > cap
        bad = bad or (expert_points >= SCORING_PLAY and p.points < expert_points)
        bad = bad or (any_31 and not _makes_31(p, count))
        out.append(bad)
    out[top_i] = False  # the expert's own card is never absurd
    return out


def choose_discard(choices: Sequence[DiscardChoice], level: Level, rng: random.Random) -> int:
    """The index of the discard ``level`` makes among the expert's ``choices`` (:func:`pick`)."""
    absurd = absurd_discards(choices, level.discard_cap)
    return pick(discard_values(choices), level.discard_temperature, level.discard_cap, rng,
                allowed=[not a for a in absurd])


def choose_play(plays: Sequence[PlayChoice], count: int, level: Level, rng: random.Random) -> int:
    """The index of the card ``level`` lays among the expert's ``plays`` (one a rank; ``count``: the
    count before it): :func:`pick`, never one of :func:`absurd_plays`."""
    absurd = absurd_plays(plays, count, level.play_cap)
    return pick(play_values(plays), level.play_temperature, level.play_cap, rng, allowed=[not a for a in absurd])


class LevelPlayer(ExpertPlayer):
    """A weaker level: the expert's evaluation, a choice drawn by :func:`pick` within the level's cap."""

    def __init__(self, seed: int | None = None, *, level: Level) -> None:
        super().__init__(seed, name=level.name, samples=level.samples,
                         habits=LEVEL_HABITS.get(level.name, EXACT))
        self.level = level

    def discard(self, view: SeatView) -> Action:
        choices = discard_choices(view)
        i = choose_discard(choices, self.level, self.rng)
        return Discard(view.seat, choices[i].discard)

    def play_steps(self, view: SeatView) -> Steps[Action]:
        plays = yield from analyze_plays_steps(view, samples=self.samples, rng=self.rng)
        distinct: list[PlayChoice] = []
        seen: set[object] = set()
        for p in plays:  # one choice a rank (suits do not matter in the play)
            key = None if p.card is None else p.card.rank
            if key not in seen:
                seen.add(key)
                distinct.append(p)
        i = choose_play(distinct, view.count, self.level, self.rng)
        card = distinct[i].card
        return Play(view.seat, card) if card is not None else Go(view.seat)


def decision_weight(view: SeatView) -> float:
    """How hard the decision in ``view`` looks, from 0 (forced: one legal choice) to 1 (a close call
    among many), for the computer's pause. A discard: from the gap between the expert's two best
    discards (a gap of 3 points or more looks easy); a card in the play: from how many ranks may be
    laid and whether one plainly scores (cheap: no search). Anything else (a cut, a count): 0.5."""
    legal = view.legal_actions
    if not legal:
        return 0.0
    first = legal[0]
    if isinstance(first, Discard):
        if len(legal) == 1:
            return 0.0
        try:
            values = sorted(discard_values(discard_choices(view)), reverse=True)
        except Exception:  # noqa: BLE001 - the pause is never worth failing a move
            return 0.5
        if len(values) < 2:
            return 0.0
        gap = values[0] - values[1]
        return max(0.2, 1.0 - gap / 3.0)
    if isinstance(first, (Play, Go)):
        ranks = {a.card.rank for a in legal if isinstance(a, Play)}
        if len(ranks) <= 1:
            return 0.0
        tail = tuple(int(c.rank) for _, c in view.pile)
        points = sorted((peg_points(tail, int(r)) for r in ranks), reverse=True)
        spread = min(1.0, (len(ranks) - 1) / 3.0)
        if points[0] >= SCORING_PLAY and points[0] > points[1]:
            return 0.25 * spread  # one card plainly scores: quick
        return 0.3 + 0.7 * spread
    return 0.5

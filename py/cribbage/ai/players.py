"""The computer players: random, greedy, and the expert with its calibrated weaker levels.

Every player receives only a :class:`~cribbage.view.SeatView` and returns one of its legal actions.
Cut depths are drawn uniformly from ``view.cut_depths`` with the player's own ``random.Random``;
the match records the actions, so bots need not be deterministic across Pythons.
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from ..actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Play
from ..view import SeatView
from .coach import analyze_plays_steps, discard_choices
from .discards import hand_ev, keeps, starters_for
from .pegging import peg_points
from .steps import Steps, finish
from .table import EXACT, LEVEL_HABITS, Habits, call_in_play, crib_card_value, muggins_choice, play_claim_for

__all__ = ["RandomPlayer", "GreedyPlayer", "TablePlayer", "ExpertPlayer", "call_in_play_for", "call_for_level"]


class _Base:
    name = "base"
    habits: Habits = EXACT
    """How it counts and calls under muggins (only the weaker levels slip)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        """Pick a legal action for this view."""
        return finish(self.choose_steps(view))

    def call(self, view: SeatView) -> Muggins | None:
        """Muggins in the play: call muggins on the open claim now (in turn or not), or None to let
        it stand until the next card. The same answer however often it is asked about one claim."""
        return call_in_play(view, self.habits)

    def choose_steps(self, view: SeatView) -> Steps[Action]:
        """:meth:`choose` in steps: the play's search pauses between pieces (see :mod:`.steps`)."""
        legal = view.legal_actions
        if not legal:
            raise ValueError("this seat has nothing to do now")
        first = legal[0]
        if isinstance(first, (CutForDeal, CutPack, CutStarter)):
            lo, hi = view.cut_depths
            return type(first)(view.seat, self.rng.randint(lo, hi))
        called = self.call(view)  # muggins in the play: a call on the card just laid
        if called is not None:
            return called
        special = muggins_choice(view, self.rng, self.habits)  # with muggins: claim, call or let stand
        if special is not None:
            return special
        own = [a for a in legal if not isinstance(a, Muggins)]  # a call in the play is not a move
        if isinstance(first, Count) or len(own) == 1:
            return own[0] if own else first
        if isinstance(first, Discard):
            return self.discard(view)
        if isinstance(first, Muggins):
            raise ValueError("this seat may only call muggins now: ask call() whether it does")
        action = yield from self.play_steps(view)
        if isinstance(action, Play) and view.rules.play_muggins:
            # Muggins in the play: the card is chosen as ever, then claimed (never over-claimed).
            action = Play(view.seat, action.card, play_claim_for(view, action.card, self.rng, self.habits))
        return action

    def discard(self, view: SeatView) -> Action:
        raise NotImplementedError

    def play(self, view: SeatView) -> Action:
        raise NotImplementedError

    def play_steps(self, view: SeatView) -> Steps[Action]:
        """:meth:`play` in steps (at once unless a player searches)."""
        return self.play(view)
        yield  # a generator

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class RandomPlayer(_Base):
    """Any legal action, uniformly."""

    name = "random"

    def discard(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions)

    def play(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if view.rules.play_muggins:  # one choice a card (the claim is added after), never a call here
            legal = tuple(dict.fromkeys(a if isinstance(a, Go) else Play(a.seat, a.card)
                                        for a in legal if isinstance(a, (Play, Go))))
        return self.rng.choice(legal)


class GreedyPlayer(_Base):
    """Keeps the four with the best expected show (ignoring the crib); lays the card that scores most now."""

    name = "greedy"

    def discard(self, view: SeatView) -> Action:
        starters = starters_for(view.hand)
        scored = [(hand_ev(keep, starters), self.rng.random(), d) for d, keep in keeps(view.hand)]
        return Discard(view.seat, max(scored)[2])

    def play(self, view: SeatView) -> Action:
        tail = tuple(int(c.rank) for _, c in view.pile)
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        scored = [(peg_points(tail, int(a.card.rank)), self.rng.random(), a) for a in plays]
        return max(scored, key=lambda t: (t[0], t[1]))[2]


class TablePlayer(_Base):
    """Best average hand, then greedy pegging: any table, any seat."""

    name = "table"

    def discard(self, view: SeatView) -> Action:
        """Keep the four with the best average show; the card laid away feeds the crib."""
        starters = starters_for(view.hand)
        dealer = view.dealer
        mine = dealer is not None and view.rules.side_of(dealer) == view.side
        sign = 1.0 if mine else -1.0
        scored = []
        for away, keep in keeps(view.hand):
            value = hand_ev(keep, starters) + sign * sum(crib_card_value(int(c.rank)) for c in away)
            scored.append((value, self.rng.random(), away))
        return Discard(view.seat, max(scored)[2])

    def play(self, view: SeatView) -> Action:
        """The most points now; then a count the next player can least use."""
        tail = tuple(int(c.rank) for _, c in view.pile)
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        if not plays:
            return Go(view.seat)
        scored = []
        for a in plays:
            count = view.count + a.card.value
            risk = 1.0 if count in (5, 21) else 0.0
            scored.append((peg_points(tail, int(a.card.rank)) - risk, a.card.value, self.rng.random(), a))
        return max(scored, key=lambda t: (t[0], t[1], t[2]))[3]


class ExpertPlayer(_Base):
    """The coach's choices; with ``temperature`` > 0 it picks among the top ``top_k`` by softmax.

    ``easy`` and ``medium`` are this player with calibrated mistakes, not separate bots.
    """

    def __init__(self, seed: int | None = None, *, name: str = "expert", top_k: int = 1,
                 discard_temperature: float = 0.0, play_temperature: float = 0.0, samples: int = 64,
                 crib_weight: float = 1.0, peg_weight: float | None = None,
                 opponent_model: float | None = None, endgame: bool = True,
                 habits: Habits = EXACT) -> None:
        super().__init__(seed)
        self.name = name
        self.habits = habits
        self.top_k = top_k
        self.discard_temperature = discard_temperature
        self.play_temperature = play_temperature
        self.samples = samples
        self.crib_weight = crib_weight
        self.peg_weight = peg_weight
        self.opponent_model = opponent_model
        self.endgame = endgame

    def _pick(self, values: Sequence[float], temperature: float) -> int:
        """Index of the choice: the best, or a softmax draw among the top k."""
        if temperature <= 0 or self.top_k <= 1:
            return 0
        top = list(values[: self.top_k])
        m = max(top)
        weights = [math.exp((v - m) / temperature) for v in top]
        return self.rng.choices(range(len(top)), weights)[0]

    def discard(self, view: SeatView) -> Action:
        choices = discard_choices(view, peg_weight=self.peg_weight, endgame=self.endgame)
        if choices[0].win_chance is not None:
            values = [100.0 * (d.win_chance or 0.0) for d in choices]  # a percent weighs like a point
        elif self.crib_weight != 1.0:
            sign = 1 if choices[0].crib_counts_for_you else -1
            choices.sort(key=lambda d: -(d.hand_ev + sign * self.crib_weight * d.crib_ev + d.peg_ev))
            values = [d.hand_ev + sign * self.crib_weight * d.crib_ev + d.peg_ev for d in choices]
        else:
            values = [d.net for d in choices]
        i = self._pick(values, self.discard_temperature)
        return Discard(view.seat, choices[i].discard)

    def play(self, view: SeatView) -> Action:
        return finish(self.play_steps(view))

    def play_steps(self, view: SeatView) -> Steps[Action]:
        plays = yield from analyze_plays_steps(view, samples=self.samples, rng=self.rng,
                                               opponent_model=self.opponent_model, endgame=self.endgame)
        # One choice per rank (suits do not matter in the play).
        distinct = []
        seen = set()
        for p in plays:
            key = None if p.card is None else p.card.rank
            if key not in seen:
                seen.add(key)
                distinct.append(p)
        temperature = self.play_temperature * (0.01 if plays[0].win_chance else 1.0)
        i = self._pick([p.ev * (0.01 if p.win_chance else 1.0) for p in distinct], temperature)
        card = distinct[i].card
        return Play(view.seat, card) if card is not None else Go(view.seat)


def call_in_play_for(player: object, view: SeatView) -> Muggins | None:
    """Whether a computer ``player`` (any of :func:`~cribbage.ai.make_player`'s) calls muggins on the open
    claim in the play from ``view`` (its seat must be in ``view.callers``): its own habits decide."""
    call = getattr(player, "call", None)
    if call is not None:
        result = call(view)
        assert result is None or isinstance(result, Muggins)
        return result
    return call_in_play(view)


def call_for_level(view: SeatView, level: str) -> Muggins | None:
    """Muggins in the play, for a driver: whether the computer at ``level`` (a name of
    :func:`~cribbage.ai.make_player`) in ``view.seat`` calls muggins on the open claim now. The same
    answer however often it is asked about one claim (no seed needed)."""
    return call_in_play(view, LEVEL_HABITS.get(level.strip().lower(), EXACT))

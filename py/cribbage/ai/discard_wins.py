"""The chance of winning of each of the 15 discards at any score (two players, six cards): what
``cribbage analyze --scores`` ranks by and what the daily discard puzzle (:mod:`cribbage.puzzle`)
answers with.

The points are the coach's (:func:`cribbage.ai.coach.analyze_discards`, the numbers Hint gives:
the exact hand over the 46 unseen starters, the crib table). The chance of winning is the phase
model's (:mod:`cribbage.ai.winchance`) for the whole hand still to come, with two of its five
distributions replaced by what this discard makes of them:

- **your hand**: the kept four's exact show over the 46 starters you cannot see (the coach's
  outcome distribution itself, not only its mean);
- **the crib**: the self-play crib distribution moved (by a fractional shift, clamped at 0) so its
  mean is the coach's crib value for the two cards laid away. The coach has a crib *value* per
  pair, not a distribution, so this is the one approximation: the shape of a crib's spread is
  taken from self-play, its centre from the table;
- the other hand and both sides' pegging stay the self-play distributions of their roles.

The counting order is the model's: the play, the pone's hand, the dealer's hand and crib, then the
win table for the hands after. The five parts are taken as independent (in a real deal one starter
serves both hands and the crib, and what you keep shapes your pegging): the same simplification
the model makes during a hand. Ties in the chance of winning as shown (to 0.1%) go to the higher
expected points (:func:`ranking_key`). Far from the end every discard's chance differs by tenths of a percent and the
order is
nearly the coach's order by points; near the end the spread of a keep matters and the two differ.

This is not the computer's own endgame rule (:func:`cribbage.ai.strategy.endgame_discard_values`,
used by Hint within 32 points of the end, from the older per-hand histograms): both rank by the
chance of winning, but the numbers come from different tables and can order close discards
differently.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Sequence

from ..cards import Card, CardError
from ..scoring import hand_points
from .coach import DiscardChoice, analyze_discards
from .discards import starters_for
from .steps import Steps, finish
from .winchance import Dist, Outlook, pone_chance, whole_hand

__all__ = ["rank_by_winning", "rank_by_winning_steps", "ranking_key", "win_chance_of", "crib_with_mean",
           "keep_distribution", "check_scores"]


def check_scores(scores: tuple[int, int], target: int = 121) -> None:
    """Raise ValueError unless both scores are those of a game still going (0 to ``target`` - 1)."""
    if target not in (121, 61):
        raise ValueError(f"a game is to 121 or 61, not {target}")
    for s in scores:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < target:
            raise ValueError(f"scores of a game to {target} still going are 0 to {target - 1}: "
                             f"{scores[0]},{scores[1]} is not")


def keep_distribution(keep: Sequence[Card], starters: Sequence[Card]) -> Dist:
    """The kept four's show over ``starters``: ``d[p]`` is the chance of exactly ``p`` points."""
    counts: list[float] = []
    for s in starters:
        p = hand_points(keep, s)
        while len(counts) <= p:
            counts.append(0.0)
        counts[p] += 1.0
    n = float(len(starters))
    return tuple(c / n for c in counts)


def _mean(d: Sequence[float]) -> float:
    return sum(i * p for i, p in enumerate(d))


def _shifted(base: Dist, delta: float) -> Dist:
    """``base`` moved by ``delta`` points (split between the two nearest whole points), clamped at 0."""
    out: dict[int, float] = {}
    for p, q in enumerate(base):
        if not q:
            continue
        x = p + delta
        lo = int(x // 1)
        f = x - lo
        for point, share in ((lo, q * (1.0 - f)), (lo + 1, q * f)):
            if share:
                k = max(0, point)
                out[k] = out.get(k, 0.0) + share
    top = max(out)
    return tuple(out.get(i, 0.0) for i in range(top + 1))


@lru_cache(maxsize=256)
def crib_with_mean(mean: float) -> Dist:
    """The self-play crib distribution moved so that its mean is ``mean`` (clamped at 0 points;
    the shift is found by bisection, to 1e-9 of a point)."""
    base = whole_hand().crib
    if len(base) <= 1 or mean <= 0:
        return (1.0,) if mean <= 0 else base
    lo, hi = -float(len(base)), float(mean) + 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if _mean(_shifted(base, mid)) < mean:
            lo = mid
        else:
            hi = mid
    return _shifted(base, (lo + hi) / 2)


def win_chance_of(keep_dist: Dist, crib_ev: float, dealer: bool, scores: tuple[int, int],
                  target: int = 121) -> float:
    """This seat's chance of winning (0..1) with ``keep_dist`` its hand to come and a crib worth
    ``crib_ev`` on average (its owner's: the dealer's), from ``scores`` (this seat's, the other's)
    at the start of the hand."""
    need_me, need_opp = target - scores[0], target - scores[1]
    base = whole_hand()
    crib = crib_with_mean(round(crib_ev, 9))
    if dealer:
        outlook = Outlook(base.pone_pegging, base.dealer_pegging, base.pone_hand, keep_dist, crib)
        return 1.0 - pone_chance(need_opp, need_me, outlook)
    outlook = Outlook(base.pone_pegging, base.dealer_pegging, keep_dist, base.dealer_hand, crib)
    return pone_chance(need_me, need_opp, outlook)


def rank_by_winning(hand: Sequence[Card], dealer: bool, scores: tuple[int, int], target: int = 121,
                    *, pegging: bool = True) -> list[DiscardChoice]:
    """All 15 discards of six cards with their chance of winning from ``scores`` (yours, the
    opponent's, at the start of the hand; a game to ``target``), best first: by the chance of
    winning, then by expected points. Each choice is the coach's (:func:`analyze_discards`: hand,
    crib, net) with ``win_chance`` set. Raises :class:`CardError` for cards that are not six
    different ones and ValueError for scores of a finished game."""
    return finish(rank_by_winning_steps(hand, dealer, scores, target, pegging=pegging))


def rank_by_winning_steps(hand: Sequence[Card], dealer: bool, scores: tuple[int, int], target: int = 121,
                          *, pegging: bool = True) -> Steps[list[DiscardChoice]]:
    """:func:`rank_by_winning` in steps (a page spreads it over idle moments): it pauses after the
    coach's points and after each discard's chance of winning."""
    cards = tuple(hand)
    if len(cards) != 6 or len(set(cards)) != 6:
        raise CardError("the chance of winning of a discard needs six different cards")
    check_scores(scores, target)
    choices = analyze_discards(cards, dealer, pegging=pegging)
    yield
    starters = starters_for(cards)
    out = []
    for c in choices:
        win = win_chance_of(keep_distribution(c.keep, starters), c.crib_ev, dealer, scores, target)
        out.append(replace(c, win_chance=win))
        yield
    out.sort(key=lambda d: tuple(-x for x in ranking_key(d)))
    return out


def ranking_key(choice: DiscardChoice) -> tuple[float, float]:
    """What orders the discards, larger first: the chance of winning as shown (to 0.1%), then the
    expected points. Chances that differ by less than the figure shows (the model is no finer) are
    ties, and the discard with more points ranks first; equal discards (a 5 of either suit) have
    equal keys."""
    return (round(choice.win_chance or 0.0, 3), round(choice.net, 9))

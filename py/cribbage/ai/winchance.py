"""Each side's chance of winning from where the game stands, using only what one seat may know.

The model (two players; issue 21), in three parts:

1. **For the hands after this one** the win table ``F`` (``win_table.json``,
   ``py/tools/make_win_table.py``) gives the chance that the pone of the coming hand, needing ``a``
   points, beats the dealer needing ``b``. It is a function of what each side *needs*, so it serves
   a game to 61 as well as to 121. (``F`` counts a hand's pegging and hand together, the pone's
   first; near the end that favours the pone, so *this* hand always goes through part 2, even
   before anything of it is known: from 12 points needed up both agree within a point or so of
   chance, below it the phase model is the one that knows the dealer pegs too.)
2. **Within a hand**, what is still to come is five independent distributions (``phase_table.json``,
   ``py/tools/make_phase_table.py``, from expert self-play): the pegging each side still scores once
   ``n`` cards are laid, the pone's hand, the dealer's hand and the crib. What the viewing seat
   knows replaces a distribution by its value: its own hand once the starter is cut (over the 46
   possible starters before that), both hands once the play is over and they lie on the table.
   Nothing the seat may not know is read: the other hand stays a distribution until it is shown.
3. **The order of counting** decides a close race: the play first (when both would peg out in it,
   each is given half, the one approximation of the order within the play), then the pone's hand,
   then the dealer's hand and crib; if nobody has won, the deal passes and ``F`` takes over with
   the roles swapped.

Checked against the published figure for equal players: the first dealer wins 55.5% of games to
121 (Colvert; Cribbage Pro's statistics agree within a point); this model gives 55.5% (the win table
alone 55.6%). In a game to 61 the first dealer's edge is smaller: 51.8%.
Tests: ``tests/ai/test_winchance.py`` (brute force on small needs, monotonicity, the phases agree
at their boundaries, what a seat may not know never changes its figure).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from ..cards import DECK, Card
from ..rules import Rules
from ..scoring import hand_points
from .discards import load_data
from .steps import Steps, finish
from .strategy import win_chance

if TYPE_CHECKING:
    from ..view import SeatView

__all__ = ["Dist", "Outlook", "supports", "pone_chance", "pone_chance_steps", "seat_chances",
           "seat_chances_steps", "outlook_for", "point_value", "point_value_steps"]

PHASE_TABLE_FILE = "phase_table.json"
TAIL = 1e-5
"""Probabilities below this are dropped from a distribution (and the rest renormalised)."""

Dist = tuple[float, ...]
"""A distribution of points: ``d[p]`` is the chance of exactly ``p`` points."""


def supports(rules: Rules) -> bool:
    """The model is made from two-player six-card play: other tables have no chance of winning yet."""
    return rules.players == 2 and rules.crib_from_pack == 0


def point(value: int) -> Dist:
    """A known number of points."""
    return tuple([0.0] * value + [1.0])


def _norm(counts: Sequence[float]) -> Dist:
    total = float(sum(counts))
    if total <= 0:
        return (1.0,)
    d = [c / total for c in counts]
    d = [p if p >= TAIL else 0.0 for p in d]
    while len(d) > 1 and d[-1] == 0.0:
        d.pop()
    total = sum(d)
    return tuple(p / total for p in d)


def convolve(a: Dist, b: Dist) -> Dist:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        if p:
            for j, q in enumerate(b):
                if q:
                    out[i + j] += p * q
    return _norm(out)


class Outlook:
    """What is still to come in this hand, as distributions of points."""

    __slots__ = ("pone_pegging", "dealer_pegging", "pone_hand", "dealer_hand", "crib")

    def __init__(self, pone_pegging: Dist, dealer_pegging: Dist, pone_hand: Dist, dealer_hand: Dist,
                 crib: Dist) -> None:
        self.pone_pegging = pone_pegging
        self.dealer_pegging = dealer_pegging
        self.pone_hand = pone_hand
        self.dealer_hand = dealer_hand
        self.crib = crib

    def key(self) -> tuple[Dist, ...]:
        return (self.pone_pegging, self.dealer_pegging, self.pone_hand, self.dealer_hand, self.crib)


@lru_cache(maxsize=1)
def _table() -> dict[str, object] | None:
    try:
        data = load_data(PHASE_TABLE_FILE)
    except (OSError, ValueError):
        return None
    out: dict[str, object] = {}
    for key in ("pone_hand", "dealer_hand", "crib"):
        out[key] = _norm(data[key])
    for key in ("pone_pegging_after", "dealer_pegging_after"):
        out[key] = tuple(_norm(h) for h in data[key])
    return out


def _hist(key: str) -> Dist:
    table = _table()
    if table is None:
        return (1.0,)
    value = table[key]
    assert isinstance(value, tuple)
    return value


def _pegging_after(role: str, laid: int) -> Dist:
    if laid >= 8:
        return (1.0,)
    table = _table()
    if table is None:
        return (1.0,)
    value = table[f"{role}_pegging_after"]
    assert isinstance(value, tuple)
    return value[laid]  # type: ignore[no-any-return]


def whole_hand() -> Outlook:
    """A hand not yet seen by anyone (its start)."""
    return Outlook(_pegging_after("pone", 0), _pegging_after("dealer", 0), _hist("pone_hand"),
                   _hist("dealer_hand"), _hist("crib"))


def pone_chance(pone_needs: int, dealer_needs: int, outlook: Outlook | None = None) -> float:
    """The chance that the pone, needing ``pone_needs``, beats the dealer needing ``dealer_needs``
    with ``outlook`` still to come in this hand (None: the start of a hand, the win table)."""
    if pone_needs <= 0:
        return 1.0
    if dealer_needs <= 0:
        return 0.0
    if outlook is None:
        return win_chance(pone_needs, dealer_needs)
    return _pone_chance(pone_needs, dealer_needs, outlook.key())


def pone_chance_steps(pone_needs: int, dealer_needs: int, outlook: Outlook | None = None) -> Steps[float]:
    """:func:`pone_chance` in steps (see :mod:`cribbage.ai.steps`)."""
    if pone_needs <= 0:
        return 1.0
    if dealer_needs <= 0:
        return 0.0
    if outlook is None:
        return win_chance(pone_needs, dealer_needs)
    return (yield from _pone_chance_steps(pone_needs, dealer_needs, outlook.key()))


MEMO_SIZE = 512
"""Figures remembered (a position's figure is asked again at every frame that shows it)."""
_MEMO: dict[tuple[int, int, tuple[Dist, ...]], float] = {}


def _pone_chance(a: int, b: int, key: tuple[Dist, ...]) -> float:
    return finish(_pone_chance_steps(a, b, key))


def _pone_chance_steps(a: int, b: int, key: tuple[Dist, ...]) -> Steps[float]:
    """The pone's chance, yielding between the play's outcomes (a page spreads the work over short
    slices; the same figure as at once). Remembered: asked again, it returns without a step."""
    memo_key = (a, b, key)
    known = _MEMO.get(memo_key)
    if known is not None:
        return known
    peg_p, peg_d, hand_p, hand_d, crib = key
    show_d = convolve(hand_d, crib)
    # Q[b2][r]: the pone needs r after its hand, the dealer b2 before its show: the pone's chance.
    q_cache: dict[tuple[int, int], float] = {}

    def q(b2: int, r: int) -> float:
        got = q_cache.get((b2, r))
        if got is None:
            # The dealer's show s < b2 leaves the dealer needing b2 - s; the deal passes: the old
            # dealer is the new pone. The old pone wins with 1 - F(new pone needs, new dealer needs).
            got = sum(p * (1.0 - win_chance(b2 - s, r)) for s, p in enumerate(show_d) if p and s < b2)
            q_cache[(b2, r)] = got
        return got

    def after_play(a2: int, b2: int) -> float:
        total = 0.0
        for h, p in enumerate(hand_p):
            if not p:
                continue
            total += p if h >= a2 else p * q(b2, a2 - h)
        return total

    total = 0.0
    for x, px in enumerate(peg_p):
        if not px:
            continue
        for y, py in enumerate(peg_d):
            if not py:
                continue
            if x >= a and y >= b:
                total += px * py * 0.5
            elif x >= a:
                total += px * py
            elif y >= b:
                continue
            else:
                yield
                total += px * py * after_play(a - x, b - y)
    result = min(1.0, max(0.0, total))
    if len(_MEMO) >= MEMO_SIZE:
        del _MEMO[next(iter(_MEMO))]  # the oldest first
    _MEMO[memo_key] = result
    return result


# --- from a seat's view ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _hand_over_starters(kept: tuple[Card, ...], unseen_out: frozenset[Card]) -> Dist:
    """A kept hand's show over every starter this seat has not seen."""
    counts: list[float] = []
    for starter in DECK:
        if starter in unseen_out:
            continue
        v = hand_points(list(kept), starter)
        while len(counts) <= v:
            counts.append(0.0)
        counts[v] += 1.0
    return _norm(counts)


def outlook_for(view: "SeatView") -> Outlook | None:
    """What ``view.seat`` may expect still to come in this hand (None before the first deal or
    after the game). Before this seat has laid away, the whole hand is still to come: the phase
    model is used from the first card, so the figure moves smoothly from phase to phase."""
    phase = str(view.phase)
    me = view.seat
    dealer = view.dealer
    if dealer is None or phase in ("cut for deal", "game over"):
        return None
    if phase == "cut" or not view.kept:
        return whole_hand()
    i_deal = me == dealer
    role_me, role_opp = ("dealer", "pone") if i_deal else ("pone", "dealer")
    hands: dict[str, Dist] = {}
    if phase == "show":
        step = view.show_step
        opp_kept = tuple(view.opponent_kept)
        starter = view.starter
        assert starter is not None
        my_value = hand_points(list(view.kept), starter)
        opp_value = hand_points(list(opp_kept), starter) if len(opp_kept) == 4 else None
        hands[role_me] = point(my_value)
        hands[role_opp] = point(opp_value) if opp_value is not None else _hist(f"{role_opp}_hand")
        pone_hand = hands["pone"] if step == 0 else point(0)
        dealer_hand = hands["dealer"] if step <= 1 else point(0)
        crib = _hist("crib") if step <= 2 else point(0)
        return Outlook(point(0), point(0), pone_hand, dealer_hand, crib)
    if view.starter is None:
        seen = frozenset(view.hand) | frozenset(view.discards) | frozenset(view.kept)
        hands[role_me] = _hand_over_starters(tuple(sorted(view.kept)), seen)
    else:
        hands[role_me] = point(hand_points(list(view.kept), view.starter))
    hands[role_opp] = _hist(f"{role_opp}_hand")
    laid = len(view.pile) + sum(len(c) for c in view.played) if phase == "play" else 0
    return Outlook(_pegging_after("pone", laid), _pegging_after("dealer", laid), hands["pone"],
                   hands["dealer"], _hist("crib"))


def seat_chances(view: "SeatView") -> tuple[float, float] | None:
    """Each seat's chance of winning (seat 0, seat 1) as ``view.seat`` sees the game now; None at a
    table the model does not cover (:func:`supports`)."""
    return finish(seat_chances_steps(view))


def seat_chances_steps(view: "SeatView") -> Steps[tuple[float, float] | None]:
    """:func:`seat_chances` in steps: the same figures, yielding between pieces of the work (a page
    computes the chance-of-winning bar in short slices on its timer)."""
    if not supports(view.rules):
        return None
    target = view.rules.target
    if view.winner is not None:
        return (1.0, 0.0) if view.winner == 0 else (0.0, 1.0)
    if view.dealer is None:
        return 0.5, 0.5
    dealer = view.dealer
    pone = 1 - dealer
    a, b = target - view.scores[pone], target - view.scores[dealer]
    p = yield from pone_chance_steps(a, b, outlook_for(view))
    out = [0.0, 0.0]
    out[pone], out[dealer] = p, 1.0 - p
    return out[0], out[1]


def point_value(view: "SeatView") -> float | None:
    """What one point is worth to ``view.seat`` now, in chance of winning: half the difference
    between its chance one point ahead and one point behind (the slope of the model at these
    scores; near the end a point is worth far more than at the start). None where the model does not
    apply (another table, before the deal, after the game)."""
    return finish(point_value_steps(view))


def point_value_steps(view: "SeatView") -> Steps[float | None]:
    """:func:`point_value` in steps (see :mod:`cribbage.ai.steps`)."""
    from dataclasses import replace

    if not supports(view.rules) or view.dealer is None or view.winner is not None:
        return None
    me = view.seat
    here = view.scores[me]

    def chance_at(score: int) -> Steps[float]:
        scores = list(view.scores)
        scores[me] = score
        chances = yield from seat_chances_steps(replace(view, scores=tuple(scores)))
        assert chances is not None
        return chances[me]

    lo, hi = max(0, here - 1), min(view.rules.target - 1, here + 1)
    if hi == lo:
        return 0.0
    low = yield from chance_at(lo)
    high = yield from chance_at(hi)
    return max(0.0, (high - low) / (hi - lo))

"""The play, searched: which card to lay, by sampling the opponent's hidden cards and solving each.

Suits never matter in the play, so everything here works on ranks (1..13). For a decision, the
opponent's remaining cards are drawn from the cards this seat has not seen (excluding ranks he
cannot hold because he said Go), each sample is solved exactly with both hands open (minimax over
the rest of the play: fifteens, 31s, pairs, runs, go and last card), and the values of each card
are averaged over the samples ("perfect-information Monte Carlo"). When the opponent's holding has
few possibilities they are enumerated with exact weights instead of sampled.

Near the end of the game the value is not net points but the chance of winning: a sample that
lets either side reach 121 during the play (or the pone with his hand, which is counted first)
scores ±1 before the rest of the show, so the search pegs out when it can and defends when the
opponent could.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Callable, Sequence

from ..cards import DECK, Card
from .steps import Steps, finish

if TYPE_CHECKING:
    from ..view import SeatView

__all__ = ["peg_points", "PlayState", "solve", "evaluate_plays", "evaluate_plays_steps", "play_state_from_view"]

_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_PAIR_POINTS = (0, 2, 6, 12)

_PEG_CACHE: dict[tuple[tuple[int, ...], int], int] = {}


def peg_points(tail: tuple[int, ...], rank: int) -> int:
    """Points for laying ``rank`` on the current count's ranks ``tail`` (15/31, pairs, runs)."""
    key = (tail, rank)
    got = _PEG_CACHE.get(key)
    if got is not None:
        return got
    count = rank if rank < 10 else 10
    for r in tail:
        count += r if r < 10 else 10
    pts = 2 if count == 15 or count == 31 else 0
    n = 0
    i = len(tail) - 1
    while i >= 0 and tail[i] == rank:
        n += 1
        i -= 1
    if n:
        pts += _PAIR_POINTS[n]
    elif len(tail) >= 2:
        seq = tail + (rank,)
        for size in range(len(seq), 2, -1):
            grp = seq[-size:]
            if max(grp) - min(grp) == size - 1 and len(set(grp)) == size:
                pts += size
                break
    if len(_PEG_CACHE) < 200_000:
        _PEG_CACHE[key] = pts
    return pts


def settle(h0: tuple[int, ...], h1: tuple[int, ...], count: int, turn: int, go: int,
           last: int) -> tuple[int, int, int, int]:
    """Pass the turn as ``state._settle_play`` does, on sorted rank tuples: skip a player who is out or
    has said Go, make a stuck player say Go, and end a count nobody can add to.

    Returns ``(turn, go, count, go_to)``: who must now lay a card, who has said Go (-1 none), the
    count, and the seat that scored the go (-1 none; the count was then reset, so at most one go a
    call: the new leader can always play at 0).
    """
    go_to = -1
    while True:
        mine = h0 if turn == 0 else h1
        theirs = h1 if turn == 0 else h0
        room = 31 - count
        # Hands are sorted by rank, so the first card is the smallest value.
        if mine and _VALUE[mine[0]] <= room:
            return turn, go, count, go_to
        if mine and theirs and go < 0:
            go = turn  # says Go
            turn = 1 - turn
            continue
        if theirs and _VALUE[theirs[0]] <= room:
            turn = 1 - turn
            continue
        if (not h0 and not h1) or go_to >= 0:
            # Cannot happen: the last card ends the play, and a new leader can always play.
            return turn, go, count, go_to
        # Nobody can play: the go to whoever laid last, and a new count led by the other if he can.
        go_to = last
        count = 0
        go = -1
        turn = 1 - last if (h1 if last == 0 else h0) else last


def _remove(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    i = hand.index(rank)
    return hand[:i] + hand[i + 1:]


class _Solver:
    """Exact minimax of the rest of the play with both hands known; values are net for seat 0.

    Seat 0 is the searching player, seat 1 the opponent. State: both hands (sorted rank tuples),
    the ranks of the current count, the count, whose turn, who said Go (-1 none), who laid last.
    """

    __slots__ = ("memo",)

    def __init__(self) -> None:
        self.memo: dict[tuple[object, ...], int] = {}

    def value(self, h0: tuple[int, ...], h1: tuple[int, ...], tail: tuple[int, ...], count: int,
              turn: int, go: int, last: int) -> int:
        """Net points (seat 0 minus seat 1) from here to the end of the play, both playing best."""
        key = (h0, h1, tail, turn, go, last)
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        # Settle: find who must decide, scoring the go and resetting as the rules say.
        turn, go, count, go_to = settle(h0, h1, count, turn, go, last)
        net = 0
        if go_to >= 0:
            net = 1 if go_to == 0 else -1
            tail = ()
        mine = h0 if turn == 0 else h1
        room = 31 - count
        best: int | None = None
        seen = -1
        for r in mine:
            if r == seen or _VALUE[r] > room:
                continue
            seen = r
            v = self.after(h0, h1, tail, count, turn, go, r)
            if best is None or (v > best if turn == 0 else v < best):
                best = v
        assert best is not None
        result = net + best
        memo[key] = result
        return result

    def after(self, h0: tuple[int, ...], h1: tuple[int, ...], tail: tuple[int, ...], count: int,
              turn: int, go: int, r: int) -> int:
        """Net value of ``turn`` laying rank ``r`` now (its points included)."""
        pts = peg_points(tail, r)
        count += _VALUE[r]
        if turn == 0:
            h0 = _remove(h0, r)
        else:
            h1 = _remove(h1, r)
        sign = 1 if turn == 0 else -1
        if not h0 and not h1:
            if count != 31:
                pts += 1
            return sign * pts
        if count == 31:
            nxt = 1 - turn if (h1 if turn == 0 else h0) else turn
            return sign * pts + self.value(h0, h1, (), 0, nxt, -1, turn)
        return sign * pts + self.value(h0, h1, tail + (r,), count, 1 - turn, go, turn)


def solve(h0: Sequence[int], h1: Sequence[int], tail: Sequence[int] = (), turn: int = 0, go: int = -1,
          last: int = -1) -> int:
    """Net pegging points for seat 0 with both hands known and both sides playing best."""
    count = sum(_VALUE[r] for r in tail)
    return _Solver().value(tuple(sorted(h0)), tuple(sorted(h1)), tuple(tail), count, turn, go, last)


@dataclass
class PlayState:
    """What the searching seat knows in the play, in ranks and cards."""

    hand: tuple[Card, ...]
    """My cards still held."""
    unseen: tuple[Card, ...]
    """Cards the opponent might hold (already filtered by his Go)."""
    opp_count: int
    """How many cards the opponent holds."""
    tail: tuple[int, ...]
    """Ranks of the current count, in order."""
    go: int
    """-1, or 0 if I said Go in this count, 1 if the opponent did."""
    last: int
    """Who laid the last card of the current count (-1 none)."""


def play_state_from_view(view: SeatView) -> PlayState:
    """Translate a seat's view of the play into ranks; find which ranks the opponent cannot hold."""
    me = view.seat
    opp = 1 - me
    # Every card the opponent still holds was too big for the count at each Go he said this hand.
    min_value = 1
    for e in view.events:
        if e.hand == view.hand_number and e.kind == "go" and not e.points and e.seat == opp:
            min_value = max(min_value, 31 - e.count + 1)
    known = view.known_cards()
    unseen = tuple(c for c in DECK if c not in known and c.value >= min_value)
    tail = tuple(int(c.rank) for _, c in view.pile)
    last = -1
    if view.pile:
        last = 0 if view.pile[-1][0] == me else 1
    go = -1 if view.go_said is None else (0 if view.go_said == me else 1)
    return PlayState(tuple(view.hand), unseen, view.opponent_cards, tail, go, last)


def _rank_holdings(unseen: Sequence[Card], n: int) -> list[tuple[tuple[int, ...], float]]:
    """Every multiset of ``n`` ranks the opponent could hold, with its probability."""
    avail = [0] * 14
    for c in unseen:
        avail[c.rank] += 1
    total = comb(len(unseen), n)
    out: list[tuple[tuple[int, ...], float]] = []

    def rec(start: int, left: int, acc: tuple[int, ...], ways: int) -> None:
        if left == 0:
            out.append((acc, ways / total))
            return
        for r in range(start, 14):
            a = avail[r]
            if not a:
                continue
            for k in range(1, min(a, left) + 1):
                rec(r + 1, left - k, acc + (r,) * k, ways * comb(a, k))

    rec(1, n, (), 1)
    return out


def holdings(ps: PlayState, samples: int, rng: random.Random,
             weight: Callable[[tuple[Card, ...]], float] | None = None) -> list[tuple[tuple[int, ...], float]]:
    """The opponent's possible holdings (sorted rank tuples) with weights summing to 1."""
    n = ps.opp_count
    if n == 0:
        return [((), 1.0)]
    if len(ps.unseen) < n:
        # The view is inconsistent with our Go filter (should not happen); hold what is there.
        return [(tuple(sorted(int(c.rank) for c in ps.unseen)), 1.0)]
    ranks_available = len({c.rank for c in ps.unseen})
    if weight is None and comb(ranks_available + n - 1, n) <= 4 * samples:
        exact = _rank_holdings(ps.unseen, n)
        if len(exact) <= samples:
            return exact
    drawn: dict[tuple[int, ...], float] = {}
    pool = list(ps.unseen)
    for _ in range(samples):
        cards = tuple(rng.sample(pool, n))
        w = 1.0 if weight is None else weight(cards)
        key = tuple(sorted(int(c.rank) for c in cards))
        drawn[key] = drawn.get(key, 0.0) + w
    total = sum(drawn.values()) or 1.0
    return [(k, w / total) for k, w in drawn.items()]


def evaluate_plays(ps: PlayState, samples: int = 60, rng: random.Random | None = None,
                   weight: Callable[[tuple[Card, ...]], float] | None = None,
                   ) -> dict[int, tuple[int, float]]:
    """For each rank I may lay now: (points it scores at once, expected net pegging to the end)."""
    return finish(evaluate_plays_steps(ps, samples, rng, weight))


def evaluate_plays_steps(ps: PlayState, samples: int = 60, rng: random.Random | None = None,
                         weight: Callable[[tuple[Card, ...]], float] | None = None,
                         ) -> Steps[dict[int, tuple[int, float]]]:
    """:func:`evaluate_plays` in steps: it pauses after each holding of the opponent's."""
    rng = rng or random.Random(0)
    hand = tuple(sorted(int(c.rank) for c in ps.hand))
    count = sum(_VALUE[r] for r in ps.tail)
    room = 31 - count
    options = sorted({r for r in hand if _VALUE[r] <= room})
    if not options:
        return {}
    solver = _Solver()
    result: dict[int, tuple[int, float]] = {}
    sums = {r: 0.0 for r in options}
    for opp, w in holdings(ps, samples, rng, weight):
        for r in options:
            sums[r] += w * solver.after(hand, opp, ps.tail, count, 0, ps.go, r)
        yield
    for r in options:
        result[r] = (peg_points(ps.tail, r), sums[r])
    return result

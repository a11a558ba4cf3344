"""The play at a table of three or four: which card to lay, by a search over the hidden hands.

The two-player search (:mod:`cribbage.ai.pegging`) solves each sample of the opponent's hand to the
end of the play. At a table of three or four there are two or three hidden hands and up to sixteen
cards left, too many to solve to the end inside the browser's time for one move, so here:

- **Samples.** Each other seat's hand is drawn from the cards this seat has not seen, with the
  number of cards it holds, and only from cards too big for the count at every Go it said this hand
  (a player who said Go at 25 holds nothing below a 7). The most constrained seat is dealt first;
  with one constrained seat that is exactly the conditional draw. Draws with the same ranks in the
  same seats are solved once, with their weight.
- **Search.** Each sample is searched with every hand open, by the rules of the play at any table:
  the turn passes to the left; a player who cannot lay a card says Go and the others go on; when
  nobody can, the last card laid scores the go and the next count is led from its player's left;
  31 scores 2 and starts a new count; the last card of the play scores 1. Every player chooses the
  card best for *his side*: his own points minus the mean of the other sides' (max-n, three
  players), his partnership's minus the other's (four players: the two sides play a zero-sum game,
  so a player sets up his partner and does not leave a 15 or a 31 to the next opponent). The search
  looks ``depth`` cards ahead (default: one round of the table and the searching player's next card)
  and solves to the end once few cards are left (:data:`EXACT_CARDS`).
- **Budget.** The first sample's node count sets how many samples fit in ``budget`` nodes (between
  ``min_samples`` and ``samples``), so a decision's cost is bounded and reproducible (the same
  position gives the same answer on every machine). Measured inside Pyodide: BENCH.md.

Values are net points over the rest of the play (inside the horizon): this seat's side minus the
mean of the other sides. Everything works on ranks (1..13): suits never matter in the play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ..cards import DECK, Card
from .pegging import _VALUE, peg_points

if TYPE_CHECKING:
    from ..view import SeatView

__all__ = ["TablePlay", "evaluate_table_plays", "deal_hidden", "TableSearch", "EXACT_CARDS", "BUDGET", "unpack",
           "table_play_from_view"]

EXACT_CARDS = 8
"""With this many cards or fewer left in all hands, each sample is searched to the end of the play."""
BUDGET = 9_000
"""Default search nodes a decision (all samples together); see BENCH.md for its time inside Pyodide."""


@dataclass(frozen=True)
class TablePlay:
    """What the deciding seat knows in the play at a table of two, three or four (plain inputs)."""

    seat: int
    """The seat deciding now (it is its turn)."""
    sides: tuple[int, ...]
    """The side of each seat: ``(0, 1, 2)`` for three players, ``(0, 1, 0, 1)`` for partnerships."""
    hand: tuple[Card, ...]
    """My cards still held."""
    unseen: tuple[Card, ...]
    """Cards the other players might hold: every card I have not seen (the crib's and the pack's
    unseen cards included)."""
    counts: tuple[int, ...]
    """How many cards each seat holds now (my own included)."""
    tail: tuple[int, ...] = ()
    """Ranks of the current count, in order."""
    last: int = -1
    """Who laid the last card of the current count (-1: none, a new count)."""
    min_values: tuple[int, ...] = ()
    """For each seat, the smallest counting value any card it holds can have (from the Gos it said
    this hand: 1 when it said none); empty means no constraint."""

    @property
    def players(self) -> int:
        """How many seats."""
        return len(self.sides)


def table_play_from_view(view: SeatView) -> TablePlay:
    """What a seat's view of the play says, as a :class:`TablePlay` (any number of seats).

    Every card it has not seen may be in another hand; a seat that said Go this hand (without
    scoring: the go point is another event) held nothing that fitted, so each card it still holds
    is worth more than 31 minus the count at which it said it.
    """
    rules = view.rules
    n = rules.players
    mins = [1] * n
    for e in view.events:
        if e.hand == view.hand_number and e.kind == "go" and not e.points and e.seat is not None:
            mins[e.seat] = max(mins[e.seat], 31 - e.count + 1)
    known = view.known_cards()
    counts = view.hand_counts or tuple(len(view.hand) if s == view.seat else view.opponent_cards for s in range(n))
    return TablePlay(
        seat=view.seat,
        sides=tuple(rules.side_of(s) for s in range(n)),
        hand=tuple(view.hand),
        unseen=tuple(c for c in DECK if c not in known),
        counts=tuple(counts),
        tail=tuple(int(c.rank) for _, c in view.pile),
        last=view.pile[-1][0] if view.pile else -1,
        min_values=tuple(mins),
    )


def deal_hidden(tp: TablePlay, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """One draw of every seat's hand as sorted ranks (mine as they are), consistent with the Gos."""
    n = tp.players
    mins = tp.min_values or (1,) * n
    hands: list[tuple[int, ...]] = [()] * n
    hands[tp.seat] = tuple(sorted(int(c.rank) for c in tp.hand))
    pool = list(tp.unseen)
    taken: set[Card] = set()
    # The most constrained seat first: with one constrained seat this is the exact conditional draw.
    order = sorted((s for s in range(n) if s != tp.seat and tp.counts[s] > 0), key=lambda s: (-mins[s], s))
    for s in order:
        need = tp.counts[s]
        eligible = [c for c in pool if c not in taken and c.value >= mins[s]]
        if len(eligible) < need:  # an inconsistent view (should not happen): take what is left
            eligible = [c for c in pool if c not in taken]
        cards = rng.sample(eligible, min(need, len(eligible)))
        taken.update(cards)
        hands[s] = tuple(sorted(int(c.rank) for c in cards))
    return tuple(hands)


_SHIFT = 8
"""Points of each side are packed into one int, 8 bits a side (a side pegs far fewer than 256 in a
hand), so adding a score is one integer addition in the search's inner loop."""
_MASK = (1 << _SHIFT) - 1


def unpack(v: int, sides: int) -> tuple[int, ...]:
    """The points of each side in a packed value."""
    return tuple((v >> (_SHIFT * s)) & _MASK for s in range(sides))


class TableSearch:
    """Search of the rest of the play with every hand open, to a depth; values are the points of
    every side, packed into one int (:func:`unpack`)."""

    __slots__ = ("n", "sides", "n_sides", "memo", "nodes", "unit")

    def __init__(self, sides: Sequence[int]) -> None:
        self.n = len(sides)
        self.sides = tuple(sides)
        self.n_sides = max(sides) + 1
        self.unit = tuple(1 << (_SHIFT * sd) for sd in self.sides)
        """One point for each seat's side, packed."""
        self.memo: dict[tuple[object, ...], int] = {}
        self.nodes = 0

    def utility(self, v: int, side: int) -> int:
        """How much ``side`` likes ``v``: sides times its points minus everyone's (its own minus the
        mean of the others', scaled)."""
        total = 0
        mine = 0
        for s in range(self.n_sides):
            p = (v >> (_SHIFT * s)) & _MASK
            total += p
            if s == side:
                mine = p
        return self.n_sides * mine - total

    def value(self, hands: tuple[tuple[int, ...], ...], tail: tuple[int, ...], count: int, turn: int,
              last: int, depth: int) -> int:
        """Points each side pegs from here (inside ``depth`` more cards), every player choosing best."""
        key = (hands, tail, turn, last, depth)
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        n = self.n
        room = 31 - count
        mover = -1
        for k in range(n):
            s = (turn + k) % n
            h = hands[s]
            if h and _VALUE[h[0]] <= room:
                mover = s
                break
        go = 0
        if mover < 0:
            # Nobody can lay a card: the go to the last card, a new count from its player's left.
            go = self.unit[last]
            tail = ()
            count = 0
            room = 31
            for k in range(1, n + 1):
                s = (last + k) % n
                if hands[s]:
                    mover = s
                    break
        if depth <= 0:
            memo[key] = go
            return go
        side = self.sides[mover]
        best = -1
        best_u = 0
        seen = -1
        for r in hands[mover]:
            if r == seen or _VALUE[r] > room:
                continue
            seen = r
            v = self.after(hands, tail, count, mover, r, depth)
            u = self.utility(v, side)
            if best < 0 or u > best_u:
                best, best_u = v, u
        best += go
        memo[key] = best
        return best

    def after(self, hands: tuple[tuple[int, ...], ...], tail: tuple[int, ...], count: int, seat: int, r: int,
              depth: int) -> int:
        """Points each side pegs if ``seat`` lays rank ``r`` now (its points included), packed."""
        pts = peg_points(tail, r)
        count += _VALUE[r]
        h = hands[seat]
        i = h.index(r)
        hands = hands[:seat] + (h[:i] + h[i + 1:],) + hands[seat + 1:]
        n = self.n
        if not any(hands):
            if count != 31:
                pts += 1  # the last card
            return pts * self.unit[seat]
        if count == 31:
            nxt = seat
            for k in range(1, n + 1):
                s = (seat + k) % n
                if hands[s]:
                    nxt = s
                    break
            rest = self.value(hands, (), 0, nxt, -1, depth - 1)
        else:
            rest = self.value(hands, tail + (r,), count, (seat + 1) % n, seat, depth - 1)
        return rest + pts * self.unit[seat]


def evaluate_table_plays(tp: TablePlay, *, samples: int = 48, min_samples: int = 8, budget: int = BUDGET,
                         depth: int | None = None, rng: random.Random | None = None,
                         ) -> dict[int, tuple[int, float]]:
    """For each rank I may lay now: (points it scores at once, expected net pegging for my side).

    Net pegging is my side's points minus the mean of the other sides', over the rest of the play
    (inside the search horizon), averaged over the samples of the hidden hands.
    """
    rng = rng or random.Random(0)
    mine = tuple(sorted(int(c.rank) for c in tp.hand))
    count = sum(_VALUE[r] for r in tp.tail)
    options = sorted({r for r in mine if _VALUE[r] <= 31 - count})
    if not options:
        return {}
    n = tp.players
    left = sum(tp.counts)
    full = left <= EXACT_CARDS
    d = 99 if full else (n + 1 if depth is None else depth)
    side = tp.sides[tp.seat]
    ns = max(tp.sides) + 1
    # Draw the hidden hands; the same ranks in the same seats are searched once, with their weight.
    weights: dict[tuple[tuple[int, ...], ...], int] = {}
    found: dict[tuple[tuple[int, ...], ...], dict[int, float]] = {}
    nodes = 0
    target = samples
    drawn = 0
    while drawn < target:
        hands = deal_hidden(tp, rng)
        drawn += 1
        weights[hands] = weights.get(hands, 0) + 1
        if hands in found:
            continue
        search = TableSearch(tp.sides)
        values = {}
        for r in options:
            values[r] = search.utility(search.after(hands, tp.tail, count, tp.seat, r, d), side) / (ns - 1)
        found[hands] = values
        nodes += search.nodes
        if drawn == 1:  # the first sample sets how many fit in the budget
            target = max(min_samples, min(samples, budget // max(1, search.nodes)))
        elif nodes > budget and drawn >= min_samples:
            break
    total = sum(weights.values())
    return {r: (peg_points(tp.tail, r), sum(w * found[h][r] for h, w in weights.items()) / total)
            for r in options}

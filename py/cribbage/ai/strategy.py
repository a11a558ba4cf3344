"""Refinements on top of plain expected points: a pegging term for discards, and the end of the
game, where the chance of winning is what counts.

Near the end of the game the play is searched for the chance of winning: a sample in which either
side reaches the target during the play is decided on the spot; otherwise the show is counted in order (the pone's
hand first, then the dealer's hand, then the crib, whose two unknown cards are enumerated) and the
hands after this one are valued with the win table ``cribbage/data/win_table.json`` (see
``py/tools/make_win_table.py``).

Everything here works on *distances* to the target (what each player still needs), never on
scores, so a game to 61 uses the same search and the same win table as a game to 121: a 61 game at
40–50 is a 121 game at 100–110 (needs 21 and 11 either way). The win table ``F[a][b]`` depends only
on the two needs and on the points a hand brings (the same deal at both lengths); a 61 game simply
lives in its corner a, b <= 60, and the thresholds (:data:`ENDGAME_NEED`, ...) are distances too,
so a 61 game is searched for the chance of winning from the first time either player needs 40 or
fewer (from 21 points on), as a 121 game is from 81. The win table is two-player only
(:func:`supports`).
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Callable, Sequence

from ..cards import DECK, Card
from ..rules import Rules
from ..scoring import hand_points
from .discards import load_data
from .pegging import _VALUE, PlayState, _remove, peg_points, settle
from .steps import Steps, finish

if TYPE_CHECKING:
    from ..view import SeatView

__all__ = ["peg_ev_of_keep", "peg_value", "endgame_play_values", "endgame_discard_values", "win_chance",
           "ENDGAME_NEED", "ENDGAME_DISCARD_NEED", "supports", "target_of", "rules_of"]

ENDGAME_NEED = 40
"""The play is searched for the chance of winning once either player needs this many points or fewer."""
ENDGAME_DISCARD_NEED = 32
"""Discards are chosen for the chance of winning once either player needs this many points or fewer."""
WIN_TABLE_FILE = "win_table.json"
PEG_TABLE_FILE = "peg_values.json"


# --- the win table --------------------------------------------------------------------------------


def supports(rules: Rules) -> bool:
    """True where the win table and the endgame search apply: two players with six cards (the
    classic deal), to 121 or to 61. The table was made from two-player six-card self-play; other
    tables play for points to the end."""
    return rules.players == 2 and rules.discards == 2


def rules_of(view: SeatView) -> Rules:
    """The rules of this view's game (the classic game for a view that carries none)."""
    rules = getattr(view, "rules", None)
    return rules if isinstance(rules, Rules) else Rules()


def target_of(view: SeatView) -> int:
    """The score that wins this view's game: its rules' target (121 for a view without rules)."""
    return rules_of(view).target


@lru_cache(maxsize=1)
def _win_table() -> tuple[tuple[float, ...], ...] | None:
    try:
        data = load_data(WIN_TABLE_FILE)
    except (OSError, ValueError):
        return None
    return tuple(tuple(v / 1000.0 for v in row) for row in data["F"])


def win_chance(pone_needs: int, dealer_needs: int) -> float:
    """Chance that the pone of the coming hand, needing ``pone_needs``, beats the dealer."""
    if pone_needs <= 0:
        return 1.0
    if dealer_needs <= 0:
        return 0.0
    table = _win_table()
    a, b = min(pone_needs, 121), min(dealer_needs, 121)
    if table is None:  # a rough stand-in: the dealer's edge is worth about 6 points
        from math import erf, sqrt

        return 0.5 * (1 + erf((b - a - 6) / (sqrt(2) * (8 + 0.3 * (a + b) ** 0.5 * 3))))
    return table[a - 1][b - 1]


@lru_cache(maxsize=1)
def _histograms() -> dict[str, list[float]] | None:
    """Per-hand point distributions from expert self-play (normalised), as stored in the win table."""
    try:
        data = load_data(WIN_TABLE_FILE)
    except (OSError, ValueError):
        return None
    out: dict[str, list[float]] = {}
    for key in ("pone_points", "dealer_points", "pone_pegging", "dealer_pegging", "crib"):
        if key not in data:
            return None
        counts = data[key]
        total = sum(counts) or 1
        out[key] = [n / total for n in counts]
    return out


def endgame_discard_values(hand_dists: Sequence[dict[int, float]], crib_evs: Sequence[float], dealer: bool,
                           scores: tuple[int, int], target: int = 121) -> list[float] | None:
    """Chance of winning of each discard near the end of the game, or None when points are what matter.

    ``hand_dists[i]`` is the distribution of the i-th keep's show over the starters; ``crib_evs[i]``
    its crib value. The pone's points (pegging and hand) are counted before the dealer's; the
    opponent's points this hand follow the self-play distributions; later hands the win table.
    ``target`` is the game's (121 or 61): only the distances to it matter.
    """
    need_me, need_opp = target - scores[0], target - scores[1]
    if len(hand_dists) != 15:  # one card laid away: the win table is for six-card deals (supports())
        return None
    if min(need_me, need_opp) > ENDGAME_DISCARD_NEED:
        return None
    hist = _histograms()
    if hist is None:
        return None
    a, b = need_me, need_opp
    top = a + 1
    G = [0.0] * (top + 1)  # G[t]: chance of winning if my points this hand total t (t >= a: capped)
    if dealer:
        opp = hist["pone_points"]
        for t in range(top + 1):
            g = 0.0
            for x, px in enumerate(opp):
                if px and x < b:
                    g += px * (1.0 if t >= a else win_chance(a - t, b - x))
            G[t] = g
        peg = hist["dealer_pegging"]
    else:
        opp = hist["dealer_points"]
        for t in range(top + 1):
            if t >= a:
                G[t] = 1.0
                continue
            G[t] = sum(py * (1.0 - win_chance(b - y, a - t)) for y, py in enumerate(opp) if py and y < b)
        peg = hist["pone_pegging"]
    crib_hist = hist["crib"]
    crib_mean = sum(i * p for i, p in enumerate(crib_hist))
    out = []
    for dist, cev in zip(hand_dists, crib_evs):
        # My points before the crib: pegging + hand.
        before: dict[int, float] = {}
        for h, ph in dist.items():
            for pg, pp in enumerate(peg):
                if pp:
                    t = h + pg
                    before[t] = before.get(t, 0.0) + ph * pp
        total = 0.0
        if dealer:
            shift = round(cev - crib_mean)
            for t, pt in before.items():
                for c, pc in enumerate(crib_hist):
                    if pc:
                        total += pt * pc * G[min(top, max(0, t + c + shift))]
        else:
            for t, pt in before.items():
                total += pt * G[min(top, t)]
        out.append(total)
    return out


# --- discards -------------------------------------------------------------------------------------


PEG_WEIGHT = 0.0
"""How much of the open-hand pegging value of a keep counts in the discard (see BENCH.md)."""
_RANK_CHARS = "A23456789TJQK"


@lru_cache(maxsize=1)
def _peg_table() -> tuple[dict[str, tuple[float, float]], tuple[float, float]] | None:
    try:
        data = load_data(PEG_TABLE_FILE)
    except (OSError, ValueError):
        return None
    values = {k: (float(v[0]), float(v[1])) for k, v in data["values"].items()}
    mean = (float(data["mean"][0]), float(data["mean"][1]))
    return values, mean


def peg_value(keep: Sequence[Card], dealer: bool) -> float:
    """Open-hand net pegging of a keep against four random cards, relative to the average keep."""
    table = _peg_table()
    if table is None:
        return 0.0
    values, mean = table
    key = "".join(_RANK_CHARS[r - 1] for r in sorted(int(c.rank) for c in keep))
    i = 0 if dealer else 1
    return values[key][i] - mean[i]


def peg_ev_of_keep(keep: Sequence[Card], dealer: bool, weight: float | None = None) -> float:
    """The pegging term of a discard: ``weight`` (default :data:`PEG_WEIGHT`) times :func:`peg_value`."""
    w = PEG_WEIGHT if weight is None else weight
    if not w:
        return 0.0
    return w * peg_value(keep, dealer)


# --- the play near 121 ----------------------------------------------------------------------------


class _WinSolver:
    """Minimax of the rest of the play for seat 0's chance of winning, both hands known."""

    __slots__ = ("memo", "need0", "need1", "end")

    def __init__(self, need0: int, need1: int, end: Callable[[int, int], float]) -> None:
        self.memo: dict[tuple[object, ...], float] = {}
        self.need0 = need0
        self.need1 = need1
        self.end = end

    def value(self, h0: tuple[int, ...], h1: tuple[int, ...], tail: tuple[int, ...], count: int, turn: int,
              go: int, last: int, p0: int, p1: int) -> float:
        key = (h0, h1, tail, turn, go, last, p0, p1)
        got = self.memo.get(key)
        if got is not None:
            return got
        turn, go, count, go_to = settle(h0, h1, count, turn, go, last)
        if go_to == 0:
            p0 += 1
            if p0 >= self.need0:
                return 1.0
        elif go_to == 1:
            p1 += 1
            if p1 >= self.need1:
                return 0.0
        if go_to >= 0:
            tail = ()
        room = 31 - count
        mine = h0 if turn == 0 else h1
        best: float | None = None
        seen = -1
        for r in mine:
            if r == seen or _VALUE[r] > room:
                continue
            seen = r
            v = self.after(h0, h1, tail, count, turn, go, r, p0, p1)
            if best is None or (v > best if turn == 0 else v < best):
                best = v
                if (turn == 0 and best >= 1.0) or (turn == 1 and best <= 0.0):
                    break
        assert best is not None
        self.memo[key] = best
        return best

    def after(self, h0: tuple[int, ...], h1: tuple[int, ...], tail: tuple[int, ...], count: int, turn: int,
              go: int, r: int, p0: int, p1: int) -> float:
        pts = peg_points(tail, r)
        count += _VALUE[r]
        if turn == 0:
            h0 = _remove(h0, r)
        else:
            h1 = _remove(h1, r)
        done = not h0 and not h1
        if done and count != 31:
            pts += 1
        if turn == 0:
            p0 += pts
            if p0 >= self.need0:
                return 1.0
        else:
            p1 += pts
            if p1 >= self.need1:
                return 0.0
        if done:
            return self.end(p0, p1)
        if count == 31:
            nxt = 1 - turn if (h1 if turn == 0 else h0) else turn
            return self.value(h0, h1, (), 0, nxt, -1, turn, p0, p1)
        return self.value(h0, h1, tail + (r,), count, 1 - turn, go, turn, p0, p1)


def _crib_distribution(discards: Sequence[Card], starter: Card, unknown: Sequence[Card]) -> list[tuple[int, float]]:
    """Points of a crib holding ``discards`` and two of ``unknown``, over every such pair."""
    tally: dict[int, int] = {}
    mine = tuple(discards)
    n = 0
    for a, b in combinations(unknown, 2):
        p = hand_points((*mine, a, b), starter, True)
        tally[p] = tally.get(p, 0) + 1
        n += 1
    return sorted((p, k / n) for p, k in tally.items())


def endgame_play_values(view: SeatView, ps: PlayState, samples: int, rng: random.Random,
                        target: int | None = None) -> dict[int, float] | None:
    """Chance of winning for each rank this seat may lay, or None when the game is not near its end
    (``target``: the game's, by default the view's rules')."""
    return finish(endgame_play_values_steps(view, ps, samples, rng, target))


def endgame_play_values_steps(view: SeatView, ps: PlayState, samples: int, rng: random.Random,
                              target: int | None = None, need: int | None = None) -> Steps[dict[int, float] | None]:
    """:func:`endgame_play_values` in steps: it pauses after each draw of the opponent's cards
    (``need``: search once either side needs this many or fewer, by default :data:`ENDGAME_NEED`)."""
    me = view.seat
    goal = target_of(view) if target is None else target
    need0 = goal - view.scores[me]
    need1 = goal - view.scores[1 - me]
    if (min(need0, need1) > (ENDGAME_NEED if need is None else need) or view.starter is None or len(view.kept) != 4
            or not supports(rules_of(view))):
        return None
    starter = view.starter
    dealer = view.dealer == me
    h0 = hand_points(view.kept, starter)
    opp_played = [c for count in view.played for s, c in count if s != me] + [c for s, c in view.pile if s != me]
    known = view.known_cards()
    unknown = [c for c in DECK if c not in known]
    crib = _crib_distribution(view.discards, starter, unknown) if len(view.discards) == 2 else [(4, 1.0)]
    hand = tuple(sorted(int(c.rank) for c in ps.hand))
    count = sum(_VALUE[r] for r in ps.tail)
    options = sorted({r for r in hand if _VALUE[r] <= 31 - count})
    if not options:
        return None
    totals = {r: 0.0 for r in options}
    pool = list(ps.unseen)
    n = ps.opp_count
    draws = max(8, samples // 2)
    weight_sum = 0.0
    for _ in range(draws):
        cards = tuple(rng.sample(pool, n)) if n <= len(pool) else tuple(pool)
        opp_kept = (*opp_played, *cards)
        h1 = hand_points(opp_kept, starter) if len(opp_kept) == 4 else 4

        def end(p0: int, p1: int, h1: int = h1) -> float:
            if not dealer:  # I am pone: my hand is counted first
                if p0 + h0 >= need0:
                    return 1.0
                rem0 = need0 - p0 - h0
                base1 = need1 - p1 - h1
                return sum(pr * (1.0 - win_chance(base1 - pts, rem0)) for pts, pr in crib if pts < base1)
            if p1 + h1 >= need1:
                return 0.0
            rem1 = need1 - p1 - h1
            base0 = need0 - p0 - h0
            return sum(pr * (1.0 if pts >= base0 else win_chance(base0 - pts, rem1)) for pts, pr in crib)

        solver = _WinSolver(need0, need1, end)
        opp = tuple(sorted(int(c.rank) for c in cards))
        for r in options:
            totals[r] += solver.after(hand, opp, ps.tail, count, 0, ps.go, r, 0, 0)
        weight_sum += 1.0
        yield
    return {r: v / weight_sum for r, v in totals.items()}

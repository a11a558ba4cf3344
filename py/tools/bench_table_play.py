"""Time (and weigh) the play search at a table of three or four, without the engine.

Run: ``python py/tools/bench_table_play.py [--hands N] [--budget B] [--seed S]`` (CPython), or inside
Pyodide with ``node py/tools/bench_table_play_pyodide.mjs [hands]``.

A small stand-alone play of one hand (the rules of :mod:`cribbage.ai.table_play`: turn to the left,
Go, the go to the last card, 31, the last card) deals four random cards to each seat and a starter,
and lets each seat choose from what it may know: its own cards, the starter, every card laid, and
the Gos said (a seat that said Go at 24 holds nothing below an 8). The searching seat uses
:func:`~cribbage.ai.table_play.evaluate_table_plays`; the others lay the card that scores most at
once (greedy). Every real decision of the searching seat (two or more ranks to choose from) is
timed (CPU time of the process, `time.process_time`, so other jobs on a shared machine do not inflate it). Each deal is
played once with the searching seat (or partnership) in every position, so
the figure "points pegged by the searcher's side minus the mean of the other sides" compares like
with like.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cribbage.ai.pegging import _VALUE, peg_points  # noqa: E402
from cribbage.ai.table_play import BUDGET, TablePlay, evaluate_table_plays  # noqa: E402
from cribbage.cards import DECK, Card  # noqa: E402

Chooser = Callable[[TablePlay, random.Random], int]
CLOCK: Callable[[], float] = time.process_time
"""Seconds of CPU used by this process (inside Pyodide the runner sets Node's ``process.cpuUsage``)."""


def greedy(tp: TablePlay, rng: random.Random) -> int:
    """The rank that scores most now (ties: the lowest)."""
    count = sum(_VALUE[r] for r in tp.tail)
    options = sorted({int(c.rank) for c in tp.hand if c.value <= 31 - count})
    return max(options, key=lambda r: (peg_points(tp.tail, r), -r))


def searcher(budget: int) -> Chooser:
    def choose(tp: TablePlay, rng: random.Random) -> int:
        values = evaluate_table_plays(tp, budget=budget, rng=rng)
        return max(sorted(values), key=lambda r: values[r][1])
    return choose


def play_hand(hands: list[list[Card]], starter: Card, dealer: int, sides: tuple[int, ...],
              choosers: list[Chooser], rng: random.Random, timed: set[int],
              times: list[float]) -> list[int]:
    """Play one hand's play; returns the points pegged by each side."""
    n = len(hands)
    held = [list(h) for h in hands]
    points = [0] * (max(sides) + 1)
    laid: list[Card] = []
    mins = [1] * n
    tail: list[Card] = []
    count = 0
    last = -1
    turn = (dealer + 1) % n
    while any(held):
        mover = -1
        for k in range(n):
            s = (turn + k) % n
            if held[s] and min(c.value for c in held[s]) <= 31 - count:
                mover = s
                break
            if held[s]:
                mins[s] = max(mins[s], 31 - count + 1)  # says Go
        if mover < 0:
            points[sides[last]] += 1  # the go
            tail, count = [], 0
            mover = next(s for s in ((last + k) % n for k in range(1, n + 1)) if held[s])
        mine = held[mover]
        ranks = sorted({int(c.rank) for c in mine if c.value <= 31 - count})
        if len(ranks) == 1:
            r = ranks[0]
        else:
            seen = set(hands[mover]) | set(laid) | {starter}
            tp = TablePlay(mover, sides, tuple(mine), tuple(c for c in DECK if c not in seen),
                           tuple(len(h) for h in held), tuple(int(c.rank) for c in tail), last, tuple(mins))
            t0 = CLOCK()
            r = choosers[mover](tp, rng)
            if mover in timed:
                times.append(1000 * (CLOCK() - t0))
        card = next(c for c in mine if int(c.rank) == r)
        mine.remove(card)
        laid.append(card)
        pts = peg_points(tuple(int(c.rank) for c in tail), r)
        count += card.value
        tail.append(card)
        last = mover
        if not any(held):
            if count != 31:
                pts += 1
            points[sides[mover]] += pts
            break
        points[sides[mover]] += pts
        if count == 31:
            tail, count, last = [], 0, -1
            turn = next(s for s in ((mover + k) % n for k in range(1, n + 1)) if held[s])
        else:
            turn = (mover + 1) % n
    return points


def run(players: int, hands_n: int, seed: int, budget: int) -> dict[str, float]:
    """Deals played with the searcher (a partnership of searchers for four) in every position."""
    sides = (0, 1, 2) if players == 3 else (0, 1, 0, 1)
    n_sides = max(sides) + 1
    rng = random.Random(seed)
    search = searcher(budget)
    times: list[float] = []
    edges: list[float] = []
    for _ in range(hands_n):
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [deck[4 * s: 4 * s + 4] for s in range(players)]
        starter = deck[4 * players]
        dealer = rng.randrange(players)
        per_deal = []
        for side in range(n_sides):  # the searching side in each position, the same cards
            seats = {s for s in range(players) if sides[s] == side}
            choosers = [search if s in seats else greedy for s in range(players)]
            pts = play_hand(hands, starter, dealer, sides, choosers, random.Random(rng.random()), seats, times)
            others = [pts[x] for x in range(n_sides) if x != side]
            per_deal.append(pts[side] - sum(others) / len(others))
        edges.append(sum(per_deal) / len(per_deal))
    times.sort()
    sd = statistics.pstdev(edges) if len(edges) > 1 else 0.0
    return {"players": players, "hands": hands_n, "decisions": len(times),
            "median_ms": statistics.median(times) if times else 0.0,
            "p95_ms": times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0,
            "max_ms": times[-1] if times else 0.0,
            "edge": statistics.fmean(edges), "edge_se": sd / math.sqrt(len(edges))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--budget", type=int, default=BUDGET)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    for players in (3, 4):
        r = run(players, args.hands, args.seed, args.budget)
        print(f"{players} players, budget {args.budget}: {r['decisions']} decisions, median {r['median_ms']:.1f} ms, "
              f"p95 {r['p95_ms']:.1f} ms, max {r['max_ms']:.1f} ms; the searcher's side pegs "
              f"{r['edge']:+.2f} ± {r['edge_se']:.2f} a hand against greedy ({r['hands']} deals)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

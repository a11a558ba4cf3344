"""Make ``py/cribbage/data/crib_values.json``: expected crib points for each pair of discarded ranks.

Run: ``python py/tools/make_crib_table.py [--hands N] [--iterations K] [--seed S]``.

For two discarded cards of ranks r1, r2 (off-suit or suited) the crib is those two cards, the
opponent's two discards and the starter. Three models are computed, each by our own code:

``random``
    The opponent's two cards and the starter are uniformly random among the 50 other cards:
    an exact enumeration (1,225 opponent pairs x 48 starters = 58,800 cribs per entry).
``dealer`` (you deal: your own crib) and ``pone`` (you are pone: the dealer's crib)
    The opponent throws what a sensible player throws. We deal the opponent random six-card hands
    and let him choose the discard with the best exact hand EV (46 starters) plus or minus the crib
    value of his throw from the previous table (starting from ``random``); this is repeated
    ``--iterations`` times. His throws are tallied by class (rank pair, suited or not), and each
    entry is the exact average over every concrete opponent pair of each class (weighted by how
    often it is thrown, excluding pairs that clash with your two cards) and every starter.

Your own four kept cards are not removed from the deck (the table is indexed by the discard only),
like the published tables.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cribbage.cards import DECK, Card, Rank, Suit  # noqa: E402
from cribbage.scoring import hand_points, rank_points  # noqa: E402

RANKS = "A23456789TJQK"
OUT = ROOT / "cribbage" / "data" / "crib_values.json"


def classes() -> list[tuple[int, int, bool]]:
    """Every discard class (low rank, high rank, suited); pairs of equal rank are never suited."""
    out = []
    for r1 in range(1, 14):
        for r2 in range(r1, 14):
            out.append((r1, r2, False))
            if r1 != r2:
                out.append((r1, r2, True))
    return out


def representative(cls: tuple[int, int, bool]) -> tuple[Card, Card]:
    r1, r2, suited = cls
    return Card(Rank(r1), Suit.SPADES), Card(Rank(r2), Suit.SPADES if suited else Suit.HEARTS)


def class_of(a: Card, b: Card) -> tuple[int, int, bool]:
    r1, r2 = sorted((int(a.rank), int(b.rank)))
    return (r1, r2, a.suit is b.suit and r1 != r2)


def crib_average(mine: tuple[Card, Card], weights: dict[tuple[int, int, bool], float] | None) -> float:
    """Expected crib with ``mine`` in it; opponent pairs weighted by class (None: uniform)."""
    rest = [c for c in DECK if c not in mine]
    by_class: dict[tuple[int, int, bool], list[tuple[Card, Card]]] = {}
    for o in combinations(rest, 2):
        by_class.setdefault(class_of(*o), []).append(o)
    total = 0.0
    weight_sum = 0.0
    for cls, pairs in by_class.items():
        w = 1.0 if weights is None else weights.get(cls, 0.0) / len(pairs)
        if weights is not None and w == 0.0:
            continue
        for o in pairs:
            crib = (mine[0], mine[1], o[0], o[1])
            s = 0
            n = 0
            for st in rest:
                if st is o[0] or st is o[1]:
                    continue
                s += hand_points(crib, st, True)
                n += 1
            total += w * s / n
            weight_sum += w
    return total / weight_sum


def build_table(weights: dict[tuple[int, int, bool], float] | None) -> dict[str, list[list[float | None]]]:
    off: list[list[float | None]] = [[0.0] * 13 for _ in range(13)]
    suited: list[list[float | None]] = [[None] * 13 for _ in range(13)]
    for cls in classes():
        value = round(crib_average(representative(cls), weights), 4)
        r1, r2, s = cls
        target = suited if s else off
        target[r1 - 1][r2 - 1] = value
        target[r2 - 1][r1 - 1] = value
    return {"offsuit": off, "suited": suited}


def lookup(table: dict[str, list[list[float | None]]], a: Card, b: Card) -> float:
    rows = table["suited"] if a.suit is b.suit and a.rank != b.rank else table["offsuit"]
    v = rows[a.rank - 1][b.rank - 1]
    assert v is not None
    return v


def sensible_throws(n_hands: int, dealer: bool, table: dict, rng: random.Random) -> dict:
    """How often each class is thrown by a player maximising hand EV +/- crib value."""
    tally: dict[tuple[int, int, bool], float] = {}
    deck = list(DECK)
    for _ in range(n_hands):
        hand = rng.sample(deck, 6)
        starters = [c for c in deck if c not in hand]
        best = None
        best_v = -1e9
        for i, j in combinations(range(6), 2):
            keep = [c for k, c in enumerate(hand) if k != i and k != j]
            h = sum(hand_points(keep, s) for s in starters) / 46
            c = lookup(table, hand[i], hand[j])
            v = h + c if dealer else h - c
            if v > best_v:
                best_v, best = v, (hand[i], hand[j])
        assert best is not None
        cls = class_of(*best)
        tally[cls] = tally.get(cls, 0) + 1
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20000, help="opponent hands dealt per model and iteration")
    ap.add_argument("--iterations", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--random-only", action="store_true", help="only the exact random model (fast)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rank_points()
    t0 = time.perf_counter()
    random_table = build_table(None)
    print(f"random model: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    dealer_table, pone_table = random_table, random_table
    throws: dict[str, dict] = {}
    if not args.random_only:
        rng = random.Random(args.seed)
        for it in range(args.iterations):
            t0 = time.perf_counter()
            # You deal: the opponent is pone and keeps his hand's value minus what he gives your crib.
            pone_throws = sensible_throws(args.hands, False, pone_table, rng)
            # You are pone: the opponent deals and throws for his own crib.
            dealer_throws = sensible_throws(args.hands, True, dealer_table, rng)
            dealer_table = build_table(pone_throws)
            pone_table = build_table(dealer_throws)
            throws = {"by_pone": pone_throws, "by_dealer": dealer_throws}
            print(f"iteration {it + 1}: {time.perf_counter() - t0:.1f} s "
                  f"(dealer 5-5 {dealer_table['offsuit'][4][4]:.2f}, pone 5-5 {pone_table['offsuit'][4][4]:.2f})",
                  file=sys.stderr)
    data = {
        "format": "cribbage-crib-values",
        "version": 1,
        "ranks": RANKS,
        "about": ("Expected crib points (the crib's show only, not his heels) for two discarded cards, "
                  "indexed [rank-1][rank-1] (A=0 .. K=12); 'suited' holds two different ranks of one suit. "
                  "'dealer': your own crib, the pone throwing sensibly; 'pone': the dealer's crib, the "
                  "dealer throwing sensibly; 'random': the opponent's two cards uniformly random. "
                  "Made by py/tools/make_crib_table.py; see cribbage/ai/CRIB_TABLE.md."),
        "generator": {"hands": args.hands, "iterations": 0 if args.random_only else args.iterations,
                      "seed": args.seed},
        "dealer": dealer_table,
        "pone": pone_table,
        "random": random_table,
        "throws": {k: {f"{RANKS[c[0]-1]}{RANKS[c[1]-1]}{'s' if c[2] else ''}": n for c, n in sorted(v.items())}
                   for k, v in throws.items()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

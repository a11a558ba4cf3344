"""Make ``py/cribbage/data/win_table.json``: the chance of winning from any score, at the start of a hand.

Run: ``python py/tools/make_win_table.py [--games N] [--seed S]``.

1. Expert self-play (duplicate games from :mod:`cribbage.ai.simulate`) gives the distribution of
   what the pone scores in a hand (pegging + hand) and what the dealer scores (pegging + hand +
   crib + heels).
2. ``F[a][b]``, the chance that the pone of the coming hand, needing ``a`` more points, beats the
   dealer needing ``b``, follows by dynamic programming over hands: the pone's points are counted
   first (the pone's hand is shown before the dealer's), then the dealer's, then the deal passes::

       F(a, b) = P(X >= a) + sum_{x < a} P(x) sum_{y < b} P(y) (1 - F(b - y, a - x))

   with X the pone's and Y the dealer's points in a hand, taken as independent. Pegging is
   interleaved in reality (the dealer can peg out before the pone's show); within a hand the
   search handles that exactly and uses this table only for the hands after.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cribbage.ai import make_player  # noqa: E402
from cribbage.ai.simulate import completed_hands, play_game  # noqa: E402

OUT = ROOT / "cribbage" / "data" / "win_table.json"
N = 121


def histograms(games: int, seed: int) -> dict[str, list[int]]:
    """Hands by points scored: pone and dealer totals, each side's pegging, the crib."""
    hist = {k: [0] * 80 for k in ("pone_points", "dealer_points", "pone_pegging", "dealer_pegging", "crib")}
    t0 = time.perf_counter()
    for g in range(games):
        players = (make_player("expert", seed + 2 * g), make_player("expert", seed + 2 * g + 1))
        state = play_game(players, seed * 7919 + g)
        for d, scores in completed_hands(state):
            p = 1 - d

            def add(key: str, value: int) -> None:
                hist[key][min(79, value)] += 1

            add("pone_points", sum(v for k, v in scores.items() if k.endswith(str(p))))
            add("dealer_points", sum(v for k, v in scores.items() if k.endswith(str(d))))
            add("pone_pegging", scores.get(f"pegging{p}", 0))
            add("dealer_pegging", scores.get(f"pegging{d}", 0))
            add("crib", scores.get(f"crib{d}", 0))
        if (g + 1) % 20 == 0:
            print(f"  {g + 1} games, {sum(hist['crib'])} hands, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    for counts in hist.values():
        while counts and counts[-1] == 0:
            counts.pop()
    return hist


def win_table(pone_hist: list[int], dealer_hist: list[int]) -> list[list[float]]:
    px = [n / sum(pone_hist) for n in pone_hist]
    py = [n / sum(dealer_hist) for n in dealer_hist]
    tail_x = [sum(px[x:]) for x in range(len(px))] + [0.0] * (N + 1)
    # F[a][b], C[v][b] = sum_{y<b} P(y) (1 - F(b - y, v)); index 1..N.
    F = [[0.5] * (N + 1) for _ in range(N + 1)]
    C = [[0.0] * (N + 1) for _ in range(N + 1)]
    ys = [y for y, p in enumerate(py) if p]
    xs = [x for x, p in enumerate(px) if p]
    for s in range(2, 2 * N + 1):
        lo, hi = max(1, s - N), min(N, s - 1)
        for _ in range(3):  # same-sum entries refer to each other through the 0-0 hand: iterate
            for v in range(lo, hi + 1):
                b = s - v
                C[v][b] = sum(py[y] * (1.0 - F[b - y][v]) for y in ys if y < b)
            for a in range(lo, hi + 1):
                b = s - a
                F[a][b] = tail_x[a] + sum(px[x] * C[a - x][b] for x in xs if x < a)
    return F


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    hist = histograms(args.games, args.seed)
    t0 = time.perf_counter()
    F = win_table(hist["pone_points"], hist["dealer_points"])
    print(f"table: {time.perf_counter() - t0:.1f} s; pone from 121-121 wins {F[N][N]:.3f}", file=sys.stderr)
    data = {
        "format": "cribbage-win-table",
        "version": 1,
        "about": ("F[a-1][b-1] in thousandths: the chance that the pone of the coming hand, needing a points, "
                  "beats the dealer needing b. Made by py/tools/make_win_table.py from expert self-play; "
                  "the histograms count hands by points: pone_points and dealer_points (everything each "
                  "scored in the hand), pone_pegging, dealer_pegging, crib."),
        "games": args.games,
        **hist,
        "F": [[round(1000 * F[a][b]) for b in range(1, N + 1)] for a in range(1, N + 1)],
    }
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Make ``py/cribbage/data/peg_values.json``: expected net pegging of each four-rank keep, by role.

Run: ``python py/tools/make_peg_table.py [--samples N] [--seed S]``.

For every multiset of four ranks a player may keep (1,820 of them) and each role, the opponent's
four cards are drawn at random from the rest of the deck ``--samples`` times; each deal is solved
exactly with both hands open (the minimax of :mod:`cribbage.ai.pegging`: fifteens, 31s, pairs,
runs, go and last card; the pone leads) and the net pegging (yours minus the opponent's) is averaged.
Open-hand play is not real play, but it ranks keeps by their pegging chances: low cards for the go,
pairs and fives that trap, cards that make runs. The discard analysis adds ``weight`` times the
difference from the average keep (see ``strategy.peg_ev_of_keep``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from itertools import combinations_with_replacement
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cribbage.ai.pegging import _Solver  # noqa: E402

OUT = ROOT / "cribbage" / "data" / "peg_values.json"


def keep_key(ranks) -> str:
    return "".join("A23456789TJQK"[r - 1] for r in sorted(ranks))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=60)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    keeps = [k for k in combinations_with_replacement(range(1, 14), 4) if max(k.count(r) for r in k) <= 4]
    values: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    for i, keep in enumerate(keeps):
        rest = []
        for r in range(1, 14):
            rest += [r] * (4 - keep.count(r))
        dealer_total = 0
        pone_total = 0
        for _ in range(args.samples):
            opp = tuple(sorted(rng.sample(rest, 4)))
            solver = _Solver()
            # I am pone: I lead (seat 0 to play first).
            pone_total += solver.value(keep, opp, (), 0, 0, -1, -1)
            # I deal: the opponent leads.
            dealer_total += solver.value(keep, opp, (), 0, 1, -1, -1)
        values[keep_key(keep)] = [round(dealer_total / args.samples, 3), round(pone_total / args.samples, 3)]
        if (i + 1) % 200 == 0:
            print(f"  {i + 1}/{len(keeps)} keeps, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    mean_d = sum(v[0] for v in values.values()) / len(values)
    mean_p = sum(v[1] for v in values.values()) / len(values)
    data = {
        "format": "cribbage-peg-values",
        "version": 1,
        "about": ("Net pegging (yours minus the opponent's) of a four-rank keep against four random cards, "
                  "both hands open, both playing best: [as dealer, as pone]. Keys are ranks in order "
                  "(A23456789TJQK). Made by py/tools/make_peg_table.py."),
        "samples": args.samples,
        "seed": args.seed,
        "mean": [round(mean_d, 3), round(mean_p, 3)],
        "values": values,
    }
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.perf_counter() - t0:.0f} s; means dealer {mean_d:.2f} pone {mean_p:.2f}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

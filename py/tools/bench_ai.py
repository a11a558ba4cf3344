"""Benchmark the computer opponent: duplicate matches and decision times. Not a test: it prints figures.

Run: ``python py/tools/bench_ai.py [--games N] [--selfplay N] [--seed S] [--json FILE]``.

- expert vs random and expert vs greedy: duplicate games (each deal sequence twice, seats swapped),
  win rate with its 95% Wilson interval;
- expert self-play: average points a hand by source (pegging, hand, crib, heels) for dealer and pone;
- the expert's decision times (median and 95th percentile, discards and plays) in this Python.

For the same timings inside Pyodide (the browser's Python) run ``node py/tools/bench_ai_pyodide.mjs``.
Targets: expert beats random >= 97% and greedy >= 60%; self-play pone ~10.1 a deal (pegging 2.0,
hand 8.1), dealer ~16.2 (pegging 3.5, hand 8.0, crib 4.7); median < 30 ms a discard, < 20 ms a play.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.ai.simulate import simulate


def _progress(label: str):
    start = time.perf_counter()

    def report(done: int, total: int) -> None:
        if sys.stderr.isatty() or done == total or done % 100 == 0:
            sys.stderr.write(f"\r{label}: {done}/{total} games, {time.perf_counter() - start:.0f} s")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per match-up (default 200)")
    ap.add_argument("--selfplay", type=int, default=None, help="expert self-play games (default: --games)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--only", choices=("random", "greedy", "self"), action="append",
                    help="run only these match-ups (repeatable)")
    ap.add_argument("--json", type=Path, help="also write the results to this file")
    args = ap.parse_args(argv)
    todo = args.only or ["random", "greedy", "self"]
    results = {}
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), seed {args.seed}")
    for opponent in ("random", "greedy"):
        if opponent not in todo:
            continue
        r = simulate("expert", opponent, games=args.games, seed=args.seed, progress=_progress(f"expert vs {opponent}"))
        results[f"expert-{opponent}"] = r.to_json()
        print(r.summary())
    if "self" in todo:
        n = args.selfplay or args.games
        r = simulate("expert", "expert", games=n, seed=args.seed + 1, progress=_progress("expert self-play"))
        results["expert-expert"] = r.to_json()
        pooled = r.per_hand()
        print(r.summary())
        print("  expert self-play, both seats pooled:")
        for role in ("dealer", "pone"):
            row = pooled[role]
            print(f"    {role:<6} {row['total']:5.2f} a hand: pegging {row['pegging']:.2f}, hand {row['hand']:.2f}, "
                  f"crib {row['crib']:.2f}, heels {row['heels']:.2f} ({int(row['hands'])} hands)")
        dm = r.decision_ms()
        print(f"    decisions: discard median {dm['discard']['median']:.2f} ms (p95 {dm['discard']['p95']:.2f}, "
              f"n {dm['discard']['n']}); play median {dm['play']['median']:.2f} ms "
              f"(p95 {dm['play']['p95']:.2f}, n {dm['play']['n']})")
        results["expert-expert"]["pooled"] = pooled
        results["expert-expert"]["pooled_decision_ms"] = dm
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

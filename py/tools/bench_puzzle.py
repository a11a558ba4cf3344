"""Time the daily discard puzzle: drawing a day's puzzle, and the coach's answer (the 15 discards
with their chance of winning) cold (the first, loading the tables) and warm, over many days, in
the pieces the page runs it in.

Run: ``python py/tools/bench_puzzle.py [--days N]`` in CPython, or inside Pyodide (the browser's
Python) with ``node py/tools/bench_puzzle_pyodide.mjs [days]``. Prints figures; asserts nothing.
The page works the answer out in slices of at most ~12 ms while the player thinks
(``web.screens.puzzle.screen.SLICE_MS``), so these are totals of work spread over idle moments, not a freeze.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.puzzle import FIRST_DAY, puzzle_for, solve


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(days: int) -> None:
    t0 = time.perf_counter()
    first = puzzle_for(FIRST_DAY)
    drawn = time.perf_counter() - t0
    t0 = time.perf_counter()
    solve(first)
    cold = time.perf_counter() - t0
    draws, answers, pieces = [], [], []
    from cribbage.ai.discard_wins import rank_by_winning_steps

    for n in range(1, days + 1):
        t0 = time.perf_counter()
        p = puzzle_for(FIRST_DAY + timedelta(days=n))
        draws.append(time.perf_counter() - t0)
        steps = rank_by_winning_steps(p.hand, p.dealer, p.scores, p.target)  # as the page does it
        total = 0.0
        while True:
            t0 = time.perf_counter()
            try:
                next(steps)
            except StopIteration:
                break
            finally:
                spent = time.perf_counter() - t0
                pieces.append(spent)
                total += spent
        answers.append(total)
    ms = 1000.0
    print(f"Python {platform.python_implementation()} {platform.python_version()} ({sys.platform}), {days} days")
    print(f"  first puzzle drawn (positions loaded): {drawn * ms:.1f} ms; its answer cold: {cold * ms:.0f} ms")
    print(f"  a day's puzzle drawn: median {pct(draws, .5) * ms:.2f} ms")
    print(f"  a day's answer warm: median {pct(answers, .5) * ms:.0f} ms, p95 {pct(answers, .95) * ms:.0f} ms, "
          f"longest {max(answers) * ms:.0f} ms")
    print(f"  one piece of it (the page's unit of work): median {pct(pieces, .5) * ms:.1f} ms, "
          f"p95 {pct(pieces, .95) * ms:.1f} ms, longest {max(pieces) * ms:.1f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--days", type=int, default=60)
    args = ap.parse_args(argv)
    run(args.days)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What the chance-of-winning bar costs to work out (a benchmark, not a test): prints figures.

    python py/tools/bench_winbar.py [--matches 3] [--seed 1]

Plays expert-against-expert matches under CPython and, at every position, works out the bar's
figures the way the page does (:func:`cribbage.ai.winchance.seat_chances_steps` from the seat to
act's view, the model's memo emptied first, so every new position is computed): the time of one
figure (median, p90, worst) and the longest single step between two yields, which is what bounds
the page's slices (the page runs steps for 12 ms, then gives the page back; a step is never cut).
Then the game-over work of one match in the same steps (each hand's start, the coach's costliest
decisions): total time and longest step. Times are this thread's CPU time (on a shared machine the
wall clock also counts the waits for a core). The page (Pyodide) is slower than CPython by a factor
of two to three. Prints the load average beside the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Generator

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))

from cribbage.ai import make_player, winchance  # noqa: E402
from cribbage.ai.coach import costliest_steps  # noqa: E402
from cribbage.match import Match  # noqa: E402


def run(steps: Generator[None, None, Any]) -> tuple[float, float]:
    """(total ms, longest step ms) of running ``steps`` to the end."""
    total = longest = 0.0
    while True:
        t = time.thread_time()
        try:
            next(steps)
        except StopIteration:
            dt = (time.thread_time() - t) * 1000
            return total + dt, max(longest, dt)
        dt = (time.thread_time() - t) * 1000
        total += dt
        longest = max(longest, dt)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    winchance.seat_chances(Match(1).view(0))  # tables loaded
    figures: list[float] = []
    steps: list[float] = []
    last: Match | None = None
    for k in range(args.matches):
        match = Match(args.seed + k, humans=())
        player = make_player("expert", seed=args.seed + k)
        while not match.state.is_over:
            seat = match.state.actors()[0]
            view = match.view(seat)
            winchance._MEMO.clear()
            total, longest = run(winchance.seat_chances_steps(view))
            figures.append(total)
            steps.append(longest)
            match.apply(player.choose(view))
        last = match
    figures.sort()
    print(
        f"bar figure (CPython CPU time, {len(figures)} positions, memo emptied): median "
        f"{statistics.median(figures):.1f} ms, "
        f"p90 {figures[int(0.9 * len(figures))]:.1f} ms, worst {figures[-1]:.1f} ms; "
        f"longest step {max(steps):.2f} ms"
    )
    assert last is not None
    winchance._MEMO.clear()
    total, longest = run(costliest_steps(last, 0, 3))
    print(f"game over, costliest decisions of one match (CPython CPU time): {total / 1000:.1f} s in all, "
          f"longest step {longest:.0f} ms")
    print(f"load average {load:.2f} -> {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

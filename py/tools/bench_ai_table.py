"""Strength of the computer at a table of three and of four (a benchmark, not a test).

Run: ``python py/tools/bench_ai_table.py --table three|partners [--games N] [--seed S] [--json]``.

Duplicate deals with the seats rotated: every deal sequence (a game seed) is played once with the
expert (three players) or the expert partnership (four) in each position, the other seats played by
``greedy``, so every player gets the same cards in every seat and luck largely cancels. The cuts
(for deal, of the pack, for the starter) are drawn by the benchmark from the game's seed, not by
the players, so all rotations of a deal see the same cards; every other decision is the player's,
from its own view. A game counts as won when the expert's side reaches the target first. The 95%
interval is Wilson's over the games (games of one deal are not independent, so it is a little
narrow; the per-deal figure beside it is the check). With no skill the expert would win a third
of the games at three and half at four.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cribbage.actions import Action, Discard  # noqa: E402
from cribbage.ai import make_player  # noqa: E402
from cribbage.ai.simulate import next_action, simulation_cuts, wilson_interval  # noqa: E402
from cribbage.rules import PRESETS, Rules  # noqa: E402
from cribbage.state import GameState  # noqa: E402

TABLES = {"three": PRESETS["three"], "partners": PRESETS["partners"]}


def play(rules: Rules, names: list[str], seed: int, times: dict[str, list[float]], timed: set[int]) -> GameState:
    """One game, seat ``i`` played by ``names[i]``; the timed seats' decisions are timed (CPU ms)."""
    players = [make_player(n, seed * 7 + i) for i, n in enumerate(names)]
    state = GameState(seed, rules=rules)
    cuts = simulation_cuts(seed)

    def timer(seat: int, first: Action, ms: float) -> None:
        if seat in timed:
            times["discard" if isinstance(first, Discard) else "play"].append(ms)

    while not state.is_over:
        state.apply(next_action(state, players, cuts, clock=time.process_time, timed=timer))
    return state


def run(table: str, games: int, seed: int, strong: str = "expert", weak: str = "greedy",
        progress: bool = False) -> dict[str, Any]:
    rules = TABLES[table]
    n = rules.players
    rotations = list(range(rules.sides))  # the strong side in each position
    deals = max(1, -(-games // len(rotations)))
    wins = 0
    played = 0
    per_deal: list[float] = []
    margins: list[float] = []
    times: dict[str, list[float]] = {"discard": [], "play": []}
    t0 = time.perf_counter()
    for d in range(deals):
        game_seed = (seed * 1_000_003 + d) & ((1 << 64) - 1)
        won = 0
        for side in rotations:
            seats = {s for s in range(n) if rules.side_of(s) == side}
            names = [strong if s in seats else weak for s in range(n)]
            state = play(rules, names, game_seed, times, seats)
            played += 1
            if state.winner == side:
                won += 1
            others = [state.scores[x] for x in range(rules.sides) if x != side]
            margins.append(state.scores[side] - max(others))
        wins += won
        per_deal.append(won / len(rotations))
        if progress and (d + 1) % 10 == 0:
            lo, hi = wilson_interval(wins, played)
            print(f"  {played} games: {strong} won {wins} ({100 * wins / played:.1f}%, "
                  f"{100 * lo:.1f}-{100 * hi:.1f}%), {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    lo, hi = wilson_interval(wins, played)
    sd = statistics.pstdev(per_deal) if len(per_deal) > 1 else 0.0

    def pct(values: list[float], q: float) -> float:
        s = sorted(values)
        return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0

    return {
        "table": table, "rules": rules.describe(), "strong": strong, "weak": weak, "games": played,
        "deals": deals, "wins": wins, "win_rate": wins / played, "interval95": [lo, hi],
        "per_deal_se": sd / len(per_deal) ** 0.5, "no_skill": 1 / rules.sides,
        "margin_vs_best_other": statistics.fmean(margins),
        "decision_ms_cpu": {k: {"median": statistics.median(v) if v else 0.0, "p95": pct(v, 0.95), "n": len(v)}
                            for k, v in times.items()},
        "seconds": time.perf_counter() - t0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--table", choices=sorted(TABLES), default="three")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--strong", default="expert")
    ap.add_argument("--weak", default="greedy")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    r = run(args.table, args.games, args.seed, args.strong, args.weak, progress=True)
    if args.json:
        print(json.dumps(r))
    else:
        lo, hi = r["interval95"]
        dm = r["decision_ms_cpu"]
        print(
            f"{r['rules']}: {r['strong']} {'partnership ' if args.table == 'partners' else ''}against {r['weak']}, "
            f"{r['games']} games ({r['deals']} deals x {r['games'] // r['deals']} seatings): won {r['wins']} = "
            f"{100 * r['win_rate']:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f}%; no skill {100 * r['no_skill']:.1f}%), "
            f"margin over the best other side {r['margin_vs_best_other']:+.1f}; decisions (CPU) discard median "
            f"{dm['discard']['median']:.1f} ms p95 {dm['discard']['p95']:.1f}, play median {dm['play']['median']:.1f} "
            f"ms p95 {dm['play']['p95']:.1f}; {r['seconds']:.0f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

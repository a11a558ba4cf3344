"""Calibrate the weaker levels: each level against the expert, duplicate games. Not a test: it prints figures.

Run: ``nice -n 19 python py/tools/bench_levels.py [--games N] [--seed S] [--level easy] [--level medium]
[--set easy.play_temperature=1.5 ...] [--json FILE]``.

For each level, a line every ``--block`` games: games, the level's win rate against the expert at
two players and its 95% Wilson interval, the average final-score margin, the target (:data:`TARGETS`)
and whether the measured rate lies within :data:`MARGIN` of it (the interval says how sure that is).
``--set`` overrides a field of a level (:class:`cribbage.ai.levels.Level`) for a trial run, e.g.
``--set medium.discard_temperature=0.8``. Figures: docs/performance.md, "Levels".
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.ai.levels import LEVELS, Level, LevelPlayer
from cribbage.ai.simulate import simulate, wilson_interval

TARGETS = {"easy": 0.25, "medium": 0.40}
"""Each level's target win rate against the expert at two players."""
MARGIN = 0.04
"""How far from its target a level's measured win rate may be."""


def _level(name: str, sets: list[str]) -> Level:
    level = LEVELS[name]
    for item in sets:
        key, _, value = item.partition("=")
        who, _, field = key.partition(".")
        if who != name:
            continue
        kind = type(getattr(level, field))
        level = dataclasses.replace(level, **{field: kind(value)})
    return level


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games per level (default 400)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--block", type=int, default=20, help="games between progress lines (default 20)")
    ap.add_argument("--level", choices=sorted(TARGETS), action="append", help="only these levels (repeatable)")
    ap.add_argument("--set", action="append", default=[], help="override a level's field: LEVEL.FIELD=VALUE")
    ap.add_argument("--json", type=Path, help="also write the results to this file")
    args = ap.parse_args(argv)
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), seed {args.seed}")
    out = {}
    for name in args.level or sorted(TARGETS):
        level = _level(name, args.set)
        start = time.perf_counter()
        print(f"{name}: {dataclasses.asdict(level)}")
        games = wins = 0
        margins: list[int] = []
        target = TARGETS[name]
        while games < args.games:  # in blocks, a line each: a long run may be stopped at any block
            block = min(args.block, args.games - games)
            r = simulate(lambda seed, lv=level: LevelPlayer(seed, level=lv), "expert", games=block,
                         seed=args.seed * 100_003 + games)
            games += r.games
            wins += r.wins[name]
            margins += r.margins
            lo, hi = wilson_interval(wins, games)
            rate = wins / games
            ok = target - MARGIN <= rate <= target + MARGIN
            print(f"  {games} games, won {wins} = {100 * rate:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f}%), "
                  f"target {100 * target:.0f}% +/- {100 * MARGIN:.0f}: {'within' if ok else 'OUTSIDE'}; "
                  f"margin {sum(margins) / len(margins):+.1f} points a game; {time.perf_counter() - start:.0f} s")
            sys.stdout.flush()
        out[name] = {"level": dataclasses.asdict(level), "games": games, "wins": wins, "rate": rate,
                     "interval": [lo, hi], "target": target, "within": ok,
                     "margin": sum(margins) / max(1, len(margins))}
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

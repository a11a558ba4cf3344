"""Promote a challenger over the incumbent only when it wins over duplicate deals (issue 34).

Run: ``python py/tools/promote.py [--challenger expert-next] [--incumbent expert] [--pairs N]
[--table two|three|four] [--seed S] [--start K] [--json FILE]``; ``--combine A.json B.json ...``
joins chunks of one long run (each run with its own ``--start``) and prints the verdict on them all.

Each deal set (a match seed) is played once per seating (two players: twice, seats swapped; three:
the challenger in each seat against two incumbents; four: partners, the partnerships swap seats).
It prints the games, the paired margin a deal set (games won minus an incumbent seat's), its 95%
interval (normal approximation) and the verdict: PROMOTE only when the whole interval is above zero
(exit status 0), else KEEP (exit status 1); 2 for options that cannot be used. The logic is
:mod:`cribbage.ai.duplicate`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.ai.duplicate import TABLES, DuplicateResult, combine, duplicate_match, player_factory


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--challenger", default="expert-next")
    p.add_argument("--incumbent", default="expert")
    p.add_argument("--pairs", type=int, default=100, help="deal sets (pairs at two players)")
    p.add_argument("--table", default="two", choices=TABLES)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--every", type=int, default=0, help="print the running figures every N deal sets")
    p.add_argument("--start", type=int, default=0, help="skip this many deal sets of the seed's sequence (chunks)")
    p.add_argument("--json", default=None, help="write the result to this file as JSON")
    p.add_argument("--combine", nargs="+", default=None, metavar="FILE", help="join the JSON of chunks of one run")
    args = p.parse_args(argv)
    if args.combine:
        try:
            result = combine([DuplicateResult.from_json(json.loads(Path(f).read_text())) for f in args.combine])
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"cannot combine these files: {e}", file=sys.stderr)
            return 2
        print(result.summary())
        return 0 if result.promote else 1
    try:
        player_factory(args.challenger)
        player_factory(args.incumbent)
        if args.pairs < 1 or args.start < 0:
            raise ValueError(f"--pairs is a whole number from 1 and --start from 0, not {args.pairs} and {args.start}")
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2

    def progress(r: DuplicateResult) -> None:
        if args.every and r.sets % args.every == 0:
            lo, hi = r.interval
            print(f"  {r.sets} sets, {r.games} games: margin {r.mean:+.3f} ({lo:+.3f} to {hi:+.3f}), "
                  f"challenger {100 * r.win_rate:.1f}%, {r.score_margin:+.2f} points", flush=True)

    result = duplicate_match(args.challenger, args.incumbent, args.pairs, args.seed, args.table, progress,
                             args.start)
    print(result.summary())
    if args.json:
        Path(args.json).write_text(json.dumps(result.to_json(), indent=1) + "\n")
    return 0 if result.promote else 1


if __name__ == "__main__":
    sys.exit(main())

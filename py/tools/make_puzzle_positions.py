"""Make ``py/cribbage/data/puzzle_positions.json``: the score situations of the daily discard puzzle
(``cribbage.puzzle``), drawn from real games.

Run: ``python py/tools/make_puzzle_positions.py [--games N] [--seed S]`` (about 1 s of CPU a game).

Expert self-play (the players of ``make_phase_table.py``), games to 121: the scores at the start of
every hand (before its deal), as ``[dealer's score, pone's score]``, in the order played. A finished
game never appears (a hand starts only while nobody has 121). The puzzle picks one by the date's
hash, so this file is frozen once published: a new table would change every past day's puzzle
(``tests/engine/test_puzzle.py`` pins a few days).
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
from cribbage.ai.simulate import play_game  # noqa: E402

OUT = ROOT / "cribbage" / "data" / "puzzle_positions.json"


def positions(games: int, seed: int) -> list[list[int]]:
    out: list[list[int]] = []
    t0 = time.perf_counter()
    for g in range(games):
        players = (make_player("expert", seed + 2 * g), make_player("expert", seed + 2 * g + 1))
        state = play_game(players, seed * 7919 + g)
        n = len(state.hand_scores)
        last_dealer = state.dealer
        assert last_dealer is not None
        totals = [0, 0]
        for i, scores in enumerate(state.hand_scores):
            dealer = (last_dealer - (n - 1 - i)) % 2
            out.append([totals[dealer], totals[1 - dealer]])
            for key, points in scores.items():
                totals[int(key[-1])] += points
        if totals != list(state.scores):
            raise AssertionError(f"game {g}: hand totals {totals} are not the final scores {state.scores}")
        if (g + 1) % 20 == 0:
            print(f"  {g + 1} games, {len(out)} positions, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=160)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    found = positions(args.games, args.seed)
    data = {
        "format": "cribbage-puzzle-positions",
        "version": 1,
        "about": ("The scores at the start of every hand of expert self-play games to 121, as [dealer, pone]: "
                  "the daily discard puzzle's situations. Made by py/tools/make_puzzle_positions.py; read by "
                  "cribbage.puzzle. Frozen: changing it changes every past day's puzzle."),
        "games": args.games,
        "seed": args.seed,
        "positions": found,
    }
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(found)} positions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Make ``py/cribbage/data/phase_table.json``: what is still to come in a hand, by phase, for the
chance of winning as a hand is played (``cribbage.ai.winchance``).

Run: ``python py/tools/make_phase_table.py [--games N] [--seed S]`` (about 1 s of CPU a game).

From expert self-play (the same players as ``make_win_table.py``; the win table itself is not
touched, so the computer's play does not change), for every completed hand:

- ``pone_hand``, ``dealer_hand``: the show of each hand (the starter included);
- ``crib``: the crib's show;
- ``pone_pegging_after[n]``, ``dealer_pegging_after[n]`` for n = 0..7: the pegging points each
  side still scores once n cards of the play have been laid (n = 0: the whole play).

Histograms count hands by points (index = points).
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

OUT = ROOT / "cribbage" / "data" / "phase_table.json"
CARDS_IN_PLAY = 8
PEGGING_KINDS = ("play", "go", "last card")


def _add(hist: list[int], value: int) -> None:
    while len(hist) <= value:
        hist.append(0)
    hist[value] += 1


def histograms(games: int, seed: int) -> dict[str, object]:
    hands = {"pone_hand": [0], "dealer_hand": [0], "crib": [0]}
    after = {role: [[0] for _ in range(CARDS_IN_PLAY)] for role in ("pone", "dealer")}
    t0 = time.perf_counter()
    for g in range(games):
        players = (make_player("expert", seed + 2 * g), make_player("expert", seed + 2 * g + 1))
        state = play_game(players, seed * 7919 + g)
        for number, (dealer, scores) in enumerate(completed_hands(state), start=1):
            pone = 1 - dealer
            _add(hands["pone_hand"], scores.get(f"hand{pone}", 0))
            _add(hands["dealer_hand"], scores.get(f"hand{dealer}", 0))
            _add(hands["crib"], scores.get(f"crib{dealer}", 0))
            # Pegging points by the number of cards laid before they were scored (a card's own
            # points come with it: scored after n - 1 cards were laid).
            laid = 0
            pegged: list[tuple[int, int, int]] = []  # (cards laid before, seat, points)
            for e in state.events:
                if e.hand != number or e.kind not in PEGGING_KINDS:
                    continue
                if e.kind == "play":
                    laid += 1
                if e.points and e.seat is not None:
                    pegged.append((laid - 1 if e.kind == "play" else laid, e.seat, e.points))
            for n in range(CARDS_IN_PLAY):
                for role, seat in (("pone", pone), ("dealer", dealer)):
                    _add(after[role][n], sum(p for before, s, p in pegged if s == seat and before >= n))
        if (g + 1) % 20 == 0:
            print(f"  {g + 1} games, {sum(hands['crib'])} hands, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return {**hands, "pone_pegging_after": after["pone"], "dealer_pegging_after": after["dealer"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    hist = histograms(args.games, args.seed)
    data = {
        "format": "cribbage-phase-table",
        "version": 1,
        "about": ("Histograms (index = points) from expert self-play: each hand's show by role, the crib, and "
                  "the pegging each role still scores once n cards of the play are laid (n = 0..7). "
                  "Made by py/tools/make_phase_table.py; read by cribbage.ai.winchance."),
        "games": args.games,
        "seed": args.seed,
        **hist,
    }
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

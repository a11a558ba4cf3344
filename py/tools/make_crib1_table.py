"""Make ``py/cribbage/data/crib1_values.json``: expected crib points of one card laid away, for the
tables where each player lays away a single card.

Run: ``python py/tools/make_crib1_table.py [--hands N] [--samples M] [--iterations K] [--seed S]``.

Three tables, each with the crib's roles as seen from the player laying the card:

``three`` (three players: one card from each, one from the pack)
    ``dealer``: your own crib; ``other``: another player's crib (you are not the dealer).
``partners`` (four players in two partnerships: one card from each)
    ``dealer``: your own crib; ``partner``: your partner's crib (your side's);
    ``opponent``: an opponent's crib.
``two_pack`` (two players, five cards each, one from each, two from the pack)
    ``dealer``: your own crib; ``pone``: the dealer's crib.

The model. The other players lay away what a *sensible* player lays away: dealt five random
cards, he keeps the four with the best exact hand EV over the 47 starters he cannot see, plus the
crib value of the card he lays away when the crib is his or his partner's, minus it when it is an
opponent's (that value from the previous iteration's table for *his* role; the first iteration
starts from the ``random`` model, where every other card in the crib is uniformly random). His
throws are tallied by rank (``--hands`` deals, the same deals for every role and iteration; the
hand EVs do not depend on the table). Cards from the pack and the starter are uniformly random.

Each entry is a Monte Carlo average over ``--samples`` cribs: your card (the rank, a random suit),
each other player's card (a rank drawn from his role's tally, a random suit among the cards of that
rank still unused), the pack's cards and the starter from the rest, scored with
``scoring.hand_points(..., crib=True)`` (the show only, not his heels). The standard error of each
entry is stored beside it. As in ``make_crib_table.py``, the cards you keep are not removed from the
deck: the table is indexed by the card laid away alone. Suits do not matter to a one-card entry
(a crib flush and nobs are symmetric in your card's suit), so there are 13 entries a role.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cribbage.cards import DECK, Card  # noqa: E402
from cribbage.scoring import hand_points, rank_points  # noqa: E402

RANKS = "A23456789TJQK"
OUT = ROOT / "cribbage" / "data" / "crib1_values.json"

# table -> (cards from the pack, {role: (sign of the crib for that role, the other throwers' roles)})
TABLES: dict[str, tuple[int, dict[str, tuple[int, tuple[str, ...]]]]] = {
    "three": (1, {
        "dealer": (+1, ("other", "other")),
        "other": (-1, ("dealer", "other")),
    }),
    "partners": (0, {
        "dealer": (+1, ("partner", "opponent", "opponent")),
        "partner": (+1, ("dealer", "opponent", "opponent")),
        "opponent": (-1, ("dealer", "partner", "opponent")),
    }),
    "two_pack": (2, {
        "dealer": (+1, ("pone",)),
        "pone": (-1, ("dealer",)),
    }),
}

BY_RANK: list[list[Card]] = [[] for _ in range(14)]
for _c in DECK:
    BY_RANK[int(_c.rank)].append(_c)


def deal_hands(n: int, rng: random.Random) -> list[tuple[tuple[Card, ...], list[float]]]:
    """``n`` random five-card hands, each with the exact hand EV of keeping all but card i (47 starters)."""
    out = []
    deck = list(DECK)
    for _ in range(n):
        hand = tuple(rng.sample(deck, 5))
        starters = [c for c in deck if c not in hand]
        evs = []
        for i in range(5):
            keep = hand[:i] + hand[i + 1:]
            evs.append(sum(hand_points(keep, s) for s in starters) / 47)
        out.append((hand, evs))
    return out


def tally_throws(hands: list[tuple[tuple[Card, ...], list[float]]], sign: int, values: list[float]) -> list[float]:
    """How often a sensible player of a role lays away each rank (index 1..13), as shares."""
    counts = [0.0] * 14
    for hand, evs in hands:
        best = max(range(5), key=lambda i: evs[i] + sign * values[int(hand[i].rank) - 1])
        counts[int(hand[best].rank)] += 1
    total = sum(counts)
    return [c / total for c in counts]


def crib_entry(rank: int, throwers: list[list[float] | None], pack: int, samples: int,
               rng: random.Random) -> tuple[float, float]:
    """Mean and standard error of the crib holding a card of ``rank`` (None: a random thrower)."""
    ranks = list(range(14))
    cum = [None if t is None else _cumulative(t) for t in throwers]
    total = 0.0
    total_sq = 0.0
    for _ in range(samples):
        mine = rng.choice(BY_RANK[rank])
        used = {mine}
        crib = [mine]
        for c in cum:
            while True:
                if c is None:
                    card = DECK[rng.randrange(52)]
                    if card in used:
                        continue
                else:
                    r = rng.choices(ranks, cum_weights=c)[0]
                    free = [x for x in BY_RANK[r] if x not in used]
                    if not free:
                        continue
                    card = rng.choice(free)
                break
            used.add(card)
            crib.append(card)
        while len(crib) < 5:  # the pack's cards, then the starter
            card = DECK[rng.randrange(52)]
            if card not in used:
                used.add(card)
                crib.append(card)
        pts = hand_points(crib[:4], crib[4], True)
        total += pts
        total_sq += pts * pts
    mean = total / samples
    var = max(0.0, total_sq / samples - mean * mean)
    return mean, math.sqrt(var / samples)


def _cumulative(shares: list[float]) -> list[float]:
    out = []
    acc = 0.0
    for s in shares:
        acc += s
        out.append(acc)
    return out


def build(
    values: dict[str, dict[str, list[float]]] | None,
    throws: dict[str, dict[str, list[float]]] | None,
    samples: int,
    rng: random.Random,
) -> tuple[dict[str, dict[str, list[float]]], dict[str, dict[str, list[float]]]]:
    """Every table's roles (``throws`` None: the random model), as values and standard errors."""
    out: dict[str, dict[str, list[float]]] = {}
    errs: dict[str, dict[str, list[float]]] = {}
    for name, (pack, roles) in TABLES.items():
        out[name] = {}
        errs[name] = {}
        for role, (_sign, others) in roles.items():
            throwers = [None if throws is None else throws[name][o] for o in others]
            row = []
            err = []
            for r in range(1, 14):
                m, e = crib_entry(r, throwers, pack, samples, rng)
                row.append(round(m, 4))
                err.append(round(e, 4))
            out[name][role] = row
            errs[name][role] = err
    return out, errs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--hands", type=int, default=12000, help="five-card deals for the throw tallies")
    ap.add_argument("--samples", type=int, default=40000, help="cribs sampled per entry")
    ap.add_argument("--iterations", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rank_points()
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    hands = deal_hands(args.hands, rng)
    print(f"{args.hands} hands dealt and valued: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    t0 = time.perf_counter()
    random_values, random_errs = build(None, None, args.samples, rng)
    print(f"random model: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    values, errs = random_values, random_errs
    throws: dict[str, dict[str, list[float]]] = {}
    for it in range(args.iterations):
        t0 = time.perf_counter()
        throws = {name: {role: tally_throws(hands, sign, values[name][role]) for role, (sign, _) in roles.items()}
                  for name, (_, roles) in TABLES.items()}
        values, errs = build(values, throws, args.samples, rng)
        print(f"iteration {it + 1}: {time.perf_counter() - t0:.0f} s; five: "
              + ", ".join(f"{n}/{r} {v[4]:.2f}" for n, t in values.items() for r, v in t.items()), file=sys.stderr)
    data = {
        "format": "cribbage-crib1-values",
        "version": 1,
        "ranks": RANKS,
        "about": ("Expected crib points (the show only, not his heels) of one card laid away, indexed [rank-1] "
                  "(A=0 .. K=12), per table and role of the crib as seen by the player laying it: three "
                  "(dealer, other), partners (dealer, partner, opponent), two_pack (dealer, pone). The other "
                  "players lay away sensibly (best hand EV +/- their own role's crib value); 'random' is "
                  "the same with every other card uniformly random. 'stderr' is each entry's Monte Carlo "
                  "standard error; 'throws' the sensible players' shares by rank (index 1..13). Made by "
                  "py/tools/make_crib1_table.py; see cribbage/ai/CRIB_TABLE.md."),
        "generator": {"hands": args.hands, "samples": args.samples, "iterations": args.iterations,
                      "seed": args.seed},
        "values": values,
        "stderr": errs,
        "random": random_values,
        "throws": {n: {r: [round(x, 4) for x in t[1:]] for r, t in roles.items()} for n, roles in throws.items()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

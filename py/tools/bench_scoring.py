"""Benchmark: score every one of the 12,994,800 hand+starter combinations, print throughput and
the distribution (counts by score and the mean), and time the itemised scorer on a sample.

Run: ``python py/tools/bench_scoring.py`` (``make bench``). Not a test: it prints figures.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.distribution import hand_score_distribution
from cribbage.cards import DECK
from cribbage.rng import Rng
from cribbage.scoring import hand_points, score_hand


def main() -> None:
    start = time.perf_counter()
    counts = hand_score_distribution()
    elapsed = time.perf_counter() - start
    total = sum(counts.values())
    mean = sum(s * n for s, n in counts.items()) / total
    print(f"all hands: {total:,} hand+starter combinations in {elapsed:.2f} s "
          f"({total / elapsed / 1e6:.2f} M hands/s), mean {mean:.4f}")
    for score in range(30):
        print(f"  {score:2d}: {counts.get(score, 0):>10,}")
    rng = Rng(1)
    samples = []
    for _ in range(20000):
        deck = list(DECK)
        rng.shuffle(deck)
        samples.append((deck[:4], deck[4]))
    start = time.perf_counter()
    for hand, starter in samples:
        hand_points(hand, starter)
    fast = time.perf_counter() - start
    start = time.perf_counter()
    for hand, starter in samples:
        score_hand(hand, starter)
    itemised = time.perf_counter() - start
    n = len(samples)
    print(f"hand_points (fast total): {n / fast:,.0f} hands/s; score_hand (itemised): {n / itemised:,.0f} hands/s")


if __name__ == "__main__":
    main()

"""Benchmark (not a test): the cryptographic deal of online play in CPython.

Two peers in one process play hands in RFC 3526 group 14 with random legal actions. For each hand it
prints, per browser: the time of the shuffle and the deal (from the hand's first shuffle to both
hands opened), the big-integer work of the whole hand (short and full powers, membership checks, the
audit included) and the bytes of JSON exchanged for the whole hand (shuffles, actions, shares, keys).

    python py/tools/bench_deal.py [--hands 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.online import sra  # noqa: E402
from cribbage.online.game import OnlineGame  # noqa: E402
from cribbage.state import Phase  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    peers = [OnlineGame(s, group=sra.GROUP_14) for s in (0, 1)]
    wires: list[list[str]] = [[], []]
    busy = [0.0, 0.0]
    sent_bytes = [0]

    def pump() -> None:
        while True:
            moved = False
            for seat, peer in enumerate(peers):
                start = time.perf_counter()
                peer.run_all()
                busy[seat] += time.perf_counter() - start
                for message in peer.take_outbox():
                    text = json.dumps(message, separators=(",", ":"))
                    sent_bytes[0] += len(text)
                    wires[1 - seat].append(text)
            for seat in (0, 1):
                while wires[seat]:
                    start = time.perf_counter()
                    peers[seat].receive(json.loads(wires[seat].pop(0)))
                    busy[seat] += time.perf_counter() - start
                    moved = True
            if not moved:
                return

    def act_once() -> None:
        for seat in rng.sample((0, 1), 2):
            peer = peers[seat]
            if peer.can_accept_next_hand():
                peer.accept_next_hand()
            elif peer.legal_actions():
                peer.act(rng.choice(peer.legal_actions()))
                return

    def dealt() -> bool:
        return all(p.match.state.phase not in (Phase.CUT_FOR_DEAL, Phase.CUT_PACK) for p in peers)

    # Through the cut for deal first (its pack is not a hand).
    while not all(p.match.state.hand_number >= 1 for p in peers):
        pump()
        act_once()
    deal_ms: list[list[float]] = [[], []]
    hand_bytes: list[int] = []
    tallies: list[tuple[int, ...]] = []
    print(f"{'hand':>4} {'deal ms (seat 1, seat 2)':>26} {'KB':>6}  pows short/full/checks (seat 1 | seat 2)")
    for _ in range(args.hands):
        if any(p.match.state.is_over for p in peers):
            break
        hand = max(p.match.state.hand_number for p in peers)
        busy[:] = [0.0, 0.0]
        sent_bytes[0] = 0
        before = [(p.tally.short, p.tally.full, p.tally.checks) for p in peers]
        while not dealt():
            pump()
            act_once()
        pump()
        for seat in (0, 1):
            deal_ms[seat].append(busy[seat] * 1000)
        while not any(p.match.state.is_over for p in peers) and not (
                all(p.match.state.hand_number > hand for p in peers)
                and all(p.records[-1 if p.pack is None else -2].cards is not None for p in peers)):
            pump()
            act_once()
        pump()
        after = [(p.tally.short, p.tally.full, p.tally.checks) for p in peers]
        work = tuple(a - b for seat in (0, 1) for a, b in zip(after[seat], before[seat]))
        tallies.append(work)
        hand_bytes.append(sent_bytes[0])
        print(f"{hand:>4} {deal_ms[0][-1]:>12.0f} {deal_ms[1][-1]:>12.0f} {sent_bytes[0] / 1024:>7.1f}  "
              f"{work[0]}/{work[1]}/{work[2]} | {work[3]}/{work[4]}/{work[5]}")
    print(f"median shuffle+deal of one hand per browser: {statistics.median(deal_ms[0] + deal_ms[1]):.0f} ms "
          f"(seat 1 {statistics.median(deal_ms[0]):.0f}, seat 2 {statistics.median(deal_ms[1]):.0f}); "
          f"median bytes per hand: {statistics.median(hand_bytes) / 1024:.1f} KB of JSON")
    a, b = 2 ** 255 + 12345, sra.inverse(2 ** 255 + 12345)
    x = sra.CARD_POINTS[7]
    for name, fn in (("short power", lambda: pow(x, a, sra.P)), ("full power", lambda: pow(x, b, sra.P)),
                     ("membership (Jacobi)", lambda: sra.jacobi(x, sra.P))):
        start = time.perf_counter()
        for _ in range(20):
            fn()
        print(f"one {name}: {(time.perf_counter() - start) / 20 * 1000:.2f} ms")


if __name__ == "__main__":
    main()

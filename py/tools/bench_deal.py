"""Benchmark (not a test): the cryptographic deal of online play in CPython.

Two peers in one process play hands in RFC 3526 group 14 with random legal actions. For each hand it
prints, per browser: the time of the shuffle and the deal (the busy time from the end of the last
pack to both hands opened, the audit of the last pack excepted), then the big-integer work and the
bytes of JSON exchanged over the whole hand, from its shuffle to the reveal and audit of its pack.

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
    audit = [0.0, 0.0]
    sent_bytes = [0]

    def timed(seat: int, game: OnlineGame) -> None:
        # Time the audits apart: the next pack is shuffled while the last one is audited.
        start_job = game._start_job

        def start(job: dict[str, object]) -> sra.Work[None]:
            work = start_job(job)
            if job["kind"] != "audit":
                return work

            def wrapped() -> sra.Work[None]:
                while True:
                    t0 = time.perf_counter()
                    try:
                        next(work)
                    except StopIteration:
                        audit[seat] += time.perf_counter() - t0
                        return
                    audit[seat] += time.perf_counter() - t0
                    yield

            return wrapped()

        game._start_job = start  # type: ignore[method-assign]

    for seat, game in enumerate(peers):
        timed(seat, game)

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

    def ends_pack(peer: OnlineGame) -> bool:
        st = peer.match.state
        return ((st.phase is Phase.SHOW and st.show_step == 2)
                or (st.phase is Phase.CUT_FOR_DEAL and st.cut_cards[0] is not None))

    deal_ms: list[list[float]] = [[], []]
    hand_bytes: list[int] = []
    window = False
    tally_at = [(0, 0, 0), (0, 0, 0)]
    print(f"{'hand':>4} {'deal ms (seat 1, seat 2)':>26} {'KB':>6}  pows short/full/checks (seat 1 | seat 2)")
    hands = 0
    while hands < args.hands and not any(p.match.state.is_over for p in peers):
        pump()
        if window and all(p.match.state.phase not in (Phase.CUT_FOR_DEAL, Phase.CUT_PACK) for p in peers):
            for seat in (0, 1):
                deal_ms[seat].append((busy[seat] - audit[seat]) * 1000)
            window = False
        for seat in rng.sample((0, 1), 2):
            peer = peers[seat]
            if peer.can_accept_next_hand():
                peer.accept_next_hand()
            elif peer.legal_actions():
                if ends_pack(peer):
                    pump()
                    if deal_ms[0] and peer.match.state.phase is Phase.SHOW:
                        # A hand is over: its bytes and its work, shuffle to audit of the last pack.
                        now = [(p.tally.short, p.tally.full, p.tally.checks) for p in peers]
                        work = [n - b for seat2 in (0, 1) for n, b in zip(now[seat2], tally_at[seat2])]
                        hand_bytes.append(sent_bytes[0])
                        hands += 1
                        print(f"{hands:>4} {deal_ms[0][-1]:>12.0f} {deal_ms[1][-1]:>12.0f} "
                              f"{sent_bytes[0] / 1024:>7.1f}  {work[0]}/{work[1]}/{work[2]} | "
                              f"{work[3]}/{work[4]}/{work[5]}")
                    busy[:] = [0.0, 0.0]
                    audit[:] = [0.0, 0.0]
                    sent_bytes[0] = 0
                    tally_at = [(p.tally.short, p.tally.full, p.tally.checks) for p in peers]
                    window = True
                peer.act(rng.choice(peer.legal_actions()))
                break
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

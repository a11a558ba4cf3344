"""Benchmark (not a test): the proven deal of online play, in CPython or inside Pyodide.

Prints, for the group of the deal (NIST P-256 unless ``--group modp``):

1. the cost of each step: key set-up (a key share and its proof, and checking the other's), one
   shuffle with its proof, checking one, one decryption share with its proof, checking one;
2. whole hands between two peers in one process, each with its own virtual clock (a payload cannot
   be handled before its sender's clock sent it; work on both sides runs side by side as in two
   browsers): when the first two packs are proven (from the start, i.e. the data channel opening),
   each browser's crypto work per hand, the scalar multiplications counted (single, fixed-base,
   multi-scalar terms; "naive" counts every term as one single multiplication), the longest slice
   of work between two yields (a browser runs one or a few per frame), and the bytes per hand.

    python py/tools/bench_deal.py [--hands 3] [--seed 1] [--group p256|modp]
    node py/tools/bench_deal_pyodide.mjs [hands]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.online.group import MODP_TEST, Group, OpCount, run
from cribbage.online.game import OnlineGame
from cribbage.online.pack import MatchKeys, public_deck
from cribbage.state import other


def ops_delta(group: Group, before: OpCount) -> OpCount:
    now = group.ops
    return OpCount(now.mul - before.mul, now.fixed - before.fixed, now.multi - before.multi,
                   now.multi_terms - before.multi_terms)


def snapshot(group: Group) -> OpCount:
    o = group.ops
    return OpCount(o.mul, o.fixed, o.multi, o.multi_terms)


def timed(group: Group, fn: Callable[[], Any], repeat: int = 3) -> tuple[float, OpCount, Any]:
    times, result, ops = [], None, OpCount()
    for _ in range(repeat):
        before = snapshot(group)
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
        ops = ops_delta(group, before)
    return statistics.median(times), ops, result


def fmt_ops(o: OpCount) -> str:
    return (f"{o.mul} single, {o.fixed} fixed-base, {o.multi} multi ({o.multi_terms} terms); "
            f"naive {o.total_naive()}")


def steps(group: Group) -> None:
    rb = random.Random(5).randrange
    a = MatchKeys(group, "bench-room", 0, 0, group.random_scalar(rb))
    b = MatchKeys(group, "bench-room", 0, 1, group.random_scalar(rb))
    t, o, msg = timed(group, lambda: a.key_message(rb))
    print(f"  key share + proof        {t * 1000:8.1f} ms   {fmt_ops(o)}")
    t, o, _ = timed(group, lambda: MatchKeys(group, "bench-room", 0, 1, b.secret).take_key(msg["share"], msg["proof"]))
    print(f"  check a key share        {t * 1000:8.1f} ms   {fmt_ops(o)}")
    b.take_key(msg["share"], msg["proof"])
    a.take_key(**b.key_message(rb))
    deck = public_deck(group)
    a.joint_table()
    t, o, (deck1, proof) = timed(group, lambda: run(a.shuffle_and_prove(0, 1, deck, rb)), 1)
    print(f"  shuffle + proof (52)     {t * 1000:8.1f} ms   {fmt_ops(o)}")
    t, o, _ = timed(group, lambda: run(b.verify_shuffle(0, 1, deck, deck1, proof)), 1)
    print(f"  check a shuffle          {t * 1000:8.1f} ms   {fmt_ops(o)}")
    for n in (1, 6):
        slots = list(range(7, 7 + n))
        cts = [deck1[s] for s in slots]
        values = [a.my_share(ct) for ct in cts]
        t, o, _ = timed(group, lambda cts=cts: [a.my_share(ct) for ct in cts])
        print(f"  {n} share{'s' if n > 1 else ' '} (x·a, computed ahead) {t * 1000:5.1f} ms   {fmt_ops(o)}")
        t, o, sh = timed(group, lambda slots=slots, cts=cts, values=values: a.prove_shares(0, slots, cts, values, rb))
        print(f"  proof of {n} share{'s' if n > 1 else ' '} (batched) {t * 1000:6.1f} ms   {fmt_ops(o)}")
        t, o, _ = timed(group, lambda sh=sh, cts=cts: b.check_shares(0, sh, cts))
        print(f"  check {n} share{'s' if n > 1 else ' '} (batched) {t * 1000:9.1f} ms   {fmt_ops(o)}")


def hands(group: Group, count: int, seed: int) -> None:
    rng = random.Random(seed)
    peers = [OnlineGame(s, ("A", "B"), room="bench-room", group=group, randbelow=random.Random(seed + s).randrange)
             for s in (0, 1)]
    clock = [0.0, 0.0]
    wires: list[list[tuple[float, dict[str, Any]]]] = [[], []]
    busy = [0.0, 0.0]
    longest = [0.0, 0.0]
    ops = [OpCount(), OpCount()]
    sent = [0]
    ready_at: dict[int, float] = {}
    slices: list[tuple[float, str]] = []

    def work(seat: int) -> bool:
        peer = peers[seat]
        if not peer.busy:
            return False
        before = snapshot(group)
        queue = peer._fg or peer._bg
        what = (
            (queue[0]["kind"] + (":" + queue[0]["message"]["t"] if "message" in queue[0] else ""))
            if queue
            else "warm"
        )
        t0 = time.perf_counter()
        peer.step(0)  # one slice: the longest of them is the longest task a frame may run
        dt = time.perf_counter() - t0
        slices.append((dt, what))
        d = ops_delta(group, before)
        o = ops[seat]
        o.mul, o.fixed, o.multi, o.multi_terms = (o.mul + d.mul, o.fixed + d.fixed, o.multi + d.multi,
                                                  o.multi_terms + d.multi_terms)
        clock[seat] += dt
        busy[seat] += dt
        longest[seat] = max(longest[seat], dt)
        for message in peer.take_outbox():
            text = json.dumps(message)
            sent[0] += len(text)
            wires[other(seat)].append((clock[seat], json.loads(text)))
        return True

    def deliver(seat: int) -> bool:
        moved = False
        while wires[seat]:
            at, message = wires[seat][0]
            if at > clock[seat] and peers[seat].busy:
                break  # it is still on its way while this browser works
            wires[seat].pop(0)
            clock[seat] = max(clock[seat], at)
            peers[seat].receive(message)
            moved = True
        return moved

    def pump() -> None:
        while True:
            moved = False
            for seat in (0, 1):
                moved = deliver(seat) or moved
                moved = work(seat) or moved
                for k, rec in enumerate(peers[seat].records):
                    if rec.ready and all(len(p.records) > k and p.records[k].ready for p in peers):
                        ready_at.setdefault(k, max(clock))
            if not moved:
                return

    results: list[tuple[float, float, OpCount, OpCount, int]] = []
    mark = (list(busy), [OpCount(), OpCount()], sent[0])
    hand = 0
    for _ in range(20000):
        pump()
        st = peers[0].match.state
        if st.hand_number > hand:
            if hand >= 1:
                b0, o0, s0 = mark
                results.append((busy[0] - b0[0], busy[1] - b0[1],
                                OpCount(ops[0].mul - o0[0].mul, ops[0].fixed - o0[0].fixed, ops[0].multi - o0[0].multi,
                                        ops[0].multi_terms - o0[0].multi_terms),
                                OpCount(ops[1].mul - o0[1].mul, ops[1].fixed - o0[1].fixed, ops[1].multi - o0[1].multi,
                                        ops[1].multi_terms - o0[1].multi_terms),
                                sent[0] - s0))
            mark = (list(busy), [OpCount(**vars(ops[0])), OpCount(**vars(ops[1]))], sent[0])
            hand = st.hand_number
            if len(results) >= count:
                break
        if st.is_over or any(p.failure for p in peers):
            break
        for seat in rng.sample((0, 1), 2):
            peer = peers[seat]
            if peer.can_accept_next_hand():
                peer.accept_next_hand()
            else:
                legal = peer.legal_actions()
                if legal:
                    peer.act(rng.choice(legal))
    assert not any(p.failure for p in peers), [p.failure for p in peers]
    print(f"  first two packs proven at {ready_at.get(0, float('nan')):.2f} s (cut for deal) and "
          f"{ready_at.get(1, float('nan')):.2f} s (first hand) after the start")
    for i, (b0, b1, o0, o1, nbytes) in enumerate(results):
        print(f"  hand {i + 1}: crypto work {b0:.2f} s / {b1:.2f} s per browser; {nbytes / 1000:.1f} kB of JSON")
        print(f"          seat 1: {fmt_ops(o0)}")
        print(f"          seat 2: {fmt_ops(o1)}")
    if results:
        print(
            "  median per hand and browser: "
            f"{statistics.median([r[0] for r in results] + [r[1] for r in results]):.2f} s; "
            f"median bytes per hand {statistics.median([r[4] for r in results]) / 1000:.1f} kB"
        )
    slices.sort(reverse=True)
    print(f"  longest slice of work between two yields: {max(longest) * 1000:.1f} ms; the five longest: "
          + ", ".join(f"{dt * 1000:.0f} ms ({what})" for dt, what in slices[:5]))
    by_kind: dict[str, float] = {}
    for dt, what in slices:
        by_kind.setdefault(what, dt)  # (sorted: the first seen is the longest)
    print("  the longest slice of each kind of work: "
          + ", ".join(f"{what} {dt * 1000:.0f}" for what, dt in by_kind.items()) + " (ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--group", choices=("p256", "modp"), default="p256")
    args = parser.parse_args()
    if args.group == "p256":
        from cribbage.online.p256 import P256_GROUP
        group: Group = P256_GROUP
    else:
        group = MODP_TEST
    print(f"The proven deal in {group.name} ({sys.implementation.name} {sys.version.split()[0]})")
    print("Steps (one browser):")
    steps(group)
    print(f"Whole hands ({args.hands}), two browsers side by side:")
    hands(group, args.hands, args.seed)


if __name__ == "__main__":
    main()

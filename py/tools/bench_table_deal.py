"""Benchmark (not a test): the proven deal at a table of two, three and four seats (:mod:`cribbage.online.table_deal`).

For each N, in the group of the deal (NIST P-256 unless ``--group modp``), N seats in one process, each
with its own virtual clock (a message cannot be handled before its sender's clock sent it, plus
``--latency`` ms on the wire; the seats' work runs side by side as in N browsers; work is timed in
CPU time of this process, so other load on the machine does not count). Printed:

- **key set-up**: from the start to every seat holding every proven key share, echoed by all;
- **one full shuffle round**: from the pack begun to every seat holding the N proven shuffles
  (each seat proves one and verifies N − 1, in sequence: the critical path is N shuffles and N checks);
- **opening a hand**: from the cut to every seat holding its hand (each seat proves its shares of
  every other seat's cards and checks N − 1 batches);
- each seat's crypto work in each phase (median over the seats), the longest single call (the
  library is synchronous: a browser would run it in a worker or slice it), and the bytes sent.

    nice -n 10 python py/tools/bench_table_deal.py [--seats 2,3,4] [--group p256|modp] [--latency 30]
    node py/tools/bench_table_deal_pyodide.mjs          (the same inside Pyodide)
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.online.group import MODP_TEST, Group, run
from cribbage.online.pack import constants_work
from cribbage.online.table_deal import TableDeal
from cribbage.rules import Rules


class Table:
    """N seats, virtual clocks, a wire with latency."""

    def __init__(self, n: int, group: Group, latency: float, seed: int) -> None:
        self.n = n
        self.latency = latency
        self.clock = [0.0] * n
        self.busy: list[dict[str, float]] = [{} for _ in range(n)]
        self.longest = 0.0
        self.bytes = 0
        self.queue: list[tuple[float, int, int, int, dict[str, Any]]] = []
        self.seq = 0
        self.phase = "keys"
        rules = Rules(players=n)
        self.deals: list[TableDeal] = []
        def seat(s: int) -> Callable[[], TableDeal]:
            return lambda: TableDeal(s, rules=rules, room="bench-room", group=group,
                                     randbelow=random.Random(seed + s).randrange)
        for s in range(n):
            self.deals.append(self._timed(s, seat(s)))

    def _timed(self, seat: int, fn: Callable[[], Any]) -> Any:
        t0 = time.process_time()  # this process's CPU time: other work on the machine does not count
        result = fn()
        dt = time.process_time() - t0
        self.clock[seat] += dt
        self.busy[seat][self.phase] = self.busy[seat].get(self.phase, 0.0) + dt
        self.longest = max(self.longest, dt)
        deal = result if isinstance(result, TableDeal) else self.deals[seat]
        for message in deal.take_outbox():
            text = json.dumps(message)
            for r in range(self.n):
                if r != seat:
                    self.bytes += len(text)
                    self.seq += 1
                    heapq.heappush(self.queue, (self.clock[seat] + self.latency, self.seq, seat, r, json.loads(text)))
        return result

    def act(self, seat: int, fn: Callable[[TableDeal], None]) -> None:
        self._timed(seat, lambda: fn(self.deals[seat]))

    def run_until(self, done: Callable[[], bool]) -> float:
        """Deliver messages in the order they arrive until ``done``; the time every seat got there."""
        while not done():
            if not self.queue:
                raise RuntimeError("the table stalled: " + str([d.failure for d in self.deals]))
            at, _, s, r, message = heapq.heappop(self.queue)
            self.clock[r] = max(self.clock[r], at)
            self.act(r, lambda d, s=s, message=message: d.receive(s, message))
        return max(self.clock)

    def sync(self) -> float:
        t = max(self.clock)
        self.clock = [t] * self.n
        return t


def bench(n: int, group: Group, latency: float, seed: int) -> dict[str, Any]:
    table = Table(n, group, latency, seed)
    t_keys = table.run_until(lambda: all(d.keys_ready for d in table.deals))
    t0 = table.sync()
    table.phase = "shuffle"
    for s in range(n):
        table.act(s, lambda d: d.start_pack(0, 0))
    t_shuffle = table.run_until(lambda: all(0 in d.packs and d.packs[0].phase == "cut" for d in table.deals)) - t0
    t1 = table.sync()
    table.phase = "open a hand"
    table.act(n - 1, lambda d: d.cut(0, 20))
    hand = Rules(players=n).hand_size
    t_open = table.run_until(lambda: all(len(d.hand(0)) == hand for d in table.deals)) - t1
    assert not any(d.failure for d in table.deals)
    work = {
        phase: statistics.median(b.get(phase, 0.0) for b in table.busy)
        for phase in ("keys", "shuffle", "open a hand")
    }
    return {"keys": t_keys, "shuffle": t_shuffle, "open": t_open, "work": work, "longest": table.longest,
            "bytes": table.bytes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", default="2,3,4")
    parser.add_argument("--group", choices=["p256", "modp"], default="p256")
    parser.add_argument("--latency", type=float, default=30.0, help="one-way latency of a message, ms")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.group == "modp":
        group: Group = MODP_TEST
    else:
        from cribbage.online.p256 import P256_GROUP
        group = P256_GROUP
    t0 = time.perf_counter()
    run(constants_work(group))
    print(f"{sys.implementation.name} {sys.version.split()[0]}, group {group.name}; one-way latency "
          f"{args.latency:.0f} ms; the deal's constants made once a page in {time.perf_counter() - t0:.2f} s")
    print("seats | key set-up | one full shuffle round | opening a hand | crypto per seat (keys / shuffle / open) "
          "| longest call | kB sent")
    for n in (int(x) for x in args.seats.split(",")):
        r = bench(n, group, args.latency / 1000, args.seed)
        w = r["work"]
        print(f"  {n}   | {r['keys']:8.2f} s | {r['shuffle']:20.2f} s | {r['open']:12.2f} s | "
              f"{w['keys']:.2f} / {w['shuffle']:.2f} / {w['open a hand']:.2f} s | {r['longest']:.2f} s | "
              f"{r['bytes'] / 1000:.0f}")


if __name__ == "__main__":
    main()

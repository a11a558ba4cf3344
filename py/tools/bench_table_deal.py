"""Benchmark (not a test): the proven deal at a table of three and four (:mod:`cribbage.online.table_game`),
in CPython or inside Pyodide, on NIST P-256 unless ``--group modp``.

Prints, for each table size:

1. the cost of each phase of the crypto (:class:`~cribbage.online.table_keys.TableKeys`): a key share and
   its proof, checking one, a seat's shuffle of the 52 cards with its proof, checking one, a seat's
   decryption shares of a deal (the slots dealt to the other seats) with their batched proof, checking
   them, one share (a card laid) and checking it;
2. whole hands between the seats in one process, each seat with its own virtual clock (a message cannot
   be taken before its sender's clock sent it, plus ``--latency`` ms; the seats' work runs side by side
   as in N browsers on N cores: the *critical path*), and again on one CPU (every step of every seat
   one after the other, as N browsers sharing one core): the time from the mesh ready (every seat's game
   made) to every seat seeing its first hand; from the last seat's "next hand" to every seat seeing its
   next hand (the bots agree only once the next pack is shuffled and proven at every seat, as it is
   after a hand of human play); the time a card laid takes to reach every other seat's match; every
   step of work (one :meth:`TableGame.step`): median, p99 and the longest, with its kind; the
   messages and bytes (canonical JSON, counted once per receiver) per hand.

The bots act at once (no thinking time), pick a random legal action (seeded), and the cutter cuts as
soon as it may. Times are CPU time (``time.process_time``; the machine is shared) per step.

    python py/tools/bench_table_deal.py [--players 3,4] [--hands 3] [--seed 1] [--latency 0] [--phases-only]
    node py/tools/bench_table_deal_pyodide.mjs [arguments of bench_table_deal.py]
"""

from __future__ import annotations

import argparse
import gc
import heapq
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.actions import CutPack, Play
from cribbage.online.group import MODP_TEST, Group, run
from cribbage.online.pack import PACK_SIZE, constants_work, public_deck
from cribbage.online.table_game import TableGame
from cribbage.online.table_keys import TableKeys
from cribbage.rules import Rules
from cribbage.state import Phase



def _clock() -> Callable[[], float]:
    """CPU time: this process's (CPython), or Node's (Pyodide under Node: ``process.cpuUsage``); the machine is
    shared, so wall time would count the others' work."""
    if sys.platform != "emscripten":
        return time.process_time
    try:
        import js  # type: ignore[import-not-found]
        usage = js.process.cpuUsage

        def node_cpu() -> float:
            u = usage()
            return float(u.user + u.system) / 1e6
        node_cpu()
        return node_cpu
    except (ImportError, AttributeError):  # (a browser: wall time)
        return time.perf_counter


clock = _clock()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


# --- 1. the phases --------------------------------------------------------------------------------

def timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = clock()
        result = fn()
        best = min(best, clock() - start)
    return best, result


def phases(group: Group, n: int) -> None:
    rng = random.Random(n).randrange
    rules = Rules(players=n)
    keys = [TableKeys(group, "bench", 0, n, s, group.random_scalar(rng), rules) for s in range(n)]
    run(constants_work(group))
    t_key, msgs = timed(lambda: [k.key_message(rng) for k in keys], 1)
    start = clock()
    for k in keys:
        for j, m in enumerate(msgs):
            if j != k.seat:
                k.take_key(j, m["share"], m["proof"])
    t_take = (clock() - start) / (n * (n - 1))
    run(keys[0].joint_table_work())
    deck = public_deck(group)
    t_shuffle, (out, proof) = timed(lambda: run(keys[0].shuffle_and_prove(0, deck, rng)), 1)
    t_verify, _ = timed(lambda: run(keys[1].verify_shuffle(0, 0, deck, out, proof)), 1)
    dealt = list(range((n - 1) * rules.hand_size))
    cts = [out[s] for s in dealt]
    t_prove, shares = timed(lambda: keys[0].prove_shares(0, "deal", dealt, cts, rng))
    t_check, _ = timed(lambda: keys[1].check_shares(0, "deal", 0, shares, cts))
    t_own, values = timed(lambda: [keys[0].my_share(ct) for ct in cts])
    t_proof, _ = timed(lambda: keys[0].prove_shares(0, "deal", dealt, cts, rng, values))
    t_one, one = timed(lambda: keys[0].prove_shares(0, "lay", [1], [out[1]], rng))
    t_check1, _ = timed(lambda: keys[1].check_shares(0, "lay", 0, one, [out[1]]))
    print(f"  phases (one seat, {group.name}):")
    print(f"    key share + proof {ms(t_key / n)}; checking another seat's {ms(t_take)}")
    print(f"    shuffle of {PACK_SIZE} + proof {ms(t_shuffle)}; checking one {ms(t_verify)}"
          f"  (a pack: {n} shuffles, each checked by {n - 1} seats)")
    print(f"    deal shares ({len(dealt)} slots) + batched proof {ms(t_prove)} ({ms(t_own)} the shares, "
          f"{ms(t_proof)} the proof once they are computed ahead); checking them {ms(t_check)}")
    print(f"    one share (a card laid) + proof {ms(t_one)}; checking it {ms(t_check1)}")


# --- 2. whole hands -------------------------------------------------------------------------------

@dataclass
class Step:
    seat: int
    kind: str
    seconds: float


@dataclass
class Table:
    """N seats in one process with virtual clocks."""

    games: list[TableGame]
    shared: bool
    """One CPU: every step of every seat one after the other."""
    latency: float
    rng: random.Random
    clocks: list[float] = field(default_factory=list)
    wires: list[tuple[float, int, int, int, Any]] = field(default_factory=list)
    """A heap of (arrival, order, sender, receiver, message)."""
    order: int = 0
    steps: list[Step] = field(default_factory=list)
    sent: dict[int, list[int]] = field(default_factory=dict)
    """Pack -> bytes of every message of it, once per receiver."""
    shown: dict[tuple[int, int], float] = field(default_factory=dict)
    """(seat, hand) -> when the seat's match first showed its cards of that hand."""
    agreed: dict[int, list[float]] = field(default_factory=dict)
    """Hand -> when each seat agreed to the next hand."""
    laid: dict[tuple[int, str], float] = field(default_factory=dict)
    """(hand, card) -> when it was laid; ``seen`` when each other seat's match has it."""
    seen: dict[tuple[int, str], list[float]] = field(default_factory=dict)
    prepared: dict[int, float] = field(default_factory=dict)
    """Pack -> when every seat had it shuffled and proven."""
    begun: dict[int, float] = field(default_factory=dict)
    hands: int = 3
    turn: int = -1
    taken: list[int] = field(default_factory=list)
    """Seat -> the actions of its match's history looked at so far."""

    def __post_init__(self) -> None:
        self.clocks = [0.0] * len(self.games)
        self.taken = [0] * len(self.games)

    @property
    def n(self) -> int:
        return len(self.games)

    def flush(self, s: int) -> None:
        for message in self.games[s].take_outbox():
            text = json.dumps(message, sort_keys=True, separators=(",", ":"))
            pack = message.get("p", -1)
            for r in range(self.n):
                if r != s:
                    self.order += 1
                    heapq.heappush(self.wires, (self.clocks[s] + self.latency, self.order, s, r, json.loads(text)))
                    self.sent.setdefault(pack, []).append(len(text))

    def deliver(self) -> None:
        while self.wires and (self.wires[0][0] <= self.clocks[self.wires[0][3]] or self.idle(self.wires[0][3])):
            at, _, s, r, message = heapq.heappop(self.wires)
            self.clocks[r] = max(self.clocks[r], at)
            self.games[r].receive(s, message)

    def idle(self, s: int) -> bool:
        return not self.games[s].busy and not self.wants(s)

    def wants(self, s: int) -> bool:
        g = self.games[s]
        if g.can_agree() == "next":
            k = g._k()  # (the match is at the next hand already: its pack must be proven at every seat)
            return all(k in x.deal.packs and x.deal.packs[k].phase in ("cut", "deal") and not x.deal.busy
                       for x in self.games) and self.hand(g) <= self.hands
        return bool(g.legal())

    @staticmethod
    def hand(g: TableGame) -> int:
        return 0 if g.match is None else g.match.state.hand_number

    def act(self, s: int) -> str:
        g = self.games[s]
        if g.can_agree() == "next":
            h = self.hand(g) - 1
            g.agree("next")
            self.agreed.setdefault(h, []).append(self.clocks[s])
            return "agree"
        legal = g.legal()
        cuts = [a for a in legal if isinstance(a, CutPack)]
        action = cuts[len(cuts) // 2] if cuts else self.rng.choice(legal)
        g.act(action)
        if isinstance(action, Play):
            self.laid[(self.hand(g), action.card.code)] = self.clocks[s]
        return type(action).__name__

    def observe(self, s: int) -> None:
        g = self.games[s]
        if g.match is None:
            return
        st = g.match.state
        h = st.hand_number
        if st.phase is not Phase.CUT_PACK and (s, h) not in self.shown and g.view() is not None \
                and len(g.deal.hand(h - 1)) == g.rules.hand_size:
            self.shown[(s, h)] = self.clocks[s]
        for k, action in g.history[self.taken[s]:]:
            if isinstance(action, Play) and action.seat != s:
                self.seen.setdefault((k + 1, action.card.code), []).append(self.clocks[s])
        self.taken[s] = len(g.history)
        for k, p in g.deal.packs.items():
            self.begun.setdefault(k, self.clocks[s])
            if len(p.decks) == self.n and all(k in x.deal.packs and len(x.deal.packs[k].decks) == self.n
                                              for x in self.games):
                self.prepared.setdefault(k, max(self.clocks))

    def run(self, limit: int = 200_000) -> None:
        for _ in range(limit):
            self.deliver()
            ready = [s for s in range(self.n) if self.games[s].busy or self.wants(s)]
            if not ready:
                if not self.wires:
                    return
                continue
            if self.shared:  # (one CPU shared fairly: the seats ready take turns, as an OS's time slices)
                self.turn = next((x for x in ready if x > self.turn), ready[0])
                s = self.turn
            else:
                s = min(ready, key=lambda x: (self.clocks[x], x))
            g = self.games[s]
            collections = gc.get_stats()[2]["collections"]
            start = clock()
            if g.busy:
                label = self.label(g)
                g.work(0)
            else:
                label = "act " + self.act(s)
            dt = clock() - start
            if gc.get_stats()[2]["collections"] != collections:
                label += ", with a full garbage collection of the bench's N seats"
            self.steps.append(Step(s, label, dt))
            self.clocks[s] += dt
            if self.shared:
                self.clocks = [max(c, self.clocks[s]) for c in self.clocks]
            self.flush(s)
            self.observe(s)
            if all(self.hand(x) > self.hands for x in self.games):
                return
        raise RuntimeError("the bench's table did not finish")

    @staticmethod
    def label(g: TableGame) -> str:
        i = g._next_message()
        if i is not None:
            m = g.inbox[i][1]
            return f"take {m.get('t')}" if isinstance(m, dict) else "take ?"
        if g.checking is not None:
            return "check shuffle"
        if g.deal._warm is not None:
            return "constants"
        if g.deal.jobs:
            job = next((j for j in g.deal.jobs if j.kind != "shuffle"), g.deal.jobs[0])
            return f"own {job.kind}"
        return "shares ahead"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def table(group: Group, n: int, hands: int, seed: int, latency: float, shared: bool) -> None:
    rules = Rules(players=n, target=121)
    games = [TableGame(s, rules=rules, room="bench", group=group, seed=bytes([seed, n, s]) + bytes(29))
             for s in range(n)]
    t = Table(games, shared, latency / 1000, random.Random(seed), hands=hands)
    for s in range(n):
        t.flush(s)
    t.run()
    for g in games:
        assert g.failure is None, g.failure
    first = max(t.shown[(s, 1)] for s in range(n))
    nexts = []
    for h in range(2, hands + 1):
        if all((s, h) in t.shown for s in range(n)) and h - 1 in t.agreed:
            nexts.append(max(t.shown[(s, h)] for s in range(n)) - max(t.agreed[h - 1]))
    preps = [t.prepared[k] - t.begun[k] for k in sorted(t.prepared) if k >= 1 and k in t.begun]
    cards = [max(v) - t.laid[key] for key, v in t.seen.items() if key in t.laid and len(v) == n - 1]
    steps = [x.seconds for x in t.steps]
    longest = sorted(t.steps, key=lambda x: -x.seconds)[:3]
    per_hand = [t.sent[k] for k in sorted(t.sent) if 1 <= k < hands]
    where = "one CPU (every seat's steps one after the other)" if shared else "critical path (one core per seat)"
    print(f"  {where}:")
    print(f"    mesh ready -> every seat sees its first hand: {ms(first)}")
    if nexts:
        print(f"    last 'next hand' -> every seat sees its next hand: median {ms(statistics.median(nexts))}, "
              f"max {ms(max(nexts))} (hands 2..{hands}; the next pack prepared during the hand)")
    if preps:
        print(f"    a later pack shuffled and proven at every seat {ms(statistics.median(preps))} after it began "
              "(hidden if the hand lasts longer)")
    if cards:
        print(f"    a card laid -> every other seat's match: median {ms(statistics.median(cards))}, "
              f"p90 {ms(pct(cards, 0.9))} ({len(cards)} cards)")
    print(f"    steps: {len(steps)}, median {ms(statistics.median(steps))}, p99 {ms(pct(steps, 0.99))}, longest "
          + ", ".join(f"{ms(x.seconds)} ({x.kind})" for x in longest))
    if per_hand and not shared:
        counts = [len(b) for b in per_hand]
        sizes = [sum(b) for b in per_hand]
        print(f"    per hand (packs 2..{hands}): {statistics.mean(counts):.0f} messages delivered "
              f"({statistics.mean(counts) / (n - 1):.0f} broadcasts), {statistics.mean(sizes) / 1000:.0f} kB")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", default="3,4")
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--latency", type=float, default=0.0, help="ms a message takes to reach a seat")
    ap.add_argument("--group", choices=("p256", "modp"), default="p256")
    ap.add_argument("--no-phases", action="store_true")
    ap.add_argument("--phases-only", action="store_true")
    args = ap.parse_args(argv)
    if args.group == "p256":
        from cribbage.online.p256 import P256_GROUP
        group: Group = P256_GROUP
    else:
        group = MODP_TEST
    print(f"Python {sys.version.split()[0]} on {sys.platform}; {group.name}; latency {args.latency:g} ms")
    for n in [int(x) for x in args.players.split(",")]:
        print(f"{n} seats:")
        if not args.no_phases:
            phases(group, n)
        for shared in (() if args.phases_only else (False, True)):
            table(group, n, args.hands, args.seed, args.latency, shared)
        sys.stdout.flush()


if __name__ == "__main__":
    main()

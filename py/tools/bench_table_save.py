"""Benchmark a table's save (three and four seats online): the record rewritten whole at every save
(version 1, before the table's log) against the base and its append-only log
(web.sessions.online.party.table_log). Not a test: it prints figures.

Run: ``python py/tools/bench_table_save.py [--players 3 4] [--target 61] [--seed S] [--json FILE]``.

The browsers of a table in one process (tests/protocol/table_session_hub.py: in-memory channels, the
small test group, every seat playing random legal moves) play a whole game. After every pump that moved
something, seat 1 saves as the page does (one save per batch), and the script times, in CPU time of this
Python, (a) before: :meth:`TableSession.save` and the record's JSON text (what the page wrote whole),
and (b) now: :meth:`TableLog.save` into a dict store; and counts the characters each writes. The store's
cost in the browser (its IndexedDB write) is about proportional to them. P-256 makes every message
(and so the whole record) several times larger; the log's cost follows what changed.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests" / "protocol"), str(ROOT / "tests")]

from table_session_hub import by_seat, full_table, step  # noqa: E402

from web.sessions.online.party.store import record_text  # noqa: E402
from web.sessions.online.party.table_log import TableLog  # noqa: E402
from web.sessions.storage import MemoryStorage  # noqa: E402


def _pct(values: list[float], p: float) -> float:
    return sorted(values)[min(len(values) - 1, int(p * len(values)))]


def run(players: int, target: int, seed: int) -> dict[str, Any]:
    hub, pages = full_table(players, table=seed, keep=False, target=target)
    page = by_seat(pages)[1]
    store = MemoryStorage()
    log = TableLog(store, "bench")
    rng = random.Random(seed)
    rows: list[tuple[float, float, int, int, bool, int]] = []  # old ms, new ms, old chars, new chars, base, hand
    written: str | None = None

    def save() -> None:
        nonlocal written
        t0 = time.process_time_ns()
        text = record_text(page.session.save(), 0)
        t1 = time.process_time_ns()
        if text == written:
            return
        written = text
        t2 = time.process_time_ns()
        wrote = log.save(page.session, 0)
        t3 = time.process_time_ns()
        g = page.session.game
        hand = g.match.state.hand_number if g is not None and g.match is not None else 0
        rows.append(((t1 - t0) / 1e6, (t3 - t2) / 1e6, len(text), log.written if wrote else 0,
                     wrote and log.n == 0, hand))

    save()
    for _ in range(20000):
        hub.pump()
        save()
        if not step(hub, pages, rng):
            hub.pump()
            save()
            break
    g = page.session.game
    assert g is not None and g.match is not None
    hands = max(r[5] for r in rows)
    last = [r for r in rows if r[5] == hands] or rows
    out = {
        "players": players, "target": target, "seed": seed, "saves": len(rows), "hands": hands,
        "status": page.session.status(),
        "before_ms": {"mean": statistics.mean(r[0] for r in rows), "p90": _pct([r[0] for r in rows], 0.9),
                      "last_hand_mean": statistics.mean(r[0] for r in last), "total": sum(r[0] for r in rows)},
        "after_ms": {"mean": statistics.mean(r[1] for r in rows), "p90": _pct([r[1] for r in rows], 0.9),
                     "last_hand_mean": statistics.mean(r[1] for r in last), "total": sum(r[1] for r in rows),
                     "entry_median": statistics.median(r[1] for r in rows if not r[4]),
                     "entry_last_hand_median": statistics.median([r[1] for r in last if not r[4]] or [0.0]),
                     "base_mean": statistics.mean([r[1] for r in rows if r[4]] or [0.0])},
        "before_chars": {"mean": statistics.mean(r[2] for r in rows), "first": rows[0][2], "last": rows[-1][2],
                         "total": sum(r[2] for r in rows)},
        "after_chars": {"mean": statistics.mean(r[3] for r in rows), "median": _pct([r[3] for r in rows], 0.5),
                        "p90": _pct([r[3] for r in rows], 0.9), "total": sum(r[3] for r in rows),
                        "bases": sum(1 for r in rows if r[4])},
        "record_at_end": {"base": len(store.get("bench") or ""),
                          "log": sum(len(store.get(k) or "") for k in store.keys() if ".log." in k)},
    }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4])
    ap.add_argument("--target", type=int, default=61)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    results = []
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), small test group; "
          f"CPU time per save of seat 2 (one save per batch), a game to {args.target}")
    for players in args.players:
        r = run(players, args.target, args.seed)
        results.append(r)
        b, a, bc, ac = r["before_ms"], r["after_ms"], r["before_chars"], r["after_chars"]
        print(f"\n{players} seats: {r['saves']} saves over {r['hands']} hands ({r['status']})")
        print(f"  before (whole record): {b['mean']:.2f} ms mean, p90 {b['p90']:.2f}, "
              f"last hand {b['last_hand_mean']:.2f};"
              f" {bc['mean'] / 1000:.1f} kB a save ({bc['first'] / 1000:.1f} -> {bc['last'] / 1000:.1f} kB);"
              f" {b['total'] / 1000:.2f} s, {bc['total'] / 1e6:.1f} MB in all")
        print(f"  after (base + log):    {a['mean']:.2f} ms mean, p90 {a['p90']:.2f}, "
              f"last hand {a['last_hand_mean']:.2f};"
              f" {ac['mean'] / 1000:.1f} kB a save (median {ac['median']} chars, p90 {ac['p90']}, {ac['bases']} bases);"
              f" {a['total'] / 1000:.2f} s, {ac['total'] / 1e6:.1f} MB in all")
        print(f"    an entry: median {a['entry_median']:.2f} ms (last hand {a['entry_last_hand_median']:.2f}); "
              f"a base: {a['base_mean']:.2f} ms mean")
        print(f"  the record at the end: base {r['record_at_end']['base'] / 1000:.1f} kB + log "
              f"{r['record_at_end']['log'] / 1000:.1f} kB")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()

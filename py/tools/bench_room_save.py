"""Benchmark the online room's save per envelope: the record rewritten whole (format 1, as before the
room log) against the base and its append-only log (web.sessions.online.room_log). Not a test: it
prints figures.

Run: ``python py/tools/bench_room_save.py [--seed S] [--json FILE]``.

Two browsers in one process (the fakes of tests/web/online_fakes.py: in-memory channels, the test
group) play a whole match to 121. At every save the page makes (one per batch of received or sent
envelopes) it times, in this Python, (a) what the page does now: :meth:`RoomLog.save` writing into a
dict store, and (b) what it did before: the record of format 1 built whole (head, the link's and the
game's JSON, the game's checksum over all of it) and written; and counts the characters each writes
(the store's cost in the browser is its IndexedDB write, about proportional to them). At the end it
reports the record's size: the base and its log, and the whole record of format 1.
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

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests" / "web"), str(ROOT / "tests")]

from online_fakes import Clock, Hub  # noqa: E402
from test_online import open_room, play  # noqa: E402

from web.sessions.online import room_log  # noqa: E402
from web.sessions.online.env import room_key  # noqa: E402


def _pct(values: list[float], p: float) -> float:
    return sorted(values)[min(len(values) - 1, int(p * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()

    new_ms: list[float] = []
    old_ms: list[float] = []
    new_chars: list[int] = []
    old_chars: list[int] = []
    real_save = room_log.RoomLog.save

    def timed(self: room_log.RoomLog, head: dict, link, game) -> bool:  # type: ignore[no-untyped-def]
        before = {k: len(v) for k, v in _store(self).items()}
        t0 = time.perf_counter()
        wrote = real_save(self, head, link, game)
        t1 = time.perf_counter()
        if not wrote:
            return wrote
        after = _store(self)
        new_chars.append(sum(len(v) for k, v in after.items() if before.get(k) != len(v) or k not in before))
        new_ms.append((t1 - t0) * 1000)
        # the record of format 1, as peer.py wrote it before the log
        t0 = time.perf_counter()
        text = json.dumps(head, ensure_ascii=True)
        record = f'{text[:-1]}, "link": {link.to_json()}, "game": {game.to_json()}}}'
        shadow[self.key] = record
        old_ms.append((time.perf_counter() - t0) * 1000)
        old_chars.append(len(record))
        return wrote

    shadow: dict[str, str] = {}

    def _store(log: room_log.RoomLog) -> dict[str, str]:
        data: dict[str, str] = log.storage.data  # type: ignore[attr-defined]  # (a MemoryStorage)
        return {k: v for k, v in data.items() if k.startswith(log.key)}

    room_log.RoomLog.save = timed  # type: ignore[method-assign]
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    start = time.perf_counter()
    play(ann, bob, random.Random(args.seed))
    took = time.perf_counter() - start
    room_log.RoomLog.save = real_save  # type: ignore[method-assign]
    key = room_key(ann.session.net.room)
    stored = {k: v for k, v in ann.storage.data.items() if k.startswith(key)}
    base = len(stored[key])
    log = sum(len(v) for k, v in stored.items() if k != key)
    whole = len(shadow[key])
    out = {
        "python": platform.python_implementation() + " " + platform.python_version(),
        "saves": len(new_ms), "match_s": round(took, 1), "scores": list(ann.c.match.state.scores),
        "new_ms_median": round(statistics.median(new_ms), 3), "new_ms_p95": round(_pct(new_ms, 0.95), 3),
        "old_ms_median": round(statistics.median(old_ms), 3), "old_ms_p95": round(_pct(old_ms, 0.95), 3),
        "new_chars_median": int(statistics.median(new_chars)), "new_chars_p95": _pct(new_chars, 0.95),
        "new_chars_total": sum(new_chars),
        "old_chars_median": int(statistics.median(old_chars)), "old_chars_p95": _pct(old_chars, 0.95),
        "old_chars_total": sum(old_chars),
        "end_base_chars": base, "end_log_chars": log, "end_log_entries": len(stored) - 1,
        "end_whole_record_chars": whole,
    }
    for k, v in out.items():
        print(f"{k:24} {v}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reload time with and without Pyodide's memory snapshot, and what making one costs.

    python py/tools/bench_snapshot.py [--runs 5] [--dist dist]

On demand, not a test. Serves ``dist/`` with py/tools/serve.py and opens two browser contexts:
**with** (the loader's normal path: the first visit makes the snapshot in a worker once the
table is ready, later starts load it) and **without** (the loader's refused-snapshot mark is
set for this build, so every start is the plain one). Each run reloads one, then the other
(interleaved; a third context, **stale**, holds a snapshot under another build's key: the
first start after a build change, which reads it for nothing and then starts normally) and the medians of time to
``<body data-ready="true">`` are printed. For the first
visit it prints the worker's wall time, the size stored, the origin's storage use, and the
main thread's long tasks (> 50 ms) while the worker ran.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))

import chromium  # noqa: E402
import serve  # noqa: E402

READY = "() => document.body.dataset.ready === 'true'"
LONG_TASKS = """() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: "longtask" });
}"""


STARTED_OR_MADE = "() => !globalThis.cribbageStart || cribbageStart.snapshot === 'used' || !!cribbageStart.made"
LABELS = {"with": "with snapshot", "without": "without snapshot", "stale": "stale snapshot (after a build change)"}
STALE = """async () => {
  const cache = await caches.open('pyodide-snapshot');
  for (const request of await cache.keys()) {
    if (request.url.endsWith('/stale.bin')) continue;
    await cache.put(request.url.replace(/[0-9a-f]+[.]bin$/, 'stale.bin'), await cache.match(request));
    await cache.delete(request);
  }
}"""
"""Turn the stored snapshot into another build's (its key no longer matches the loader's): done
before each of that context's reloads, since the start after it makes this build's again."""


def snapshot_key(dist: Path) -> str:
    match = re.search(r'const SNAPSHOT_KEY = "([0-9a-f]*)"', (dist / "static" / "loader.mjs").read_text())
    if not match or not match.group(1):
        raise SystemExit("bench_snapshot: dist/static/loader.mjs has no snapshot key (files mode?)")
    return match.group(1)


def task_seconds(session: Any) -> float:
    """The main thread's busy time in this document so far (CDP Performance.TaskDuration,
    which starts again at each navigation)."""
    metrics = session.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "TaskDuration")


def reload(page: Any, session: Any) -> dict[str, Any]:
    page.reload(wait_until="commit")
    page.wait_for_function(READY, polling="raf", timeout=60_000)
    result = page.evaluate("() => ({ready: performance.now(), start: globalThis.cribbageStart})")
    result["busy"] = task_seconds(session)
    time.sleep(0.5)  # let code caches settle between starts, as a player's would
    return result


def first_visit(page: Any, url: str) -> dict[str, Any]:
    """Cold visit of the snapshot context: returns the worker's report and the main thread's
    long tasks from ready until the snapshot was stored."""
    page.goto(url, wait_until="commit")
    page.wait_for_function(READY, polling="raf", timeout=120_000)
    page.evaluate(LONG_TASKS)
    ready = page.evaluate("() => performance.now()")
    page.wait_for_function("() => !!(globalThis.cribbageStart && cribbageStart.made)", timeout=120_000)
    done = page.evaluate("() => performance.now()")
    made = page.evaluate("() => cribbageStart.made")
    tasks = page.evaluate("() => window.__longTasks")
    usage = page.evaluate("async () => (await navigator.storage.estimate()).usage")
    return {"made": made, "window": (ready, done), "long_tasks": tasks, "usage": usage}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="reloads of each context (default 5)")
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    args = parser.parse_args(argv)
    dist = Path(args.dist)
    key = snapshot_key(dist)

    from playwright.sync_api import sync_playwright

    server = serve.start(dist)
    with sync_playwright() as p:
        browser = chromium.launch(p)
        try:
            with_ctx = browser.new_context()
            without_ctx = browser.new_context()
            without_ctx.add_init_script(f"localStorage.setItem('cribbage-snapshot-refused', '{key}')")
            stale_ctx = browser.new_context()
            pages = {"with": with_ctx.new_page(), "without": without_ctx.new_page(), "stale": stale_ctx.new_page()}
            first = first_visit(pages["with"], server.url)
            first_visit(pages["stale"], server.url)
            pages["stale"].evaluate(STALE)
            pages["without"].goto(server.url, wait_until="commit")
            pages["without"].wait_for_function(READY, polling="raf", timeout=120_000)
            time.sleep(1.0)
            runs: dict[str, list[dict[str, Any]]] = {name: [] for name in pages}
            sessions = {}
            for name, page in pages.items():
                sessions[name] = page.context.new_cdp_session(page)
                sessions[name].send("Performance.enable")
            for _ in range(args.runs):
                for name, page in pages.items():
                    if name == "stale":  # after the worker the last normal start began
                        page.wait_for_function(STARTED_OR_MADE, timeout=120_000)
                        page.evaluate(STALE)
                    runs[name].append(reload(page, sessions[name]))
        finally:
            browser.close()
            server.shutdown()

    made = first["made"]
    start, end = first["window"]
    stalls = [d for t, d in first["long_tasks"] if start <= t <= end]
    print(f"bench_snapshot: {args.runs} interleaved reloads each, load average {os.getloadavg()[0]:.1f}")
    print(
        f"first visit: snapshot {'made' if made.get('ok') else 'FAILED: ' + str(made.get('error'))} in "
        f"{made.get('ms', 0) / 1000:.2f} s (worker, from ready + 2 s), a {made.get('bytes', 0) / 1e6:.1f} MB heap "
        "stored in "
        f"{made.get('stored', 0) / 1e6:.1f} MB; "
        f"origin storage {first['usage'] / 1e6:.1f} MB; main-thread long tasks meanwhile: "
        f"{len(stalls)} ({sum(stalls):.0f} ms, longest {max(stalls, default=0):.0f} ms)"
    )
    print("| | reload to ready (median) | min | max | main thread busy (median) | snapshot used |")
    print("|---|---|---|---|---|---|")
    for name, results in runs.items():
        ready = [r["ready"] / 1000 for r in results]
        busy = statistics.median(r["busy"] for r in results)
        used = sum(r["start"]["snapshot"] == "used" for r in results)
        print(
            f"| {LABELS[name]} | {statistics.median(ready):.3f} s | {min(ready):.3f} s | {max(ready):.3f} s | "
            f"{busy:.3f} s | {used}/{len(results)} |"
        )
    pairs = [(w["ready"] - o["ready"]) / 1000 for w, o in zip(runs["with"], runs["without"])]
    print(f"paired difference (with - without), median: {statistics.median(pairs):+.3f} s; "
          f"with faster in {sum(d < 0 for d in pairs)}/{len(pairs)} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())

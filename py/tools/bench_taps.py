"""Tap to next paint over a whole match against the expert (a benchmark, not a test): prints figures.

    python py/tools/bench_taps.py [--runs 3] [--dist dist] [--seed 5] [--trace] [--motion off] [--init FILE]

Serves the built ``dist/`` (``py/tools/build_site.py``; nothing is built here) with
``py/tools/serve.py`` and opens ``?delay=0&level=expert`` in headless Chromium, a fresh context
(a first visit) per run. Once ``<body data-ready="true">`` it plays the whole match by tapping like
a player (real mouse input through the browser, at a point where the control is on top): Hint at
every discard, two cards, *To crib*, a card tapped twice to lay it, *Go*, *Count*, *Next hand*, a
card of the fan to cut. Between taps it waits until the computer has moved and the page is quiet.

Measured in the page, from the table being ready to the end of the match:

- **tap to next paint**: Event Timing (``PerformanceObserver`` type ``event``, durationThreshold 16),
  one figure per tap: the longest entry of its interaction (pointerdown, pointerup, click), i.e.
  from the hardware timestamp to the next paint after the handlers ran (rounded to 8 ms by the
  browser). A tap with no entry took under 16 ms and counts as 16. A tap that moves a card draws
  the new table at once and copies of the moving pieces glide over it (compositor animations):
  its next paint is the new table, with motion or without (``--motion off``: nothing glides).
- **main-thread tasks**: every ``RunTask`` of the page's renderer main thread in a Chrome trace
  (category ``toplevel``), p99 and max; and each task over 50 ms with its cause: the Python
  handlers running inside it (``performance.measure`` entries ``py …`` that the page writes when
  ``window.__cribbageMarks`` is set: the action or timer, and the phases of drawing a frame) and
  the Long Animation Frame's script attribution (invoker).
- **where a tap's time goes** (median / p90 over the taps over 16 ms), from each tap's Event
  Timing entries: ``delay`` (hardware timestamp to the first handler), ``handlers`` (all its
  handlers), ``python`` (the Python handler, ``py click …``) with its phases ``scene`` (the seat's
  view and UI state), ``html`` (the markup of the frame) and ``dom`` (the keyed patch written into
  the page: ``py · region <key>`` for each region replaced, ``(focus)`` for moving the focus, which
  makes the browser compute style and layout at once), and ``to paint`` (from the last handler to
  the next paint: style, layout, paint, raster, compositing and waiting for the frame). With
  ``--trace`` also the main thread's ``style``, ``layout`` and ``paint`` and the raster workers'
  CPU time (``raster``) inside ``to paint``, and for each task over 50 ms what the main thread did
  in it (layout, garbage collection...). Tracing slows the page a little: headline figures come
  from runs without it.

With ``--trace`` also the **CPU time after ready** by thread (thread time of every top-level task:
the page's main thread, the raster workers, the compositor, Viz, the GPU process...): wall time
moves with the load of a shared machine, thread time much less, so compare these before/after.
Everything stops at the match's end (a ``bench-end`` mark): reading the figures out of the page
afterwards is a task of 100-600 ms of its own that no player meets (issue 17 once listed it as a
"no Python" long task near the end of the match). ``--init FILE`` adds an init script (the context
then bypasses the CSP), e.g. to try a change to the page without rebuilding it.

Prints the load average beside the figures: the machine is shared (2 cores, several helpers'
test suites beside it), and every figure here moves with it.

What the breakdown showed (issue 17; ``--trace``, load 4-10) and what was done about it:

- ``to paint`` was most of a tap: 50-200 ms after handlers of ~10 ms. The trace put it in software
  raster: every tap re-rasterised the felt's tiles under the changed cards, and each tile redrew
  the felt's 70 px inset shadow (a large blur): ~58 ms of raster CPU a tap. The shadow is now a
  composited layer of its own (``.felt::before``, ``static/style.css``), rasterised once: ~14 ms.
- The computer's move at ``?delay=0`` (a timer set by the tap) and its search slices ran before
  the tap's frame was committed: Chromium runs due timers ahead of a frame. ``BrowserHost.later``
  now holds zero-delay timers asked for while a frame is pending until that frame's animation
  frame has run (the commit follows it), so the computer starts ~1 ms after the commit.
- The computer's first move waited for its import even for a cut (a seeded draw, now made without
  it); the idle warm-up and the computer's first decision shared no work (one run now); the game
  over imported the record and chart modules (now in idle time) and the coach's review ran in
  25 ms slices (now 12).
- Python per tap is ~2-8 ms (scene 0.2, html 0.7, dom 2-6 of which region writes ~1-3 and the
  focus' forced style/layout); fewer calls into JavaScript (``#app``'s data-* set only when they
  change, a control's data-* read in one call) took a little off.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import chromium  # noqa: E402
import serve  # noqa: E402

OBSERVE = """
window.__cribbageMarks = true;
window.__bench = {events: [], loaf: [], long: [], ready: null};
(() => {
  const keep = (type, opts, fn) => {
    try { new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__bench[fn].push(e.toJSON())))
            .observe({type, buffered: true, ...opts}); } catch (e) {}
  };
  keep('event', {durationThreshold: 16}, 'events');
  keep('long-animation-frame', {}, 'loaf');
  keep('longtask', {}, 'long');
})();
"""
READY = "() => document.body.dataset.ready === 'true'"
MARK_READY = """() => { window.__bench.ready = performance.now(); performance.mark('bench-ready');
  console.timeStamp && console.timeStamp('bench-ready'); return performance.timeOrigin; }"""
# The next tap for the seat at the bottom, as [kind, x, y] (a point where the control is on top),
# or [state, 0, 0] when there is nothing to tap now ('wait', 'over').
PLAN = """(hinted) => {
  const app = document.getElementById('app');
  const d = app.dataset;
  if (d.phase === 'game over') return ['over', 0, 0];
  if (d.busy === 'true' || d.dialog) return ['wait', 0, 0];
  const point = (el) => {
    if (!el) return null;
    el.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    for (const fy of [0.5, 0.25, 0.75, 0.1, 0.9]) for (const fx of [0.5, 0.2, 0.8, 0.05, 0.95]) {
      const x = r.left + fx * r.width, y = r.top + fy * r.height;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest('[data-action]') === el) return [x, y];
    }
    return null;
  };
  const tap = (kind, el) => { const p = point(el); return p ? [kind, p[0], p[1]] : null; };
  const q = (s) => document.querySelector(s);
  if (d.phase === 'hand over') return tap('next', q('#btn-next')) || ['wait', 0, 0];
  if (d.turn !== 'me') return ['wait', 0, 0];
  const cuts = document.querySelectorAll('#table .fan-card.legal');
  if (cuts.length) return tap('cut', cuts[Math.floor(cuts.length / 2)]) || ['wait', 0, 0];
  if (d.phase === 'discard') {
    const hint = q('#tool-hint:not([aria-disabled])');
    if (hint && !hinted) return tap('hint', hint);
    const chosen = document.querySelectorAll('#table .hand-me .hand-card.selected').length;
    if (chosen < 2) return tap('select', q(`#table .hand-me .hand-card:not(.selected)`)) || ['wait', 0, 0];
    return tap('discard', q('#btn-discard:not([aria-disabled])')) || ['wait', 0, 0];
  }
  if (d.phase === 'play') {
    const go = q('#btn-go');
    if (go) return tap('go', go);
    const sel = q('#table .hand-me button.hand-card.selected:not([aria-disabled])');
    if (sel) return tap('play', sel) || ['wait', 0, 0];
    return tap('select', q('#table .hand-me button.hand-card:not([aria-disabled])')) || ['wait', 0, 0];
  }
  if (d.phase === 'show') return tap('count', q('#btn-count')) || ['wait', 0, 0];
  return ['wait', 0, 0];
}"""
MARK_END = """() => { performance.mark('bench-end'); console.timeStamp && console.timeStamp('bench-end'); }"""
QUIET = """() => new Promise((resolve) => {
  // Two frames after the last change: the tap's paint (and any computer reply's) is done.
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)));
})"""
COLLECT = """() => ({bench: window.__bench,
  measures: performance.getEntriesByType('measure').filter((m) => m.name.startsWith('py '))
    .map((m) => [m.name, m.startTime, m.duration])})"""


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


def play(page: Any, gap_ms: int, limit_s: float) -> list[tuple[str, float]]:
    """Tap through the match; return (kind, performance.now() just before the tap) per tap."""
    taps: list[tuple[str, float]] = []
    hinted_hand = None
    started = time.monotonic()
    while time.monotonic() - started < limit_s:
        hand = page.evaluate("() => document.getElementById('app').dataset.hand")
        kind, x, y = page.evaluate(PLAN, hinted_hand == hand)
        if kind == "over":
            break
        if kind == "wait":
            page.wait_for_timeout(15)
            continue
        if kind == "hint":
            hinted_hand = hand
        t = page.evaluate("() => performance.now()")
        page.mouse.click(x, y)
        taps.append((kind, t))
        page.wait_for_function("() => document.getElementById('app').dataset.busy === 'false'", timeout=30_000)
        page.evaluate(QUIET)
        page.wait_for_timeout(gap_ms)
    else:
        raise RuntimeError("the match did not finish in time")
    return taps


def tap_durations(events: list[dict[str, Any]], taps: list[tuple[str, float]]) -> list[tuple[str, float, float]]:
    """(kind, duration, start) per tap: the longest Event Timing entry of the tap's interaction."""
    out = []
    times = [t for _, t in taps] + [float("inf")]
    for i, (kind, t) in enumerate(taps):
        mine = [e for e in events if t <= e["startTime"] < times[i + 1] and e["interactionId"]
                and e["name"] in ("pointerdown", "pointerup", "click", "mousedown", "mouseup")]
        first = min((e["interactionId"] for e in mine), default=None)
        own = [e["duration"] for e in mine if e["interactionId"] == first]
        out.append((kind, max(own) if own else 16.0, t))
    return out


def trace_tasks(path: Path, ready_ts: float | None) -> tuple[list[tuple[float, float]], dict[str, Any]]:
    """(start µs, duration ms) of the page's main-thread RunTasks after the ready mark, and the trace."""
    data = json.loads(path.read_text())
    events = data["traceEvents"] if isinstance(data, dict) else data
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    # The page's renderer: the main thread that saw our ready mark.
    marks = [e for e in events if e.get("name") == "bench-ready" and (e["pid"], e["tid"]) in mains]
    if marks:
        mains = {(marks[0]["pid"], marks[0]["tid"])}
        ready_ts = marks[0]["ts"]
    # The end of the match (before the benchmark reads its figures out of the page: turning some
    # thousand entries into JSON is a task of its own, 100-600 ms, that no player meets).
    ends = [e["ts"] for e in events if e.get("name") == "bench-end" and (e["pid"], e["tid"]) in mains]
    end_ts = min(ends) if ends else float("inf")
    # "RunTask" with devtools.timeline, "ThreadControllerImpl::RunTask" with toplevel alone.
    names = {e.get("name") for e in events if e.get("ph") == "X"}
    name = "RunTask" if "RunTask" in names else "ThreadControllerImpl::RunTask"
    tasks = [(e["ts"], e["dur"] / 1000) for e in events
             if e.get("ph") == "X" and e.get("name") == name and (e["pid"], e["tid"]) in mains
             and (ready_ts is None or e["ts"] >= ready_ts) and e["ts"] < end_ts]
    return tasks, {"events": events, "mains": mains, "ready_ts": ready_ts, "end_ts": end_ts}


def tap_parts(events: list[dict[str, Any]], taps: list[tuple[str, float]],
              measures: list[list[Any]]) -> list[dict[str, float]]:
    """Where each tap's time went, from its Event Timing entries and the page's ``py`` measures.

    Per tap with an entry over 16 ms: ``delay`` (the hardware timestamp to the first handler),
    ``handlers`` (all the interaction's handlers: the click's Python and the JS around it),
    ``python`` (the Python handler itself, ``py click …``/``py key …``), its phases ``scene``,
    ``html`` and ``dom`` (the patch written into the page), and ``to paint`` (from the last handler
    to the next paint: style, layout, paint, raster and compositing, and waiting for a frame).
    """
    out = []
    times = [t for _, t in taps] + [float("inf")]
    for i, (_, t) in enumerate(taps):
        mine = [e for e in events if t <= e["startTime"] < times[i + 1] and e["interactionId"]]
        first = min((e["interactionId"] for e in mine), default=None)
        own = [e for e in mine if e["interactionId"] == first]
        if not own:
            out.append({})
            continue
        start = min(e["startTime"] for e in own)
        end = max(e["startTime"] + e["duration"] for e in own)
        last = max(e["processingEnd"] for e in own)
        inside = [m for m in measures if start <= m[1] <= last]
        part = {
            "delay": min(e["processingStart"] for e in own) - start,
            "handlers": sum(e["processingEnd"] - e["processingStart"] for e in own),
            "python": sum(m[2] for m in inside if not m[0].startswith("py \u00b7") and not m[0].startswith("py warm")),
            "to paint": max(0.0, end - last),
            "total": end - start,
            "_last": last, "_end": end,
        }
        for phase in ("scene", "html", "dom"):
            part[phase] = sum(m[2] for m in inside if m[0] == "py \u00b7 " + phase)
        out.append(part)
    return out


TRACED = {
    "style": ("UpdateLayoutTree", "RecalculateStyles"),
    "layout": ("Layout",),
    "paint": ("Paint", "PrePaint", "Layerize", "UpdateLayer", "Commit"),
}


def trace_parts(trace: dict[str, Any], parts: list[dict[str, float]], ready_now: float) -> None:
    """Add to each tap's parts what the trace saw from its last handler to its paint: the main
    thread's style, layout and paint (ms), the raster workers' CPU time (``raster``, ms of thread
    time: software raster runs on other threads but competes for the same two cores)."""
    events = [e for e in trace["events"] if e.get("ph") == "X" and "dur" in e]
    main = [e for e in events if (e["pid"], e["tid"]) in trace["mains"]]
    raster = [e for e in events if e.get("name") == "RasterTask"]
    shift = trace["ready_ts"]  # trace µs and performance.now() ms align on the ready mark
    if shift is None:
        return
    for part in parts:
        if not part:
            continue
        lo = shift + (part["_last"] - ready_now) * 1000
        hi = shift + (part["_end"] - ready_now) * 1000
        inside = [e for e in main if lo <= e["ts"] < hi]
        for key, names in TRACED.items():
            part[key] = sum(e["dur"] for e in inside if e["name"] in names) / 1000
        part["raster"] = sum(e.get("tdur", e["dur"]) for e in raster if lo <= e["ts"] < hi) / 1000


def _thread_group(name: str) -> str:
    """A thread's name without its number: CompositorTileWorker3 -> CompositorTileWorker."""
    return name.rstrip("0123456789").rstrip("/ ") or name


def trace_cpu(trace: dict[str, Any]) -> dict[str, float]:
    """CPU time (ms of thread time) of the top-level tasks of every thread after the ready mark,
    by thread (the page's main thread as ``main``, the raster workers, the compositor, Viz, the
    GPU process...). Wall time moves with the load of a shared machine; thread time much less."""
    events = trace["events"]
    ready_ts = trace["ready_ts"]
    names = {(e["pid"], e["tid"]): str(e["args"].get("name", "")) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    top = {"RunTask", "ThreadControllerImpl::RunTask", "ThreadPool_RunTask"}
    out: dict[str, float] = {}
    for e in events:
        if e.get("ph") != "X" or e.get("name") not in top or (ready_ts is not None and e["ts"] < ready_ts) \
                or e["ts"] >= trace["end_ts"]:
            continue
        key = (e["pid"], e["tid"])
        group = "main" if key in trace["mains"] else _thread_group(names.get(key, "?"))
        out[group] = out.get(group, 0.0) + e.get("tdur", e["dur"]) / 1000
    return out


WRAPPERS = {"RunTask", "ThreadControllerImpl::RunTask", "ThreadPool_RunTask", "RunMicrotasks", "TimerFire",
            "FunctionCall", "EventDispatch", "v8.callFunction", "V8.Execute", "v8.run", "FireAnimationFrame"}


def traced_inside(trace: dict[str, Any], ts: float, dur: float) -> str:
    """What the page's main thread did inside the task at ``ts`` (µs) lasting ``dur`` ms: the
    longest kinds of trace event in it (style, layout, paint, garbage collection, parsing...)."""
    if "main_x" not in trace:
        trace["main_x"] = [e for e in trace["events"] if e.get("ph") == "X" and "dur" in e
                           and (e["pid"], e["tid"]) in trace["mains"] and e["name"] not in WRAPPERS]
    totals: dict[str, float] = {}
    for e in trace["main_x"]:
        if ts <= e["ts"] < ts + dur * 1000:
            totals[e["name"]] = totals.get(e["name"], 0.0) + e["dur"] / 1000
    top = sorted(totals.items(), key=lambda kv: -kv[1])[:4]
    return ", ".join(f"{name} {ms:.0f}" for name, ms in top if ms >= 2)


def run_once(browser: Any, url: str, args: argparse.Namespace, trace_path: Path) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=bool(args.init))
    if args.reduced:
        context.new_page().close()
    page = context.new_page()
    if args.reduced:
        page.emulate_media(reduced_motion="reduce")
    page.add_init_script(OBSERVE)
    if args.init:
        page.add_init_script(Path(args.init).read_text())
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    categories = ["toplevel", "blink.user_timing"]
    if args.trace:
        categories += ["devtools.timeline", "disabled-by-default-devtools.timeline"]
    browser.start_tracing(page=page, path=str(trace_path), categories=categories)
    page.goto(url)
    page.wait_for_function(READY, timeout=90_000)
    page.evaluate(MARK_READY)
    ready_now = page.evaluate("() => window.__bench.ready")
    taps = play(page, args.gap, args.limit)
    page.wait_for_timeout(300)
    ended = page.evaluate("() => performance.now()")
    page.evaluate(MARK_END)
    data = page.evaluate(COLLECT)
    browser.stop_tracing()
    scores = page.evaluate("() => [...document.querySelectorAll('[data-seat-score]')].map(e => +e.textContent)")
    context.close()
    bench = data["bench"]
    ready = bench["ready"]
    durations = tap_durations([e for e in bench["events"] if e["startTime"] >= ready], taps)
    tasks, trace = trace_tasks(trace_path, None)
    measures = data["measures"]
    parts = tap_parts([e for e in bench["events"] if e["startTime"] >= ready], taps, measures)
    if args.trace:
        trace_parts(trace, parts, ready_now)
    loafs = [f for f in bench["loaf"] if f["startTime"] >= ready]
    ready_ts = trace["ready_ts"]
    long_tasks = []
    for ts, dur in tasks:
        if dur <= 50:
            continue
        start = ready + (ts - ready_ts) / 1000 if ready_ts is not None else 0.0
        py = [m for m in measures if start - 2 <= m[1] <= start + dur]
        frame = next((f for f in loafs if f["startTime"] - 2 <= start <= f["startTime"] + f["duration"]), None)
        scripts = [f'{s.get("invoker", "?")} {s["duration"]:.0f}' for s in (frame or {}).get("scripts", [])]
        cause = ", ".join(f"{m[0][3:]} {m[2]:.0f}" for m in py if not m[0].startswith("py ·")) or "no Python"
        phases = ", ".join(f"{m[0][5:]} {m[2]:.0f}" for m in py if m[0].startswith("py ·") and m[2] >= 2)
        inside = traced_inside(trace, ts, dur) if args.trace else ""
        long_tasks.append(
            (
                start,
                dur,
                cause + (f" [{phases}]" if phases else "") + (f" {{{inside}}}" if inside else ""),
                "; ".join(scripts),
            )
        )
    phases: dict[str, list[float]] = {}
    for name, start, duration in measures:
        if name.startswith("py \u00b7") and start >= ready:
            phases.setdefault(name[5:], []).append(duration)
    return {
        "taps": durations,
        "tasks": [d for _, d in tasks],
        "long": long_tasks,
        "parts": parts,
        "scores": scores,
        "errors": errors,
        "phases": phases,
        "ended": (ended - ready) / 1000,
        "ready": ready / 1000,
        "cpu": trace_cpu(trace) if args.trace else {},
    }


RASTER_THREADS = ("CompositorTileWorker", "ThreadPoolForegroundWorker")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--seed", type=int, default=5, help="the match's seed (the same deals every run)")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--gap", type=int, default=250, help="ms to wait after the page is quiet, between taps")
    parser.add_argument("--limit", type=float, default=900, help="seconds a match may take")
    parser.add_argument("--trace", action="store_true", help="also trace where a tap's time goes (slower)")
    parser.add_argument("--motion", default="", help="extra URL option, e.g. off: ?motion=off")
    parser.add_argument("--init", default="", help="an init script to add to the page (bypasses the CSP)")
    parser.add_argument("--reduced", action="store_true", help="emulate prefers-reduced-motion")
    parser.add_argument("--long", type=int, default=25, help="list at most this many tasks over 50 ms")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    if not (args.dist / "index.html").exists():
        print(f"{args.dist} has no index.html: run py/tools/build_site.py first", file=sys.stderr)
        return 2
    server = serve.start(args.dist)
    url = f"{server.url}?delay=0&level={args.level}&seed={args.seed}&mode=computer"
    if args.motion:
        url += f"&motion={args.motion}"
    results = []
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = chromium.launch(p)
        for run in range(args.runs):
            load_before = os.getloadavg()[0]
            res = run_once(browser, url, args, Path(tmp) / f"trace{run}.json")
            load_after = os.getloadavg()[0]
            res["load"] = (load_before, load_after)
            results.append(res)
            report(run + 1, res, args)
        browser.close()
    server.shutdown()
    if len(results) > 1:
        def med(key: Any) -> float:
            return statistics.median(key(r) for r in results)

        print(
            f"\nmedian of {len(results)} runs: tap to next paint median "
            f"{med(lambda r: statistics.median(d for _, d, _ in r['taps'])):.0f} ms, "
            f"p98 {med(lambda r: pct([d for _, d, _ in r['taps']], 98)):.0f} ms, worst "
            f"{med(lambda r: max(d for _, d, _ in r['taps'])):.0f} ms; "
            f"tasks p99 {med(lambda r: pct(r['tasks'], 99)):.0f} ms (of tasks over 5 ms "
            f"{med(lambda r: pct([t for t in r['tasks'] if t > 5], 99)):.0f} ms), max "
            f"{med(lambda r: max(r['tasks'] or [0])):.0f} ms, "
            f"over 50 ms {med(lambda r: len(r['long'])):.0f}"
            + (
                f"; CPU main {med(lambda r: r['cpu'].get('main', 0)):.0f} ms, raster "
                f"{med(lambda r: sum(r['cpu'].get(k, 0) for k in RASTER_THREADS)):.0f} ms, "
                f"Viz {med(lambda r: r['cpu'].get('VizCompositorThread', 0)):.0f} ms, all threads "
                f"{med(lambda r: sum(r['cpu'].values())):.0f} ms"
                if args.trace
                else ""
            )
            + f"; load average {min(r['load'][0] for r in results):.2f}–"
            f"{max(r['load'][1] for r in results):.2f}"
        )
    return 0


def report(run: int, res: dict[str, Any], args: argparse.Namespace) -> None:
    durations = [d for _, d, _ in res["taps"]]
    tasks = res["tasks"]
    big = [t for t in tasks if t > 5]
    print(
        f"run {run}: {len(durations)} taps, final score {res['scores']} (ready at {res.get('ready', 0):.1f} s, match "
        "over "
        f"{res.get('ready', 0) + res['ended']:.1f} s), load average "
        f"{res['load'][0]:.2f} → {res['load'][1]:.2f}"
    )
    print(f"  tap to next paint: median {statistics.median(durations):.0f} ms, p98 {pct(durations, 98):.0f} ms, "
          f"worst {max(durations):.0f} ms ({sum(1 for d in durations if d <= 16)} under 16 ms)")
    by_kind: dict[str, list[float]] = {}
    for kind, d, _ in res["taps"]:
        by_kind.setdefault(kind, []).append(d)
    print("  by tap: " + ", ".join(f"{k} {statistics.median(v):.0f} ({len(v)}, worst {max(v):.0f})"
                                   for k, v in sorted(by_kind.items())))
    print(f"  main-thread tasks after ready: {len(tasks)}, p99 {pct(tasks, 99):.0f} ms (of the {len(big)} over 5 ms: "
          f"p99 {pct(big, 99):.0f} ms), max {max(tasks or [0]):.0f} ms, over 50 ms: {len(res['long'])}")
    for start, dur, cause, scripts in sorted(res["long"], key=lambda x: -x[1])[:args.long]:
        print(f"    {dur:5.0f} ms at {start / 1000:6.1f} s: {cause}" + (f" | LoAF: {scripts}" if scripts else ""))
    print(
        "  drawing a frame (Python, ms): "
        + ", ".join(
            f"{k} median {statistics.median(v):.1f} p90 {pct(v, 90):.1f} ({len(v)})"
            for k, v in sorted(res["phases"].items())
        )
    )
    timed = [part for part in res["parts"] if part]
    if timed:
        print(f"  where a tap's time goes (the {len(timed)} taps over 16 ms; median / p90 ms):")
        keys = ["total", "delay", "handlers", "python", "scene", "html", "dom", "to paint", *TRACED, "raster"]
        print("    " + ", ".join(f"{k} {statistics.median(v):.1f} / {pct(v, 90):.1f}" for k in keys
                               if (v := [part[k] for part in timed if k in part])))
    if res["cpu"]:
        cpu = res["cpu"]
        shown = sorted(((k, v) for k, v in cpu.items() if v >= 50), key=lambda kv: -kv[1])
        print(f"  CPU after ready (thread time, ms): total {sum(cpu.values()):.0f}; "
              + ", ".join(f"{k} {v:.0f}" for k, v in shown))
    for e in res["errors"]:
        print("  page error:", e[:300])


if __name__ == "__main__":
    sys.exit(main())

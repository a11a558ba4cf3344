"""Online play in two real browsers over loopback (a benchmark, not a test): prints figures.

Two Chromium contexts open the built page, one creates a room from the menu, the other opens the
room link; they play ``--hands`` hands with the real group (NIST P-256) through a local PeerServer
(WebRTC on 127.0.0.1 only). Printed: a card laid shown on the other screen (median and p90 ms,
from the confirming click in one page to the card in the other page's pile), the characters sent
over the data channel per hand by both browsers together (ASCII: bytes), and the longest task of
either page's main thread (the deal's big-integer work runs in slices between frames), and the time
from the cut of a later hand to both hands dealt on both screens (its pack was proven in advance).

Each click is its own task, as a player's taps are (the two taps that pick two cards and the one
that lays them away were one task before, a long one no player makes). ``--chrome-trace FILE``
records a Chrome trace of both pages and prints the tasks over 50 ms with their *CPU* time split by
kind of work (Python, GC, style and layout, parsing: ``trace_tasks.py``): on this shared machine a
task's wall time is mostly time the page waited for a core (at load 7-12, 3-10 times its CPU time),
so CPU composition is what compares runs. ``--slice-ms N`` runs the deal in slices of N ms instead
of ``online.SLICE_MS``.

Run it inside a network namespace holding only ``lo`` (it re-runs itself there when it can):

    python py/tools/netns.py -- python py/tools/bench_online.py --hands 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import build_site  # noqa: E402
import chromium  # noqa: E402
import netns  # noqa: E402
import peerserver  # noqa: E402
import serve  # noqa: E402
import trace_tasks  # noqa: E402

POLL_S = 0.02
"""Between two looks at a page while a move travels: what is timed is timed inside the pages (their
clocks), so looking less often costs no precision, and each look is a task in both pages' browser
(a look every 5 ms took a share of the two cores the pages' own tasks then waited for)."""
IDLE_S = 0.05
"""Between two rounds when nobody could move (the pages are working)."""
NO_SNAPSHOT_WORKER = """(() => { const Real = window.Worker;
  window.Worker = function (url, options) {
    if (String(url).includes('snapshot-worker')) return {postMessage() {}, terminate() {}};
    return new Real(url, options); }; })();"""
"""An init script: the snapshot worker (static/loader.mjs) is never started (the page starts as usual)."""
INSTRUMENT = """() => {
  window.__long = []; window.__theirs = []; window.__longs = []; window.__phases = [];
  const now = () => performance.timeOrigin + performance.now();
  try { new PerformanceObserver((l) => l.getEntries().forEach((e) => {
          window.__long.push(e.duration);
          window.__longs.push([performance.timeOrigin + e.startTime, e.duration]); }))
          .observe({type: 'longtask', buffered: false}); } catch (e) {}
  // (and every long task since the page opened, buffered: those from the data channel opening on)
  window.__allLongs = [];
  try { new PerformanceObserver((l) => l.getEntries().forEach((e) => {
          window.__allLongs.push([performance.timeOrigin + e.startTime, e.duration]); }))
          .observe({type: 'longtask', buffered: true}); } catch (e) {}
  const app = document.getElementById('app');
  let phase = app.dataset.phase;
  new MutationObserver(() => {
    if (app.dataset.phase !== phase) { phase = app.dataset.phase; window.__phases.push([now(), phase]); }
  }).observe(app, {attributes: true, attributeFilter: ['data-phase']});
  let last = 0;
  new MutationObserver(() => {
    const n = document.querySelectorAll('#table .pile-slot.theirs').length;
    if (n > last) window.__theirs.push(Date.now());
    last = n;
  }).observe(document.getElementById('table'), {childList: true, subtree: true});
}"""
STEP = """async () => {
  // One click a task, as a player's taps are (two taps in one task would be one long task that no
  // player makes): the next click waits for a timer.
  const app = document.getElementById('app');
  const phase = app.dataset.phase, turn = app.dataset.turn;
  const q = (s) => document.querySelector(s);
  const tick = () => new Promise((r) => setTimeout(r, 0));
  const press = (e) => e.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
  const click = (s) => { const e = q(s); if (e) { press(e); return true; } return false; };
  if (phase === 'hand over') return click('#table [data-action="next-hand"]') ? ['next', 0] : ['', 0];
  if (turn !== 'me') return ['', 0];
  if (click('#table [data-action="go"]:not([aria-disabled])')) return ['go', 0];
  if (click('#table [data-action="count"]:not([aria-disabled])')) return ['count', 0];
  const cuts = document.querySelectorAll('#table [data-action="cut-pick"]');
  if (cuts.length) {
    const t0 = performance.timeOrigin + performance.now();
    press(cuts[Math.floor(cuts.length / 2)]);
    return ['cut', t0];
  }
  if (phase === 'discard') {
    if (!click('#hand-0')) return ['', 0];
    await tick();
    click('#hand-1');
    await tick();
    return [click('#table [data-action="discard"]') ? 'discard' : '', 0];
  }
  if (phase === 'play') {
    const card = q('#table button.hand-card:not([aria-disabled])');
    if (!card) return ['', 0];
    const id = card.id;
    press(card);
    await tick();
    const t0 = Date.now();
    return [click('#' + id) ? 'play' : '', t0];
  }
  return ['', 0];
}"""


def _spans(trace: list[tuple[float, str]]) -> list[tuple[float, float, str]]:
    """(start, end, name) of the traced spans ("save >" ... "save <"), and single events as (t, t, name)."""
    out: list[tuple[float, float, str]] = []
    open_: dict[str, tuple[float, str]] = {}
    for t, label in trace:
        if label.endswith(" >"):
            head = label[:-2]
            key = head.split(" ")[0]
            open_[key] = (t, head)
        elif label.endswith(" <"):
            key = label[:-2].split(" ")[0]
            if key in open_:
                start, head = open_.pop(key)
                out.append((start, t, head))
        else:
            out.append((t, t, label))
    return sorted(out)


def deal_steps(cuts: list[tuple[int, float]], traces: list[list[tuple[float, str]]],
               phases: list[list[list[Any]]], verbose: bool) -> list[float]:
    """Per later deal: the time from the pone's click on the pack to both pages showing their hands
    (each page's first "discard" phase), and where it went: printed per page and step."""
    deals: list[float] = []
    for n, (pone, t0) in enumerate(cuts):
        ends = []
        for ph in phases:
            seen = [t for t, name in ph if t >= t0 and name == "discard"]
            if seen:
                ends.append(seen[0])
        if len(ends) != 2:
            continue
        t1 = max(ends)
        deals.append(t1 - t0)
        sums: list[dict[str, float]] = [{}, {}]
        lines = []
        for i, trace in enumerate(traces):
            role = "pone  " if i == pone else "dealer"
            for start, end, name in _spans(trace):
                if start < t0 - 0.5 or start > t1 + 0.5:
                    continue
                kind = name.split(" ")[0] + (" " + name.split(" ")[1] if name.startswith("slice") else "")
                if end > start:
                    sums[i][kind] = sums[i].get(kind, 0.0) + (end - start)
                    lines.append((start, f"{start - t0:7.1f} ms  {role}  {name} ({end - start:.1f} ms)"))
                else:
                    lines.append((start, f"{start - t0:7.1f} ms  {role}  {name}"))
        print(f"  later deal {n + 1}: {t1 - t0:.0f} ms from the cut to both hands shown "
              f"(pone {ends[pone] - t0:.0f} ms, dealer {ends[1 - pone] - t0:.0f} ms)")
        for i in (pone, 1 - pone):
            role = "pone" if i == pone else "dealer"
            parts = ", ".join(f"{k} {v:.0f}" for k, v in sorted(sums[i].items(), key=lambda kv: -kv[1]))
            print(f"    {role}: {parts} (ms)")
        if verbose:
            for _, line in sorted(lines):
                print("     " + line)
    return deals


def split_long_tasks(longs: list[list[list[float]]], traces: list[list[tuple[float, str]]],
                     after: float, show: int = 3, before: float = float("inf")) -> tuple[float, float]:
    """Of the tasks over 50 ms after ``after``: the longest once its table redraws are taken out
    (online work), and the longest redraw inside one (the table's render, issue 17). The ``show``
    longest online parts are printed with the traced steps inside their task."""
    online_long = render_long = 0.0
    rows: list[tuple[float, float, str]] = []
    for page, (page_longs, trace) in enumerate(zip(longs, traces)):
        spans = _spans(trace)
        redraws = [(a, b) for a, b, name in spans if name.startswith("redraw") and b > a]
        for start, duration in page_longs:
            if start + duration < after or start >= before:
                continue
            end = start + duration
            inside = [min(b, end) - max(a, start) for a, b in redraws if a < end and b > start]
            rest = duration - sum(inside)
            online_long = max(online_long, rest)
            render_long = max(render_long, max(inside, default=0.0))
            steps = [f"{name} {b - a:.0f}" if b > a else name for a, b, name in spans
                     if start - 1 <= a <= end and name not in ("work", "resume") and (b > a + 1 or not
                                                                                      name.startswith("gc"))]
            rows.append((rest, duration, f"page {page + 1}: " + ", ".join(steps[:12])))
    for rest, duration, what in sorted(rows, reverse=True)[:show]:
        print(f"    task {duration:.0f} ms, {rest:.0f} ms of it outside redraws: {what or '(nothing traced)'}")
    return online_long, render_long


def first_packs(traces: list[list[tuple[float, str]]]) -> tuple[float, float] | None:
    """Seconds from the data channel opening (the first page to see it) to the first pack proven on
    both pages (the cut for deal) and to the second (the first hand): each page says ``ready`` for
    the pack it shuffled first, and hears it for the other."""
    opened = [t for trace in traces for t, label in trace if label == "channel open"]
    readies = [[t for t, label in trace if label in ("emit ready", "deliver ready")] for trace in traces]
    if not opened or any(len(r) < 2 for r in readies):
        return None
    t0 = min(opened)
    both = [max(r[i] for r in readies) for i in (0, 1)]
    for page, trace in enumerate(traces):
        sums: dict[str, float] = {}
        for start, end, name in _spans(trace):
            if t0 <= start <= both[1] and end > start:
                kind = " ".join(name.split(" ")[:3]) if name.startswith("slice") else name.split(" ")[0]
                sums[kind] = sums.get(kind, 0.0) + (end - start)
        first = min((t for t, label in trace if t >= t0 and label.startswith("slice")), default=t0)
        print(f"    page {page + 1} until then: first slice of work at {(first - t0) / 1000:.2f} s; "
              + ", ".join(f"{k} {v:.0f}" for k, v in sorted(sums.items(), key=lambda kv: -kv[1])) + " (ms)")
    return (both[0] - t0) / 1000, (both[1] - t0) / 1000


def step_summary(traces: list[list[tuple[float, str]]], after: float) -> list[tuple[str, float, float, int]]:
    """From ``after`` on, per kind of step (each slice of work by the job it ran, a save, a redraw):
    (kind, longest ms, median ms, count), the longest first; printed one a line."""
    times: dict[str, list[float]] = {}
    for trace in traces:
        for start, end, name in _spans(trace):
            if start < after or end <= start:
                continue
            words = name.split(" ")
            kind = " ".join(words[:4]) if words[0] == "slice" else words[0]
            times.setdefault(kind, []).append(end - start)
    rows = [(k, max(v), statistics.median(v), len(v)) for k, v in times.items()]
    rows.sort(key=lambda r: -r[1])
    for kind, longest, median, count in rows:
        print(f"    {kind:32s} longest {longest:6.1f} ms, median {median:5.1f} ms ({count})")
    return rows


MEASURES = """() => performance.getEntriesByType('measure').filter((m) => m.name.startsWith('py '))
  .map((m) => [m.name.slice(3), m.startTime, m.duration])"""


def print_marks(pages: list[Any]) -> None:
    """Each handler over 30 ms (the page's ``py`` measures, ``--marks``) with what it spent drawing."""
    print("  handlers over 30 ms (page, what, ms: the drawing's parts over 1 ms):")
    for n, page in enumerate(pages):
        measures = page.evaluate(MEASURES)
        for name, start, duration in measures:
            if duration <= 30 or name.startswith("\u00b7"):
                continue
            parts = [f"{inner[2:]} {d:.0f}" for inner, s, d in measures
                     if inner.startswith("\u00b7") and start <= s and s + d <= start + duration + 0.5 and d > 1]
            print(f"    page {n + 1} {name} {duration:.0f}: {', '.join(parts)}")


def pinned(playwright: Any, core: int) -> str:
    """An executable that starts Chromium with its every process on ``core`` (``taskset``)."""
    exe = chromium.SYSTEM_CHROMIUM if chromium.SYSTEM_CHROMIUM.exists() else playwright.chromium.executable_path
    wrapper = Path(f"/tmp/chromium-core{core}")
    wrapper.write_text(f'#!/bin/sh\nexec taskset -c {core} "{exe}" "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2, help="hands to play (default 2)")
    parser.add_argument("--test-group", action="store_true", help="the small test group instead of P-256")
    parser.add_argument("--screenshot", type=Path, help="save the host's table mid-hand here")
    parser.add_argument("--steps", action="store_true", help="print every step of each later deal (a timeline)")
    parser.add_argument("--dump", type=Path, help="write both pages' traces here (JSON: [[ms, label], ...] a page)")
    parser.add_argument("--slice-ms", type=int, help="the deal's slice budget in ms (default: online.SLICE_MS)")
    parser.add_argument("--chrome-trace", type=Path, help="record a Chrome trace of both pages (devtools.timeline, "
                        "v8) from the first pack on, write it here and print what the long tasks are made of")
    parser.add_argument("--devices", action="store_true", help="each page in a browser of its own pinned to a core "
                        "of its own (taskset), as two players' devices are: the two pages then do not take each "
                        "other's core; not with --chrome-trace")
    parser.add_argument("--marks", action="store_true", help="the page's own measures of each handler and of drawing "
                        "a frame (regions written, focus): printed for each handler over 30 ms")
    parser.add_argument("--trace-opening", action="store_true", help="with --chrome-trace: record from the friend's "
                        "page opening the room link on, and report the long tasks from the data channel opening")
    parser.add_argument("--no-snapshot-worker", action="store_true", help="the pages make no start-up snapshot "
                        "(no Worker): to see what that worker's CPU does to the pages' tasks")
    args = parser.parse_args()
    if args.trace_opening and not args.chrome_trace:
        parser.error("--trace-opening goes with --chrome-trace")
    if args.devices and args.chrome_trace:
        parser.error("--devices records no Chrome trace (one browser a page)")
    if not netns.isolated():
        if os.environ.get(netns.ERROR_ENV):
            print(f"cannot make a network namespace: {os.environ[netns.ERROR_ENV]}", file=sys.stderr)
            return 2
        return subprocess.call([sys.executable, str(HERE / "netns.py"), "--", sys.executable, *sys.argv])
    from playwright.sync_api import sync_playwright

    dist = ROOT / "dist"
    build_site.build(dist, quiet=True)
    signal = peerserver.start("127.0.0.1")
    site = serve.start(dist, signals=[signal.url])
    url = f"http://127.0.0.1:{site.server_address[1]}/?signal={signal.url}&delay=0&trace=1"
    if args.test_group:
        url += "&group=test"
    if args.slice_ms:
        url += f"&slice={args.slice_ms}"
    try:
        with sync_playwright() as p:
            flags = [*chromium.ARGS, "--allow-loopback-in-peer-connection"]
            browser = browsers = None
            if args.devices:
                browsers = [chromium.launch(p, args=flags, executable_path=pinned(p, core)) for core in (0, 1)]
            else:
                browser = chromium.launch(p, args=flags)
            pages = []
            for n in range(2):
                context = (browsers[n] if browsers else browser).new_context(permissions=["camera", "microphone"])
                if args.marks:
                    context.add_init_script("window.__cribbageMarks = true;")
                if args.no_snapshot_worker:
                    context.add_init_script(NO_SNAPSHOT_WORKER)
                page = context.new_page()
                page.on("console", lambda m: print("console:", m.type, m.text[:300]) if m.type == "error" else None)
                pages.append(page)
            host, guest = pages
            host.goto(url)
            host.wait_for_selector("body[data-ready=true]", timeout=60_000)
            host.click("#tool-menu")
            host.click("#new-mode-online")
            host.click("#btn-start")
            link = host.input_value("#room-link")
            if args.trace_opening:
                assert browser is not None
                browser.start_tracing(categories=trace_tasks.CATEGORIES)
            guest.goto(link)
            guest.wait_for_selector("body[data-ready=true]", timeout=60_000)
            for page in pages:
                page.wait_for_selector('#online[data-link="live"]', timeout=30_000)
                page.evaluate(INSTRUMENT)
            if args.chrome_trace:
                assert browser is not None
                if not args.trace_opening:
                    browser.start_tracing(categories=trace_tasks.CATEGORIES)
                # each page's clock in the trace (trace_tasks.page_threads)
                syncs = [float(page.evaluate(trace_tasks.SYNC, n)) for n, page in enumerate(pages)]
            latencies: list[float] = []
            cuts: list[tuple[int, float]] = []
            sent_at_hand: dict[int, int] = {}
            shot = False
            first_long = 0.0
            start = time.monotonic()
            while time.monotonic() - start < 600:
                hands = [int(pg.evaluate("() => document.getElementById('app').dataset.hand || '0'")) for pg in pages]
                total = sum(int(pg.evaluate("() => document.body.dataset.netSent || '0'")) for pg in pages)
                for h in set(hands):
                    if hands == [h, h]:
                        if h == 2 and h not in sent_at_hand:
                            first_long = max((max(pg.evaluate("() => window.__long") or [0]) for pg in pages))
                            for pg in pages:
                                pg.evaluate("() => { window.__long = []; }")
                        sent_at_hand.setdefault(h, total)
                if min(hands) > args.hands:
                    break
                moved = False
                for me, other in ((host, guest), (guest, host)):
                    before = me.evaluate("() => document.getElementById('app').dataset.phase")
                    kind, t0 = me.evaluate(STEP)
                    if kind:
                        moved = True
                    if kind == "cut" and before == "cut" and max(hands) >= 2:
                        # The pone cut the pack of a later hand (both accepted it before): until both
                        # pages show their six cards (timed inside the pages, see deal_steps). The pack
                        # was shuffled and proven during the hand before.
                        cuts.append((pages.index(me), t0))
                        deadline = time.monotonic() + 10
                        while time.monotonic() < deadline:
                            if all(pg.evaluate("() => document.getElementById('app').dataset.phase") == "discard"
                                   for pg in pages):
                                break
                            time.sleep(POLL_S)
                    if kind == "play":
                        deadline = time.monotonic() + 10
                        while time.monotonic() < deadline:
                            seen = [t for t in other.evaluate("() => window.__theirs") if t >= t0]
                            if seen:
                                latencies.append(seen[0] - t0)
                                break
                            time.sleep(POLL_S)
                        if args.screenshot and not shot:
                            host.screenshot(path=str(args.screenshot))
                            shot = True
                if not moved:
                    time.sleep(IDLE_S)
            traces = [[(float(t), label) for t, _, label in (e.partition(" ") for e in
                                                               pg.evaluate("() => window.__onlineTrace || []"))]
                      for pg in pages]
            if args.dump:
                args.dump.write_text(json.dumps(traces))
            if args.chrome_trace:
                assert browser is not None
                args.chrome_trace.write_bytes(browser.stop_tracing())
                args.chrome_trace.with_suffix(".syncs.json").write_text(json.dumps(syncs))
                opens = [t for trace in traces for t, label in trace if label == "channel open"]
                after = min(opens) - 100 if args.trace_opening and opens else 0.0
                trace_tasks.report(json.loads(args.chrome_trace.read_text()), traces, syncs=syncs, after=after)
            if args.marks:
                print_marks(pages)
            phases = [pg.evaluate("() => window.__phases") for pg in pages]
            longs = [pg.evaluate("() => window.__longs") for pg in pages]
            deals = deal_steps(cuts, traces, phases, verbose=args.steps)
            longest = max((max(pg.evaluate("() => window.__long") or [0]) for pg in pages), default=0.0)
            online_long, render_long = split_long_tasks(longs, traces, after=cuts[0][1] if cuts else 0.0)
            print("  each step from the first later cut on (both pages):")
            step_summary(traces, after=cuts[0][1] if cuts else 0.0)
            handler = [pg.evaluate("() => { const d = document.getElementById('app').dataset;"
                                   " return `${d.handlerMs || ''} (${d.handlerWhat || ''})`; }") for pg in pages]
            per_hand = [sent_at_hand[h + 1] - sent_at_hand[h] for h in sorted(sent_at_hand) if h + 1 in sent_at_hand
                        and h >= 1]
            group = "test group" if args.test_group else "P-256"
            where = "two browsers, one core each" if args.devices else "two pages of one browser sharing both cores"
            print(f"online, two Chromium pages over loopback ({where}), {group}, {args.hands} hands")
            if latencies:
                ordered = sorted(latencies)
                print(f"  card laid -> shown on the other screen: median {statistics.median(ordered):.0f} ms, "
                      f"p90 {ordered[int(0.9 * (len(ordered) - 1))]:.0f} ms ({len(ordered)} cards)")
            if deals:
                print(f"  cut of a later hand -> both hands dealt on both screens: median "
                      f"{statistics.median(deals):.0f} ms, max {max(deals):.0f} ms ({len(deals)} deals)")
            packs = first_packs(traces)
            if packs is not None:
                print(f"  data channel open -> a first pack proven on both pages {packs[0]:.2f} s, "
                      f"the first two (the cut for deal and the first hand) {packs[1]:.2f} s")
            if per_hand:
                print(f"  bytes sent per hand (both browsers): median {statistics.median(per_hand):,.0f} "
                      f"({', '.join(f'{b:,}' for b in per_hand)})")
            opened = min((t for trace in traces for t, label in trace if label == "channel open"), default=None)
            if opened is not None:
                everything = [pg.evaluate("() => window.__allLongs") for pg in pages]
                since = [(d, n + 1, (t - opened) / 1000) for n, page_longs in enumerate(everything)
                         for t, d in page_longs if t + d >= opened]
                worst = max(since, default=None)
                if since:
                    split_long_tasks(everything, traces, after=opened, show=5,
                                     before=cuts[0][1] if cuts else float("inf"))
                print("  from the data channel opening on (the key set-up included): "
                      + (f"{len(since)} main-thread tasks over 50 ms, the longest {worst[0]:.0f} ms "
                         f"(page {worst[1]}, at {worst[2]:+.2f} s)" if worst else "no main-thread task over 50 ms"))
            snaps = [pg.evaluate("() => { const s = globalThis.cribbageStart || {}; return [s.stops || 0, "
                                 "s.made ? Math.round(s.made.ms) : null, !!s.making]; }") for pg in pages]
            print("  start-up snapshot's worker (stopped while the page worked, ms to make, still making): "
                  + "; ".join(f"page {n + 1}: {st}, {ms}, {making}" for n, (st, ms, making) in enumerate(snaps)))
            print(f"  longest main-thread task (either page): hand 1 {first_long:.0f} ms, "
                  f"later hands {longest:.0f} ms; slowest handler: {handler} ms")
            print(
                f"  from the first later cut, tasks over 50 ms split: the longest without its table redraws "
                f"{online_long:.0f} ms (online work: proofs, saves, messages), the longest redraw {render_long:.0f} ms"
            )
            for b in browsers or [browser]:
                b.close()
    finally:
        site.shutdown()
        site.server_close()
        signal.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

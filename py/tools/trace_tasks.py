"""What the long tasks of a page are made of, from a Chrome trace (``bench_online.py --chrome-trace``).

The benchmark's own trace (``?trace=1``) times the Python steps of online play; a task is more than
those: the click's handler, JavaScript (the store's IndexedDB write, the data channel), garbage
collection, style and layout. Each task over 50 ms on a page's main thread is printed with its time
split by trace event (self time: an event's time minus its children's), and the Python steps inside
it. Also usable on its own: ``python py/tools/trace_tasks.py TRACE.json [STEPS.json]``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute", "toplevel",
              "blink.user_timing", "blink", "loading"]
"""Trace categories: the tasks, what ran in them (JavaScript, GC, style, layout, paint), user marks."""

SYNC = """(n) => { const m = performance.mark('trace-sync-' + n); return performance.timeOrigin + m.startTime; }"""
"""A mark on page ``n`` (0 or 1): its time on the benchmark's clock, returned; its trace time is in the trace."""

LONG_MS = 50.0
TASKS = ("RunTask", "ThreadControllerImpl::RunTask", "ThreadPool_RunTask")


def _events(trace: Any) -> list[dict[str, Any]]:
    return list(trace["traceEvents"] if isinstance(trace, dict) else trace)


def page_threads(events: list[dict[str, Any]]) -> dict[int, tuple[int, int, float]]:
    """page number -> (pid, tid of its main thread, trace µs of its sync mark)."""
    out: dict[int, tuple[int, int, float]] = {}
    for e in events:
        name = str(e.get("name", ""))
        if name.startswith("trace-sync-") and e.get("ph") in ("R", "I", "i", "n", "b", "X"):
            out[int(name.rsplit("-", 1)[1])] = (e["pid"], e["tid"], float(e["ts"]))
    return out


Span = tuple[float, float, float, str, dict[str, Any]]
"""(start µs, end µs, thread CPU µs, name, args) of a trace event."""


def _complete(events: list[dict[str, Any]], pid: int, tid: int) -> list[Span]:
    """The thread's events, B/E pairs joined; CPU time from ``tdur`` (the wall time where absent)."""
    out: list[Span] = []
    stack: list[dict[str, Any]] = []
    for e in sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid), key=lambda e: e["ts"]):
        ph = e.get("ph")
        if ph == "X":
            dur = float(e.get("dur", 0))
            out.append((float(e["ts"]), float(e["ts"]) + dur, float(e.get("tdur", dur)), str(e["name"]),
                        e.get("args", {})))
        elif ph == "B":
            stack.append(e)
        elif ph == "E" and stack:
            b = stack.pop()
            cpu = float(e["tts"]) - float(b["tts"]) if "tts" in e and "tts" in b else float(e["ts"]) - float(b["ts"])
            out.append((float(b["ts"]), float(e["ts"]), cpu, str(b["name"]), b.get("args", {})))
    out.sort(key=lambda r: (r[0], -r[1]))
    return out


KINDS = (
    ("gc", ("GC", "Scavenge", "MinorMS", "Major concurrent", "BlinkGC", "Oilpan", "CppGC")),
    ("style+layout", ("Style", "Layout", "recalcStyle", "updateStyle", "Shape", "PrePaint", "Paint", "Layerize",
                      "Hit", "ScrollAnchor", "IntersectionObserver", "UpdateLayoutTree", "performLayout")),
    ("view transition", ("ViewTransition", "view_transition")),
    ("serialize", ("Serialized", "StructuredClone", "PostMessage", "IndexedDB", "IDB")),
    ("html parse", ("ParseHTML", "Tokenizer", "HTMLDocumentParser", "innerHTML", "Fragment")),
    ("script (python)", ("v8.callFunction", "FunctionCall", "TimerFire", "EventDispatch", "V8.Execute",
                         "v8.run", "RunMicrotasks", "FireAnimationFrame", "v8.compile", "V8.Compile",
                         "EvaluateScript", "wasm", "Wasm")),
)


def kind_of(name: str) -> str:
    for kind, words in KINDS:
        if any(w in name for w in words):
            return kind
    return "other"


def self_times(spans: list[Span], task: Span) -> dict[str, float]:
    """Self CPU time (ms) by kind of event (:data:`KINDS`), of the events nested in ``task``."""
    start, end = task[0], task[1]
    inside = [s for s in spans if s[0] >= start and s[1] <= end and s is not task]
    totals: dict[str, float] = {}
    stack: list[list[Any]] = []  # [end, own cpu left, kind]

    def close(until: float) -> None:
        while stack and stack[-1][0] <= until:
            e, own, kind = stack.pop()
            totals[kind] = totals.get(kind, 0.0) + max(0.0, own) / 1000

    for s0, s1, cpu, name, _ in inside:
        close(s0)
        if stack:
            stack[-1][1] -= cpu
        stack.append([s1, cpu, kind_of(name)])
    close(float("inf"))
    totals["(task itself)"] = max(0.0, task[2] / 1000 - sum(totals.values()))
    return totals


Row = tuple[int, float, float, float, dict[str, float], str]
"""(page, start on the benchmark's clock ms, wall ms, CPU ms, CPU by kind, the Python steps inside)."""


def long_tasks(trace: Any, syncs: list[float], steps: list[list[tuple[float, str]]] | None = None,
               after: float = 0.0, long_ms: float = LONG_MS) -> list[Row]:
    """The pages' outermost main-thread tasks over ``long_ms`` of wall time after ``after``, longest
    CPU time first."""
    events = _events(trace)
    rows: list[Row] = []
    for page, (pid, tid, mark) in sorted(page_threads(events).items()):
        offset = syncs[page] - mark / 1000 if page < len(syncs) else 0.0  # bench ms = trace µs / 1000 + offset
        spans = _complete(events, pid, tid)
        last_end = -1.0
        for span in spans:
            s0, s1, cpu, name, _ = span
            if name not in TASKS or s0 < last_end:
                continue  # a task nested in the one before (RunTask inside ThreadControllerImpl::RunTask)
            last_end = s1
            if (s1 - s0) / 1000 < long_ms:
                continue
            t0, t1 = s0 / 1000 + offset, s1 / 1000 + offset
            if t0 < after:
                continue
            said = ""
            if steps is not None and page < len(steps):
                said = ", ".join(label for t, label in steps[page] if t0 - 0.5 <= t <= t1 + 0.5 and
                                 label not in ("work",) and not label.startswith("gc"))
            rows.append((page, t0, t1 - t0, cpu / 1000, self_times(spans, span), said))
    rows.sort(key=lambda r: -r[3])
    return rows


def report(trace: Any, steps: list[list[tuple[float, str]]], after: float = 0.0, syncs: list[float] | None = None,
           show: int = 8) -> list[Row]:
    """Print the tasks over 50 ms (wall): how many, those over 50 ms of CPU, and the ``show`` longest
    in CPU time split by kind of work."""
    rows = long_tasks(trace, syncs or [], steps, after)
    over = [r for r in rows if r[3] >= LONG_MS]
    print(f"  Chrome trace: {len(rows)} main-thread tasks over {LONG_MS:.0f} ms of wall time, {len(over)} of them "
          f"over {LONG_MS:.0f} ms of CPU time; the longest in CPU (ms by kind of work):")
    for page, _t0, wall, cpu, parts, said in rows[:show]:
        top = sorted(parts.items(), key=lambda kv: -kv[1])
        print(f"    page {page + 1} task {wall:.0f} ms wall, {cpu:.0f} ms CPU: "
              + ", ".join(f"{k} {v:.1f}" for k, v in top if v >= 0.5))
        if said:
            print(f"      python steps: {said[:300]}")
    return rows


def main() -> int:
    trace = json.loads(Path(sys.argv[1]).read_text())
    steps = json.loads(Path(sys.argv[2]).read_text()) if len(sys.argv) > 2 else None
    syncs = json.loads(Path(sys.argv[3]).read_text()) if len(sys.argv) > 3 else []
    report(trace, steps or [], syncs=syncs, show=20)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

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

``--browser`` measures the same in the browser, with the page's real store: two Chromium pages play a
whole match online (P-256 unless ``--test-group``; a local PeerServer, inside a network namespace
holding only ``lo``: it re-runs itself there, as bench_online.py does), twice: once as the page saves
now (``log``: :meth:`RoomLog.save`), once with the save of format 1 put back (``whole``: the record
built whole and, when it differs from the last one written, written whole under the room's key, as
``peer.py`` did before the log; the page reads that format as before). A Python snippet added to each
page (a ``<script type="py">``, which PyScript runs in the page's own interpreter) wraps
:meth:`RoomLog.save` and times, in Pyodide, each save that writes: the Python work and the
synchronous part of ``window.cribbageStore.set`` (its in-memory copy; the IndexedDB transaction runs
after the task), and the characters written; and, per save, the time until the store says it is on
disk (``whenDurable``: what a send waits for); and each IndexedDB ``put`` of a room's key (an init
script: the value is cloned then, on the main thread, in a microtask after the save's task). At the
end, the room record's size in the store. On a machine busy with other work two matches do not
compare well (each has its own load); ``--modes paired`` plays one match in which every call of the
page's save makes both saves, in turn first: the log's (the page's own, under the room's key) and the
whole record (under ``cribbage.bench-whole.ROOM``, a key no room reads), so the load of the moment
falls on both alike.

    python py/tools/netns.py -- python py/tools/bench_room_save.py --browser [--test-group]
                                [--modes log,whole|paired] [--json FILE]
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
    ap.add_argument("--browser", action="store_true", help="in two Chromium pages (Pyodide, the real store)")
    ap.add_argument("--test-group", action="store_true", help="with --browser: the small test group, not P-256")
    ap.add_argument("--modes", default="log,whole",
                    help="with --browser: log, whole, paired, comma-separated (default log,whole)")
    args = ap.parse_args()
    if args.browser:
        sys.exit(browser_main(args))

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


PATCH = """
import json
import time

from js import window
from web.sessions.online import room_log

MODE = "%s"
if getattr(room_log.RoomLog, "_bench_real", None) is None:
    room_log.RoomLog._bench_real = room_log.RoomLog.save
_real = room_log.RoomLog._bench_real
window.__saves = window.Array.new()
window.__durable = window.Array.new()


def _whole(self, head, link, game):
    # the save of format 1, as peer.py made it before the room log
    text = json.dumps(head, ensure_ascii=True)
    record = f'{text[:-1]}, "link": {link.to_json()}, "game": {game.to_json()}}}'
    if record == getattr(self, "_bench_whole", None):
        return False
    self.storage.set(self.key, record)
    self._bench_whole = record
    return True


def _counter(storage):
    if getattr(storage, "_bench_count", None) is None:
        storage._bench_count = [0]
        inner = storage.set

        def counted(key, value):
            storage._bench_count[0] += len(value)
            inner(key, value)

        storage.set = counted
    return storage._bench_count


def _timed(self, head, link, game):
    count = _counter(self.storage)
    before = count[0]
    t0 = time.perf_counter()
    wrote = (_real if MODE == "log" else _whole)(self, head, link, game)
    t1 = time.perf_counter()
    if wrote:
        n = window.__saves.length
        size = sum(len(self.storage.get(k) or "") for k in self.storage.keys()
                   if k == self.key or k.startswith(self.key + ".log."))
        window.__saves.push(f"{(t1 - t0) * 1000:.3f} {count[0] - before} {size}")
        self.storage.when_durable(lambda: window.__durable.push(f"{n} {(time.perf_counter() - t0) * 1000:.3f}"))
    return wrote


_calls = [0]
window.__paired = window.Array.new()


def _paired(self, head, link, game):
    # both saves of every call, in turn first: the log's (the page's own) and the whole record of
    # format 1 written under a key of its own (the load of the moment falls on both alike)
    count = _counter(self.storage)
    shadow = _Shadow(self)
    _calls[0] += 1
    order = (0, 1) if _calls[0] %% 2 else (1, 0)
    ms, chars, wrote = [0.0, 0.0], [0, 0], [False, False]
    for which in order:
        before = count[0]
        t0 = time.perf_counter()
        wrote[which] = _real(self, head, link, game) if which == 0 else _whole(shadow, head, link, game)
        ms[which] = (time.perf_counter() - t0) * 1000
        chars[which] = count[0] - before
    window.__paired.push(f"{ms[0]:.3f} {int(wrote[0])} {chars[0]} {ms[1]:.3f} {int(wrote[1])} {chars[1]}")
    if wrote[0]:
        size = sum(len(self.storage.get(k) or "") for k in self.storage.keys()
                   if k == self.key or k.startswith(self.key + ".log."))
        window.__saves.push(f"{ms[0]:.3f} {chars[0]} {size}")
    return wrote[0]


class _Shadow:
    # what _whole needs of a RoomLog, writing under "cribbage.bench-whole.ROOM" (no room's key)
    def __init__(self, log):
        self.storage = log.storage
        self.key = "cribbage.bench-whole." + log.key.rpartition(".")[2]
        self._bench_whole = getattr(log, "_bench_shadow", None)
        self._log = log

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name == "_bench_whole" and "_log" in self.__dict__:
            self._log._bench_shadow = value


room_log.RoomLog.save = _paired if MODE == "paired" else _timed
window.document.body.dataset.benchPatched = MODE
"""
"""Python added to a page (``<script type="py">``: PyScript runs it in the page's interpreter): every
save of the room timed (``window.__saves``: "ms chars-written record-size", ``window.__durable``:
"index ms-until-on-disk"); ``%s`` the mode (``log`` or ``whole``)."""

IDB_PUT = """(() => {
  window.__idbPut = [];
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (value, key) {
    const t0 = performance.now();
    const request = put.apply(this, arguments);
    if (typeof key === 'string' && key.startsWith('cribbage.online.room'))
      window.__idbPut.push([performance.now() - t0, typeof value === 'string' ? value.length : 0]);
    return request;
  };
})();"""
"""An init script: each IndexedDB ``put`` of a room's key (``static/store.js`` makes them in a microtask
after the save's task: the value is cloned then, on the main thread) timed, with its length."""

INJECT = """(code) => { const s = document.createElement('script'); s.type = 'py'; s.textContent = code;
  document.body.appendChild(s); }"""


def _patch(page, mode: str) -> None:  # type: ignore[no-untyped-def]
    page.evaluate(INJECT, PATCH % mode)
    page.wait_for_function(f"() => document.body.dataset.benchPatched === '{mode}'", timeout=20_000)


def _match(browser, url: str, mode: str, step: str, snapshot: str) -> dict:  # type: ignore[no-untyped-def,type-arg]
    """One whole match in two fresh contexts, the saves of both pages timed in ``mode``."""
    pages, contexts = [], []
    for _ in range(2):
        context = browser.new_context(permissions=["camera", "microphone"])
        context.add_init_script(snapshot)
        context.add_init_script(IDB_PUT)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: print("console:", m.type, m.text[:300], flush=True) if m.type == "error" else None)
        pages.append(page)
    host, guest = pages
    host.goto(url)
    host.wait_for_selector("body[data-ready=true]", timeout=90_000)
    _patch(host, mode)
    host.click("#tool-menu")
    host.click("#new-mode-online")
    host.click("#btn-start")
    link = host.input_value("#room-link")
    guest.goto(link)
    guest.wait_for_selector("body[data-ready=true]", timeout=90_000)
    _patch(guest, mode)  # (a save or two of the guest's before this are not timed)
    started = time.monotonic()
    for page in pages:
        page.wait_for_selector('#online[data-link="live"]', timeout=45_000)
    phases = ""
    told = started
    while True:
        phases = "/".join(p.evaluate("() => document.getElementById('app').dataset.phase || ''") for p in pages)
        if time.monotonic() - told > 30:
            told = time.monotonic()
            hands = "/".join(p.evaluate("() => document.getElementById('app').dataset.hand || ''") for p in pages)
            print(f"  {mode}: {told - started:.0f} s, hand {hands}, {phases}", flush=True)
        if phases == "game over/game over":
            break
        if time.monotonic() - started > 900:
            raise RuntimeError(f"the match did not end in 15 minutes ({phases})")
        if not any([host.evaluate(step), guest.evaluate(step)]):
            time.sleep(0.03)
    took = time.monotonic() - started
    for page in pages:  # the result's last messages, and their saves
        page.wait_for_function("() => document.body.textContent.includes('The result is verified')", timeout=60_000)
    time.sleep(2)
    out = {"match_s": round(took, 1), "pages": []}
    for page in pages:
        saves = [line.split() for line in page.evaluate("() => Array.from(window.__saves)")]
        durable = dict(line.split() for line in page.evaluate("() => Array.from(window.__durable)"))
        out["pages"].append({
            "ms": [float(s[0]) for s in saves], "chars": [int(s[1]) for s in saves],
            "size": int(saves[-1][2]) if saves else 0,
            "durable_ms": [float(durable[str(i)]) for i in range(len(saves)) if str(i) in durable],
            "store_backend": page.evaluate("() => window.cribbageStore.backend"),
            "idb_puts": page.evaluate("() => window.__idbPut"),
            "paired": [line.split() for line in page.evaluate("() => Array.from(window.__paired)")],
        })
    for context in contexts:
        context.close()
    return out


def _paired_row(run: dict) -> dict:  # type: ignore[type-arg]
    """The figures of a ``paired`` run: per call of the page's save, both saves timed in turn."""
    rows = [r for page in run["pages"] for r in page["paired"]]
    log_ms = [float(r[0]) for r in rows if r[1] == "1"]  # the page's saves that wrote
    whole_ms = [float(r[3]) for r in rows if r[4] == "1"]
    diff = [float(r[3]) - float(r[0]) for r in rows if r[1] == "1"]
    return {
        "calls": len(rows), "match_s": run["match_s"],
        "log_saves": len(log_ms), "log_ms_median": round(statistics.median(log_ms), 2),
        "log_ms_p90": round(_pct(log_ms, 0.9), 2), "log_ms_total": round(sum(log_ms)),
        "whole_saves": len(whole_ms), "whole_ms_median": round(statistics.median(whole_ms), 2),
        "whole_ms_p90": round(_pct(whole_ms, 0.9), 2), "whole_ms_total": round(sum(whole_ms)),
        "whole_minus_log_ms_median": round(statistics.median(diff), 2),
        "log_chars_total": sum(int(r[2]) for r in rows), "whole_chars_total": sum(int(r[5]) for r in rows),
        "end_record_chars": [page["size"] for page in run["pages"]],
    }


def browser_main(args: argparse.Namespace) -> int:
    import os
    import subprocess

    tools = ROOT / "py" / "tools"
    sys.path[:0] = [str(tools), str(ROOT / "tests" / "browser"), str(ROOT / "tests" / "online")]
    import build_site
    import chromium
    import netns
    import peerserver
    import serve
    from bench_connect import LOOPBACK_FLAG, no_snapshot_script

    if not netns.isolated():
        if os.environ.get(netns.ERROR_ENV):
            print(f"cannot make a network namespace: {os.environ[netns.ERROR_ENV]}", file=sys.stderr)
            return 2
        return subprocess.call([sys.executable, str(tools / "netns.py"), "--", sys.executable, *sys.argv])
    from playwright.sync_api import sync_playwright
    from test_online_play import STEP

    dist = ROOT / "dist"
    build_site.build(dist, quiet=True)
    signal = peerserver.start("127.0.0.1")
    site = serve.start(dist, signals=[signal.url])
    url = f"http://127.0.0.1:{site.server_address[1]}/?signal={signal.url}&delay=0"
    if args.test_group:
        url += "&group=test"
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    results: dict = {"date": started, "group": "test" if args.test_group else "P-256"}  # type: ignore[type-arg]
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p, args=[*chromium.ARGS, LOOPBACK_FLAG])
            for mode in args.modes.split(","):
                run = _match(browser, url, mode, STEP, no_snapshot_script(dist))
                if mode == "paired":
                    results[mode] = row = _paired_row(run)
                    print(f"{mode}:")
                    for k, v in row.items():
                        print(f"  {k:20} {v}")
                    continue
                ms = [v for page in run["pages"] for v in page["ms"]]
                chars = [v for page in run["pages"] for v in page["chars"]]
                durable = [v for page in run["pages"] for v in page["durable_ms"]]
                puts = [put for page in run["pages"] for put in page["idb_puts"]]
                row = {
                    "saves": len(ms), "match_s": run["match_s"],
                    "ms_median": round(statistics.median(ms), 2), "ms_p90": round(_pct(ms, 0.9), 2),
                    "ms_max": round(max(ms), 2), "ms_total": round(sum(ms)),
                    "chars_median": int(statistics.median(chars)), "chars_p90": _pct(chars, 0.9),
                    "chars_total": sum(chars),
                    "durable_ms_median": round(statistics.median(durable), 1) if durable else None,
                    "durable_ms_p90": round(_pct(durable, 0.9), 1) if durable else None,
                    "idb_puts": len(puts), "idb_put_ms_total": round(sum(t for t, _ in puts)),
                    "idb_put_ms_median": round(statistics.median(t for t, _ in puts), 2) if puts else None,
                    "idb_put_ms_p90": round(_pct([t for t, _ in puts], 0.9), 2) if puts else None,
                    "idb_put_chars_total": sum(n for _, n in puts),
                    "end_record_chars": [page["size"] for page in run["pages"]],
                    "store": run["pages"][0]["store_backend"],
                }
                results[mode] = row
                print(f"{mode}:")
                for k, v in row.items():
                    print(f"  {k:20} {v}")
            browser.close()
    finally:
        site.shutdown()
        signal.stop()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    main()

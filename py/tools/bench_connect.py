#!/usr/bin/env python3
"""Online: the time to connect, per signalling path (a benchmark, not a test): prints figures.

    python py/tools/netns.py -- python py/tools/bench_connect.py [--runs 5] [--paths peerjs,nostr,both,turn]
                                                                 [--json FILE]

(it re-runs itself inside a network namespace holding only ``lo`` when it can, as bench_online.py does).

Each run opens a room in one fresh browser context (the host: menu, Online, Start) and, once the host is
registered on the path under test, opens the room link in another fresh context (the guest, as a
friend's browser opens it), then waits until both seats show the live table. The paths, everything on
127.0.0.1 inside the namespace:

- ``peerjs``: the local PeerServer (py/tools/peerserver.py) only (no Nostr relay is named);
- ``nostr``: a PeerServer started and stopped again (its URL refuses connections, as the public one
  did in its outages) and the local Nostr relay (py/tools/nostr_relay.py) named by the
  ``cribbage-nostr-relays`` meta, as a site owner names relays;
- ``both``: the live PeerServer and the relay (the guest tries PeerJS first and Nostr
  ``NOSTR_AFTER_MS`` = 3 s later if the host has not answered: static/net.js); which path won is
  printed;
- ``turn``: the live PeerServer, and every candidate through a local coturn (Debian's ``turnserver``)
  given by the ``cribbage-ice-servers`` meta with ``cribbage-ice-policy`` = ``relay``
  (iceTransportPolicy "relay"); the selected candidate pair (getStats) is printed.

What is timed, inside the pages on the clock every page of the browser shares (``timeOrigin + now``):
from the guest's page being ready (``body[data-ready]``, Python started: the moment a friend can
look at the page) to

- ``channel``: the data channel open on both pages (``cribbageNet.status().channel``): what the
  signalling path and ICE cost;
- ``live``: both seats showing the live table (``#online[data-link="live"]``): the channel plus the
  seat proofs over it (each page proves it holds the room secret, bound to the channel's DTLS
  fingerprints), what a player waits for; the headline figure.

The guest page starts calling as it starts, so a path that is quick may open the channel before the
page says it is ready: such a figure is negative (it is printed as it is). Paths are taken in turn
within a round (peerjs, nostr, both, turn, then again), so a change in the machine's load falls on
every path alike. Median and p90 (nearest rank: with 5 runs, the slowest) per path. Loopback only:
no network latency, no NAT, no real relay's queue; what it shows is the glue's own cost and the
fixed waits of each path, not what two homes on the internet see.

:func:`measure` is one run (the test tests/online/test_bench_connect.py runs it once);
:class:`Rig` starts and stops the servers.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import build_site  # noqa: E402
import chromium  # noqa: E402
import netns  # noqa: E402
import nostr_relay  # noqa: E402
import peerserver  # noqa: E402
import serve  # noqa: E402

PATHS = ("peerjs", "nostr", "both", "turn")
LOOPBACK_FLAG = "--allow-loopback-in-peer-connection"
TURN_USER, TURN_PASSWORD, TURN_REALM = "cribbage", "a-long-random-password", "cribbage.test"
READY_MS = 90_000
"""A page's start (Pyodide and the game) on a busy machine: not timed, only waited for."""
CONNECT_MS = 45_000
"""From the guest's page ready to both seats live: a run that takes longer is a failure."""

MARKS = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  const marks = window.__connectMarks = {load: performance.timeOrigin};
  const check = () => {
    const body = document.body;
    if (!body) return;
    if (!marks.ready && body.dataset.ready === 'true') marks.ready = now();
    if (!marks.channel && window.cribbageNet) {
      try {
        const s = JSON.parse(window.cribbageNet.status());
        if (s.channel === 'open') { marks.channel = now(); marks.path = s.path; }
      } catch (e) {}
    }
    const online = document.getElementById('online');
    if (!marks.live && online && online.dataset.link === 'live') marks.live = now();
    // the link's sentence for a channel whose DTLS fingerprints could not be read (no seat provable on it)
    if (!marks.unbound && !marks.live && online && online.textContent.includes('security fingerprints'))
      marks.unbound = now();
  };
  const timer = setInterval(() => { check(); if (marks.live && marks.channel) clearInterval(timer); }, 5);
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver(check).observe(document.body, {attributes: true, subtree: true,
                                                         attributeFilter: ['data-ready', 'data-link']});
  });
})();"""
"""An init script of every page: when it was ready, when its data channel opened (and by which
path), when its table went live; in ``window.__connectMarks``."""


def no_snapshot_script(dist: Path) -> str:
    """An init script that marks this build's start-up snapshot as refused (static/loader.mjs), as
    tests/online/net_harness.py does: a page making a snapshot in the background (a second Pyodide)
    would take a core from the connection being timed."""
    loader = (dist / "static" / "loader.mjs").read_text()
    found = re.search(r'const SNAPSHOT_KEY = "(\w*)";', loader)
    key = found.group(1) if found else ""
    return f"try {{ localStorage.setItem('cribbage-snapshot-refused', {json.dumps(key)}); }} catch (e) {{}}"


def metas_script(metas: dict[str, str]) -> str:
    """An init script: the page's site-config metas set as a site owner writes them in index.html
    (each must be there and empty as built), before net.js reads them."""
    return f"""document.addEventListener("DOMContentLoaded", () => {{
      for (const [name, value] of Object.entries({json.dumps(metas)})) {{
        const meta = document.querySelector('meta[name="' + name + '"]');
        if (!meta || meta.getAttribute("content") !== "") throw new Error("no empty " + name + " meta");
        meta.setAttribute("content", value);
      }}
    }});"""


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Coturn:
    """A coturn process on 127.0.0.1 with one long-term credential (as tests/online/test_online_turn.py)."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"turn:127.0.0.1:{self.port}?transport=udp"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()


def start_coturn() -> Coturn:
    binary = shutil.which("turnserver")
    if binary is None:
        raise RuntimeError("coturn is not installed (apt-get install coturn)")
    port = free_udp_port()
    folder = Path(tempfile.mkdtemp(prefix="coturn-"))
    log = folder / "turn.log"
    process = subprocess.Popen(
        [binary, "-n", "--listening-ip", "127.0.0.1", "--relay-ip", "127.0.0.1", "--listening-port", str(port),
         "--min-port", "49160", "--max-port", "49400", "--lt-cred-mech", "--user", f"{TURN_USER}:{TURN_PASSWORD}",
         "--realm", TURN_REALM, "--fingerprint", "--no-tls", "--no-dtls", "--no-cli", "--allow-loopback-peers",
         "--pidfile", str(folder / "turn.pid"), "--log-file", str(log), "--simple-log", "--no-stdout-log", "--verbose"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"turnserver exited: {log.read_text() if log.exists() else ''}")
        if log.exists() and "listener opened on" in log.read_text():
            return Coturn(port, process, log)
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("turnserver did not open its listener within 10 s")


@dataclass
class Rig:
    """The servers the paths need, on 127.0.0.1: the site, a live PeerServer, a dead one's URL, a
    Nostr relay, a coturn (each only if a path asks for it)."""

    dist: Path
    site: Any = None
    live: peerserver.PeerServer | None = None
    dead_url: str = ""
    relay: nostr_relay.Running | None = None
    turn: Coturn | None = None
    stops: list[Any] = field(default_factory=list)

    @classmethod
    def start(cls, dist: Path, paths: tuple[str, ...] = PATHS) -> Rig:
        rig = cls(dist)
        try:
            rig.live = peerserver.start("127.0.0.1")
            rig.stops.append(rig.live.stop)
            if {"nostr", "both"} & set(paths):
                rig.relay = nostr_relay.start("127.0.0.1")
                rig.stops.append(rig.relay.stop)
            if "nostr" in paths:
                dead = peerserver.start("127.0.0.1")
                rig.dead_url = dead.url
                dead.stop()
            if "turn" in paths:
                rig.turn = start_coturn()
                rig.stops.append(rig.turn.stop)
            signals = [rig.live.url] + ([rig.dead_url] if rig.dead_url else []) + (
                [rig.relay.url] if rig.relay else [])
            rig.site = serve.start(dist, signals=signals)
            rig.stops.append(lambda: (rig.site.shutdown(), rig.site.server_close()))
        except BaseException:
            rig.stop()
            raise
        return rig

    def stop(self) -> None:
        for stop in reversed(self.stops):
            try:
                stop()
            except Exception:  # noqa: BLE001 - stop the rest
                pass
        self.stops = []

    def page_url(self, path: str) -> str:
        """The host's page: the site with ``?signal=`` the path's PeerServer (the dead one for ``nostr``)."""
        assert self.site is not None and self.live is not None
        signal = self.dead_url if path == "nostr" else self.live.url
        return f"http://127.0.0.1:{self.site.server_address[1]}/?signal={signal}"

    def metas(self, path: str) -> dict[str, str]:
        """The site-config metas of the path: relays named (or "off"), TURN servers and policy."""
        if path in ("nostr", "both"):
            assert self.relay is not None
            return {"cribbage-nostr-relays": self.relay.url}
        if path == "turn":
            assert self.turn is not None
            servers = [{"urls": [self.turn.url], "username": TURN_USER, "credential": TURN_PASSWORD}]
            return {"cribbage-nostr-relays": "off", "cribbage-ice-servers": json.dumps(servers),
                    "cribbage-ice-policy": "relay"}
        return {"cribbage-nostr-relays": "off"}


def _open(browser: Any, rig: Rig, path: str, url: str, errors: list[str]) -> tuple[Any, Any]:
    context = browser.new_context(permissions=["camera", "microphone"])  # (without: no ICE candidate on loopback)
    for script in (no_snapshot_script(rig.dist), metas_script(rig.metas(path)), MARKS):
        context.add_init_script(script)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text[:300]) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"[:300]))
    page.goto(url)
    page.wait_for_function(
        "() => document.body.dataset.ready === 'true' || document.body.dataset.bootError === 'true'", timeout=READY_MS)
    if page.evaluate("() => document.body.dataset.bootError") == "true":
        raise RuntimeError("the page showed its boot error: " + page.inner_text("#boot-error")[:500])
    return context, page


REGISTERED = {
    "peerjs": "s.registered",
    "turn": "s.registered",
    "nostr": "s.nostr === 'ready'",
    "both": "s.registered && s.nostr === 'ready'",
}
"""When the host can be found on the path (its signalling registration done), from ``status()``."""


def with_trace(url: str) -> str:
    """``url`` with ``trace=1`` in its query (before any ``#`` fragment): the page's online trace."""
    head, hash_, fragment = url.partition("#")
    return head + ("&" if "?" in head else "?") + "trace=1" + hash_ + fragment


SLOW_LIVE_MS = 5_000
"""With ``trace``: a run whose seats went live this long after its channel opened keeps both pages' traces."""


def measure(browser: Any, rig: Rig, path: str, trace: bool = False) -> dict[str, Any]:
    """One run on ``path`` (see the module's docstring): a dict of the figures (ms) and what was seen.
    ``trace``: both pages keep their online trace (``?trace=1``), returned as ``traces`` (host, guest)
    when the seats went live :data:`SLOW_LIVE_MS` or more after the channel opened."""
    if path not in PATHS:
        raise ValueError(f"unknown path {path!r}: one of {', '.join(PATHS)}")
    errors: list[str] = []
    contexts: list[Any] = []
    try:
        url = rig.page_url(path)
        host_context, host = _open(browser, rig, path, with_trace(url) if trace else url, errors)
        contexts.append(host_context)
        host.click("#tool-menu")
        host.click("#new-mode-online")
        host.click("#btn-start")
        host.wait_for_selector("#room-link")
        link = host.input_value("#room-link")
        registered = f"() => {{ const s = JSON.parse(window.cribbageNet.status()); return {REGISTERED[path]}; }}"
        host.wait_for_function(registered, timeout=30_000)
        guest_context, guest = _open(browser, rig, path, with_trace(link) if trace else link, errors)
        contexts.append(guest_context)
        for page in (host, guest):
            page.wait_for_function("() => window.__connectMarks.live && window.__connectMarks.channel",
                                   timeout=CONNECT_MS)
        hm, gm = host.evaluate("() => window.__connectMarks"), guest.evaluate("() => window.__connectMarks")
        routes = [json.loads(p.evaluate("() => window.cribbageNet.route()") or "{}") for p in (host, guest)]
        shown = [str(p.evaluate("() => document.body.getAttribute('data-net-path') || ''")) for p in (host, guest)]
        ready = float(gm["ready"])
        slow = max(float(hm["live"]), float(gm["live"])) - max(float(hm["channel"]), float(gm["channel"]))
        traces = [[str(line) for line in p.evaluate("() => Array.from(window.__onlineTrace || [])")]
                  for p in (host, guest)] if trace and slow >= SLOW_LIVE_MS else []
        return {
            "traces": traces,
            "marks": [hm, gm],
            "unbound": [bool(hm.get("unbound")), bool(gm.get("unbound"))],
            "path": path,
            "won": gm.get("path", ""),
            "won_host": hm.get("path", ""),
            "shown": shown,
            "channel_ms": round(max(float(hm["channel"]), float(gm["channel"])) - ready, 1),
            "live_ms": round(max(float(hm["live"]), float(gm["live"])) - ready, 1),
            "load_to_ready_ms": round(ready - float(gm["load"]), 1),
            "route": routes[1],
            "route_host": routes[0],
            "console_errors": errors,
            "load_average": round(os.getloadavg()[0], 1),
        }
    finally:
        for context in contexts:
            try:
                context.close()
            except Exception:  # noqa: BLE001
                pass


def p90(values: list[float]) -> float:
    """The 90th percentile, nearest rank (of 5 values: the largest)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def summarize(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per path: the runs' count, median and p90 of ``channel_ms`` and ``live_ms``, and which path won how often."""
    out: dict[str, dict[str, Any]] = {}
    for path in dict.fromkeys(r["path"] for r in runs):
        mine = [r for r in runs if r["path"] == path]
        won: dict[str, int] = {}
        for r in mine:
            won[r["won"]] = won.get(r["won"], 0) + 1
        routes = sorted({f"{r['route'].get('local', '?')}/{r['route'].get('remote', '?')}" for r in mine})
        loads = [float(r.get("load_average", 0.0)) for r in mine]
        out[path] = {
            "runs": len(mine),
            "channel_median_ms": round(statistics.median(r["channel_ms"] for r in mine)),
            "channel_p90_ms": round(p90([r["channel_ms"] for r in mine])),
            "live_median_ms": round(statistics.median(r["live_ms"] for r in mine)),
            "live_p90_ms": round(p90([r["live_ms"] for r in mine])),
            "won": won,
            "routes": routes,
            "load_average": [min(loads), max(loads)],
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per path (default 5)")
    parser.add_argument("--paths", default=",".join(PATHS), help=f"comma-separated, of {','.join(PATHS)}")
    parser.add_argument("--json", type=Path, help="write every run and the summary here")
    parser.add_argument("--trace", action="store_true", help="the pages keep their online trace (?trace=1); a run "
                        f"whose seats went live {SLOW_LIVE_MS} ms or more after its channel keeps both in the JSON")
    args = parser.parse_args()
    paths = tuple(p for p in args.paths.split(",") if p)
    unknown = [p for p in paths if p not in PATHS]
    if unknown:
        parser.error(f"unknown paths {unknown}")
    if not netns.isolated():
        if os.environ.get(netns.ERROR_ENV):
            print(f"cannot make a network namespace: {os.environ[netns.ERROR_ENV]}", file=sys.stderr)
            return 2
        return subprocess.call([sys.executable, str(HERE / "netns.py"), "--", sys.executable, *sys.argv])
    from playwright.sync_api import sync_playwright

    dist = ROOT / "dist"
    build_site.build(dist, quiet=True)
    rig = Rig.start(dist, paths)
    runs: list[dict[str, Any]] = []
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p, args=[*chromium.ARGS, LOOPBACK_FLAG])
            for n in range(args.runs):
                for path in paths:
                    run = measure(browser, rig, path, trace=args.trace)
                    runs.append(run)
                    noisy = [e for e in run["console_errors"] if "ERR_CONNECTION_REFUSED" not in e]
                    print(f"run {n + 1} {path:6s}: channel {run['channel_ms']:7.0f} ms, live {run['live_ms']:7.0f} ms"
                          f" after the guest's page was ready; won by {run['won'] or '?'}"
                          f" (host {run['won_host'] or '?'}); pair {run['route']}"
                          + f"; load {run['load_average']}"
                          + ("; unreadable fingerprints on the first channel (host, guest): "
                             f"{run['unbound']}" if any(run["unbound"]) else "")
                          + (f"; console errors {noisy}" if noisy else ""), flush=True)
            browser.close()
    finally:
        rig.stop()
    summary = summarize(runs)
    print(f"\n{started}, {args.runs} runs a path, loopback in a network namespace (no real network):")
    print(f"  {'path':8s} {'channel median':>15s} {'p90':>7s} {'live median':>12s} {'p90':>7s}  won by; pair")
    for path, s in summary.items():
        print(f"  {path:8s} {s['channel_median_ms']:12d} ms {s['channel_p90_ms']:4d} ms {s['live_median_ms']:9d} ms"
              f" {s['live_p90_ms']:4d} ms  {s['won']}; {', '.join(s['routes'])}; load {s['load_average']}")
    if args.json:
        args.json.write_text(json.dumps({"date": started, "runs": runs, "summary": summary}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

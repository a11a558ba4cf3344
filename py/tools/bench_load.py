#!/usr/bin/env python3
"""Load-time benchmark of the built site against a bare boot of stock PyScript + Pyodide.

    python py/tools/bench_load.py [--runs 3] [--profiles localhost,4g,slow4g] [--markdown FILE]

On demand (``make bench``), not a test. Every page is served by py/tools/serve.py with the
netlify.toml headers and Netlify's compression (brotli for text types, the pre-compressed
wasm and zips) and opened in Chromium, each cold run in a fresh browser context (empty HTTP
cache, no service worker), through each network profile (Chromium's network emulation over
CDP: ``4g`` 10 Mbit/s down with 40 ms round trips, ``slow4g`` Lighthouse's 1.6 Mbit/s, 150 ms;
``localhost`` unthrottled):

- **ours**: ``dist/`` as built (our loader, precompiled stdlib, service worker), waiting for
  ``<body data-ready="true">``;
- **ours, bare**: the same build with a ``main.py`` that only sets the flag (the shipping
  layer's own cost, without the game's imports and first render);
- **stock**: the npm ``@pyscript/core`` and ``pyodide`` files as published (stock stdlib zip,
  PyScript's own ``loadPyodide`` call), a page whose only Python sets the same flag. Served
  the same way, its wasm and stdlib zip brotli-compressed like ours (kinder to stock than a
  plain Netlify deploy, which would send them uncompressed).

Runs are interleaved (ours, bare, stock, ours, ...) and medians reported (the bare boot only on
localhost). Printed: cold time to ready, reload time to ready (same context: HTTP cache, and
for ours the service worker and the memory snapshot the first visit made), first contentful paint, and the bytes the
server sent (headers
included, the service worker's precache too) for the first visit, a reload and an offline
start. Targets (issue 10): first visit <= 4.5 MB; on 4g ready <= 0.5x stock; on localhost
cold <= 0.45x stock, reload <= 0.4 s, first paint <= 0.3 s.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))

import build_site  # noqa: E402
import chromium  # noqa: E402
import serve  # noqa: E402

PROFILES: dict[str, tuple[float, float] | None] = {
    "localhost": None,
    "4g": (10.0, 40.0),
    "slow4g": (1.6, 150.0),
}
"""Network profiles: (Mbit/s down, round-trip ms); None: plain localhost."""

READY = "() => document.body.dataset.ready === 'true'"
SNAPSHOT_DONE = "() => !globalThis.cribbageStart || cribbageStart.snapshot !== 'none' || !!cribbageStart.made"
STOCK_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Stock PyScript boot</title>
  <link rel="stylesheet" href="./vendor/pyscript/core.css">
  <script type="module" src="./vendor/pyscript/core.js"></script>
</head>
<body>
  <p>Stock PyScript + Pyodide: booting…</p>
  <script type="py" config="./stock.json">
from pyscript import document
document.body.dataset.ready = "true"
  </script>
</body>
</html>
"""


def make_stock_site(out: Path, precompress: bool = True) -> None:
    """The npm packages as published: PyScript core + chunks, Pyodide with its stock stdlib.
    Served from vendor/ like ours (same caching headers); the page at /stock.html (no CSP
    rule applies there: stock PyScript needs 'unsafe-eval')."""
    pyscript = out / "vendor" / "pyscript"
    pyodide = out / "vendor" / "pyodide"
    pyscript.mkdir(parents=True)
    pyodide.mkdir(parents=True)
    for path in (ROOT / "node_modules/@pyscript/core/dist").iterdir():
        if path.suffix in (".js", ".css"):
            shutil.copyfile(path, pyscript / path.name)
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json", "python_stdlib.zip"):
        data = (ROOT / "node_modules/pyodide" / name).read_bytes()
        if precompress and any(fnmatch.fnmatch(name, glob) for glob in build_site.PRECOMPRESSED):
            data = build_site.brotli(ROOT, data)  # netlify.toml's *.wasm / *.zip rules say br
        (pyodide / name).write_bytes(data)
    # `interpreter` is still needed: without it PyScript fetches pyodide.mjs from a CDN.
    (out / "stock.json").write_text(json.dumps({"interpreter": "./vendor/pyodide/pyodide.mjs"}))
    (out / "stock.html").write_text(STOCK_PAGE)
    (out / "index.html").write_text('<!doctype html><title>bench</title><a href="stock.html">stock</a>')


BARE_MAIN = """from pyscript import document
document.body.dataset.ready = "true"
"""


def make_bare_site(dist: Path, out: Path) -> None:
    """Our build, with a main.py that only marks the page ready."""
    shutil.copytree(dist, out)
    (out / "py" / "web" / "main.py").write_text(BARE_MAIN)


def throttle(page: Any, profile: tuple[float, float] | None, session: Any = None, offline: bool = False) -> Any:
    """Emulate a network profile (or none) for the page, or no network at all; returns the
    CDP session (pass it back: the conditions of another session would not be replaced)."""
    if session is None:
        session = page.context.new_cdp_session(page)
        session.send("Network.enable")
    mbit, rtt = profile or (-8e-6, 0.0)  # -1 byte/s: no throttling
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": offline, "latency": rtt, "downloadThroughput": mbit * 1e6 / 8, "uploadThroughput": mbit * 1e6 / 8},
    )
    return session


def page_metrics(page: Any) -> dict[str, float]:
    return page.evaluate(
        """() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        return {ready: performance.now(), fcp: paint ? paint.startTime : NaN};
    }"""
    )


def visit(page: Any, url: str, reload: bool = False, timeout: float = 180_000) -> dict[str, float]:
    if reload:
        page.reload(wait_until="commit", timeout=timeout)
    else:
        page.goto(url, wait_until="commit", timeout=timeout)
    page.wait_for_function(READY, polling="raf", timeout=timeout)
    return page_metrics(page)


def sent(server: serve.Server) -> int:
    """Bytes the server sent since the last call (and reset the count)."""
    with server._lock:
        n, server.bytes_sent = server.bytes_sent, 0
    return n


def measure_once(
    browser: Any, url: str, server: serve.Server, profile: tuple[float, float] | None, with_sw: bool
) -> dict[str, float]:
    """One cold visit in a fresh context, then the median of three reloads in it, then an
    offline start; with the server's bytes for each."""
    context = browser.new_context()
    page = context.new_page()
    session = throttle(page, profile)
    sent(server)
    cold = visit(page, url)
    if with_sw:  # the first visit also pays for the service worker's precache
        page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=180_000)
        # and for the memory snapshot the loader makes in a worker once the table is ready:
        # a player's later visits start from it (static/loader.mjs)
        page.wait_for_function(SNAPSHOT_DONE, timeout=180_000)
    time.sleep(0.5)  # let the code caches settle, as a player would between visits
    first_bytes = sent(server)
    reloads = [visit(page, url, reload=True)["ready"] / 1000 for _ in range(3)]
    reload_bytes = sent(server) / 3
    context.set_offline(True)
    throttle(page, None, session, offline=True)
    try:
        offline = visit(page, url, reload=True, timeout=20_000)["ready"] / 1000
    except Exception:  # noqa: BLE001 (no offline start: stock has no service worker)
        offline = math.nan
    context.set_offline(False)
    offline_bytes = sent(server)
    context.close()
    return {
        "cold": cold["ready"] / 1000,
        "fcp": cold["fcp"] / 1000,
        "reload": statistics.median(reloads),
        "first_bytes": first_bytes,
        "reload_bytes": reload_bytes,
        "offline": offline,
        "offline_bytes": offline_bytes,
    }


def prime(folder: Path) -> None:
    """Fill serve.py's cache of brotli-compressed text files for everything under ``folder``."""
    guess = serve.Handler.guess_type
    for path in folder.rglob("*"):
        if path.is_file() and guess(serve.Handler, str(path)).startswith(serve.COMPRESSED_TYPES):
            serve.encoded(str(path), path.stat().st_mtime_ns, "br")


def summary(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def row(name: str, m: dict[str, float]) -> str:
    offline = "fails" if math.isnan(m["offline"]) else f"{m['offline']:.2f} s, {m['offline_bytes'] / 1e3:.0f} kB"
    return (
        f"| {name} | {m['cold']:.2f} s | {m['reload']:.2f} s | {m['fcp']:.2f} s | "
        f"{m['first_bytes'] / 1e6:.2f} MB | {m['reload_bytes'] / 1e3:.0f} kB | {offline} |"
    )


def describe(profile: str) -> str:
    link = PROFILES[profile]
    return "localhost, no throttling" if link is None else f"{profile}: {link[0]:g} Mbit/s, {link[1]:g} ms round trip"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="cold runs per site and profile (default 3)")
    parser.add_argument("--profiles", default="localhost,4g,slow4g", help="comma-separated: " + ", ".join(PROFILES))
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    parser.add_argument("--markdown", default=None, help="also append the tables to this file")
    parser.add_argument(
        "--stock-plain",
        action="store_true",
        help="also stock as a plain Netlify deploy would send it (wasm and stdlib zip uncompressed)",
    )
    args = parser.parse_args(argv)
    profiles = [p.strip() for p in args.profiles.split(",") if p.strip()]
    unknown = [p for p in profiles if p not in PROFILES]
    if unknown:
        print(f"bench_load: unknown profile(s) {unknown}; known: {list(PROFILES)}", file=sys.stderr)
        return 2

    from playwright.sync_api import sync_playwright

    dist = Path(args.dist)
    if not (dist / "build-info.json").exists():
        print("bench_load: build the site first (make site)", file=sys.stderr)
        return 1
    texts = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        stock_dir = Path(tmp) / "stock"
        make_stock_site(stock_dir)
        make_bare_site(dist, Path(tmp) / "bare")
        servers = {
            "ours": serve.start(dist),
            "bare": serve.start(Path(tmp) / "bare"),
            "stock": serve.start(stock_dir),
        }
        urls = {"ours": servers["ours"].url, "bare": servers["bare"].url, "stock": servers["stock"].url + "stock.html"}
        if args.stock_plain:
            plain_dir = Path(tmp) / "stock-plain"
            make_stock_site(plain_dir, precompress=False)
            toml = Path(tmp) / "netlify-plain.toml"  # the same rules without the Content-Encoding ones
            toml.write_text(
                "".join(
                    line
                    for line in (ROOT / "netlify.toml").read_text().splitlines(True)
                    if "Content-Encoding" not in line
                )
            )
            servers["stock-plain"] = serve.start(plain_dir, netlify_toml=toml)
            urls["stock-plain"] = servers["stock-plain"].url + "stock.html"
        browser = chromium.launch(p)
        try:
            # compress every text file once (as a CDN caches what it compressed), then warm the
            # OS file cache and the browser process once, unmeasured
            for folder in (dist, Path(tmp) / "bare", stock_dir, Path(tmp) / "stock-plain"):
                prime(folder)
            measure_once(browser, urls["stock"], servers["stock"], None, with_sw=False)
            for profile in profiles:
                link = PROFILES[profile]
                names = ["ours", "bare", "stock"] if link is None else ["ours", "stock"]
                names += ["stock-plain"] if args.stock_plain else []
                runs: dict[str, list[dict[str, float]]] = {name: [] for name in names}
                # interleaved, so a machine whose load drifts weighs on all alike
                for _ in range(args.runs):
                    for name in names:
                        runs[name].append(
                            measure_once(browser, urls[name], servers[name], link, not name.startswith("stock"))
                        )
                texts.append(report(profile, {name: summary(r) for name, r in runs.items()}, args.runs))
                print(texts[-1], flush=True)
        finally:
            browser.close()
            for server in servers.values():
                server.shutdown()
    if args.markdown:
        with open(args.markdown, "a") as handle:
            handle.write("\n\n".join(texts) + "\n\n")
    return 0


def report(profile: str, m: dict[str, dict[str, float]], runs: int) -> str:
    version = chromium.SYSTEM_CHROMIUM if chromium.SYSTEM_CHROMIUM.exists() else "bundled Chromium"
    ours, stock = m["ours"], m["stock"]
    lines = [
        f"Load benchmark ({describe(profile)}; median of {runs} cold runs; {version}; load average "
        f"{os.getloadavg()[0]:.1f}):",
        "",
        "| | cold to ready | reload to ready | first contentful paint | bytes: first visit | reload | offline start |",
        "|---|---|---|---|---|---|---|",
        row("ours (dist/)", ours),
    ]
    if "bare" in m:
        lines.append(row("ours, bare boot (trivial main.py)", m["bare"]))
    lines.append(row("stock PyScript + Pyodide", stock))
    if "stock-plain" in m:
        lines.append(row("stock, plain deploy (wasm and zip uncompressed)", m["stock-plain"]))
    lines.append("")
    ratio = ours["cold"] / stock["cold"]
    if PROFILES[profile] is None:
        lines.append(
            f"cold ours/stock = {ratio:.2f} (bare {m['bare']['cold'] / stock['cold']:.2f}; target <= 0.45); "
            f"reload {ours['reload']:.2f} s (target <= 0.4); first paint {ours['fcp']:.2f} s (target <= 0.3); "
            f"first visit {ours['first_bytes'] / 1e6:.2f} MB vs stock {stock['first_bytes'] / 1e6:.2f} MB (target <= "
            "4.5)"
        )
    else:
        target = " (target <= 0.5)" if profile == "4g" else ""
        plain = (
            f"; against the plain deploy {ours['cold'] / m['stock-plain']['cold']:.2f}" if "stock-plain" in m else ""
        )
        lines.append(f"ready ours/stock = {ratio:.2f}{target}{plain}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Load-time benchmark of the built site against a bare boot of stock PyScript + Pyodide.

    python py/tools/bench_load.py [--runs 3] [--throttle MBIT] [--markdown FILE]

On demand (``make bench``), not a test. Both pages are served by py/tools/serve.py with the
netlify.toml headers and opened in Chromium, each cold run in a fresh browser context (empty
HTTP cache, no service worker):

- **ours**: ``dist/`` as built (our loader, precompiled stdlib, service worker), waiting for
  ``<body data-ready="true">``;
- **ours, bare**: the same build with a ``main.py`` that only sets the flag (the shipping
  layer's own cost, without the game's imports and first render);
- **stock**: the npm ``@pyscript/core`` and ``pyodide`` files as published (stock stdlib zip,
  PyScript's own ``loadPyodide`` call), a page whose only Python sets the same flag.

Runs are interleaved (ours, bare, stock, ours, ...) and medians reported. Printed: cold time to ready, reload time to ready (same context: HTTP cache, and for ours the
service worker), first contentful paint, bytes transferred cold. Targets: cold ready <= 0.6x
stock, reload < 0.7 s, first paint < 0.3 s. ``--throttle`` emulates a link of that many Mbit/s
with 40 ms latency (the default is plain localhost).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))

import chromium  # noqa: E402
import serve  # noqa: E402

READY = "() => document.body.dataset.ready === 'true'"
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


def make_stock_site(out: Path) -> None:
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
        shutil.copyfile(ROOT / "node_modules/pyodide" / name, pyodide / name)
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


def throttle(page: Any, mbit: float | None) -> None:
    if not mbit:
        return
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    rate = mbit * 1e6 / 8
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 40, "downloadThroughput": rate, "uploadThroughput": rate},
    )


def page_metrics(page: Any) -> dict[str, float]:
    return page.evaluate(
        """() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        const nav = performance.getEntriesByType('navigation')[0];
        const bytes = performance.getEntriesByType('resource')
            .reduce((sum, r) => sum + (r.transferSize || 0), nav ? nav.transferSize : 0);
        return {ready: performance.now(), fcp: paint ? paint.startTime : NaN, bytes};
    }"""
    )


def visit(page: Any, url: str, reload: bool = False) -> dict[str, float]:
    if reload:
        page.reload(wait_until="commit")
    else:
        page.goto(url, wait_until="commit")
    page.wait_for_function(READY, polling="raf", timeout=120_000)
    return page_metrics(page)


def measure_once(browser: Any, url: str, mbit: float | None, with_sw: bool) -> dict[str, float]:
    """One cold visit in a fresh context, then the median of three reloads in it."""
    context = browser.new_context()
    page = context.new_page()
    throttle(page, mbit)
    cold = visit(page, url)
    if with_sw:
        page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60_000)
    time.sleep(0.5)  # let the code caches settle, as a player would between visits
    reloads = [visit(page, url, reload=True)["ready"] / 1000 for _ in range(3)]
    context.close()
    return {
        "cold": cold["ready"] / 1000,
        "fcp": cold["fcp"] / 1000,
        "bytes": cold["bytes"],
        "reload": statistics.median(reloads),
    }


def summary(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="cold runs per site (default 3)")
    parser.add_argument("--throttle", type=float, default=None, metavar="MBIT", help="emulate a link (Mbit/s)")
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    parser.add_argument("--markdown", default=None, help="also append the table to this file")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    dist = Path(args.dist)
    if not (dist / "build-info.json").exists():
        print("bench_load: build the site first (make site)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        stock_dir = Path(tmp) / "stock"
        make_stock_site(stock_dir)
        make_bare_site(dist, Path(tmp) / "bare")
        ours_server = serve.start(dist)
        bare_server = serve.start(Path(tmp) / "bare")
        stock_server = serve.start(stock_dir)
        browser = chromium.launch(p)
        try:
            # warm the OS file cache and the browser process once, unmeasured
            measure_once(browser, stock_server.url + "stock.html", None, with_sw=False)
            # interleaved, so a machine whose load drifts weighs on all three alike
            sites = {
                "ours": (ours_server.url, True),
                "bare": (bare_server.url, True),
                "stock": (stock_server.url + "stock.html", False),
            }
            runs: dict[str, list[dict[str, float]]] = {name: [] for name in sites}
            for _ in range(args.runs):
                for name, (url, with_sw) in sites.items():
                    runs[name].append(measure_once(browser, url, args.throttle, with_sw))
            ours, bare, stock = (summary(runs[name]) for name in sites)
        finally:
            browser.close()
            for server in (ours_server, bare_server, stock_server):
                server.shutdown()

    version = chromium.SYSTEM_CHROMIUM if chromium.SYSTEM_CHROMIUM.exists() else "bundled Chromium"
    link = f"{args.throttle:g} Mbit/s, 40 ms" if args.throttle else "localhost, no throttling"
    ratio = ours["cold"] / stock["cold"]
    bare_ratio = bare["cold"] / stock["cold"]
    lines = [
        f"Load benchmark ({link}; median of {args.runs} cold runs; {version}):",
        "",
        "| | cold to ready | reload to ready | first contentful paint | bytes cold |",
        "|---|---|---|---|---|",
        f"| ours (dist/) | {ours['cold']:.2f} s | {ours['reload']:.2f} s | {ours['fcp']:.2f} s | {ours['bytes'] / 1e6:.1f} MB |",
        f"| ours, bare boot (trivial main.py) | {bare['cold']:.2f} s | {bare['reload']:.2f} s | {bare['fcp']:.2f} s | {bare['bytes'] / 1e6:.1f} MB |",
        f"| stock PyScript + Pyodide | {stock['cold']:.2f} s | {stock['reload']:.2f} s | {stock['fcp']:.2f} s | {stock['bytes'] / 1e6:.1f} MB |",
        "",
        f"cold ours/stock = {ratio:.2f} (bare {bare_ratio:.2f}; target <= 0.6); reload {ours['reload']:.2f} s (target < 0.7); "
        f"first paint {ours['fcp']:.2f} s (target < 0.3)",
    ]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "a") as handle:
            handle.write(text + "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

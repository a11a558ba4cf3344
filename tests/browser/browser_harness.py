"""Helpers for the browser tests (imported by conftest.py and by the test modules).

- :func:`wait_ready` waits for ``<body data-ready="true">`` with the function form of
  ``wait_for_function`` (the strict CSP forbids the string form) and reports the boot error
  if the page gave up instead.
- :func:`watch_console` records console errors and uncaught page errors of a page.
- :func:`axe_audit` runs axe-core and returns the serious/critical violations.
- :func:`site_is_stale` tells whether ``dist/`` is older than what it is built from.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py" / "tools"))

import build_site  # noqa: E402,F401  (re-exported for the tests)
import chromium  # noqa: E402,F401
import serve  # noqa: E402,F401

DIST = ROOT / "dist"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
READY_TIMEOUT_MS = 45_000
ALLOWED_CONSOLE = (
    # Chromium's note when a preloaded file is consumed a little late on a slow machine.
    re.compile(r"was preloaded using link preload but not used"),
)
BUILD_INPUTS = (
    "index.html",
    "static",
    "py/cribbage",
    "py/web",
    "package-lock.json",
    "py/tools/build_site.py",
    "py/tools/precompile_stdlib.mjs",
    "py/tools/printables.py",
    "docs/RULES.md",
)


def newest_input() -> float:
    newest = 0.0
    for name in BUILD_INPUTS:
        path = ROOT / name
        paths = [path] if path.is_file() else path.rglob("*") if path.is_dir() else []
        for p in paths:
            if p.is_file() and "__pycache__" not in p.parts:
                newest = max(newest, p.stat().st_mtime)
    return newest


def site_is_stale(dist: Path = DIST) -> bool:
    info = dist / "build-info.json"
    if not info.exists() or info.read_text().strip() == "{}":
        return True
    return info.stat().st_mtime < newest_input()


class ConsoleWatch:
    """Console errors and uncaught page errors seen by one page."""

    def __init__(self, page: Any, allowed: tuple[re.Pattern[str], ...]) -> None:
        self.allowed = allowed
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self._add(f"page error: {error}"))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self._add(f"console.error: {message.text}")

    def _add(self, text: str) -> None:
        if not any(pattern.search(text) for pattern in self.allowed):
            self.problems.append(text)


def watch_console(page: Any, request: pytest.FixtureRequest | None = None) -> ConsoleWatch:
    """Record a page's console errors, except those allowed globally and by the test's
    ``@pytest.mark.allow_console(...)`` patterns."""
    allowed = list(ALLOWED_CONSOLE)
    if request is not None:
        for marker in request.node.iter_markers("allow_console"):
            allowed += [re.compile(p) for p in marker.args]
    return ConsoleWatch(page, tuple(allowed))


def wait_ready(page: Any, timeout: float = READY_TIMEOUT_MS) -> None:
    """Wait until Python marked the page ready; fail with the boot error if it gave up."""
    page.wait_for_function(
        "() => document.body.dataset.ready === 'true' || document.body.dataset.bootError === 'true'",
        timeout=timeout,
    )
    if page.evaluate("() => document.body.dataset.bootError") == "true":
        detail = page.inner_text("#boot-error")
        raise AssertionError(f"the page showed its boot error instead of starting:\n{detail}")


def wait_controlled(page: Any, timeout: float = 30_000) -> None:
    """Wait until a service worker controls the page (it has precached the start)."""
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=timeout)


def axe_audit(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
    """Run axe-core on the page as it is now; return the violations of the given impacts.

    The app's CSP forbids injected scripts: audit pages of a context made with
    ``bypass_csp=True`` (the ``audit_page`` fixture).
    """
    if not AXE.exists():
        pytest.skip("node_modules/axe-core is missing: run `npm ci`")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => await window.axe.run(document, {resultTypes: ['violations']})")
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in results["violations"]
        if v["impact"] in impacts
    ]


# The page's durable store (static/store.js, IndexedDB): what the tests read and write in place of
# localStorage. Writes resolve once they are on disk, so a reload right after sees them.
STORE_GET = "k => { const v = window.cribbageStore.get(k); return v === undefined ? null : v; }"
STORE_ALL = "() => Object.fromEntries(window.cribbageStore.keys().map(k => [k, window.cribbageStore.get(k)]))"
STORE_SET = """async entries => { for (const [k, v] of Object.entries(entries)) window.cribbageStore.set(k, v);
    await new Promise(r => window.cribbageStore.whenDurable(r)); }"""
STORE_CLEAR = """async () => { for (const k of window.cribbageStore.keys()) window.cribbageStore.remove(k);
    await new Promise(r => window.cribbageStore.whenDurable(r)); }"""

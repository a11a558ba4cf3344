"""Drive ``window.cribbageNet`` (static/net.js) in browser pages, for the online tests.

A :class:`Player` is one browser context on the built page. Its events are recorded in the page
(``window.__netEvents``: ``{kind, peer, detail, t}``, ``t`` = ``performance.now()`` when the
event arrived) by a handler with the same signature Python gives ``cribbageNet.open``:
``(kind, peer, detail)``, three strings.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from browser_harness import DIST, READY_TIMEOUT_MS, wait_ready, watch_console

RECORD = """([id, options]) => {
  window.__netEvents = [];
  window.cribbageNet.open(id, (kind, peer, detail) => {
    window.__netEvents.push({kind, peer, detail, t: performance.now(),
                             types: [typeof kind, typeof peer, typeof detail].join()});
  }, options);
  return performance.now();
}"""
WAIT = """([kind, peer, from]) => (window.__netEvents || []).slice(from).some(
  e => e.kind === kind && (peer === null || e.peer === peer))"""


class Player:
    """One browser context with the page loaded and ``cribbageNet`` at hand."""

    def __init__(self, name: str, context: Any, page: Any, watch: Any) -> None:
        self.name = name
        self.context = context
        self.page = page
        self.watch = watch

    def open(self, peer_id: str, **options: Any) -> float:
        """``cribbageNet.open(peer_id, recorder, json(options))``; returns the page time it was called."""
        return float(self.page.evaluate(RECORD, [peer_id, json.dumps(options)]))

    def connect(self, remote_id: str) -> float:
        """``cribbageNet.connect(remote_id)``; returns the page time it was called."""
        return float(
            self.page.evaluate("(id) => { window.cribbageNet.connect(id); return performance.now(); }", remote_id)
        )

    def send(self, text: str) -> tuple[bool, float]:
        """``cribbageNet.send(text)``: whether it was sent, and the page time."""
        sent, at = self.page.evaluate("(text) => [window.cribbageNet.send(text), performance.now()]", text)
        return bool(sent), float(at)

    def drop(self) -> None:
        self.page.evaluate("() => window.cribbageNet.drop()")

    def status(self) -> dict[str, Any]:
        return dict(json.loads(self.page.evaluate("() => window.cribbageNet.status()")))

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        found = self.page.evaluate("() => window.__netEvents || []")
        return [e for e in found if kind is None or e["kind"] == kind]

    def wait_event(
        self, kind: str, peer: str | None = None, after: int = 0, timeout_ms: float = 15_000
    ) -> dict[str, Any]:
        """The first ``kind`` event (from ``peer`` if given) at index ``after`` or later."""
        try:
            self.page.wait_for_function(WAIT, arg=[kind, peer, after], timeout=timeout_ms)
        except Exception as error:  # Playwright's TimeoutError: say what did arrive
            raise AssertionError(f"{self.name}: no {kind!r} event from {peer!r}; events: {self.events()}") from error
        return next(e for e in self.events()[after:] if e["kind"] == kind and (peer is None or e["peer"] == peer))

    def crash(self) -> None:
        """Kill the page's renderer process at once (like a killed browser: nothing is closed)."""
        try:
            self.page.goto("chrome://crash", timeout=5_000)
        except Exception:  # noqa: BLE001 - the navigation never completes: the renderer is gone
            pass


def no_snapshot_script() -> str:
    """An init script that marks this build's memory snapshot as refused (static/loader.mjs):
    these tests drive the PeerJS glue, and three pages each making a snapshot in the background
    (a second Pyodide per page) only loaded the machine; the snapshot's own tests, an online
    reload among them, are in tests/browser/test_snapshot.py."""
    loader = (DIST / "static" / "loader.mjs").read_text()
    found = re.search(r'const SNAPSHOT_KEY = "(\w*)";', loader)
    key = found.group(1) if found else ""
    return f"try {{ localStorage.setItem('cribbage-snapshot-refused', {json.dumps(key)}); }} catch (e) {{}}"


class Players:
    """The players of one test (``players`` fixture): ``new(name)`` adds one; ``close()`` ends all."""

    def __init__(self, browser: Any, url: str, request: pytest.FixtureRequest) -> None:
        self.browser = browser
        self.url = url
        self.request = request
        self.all: list[Player] = []

    def new(self, name: str, ready: bool = False, media: bool = True) -> Player:
        """A fresh context on the built page, once ``window.cribbageNet`` exists (the app keeps
        starting meanwhile); ``ready``: also wait until the app has started. ``media``: grant
        camera and microphone (without, Chromium gathers no ICE candidate on loopback)."""
        context = self.browser.new_context(permissions=["camera", "microphone"] if media else [])
        context.add_init_script(no_snapshot_script())
        page = context.new_page()
        watch = watch_console(page, self.request)
        page.goto(self.url)
        if ready:
            wait_ready(page, timeout=READY_TIMEOUT_MS)
        else:
            page.wait_for_function("() => !!window.cribbageNet")
        player = Player(name, context, page, watch)
        self.all.append(player)
        return player

    def close(self) -> list[str]:
        """Close every context; returns the console problems seen (crashed pages excepted)."""
        problems: list[str] = []
        for player in self.all:
            problems += [f"{player.name}: {p}" for p in player.watch.problems if not re.search("crash", p)]
            try:
                player.context.close()
            except Exception:  # noqa: BLE001 - a context of a killed browser may be gone already
                pass
        return problems


def median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def sleep_ms(ms: float) -> None:
    time.sleep(ms / 1000)


class Stall:
    """Fails a loop that has made no progress for ``limit`` seconds: a hang, however busy the
    machine (a cap on the whole loop's time fails on a loaded machine, not on a stuck page)."""

    def __init__(self, limit: float = 90.0) -> None:
        self.limit = limit
        self.last: object = None
        self.since = time.monotonic()

    def check(self, state: object, what: object = "") -> None:
        now = time.monotonic()
        if state != self.last:
            self.last, self.since = state, now
            return
        assert now - self.since < self.limit, f"no progress for {self.limit:.0f} s: {state} {what}"

"""How long a friend's challenge takes to compare in the page (a benchmark, not a test): prints figures.

    python py/tools/bench_challenge.py [--runs 3] [--dist dist] [--level expert] [--target 121]

Plays a match against the computer and a friend's match on the same deals under CPython (the
friend plays at random, so most hands differ and the coach has a decision to look at in each),
makes the answered challenge's link, serves the built ``dist/`` and opens the link in headless
Chromium, a fresh context (a first visit, nothing warmed) per run. Prints the link's length, the
comparison's time under CPython, and in the page: ready to the comparison drawn, and the longest
Python task on the way (the comparison runs in slices on the timer, the coach and its tables
loaded first if the idle warm-up has not: the page does not answer input during a task). Prints the load average beside
the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "py"))

import chromium  # noqa: E402
import serve  # noqa: E402

from cribbage.ai import make_player  # noqa: E402
from cribbage.challenge import Challenge, compare  # noqa: E402
from cribbage.match import Match  # noqa: E402
from cribbage.rules import Rules  # noqa: E402


OBSERVE = """
window.__cribbageMarks = true;
new MutationObserver(() => {
  if (window.__ready === undefined && document.body && document.body.dataset.ready === 'true') window.__ready =
  performance.now();
  if (window.__drawn === undefined && document.querySelector('#dlg-challenge .cmp-hand')) window.__drawn =
  performance.now();
}).observe(document, {subtree: true, childList: true, attributes: true});
"""
"""In the page: when it is ready, and when the comparison is first in it (observed, not polled: the
main thread may be busy when a poll would run)."""


def _play(match: Match, you: str, challenge: Challenge | None = None) -> Match:
    players = {0: make_player(you, 11), 1: make_player(str(match.options["level"]), 22)}
    while not match.state.is_over:
        seat = match.state.actors()[0]
        legal = match.legal_actions(seat)
        forced = challenge.forced_cut(match.actions, legal) if challenge is not None else None
        match.apply(forced if forced is not None else players[seat].choose(match.view(seat)))
    return match


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--level", default="expert")
    ap.add_argument("--target", type=int, default=121)
    args = ap.parse_args(argv)

    original = _play(Match(4242, humans=(0,), names=("You", "Computer"), options={"level": args.level},
                           rules=Rules(target=args.target)), "expert")
    challenge = Challenge.from_match(original, "Ann")
    friend = _play(challenge.new_match("You"), "random", challenge)
    text = challenge.answer(friend, "Bob").encode()
    start = time.perf_counter()
    cmp = compare(original, friend, 0)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    compare(original, friend, 0)
    warm = time.perf_counter() - start
    print(f"hands compared {len(cmp.lines)}, differences {sum(len(x.differences) for x in cmp.lines)}")
    print(f"link text: challenge {len(challenge.encode())} chars, answered {len(text)} chars")
    print(f"CPython compare: first {cold * 1000:.0f} ms (tables loading), then {warm * 1000:.0f} ms")

    server = serve.start(args.dist)
    ready_to_drawn: list[float] = []
    longest: list[float] = []
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = chromium.launch(p)
        for _ in range(args.runs):
            context = browser.new_context()
            page: Any = context.new_page()
            page.add_init_script(OBSERVE)
            page.goto(f"{server.url}?mode=challenge#challenge={text}")
            page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=120_000)
            page.wait_for_selector("#dlg-challenge .cmp-hand", timeout=120_000)
            page.wait_for_function("() => window.__drawn !== undefined")
            ready, drawn = page.evaluate("() => [window.__ready, window.__drawn]")
            tasks = page.evaluate("() => performance.getEntriesByType('measure')"
                                  ".filter(e => e.name.startsWith('py ') && e.startTime >= 0)"
                                  ".map(e => [e.name, e.duration])")
            slow = max(tasks, key=lambda t: t[1]) if tasks else ["-", 0.0]
            ready_to_drawn.append(drawn - ready)
            longest.append(slow[1])
            print(
                f"run: ready to comparison drawn {drawn - ready:.0f} ms; longest Python task {slow[1]:.0f} ms "
                f"({slow[0]})"
            )
            context.close()
        browser.close()
    server.shutdown()
    print(f"median over {args.runs} runs: ready to drawn {statistics.median(ready_to_drawn):.0f} ms, "
          f"longest task {statistics.median(longest):.0f} ms")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

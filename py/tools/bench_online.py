"""Online play in two real browsers over loopback (a benchmark, not a test): prints figures.

Two Chromium contexts open the built page, one creates a room from the menu, the other opens the
room link; they play ``--hands`` hands with the real group (NIST P-256) through a local PeerServer
(WebRTC on 127.0.0.1 only). Printed: a card laid shown on the other screen (median and p90 ms,
from the confirming click in one page to the card in the other page's pile), the characters sent
over the data channel per hand by both browsers together (ASCII: bytes), and the longest task of
either page's main thread (the deal's big-integer work runs in slices between frames), and the time
from the cut of a later hand to both hands dealt on both screens (its pack was proven in advance).

Run it inside a network namespace holding only ``lo`` (it re-runs itself there when it can):

    python py/tools/netns.py -- python py/tools/bench_online.py --hands 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import build_site  # noqa: E402
import chromium  # noqa: E402
import netns  # noqa: E402
import peerserver  # noqa: E402
import serve  # noqa: E402

INSTRUMENT = """() => {
  window.__long = []; window.__theirs = [];
  try { new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration)))
          .observe({type: 'longtask', buffered: false}); } catch (e) {}
  let last = 0;
  new MutationObserver(() => {
    const n = document.querySelectorAll('#table .pile-slot.theirs').length;
    if (n > last) window.__theirs.push(Date.now());
    last = n;
  }).observe(document.getElementById('table'), {childList: true, subtree: true});
}"""
STEP = """() => {
  const app = document.getElementById('app');
  const phase = app.dataset.phase, turn = app.dataset.turn;
  const q = (s) => document.querySelector(s);
  const press = (e) => e.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
  const click = (s) => { const e = q(s); if (e) { press(e); return true; } return false; };
  if (phase === 'hand over') return click('#table [data-action="next-hand"]') ? ['next', 0] : ['', 0];
  if (turn !== 'me') return ['', 0];
  if (click('#table [data-action="go"]:not([aria-disabled])')) return ['go', 0];
  if (click('#table [data-action="count"]:not([aria-disabled])')) return ['count', 0];
  const cuts = document.querySelectorAll('#table [data-action="cut-pick"]');
  if (cuts.length) { press(cuts[Math.floor(cuts.length / 2)]); return ['cut', 0]; }
  if (phase === 'discard') {
    if (!click('#hand-0')) return ['', 0];
    click('#hand-1');
    return [click('#table [data-action="discard"]') ? 'discard' : '', 0];
  }
  if (phase === 'play') {
    const card = q('#table button.hand-card:not([aria-disabled])');
    if (!card) return ['', 0];
    const id = card.id;
    press(card);
    const t0 = Date.now();
    return [click('#' + id) ? 'play' : '', t0];
  }
  return ['', 0];
}"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2, help="hands to play (default 2)")
    parser.add_argument("--test-group", action="store_true", help="the small test group instead of P-256")
    parser.add_argument("--screenshot", type=Path, help="save the host's table mid-hand here")
    args = parser.parse_args()
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
    url = f"http://127.0.0.1:{site.server_address[1]}/?signal={signal.url}&delay=0"
    if args.test_group:
        url += "&group=test"
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p, args=[*chromium.ARGS, "--allow-loopback-in-peer-connection"])
            pages = []
            for _ in range(2):
                context = browser.new_context(permissions=["camera", "microphone"])
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
            guest.goto(link)
            guest.wait_for_selector("body[data-ready=true]", timeout=60_000)
            for page in pages:
                page.wait_for_selector('#online[data-link="live"]', timeout=30_000)
                page.evaluate(INSTRUMENT)
            latencies: list[float] = []
            deals: list[float] = []
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
                        # pages show their six cards. The pack was shuffled and proven during the hand before.
                        t_cut = time.monotonic()
                        deadline = t_cut + 10
                        while time.monotonic() < deadline:
                            if all(pg.evaluate("() => document.getElementById('app').dataset.phase") == "discard"
                                   for pg in pages):
                                deals.append(1000 * (time.monotonic() - t_cut))
                                break
                            time.sleep(0.005)
                    if kind == "play":
                        deadline = time.monotonic() + 10
                        while time.monotonic() < deadline:
                            seen = [t for t in other.evaluate("() => window.__theirs") if t >= t0]
                            if seen:
                                latencies.append(seen[0] - t0)
                                break
                            time.sleep(0.005)
                        if args.screenshot and not shot:
                            host.screenshot(path=str(args.screenshot))
                            shot = True
                if not moved:
                    time.sleep(0.01)
            longest = max((max(pg.evaluate("() => window.__long") or [0]) for pg in pages), default=0.0)
            handler = [pg.evaluate("() => document.getElementById('app').dataset.handlerMs || ''") for pg in pages]
            per_hand = [sent_at_hand[h + 1] - sent_at_hand[h] for h in sorted(sent_at_hand) if h + 1 in sent_at_hand
                        and h >= 1]
            group = "test group" if args.test_group else "P-256"
            print(f"online, two Chromium pages over loopback, {group}, {args.hands} hands")
            if latencies:
                ordered = sorted(latencies)
                print(f"  card laid -> shown on the other screen: median {statistics.median(ordered):.0f} ms, "
                      f"p90 {ordered[int(0.9 * (len(ordered) - 1))]:.0f} ms ({len(ordered)} cards)")
            if deals:
                print(f"  cut of a later hand -> both hands dealt on both screens: median "
                      f"{statistics.median(deals):.0f} ms, max {max(deals):.0f} ms ({len(deals)} deals)")
            if per_hand:
                print(f"  bytes sent per hand (both browsers): median {statistics.median(per_hand):,.0f} "
                      f"({', '.join(f'{b:,}' for b in per_hand)})")
            print(f"  longest main-thread task (either page): hand 1 {first_long:.0f} ms (the coach loads on the "
                  f"first discard), later hands {longest:.0f} ms; slowest handler: {handler} ms")
            browser.close()
    finally:
        site.shutdown()
        site.server_close()
        signal.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

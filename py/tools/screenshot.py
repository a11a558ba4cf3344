"""Take the README's screenshot (static/screenshot.png): the table at 1280x800, mid-hand, a play previewed.

Usage: python py/tools/screenshot.py [--seed 3] [--out static/screenshot.png] [--query OPTIONS]   (after `make site`)

``--query`` adds the New game dialog's URL options: docs/playing.md's tables of three and four are
``--query "players=3&seats=you,expert,expert" --out static/screenshot-three.png`` and
``--query "players=4&seats=you,expert,expert,expert" --out static/screenshot-partners.png``.

Serves ``dist/`` with serve.py, plays a fixed seed against the computer (``?delay=0``) in Chromium
until you are to lay a card with two already on the pile, selects one (its preview is drawn) and
saves the page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1].parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import chromium  # noqa: E402
import serve  # noqa: E402

APP = "document.getElementById('app')"


def take(out: Path, seed: int, query: str = "") -> None:
    """Play to mid-hand and save the screenshot."""
    from playwright.sync_api import sync_playwright

    server = serve.start(ROOT / "dist")
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.emulate_media(reduced_motion="reduce")
            page.goto(f"{server.url}?seed={seed}&delay=0" + (f"&{query}" if query else ""))
            page.wait_for_function("() => document.body.dataset.ready === 'true'", timeout=60_000)
            for _ in range(300):
                page.wait_for_function(f"() => {APP}.dataset.busy === 'false'", timeout=30_000)
                data = page.evaluate(f"() => ({{...{APP}.dataset}})")
                phase, turn = data["phase"], data["turn"]
                if phase == "hand over":
                    page.click("#btn-next")
                elif turn != "me":
                    page.wait_for_timeout(30)
                elif phase in ("cut for deal", "cut", "starter"):
                    page.locator(".fan-card.legal").nth(10).dispatch_event("click")
                elif phase == "discard":
                    page.click("#hand-0")
                    if page.locator("#btn-discard[aria-disabled]").count():  # two to lay away (one at 3 or 4)
                        page.click("#hand-1")
                    page.click("#btn-discard")
                elif phase == "play" and page.locator("#btn-go").count():
                    page.click("#btn-go")
                elif phase == "play":
                    card = page.locator(".hand-me button.hand-card:not([aria-disabled])").first
                    if page.locator(".pile .pile-slot:not(.ghost)").count() >= 2:
                        card.click()  # selected: the pile shows where it goes and what it scores
                        page.mouse.move(0, 0)
                        page.wait_for_timeout(200)
                        page.screenshot(path=str(out))
                        print(f"wrote {out}")
                        return
                    card.click()
                    page.click("#btn-play")
                elif phase == "show":
                    page.click("#btn-count")
            raise SystemExit("never reached a play with two cards on the pile")
    finally:
        server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "static" / "screenshot.png")
    parser.add_argument("--query", default="", help="more URL options: players=3&seats=you,expert,expert")
    args = parser.parse_args()
    take(args.out, args.seed, args.query)


if __name__ == "__main__":
    main()

"""The daily discard puzzle (``?mode=puzzle``) in Chromium, with the clock given (``?today=``): two
browsers on the same day see the same six cards and the next day other ones; solving it shows the
coach's 15 discards and a share text with no card, and the streak survives a reload; past days by
the arrows; it fits a phone; the game's menu links it; axe finds nothing serious."""

from __future__ import annotations

from typing import Any

from browser_harness import ROOT, STORE_GET, axe_audit, wait_ready

from cribbage.cards import DECK

PHONE = {"width": 360, "height": 740}
SHOTS = ROOT / "test-results" / "puzzle"


def app(page: Any, name: str) -> str:
    return str(page.get_attribute("#app", f"data-{name}") or "")


def open_puzzle(page: Any, base_url: str, query: str) -> None:
    page.goto(base_url + "?mode=puzzle&" + query)
    wait_ready(page)


def faces(page: Any) -> list[str]:
    return page.eval_on_selector_all("#table .pz-hand [data-card]", "els => els.map(e => e.dataset.card)")


def solve(page: Any, first: int = 0, second: int = 1) -> None:
    page.click(f"#pz-card-{first}")
    page.click(f"#pz-card-{second}")
    assert "keep" in page.inner_text("#pz-keep")  # the preview before confirming
    page.click("#pz-confirm")
    page.wait_for_function("() => document.getElementById('app').dataset.answer === 'true'", timeout=60_000)


def test_two_browsers_on_one_day_see_the_same_cards_and_the_next_day_others(browser, base_url):
    contexts = [browser.new_context() for _ in range(3)]
    try:
        pages = [c.new_page() for c in contexts]
        open_puzzle(pages[0], base_url, "today=2026-12-02")
        open_puzzle(pages[1], base_url, "today=2026-12-02")
        open_puzzle(pages[2], base_url, "today=2026-12-03")
        first, second, next_day = (faces(p) for p in pages)
        assert len(first) == 6 and first == second and app(pages[0], "hand") == app(pages[1], "hand")
        assert next_day != first and len(next_day) == 6
        assert pages[0].inner_text("#pz-situation") == pages[1].inner_text("#pz-situation")
        # the day before, by the arrow, is the day before's puzzle everywhere
        pages[2].click("#pz-prev")
        assert app(pages[2], "day") == "2026-12-02" and faces(pages[2]) == first
        assert pages[0].get_attribute("#pz-next", "aria-disabled") == "true"  # no tomorrow
    finally:
        for c in contexts:
            c.close()


def test_solving_records_a_streak_that_survives_a_reload(page, base_url):
    page.set_viewport_size(PHONE)
    open_puzzle(page, base_url, "today=2026-12-01")
    assert page.locator("#pz-ranking").count() == 0  # no answer in the page before the player's
    solve(page, 0, 1)
    open_puzzle(page, base_url, "today=2026-12-02")
    assert app(page, "streak") == "1"  # yesterday's, and today is still open
    solve(page, 2, 5)
    assert app(page, "streak") == "2"
    assert page.locator("#pz-ranking tbody tr").count() == 15 and page.locator("#pz-mine").count() == 1
    share = page.inner_text("#pz-share-text")
    assert share.startswith("Cribbage daily 2026-12-02: ") and share.endswith("\U0001f5252")
    for card in DECK:
        assert card.code not in share and card.pretty not in share
    assert not any(s in share for s in "\u2660\u2665\u2666\u2663")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width}px"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "answer-phone.png"), full_page=True)
    page.reload()
    wait_ready(page)
    assert app(page, "solved") == "true" and app(page, "streak") == "2"
    page.wait_for_function("() => document.getElementById('app').dataset.answer === 'true'", timeout=60_000)
    assert page.inner_text("#pz-share-text") == share
    assert '"on_day":true' in page.evaluate(STORE_GET, "cribbage.puzzle.history")


def test_the_keyboard_solves_it_and_the_menu_links_it(page, base_url):
    page.goto(base_url + "?delay=0")
    wait_ready(page)
    page.keyboard.press("m")
    href = page.get_attribute("#btn-puzzle", "href")
    assert href == "./?mode=puzzle"
    open_puzzle(page, base_url, "today=2026-11-20")
    page.keyboard.press("1")
    page.keyboard.press("4")
    assert app(page, "selected") == "0,3"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('app').dataset.answer === 'true'", timeout=60_000)
    assert page.evaluate("() => document.activeElement.id") == "pz-verdict"
    page.keyboard.press("ArrowLeft")
    assert app(page, "day") == "2026-11-19" and app(page, "solved") == "false"


def test_no_serious_accessibility_problem(audit_page, base_url):
    page = audit_page
    open_puzzle(page, base_url, "today=2026-12-02")
    page.click("#pz-card-0")
    page.click("#pz-card-1")
    assert axe_audit(page) == []
    page.click("#pz-confirm")
    page.wait_for_function("() => document.getElementById('app').dataset.answer === 'true'", timeout=60_000)
    assert axe_audit(page) == []


def test_offline_past_days_open_and_are_answered(page, context, base_url):
    open_puzzle(page, base_url, "today=2026-12-02")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=30_000)
    context.set_offline(True)
    try:
        page.goto(base_url + "?mode=puzzle&today=2026-12-02&date=2026-10-09")
        wait_ready(page)
        assert app(page, "day") == "2026-10-09"
        page.fill("#pz-date-input", "2026-03-14")  # the date picker opens a day as it changes
        page.dispatch_event("#pz-date-input", "change")
        page.wait_for_function("() => document.getElementById('app').dataset.day === '2026-03-14'")
        solve(page, 1, 2)
        assert page.locator("#pz-ranking tbody tr").count() == 15
        assert "not your streak" in page.inner_text("#table") and app(page, "streak") == "0"
    finally:
        context.set_offline(False)

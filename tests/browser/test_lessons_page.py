"""Learn to play in Chromium (issue 33): the first two stages played by tapping on a phone and by the
keyboard alone, the answers worked out from the cards on screen by the engine's scorer; stars kept
across a reload; each answer spoken in the page's live region; an axe-core scan of the lesson screens."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import STORE_GET, axe_audit, wait_ready, watch_console

from cribbage.cards import parse_card
from cribbage.lessons import STAGES
from cribbage.scoring import fifteens, pairs

PHONE = {"width": 360, "height": 740}
FIRST_TWO = sum(len(s.levels) for s in STAGES[:2])


def open_page(page: Any, base_url: str) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.goto(base_url + "?delay=0&seed=5")
    wait_ready(page)


def title(page: Any) -> str:
    return page.inner_text("#dlg-lessons-title")


def answer_now(page: Any) -> tuple[list[list[str]], int | None, list[str]]:
    """The level on screen answered by the scorer: the combinations to tap (by card code), or the
    number to enter; and the cards shown in order."""
    scorer = fifteens if title(page).startswith("Fifteens") else pairs
    tappable = page.eval_on_selector_all(
        '#dlg-lessons [data-action="lesson-card"]', "els => els.map(e => e.dataset.card)"
    )
    if tappable:
        items = scorer([parse_card(c) for c in tappable])
        return [[c.code for c in i.cards] for i in items], None, tappable
    shown = page.eval_on_selector_all("#dlg-lessons .lesson-cards [data-card]", "els => els.map(e => e.dataset.card)")
    return [], sum(i.points for i in scorer([parse_card(c) for c in shown])), shown


def live(page: Any) -> str:
    return page.inner_text("#live")


def test_the_first_two_stages_by_tapping_on_a_phone_and_the_stars_survive_a_reload(
        browser: Any, base_url: str, request: pytest.FixtureRequest) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = watch_console(page, request)
    open_page(page, base_url)
    page.tap("#btn-learn")
    page.wait_for_selector("#dlg-lessons")
    page.tap("#lesson-stage-0")
    for n in range(FIRST_TWO):
        page.wait_for_selector("#lesson-goal")
        assert "level" in title(page)
        combos, number, _ = answer_now(page)
        if number is None:
            for combo in combos:
                for code in combo:
                    page.tap(f'#dlg-lessons [data-action="lesson-card"][data-card="{code}"]')
                page.tap("#lesson-claim")
            if not page.locator("#lesson-next").count():
                page.tap("#lesson-done")
        else:
            for digit in str(number):
                page.tap(f"#lesson-digit-{digit}")
            page.tap("#lesson-check")
        page.wait_for_selector("#lesson-next")
        assert "3 stars" in live(page), live(page)
        widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth, "
                               "document.querySelector('#dlg-lessons').scrollWidth - "
                               "document.querySelector('#dlg-lessons').clientWidth]")
        assert widths[0] <= widths[1] and widths[2] <= 0, f"sideways scroll at level {n + 1}: {widths}"
        for box in page.eval_on_selector_all("#dlg-lessons button", "els => els.map(e => { const r = "
                                             "e.getBoundingClientRect(); return [e.id, r.width, r.height] })"):
            assert box[1] >= 44 and box[2] >= 44, box
        page.tap("#lesson-next")
    assert title(page).startswith("Runs")
    stored = page.evaluate(STORE_GET, "cribbage.lessons")
    assert '"fifteens":[3,3,3,3,3,3]' in stored and '"pairs":[3,3,3,3,3]' in stored
    page.wait_for_timeout(300)  # (the store writes through in the background)
    page.reload()
    wait_ready(page)
    assert not page.locator("#btn-learn").count()  # begun: the first screen no longer offers it
    page.tap("#tool-menu")
    page.tap("#btn-lessons")
    page.wait_for_selector("#dlg-lessons")
    assert page.get_attribute("#lesson-level-1-4", "aria-label") == "Level 5, 3 of 3 stars"
    assert page.get_attribute("#lesson-level-2-0", "aria-label") == "Level 1, 0 of 3 stars"
    context.close()
    assert not watch.problems, watch.problems


def test_the_first_two_stages_by_keyboard_alone(page: Any, base_url: str) -> None:
    open_page(page, base_url)
    keys = page.keyboard
    keys.press("m")
    page.wait_for_selector("#dlg-menu")
    for _ in range(60):
        if page.evaluate("() => document.activeElement && document.activeElement.id") == "btn-lessons":
            break
        keys.press("Tab")
    keys.press("Enter")
    page.wait_for_selector("#dlg-lessons")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'lesson-stage-0'")
    keys.press("Enter")
    page.wait_for_selector("#lesson-goal")
    assert "Tap the two cards that make 15" in live(page) and "5 of hearts" in live(page)
    # A wrong answer first: spoken, with the cards.
    keys.press("2")
    keys.press("3")
    keys.press("Enter")
    page.wait_for_function("() => document.getElementById('live').textContent.includes('is not a fifteen')")
    assert "10\u2666 3\u2663 is not a fifteen: they add up to 13" in page.inner_text("#lesson-feedback")
    for _ in range(FIRST_TWO):
        page.wait_for_selector("#lesson-goal")
        combos, number, shown = answer_now(page)
        if number is None:
            for combo in combos:
                for code in combo:
                    keys.press(str(shown.index(code) + 1))
                keys.press("Enter")
            if not page.locator("#lesson-next").count():
                keys.press("d")
        else:
            for digit in str(number):
                keys.press(digit)
            keys.press("Enter")
        page.wait_for_selector("#lesson-next")
        page.wait_for_function("() => document.activeElement && document.activeElement.id === 'lesson-next'")
        assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
        keys.press("Enter")  # the focused Next button
    assert title(page).startswith("Runs")
    keys.press("Escape")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'lesson-stage-2'")
    assert page.get_attribute("#lesson-level-0-0", "aria-label") == "Level 1, 2 of 3 stars"  # the wrong answer
    assert page.get_attribute("#lesson-level-1-0", "aria-label") == "Level 1, 3 of 3 stars"
    keys.press("Escape")
    page.wait_for_function("() => !document.querySelector('#dlg-lessons')")


def test_the_lesson_screens_have_no_accessibility_violations(audit_page: Any, base_url: str) -> None:
    open_page(audit_page, base_url)
    audit_page.click("#btn-learn")
    audit_page.wait_for_selector("#dlg-lessons")
    problems = {}
    if found := axe_audit(audit_page, ("minor", "moderate", "serious", "critical")):
        problems["map"] = found
    audit_page.click("#lesson-stage-0")
    audit_page.click('#dlg-lessons [data-card="TD"]')
    audit_page.click('#dlg-lessons [data-card="3C"]')
    audit_page.click("#lesson-claim")
    if found := axe_audit(audit_page, ("minor", "moderate", "serious", "critical")):
        problems["a level, a wrong answer"] = found
    audit_page.click("#lesson-map")
    audit_page.click("#lesson-stage-4")  # count a whole hand: the number pad
    if found := axe_audit(audit_page, ("minor", "moderate", "serious", "critical")):
        problems["the number pad"] = found
    audit_page.click("#lesson-map")
    audit_page.click("#lesson-drill-peg")
    if found := axe_audit(audit_page, ("minor", "moderate", "serious", "critical")):
        problems["a drill"] = found
    assert not problems, problems
    for size in ({"width": 400, "height": 500}, {"width": 1280, "height": 800}):  # an embed's frame, a desktop
        audit_page.set_viewport_size(size)
        for where in ("#lesson-map", "#lesson-stage-7", "#lesson-map", "#lesson-stage-0"):
            audit_page.click(where)
            widths = audit_page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth, "
                                         "document.querySelector('#dlg-lessons').scrollWidth - "
                                         "document.querySelector('#dlg-lessons').clientWidth]")
            assert widths[0] <= widths[1] and widths[2] <= 0, (size, where, widths)

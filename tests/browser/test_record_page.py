"""The player's record in Chromium: a match finished, its chart on the game-over screen, the history
and the statistics on a desktop and on a 360-px phone, export (the download), cleared site data,
import, everything found again; an axe audit of the new screens.

A fast path to the end: a match against the computer is played (random legal moves, in CPython)
until someone is past 100, stored as the saved game, and finished in the page with ``?delay=0``.
The contexts bypass the CSP only so that axe can be injected; console errors still fail the test.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from browser_harness import STORE_ALL, STORE_CLEAR, STORE_GET, STORE_SET, axe_audit, wait_ready, watch_console
from test_table import Table

from cribbage.match import Match
from cribbage.record import HISTORY_KEY

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


def near_the_end(seed: int = 11) -> Match:
    """A match against the computer with someone past 100 points (not over)."""
    match = Match(seed, humans=(0,), names=("You", "Computer"), options={"level": "easy"})
    rng = random.Random(seed)
    while max(match.state.scores) < 100:
        match.apply(rng.choice(match.legal_actions()))
    assert not match.state.is_over
    return match


def open_context(browser: Any, viewport: dict[str, int], request: pytest.FixtureRequest, phone: bool = False) \
        -> tuple[Any, Any, Any]:
    context = browser.new_context(viewport=viewport, bypass_csp=True, accept_downloads=True,
                                  has_touch=phone, is_mobile=phone)
    page = context.new_page()
    return context, page, watch_console(page, request)


def no_sideways_scroll(page: Any, where: str) -> None:
    widths = page.evaluate("""() => [document.documentElement.scrollWidth, window.innerWidth,
        ...[...document.querySelectorAll('.dialog')].map(d => d.scrollWidth - d.clientWidth)]""")
    assert widths[0] <= widths[1], f"the page scrolls sideways on {where}: {widths}"
    assert all(w <= 0 for w in widths[2:]), f"a dialog scrolls sideways on {where}: {widths}"


def audit(page: Any, name: str, problems: dict[str, Any]) -> None:
    found = axe_audit(page)
    if found:
        problems[name] = found


def open_record(page: Any) -> None:
    page.keyboard.press("m")
    page.click("#btn-record")
    page.wait_for_selector("#dlg-record")


def test_finish_see_the_chart_export_clear_import_and_find_everything(
        browser: Any, base_url: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    problems: dict[str, Any] = {}
    context, page, watch = open_context(browser, DESKTOP, request)
    table = Table(page, base_url, fast=True)
    table.open("?delay=0")
    saved = near_the_end()
    page.evaluate(STORE_SET, {"cribbage.save.computer": saved.to_json(),
                              "cribbage.ui.computer": json.dumps({"ack": 999}), "cribbage.mode": "computer"})
    table.open("?delay=0")
    assert table.meta("phase") != "cut for deal"
    while table.step():
        pass
    # Game over: the race to 121, with its text summary.
    you, computer = table.scores()
    chart = page.locator("#table .game-over-chart svg.chart")
    assert chart.is_visible()
    label = chart.get_attribute("aria-label") or ""
    assert f"{max(you, computer)} to {min(you, computer)}" in label
    caption = page.inner_text("#table .game-over-chart figcaption")
    assert f"You (solid line) {you}, Computer (dashed line) {computer}" in caption
    dots = page.eval_on_selector_all("#table .game-over-chart circle.hand-end",
                                     "els => els.map(e => [+e.dataset.seat, +e.dataset.score])")
    assert [s for seat, s in dots if seat == 0][-1] == you and [s for seat, s in dots if seat == 1][-1] == computer
    audit(page, "game over", problems)
    # The record: kept once, even after a reload on the game-over screen.
    page.reload()
    wait_ready(page)
    assert table.meta("phase") == "game over"
    history = json.loads(page.evaluate(STORE_GET, HISTORY_KEY))
    assert len(history["records"]) == 1
    page.click("#btn-record-open")
    page.wait_for_selector("#dlg-record")
    links = page.locator("#dlg-record .match-link")
    assert links.count() == 1
    headline = links.first.locator(".headline").inner_text()
    assert headline.startswith("You won" if you > computer else "You lost") and "easy" in headline
    text = page.inner_text("#dlg-record")
    assert "vs computer (easy)" in text and "Expert as dealer" in text and "Best hand" in text
    assert page.locator("#dlg-record svg.chart").count() >= 2
    no_sideways_scroll(page, "the desktop record")
    audit(page, "record", problems)
    links.first.click()
    page.wait_for_selector("#dlg-record .race svg.chart")
    assert "Points hand by hand" in page.inner_text("#dlg-record")
    page.click("#record-review-1")
    page.wait_for_selector("ul#record-review-1 li", timeout=90_000)  # (the coach in Pyodide: 30 s ran out once)
    audit(page, "one match", problems)
    page.click("#btn-record-back")
    # Export: the download is the bundle of everything stored.
    with page.expect_download() as info:
        page.click("#btn-export")
    download = info.value
    assert download.suggested_filename.startswith("cribbage-") and download.suggested_filename.endswith(".json")
    exported = tmp_path / download.suggested_filename
    download.save_as(exported)
    bundle = json.loads(exported.read_text())
    assert bundle["format"] == "cribbage-export" and HISTORY_KEY in bundle["data"]
    stored = page.evaluate(STORE_ALL)
    assert bundle["data"] == {k: v for k, v in stored.items() if k.startswith("cribbage.")}
    # Cleared site data: a new match, no record...
    page.evaluate(STORE_CLEAR)
    table.open("?delay=0")
    assert table.meta("phase") == "cut for deal"
    open_record(page)
    assert page.locator("#dlg-record .match-link").count() == 0
    # ... a file that is not ours is refused, nothing stored changes ...
    before = page.evaluate(STORE_ALL)
    foreign = tmp_path / "other.json"
    foreign.write_text(json.dumps({"hello": "world"}))
    page.set_input_files("#import-file", str(foreign))
    page.wait_for_selector("#dlg-record .record-message.error")
    assert "not a cribbage export file" in page.inner_text("#dlg-record .record-message")
    assert page.evaluate(STORE_ALL) == before
    # ... and the export comes back: it asks before replacing the new match, then everything is there.
    page.set_input_files("#import-file", str(exported))
    page.wait_for_selector("#btn-import-confirm")
    audit(page, "import question", problems)
    page.click("#btn-import-confirm")
    page.wait_for_selector("#dlg-record .match-link")
    assert page.locator("#dlg-record .match-link .headline").first.inner_text() == headline
    again = page.evaluate(STORE_ALL)
    for key, value in bundle["data"].items():
        assert again[key] == value, key
    page.keyboard.press("Escape")
    assert table.meta("phase") == "game over"
    # The same file again adds nothing.
    open_record(page)
    page.set_input_files("#import-file", str(exported))
    page.wait_for_selector("#dlg-record .record-message")
    assert "already here" in page.inner_text("#dlg-record .record-message")
    assert page.locator("#dlg-record .match-link").count() == 1
    context.close()
    assert not watch.problems, watch.problems

    # A phone, its site data empty: import, then the history, the statistics and a chart at 360 px.
    context, page, watch = open_context(browser, PHONE, request, phone=True)
    table = Table(page, base_url, fast=True)
    table.open("?delay=0")
    open_record(page)
    page.set_input_files("#import-file", str(exported))
    page.click("#btn-import-confirm")
    page.wait_for_selector("#dlg-record .match-link")
    no_sideways_scroll(page, "the phone record")
    box = page.locator("#dlg-record svg.chart").first.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"] and box["width"] >= 250
    audit(page, "phone record", problems)
    page.locator("#dlg-record .match-link").first.click()
    page.wait_for_selector("#dlg-record .race svg.chart")
    no_sideways_scroll(page, "the phone match")
    page.keyboard.press("Escape")
    assert table.meta("phase") == "game over"
    no_sideways_scroll(page, "the phone game-over screen")
    context.close()
    assert not watch.problems, watch.problems
    assert not problems, problems

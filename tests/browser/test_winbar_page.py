"""The chance-of-winning bar in Chromium (issue 21): present by the board against the computer with
the model's figures, switched off from the menu and remembered over a reload; it fits a phone."""

from __future__ import annotations

import re
from typing import Any

from browser_harness import wait_ready

BAR = "#winbar"


def open_table(page: Any, base_url: str, query: str = "?seed=7&delay=0") -> None:
    page.emulate_media(reduced_motion="reduce")
    page.goto(base_url + query)
    wait_ready(page)


def cut_for_deal(page: Any) -> None:
    page.locator(".fan-card.legal").nth(10).dispatch_event("click")
    page.wait_for_function("() => document.getElementById('app').dataset.busy === 'false'", timeout=30_000)


def test_the_bar_is_by_the_board_against_the_computer_and_the_menu_turns_it_off(page: Any, base_url: str) -> None:
    open_table(page, base_url)
    cut_for_deal(page)
    page.wait_for_selector(f'{BAR}[data-state="shown"]', timeout=60_000)  # once the coach is loaded
    label = page.get_attribute(BAR, "aria-label") or ""
    match = re.fullmatch(r"Chance of winning: You (\d+)%, Computer (\d+)%", label)
    assert match and int(match[1]) + int(match[2]) == 100, label
    a, b = (float(page.get_attribute(BAR, f"data-chance{s}") or "nan") for s in (0, 1))
    assert abs(a + b - 1) < 1e-3
    # By the board: the bar and the board share their column.
    assert page.evaluate("() => document.getElementById('winbar').parentElement"
                         ".querySelector('.board-wrap svg.board') !== null")
    box = page.locator(BAR).bounding_box()
    assert box is not None and 0 < box["height"] < 48
    page.click("#tool-menu")
    assert page.get_attribute("#winbar-toggle", "aria-pressed") == "true"
    page.click("#winbar-toggle")
    assert page.get_attribute("#winbar-toggle", "aria-pressed") == "false"
    page.click("#btn-close")
    page.wait_for_selector(BAR, state="detached")
    page.reload()
    wait_ready(page)
    page.wait_for_timeout(500)
    assert page.locator(BAR).count() == 0  # remembered


def test_the_bar_fits_a_phone(page: Any, base_url: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    open_table(page, base_url)
    cut_for_deal(page)
    page.wait_for_selector(f'{BAR}[data-state="shown"]', timeout=60_000)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360
    box = page.locator(BAR).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360

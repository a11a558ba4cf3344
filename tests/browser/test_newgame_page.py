"""The New game dialog in Chromium: choose a game to 61 and a best-of-three series against the
computer, play the first game to its end and read the games score in the header; the dialog by
keyboard (arrow keys in a radio group, Esc); and its accessibility audit.

The computer moves with no delay (``?delay=0``) and a fixed seed, as in test_table.py, whose
:class:`Table` drives a whole game through the page's ``data-*`` hooks.
"""

from __future__ import annotations

import re
from typing import Any

from browser_harness import axe_audit
from test_table import Table


def open_dialog(table: Table) -> None:
    table.page.click("#tool-menu")
    table.page.click("#btn-newgame")
    table.page.wait_for_selector("#dlg-newgame")


def test_a_best_of_three_to_61_against_the_computer_counts_the_first_game_in_the_header(
        page: Any, base_url: str) -> None:
    table = Table(page, base_url).open("?seed=31&delay=0&level=easy")
    open_dialog(table)
    # The preview says what Start opens before anything starts.
    page.click("label[for='ng-to-61']")
    page.click("label[for='ng-series-3']")
    preview = page.inner_text("#ng-preview")
    assert "to 61" in preview and "best of 3 games (first to 2)" in preview, preview
    assert page.is_checked("#ng-to-61") and page.is_checked("#ng-series-3")
    assert page.is_enabled("#ng-preset-three")  # the tables for three and four are drawn
    page.click("#btn-newgame-start")
    page.wait_for_selector("#dlg-newgame", state="detached")
    assert page.inner_text("#series-score").startswith("Games 0\u20130")
    table.fast = True
    while table.step():
        pass
    you, computer = table.scores()
    assert max(you, computer) >= 61 and max(you, computer) < 121
    loser = min(you, computer)
    worth = 2 if loser < 31 else 1  # a skunk in a game to 61: the loser below 31
    expected = (worth, 0) if you > computer else (0, worth)
    header = page.inner_text("#series-score")
    assert header.startswith(f"Games {expected[0]}\u2013{expected[1]}"), header
    if worth == 1:
        assert page.inner_text("#btn-new").startswith("Next game")
        page.click("#btn-new")
        page.wait_for_function("() => document.getElementById('app').dataset.phase !== 'game over'")
        assert page.inner_text("#series-score").startswith(f"Games {expected[0]}\u2013{expected[1]}")
    else:  # a skunk won the series at once: its summary lists the game with its chart
        assert "the series" in page.inner_text("#series-summary")
        assert page.locator("#series-summary .chart-box").count() == 1


def test_the_dialog_by_keyboard_and_the_choice_is_preselected_next_time(page: Any, base_url: str) -> None:
    table = Table(page, base_url).open("?seed=5&delay=0")
    open_dialog(table)
    page.focus("#ng-to-121")
    page.keyboard.press("ArrowDown")  # within the radio group: the game to 61
    page.wait_for_function("() => document.getElementById('ng-to-61')?.checked")
    assert re.search(r"to 61", page.inner_text("#ng-preview"))
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'ng-to-61'")
    page.keyboard.press("Escape")
    page.wait_for_selector("#dlg-newgame", state="detached")
    open_dialog(table)  # nothing was started: the remembered choice is still the last one started
    assert page.is_checked("#ng-to-121")
    page.click("label[for='ng-to-61']")
    page.click("#btn-newgame-start")
    page.wait_for_selector("#dlg-newgame", state="detached")
    open_dialog(table)
    assert page.is_checked("#ng-to-61")


def test_the_new_game_dialog_has_no_serious_accessibility_problems(audit_page: Any, base_url: str) -> None:
    table = Table(audit_page, base_url).open("?seed=8&delay=0")
    open_dialog(table)
    problems = {}
    if found := axe_audit(audit_page):
        problems["dialog"] = found
    audit_page.click("label[for='ng-series-5']")  # the series' own choices appear
    audit_page.click("label[for='ng-seat-1-player']")
    if found := axe_audit(audit_page):
        problems["dialog with a series"] = found
    assert not problems, problems


def test_url_options_choose_the_table_of_a_new_match(page: Any, base_url: str) -> None:
    table = Table(page, base_url).open("?seed=6&delay=0&to=61&series=5,alternate&level=medium")
    assert page.inner_text("#series-score").startswith("Games 0\u20130")
    assert "Medium" in page.inner_text(".brand-mode") or page.viewport_size["width"] < 640
    open_dialog(table)  # preselected: the address's choice
    assert page.is_checked("#ng-to-61") and page.is_checked("#ng-series-5") and page.is_checked("#ng-deal-alternate")
    assert page.is_checked("#ng-seat-1-medium")

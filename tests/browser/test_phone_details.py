"""Issue 29, item 6 (what a newcomer tripped over on a phone) and the Looks comfort, in Chromium at the
phone sizes (390x844 and 360x740 upright, 740x360 and 844x390 on its side, touch):

- a damaged save's notice stays inside the window and speaks in a player's words (the storage key is
  in its folded details);
- game over: the three costliest decisions are shown whole, and the race chart's hand numbers do not
  run into each other;
- four players: every header plate names its seat, in full;
- a phone on its side: the board is large enough to read and the chance of winning is not cut;
- a challenge's introduction leaves once the player has made a move;
- no keyboard badge on a touch phone;
- the felt and the card backs chosen in the menu survive a reload.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest
from browser_harness import STORE_ALL, STORE_SET, wait_ready
from test_table import Table

from cribbage.challenge import Challenge
from cribbage.match import Match

PHONES = {"390x844": (390, 844), "360x740": (360, 740)}
SIDEWAYS = {"740x360": (740, 360), "844x390": (844, 390)}

BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def _phone(browser: Any, w: int, h: int, touch: bool = True) -> Any:
    return browser.new_context(viewport={"width": w, "height": h}, has_touch=touch, is_mobile=touch)


@pytest.fixture
def open_table(browser: Any, base_url: str) -> Iterator[Any]:
    """``open_table(w, h, query, touch=True)``: a Table in a new context of that size (closed after)."""
    contexts: list[Any] = []

    def make(w: int, h: int, query: str = "?seed=7&delay=0", touch: bool = True) -> Table:
        context = _phone(browser, w, h, touch)
        contexts.append(context)
        return Table(context.new_page(), base_url, fast=True).open(query)

    yield make
    for context in contexts:
        context.close()


def _inside(box: list[float], w: int, h: int) -> bool:
    return box[0] >= -1 and box[1] >= -1 and box[2] <= w + 1 and box[3] <= h + 1


# --- the damaged save -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(PHONES))
def test_a_damaged_saves_notice_fits_the_phone_and_speaks_plainly(open_table: Any, size: str) -> None:
    """It ran past the right edge (its OK button off the screen) and named the key
    "cribbage.save.computer.corrupt.<time>" in its sentence."""
    w, h = PHONES[size]
    table = open_table(w, h)
    page = table.page
    # (A cold context of a test not marked cold_boot makes no start-up snapshot: tests/browser/conftest.py.)
    page.wait_for_function("() => !!cribbageStart.skipped", timeout=30_000)
    assert page.evaluate("() => cribbageStart.skipped") == "device memory 2 GB"
    page.evaluate(STORE_SET, {"cribbage.save.computer": '{"format": "cribbage-match", junk',
                              "cribbage.mode": "computer"})
    page.reload()
    wait_ready(page)
    for selector in (".notice", ".notice p", "#btn-notice"):
        box = page.eval_on_selector(selector, BOX)
        assert _inside(box, w, h), (selector, box)
    scroll = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll[0] <= scroll[1], scroll
    said = page.inner_text(".notice")
    assert "could not be read" in said and "new game has started" in said
    assert ".corrupt." not in said and "cribbage.save" not in said, said  # the key is a detail, folded
    page.click(".notice-details summary")
    key = next(k for k in page.evaluate(STORE_ALL) if k.startswith("cribbage.save.computer.corrupt."))
    assert key in page.inner_text(".notice-details")
    assert _inside(page.eval_on_selector(".notice-details", BOX), w, h)
    page.click("#btn-notice")
    assert page.locator(".notice").count() == 0


# --- game over --------------------------------------------------------------------------------------


def _finished(seed: int = 18) -> Match:
    """A match played to its end by random legal moves. Seed 18's twelve hands end two of them close
    together on the race chart (its numbers used to overlap)."""
    match = Match(seed, humans=(0,), names=("You", "Computer"), options={"level": "expert"})
    rng = random.Random(seed)
    while not match.state.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.mark.parametrize("size", list(PHONES))
def test_game_over_shows_three_decisions_whole_and_readable_hand_numbers(open_table: Any, size: str) -> None:
    w, h = PHONES[size]
    table = open_table(w, h, "?delay=0")
    page = table.page
    page.evaluate(STORE_SET, {"cribbage.save.computer": _finished().to_json(), "cribbage.mode": "computer"})
    page.reload()
    wait_ready(page)
    assert table.meta("phase") == "game over"
    page.wait_for_function("() => document.querySelectorAll('.costly-list li').length >= 3", timeout=120_000)
    middle = page.eval_on_selector(".felt > .middle", BOX)
    items = page.eval_on_selector_all(".costly-list li", f"els => els.map({BOX})")
    assert len(items) == 3
    for box in items:  # each decision inside the middle's visible part, not under the prompt
        assert box[1] >= middle[1] - 1 and box[3] <= middle[3] + 1, (size, box, middle)
        assert _inside(box, w, h)
    prompt = page.eval_on_selector(".felt > .prompt", BOX)
    assert items[-1][3] <= prompt[1] + 1, (items[-1], prompt)
    # The race chart's hand numbers: the last hand named, no two boxes touching.
    labels = page.eval_on_selector_all(".game-over-chart text.hand-label",
                                       f"els => els.map(e => [e.textContent, ...({BOX})(e)])")
    assert len(labels) >= 6 and labels[-1][0] == "12", labels
    for (_, _, _, right, _), (text, left, _, _, _) in zip(labels, labels[1:]):
        assert left >= right, f"hand {text} runs into the number before it: {labels}"


# --- four players ----------------------------------------------------------------------------------


FOUR = {"computers": "?seed=43&delay=0&players=4&seats=you,easy,easy,easy&to=61",
        "hot-seat": "?seed=61&delay=0&players=4&seats=you,player,player,player&to=61"}


@pytest.mark.parametrize("size", list(PHONES))
@pytest.mark.parametrize("table_of", list(FOUR))
def test_four_players_plates_name_every_seat_in_full(open_table: Any, size: str, table_of: str) -> None:
    """The far seats' plates showed a colour and a score only (two blue plates, both "125"), and the
    hot-seat's own plate a name cut to "Player…"."""
    w, h = PHONES[size]
    table = open_table(w, h, FOUR[table_of])
    page = table.page
    if table.meta("covered") == "true":
        table.press("#btn-ready")
        table.settle()
    names = page.eval_on_selector_all(
        ".plate", "els => els.map(p => { const n = p.querySelector('.plate-name'); const r = n.getBoundingClientRect();"
        " return [n.textContent, r.width, r.height, n.scrollWidth, n.clientWidth, getComputedStyle(n).display] })")
    assert len(names) == 4 and len({n[0] for n in names}) == 4 and all(n[0] for n in names), names
    for text, width, height, scroll, client, display in names:
        assert display != "none" and width > 0 and height > 0, (size, text)
        assert scroll <= client, f"{text!r} is cut on its plate at {size}"
    boxes = page.eval_on_selector_all(".plate", f"els => els.map({BOX})")
    for i, box in enumerate(boxes):
        assert _inside(box, w, h), box
        for other in boxes[i + 1:]:
            assert box[2] <= other[0] + 1 or other[2] <= box[0] + 1, (box, other)


# --- a phone on its side ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIDEWAYS))
def test_on_its_side_the_board_is_large_and_the_chance_is_whole(open_table: Any, size: str) -> None:
    """At 740x360 the board stood upright beside the table, 40 px wide, and the chance of winning
    under it read "…"."""
    w, h = SIDEWAYS[size]
    table = open_table(w, h)
    table.until(lambda: table.meta("phase") == "play" and table.meta("turn") == "me")
    page = table.page
    board = page.eval_on_selector(".board", BOX)
    width, height = board[2] - board[0], board[3] - board[1]
    assert width >= 0.6 * w and height >= 70, (size, width, height)
    assert _inside(board, w, h)
    page.wait_for_function("() => /%/.test(document.querySelector('.winbar-text').textContent)")
    spans = page.eval_on_selector_all(
        ".winbar-text > span", "els => els.map(e => [e.innerText, e.scrollWidth, e.clientWidth])"
    )
    assert len(spans) >= 2
    for text, scroll, client in spans:
        assert "…" not in text and scroll <= client, (size, spans)
    said = page.inner_text(".winbar-text")
    assert "You" in said and "Computer" in said and said.count("%") == 2, said
    # The table itself still fits: the hand, the primary button and the pile in the window.
    for selector in (".hand-me .hand-card", "#table .actions .btn-primary", ".count-badge"):
        for box in page.eval_on_selector_all(selector, f"els => els.map({BOX})"):
            assert _inside(box, w, h), (size, selector, box)
    scroll = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert scroll[0] <= w + 1 and scroll[1] <= h + 1, scroll


# --- a challenge's introduction ----------------------------------------------------------------------


def test_a_challenges_introduction_leaves_after_the_first_move(open_table: Any) -> None:
    from test_challenge_page import finished

    text = Challenge.from_match(finished(), "Ann").encode()
    table = open_table(390, 844, "?mode=challenge&delay=0#challenge=" + text)
    page = table.page
    assert "Ann challenges you" in page.inner_text(".notice")
    table.until(lambda: table.meta("phase") == "discard" and table.meta("turn") == "me")
    assert page.locator(".notice").count() == 1  # still there to be read until the player moves
    table.step()  # the discard
    table.settle()
    assert page.locator(".notice").count() == 0, page.inner_text(".notice")


# --- keyboard badges ----------------------------------------------------------------------------------


def test_no_keyboard_badge_on_a_touch_phone(open_table: Any) -> None:
    """Game over offered "Score sheet [S]" on a phone with no keyboard."""
    phone = open_table(390, 844, "?delay=0")
    desk = open_table(1280, 800, "?delay=0", touch=False)
    saved = {"cribbage.save.computer": _finished().to_json(), "cribbage.mode": "computer"}
    for table in (phone, desk):
        table.page.evaluate(STORE_SET, saved)
        table.page.reload()
        wait_ready(table.page)
        assert table.meta("phase") == "game over"
    assert phone.page.locator("#btn-sheet2").is_visible()
    assert not phone.page.locator("#btn-sheet2 kbd").is_visible()
    assert desk.page.locator("#btn-sheet2 kbd").is_visible()  # a keyboard's player still sees it


# --- Looks ----------------------------------------------------------------------------------------------


def test_the_looks_chosen_in_the_menu_survive_a_reload(open_table: Any) -> None:
    table = open_table(390, 844, "?seed=7&delay=0")
    page = table.page
    felt = "() => getComputedStyle(document.querySelector('.felt')).backgroundImage"
    back = "() => getComputedStyle(document.querySelector('.card.back')).backgroundColor"
    table.until(lambda: table.meta("phase") == "discard")
    green, red = page.evaluate(felt), page.evaluate(back)
    assert page.evaluate("() => document.body.dataset.lookFelt") == "green"
    page.click("#tool-menu")
    page.click("#look-felt-claret")
    assert page.get_attribute("#look-felt-claret", "aria-pressed") == "true"
    page.click("#look-back-navy")
    assert page.get_attribute("#look-back-navy", "aria-pressed") == "true"
    assert page.get_attribute("#look-back-red", "aria-pressed") == "false"
    page.reload()
    wait_ready(page)
    assert page.evaluate("() => [document.body.dataset.lookFelt, document.body.dataset.lookBack]") == ["claret", "navy"]
    assert page.evaluate(felt) != green and page.evaluate(back) != red
    assert page.evaluate(back) == "rgb(31, 63, 122)"
    page.click("#tool-menu")
    assert page.get_attribute("#look-felt-claret", "aria-pressed") == "true"
    # Another setting (the computer's speed) written after it leaves the looks as they are.
    page.click("#speed-250")
    page.reload()
    wait_ready(page)
    assert page.evaluate("() => document.body.dataset.lookFelt") == "claret"

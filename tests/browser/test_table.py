"""Playing the web table in Chromium: every phase by clicks and by keyboard, hot-seat covers,
undo/redo, restart, reload, a corrupt save, the phone layout and an accessibility audit.

The computer moves with no delay (``?delay=0``) and a fixed seed (``?seed=...``), so every run
deals the same cards. ``#app`` carries ``data-phase``, ``data-turn``, ``data-busy`` and
``data-covered``; the tests wait on those rather than on time.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from browser_harness import STORE_ALL, STORE_GET, STORE_SET, axe_audit, wait_ready

APP = "document.getElementById('app')"
SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


def pretty(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def spoken(code: str) -> str:
    return f"{RANK_NAMES.get(code[0], code[0])} of {SUIT_NAMES[code[1]]}"


class Table:
    """A page showing the table, with the few moves a player makes."""

    def __init__(self, page: Any, base_url: str, fast: bool = False) -> None:
        self.page = page
        self.base_url = base_url
        self.fast = fast

    def open(self, query: str = "?seed=7&delay=0") -> "Table":
        # Reduced motion turns off the card transitions: Playwright waits for a moving card to
        # settle before clicking, which would only slow the tests down.
        self.page.emulate_media(reduced_motion="reduce")
        self.page.goto(self.base_url + query)
        wait_ready(self.page)
        return self

    def meta(self, key: str) -> str:
        return self.page.evaluate(f"() => {APP}.dataset.{key}")

    def settle(self) -> None:
        """Wait until the computer has nothing left to do for now."""
        self.page.wait_for_function(f"() => {APP}.dataset.busy === 'false'", timeout=30_000)

    def hand(self) -> list[str]:
        return self.page.eval_on_selector_all(".hand-me [data-card]", "els => els.map(e => e.dataset.card)")

    def scores(self) -> tuple[int, int]:
        return tuple(int(self.page.inner_text(f'[data-seat-score="{s}"]')) for s in (0, 1))  # type: ignore[return-value]

    def cut(self, nth: int = 10) -> None:
        # The fanned cards overlap, so a real click lands on the visible sliver of a card; dispatching
        # the click on a chosen card keeps the test independent of the fan's geometry.
        self.page.locator(".fan-card.legal").nth(nth).dispatch_event("click")

    def press(self, selector: str) -> None:
        """Click like a player (Playwright checks the control is visible, enabled and on top), or,
        in ``fast`` mode, dispatch the click event on it (a whole match is hundreds of clicks)."""
        if self.fast:
            self.page.locator(selector).first.dispatch_event("click")
        else:
            self.page.click(selector)

    def step(self) -> bool:
        """Make the next decision for whoever sits at the bottom; False once the game is over."""
        self.settle()
        page = self.page
        state = page.evaluate(f"() => ({{...{APP}.dataset}})")
        phase, turn = state["phase"], state["turn"]
        if phase == "game over":
            return False
        if state["covered"] == "true":
            self.press("#btn-ready")
        elif phase == "hand over":
            self.press("#btn-next")
        elif turn != "me":
            page.wait_for_timeout(20)
        elif phase in ("cut for deal", "cut", "starter"):
            self.cut()
        elif phase == "discard":
            self.press("#hand-0")
            self.press("#hand-1")
            self.press("#btn-discard")
        elif phase == "play":
            if page.locator("#btn-go").count():
                self.press("#btn-go")
            else:
                self.press(".hand-me button.hand-card:not([aria-disabled])")
                self.press("#btn-play")
        elif phase == "show":
            self.press("#btn-count")
        return True

    def until(self, condition, limit: int = 600) -> None:
        for _ in range(limit):
            self.settle()
            if condition():
                return
            if not self.step():
                break
        assert condition(), "the table never got there"


@pytest.fixture
def table(page: Any, base_url: str) -> Table:
    return Table(page, base_url)


def test_a_whole_match_against_the_computer(table: Table) -> None:
    table.fast = True  # the other tests click like a player; this one makes a few hundred moves
    table.open("?seed=2024&delay=0&level=easy")
    assert table.meta("phase") == "cut for deal"
    phases = set()
    while table.step():
        phases.add(table.meta("phase"))
    assert {"cut", "discard", "starter", "play", "show", "hand over"} <= phases
    you, computer = table.scores()
    assert max(you, computer) >= 121
    winner = table.page.get_attribute("[data-winner]", "data-winner")
    assert winner == ("0" if you > computer else "1")
    # Every point is on the score sheet, naming its cards.
    table.page.click("#tool-sheet")
    rows = table.page.eval_on_selector_all(
        "#dlg-sheet tbody tr[class^='seat-']",
        "rows => rows.map(r => [r.className, +r.querySelector('.pts').textContent])")
    totals = [sum(p for cls, p in rows if cls == f"seat-{s}") for s in (0, 1)]
    assert totals == [you, computer]
    # How long each tap and the computer's moves take is measured by py/tools/bench_taps.py, not
    # here (a timed assertion fails on a busy machine, not on a slow page).


def test_previews_before_confirming_and_a_hint(table: Table) -> None:
    page = table.open().page
    table.until(lambda: table.meta("phase") == "discard" and table.meta("turn") == "me")
    assert page.get_attribute("#btn-discard", "aria-disabled") == "true"
    page.click("#hand-2")
    page.click("#hand-4")
    assert page.get_attribute("#btn-discard", "aria-disabled") is None
    keep = page.inner_text(".discard-stage .keep")
    assert re.search(r"keep \d+ points?", keep)
    # The coach's expected values (loaded after the paint if the page had no idle moment before).
    page.locator(".keep-ev", has_text="With the starter: hand").wait_for(timeout=20_000)
    page.keyboard.press("h")
    assert page.locator(".hint").count() == 1 and page.locator(".hand-card.hinted").count() == 2
    page.click("#btn-discard")
    table.until(lambda: table.meta("phase") == "play" and table.meta("turn") == "me"
                and page.locator("button.hand-card:not([aria-disabled])").count() > 0)
    first = page.locator(".hand-me button.hand-card:not([aria-disabled])").first
    code = first.get_attribute("data-card")
    first.click()
    assert f"Play {pretty(code)}? It makes" in page.inner_text("#headline")
    before = table.hand()
    first.click()  # tap again to confirm
    page.wait_for_function(f"() => !document.querySelector('.hand-me [data-card=\"{code}\"]')")
    assert len(table.hand()) == len(before) - 1


def test_hot_seat_covers_every_pass_then_undo_on_the_cover_before_the_device_is_passed(table: Table) -> None:
    """The first hand's every cover hides the hand passed; then, in the next hand, a discard taken back
    on the cover, but not once the device is passed (two tests of one start until 2026-12-05:
    docs/testing.md)."""
    table.fast = True  # moves by dispatched clicks; the cover's button gets a real click
    page = table.open("?mode=hotseat&seed=99&delay=0").page
    assert table.meta("mode") == "hotseat"
    seen: dict[str, set[str]] = {"0": set(), "1": set()}
    covers = 0
    cut_cards: set[str] = set()
    while table.meta("hand") in ("0", "1") and table.meta("phase") != "hand over":
        table.settle()
        if table.meta("phase") == "cut" and not cut_cards:
            cut_cards = set(page.eval_on_selector_all(".cut-show [data-card]", "e => e.map(x => x.dataset.card)"))
        if table.meta("covered") == "true":
            covers += 1
            html = page.content()
            public = set(page.eval_on_selector_all(
                ".pile [data-card], .earlier [data-card], .deck [data-card]", "e => e.map(x => x.dataset.card)"))
            assert page.locator(".hand [data-card]").count() == 0
            for seat, cards in seen.items():
                for code in cards - public - cut_cards:
                    assert f'data-card="{code}"' not in html, f"{code} of seat {seat} under the cover"
                    assert pretty(code) not in html and spoken(code) not in html
            assert "Pass to Player" in page.inner_text("#cover")
            page.click("#btn-ready")
            seat = table.meta("seat")
            seen[seat] |= set(table.hand())
            continue
        table.step()
    assert covers >= 4
    assert seen["0"] and seen["1"] and not (seen["0"] & seen["1"])

    # Undo on the cover before the device is passed (the next hand's discard; real clicks).
    table.until(lambda: table.meta("phase") == "discard" and table.meta("covered") == "false")
    assert page.locator("#btn-cover-undo").count() == 0
    mover = table.meta("seat")
    page.click("#hand-0")
    page.click("#hand-1")
    page.click("#btn-discard")
    page.wait_for_selector("#cover")
    page.click("#btn-cover-undo")  # a real click: on top, visible, enabled
    page.wait_for_function(f"() => {APP}.dataset.covered === 'false'")
    assert table.meta("seat") == mover and len(table.hand()) == 6
    # laid away again and passed: the other player cannot take it back
    page.click("#hand-0")
    page.click("#hand-1")
    page.click("#btn-discard")
    page.click("#btn-ready")
    assert table.meta("seat") != mover
    page.keyboard.press("Control+z")
    assert table.meta("seat") != mover and len(table.hand()) == 6


def test_undo_redo_and_restart_with_the_same_deals(table: Table) -> None:
    page = table.open("?seed=31&delay=0").page
    table.until(lambda: table.meta("phase") == "discard" and table.meta("turn") == "me")
    first_hand = table.hand()
    table.step()  # lay away; the computer lays away too (and, as pone, cuts the starter)
    table.settle()
    after = table.meta("phase")
    assert after in ("starter", "play") and len(table.hand()) == 4
    page.click("#tool-undo")
    assert table.meta("phase") == "discard" and table.hand() == first_hand
    page.keyboard.press("Control+y")
    table.settle()
    assert table.meta("phase") == after and len(table.hand()) == 4
    page.keyboard.press("Control+z")
    assert table.hand() == first_hand
    page.keyboard.press("Control+Shift+z")
    table.settle()
    assert len(table.hand()) == 4
    # Restart: a confirmation, then the same match from the cut for deal.
    page.click("#tool-menu")
    page.click("#btn-restart")
    assert table.meta("dialog") == "restart"
    page.click("#btn-restart-confirm")
    assert table.meta("phase") == "cut for deal" and table.scores() == (0, 0)
    table.until(lambda: table.meta("phase") == "discard" and table.meta("turn") == "me")
    assert table.hand() == first_hand


def test_a_reload_continues_the_match(table: Table) -> None:
    page = table.open("?seed=5&delay=0").page
    table.until(lambda: table.meta("phase") == "play" and table.meta("turn") == "me"
                and page.locator(".pile [data-card]").count() > 0)
    hand, scores = table.hand(), table.scores()
    pile = page.eval_on_selector_all(".pile [data-card]", "e => e.map(x => x.dataset.card)")
    saved = page.evaluate(STORE_GET, "cribbage.save.computer")
    assert json.loads(saved)["actions"]
    page.reload()
    wait_ready(page)
    assert table.meta("phase") == "play" and table.hand() == hand and table.scores() == scores
    assert page.eval_on_selector_all(".pile [data-card]", "e => e.map(x => x.dataset.card)") == pile


def test_a_corrupt_save_is_set_aside_and_a_new_match_starts(table: Table) -> None:
    page = table.open().page
    page.evaluate(STORE_SET, {"cribbage.save.computer": '{"format": "cribbage-match", junk',
                              "cribbage.mode": "computer"})
    page.reload()
    wait_ready(page)
    notice = page.inner_text(".notice")
    assert "could not be read" in notice and "new game has started" in notice
    kept = [v for k, v in page.evaluate(STORE_ALL).items() if k.startswith("cribbage.save.computer.corrupt.")]
    assert kept == ['{"format": "cribbage-match", junk']
    assert table.meta("phase") == "cut for deal"
    json.loads(page.evaluate(STORE_GET, "cribbage.save.computer"))
    page.click("#btn-notice")
    assert page.locator(".notice").count() == 0


def a_hand_played_with_the_keyboard_only(table: Table) -> None:
    """From the cut for deal to the next hand by keys alone, the focus visible wherever it is."""
    page = table.page
    keys = page.keyboard
    for _ in range(200):
        table.settle()
        phase, turn = table.meta("phase"), table.meta("turn")
        if table.meta("hand") == "2":
            break
        if phase == "hand over":
            keys.press("Enter")
        elif turn != "me":
            page.wait_for_timeout(20)
        elif phase in ("cut for deal", "cut", "starter"):
            keys.press("ArrowRight")
            keys.press("ArrowRight")
            assert page.locator(".fan-card.picked").count() == 1
            keys.press("Enter")
        elif phase == "discard":
            keys.press("1")
            keys.press("2")
            keys.press("Enter")
        elif phase == "play":
            if page.locator("#btn-go").count():
                keys.press("g")
            else:
                keys.press("ArrowRight")
                keys.press("Enter")
        elif phase == "show":
            keys.press("Enter")
        # Whatever has the focus is visibly marked and inside the table or a dialog.
        focused = page.evaluate("() => document.activeElement && document.activeElement.id")
        if focused:
            assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    assert table.meta("hand") == "2"


def test_phone_layout(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    table = Table(page, base_url).open("?seed=3&delay=0")
    for phase in ("discard", "play"):
        table.until(lambda: table.meta("phase") == phase and table.meta("turn") == "me")
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"horizontal overflow in the {phase}: {width}"
        for selector in (".hand-me button.hand-card", "#table button.tool", "#table .actions .btn"):
            for box in page.eval_on_selector_all(
                selector, "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height] })"
            ):
                assert box[0] >= 44 and box[1] >= 44, f"{selector} is {box} in the {phase}"
    context.close()


def test_the_table_has_no_serious_accessibility_problems(audit_page: Any, base_url: str) -> None:
    table = Table(audit_page, base_url).open("?seed=8&delay=0")
    problems = {}
    for phase in ("discard", "play", "show"):
        table.until(lambda: table.meta("phase") == phase)
        found = axe_audit(audit_page)
        if found:
            problems[phase] = found
    audit_page.click("#tool-sheet")
    if found := axe_audit(audit_page):
        problems["score sheet"] = found
    assert not problems, problems


def test_the_embedded_table_tells_its_host_a_match_started(page: Any, base_url: str) -> None:
    page.goto(base_url + "embed-example.html")
    page.wait_for_selector('#log li[data-type="match-start"], #log li[data-type="ready"]', timeout=45_000)
    page.wait_for_selector('#log li[data-type="ready"]', timeout=45_000)
    frame = page.frame_locator("#game")
    assert frame.locator("body.embed #app[data-phase]").count() == 1
    # A first visit starts a match; a reload of a saved one does not announce a new start.
    page.wait_for_selector('#log li[data-type="match-start"]', timeout=10_000)
    entries = page.eval_on_selector_all("#log li", "e => e.map(x => x.dataset.type)")
    # `ready` comes first, as docs/deploy.md lists it (issue 17: match-start used to come before it).
    assert entries[:2] == ["ready", "match-start"], entries


def test_a_frame_moves_the_focus_in_its_animation_frame_then_a_hand_played_with_the_keyboard_only(
        table: Table) -> None:
    """Moving the focus makes the browser work out the new regions' style and layout at once: done in
    the drawing task, it made the longest redraws online (31-39 ms of them). The focus now moves in
    the frame's animation frame, right before its paint; a key pressed before then still goes where
    the frame puts the focus. Then a hand by keys alone (two tests of one start, seed 12, until
    2026-12-05: docs/testing.md)."""
    page = table.open("?seed=12&delay=0").page
    table.settle()
    assert table.meta("phase") == "cut for deal" and table.meta("turn") == "me"
    before, drawn, framed = page.evaluate("""async () => {
      const id = () => (document.activeElement && document.activeElement.id) || '';
      const first = id();
      document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
      const drawn = id();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return [first, drawn, id()];
    }""")
    assert page.locator(".fan-card.picked").count() == 1  # the key was taken and drawn
    assert drawn == before and framed not in ("", before), (before, drawn, framed)
    # Two keys in one task: the second goes where the first one's frame puts the focus.
    picked = page.evaluate("""() => {
      const key = (k) => document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
      key('ArrowRight'); key('ArrowRight');
      return [...document.querySelectorAll('.fan-card')].findIndex((c) => c.classList.contains('picked'));
    }""")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    again = page.evaluate(
        "() => [...document.querySelectorAll('.fan-card')].findIndex((c) => c.classList.contains('picked'))"
    )
    assert picked >= 0 and again == picked - 2, (picked, again)
    a_hand_played_with_the_keyboard_only(table)

"""A link's bad options and the keyboard's focus, in Chromium (issue 29, items 1 and 5): a seed too big
for the engine, or thousands of digits long, and every bad option start the usual game with a notice
naming what was ignored; the board's label follows the score; the focus lands on the next action
after the cut for deal, after Deal and at the start of the discard; Cut here is never a dead button
(a tied cut for deal included)."""

from __future__ import annotations

import re

import pytest
from test_table import APP, Table, table  # noqa: F401  (the table fixture)

SEED_SAID = "The link's seed was not a number from 0 to 18446744073709551615, so a random deal was used."


@pytest.mark.parametrize("seed", ["18446744073709551616", "7" * 5000])
def test_a_seed_too_big_starts_a_game_with_a_notice(table: Table, seed: str) -> None:
    page = table.open(f"?seed={seed}&delay=0").page  # (waits for the table: the game started)
    assert table.meta("phase") == "cut for deal"
    assert SEED_SAID in page.inner_text(".notice")
    page.click("#btn-notice")
    assert page.locator(".notice").count() == 0
    page.reload()  # what "Try again" does: the same link starts again
    page.wait_for_function(f"() => document.body.dataset.ready === 'true' && {APP}.dataset.phase", timeout=45_000)
    assert SEED_SAID in page.inner_text(".notice")


@pytest.mark.parametrize(("query", "words"), [
    ("players=9", "\u201c9\u201d players, not 2, 3 or 4"),
    ("to=-5", "a game to \u201c-5\u201d, not to 121 or 61"),
    ("level=grandmaster", "level \u201cgrandmaster\u201d was not easy, medium or expert"),
    ("mode=nonsense", "mode \u201cnonsense\u201d is not a way to play here"),
    ("series=4", "series \u201c4\u201d could not be used"),
    ("rules=muggins,banana", "rule \u201cbanana\u201d is not one of"),
    ("delay=-100000", "delay \u201c-100000\u201d was not a pause"),
    ("motion=sideways", "motion \u201csideways\u201d was not on or off"),
])
def test_each_bad_option_is_named_in_a_notice(table: Table, query: str, words: str) -> None:
    page = table.open(f"?seed=7&{query}" + ("" if query.startswith("delay") else "&delay=0")).page
    assert table.meta("phase") == "cut for deal"  # the usual game started
    notice = page.inner_text(".notice")
    assert words in notice and notice.count("The link") == 1, notice
    page.click("#btn-notice")
    assert page.locator(".notice").count() == 0


def test_the_board_label_follows_the_score(table: Table) -> None:
    page = table.open("?seed=12&delay=0").page
    assert page.get_attribute("svg.board", "aria-label") == "Cribbage board. You 0, Computer 0, game is 121."
    table.until(lambda: table.meta("hand") == "2")
    table.settle()
    you, computer = table.scores()
    assert you + computer > 0
    assert page.get_attribute("svg.board", "aria-label") == \
        f"Cribbage board. You {you}, Computer {computer}, game is 121."


def test_the_focus_lands_on_the_next_action_after_the_cut_deal_and_at_the_discard(table: Table) -> None:
    page = table.open("?seed=3&delay=0").page  # seed 3: you cut lower and deal
    keys = page.keyboard
    keys.press("ArrowLeft")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'btn-cut'", timeout=5_000)
    keys.press("Enter")
    page.wait_for_selector("#btn-next", timeout=10_000)  # Deal, once both have cut
    table.settle()
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'btn-next'",
                           timeout=5_000)
    assert page.inner_text("#btn-next").strip().startswith("Deal")
    keys.press("Enter")
    page.wait_for_function(f"() => {APP}.dataset.phase === 'discard'", timeout=10_000)
    table.settle()
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'hand-0'", timeout=5_000)
    # From there the keyboard lays away without a single Tab.
    keys.press("Enter")
    keys.press("ArrowRight")
    keys.press("Enter")
    assert page.locator(".hand-me .hand-card.selected").count() == 2
    page.wait_for_function("() => !document.querySelector('#btn-discard[aria-disabled]')", timeout=5_000)


def test_after_a_tied_cut_for_deal_cut_here_cuts(table: Table) -> None:
    page = table.open("?seed=20&delay=0").page  # seed 20: both cut a nine from the middle of the pack
    assert page.get_attribute("#btn-cut", "aria-disabled") is None  # the middle is picked: Cut here cuts
    depths = page.eval_on_selector_all(".fan-card.legal", "els => els.map(e => +e.dataset.depth)")
    page.locator(f'.fan-card.legal[data-depth="{(min(depths) + max(depths)) // 2}"]').dispatch_event("click")
    page.wait_for_function("() => /equal ranks/i.test(document.body.innerText)", timeout=10_000)
    table.settle()
    assert table.meta("phase") == "cut for deal"
    assert page.get_attribute("#btn-cut", "aria-disabled") is None
    assert page.locator(".fan-card.picked").count() == 1
    page.focus("#btn-cut")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => {APP}.dataset.phase !== 'cut for deal' || !!document.querySelector('#btn-next')",
                           timeout=10_000)
    assert re.search(r"deals?", page.inner_text("#table"), re.I)


# --- item 7: what the eye finds at three and four ----------------------------------------------------

NAMES_SEEN = """() => { const m = document.querySelector('.middle').getBoundingClientRect();
  return [...document.querySelectorAll('.cut-show .zone-label')].map((e) => {
    const r = e.getBoundingClientRect();
    const seen = r.width > 0 && r.top >= m.top - 1 && r.bottom <= m.bottom + 1 && getComputedStyle(e).display !==
    'none';
    return [e.textContent, seen];
  }); }"""


@pytest.mark.parametrize("size", [(1280, 800), (360, 740), (740, 360)])
def test_a_three_player_cut_for_deal_names_every_slot(table: Table, size: tuple[int, int]) -> None:
    page = table.page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    table.open("?players=3&seed=5&delay=0")
    assert table.meta("phase") == "cut for deal"
    page.evaluate("() => document.querySelector('.middle').scrollTop = 0")
    seen = page.evaluate(NAMES_SEEN)
    assert sorted(name for name, _ in seen) == ["East", "West", "You"]
    assert all(ok for _, ok in seen), seen  # each name in the felt's middle as it shows, not scrolled out of it


def test_the_four_player_hot_seat_cover_dot_is_the_seat_plate_colour(table: Table) -> None:
    table.fast = True
    page = table.open("?players=4&seats=you,player,player,player&seed=3&delay=0").page
    colour = "(s) => getComputedStyle(document.querySelector(s)).backgroundColor"
    checked = set()
    for _ in range(400):
        table.settle()
        if table.meta("covered") == "true":
            seat = int(re.search(r"\bseat-(\d)\b", page.get_attribute("#cover", "class") or "").group(1))
            assert page.evaluate(colour, "#cover .peg-dot") == page.evaluate(
                colour, f".plate.seat-{seat} .peg-dot"
            ), seat
            checked.add(seat)
            if 3 in checked:
                break
        if not table.step():
            break
    assert 3 in checked, checked  # (seat 3, a partner of seat 1, was drawn in seat 0's red)


def test_the_focus_follows_the_pone_from_the_cut_for_deal_to_the_discard(table: Table) -> None:
    page = table.open("?seed=99&delay=0").page  # seed 99, the 10th card: the computer deals, you cut the pack
    focused = "(id) => document.activeElement && document.activeElement.id === id"
    depths = page.eval_on_selector_all(".fan-card.legal", "els => els.map(e => +e.dataset.depth)")
    for _ in range((min(depths) + max(depths)) // 2 - depths[10]):  # from the middle, picked at first
        page.keyboard.press("ArrowLeft")
    assert page.get_attribute(".fan-card.picked", "data-depth") == str(depths[10])
    page.wait_for_function(focused, arg="btn-cut", timeout=5_000)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => {APP}.dataset.phase === 'cut' && {APP}.dataset.turn === 'me'", timeout=10_000)
    table.settle()
    page.wait_for_function(focused, arg="btn-cut", timeout=5_000)  # Cut here again, for the pack: no Tab
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => {APP}.dataset.phase === 'discard'", timeout=10_000)
    table.settle()
    page.wait_for_function(focused, arg="hand-0", timeout=5_000)

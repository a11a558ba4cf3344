"""Cards and pegs that move, in Chromium: a laid card travels from the hand to the pile (a
transform animation of its own, no view transition), the starter turns, a tap during the animation
takes effect at once, and nothing moves with ``?motion=off`` or reduced motion.

The travels are stretched to seconds here (``window.__cribbageTravelMs``), so the taps surely land
while they run.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from browser_harness import wait_ready, watch_console
from test_table import Table

COUNT_TRANSITIONS = """
(() => {
  window.__vts = 0;
  window.__travels = [];
  const start = document.startViewTransition && document.startViewTransition.bind(document);
  if (start) document.startViewTransition = (cb) => { window.__vts += 1; return start(cb); };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    const a = animate.call(this, frames, options);
    queueMicrotask(() => { if (a.id === 'travel') window.__travels.push(this.dataset.vt || '?'); });
    return a;
  };
})();
"""
SLOW = "window.__cribbageTravelMs = 4000;"
ANIMATING = """() => document.getAnimations().filter((a) => a.playState === 'running' && a.id === 'travel').length"""


@pytest.fixture
def slow_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.add_init_script(COUNT_TRANSITIONS)
    page.add_init_script(SLOW)
    watch = watch_console(page, request)
    yield page
    context.close()
    if watch.problems:
        pytest.fail("errors in the browser console:\n  " + "\n  ".join(watch.problems))


def _to_my_play(table: Table) -> None:
    table.until(lambda: table.meta("phase") == "play" and table.meta("turn") == "me"
                and table.page.locator("#btn-go").count() == 0)


def _open(table: Table, query: str, reduced: bool = False) -> None:
    page = table.page
    page.emulate_media(reduced_motion="reduce" if reduced else "no-preference")
    page.goto(table.base_url + query)
    wait_ready(page)


def test_a_tap_during_the_animation_takes_effect_at_once(slow_page: Any, base_url: str) -> None:
    page = slow_page
    table = Table(page, base_url, fast=True)
    _open(table, "?seed=7&delay=0")
    _to_my_play(table)
    assert "starter" in page.evaluate("() => window.__travels"), "the starter did not turn"
    page.goto(base_url + "?delay=4000")  # the same match (it was saved); the computer now waits 4 s
    wait_ready(page)
    card = page.locator(".hand-me button.hand-card:not([aria-disabled])").first
    code = card.get_attribute("data-card")
    card.dispatch_event("click")
    card.dispatch_event("click")  # tapped again: laid
    page.wait_for_function(f"() => !!document.querySelector('.pile [data-card=\"{code}\"]')")
    page.wait_for_function(ANIMATING.replace("=> ", "=> (", 1) + ") > 0", timeout=3000)  # it travels
    assert f"c-{code}" in page.evaluate("() => window.__travels"), "the laid card did not travel"
    assert page.evaluate("() => window.__vts") == 0, "a view transition (it re-rasterises the pieces)"
    # A copy glides from the hand over the page (nothing clips it: the table's middle scrolls, the
    # prompt is opaque), the card waits unseen in the pile; mid-way the copy is well away from it.
    moved = page.evaluate(f"""() => {{ const c = document.querySelector('#flights [data-card="{code}"]');
        const m = new DOMMatrix(getComputedStyle(c).transform); return Math.hypot(m.e, m.f); }}""")
    assert moved > 20, moved
    assert page.locator(f'.pile [data-card="{code}"].travel-away').count() == 1
    # Mid-animation (it lasts 4 s here): a real tap on the score sheet is taken at once.
    box = page.locator("#tool-sheet").bounding_box()
    assert box is not None
    started = page.evaluate("() => performance.now()")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector("#dlg-sheet", timeout=3000)
    took = page.evaluate("() => performance.now()") - started
    assert took < 1500, f"the tap waited {took:.0f} ms for the animation"
    assert page.evaluate(ANIMATING) == 0, "the tap did not end the animation"
    assert page.locator("#flights > *").count() == 0 and page.locator(".travel-away").count() == 0


@pytest.mark.parametrize("how", ["motion=off", "reduced motion"])
def test_nothing_moves_when_motion_is_off(slow_page: Any, base_url: str, how: str) -> None:
    page = slow_page
    table = Table(page, base_url, fast=True)
    _open(table, "?seed=7&delay=0" + ("&motion=off" if how == "motion=off" else ""), reduced=how != "motion=off")
    _to_my_play(table)
    table.step()
    table.until(lambda: page.locator(".pile .pile-card").count() >= 2)
    assert page.evaluate("() => window.__vts") == 0
    assert page.evaluate("() => window.__travels") == []
    assert page.evaluate(ANIMATING) == 0
    pegs = page.evaluate(
        "() => [...document.querySelectorAll('.peg')].map(p => getComputedStyle(p).transitionDuration)"
    )
    assert pegs and all(d in ("0s", "") for d in pegs), pegs
    if how == "motion=off":
        assert page.evaluate("() => document.documentElement.classList.contains('motion-off')")


def test_a_peg_glides_to_its_hole(slow_page: Any, base_url: str) -> None:
    page = slow_page
    table = Table(page, base_url, fast=True)
    _open(table, "?seed=7&delay=0")
    table.until(lambda: sum(table.scores()) > 0)
    pegs = page.evaluate("""() => [...document.querySelectorAll('.peg-front')].map((p) =>
        [p.dataset.hole, p.style.transform, getComputedStyle(p).transitionDuration])""")
    assert any(hole != "0" and transform.startswith("translate(") for hole, transform, _ in pegs), pegs
    assert all(duration != "0s" for _, _, duration in pegs), pegs

"""What two friends tripped over (issue 31 item 6), in two real browsers on a phone-sized window: the
browser refuses the clipboard, and *Copy link* says so (the link selected for a copy by hand)
instead of "Copied", and offers the share sheet where there is one (a phone's; a sheet the player
closes, its promise rejected with AbortError, is no error: issue 31 item 6, "offer the share sheet
where there is one"); no PyScript error banner (``.py-error``, appended to the body by @pyscript/core's
``error`` module) ever appears on either page from the room's opening to the first discard; the cut
fan is not under the prompt box (a tap on any card of the fan reaches the card); the board keeps its
size while a two-line notice is up; no Undo/Redo online; the host's wait is no red error.
"""

from __future__ import annotations

import time
from typing import Any

from net_harness import Stall
from test_online_play import BANNERS, REFUSE_CLIPBOARD, STEP, open_link, state, wait_live

PHONE = {"width": 360, "height": 740}
FAN = """() => Array.from(document.querySelectorAll('#table [data-action="cut-pick"]')).map((card) => {
  const r = card.getBoundingClientRect();
  // the part of the card no later card of the fan covers: its left edge, a third of the way up
  // (at the fan's ends that point may fall just beside the turned card: still the fan, not the prompt)
  const x = r.left + 3, y = r.top + r.height * 0.66;
  const hit = document.elementFromPoint(x, y);
  return [card.id || card.dataset.index, hit ? (hit.closest('.fan') ? 'fan' :
          (hit.closest('.prompt') ? 'prompt' : (hit.tagName + '#' + hit.id))) : 'outside'];
})"""
SHARE_SHEET = """(() => {
  window.__shared = [];
  navigator.share = (data) => {
    window.__shared.push(JSON.stringify(data));
    return Promise.reject(new DOMException('Share canceled', 'AbortError'));  // the player closed the sheet
  };
})();"""
"""A script: a share sheet that records what it was given and is closed unused."""
SHARED = "() => window.__shared"
BOARD = "() => { const b = document.querySelector('#table .board'); return b ? b.getBoundingClientRect().height : 0; }"


def no_banner(*pages: Any) -> None:
    for page in pages:
        banners = page.evaluate(BANNERS)
        assert not banners, f"a Python error reached the player's screen: {banners}"


def test_copy_link_refused_offers_the_share_sheet_or_says_so_and_no_error_banner_through_a_hand_on_a_phone(
        players: Any, online_url: str) -> None:
    """(The share sheet's test, tests/online/test_online_share.py, is part of this one since 2026-12-05:
    the same page start; docs/testing.md.)"""
    stall = Stall()
    ann = open_link(players, "ann", online_url + "&group=test&delay=0")
    ann.page.set_viewport_size(PHONE)
    ann.page.add_init_script(REFUSE_CLIPBOARD)
    ann.page.evaluate(REFUSE_CLIPBOARD)
    ann.page.evaluate(SHARE_SHEET)
    ann.page.click("#tool-menu")
    ann.page.click("#new-mode-online")
    ann.page.click("#btn-start")
    ann.page.wait_for_selector("#room-link")
    link = ann.page.input_value("#room-link")
    # The host's normal wait: no red "Not connected", no Undo or Redo (never usable online).
    online = ann.page.inner_text("#online")
    assert "Not connected" not in online, online
    assert ann.page.locator("#online .dot-offline").count() == 0
    assert ann.page.locator("#tool-undo, #tool-redo").count() == 0
    assert ann.page.evaluate(SHARED) == []  # nothing is shared before the player asks
    ann.page.click("#btn-copy-link")
    ann.page.wait_for_function(
        "() => document.getElementById('btn-copy-link').textContent.startsWith('Not copied')", timeout=5_000)
    selected = ann.page.evaluate("""() => { const f = document.getElementById('room-link');
        return document.activeElement === f ? f.value.slice(f.selectionStart, f.selectionEnd) : ''; }""")
    assert selected == link  # ready for a copy by hand
    ann.page.wait_for_function("() => window.__shared.length > 0", timeout=5_000)
    assert ann.page.evaluate(SHARED) == [f'{{"url":"{link}"}}']  # the share sheet offered, with the link
    ann.page.wait_for_timeout(300)  # (an unhandled rejection would show its banner, or its console error, by now)
    no_banner(ann.page)
    # A browser with no share sheet: the refusal says so and the link stays selected, nothing else.
    assert ann.page.evaluate("() => { delete navigator.share; return typeof navigator.share; }") == "undefined"
    ann.page.evaluate("() => { document.getElementById('btn-copy-link').textContent = 'Copy link'; "
                      "document.getElementById('room-link').blur(); }")
    ann.page.click("#btn-copy-link")
    ann.page.wait_for_function(
        "() => document.getElementById('btn-copy-link').textContent.startsWith('Not copied')", timeout=5_000)
    selected = ann.page.evaluate("""() => { const f = document.getElementById('room-link');
        return document.activeElement === f ? f.value.slice(f.selectionStart, f.selectionEnd) : ''; }""")
    assert selected == link
    ann.page.wait_for_timeout(300)
    assert len(ann.page.evaluate(SHARED)) == 1
    no_banner(ann.page)

    bob = open_link(players, "bob", link)
    bob.page.set_viewport_size(PHONE)
    wait_live(ann, bob)
    bob.page.wait_for_function("() => document.getElementById('app').dataset.turn !== undefined")
    # The cut for deal on a phone: every card of the fan takes a tap (none under the prompt box).
    for p in (ann, bob):  # (seat 1 cuts once Ann has cut)
        deadline = time.monotonic() + 30
        while not p.page.locator('#table [data-action="cut-pick"]').count():
            assert time.monotonic() < deadline, f"{p.name} never had the fan to cut"
            if not any([ann.page.evaluate(STEP) if p is bob else "", bob.page.evaluate(STEP) if p is ann else ""]):
                time.sleep(0.05)
        p.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        hits = p.page.evaluate(FAN)
        assert hits and all(what == "fan" for _, what in hits), f"{p.name}: {[h for h in hits if h[1] != 'fan']}"
        p.page.evaluate("() => window.scrollTo(0, 0)")
    # The board keeps its size while a notice of two lines is up (the page's notice: its markup and place).
    before = ann.page.evaluate(BOARD)
    ann.page.evaluate("""() => { const d = document.createElement('div'); d.className = 'notice test-notice';
        d.innerHTML = '<div class="notice-text"><p>The other browser has not answered yet; it may be busy. '
            + 'It is asked again in a moment.</p></div><button type="button" class="btn btn-small">OK</button>';
        const t = document.getElementById('table'); t.insertBefore(d, t.querySelector('#online'));
        const n = document.createElement('div'); n.className = 'online-problems test-notice';
        n.innerHTML = '<ul><li>The other browser has not answered yet; it may be busy. It is asked again in a '
            + 'moment.</li></ul><button type="button" class="btn btn-small">OK</button>';
        document.getElementById('online').append(n); }""")
    after = ann.page.evaluate(BOARD)
    assert before > 40 and after >= before - 1, f"the board went from {before:.0f} px to {after:.0f} px"
    ann.page.set_viewport_size({"width": 740, "height": 360})  # the phone on its side: the board upright
    ann.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    side = ann.page.evaluate(BOARD)
    felt = ann.page.evaluate("() => document.querySelector('#table .felt').getBoundingClientRect().height")
    ann.page.evaluate("() => document.querySelectorAll('.test-notice').forEach((e) => e.remove())")
    alone = ann.page.evaluate(BOARD)
    assert side >= alone - 1, f"on its side the board went from {alone:.0f} px to {side:.0f} px under a notice"
    assert felt > 0, "on its side, under a notice, the felt has no room at all"
    ann.page.set_viewport_size(PHONE)
    ann.page.evaluate("() => document.querySelectorAll('.test-notice').forEach((e) => e.remove())")
    # A hand's start: both cut, then both discard; no banner at any step.
    deadline = time.monotonic() + 90
    while state(ann)["phase"] != "play" or state(bob)["phase"] != "play":
        assert time.monotonic() < deadline, (state(ann), state(bob))
        stall.check((state(ann), state(bob)))
        if not any([ann.page.evaluate(STEP), bob.page.evaluate(STEP)]):
            time.sleep(0.05)
        no_banner(ann.page, bob.page)
    ann.page.click("#tool-menu")  # the folded panel's link again, copied (refused) mid-match
    ann.page.keyboard.press("Escape")
    ann.page.wait_for_timeout(300)
    no_banner(ann.page, bob.page)
    assert "has stopped" not in ann.page.locator("body").inner_text()

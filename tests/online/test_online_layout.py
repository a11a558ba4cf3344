"""The online table at every size we claim (issue 16): two pages over loopback WebRTC, resized in
turn (the friend's browser reopens the room in the embed for the embed sizes). Once both are connected the panel is one
line, and the
hand and the primary button are inside the window without scrolling, in the discard and in the play;
a third browser with the whole link sees one sentence and no table.
"""

from __future__ import annotations

import time
from typing import Any

from browser_harness import READY_TIMEOUT_MS, wait_ready
from net_harness import Player, Stall
from test_online_play import STEP, new_room, open_link, state, wait_live

from web.kit.qr_svg import svg_path

PAGE_SIZES = {
    "phone 360x740": {"width": 360, "height": 740},
    "phone landscape 740x360": {"width": 740, "height": 360},
    "desktop 1280x800": {"width": 1280, "height": 800},
}
EMBED_SIZES = {
    "embed 720x540": {"width": 720, "height": 540},
    "embed 420x640": {"width": 420, "height": 640},
}
BOX = "(s) => { const e = document.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect(); " \
      "return [r.left, r.top, r.right, r.bottom]; }"
LONGER = "() => { const t = document.querySelector('.prompt-text'); if (t.querySelector('.test-longer')) return; " \
         "const s = document.createElement('span'); " \
         "s.className = 'test-longer'; s.textContent = ' The other browser has not answered yet; it may be busy.'; " \
         "t.append(s); }"
BENIGN = {"Another browser tried to join this room and was told it is full.",
          ("The signalling server, through which the two browsers find each other, cannot be reached: check "
           "this device\u2019s internet connection (this page keeps trying).")}
"""Notes a reload of the other player's page may leave on the panel (:func:`check_sizes` dismisses them)."""
PRESS = "(s) => document.querySelector(s).dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}))"


def inside(page: Any, selector: str, where: str) -> None:
    """The element is drawn and wholly inside the window as the page is now (no scrolling)."""
    box = page.evaluate(BOX, selector)
    assert box is not None, f"{where}: {selector} is missing"
    size = page.viewport_size
    left, top, right, bottom = box
    assert right > left and bottom > top, f"{where}: {selector} is not drawn: {box}"
    assert left >= -1 and top >= -1 and right <= size["width"] + 1 and bottom <= size["height"] + 1, \
        f"{where}: {selector} at {[round(x) for x in box]} is outside the {size['width']}x{size['height']} window"


def check_sizes(p: Player, sizes: dict[str, dict[str, int]], phase: str) -> None:
    """At each size: the panel folded to one line, nothing wider than the window, and the hand's
    cards and the primary button in view without scrolling."""
    for name, size in sizes.items():
        where = f"{p.name}, {phase}, {name}"
        p.page.set_viewport_size(size)
        p.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        p.page.evaluate("() => window.scrollTo(0, 0)")
        if p.page.locator("#btn-online-name-later").count():  # a browser new to online play is asked its name once
            p.page.evaluate(PRESS, "#btn-online-name-later")
            p.page.wait_for_selector("#online-ask-name", state="detached")
        assert p.page.locator("#online.online-folded").count() == 1, where
        assert p.page.locator("#room-link, #online-name, .qr-wrap").count() == 0, where
        # Bob's reload into the embed may call before Ann's page has seen his old page go: she tells
        # that caller the room is full and says so in a note, which the player dismisses with OK
        # (the folded panel is one line without notes). Any other message is a failure.
        notes = p.page.locator("#online-problems li").all_inner_texts()
        if notes:
            assert set(notes) <= BENIGN, f"{where}: {notes}"
            p.page.evaluate(PRESS, "#btn-online-dismiss")  # (a click that does not scroll the page)
            p.page.wait_for_selector("#online-problems", state="detached")
        line = p.page.evaluate(BOX, "#online")
        assert line[3] - line[1] <= 48, (f"{where}: the folded panel is {line[3] - line[1]:.0f} px high: "
                                         f"{p.page.inner_text('#online')!r}")
        wide = p.page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= size["width"] + 1, f"{where}: the page is {wide} px wide"
        try:
            inside(p.page, "#table .actions .btn-primary", where)
            cards = p.page.locator(".hand-me .hand-card").count()
            assert cards >= 1, where
            for i in range(cards):
                inside(p.page, f".hand-me .hand-card:nth-child({i + 1})", where)
            # A prompt two lines longer than usual (a long message, a notice) still leaves the hand
            # in view at every size: the felt fits the window and its middle gives back its room first
            # (issue 17: upright screens too).
            p.page.evaluate(LONGER)
            inside(p.page, "#table .actions .btn-primary", where + ", longer prompt")
            for i in range(cards):
                inside(p.page, f".hand-me .hand-card:nth-child({i + 1})", where + ", longer prompt")
        except AssertionError:
            p.page.screenshot(path=f"/tmp/online-layout-{p.name}-{phase}-{size['width']}x{size['height']}.png")
            raise


def drawn_is_segnos_symbol(path_data: str, link: str) -> bool:
    """The page's QR code of ``link`` is segno's symbol of it (byte mode, level M, the smallest version)
    with one of the eight masks (segno scores masks otherwise: tests/web/test_qr.py)."""
    import pytest
    import segno  # the test extra
    from segno import consts, encoder

    def write_padding_bits(buff: Any, version: int, length: int) -> None:  # heuer/segno#148, as in test_qr.py
        if version not in (consts.VERSION_M1, consts.VERSION_M3):
            buff.extend([0] * (-length % 8))

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(encoder, "write_padding_bits", write_padding_bits)
        return _matches_segno(segno, path_data, link)


def _matches_segno(segno: Any, path_data: str, link: str) -> bool:
    version = segno.make(link.encode(), error="m", mode="byte", boost_error=False, micro=False).version
    for mask in range(8):
        code = segno.make(link.encode(), error="m", mode="byte", boost_error=False, micro=False, version=version,
                          mask=mask)
        if svg_path([[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=0)]) == path_data:
            return True
    return False


def test_the_online_table_fits_every_claimed_size_and_the_panel_folds(players: Any, online_url: str) -> None:
    stall = Stall()
    ann, link = new_room(players, online_url)
    ann.page.wait_for_selector(".qr-wrap svg")  # the QR library is imported on first use
    assert ann.page.locator(".qr-wrap svg").count() == 1 and ann.page.locator("#btn-online-fold").count() == 0
    assert drawn_is_segnos_symbol(ann.page.get_attribute(".qr-wrap svg path", "d") or "", link)
    bob = open_link(players, "bob", link)
    wait_live(ann, bob)
    sizes = {ann.name: PAGE_SIZES, bob.name: EMBED_SIZES}
    checked: dict[str, set[str]] = {ann.name: set(), bob.name: set()}
    while any(len(c) < 2 for c in checked.values()):
        stall.check((state(ann), state(bob), {k: sorted(v) for k, v in checked.items()}),
                    [p.page.inner_text('#headline') for p in (ann, bob)])
        did = []
        for p in (ann, bob):
            s = state(p)
            if s["turn"] == "me" and s["phase"] in ("discard", "play") and s["phase"] not in checked[p.name]:
                if p is bob and not checked[p.name]:
                    # Bob's browser opens the room in the embed (same storage): he reclaims his seat.
                    bob.page.goto(link.replace("/?room=", "/embed.html?room="))
                    wait_ready(bob.page, timeout=READY_TIMEOUT_MS)
                    assert bob.page.evaluate("() => document.body.classList.contains('embed')")
                    wait_live(ann, bob, timeout_ms=40_000)
                    bob.page.wait_for_function("() => document.getElementById('app').dataset.turn === 'me'")
                if s["phase"] == "discard":
                    p.page.wait_for_selector("#hand-1")  # (a reclaimed seat draws its hand a moment later)
                    p.page.evaluate(PRESS, "#hand-0")
                    p.page.wait_for_selector("#hand-1")
                    p.page.evaluate(PRESS, "#hand-1")  # the discard preview drawn, "To crib" enabled
                check_sizes(p, sizes[p.name], s["phase"])
                checked[p.name].add(s["phase"])
            did.append(p.page.evaluate(STEP))
        if not any(did):
            time.sleep(0.05)
    # On request the folded panel opens (the link and the name), and folds again.
    ann.page.click("#btn-online-fold")
    ann.page.wait_for_selector("#room-link")
    assert ann.page.get_attribute("#btn-online-fold", "aria-expanded") == "true"
    ann.page.click("#btn-online-fold")
    ann.page.wait_for_selector("#online.online-folded")
    # A third browser with the whole link: one sentence, no table.
    eve = open_link(players, "eve", link)
    eve.page.wait_for_selector("#online.online-blocked", timeout=30_000)
    text = eve.page.inner_text("#table")
    assert text.count("room is full") == 1, text
    assert eve.page.locator("#table .felt, #table .prompt, #table .scores").count() == 0
    assert state(ann)["link"] == "live" and state(bob)["link"] == "live"

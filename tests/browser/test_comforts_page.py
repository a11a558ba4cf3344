"""Sound, vibration and auto-play in Chromium (issue 29's small comforts): the menu's switches are
kept over a reload, no audio is made before the first tap, the cues are synthesised on the device
(no file fetched), and auto-play says Go for the player."""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest
from browser_harness import STORE_ALL, wait_ready, watch_console
from test_table import APP, Table

from cribbage.actions import Go
from cribbage.match import Match

AUDIO_SPY = """
window.__audio = {contexts: 0, tones: 0};
for (const name of ['AudioContext', 'webkitAudioContext']) {
  const Real = window[name];
  if (!Real) continue;
  window[name] = class extends Real {
    constructor(...args) { super(...args); window.__audio.contexts++; }
    createOscillator() { window.__audio.tones++; return super.createOscillator(); }
    createBufferSource() { window.__audio.tones++; return super.createBufferSource(); }
  };
}
"""
"""Counts the audio contexts made and the notes started (an init script: the CSP allows no inline one)."""


@pytest.fixture
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A touch phone (a coarse pointer, ``navigator.vibrate``): the vibration switch is offered."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.add_init_script(AUDIO_SPY)
    watch = watch_console(page, request)
    yield page
    context.close()
    if watch.problems:
        pytest.fail("errors in the browser console:\n  " + "\n  ".join(watch.problems))


def _pressed(page: Any, ident: str) -> str | None:
    return page.get_attribute(f"#{ident}", "aria-pressed")


def test_the_switches_are_kept_over_a_reload_and_no_audio_starts_before_a_tap(phone: Any, base_url: str) -> None:
    phone.emulate_media(reduced_motion="reduce")
    requests: list[str] = []
    phone.on("request", lambda r: requests.append(r.url))
    phone.goto(base_url + "?seed=7&delay=0")
    wait_ready(phone)
    phone.wait_for_timeout(300)
    assert phone.evaluate("() => window.__audio.contexts") == 0  # nobody tapped: nothing may sound
    phone.locator(".fan-card.legal").nth(10).dispatch_event("click")  # the cut for deal: a tap
    phone.wait_for_function(f"() => {APP}.dataset.busy === 'false'", timeout=30_000)
    assert phone.evaluate("() => window.__audio.contexts") == 1
    table = Table(phone, base_url, fast=True)
    table.until(lambda: table.meta("phase") == "play" and len(table.hand()) < 4, limit=40)  # cards laid
    phone.wait_for_function("() => window.__audio.tones > 0", timeout=10_000)  # a cue sounded
    assert phone.evaluate("() => window.__audio.contexts") == 1
    assert not [u for u in requests if u.rsplit(".", 1)[-1] in ("mp3", "ogg", "wav", "m4a", "webm")]
    phone.click("#tool-menu")
    for ident in ("sound-toggle", "vibration-toggle", "autoplay-toggle"):
        assert _pressed(phone, ident) == "true", ident  # on by default (not an embed)
        phone.click(f"#{ident}")
        phone.wait_for_function(f"() => document.getElementById('{ident}').getAttribute('aria-pressed') === 'false'")
    phone.click("#btn-close")
    phone.wait_for_function("() => window.cribbageStore.get('cribbage.settings') !== null")
    settings = json.loads(phone.evaluate(STORE_ALL)["cribbage.settings"])
    assert settings["sound"] is False and settings["vibration"] is False and settings["autoplay"] == {"computer": False}
    phone.reload()
    wait_ready(phone)
    phone.click("#tool-menu")
    for ident in ("sound-toggle", "vibration-toggle", "autoplay-toggle"):
        assert _pressed(phone, ident) == "false", ident  # remembered
    phone.click("#btn-close")
    tones = phone.evaluate("() => window.__audio.tones")
    table.until(lambda: table.meta("hand") == "2", limit=200)
    assert phone.evaluate("() => window.__audio.tones") == tones  # sound off: silent


def test_a_desktop_has_no_vibration_switch(page: Any, base_url: str) -> None:
    Table(page, base_url).open()
    page.click("#tool-menu")
    assert _pressed(page, "sound-toggle") == "true" and _pressed(page, "autoplay-toggle") == "true"
    assert page.locator("#vibration-toggle").count() == 0


def test_the_embed_is_silent_by_default(page: Any, base_url: str) -> None:
    page.goto(base_url + "embed-example.html")
    frame = page.frame_locator("iframe").first
    frame.locator("#tool-menu").click(timeout=120_000)
    assert frame.locator("#sound-toggle").get_attribute("aria-pressed") == "false"


def _my_goes(page: Any) -> int:
    saved = page.evaluate(STORE_ALL).get("cribbage.save.computer")
    return sum(1 for a in Match.from_json(saved).actions if isinstance(a, Go) and a.seat == 0) if saved else 0


def test_auto_play_says_go_for_the_player(page: Any, base_url: str) -> None:
    """Against the computer, the player never presses Go: each time no card fits, Go is said for them
    after a moment."""
    table = Table(page, base_url, fast=True).open("?seed=7&delay=0")
    said = 0
    for _ in range(400):
        table.settle()
        phase, turn = table.meta("phase"), table.meta("turn")
        if phase == "game over" or table.meta("hand") == "4":
            break
        if phase == "play" and turn == "me" and page.locator("#btn-go").count():
            before = _my_goes(page)
            page.wait_for_selector("#btn-go", state="detached", timeout=10_000)  # nobody pressed it
            page.wait_for_function("() => window.cribbageStore.whenDurable !== undefined")
            assert _my_goes(page) == before + 1  # said for the player: a real move of theirs, saved
            said += 1
            if said >= 2:
                break
            continue
        if phase == "play" and turn == "me" and len(table.hand()) == 1:
            continue  # a last card that fits: auto-play lays it
        table.step()
    assert said >= 1, "no Go was due in three hands"

"""A friend's challenge between two browsers (two contexts: two people's storage): Ann's finished match
becomes a link, Bob plays the same deals to the end without ever cutting, sees the comparison and
sends his result back by link, and Ann opens it and sees the same comparison.

Ann's match (to 61, to keep Bob's match short) is played under CPython and put in her page's storage
before it loads, as a finished match saved by the page would be."""

from __future__ import annotations

from typing import Any

from browser_harness import STORE_GET, STORE_SET, wait_ready
from test_table import Table

from cribbage.actions import Discard
from cribbage.ai import make_player
from cribbage.challenge import Challenge
from cribbage.match import Match
from cribbage.rules import Rules

APP = "document.getElementById('app')"


def finished() -> Match:
    match = Match(4242, humans=(0,), names=("You", "Computer"), options={"level": "easy"}, rules=Rules(target=61))
    players = {0: make_player("greedy", 11), 1: make_player("easy", 22)}
    while not match.state.is_over:
        seat = match.state.actors()[0]
        match.apply(players[seat].choose(match.view(seat)))
    return match


def dealt(match: Match, seat: int) -> list[list[str]]:
    state = match.new_state()
    out = []
    for a in match.actions:
        if isinstance(a, Discard) and a.seat == seat:
            out.append(sorted(c.code for c in state.hands[seat]))
        state.apply(a)
    return out


def opened(browser: Any, url: str, errors: list[str]) -> tuple[Any, Any]:
    """A new context (another person's browser) with a page at ``url``; its errors go to ``errors``."""
    context = browser.new_context()
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "preload" not in m.text else None)
    page.emulate_media(reduced_motion="reduce")
    page.goto(url)
    wait_ready(page)
    return context, page


def test_a_challenge_goes_to_a_friend_and_the_result_comes_back(browser: Any, base_url: str) -> None:
    original = finished()
    errors: list[str] = []
    ann_ctx, ann = opened(browser, base_url + "?delay=0", errors)
    ann.evaluate(STORE_SET, {"cribbage.save.computer": original.to_json(), "cribbage.mode": "computer"})
    ann.reload()
    wait_ready(ann)
    assert ann.evaluate(f"() => {APP}.dataset.phase") == "game over"
    ann.click("#btn-challenge")
    ann.fill("#challenge-name", "Ann")
    ann.click("#btn-challenge-make")
    link = ann.input_value("#challenge-link")
    message = ann.input_value("#challenge-text")
    assert "#challenge=c1." in link and "?mode=challenge" in link and link in message
    assert "friendly challenge, not a contest" in ann.inner_text("#dlg-challenge")
    assert Challenge.decode(link.split("#challenge=")[1]).original.actions == original.actions

    # Bob opens the link in his own browser and plays the same deals, never cutting.
    bob_ctx, bob = opened(browser, link.replace("?mode=challenge", "?mode=challenge&delay=0"), errors)
    assert "#challenge" not in bob.url  # the text left the address bar: a reload resumes, not restarts
    assert "Challenge from Ann" in bob.inner_text(".brand-mode")
    assert "undo, redo and restart are off" in bob.inner_text(".notice")
    bob.click("#btn-notice")
    table = Table(bob, base_url, fast=True)
    hands: list[list[str]] = []
    seen = 0
    while True:
        table.settle()
        assert bob.locator(".fan-card.legal, #btn-cut").count() == 0, "a cut was offered"
        state = bob.evaluate(f"() => ({{...{APP}.dataset}})")
        if state["phase"] == "discard" and state["turn"] == "me" and int(state["hand"]) > seen:
            seen = int(state["hand"])
            hands.append(sorted(table.hand()))
        if not table.step():
            break
    n = min(len(hands), len(dealt(original, 0)))
    assert n >= 3 and hands[:n] == dealt(original, 0)[:n]
    # The comparison opens by itself at the end.
    bob.wait_for_selector("#dlg-challenge .cmp-hand", timeout=60_000)
    compared = bob.locator("#dlg-challenge .cmp-hand").count()
    assert compared >= n - 1
    assert bob.evaluate(STORE_GET, "cribbage.save.computer") is None  # his own slot untouched (none here)
    bob.click("#btn-challenge-send")
    bob.fill("#challenge-reply-name", "Bob")
    bob.click("#btn-challenge-answer")
    back = bob.input_value("#challenge-link")
    assert "My result on your deals" in bob.input_value("#challenge-text")
    answered = Challenge.decode(back.split("#challenge=")[1])
    assert answered.reply is not None and answered.reply_name == "Bob"

    # Ann opens the result: the comparison at once, over her own finished match.
    ann.goto(back)
    wait_ready(ann)
    ann.wait_for_selector("#dlg-challenge .cmp-hand", timeout=60_000)
    words = ann.inner_text("#dlg-challenge")
    assert "Ann" in words and "Bob" in words
    assert ann.locator("#dlg-challenge .cmp-hand").count() == compared
    assert ann.evaluate(STORE_GET, "cribbage.save.computer") == original.to_json()
    ann.click("#btn-close")
    assert ann.evaluate(f"() => {APP}.dataset.phase") == "game over"
    assert not errors, errors
    bob_ctx.close()
    ann_ctx.close()

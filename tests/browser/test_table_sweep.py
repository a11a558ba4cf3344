"""Tables of three and four at every layout, phase by phase (issue 19): the dealt hand and its
discard, the play with three or more cards on the pile, a Go (here four or more), the show, the hand's summary and the
game's end,
each checked for the hand and the primary button in the window, no two name plates, name tags or
who-laid-what tags on top of each other, the pile clear of the prompt and the hand, the board and
the plates equal to the engine's scores, and no hidden card of another seat in the page.

The deals are fixed by the seed (the match generator's packs: the same cards every run). The whole
sweep (two tables, five layouts, seven phases) is marked ``slow`` (``make test-slow``); one short
version runs in ``make test`` (the tightest layout, a phone on its side, three phases).
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import STORE_ALL, STORE_SET, wait_ready
from test_table_players import SIZES, Seats, _open

from test_table import APP

PHASES = ("discard", "play", "go", "show", "hand over", "game over")
"""What the sweep stops at: the dealt hand (its discard), a pile of three or more, a Go, the show,
the hand's summary, the game's end."""

BOXES = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = s => [...document.querySelectorAll(s)].filter(e => e.getClientRects().length).map(box);
  const one = s => { const e = document.querySelector(s); return e && e.getClientRects().length ? box(e) : null; };
  return {plates: all('.plate'), tags: all('.seat-tag'), who: all('.pile-who'),
          pile: all('.pile-slot:not(.ghost) .pile-card, .earlier-card'),
          prompt: one('.felt > .prompt'), hand: all('.hand-me .hand-card'),
          primary: one('#table .actions .btn-primary'),
          count: one('.count-badge'), stacks: all('.middle .deck-stack, .middle .crib-stack'),
          scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]};
}"""


def _overlap(a: list[float], b: list[float], slack: float = 1.0) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def _inside(box: list[float], w: int, h: int) -> bool:
    return box[0] >= -1 and box[1] >= -1 and box[2] <= w + 1 and box[3] <= h + 1


def check_layout(table: Seats, size: str, phase: str) -> None:
    """The checks of one phase at one layout (the engine's checks are :meth:`Seats.check`)."""
    w, h = SIZES[size]
    page = table.page
    b: dict[str, Any] = page.evaluate(BOXES)
    where = f"{size}, {phase}"
    assert b["scroll"][0] <= w + 1 and b["scroll"][1] <= h + 1, f"{where}: the page scrolls {b['scroll']}"
    assert b["primary"] is not None and _inside(b["primary"], w, h), f"{where}: the primary button {b['primary']}"
    if phase in ("discard", "play", "go"):
        assert b["hand"] and all(_inside(c, w, h) for c in b["hand"]), f"{where}: the hand {b['hand']}"
    for key in ("plates", "tags", "who"):
        boxes = b[key]
        for i, one in enumerate(boxes):
            assert _inside(one, w, h), f"{where}: a {key} box outside the window {one}"
            for other in boxes[i + 1:]:
                assert not _overlap(one, other), f"{where}: two {key} on top of each other {one} {other}"
    for card in b["pile"] + ([b["count"]] if b["count"] else []):
        for other, name in [(b["prompt"], "prompt"), *((t, "name tag") for t in b["tags"]),
                            *((c, "hand") for c in b["hand"]),
                            *((s, "pack or crib") for s in b["stacks"])]:
            assert other is None or not _overlap(card, other, 2), f"{where}: the pile under the {name} {card} {other}"
    for tag in b["who"]:
        assert b["prompt"] is None or not _overlap(tag, b["prompt"]), f"{where}: a who-laid tag under the prompt"
    table.check()  # the plates and pegs are the engine's scores; no hidden card of another seat


def _phase_now(table: Seats) -> str | None:
    """Which of :data:`PHASES` the page shows now (None: none worth a stop)."""
    page = table.page
    data = page.evaluate(f"() => ({{...{APP}.dataset}})")
    phase, turn = data["phase"], data["turn"]
    if data["covered"] == "true":
        return None
    if phase in ("hand over", "game over"):
        return phase
    if turn != "me":
        return None
    if phase == "play":
        if page.locator("#btn-go").count():
            return "go"
        return "play" if page.locator(".pile .pile-slot:not(.ghost)").count() >= 3 else None
    if phase == "show" and page.locator(".show-panel").count():
        return "show"
    return phase if phase == "discard" else None


def collect(browser: Any, base_url: str, players: int) -> dict[str, dict[str, Any]]:
    """Play a game to 61 on the desktop, keeping the saves at the first stop of each phase."""
    seats = ",".join(["you"] + ["easy"] * (players - 1))
    context, table = _open(browser, base_url, "desktop", f"?seed=53&delay=0&players={players}&seats={seats}&to=61")
    saves: dict[str, dict[str, Any]] = {}
    try:
        for _ in range(900):
            table.settle()
            phase = _phase_now(table)
            if phase is not None and phase not in saves:
                saves[phase] = table.page.evaluate(STORE_ALL)
            if phase == "game over":
                break
            table.step()
    finally:
        context.close()
    assert set(saves) == set(PHASES), sorted(saves)
    return saves


def load(browser: Any, base_url: str, size: str, saves: dict[str, Any]) -> tuple[Any, Seats]:
    """A page at ``size`` showing the saved table (the embed page for the embed sizes)."""
    w, h = SIZES[size]
    phone = w < 640
    context = browser.new_context(viewport={"width": w, "height": h}, has_touch=phone, is_mobile=phone)
    table = Seats(context.new_page(), base_url + ("embed.html" if size.startswith("embed") else ""), fast=True)
    table.open("?delay=0")
    table.page.evaluate(STORE_SET, saves)
    table.page.reload()
    wait_ready(table.page)
    table.settle()
    return context, table


@pytest.fixture(scope="module", params=[3, 4], ids=["three", "four"])
def saved(request: pytest.FixtureRequest, browser: Any, base_url: str) -> dict[str, dict[str, Any]]:
    return collect(browser, base_url, request.param)


@pytest.mark.slow
@pytest.mark.parametrize("size", list(SIZES))
def test_every_phase_fits_every_layout(browser: Any, base_url: str, saved: dict[str, dict[str, Any]],
                                       size: str) -> None:
    for phase in PHASES:
        context, table = load(browser, base_url, size, saved[phase])
        try:
            assert _phase_now(table) == phase, (size, phase, _phase_now(table))
            try:
                check_layout(table, size, phase)
            except AssertionError:
                table.page.screenshot(path=f"/tmp/sweep-{size}-{phase.replace(' ', '-')}.png")
                raise
            if phase == "game over":
                assert table.page.locator(".final").count() and table.page.locator(".game-over-chart svg").count()
        finally:
            context.close()


def test_a_table_of_four_on_a_phone_on_its_side_phase_by_phase(browser: Any, base_url: str) -> None:
    """The short version: four seats at 740x360, played live through the discard and the first time
    four cards are on the pile at your turn (the pile used to sit under the prompt here, its tags
    under the next card)."""
    context, table = _open(browser, base_url, "landscape", "?seed=53&delay=0&players=4&seats=you,easy,easy,easy")
    try:
        seen: list[str] = []
        for _ in range(300):
            table.settle()
            phase = _phase_now(table)
            four = phase in ("play", "go") and table.page.locator(".pile-who").count() >= 4
            if phase == "discard" and not seen or four and seen == ["discard"]:
                seen.append(phase)
                check_layout(table, "landscape", phase)
                if len(seen) == 2:
                    break
            table.step()
        assert len(seen) == 2 and table.page.locator(".pile-who").count() >= 4, seen
    finally:
        context.close()

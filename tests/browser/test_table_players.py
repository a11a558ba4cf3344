"""Tables of three and four in the page (issue 19): whole games against computers checked at every
step against the engine (the match as the page saved it, replayed here), the hot-seat covers going
round a table of three in turn order, and every layout keeping the hand and the primary button in
the window."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_harness import STORE_GET
from test_table import APP, Table

from cribbage.match import Match
from cribbage.state import Phase

SAVE = "cribbage.save.table"
SIZES = {"desktop": (1280, 800), "phone": (360, 740), "landscape": (740, 360), "embed": (420, 640),
         "embed-wide": (720, 540)}
PRIVATE = (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY)


class Seats(Table):
    """The table of three or four: lay away as many cards as the table asks (one with five dealt)."""

    hidden_checked = 0
    """How many hidden cards :meth:`check` has looked for (a test asserts it looked)."""

    def step(self) -> bool:
        self.settle()
        page = self.page
        state = page.evaluate(f"() => ({{...{APP}.dataset}})")
        if state["phase"] == "discard" and state["turn"] == "me" and state["covered"] != "true":
            for i in range(4):
                self.press(f"#hand-{i}")
                if not page.locator("#btn-discard[aria-disabled]").count():
                    break
            self.press("#btn-discard")
            return True
        return super().step()

    def engine(self) -> Match:
        """The match as the page saved it (its actions replayed by the engine)."""
        raw = self.page.evaluate(STORE_GET, SAVE)
        assert raw, "the table's match is not saved"
        return Match.from_json(raw)

    def check(self) -> Match:
        """The plates and the board's pegs equal the engine's scores; no hidden card of another seat
        (in a hand or laid away) is anywhere in the page's HTML."""
        match = self.engine()
        st = match.state
        rules = match.rules
        html = self.page.content()
        plates = {int(s): int(t) for s, t in re.findall(r'data-seat-score="(\d)">(\d+)<', html)}
        assert plates == {s: st.scores[rules.side_of(s)] for s in range(rules.players)}, (plates, st.scores)
        # the pegs from the same snapshot as the plates (the computer may move after it)
        holes = [(int(s), int(h)) for s, h in re.findall(r'data-peg="(\d)-front" data-hole="(\d+)"', html)]
        assert sorted(holes) == [
            (side, min(st.scores[side], rules.target)) for side in range(rules.sides)], holes
        me = int(self.meta("seat"))
        if st.phase in PRIVATE and self.meta("covered") != "true":
            for seat in range(rules.players):
                if seat == me:
                    continue
                for card in (*st.hands[seat], *(st.discards[seat] or ())):
                    assert f'data-card="{card.code}"' not in html, (seat, card.code, st.phase)
                    self.hidden_checked += 1
        return match

    def play_out(self, limit: int = 900) -> Match:
        """Play to the game's end, checking every step."""
        for _ in range(limit):
            running = self.step()
            self.settle()
            match = self.check()
            if not running:
                return match
        raise AssertionError("the game did not end")


def _open(browser: Any, base_url: str, size: str, query: str) -> tuple[Any, Seats]:
    w, h = SIZES[size]
    phone = w < 640
    context = browser.new_context(viewport={"width": w, "height": h}, has_touch=phone, is_mobile=phone)
    table = Seats(context.new_page(), base_url, fast=True)
    table.open(query)
    return context, table


def test_three_players_against_two_computers_to_61_on_the_desktop(browser: Any, base_url: str) -> None:
    context, table = _open(browser, base_url, "desktop",
                           "?seed=41&delay=0&players=3&seats=you,easy,easy&to=61")
    try:
        assert table.meta("mode") == "table" and table.meta("seat") == "0"
        match = table.play_out()
        assert match.state.is_over and max(match.state.scores) >= 61 and table.hidden_checked > 100
        assert table.page.locator("[data-winner]").count()
    finally:
        context.close()


def test_you_and_a_partner_against_two_computers_to_61_on_a_phone(browser: Any, base_url: str) -> None:
    context, table = _open(browser, base_url, "phone",
                           "?seed=43&delay=0&players=4&seats=you,easy,easy,easy&to=61")
    try:
        assert table.meta("seat") == "0" and table.meta("covered") == "false"
        table.until(lambda: table.meta("phase") == "play")
        tags = table.page.locator(".seat-tag").all_inner_texts()
        assert len(tags) == 3 and any("Partner" in t for t in tags), tags
        match = table.play_out()
        assert match.state.is_over and max(match.state.scores) >= 61 and table.hidden_checked > 100
    finally:
        context.close()


def test_hot_seat_covers_go_round_a_table_of_three_in_turn_order(browser: Any, base_url: str) -> None:
    context, table = _open(browser, base_url, "desktop", "?seed=47&delay=0&players=3&seats=you,player,player")
    try:
        covers: list[tuple[str, str]] = []
        for _ in range(200):
            table.settle()
            if table.meta("phase") == "play" and covers and covers[-1][0] == "play":
                break
            if table.meta("covered") == "true":
                match = table.engine()
                st = match.state
                seat = st.actors()[0] if st.phase is Phase.PLAY else None
                cover = table.page.inner_text("#cover, .cover") if table.page.locator("#cover, .cover").count() else ""
                html = table.page.content()
                for s in range(3):  # the cover is up: nobody's cards are in the page
                    for card in st.hands[s]:
                        assert f'data-card="{card.code}"' not in html
                covers.append((table.meta("phase"), cover))
                if seat is not None:
                    assert match.names[seat] in cover, (cover, seat)
            table.step()
        match = table.engine()
        dealer = match.state.dealer
        assert dealer is not None
        discards = [text for phase, text in covers if phase == "discard"]
        order = match.rules.show_order(dealer)  # the dealer's left first, the dealer last
        assert len(discards) == 3
        for text, seat in zip(discards, order):
            assert match.names[seat] in text, (discards, order)
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_hand_and_the_primary_button_are_in_the_window(browser: Any, base_url: str, size: str) -> None:
    query = "?seed=53&delay=0&players=4&seats=you,easy,easy,easy" if size in ("phone", "embed") else (
        "?seed=53&delay=0&players=3&seats=you,easy,easy")
    if size.startswith("embed"):
        query = "embed.html" + query  # the embed page (<body class="embed">), as a host's iframe shows it
    context, table = _open(browser, base_url, size, query)
    try:
        w, h = SIZES[size]
        for phase in ("discard", "play"):
            table.until(lambda: table.meta("phase") == phase and table.meta("turn") == "me")
            boxes = table.page.eval_on_selector_all(
                ".hand-me .hand-card, .felt .btn-primary, .seat-tag",
                "els => els.map(e => { const r = e.getBoundingClientRect();"
                " return [e.className, r.left, r.top, r.right, r.bottom] })")
            assert any("btn-primary" in b[0] for b in boxes) and any("hand-card" in b[0] for b in boxes)
            for cls, left, top, right, bottom in boxes:
                assert left >= -1 and top >= -1 and right <= w + 1 and bottom <= h + 1, (size, phase, cls, top, bottom)
            tops = [top for cls, _, top, _, _ in boxes if "seat-tag" in cls]
            assert len(tops) in (2, 3) and max(tops) - min(tops) < 30, (size, phase, tops)  # one row across the top
            scroll = table.page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            assert scroll[0] <= scroll[1], (size, phase, scroll)
    finally:
        context.close()


@pytest.mark.slow
def test_three_players_on_one_phone_play_a_game_to_61_to_its_end(browser: Any, base_url: str) -> None:
    """The *three players* preset, hot-seat, on a phone: every cover accepted in turn, the plates and
    pegs equal to the engine's scores and no other seat's hidden card in the page at every step."""
    context, table = _open(browser, base_url, "phone", "?seed=47&delay=0&players=3&seats=you,player,player&to=61")
    try:
        match = table.play_out(limit=1500)
        assert match.state.is_over and max(match.state.scores) >= 61 and table.hidden_checked > 100
        assert table.page.locator("[data-winner]").count()
    finally:
        context.close()

"""Muggins in the page (issue 29), in Chromium: the cards counted stay in view beside the pad at every
size (a phone's pad used to cover the crib being claimed and cut the dealer's hand in half).

A counted card is *seen* when the point at the middle of some element showing it (``[data-card]``) is
inside the window, outside the pad, and ``document.elementFromPoint`` there finds that element: a card
scrolled out of the middle, or lying under the prompt, is not seen. That is what the player sees,
whatever the markup that shows it.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_table_presets import Table, due

from cribbage.match import Match

SIZES = {"phone 390x844": (390, 844), "phone 360x740": (360, 740), "desktop 1280x800": (1280, 800),
         "landscape 740x360": (740, 360), "embed 420x640": (420, 640), "embed 720x540": (720, 540)}
SEEN = """([codes, w, h]) => {
  const pads = [...document.querySelectorAll('.prompt .actions button')].map(b => b.getBoundingClientRect());
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return codes.map(code => {
    const boxes = [...document.querySelectorAll(`#table [data-card="${code}"]`)].map(e => {
      const r = e.getBoundingClientRect();
      const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
      const hit = document.elementFromPoint(x, y);
      const inside = r.width > 0 && r.left >= -1 && r.top >= -1 && r.right <= w + 1 && r.bottom <= h + 1;
      return {box: [r.left, r.top, r.right, r.bottom].map(Math.round), inside,
              padFree: !pads.some(p => meets(p, r)), onTop: !!hit && (hit === e || e.contains(hit))};
    });
    return [code, boxes.some(b => b.inside && b.padFree && b.onTop), boxes];
  });
}"""
"""For each card code: (code, seen, the boxes of the elements showing it)."""


def counted_codes(match: Match) -> tuple[str, list[str]]:
    """(what, the codes) of the count being claimed by seat 0 or judged by it: its four (or five)
    cards and the starter."""
    view = match.view(0)
    starter = view.starter
    assert starter is not None
    if view.claim is not None and view.claim_what != "play":  # judging a claim: the latest count's cards
        e = next(x for x in reversed(view.events) if x.kind in ("show hand", "show crib"))
        return e.kind, [c.code for c in e.cards]
    crib = view.show_step >= view.rules.players
    cards = view.crib if crib else view.kept
    return ("crib" if crib else "hand"), [c.code for c in (*cards, starter)]


class Counting(Table):
    """Claims every count exactly (lets every claim of the computer stand) and, before each, checks that
    every card counted is seen beside the pad."""

    seen: list[str]

    def check_seen(self) -> None:
        match = self.engine()
        what, codes = counted_codes(match)
        w, h = self.page.viewport_size["width"], self.page.viewport_size["height"]
        report = self.page.evaluate(SEEN, [codes, w, h])
        hidden = [(code, boxes) for code, ok, boxes in report if not ok]
        assert not hidden, (what, hidden)
        self.seen.append(what)

    def step(self) -> bool:
        self.settle()
        page = self.page
        if self.meta("covered") != "true" and page.locator("#btn-claim").count():
            self.check_seen()
            view = self.engine().view(0)
            for d in str(due(view)):
                self.press(f"[data-action='claim-digit'][data-digit='{d}']")
            self.press("#btn-claim")
            return True
        if self.meta("covered") != "true" and page.locator("#btn-stand").count():
            self.check_seen()
            self.press("#btn-stand")
            return True
        return super().step()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_cards_counted_are_seen_beside_the_pad(browser: Any, base_url: str, size: str) -> None:
    # Seed 31, expert: the computer deals hand 1 (you count your hand first, it claims its hand, then
    # its crib), you deal hand 2 (it claims first, then you count your hand as dealer, then your crib).
    query = "?rules=muggins&level=expert&seed=31&delay=0"
    w, h = SIZES[size]
    query = ("embed.html" + query) if size.startswith("embed") else query
    context = browser.new_context(viewport={"width": w, "height": h}, has_touch=w < 640, is_mobile=w < 640)
    table = Counting(context.new_page(), base_url, fast=True)
    table.seen = []
    try:
        table.open(query)
        table.until(lambda: int(table.meta("hand") or 0) >= 3 or table.meta("phase") == "game over")
        # Hand 1: your hand; the computer's hand and crib judged. Hand 2: its hand judged; your hand
        # (as dealer) and your crib claimed.
        assert table.seen[:6] == ["hand", "show hand", "show crib", "show hand", "hand", "crib"], table.seen
    finally:
        context.close()


# --- muggins in the play ---------------------------------------------------------------------------

class PlayMuggins(Counting):
    """Muggins in the play and in the show. In the play: under-claims (0) until the computer has called
    one, then over-claims (2 more) until one is put back, then exact claims; calls *Muggins!* on every
    wrong claim of the computer (the button, or M) and lets the right ones stand."""

    under_called = 0
    over_called = 0
    i_called = 0
    caught = 0
    claims = 0

    def step(self) -> bool:
        self.settle()
        page = self.page
        if self.meta("covered") == "true":
            return super().step()
        if self.meta("call") == "true" and page.locator("#btn-muggins").count():
            from cribbage.ai.table import claim_error

            match = self.engine()
            error = claim_error(match.view(0))
            if error or not self.i_called:  # every wrong claim; a right one once (nothing was missed)
                before = len(match.actions)
                if self.i_called % 2:
                    page.keyboard.press("m")
                else:
                    self.press("#btn-muggins")
                self.settle()
                after = self.engine()
                assert len(after.actions) > before and str(after.actions[before]) == "muggins 0", after.actions[before:]
                said = [e for e in after.state.events[len(match.state.events):] if e.kind == "muggins"]
                assert said and said[0].points == abs(error), said  # a miss taken, an overage pegged, or nothing
                self.i_called += 1
                self.caught += bool(error)
                return True
        if (
            self.meta("phase") == "play"
            and self.meta("turn") == "me"
            and page.locator("[data-action='play-claim']").count()
        ):
            match = self.engine()
            view = match.view(0)
            from cribbage.actions import Play

            cards = list(dict.fromkeys(a.card for a in view.legal_actions if isinstance(a, Play)))
            card = max(cards, key=lambda c: view.play_points(c))
            points = view.play_points(card)
            self.press(f".hand-me [data-card='{card.code}']")
            page.wait_for_selector("#claim-0:not([aria-disabled])")
            codes = [c.code for _, c in view.pile] + [card.code]
            w, h = page.viewport_size["width"], page.viewport_size["height"]
            hidden = [(code, boxes) for code, ok, boxes in page.evaluate(SEEN, [codes, w, h]) if not ok]
            assert not hidden, hidden  # the cards of the count stay in view beside the claim buttons
            if points and not self.under_called:
                claim = 0
            elif points and not self.over_called:
                claim = points + 2
            else:
                claim = points
            before = len(match.actions)
            self.press(f"#claim-{claim}")
            self.settle()
            after = self.engine()
            assert str(after.actions[before]) == f"play 0 {card.code} {claim}", after.actions[before:]
            self.claims += 1
            kinds = [e.kind for e in after.state.events[len(match.state.events):] if e.points]
            if claim < points and "muggins" in kinds:
                self.under_called += 1
            if claim > points and "put back" in kinds:
                self.over_called += 1
                if any(c == card for _, c in after.state.pile):  # (the computer's next card may end the count)
                    assert page.locator(".pile-claim", has_text=f"claimed {claim}, put back 2").count()
            return True
        return super().step()


def test_a_game_with_muggins_in_the_play_against_the_computer_on_a_phone(browser: Any, base_url: str) -> None:
    query = "?rules=muggins,play-muggins&seats=you,easy&seed=4&delay=0&to=61"
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    table = PlayMuggins(context.new_page(), base_url, fast=True)
    table.seen = []
    try:
        table.open(query)
        match = table.play_out()
        assert match.rules.play_muggins and match.state.is_over
        assert table.claims >= 8 and table.under_called >= 1 and table.over_called >= 1, (
            table.claims, table.under_called, table.over_called)
        assert table.i_called >= 1, table.i_called
    finally:
        context.close()

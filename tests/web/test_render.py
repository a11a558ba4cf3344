"""Rendering: one seat's view (plus UI state) to markup, checked without a browser.

The strongest checks walk whole random matches and render every step: the markup never holds a
card the seat may not see, the cards offered are exactly the legal ones, and every point on the
board can be found on the score sheet.
"""

from __future__ import annotations

import random
import re
from typing import Iterator

import pytest
from table_fakes import select, text_of

from cribbage.actions import Discard, Go, Play
from cribbage.cards import Card
from cribbage.match import Match
from cribbage.state import Phase
from web.kit.cards import card_name
from web.shell.dialogs import frame as render
from web.table.render import buttons_for, deal_cuts, primary_button
from web.table.scene import Scene

NAMES = ("You", "Computer")


def walk(seed: int) -> Iterator[Match]:
    """A random match, yielded before every action and at the end."""
    rng = random.Random(seed)
    match = Match(seed, humans=(0,), names=NAMES)
    while not match.state.is_over:
        yield match
        match.apply(rng.choice(match.legal_actions()))
    yield match


def forms(card: Card) -> list[str]:
    """Every way the markup could name a card."""
    return [f'data-card="{card.code}"', card.pretty, card_name(card)]


def hidden_from(match: Match, seat: int) -> set[Card]:
    """Cards ``seat`` must not see now: the other hand and the other discards (until the show)."""
    st = match.state
    if st.play_over or st.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_PACK, Phase.GAME_OVER):
        return set()
    other = 1 - seat
    hidden = set(st.hands[other]) | set(st.discards[other] or ())
    # The cut-for-deal cards went back into the pack: naming them in hand 1 is not a leak.
    if st.hand_number == 1:
        hidden -= set(deal_cuts(st.events).values())
    return hidden


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_never_sees_the_other_hand(seed: int) -> None:
    for match in walk(seed):
        for seat in (0, 1):
            html = render(Scene(view=match.view(seat), names=NAMES, orientation="horizontal")).table
            for card in hidden_from(match, seat):
                for form in forms(card):
                    assert form not in html, f"{form} leaked to seat {seat} in {match.state!r}"


@pytest.mark.parametrize("seed", [4, 5])
def test_under_the_cover_nothing_private_is_drawn(seed: int) -> None:
    for match in walk(seed):
        st = match.state
        if st.phase not in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY):
            continue
        for seat in (0, 1):
            scene = Scene(view=match.view(seat), names=("Player 1", "Player 2"), mode="hotseat",
                          computer_seats=frozenset(), private=False, cover_for=seat, selected=("5H",))
            out = render(scene)
            html = out.table + out.overlay
            secret = set(st.hands[0]) | set(st.hands[1]) | set(st.discards[0] or ()) | set(st.discards[1] or ())
            if st.hand_number == 1:
                secret -= set(deal_cuts(st.events).values())
            for card in secret:
                for form in forms(card):
                    assert form not in html
            assert select(out.overlay, id="btn-ready")
            assert not select(out.table, tag="button", data_action="card")
            assert out.meta["covered"] == "true"


@pytest.mark.parametrize("seed", [6, 7])
def test_the_cards_offered_are_the_legal_ones(seed: int) -> None:
    for match in walk(seed):
        view = match.view(0)
        html = render(Scene(view=view, names=NAMES)).table
        buttons = select(html, tag="button", data_action="card")
        if view.phase is Phase.DISCARD and view.legal_actions:
            assert [b.attrs["data-card"] for b in buttons] == [c.code for c in view.hand]
            assert all("aria-disabled" not in b.attrs for b in buttons)
        elif view.phase is Phase.PLAY and view.legal_actions:
            playable = {a.card.code for a in view.legal_actions if isinstance(a, Play)}
            assert {b.attrs["data-card"] for b in buttons} == {c.code for c in view.hand}
            for b in buttons:
                assert (b.attrs.get("aria-disabled") == "true") == (b.attrs["data-card"] not in playable)
            has_go = any(isinstance(a, Go) for a in view.legal_actions)
            assert bool(select(html, id="btn-go")) == has_go
        else:
            assert not buttons
        assert " style=" not in html and "<script" not in html


def test_every_control_has_a_name() -> None:
    match = next(m for m in walk(8) if m.state.phase is Phase.PLAY and m.view(0).legal_actions)
    out = render(Scene(view=match.view(0), names=NAMES, dialog="menu"))
    for html in (out.table, out.overlay):
        for attrs, inner in re.findall(r"<button([^>]*)>(.*?)</button>", html, re.S):
            assert "aria-label=" in attrs or text_of(inner).strip(), attrs


def test_cut_for_deal_offers_the_pack_face_down() -> None:
    match = Match(11, humans=(0,), names=NAMES)
    view = match.view(0)
    scene = Scene(view=view, names=NAMES)
    html = render(scene).table
    picks = select(html, data_action="cut-pick")
    lo, hi = view.cut_depths
    assert [int(p.attrs["data-depth"]) for p in picks] == list(range(lo, hi + 1))
    assert "data-card" not in html.split('class="fan')[1].split("</svg>")[0]
    assert primary_button(scene) is None  # nothing picked yet: a click on the fan cuts at once
    scene.cut_pick = lo + 3
    assert primary_button(scene).action == "cut"
    assert select(render(scene).table, cls="picked", data_depth=str(lo + 3))


def test_discard_preview_and_confirmation() -> None:
    match = next(m for m in walk(12) if m.state.phase is Phase.DISCARD and m.view(0).legal_actions)
    view = match.view(0)
    codes = tuple(c.code for c in view.hand[:2])
    scene = Scene(view=view, names=NAMES, selected=codes[:1])
    assert primary_button(scene) is None
    scene = Scene(view=view, names=NAMES, selected=codes, keep_points=4, keep_ev="net 9.1, the best keep")
    html = render(scene).table
    assert primary_button(scene).action == "discard"
    assert "keep <strong>4</strong> points" in html and "net 9.1, the best keep" in html
    assert [b.attrs["aria-pressed"] for b in select(html, tag="button", data_action="card")][:3] == [
        "true", "true", "false"]


def test_play_preview_names_what_the_card_would_score() -> None:
    match = next(m for m in walk(13) if m.state.phase is Phase.PLAY and any(
        isinstance(a, Play) for a in m.view(0).legal_actions))
    view = match.view(0)
    card = next(a.card for a in view.legal_actions if isinstance(a, Play))
    from cribbage.scoring import score_play

    items = tuple(score_play([c for _, c in view.pile] + [card]))
    scene = Scene(view=view, names=NAMES, selected=(card.code,), play_preview=(view.count + card.value, items))
    html = render(scene).table
    assert f"Play {card.pretty}? It makes {view.count + card.value}" in html
    assert select(html, cls="ghost")
    assert primary_button(scene).action == "play"


def test_the_show_lists_every_combination() -> None:
    match = next(m for m in walk(14) if m.state.phase is Phase.SHOW and m.state.show_step == 1)
    view = match.view(0)
    html = render(Scene(view=view, names=NAMES)).table
    counted = [e for e in view.events if e.kind == "show hand" and e.hand == view.hand_number]
    assert counted
    for item in counted[0].items:
        assert item.describe().replace("\u2019", "'") in html.replace("&#x27;", "'")
    assert "Not counted yet" in html


def test_the_hand_over_summary_keeps_the_show_and_offers_next_hand() -> None:
    match = next(m for m in walk(15) if m.state.phase is Phase.CUT_PACK and m.state.hand_number == 2)
    scene = Scene(view=match.view(0), names=NAMES, summary=1)
    out = render(scene)
    assert primary_button(scene).action == "next-hand"
    assert out.meta["phase"] == "hand over"
    assert len(select(out.table, cls="show-panel")) == 3


def test_game_over_names_the_winner_and_the_sheet_explains_every_point() -> None:
    *_, match = walk(16)
    view = match.view(0)
    out = render(Scene(view=view, names=NAMES, dialog="sheet"))
    winner = select(out.table, data_winner=str(view.winner))
    assert winner
    assert primary_button(Scene(view=view, names=NAMES)).label == "New game"
    # The sheet: one row per scoring event, its points summing to the board's totals.
    totals = [0, 0]
    for row in re.findall(r'<tr class="seat-(\d)">(.*?)</tr>', out.overlay, re.S):
        seat, cells = int(row[0]), row[1]
        totals[seat] += int(re.search(r'<td class="pts">(\d+)</td>', cells).group(1))
    assert totals == list(view.scores)


def test_buttons_follow_the_phase() -> None:
    for match in walk(17):
        view = match.view(0)
        labels = [b.label for b in buttons_for(Scene(view=view, names=NAMES))]
        if view.phase is Phase.DISCARD and any(isinstance(a, Discard) for a in view.legal_actions):
            assert labels == ["To crib"]
        if view.phase is Phase.SHOW and view.legal_actions:
            assert labels == ["Count crib" if view.show_step == 2 else "Count hand"]
        if not view.legal_actions and view.phase is not Phase.GAME_OVER:
            assert labels == []


def test_labels_sit_only_where_aria_allows_them() -> None:
    """``aria-label`` on a plain div or span is ignored by screen readers (axe: aria-prohibited-attr)."""
    for match in walk(18):
        out = render(Scene(view=match.view(0), names=NAMES, dialog="sheet"))
        for html in (out.table, out.overlay):
            for e in select(html):
                if "aria-label" in e.attrs and e.tag in ("div", "span", "p", "li"):
                    assert "role" in e.attrs, e


def test_a_tie_in_the_cut_for_deal_says_cut_again() -> None:
    from cribbage.actions import CutForDeal

    match = Match(21, humans=(0,), names=NAMES)
    pack = match.state._undealt()  # the test peeks to arrange equal ranks; the table never does
    lo = match.view(0).cut_depths[0]
    rank = pack[lo].rank
    rest = pack[:lo] + pack[lo + 1:]
    depth = next(i for i in range(lo, len(rest) - lo + 1) if rest[i].rank == rank)
    match.apply(CutForDeal(0, lo))
    match.apply(CutForDeal(1, depth))
    view = match.view(0)
    assert view.phase is Phase.CUT_FOR_DEAL and view.cut_cards == (None, None)
    html = render(Scene(view=view, names=NAMES)).table
    assert "Equal ranks: the pack is reshuffled, both cut again." in html
    assert select(html, data_action="cut-pick")

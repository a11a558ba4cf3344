"""Muggins in the play on the page (issue 29 item 4): each card is laid with a claim of its points (a
tap on a number, or digits and Enter), the claim shows on the pile, nothing says what the card scores
before it is claimed (the preview, the hint), the computer calls an under-claim (out of turn too) and
an over-claim (put back, the board's pegs following the score down), the player calls the computer's
claim (the button or M), a hot-seat player calls whoever holds the device, and the New game dialog
and the URL choose the house rule."""

from __future__ import annotations

import re
from typing import Callable

from table_fakes import FakeHost, select, text_of

from cribbage.actions import Muggins, Play, parse_action
from cribbage.cards import Card
from cribbage.ai import make_player
from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.state import Phase
from web.kit.cards import card_name
from web.shell.controller import SAVE_KEYS, Controller, MemoryStorage
from web.sessions.newgame import edit, from_json, from_query
from web.table.claims import PLAY_CLAIMS

RULES = Rules(muggins=True, play_muggins=True)


def played(seed: int, stop: Callable[[Match], bool], level: str = "easy", rules: Rules = RULES) -> Match:
    """A play-muggins match against the computer, its moves made by the expert for me and ``level`` for
    the computer, up to the first moment ``stop`` says."""
    for tried in range(seed, seed + 30):  # the first seed from ``seed`` on where it happens
        match = Match(tried, humans=(0,), names=("You", "Computer"), options={"level": level}, rules=rules)
        me, other = make_player("expert", 1), make_player(level, tried * 7)
        while not stop(match) and not match.state.is_over:
            seat = match.state.actors()[0]
            match.apply((me if seat == 0 else other).choose(match.view(seat)))
        if not match.state.is_over:
            return match
    raise AssertionError("no seed found")


def my_scoring_turn(after_go: bool = False) -> Callable[[Match], bool]:
    """My turn in the play, a card of mine scores (``after_go``: the computer has said Go, and after
    that card another of mine still fits: the turn stays mine)."""
    def stop(match: Match) -> bool:
        st = match.state
        if st.phase is not Phase.PLAY or st.actors() != [0] or (st.go_said == 1) != after_go:
            return False
        return any(scores_and_goes_on(match, a.card, after_go) for a in match.view(0).legal_actions
                   if isinstance(a, Play))
    return stop


def scores_and_goes_on(match: Match, card: Card, goes_on: bool) -> bool:
    """``card`` scores now for the player to move (and, with ``goes_on``, another of theirs fits after it)."""
    st = match.state
    if not st.play_points(card) or sum(len(h) for h in st.hands) == 1:  # (the last card ends the play)
        return False
    room = 31 - st.count - card.value
    return not goes_on or any(c != card and c.value <= room for c in st.hands[st.to_play])


def piles(host: FakeHost) -> list[str]:
    """The text of the pile in every frame drawn (the play may be over by the last one)."""
    return [text_of(f.table.split('class="pile"')[1].split("</ol>")[0]) for f in host.frames
            if 'class="pile"' in f.table]


def computer_claimed_short(match: Match) -> bool:
    st = match.state
    return (st.phase is Phase.PLAY and st.claim is not None and st.claim.seat == 1 and st.to_play == 0
            and st.claim.actual > st.claim.claimed)


def table(match: Match, mode: str = "computer") -> tuple[Controller, FakeHost]:
    storage = MemoryStorage()
    storage.set(SAVE_KEYS[mode], match.to_json())
    host = FakeHost()
    c = Controller(host, storage, {"delay": "0", "mode": mode}, seed_source=lambda: 1)
    c.boot()
    return c, host


def scoring_card(c: Controller) -> tuple[int, Play, int]:
    """(index in my hand, the play, what it scores) of a card that scores now."""
    view = c.match.view(0)
    st = c.match.state
    goes_on = st.go_said == 1
    for i, card in enumerate(view.hand):
        if any(isinstance(a, Play) and a.card == card for a in view.legal_actions) and scores_and_goes_on(
                c.match, card, goes_on):
            return i, Play(0, card, st.play_points(card)), st.play_points(card)
    raise AssertionError("no scoring card")


def claim_buttons(html: str) -> list[str]:
    return [e.attrs["data-claim"] for e in select(html, data_action="play-claim")]


def test_the_claim_buttons_give_nothing_away_before_the_claim() -> None:
    c, host = table(played(1, my_scoring_turn()))  # my turn: a card of mine scores
    before = len(c.match.actions)
    html = host.last.table
    assert claim_buttons(html) == [str(n) for n in PLAY_CLAIMS]
    assert all(e.attrs.get("aria-disabled") == "true" for e in select(html, data_action="play-claim"))
    assert not select(html, id="btn-play")
    i, play, points = scoring_card(c)
    c.click("card", {"index": str(i)})
    html = host.last.table
    text = text_of(html)
    assert f"Play {play.card.pretty} (count {c.match.state.count + play.card.value}): what does it score?" in text
    assert not any(e.attrs.get("aria-disabled") for e in select(html, data_action="play-claim"))
    # No preview of its score: no "It makes", no "+N" on the ghost card, no item named.
    assert "It makes" not in text and "ghost-points" not in html
    assert not re.search(r"(fifteen|pair|run of \d|31) for \d|\+\d", text), text
    # Tapping the chosen card again does not lay it without a claim.
    c.click("card", {"index": str(i)})
    assert len(c.match.actions) == before and "tap its points" in host.said[-1]


def test_a_tap_lays_the_card_with_its_claim_and_the_pile_says_it() -> None:
    c, host = table(played(1, my_scoring_turn()))
    before = len(c.match.actions)
    i, play, points = scoring_card(c)
    c.click("card", {"index": str(i)})
    c.click("play-claim", {"claim": str(points)})
    assert c.match.actions[before] == play
    assert f"You play {play.card.pretty[:-1]}" in host.said[-1] or "You play" in host.said[-1]
    assert f"and claim {['zero', 'one', 'two', 'three', 'four', 'five', 'six'][points]}" in host.said[-1]
    assert f"claims {points}" in piles(host)[-1]  # open to a call
    host.run_timers()
    assert any(f"claimed {points}" in p for p in piles(host))
    assert not any(e.kind in ("muggins", "put back") for e in c.match.state.events[before:])  # exact


def test_an_under_claim_is_taken_and_an_over_claim_put_back_by_the_computer() -> None:
    for claim_delta, kind in ((-1, "muggins"), (2, "put back")):
        c, host = table(played(1, my_scoring_turn(), level="expert"))
        i, play, points = scoring_card(c)
        mine, theirs = c.match.state.scores
        claim = points + claim_delta if claim_delta > 0 else 0
        c.click("card", {"index": str(i)})
        c.click("play-claim", {"claim": str(claim)})
        host.run_timers()
        st = c.match.state
        called = [e for e in st.events if e.kind in ("muggins", "put back") and e.points]
        assert called, st.events[-4:]
        said = " ".join(host.said)
        pile = " | ".join(piles(host))
        if kind == "muggins":
            assert called[0].seat == 1 and called[0].points == points
            assert st.scores[0] == mine and st.scores[1] >= theirs + points
            assert f"claimed 0, muggins took {points}" in pile
        else:
            back = next(e for e in called if e.kind == "put back")
            assert back.seat == 0 and back.points == -2 and st.scores[0] >= mine + points
            assert f"claimed {claim}, put back 2" in pile
            assert f"You are put back 2: claimed {claim}, {card_name(play.card)} scored {points}." in said
            assert "Muggins! Computer pegs the two the claim overmarked." in said
            pegs = {p.key: p.hole for p in host.last.pegs}
            assert pegs["0-back"] <= pegs["0-front"]


def test_keyboard_digits_choose_the_card_then_type_its_claim_and_enter_lays_it() -> None:
    c, host = table(played(1, my_scoring_turn()))
    before = len(c.match.actions)
    i, play, points = scoring_card(c)
    c.key(str(i + 1))  # a digit with no card chosen chooses one
    assert c.ui.selected == [play.card.code]
    c.key(str(points))  # then digits say the claim
    assert select(host.last.table, id=f"claim-{points}")[0].attrs.get("aria-pressed") == "true"
    assert f"Claim {points}? Press Enter" in text_of(host.last.table)
    c.key("Enter")
    assert c.match.actions[before] == play


def test_the_player_calls_the_computers_short_claim_with_m() -> None:
    match = played(1, computer_claimed_short)  # the computer (easy) has just claimed short; my turn to play
    st = match.state
    assert st.claim is not None and st.claim.seat == 1 and st.claim.actual > st.claim.claimed
    missed = st.claim.actual - st.claim.claimed
    c, host = table(match)
    html = host.last.table
    assert select(html, id="btn-muggins") and ": muggins (M) if it is wrong" in text_of(html)
    assert f"Computer claims {st.claim.claimed} for" in text_of(html)
    mine = c.match.state.scores[0]
    c.key("m")
    assert c.match.actions[-1] == Muggins(0)
    assert c.match.state.scores[0] == mine + missed
    assert f"Muggins! You take the {['zero', 'one', 'two', 'three', 'four'][missed]}" in " ".join(host.said)
    assert not select(host.last.table, id="btn-muggins")  # settled
    assert c.ui.dialog is None  # M called muggins; it did not open the menu


def test_the_computer_calls_out_of_turn_after_saying_go() -> None:
    # Seed 9 (expert): the computer has said Go; I lay A♣ (it scores nothing) and claim 2, and A♣ leaves
    # me a card that fits: still my turn. The computer, not to play, calls the over-claim out of turn.
    match = played(9, lambda m: len(m.actions) == 29, level="expert")
    assert match.state.go_said == 1 and match.state.actors() == [0]
    c, host = table(match)
    index = next(i for i, card in enumerate(c.match.view(0).hand) if card.code == "AC")
    c.click("card", {"index": str(index)})
    c.click("play-claim", {"claim": "2"})
    assert c.match.state.actors() == [0] and c.match.state.claim is not None  # my turn still, the claim open
    assert c.session.busy  # the computer is deciding on its call
    host.run_timers()
    assert c.match.actions[29:31] == [Play(0, Card.parse("AC"), 2), Muggins(1)]
    back = [e for e in c.match.state.events if e.kind == "put back"]
    assert back and back[-1].seat == 0 and back[-1].points == -2


def test_the_hint_names_the_card_not_its_points() -> None:
    c, host = table(played(1, my_scoring_turn(), level="expert"))
    c.click("hint", {})
    text = c.ui.hint[0] if c.ui.hint else ""
    assert text and "Claim what it scores yourself" in text
    assert not re.search(r"\bfor \d|\d points?|scores? \d", text), text


HOT_SEAT_28 = ("cutdeal 0 32;cutdeal 1 34;cut 0 39;discard 0 AS 7C;discard 1 JH QH;starter 0 33;play 0 2D 0;"
               "play 1 6H 0;play 0 7D 0;play 1 7S 0;muggins 0;play 0 2C 0;play 1 AD 0;play 0 3D 3;play 1 AC 1;"
               "count 0 8;pass 1;count 1 2;muggins 0;count 1 0;muggins 0;cut 1 18;discard 0 5H 7H;"
               "discard 1 2C 7D;starter 1 6;play 1 JC 0;play 0 AS 0;play 1 9D 0;play 0 3H 0;go 1")


def test_hot_seat_a_player_calls_while_the_other_holds_the_device() -> None:
    # Seed 28, two people at one device: Bob has said Go; Ann lays 2♦ and claims 2 (it scores nothing)
    # and plays on: Bob calls it from Ann's turn (his button, with his name).
    # (The moves are the ones the easy level chose for both before issue 34 re-made it.)
    match = Match(28, humans=(0, 1), names=("Ann", "Bob"), rules=RULES)
    for text in HOT_SEAT_28.split(";"):
        match.apply(parse_action(text))
    assert match.state.go_said == 1 and match.state.actors() == [0]
    c, host = table(match, mode="hotseat")
    c.click("ready", {})
    index = next(i for i, card in enumerate(c.match.view(0).hand) if card.code == "2D")
    c.click("card", {"index": str(index)})
    c.click("play-claim", {"claim": "2"})
    assert c.match.state.actors() == [0] and c.cover_for() is None  # Ann holds the device still
    html = host.last.table
    assert select(html, id="btn-muggins-1") and "Muggins! (Bob)" in text_of(html)
    assert not select(html, id="btn-muggins")  # Ann cannot call her own claim
    bob = c.match.state.scores[1]
    c.click("muggins", {"seat": "1"})
    assert c.match.actions[-1] == Muggins(1)
    assert c.match.state.scores[1] == bob + 2
    assert "Bob pegs the two the claim overmarked" in " ".join(host.said)


def test_new_game_and_the_url_choose_muggins_in_the_play() -> None:
    game, problems = from_query({"rules": "muggins,play-muggins", "seats": "you,expert"})
    assert not problems and game.rules == Rules(muggins=True, play_muggins=True)
    assert "rules=muggins,play-muggins" in game.to_query()
    assert "muggins in the play" in game.describe()
    game = edit(game, "play-muggins", "off")
    assert game.rules == Rules(muggins=True)
    assert from_json(edit(game, "play-muggins", "on").to_json()).rules.play_muggins
    c, host = table(played(1, lambda m: True))
    c.click("menu")
    c.click("newgame-open")
    overlay = host.last.overlay
    box = select(overlay, id="ng-play-muggins-on")
    assert box and "Muggins in the play" in text_of(overlay)
    c.click("newgame-set", {"field": "play-muggins", "choice": "on"})
    assert "muggins in the play" in host.said[-1]

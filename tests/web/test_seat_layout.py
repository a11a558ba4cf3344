"""Seats as data: where two, three and four players sit (web/table/layout.py), a table drawn for each
seat of a whole match at three and four (every seat's plate and peg equal the engine's scores, no
hidden card of another seat in the page), and hot-seat covers going round in turn order."""

from __future__ import annotations

from collections.abc import Iterator
from html import escape

import pytest
from table_fakes import FakeHost, play_human_turn, select

from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.state import Phase
from web.shell.controller import Controller, MemoryStorage
from web.shell.dialogs import frame
from web.kit.cards import card_name
from web.sessions import local
from web.sessions.base import Mode
from web.sessions.registry import MODES, register
from web.sessions.seats import fallback_choose
from web.table.layout import PLACES, name_list, seat_places, side_names
from web.table.scene import Scene, ShellScene

NAMES = ("Ann", "Bob", "Cid", "Dee")
TABLES = {"three to 61": Rules(players=3, target=61), "four in partnerships": Rules(players=4),
          "two, crib from the pack": Rules(players=2, crib_from_pack=2, target=61)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_sits_once_clockwise_from_the_bottom_and_partners_opposite(players: int) -> None:
    rules = Rules(players=players)
    for bottom in range(players):
        places = seat_places(rules, bottom)
        assert sorted(p.seat for p in places) == list(range(players))
        assert tuple(p.where for p in places) == PLACES[players] and places[0].seat == bottom
        assert places[1].seat == rules.left_of(bottom) and places[1].where == ("top" if players == 2 else "left")
        if players == 4:
            across = next(p.seat for p in places if p.where == "top")
            assert rules.side_of(across) == rules.side_of(bottom)


def test_sides_are_named_by_their_players() -> None:
    assert side_names(NAMES, Rules(players=4)) == ("Ann & Cid", "Bob & Dee")
    assert side_names(NAMES[:3], Rules(players=3)) == NAMES[:3]
    assert name_list(["Ann"]) == "Ann" and name_list(["Ann", "Bob", "Cid"]) == "Ann, Bob and Cid"


def _steps(rules: Rules, seed: int) -> Iterator[Match]:
    """A whole match played by the fallback player, the match before every action (and at the end)."""
    match = Match(seed, humans=range(rules.players), names=NAMES[: rules.players], rules=rules)
    for step in range(5000):
        yield match
        if match.state.is_over:
            return
        seat = match.state.actors()[0]
        match.apply(fallback_choose(match.view(seat), step))
    raise AssertionError("the match did not end")


def _hidden(match: Match, seat: int) -> list[str]:
    """What ``seat`` must not see now: the cards in the other hands and the crib's, before the show."""
    st = match.state
    if st.phase not in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY):
        return []
    cards = [c for s in range(match.rules.players) if s != seat for c in st.hands[s]]
    cards += [c for s in range(match.rules.players) if s != seat for c in (st.discards[s] or ())]
    return [c.code for c in cards]


@pytest.mark.parametrize("table", TABLES)
def test_a_whole_match_draws_every_seat_with_the_engines_scores_and_nothing_hidden(table: str) -> None:
    rules = TABLES[table]
    names = NAMES[: rules.players]
    for n, match in enumerate(_steps(rules, 11)):
        for seat in range(rules.players):
            if n % 3 and seat:
                continue  # every seat's view is drawn often, not at every step
            view = match.view(seat)
            out = frame(Scene(view=view, names=names, me=seat, mode="hotseat"))
            html = out.table + out.overlay
            plates = select(out.table, cls="plate")
            assert sorted(p.attrs["class"].split()[2] for p in plates) == [f"seat-{s}" for s in range(rules.players)]
            assert select(out.table, cls="plate")[-1].has_class(f"seat-{seat}")  # this seat at the bottom
            for s in range(rules.players):
                score = select(out.table, data_seat_score=str(s))
                assert len(score) == 1
            assert [p.hole for p in out.pegs if p.key.endswith("front")] == [
                min(score, rules.target) for score in view.scores]
            regions = [key for key, _ in out.regions]
            others = [f"opp-{p.where}" for p in seat_places(rules, seat)[1:]] if rules.players > 2 else ["opp"]
            assert set(others) <= set(regions) and "me" in regions
            for code in _hidden(match, seat):
                assert f'data-card="{code}"' not in html, (table, n, seat, code)
    final = frame(Scene(view=match.view(0), names=names, me=0, mode="hotseat")).table
    winner = side_names(names, rules)[match.state.winner or 0]
    assert f"{escape(winner)} win" in final


@pytest.mark.parametrize("players", [3, 4])
def test_hot_seat_covers_go_round_the_seats_in_turn_order(players: int) -> None:
    rules = Rules(players=players)
    key = f"test-hotseat-{players}"

    def new(mode: Mode, ctx: object, seed: int, level: str) -> object:
        match = Match(seed, humans=mode.humans, names=mode.names, rules=rules)
        from web.sessions.session import LocalSession

        return LocalSession(match, local.seats_of(mode, match, ctx), acked_hand=-1)  # type: ignore[arg-type]

    register(Mode(key=key, label="test", resume_label="test", title="Test", names=NAMES[:players],
                  humans=tuple(range(players)), perspective=None, save_key=f"cribbage.save.{key}",
                  ui_key=f"cribbage.ui.{key}", cover=True, undo=True, restart=True, computer=False,
                  start_sentence="", new=new, resume=lambda mode, ctx: (None, None)))  # type: ignore[arg-type]
    try:
        host = FakeHost()
        controller = Controller(host, MemoryStorage(), {"delay": "0", "mode": key, "seed": "5"})
        controller.boot()
        covers: list[tuple[int, Phase, int]] = []
        for _ in range(1500):
            st = controller.match.state
            if st.phase is Phase.PLAY and st.hand_number > 1:
                break
            seat = controller.cover_for()
            if seat is not None:
                covers.append((st.hand_number, st.phase, seat))
                if st.phase is Phase.PLAY:
                    assert seat == st.actors()[0]  # the device goes to whoever is to play
                table = host.last.table
                for s in range(players):  # the cover is up: no hand of anyone in the page
                    for card in st.hands[s]:
                        assert f'data-card="{card.code}"' not in table and card_name(card) not in table
                controller.click("ready")
                continue
            assert play_human_turn(controller, controller.active_seat())
        first = [(phase, seat) for hand, phase, seat in covers if hand == 1]
        dealer = controller.match.state.dealer
        discards = [seat for phase, seat in first if phase is Phase.DISCARD]
        hand_one_dealer = (dealer - 1) % players if dealer is not None else 0  # the deal has passed on
        assert discards == list(rules.show_order(hand_one_dealer))
        assert any(phase is Phase.PLAY for phase, _ in first)
    finally:
        MODES.pop(key, None)


@pytest.mark.parametrize("query", [{"mode": "hotseat"}, {"players": "4", "seats": "you,player,player,player"}])
def test_every_new_hand_opens_with_a_cover_in_hot_seat(query: dict[str, str]) -> None:
    """Everyone looked at the show: the next deal's first hand is never drawn before its player took
    the device, even when that player was the last to hold it in the play (issue 19)."""
    for seed in range(1, 7):
        host = FakeHost()
        controller = Controller(host, MemoryStorage(), {"delay": "0", "seed": str(seed), **query})
        controller.boot()
        seen: set[int] = set()
        for _ in range(2000):
            st = controller.match.state
            if st.hand_number > 3 or st.is_over:
                break
            if (st.phase is Phase.DISCARD and st.hand_number not in seen and not controller.waiting_to_move_on()
                    and len(st.actors()) == st.rules.players):  # the deal is on the table, nobody laid away yet
                assert controller.cover_for() is not None, (seed, st.hand_number)
                for s in range(st.rules.players):
                    for card in st.hands[s]:
                        assert f'data-card="{card.code}"' not in host.last.table, (seed, st.hand_number, s)
                seen.add(st.hand_number)
            if controller.cover_for() is not None:
                controller.click("ready")
                continue
            assert play_human_turn(controller, controller.active_seat())
        assert seen == {1, 2, 3}, seed


@pytest.mark.parametrize("players", [3, 4])
def test_the_game_over_screen_names_every_side_and_draws_a_race_line_each(players: int) -> None:
    """Issue 19: at three the game-over screen had no race chart and its line "127 to 105 and 103"
    named nobody; a skunk was not named."""
    from web.table.render import final_line

    rules = Rules(players=players, target=61)
    names = NAMES[:players]
    *_, match = _steps(rules, 23)
    st = match.state
    assert st.winner is not None
    sides = side_names(names, rules)
    from web.shell.game_over import game_over_chart  # the race chart: the shell's markup on the table

    chart = game_over_chart(match.view(0), names, None, None)
    html = frame(Scene(view=match.view(0), names=names, me=0, mode="hotseat", shell=ShellScene(chart=chart))).table
    import re
    from html import unescape

    found = re.search(r'<p class="final">(.*?)</p>', html)
    assert found, "no final line"
    final = unescape(found.group(1))
    for side in range(rules.sides):
        if side != st.winner:
            assert (f"{sides[side]} {st.scores[side]}" if rules.sides > 2 else f" to {st.scores[side]}") in final, final
    assert final.startswith(f"{sides[st.winner]} win")  # the winner first (issue 29: "121 to 62 (You)" read backwards)
    assert f" {st.scores[st.winner]} to " in final
    lines = {p.attrs.get("data-seat") for p in select(html, tag="path") if "data-seat" in p.attrs}
    assert lines == {str(side) for side in range(rules.sides)}, lines  # a race line a side
    assert select(html, id="btn-record-open")
    assert final_line((121, 97, 59), ("You", "West", "East"), 0, "skunk", "win") == \
        "You win 121 to West 97 and East 59: a skunk"
    assert final_line((61, 20), ("You & Cid", "Bob & Dee"), 0, "win", "win") == "You & Cid win 61 to 20"
    assert final_line((62, 121), ("You", "Computer"), 1, "skunk") == "Computer wins 121 to 62: a skunk"

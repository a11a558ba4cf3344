"""The words a newcomer tripped over (issue 29, item 7): the game-over line the right way round, the
possessive of "You", the puzzle's gap that matches its own numbers, the scorekeeper's target reached,
the hot-seat cover in its side's colour, and the page's description of the game it is now."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from table_fakes import select

from cribbage.ai.coach import DiscardChoice
from cribbage.cards import parse_card
from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.scorekeeper import Scorekeeper
from cribbage.state import Phase
from web.kit.charts import race_chart
from web.kit.speech import whose
from web.screens.puzzle.view import verdict
from web.screens.record.view import race_figure
from web.table.render import final_line, render
from web.table.scene import Scene

ROOT = Path(__file__).resolve().parents[2]


def test_the_game_over_line_puts_the_winner_first() -> None:
    assert final_line((62, 121), ("You", "Computer"), 1, "skunk") == "Computer wins 121 to 62: a skunk"
    assert final_line((121, 97), ("You", "Computer"), 0, "win", "win") == "You win 121 to 97"


def test_a_finished_match_draws_the_winner_first() -> None:
    match = Match(8, humans=(0,), names=("You", "Computer"))
    while not match.state.is_over:
        match.apply(match.legal_actions()[0])
    st = match.state
    html = render(Scene(view=match.view(0), names=("You", "Computer"), me=0)).table
    final = re.search(r'<p class="final">(.*?)</p>', html)
    assert final is not None
    winner = "You win" if st.winner == 0 else "Computer wins"
    assert final.group(1).startswith(f"{winner} {st.scores[st.winner]} to {st.scores[1 - st.winner]}")
    assert "(You)" not in final.group(1) and "(Computer)" not in final.group(1)


@pytest.mark.parametrize(("name", "said"), [("You", "Your"), ("you", "Your"), ("Computer", "Computer\u2019s"),
                                            ("Ann & Cid", "Ann & Cid\u2019s"), ("James", "James\u2019s")])
def test_whose_names_every_owner(name: str, said: str) -> None:
    assert whose(name) == said


def test_the_race_chart_says_your_chance_of_winning() -> None:
    match = Match(8, humans=(0,), names=("You", "Computer"))
    while not match.state.is_over:
        match.apply(match.legal_actions()[0])
    from cribbage.record import race

    chances = [(0, 0.5), (1, 0.6)]
    for you in (0, 1):
        names = ("You", "Computer") if you == 0 else ("Computer", "You")
        svg = race_chart(race(match.state.events), names, chances=chances, you=you)
        figure = race_figure(match.state.events, names, chances=chances, you=you)
        assert "You\u2019s" not in svg + figure
        assert "Your chance of winning" in svg and "your chance of winning" in figure


def _choice(codes: str, net: float, win: float) -> DiscardChoice:
    cards = tuple(parse_card(c) for c in codes.split())
    return DiscardChoice(discard=cards[:2], keep=cards[2:], hand_ev=net, crib_ev=0.0, net=net, win_chance=win)


def test_the_puzzle_says_the_gap_of_the_numbers_it_shows() -> None:
    from datetime import date

    from cribbage.puzzle import Result

    best = _choice("5H 5S JH 4C 6D 7S", 11.94, 0.6)
    mine = _choice("JH 4C 5H 5S 6D 7S", 6.36, 0.5)
    result = Result(date(2026, 12, 4), mine.discard, 4, best.net - mine.net, 0.1, True)
    said = verdict(result, [best, mine])
    assert f"{best.net:.1f}" == "11.9" and f"{mine.net:.1f}" == "6.4"
    assert "5.5 points behind the best" in said, said


def test_the_scorekeeper_says_the_target_reached() -> None:
    k = Scorekeeper(Rules(target=61), names=["Ann", "Bob"])
    k.hand(1, 24)
    k.hand(0, 28)
    k.next_deal()
    k.hand(1, 28)
    k.hand(0, 28)
    k.next_deal()
    k.hand(0, 20)
    assert k.totals == (76, 52) and k.winner == 0
    assert k.result_sentence() == "Ann reaches 61 and wins, 76 to 52."
    exact = Scorekeeper(names=["Ann", "Bob"])
    for _ in range(6):
        exact.hand(0, 20)
        exact.next_deal()
    exact.peg(0, 1)
    assert exact.result_sentence() == "Ann wins, 121 to 0: a double skunk (3 games)."


def test_the_hot_seat_cover_wears_its_side_colour() -> None:
    rules = Rules(players=4)
    names = ("Ann", "Bob", "Cid", "Dee")
    match = Match(3, humans=range(4), names=names, rules=rules)
    for seat in range(4):
        scene = Scene(view=match.view(seat), names=names, me=None, mode="table", cover_for=seat, private=False)
        cover = select(render(scene).overlay, id="cover")
        assert cover and f"side-{rules.side_of(seat)}" in cover[0].attrs["class"].split()
    css = (ROOT / "static/style.css").read_text()
    assert ".side-1 .peg-dot" in css  # the plate's and the cover's dot follow the side


def test_the_page_describes_the_game_it_is() -> None:
    for path in ("index.html", "pyproject.toml", "py/cribbage/__init__.py", "static/manifest.webmanifest"):
        text = (ROOT / path).read_text()
        assert "Two-player six-card" not in text, path
        assert re.search(r"two, three or four players", text), path


def test_three_players_cut_for_deal_name_every_slot() -> None:
    names = ("You", "West", "East")
    match = Match(5, humans=(0,), names=names, rules=Rules(players=3))
    assert match.state.phase is Phase.CUT_FOR_DEAL
    html = render(Scene(view=match.view(0), names=names, me=0)).table
    shows = select(html, cls="cut-show")
    assert len(shows) == 3
    labels = re.findall(r'<div class="cut-show[^"]*">.*?<div class="zone-label">(.*?)</div>', html)
    assert sorted(labels) == sorted(names)

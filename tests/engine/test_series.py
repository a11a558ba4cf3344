"""A series of games (issue 18): game values from the rules' lines, first to N, who deals next."""

from __future__ import annotations

import pytest

from cribbage.rules import CLASSIC, Rules, RulesError
from cribbage.series import Series, SeriesRules, game_value


@pytest.mark.parametrize("scores, value, kind", [
    ((121, 91), 1, "win"), ((90, 121), 2, "skunk"), ((121, 61), 2, "skunk"), ((121, 60), 3, "double skunk"),
    ((121, 0), 3, "double skunk"),
])
def test_a_game_to_121_is_worth_one_two_or_three(scores: tuple[int, int], value: int, kind: str) -> None:
    winner, points, got = game_value(CLASSIC, SeriesRules(), scores)
    assert (winner, points, got) == (scores.index(max(scores)), value, kind)


def test_double_skunk_may_count_four_and_skunks_may_be_off() -> None:
    assert game_value(CLASSIC, SeriesRules(double_skunk=4), (121, 10))[1:] == (4, "double skunk")
    assert game_value(CLASSIC, SeriesRules(skunks=False), (121, 10))[1:] == (1, "win")


def test_the_lurch_replaces_the_skunk_lines() -> None:
    lurch = SeriesRules(lurch=True)
    assert game_value(CLASSIC, lurch, (121, 60))[1:] == (2, "lurch")
    assert game_value(CLASSIC, lurch, (121, 61))[1:] == (1, "win")
    assert game_value(CLASSIC, lurch, (121, 80))[1:] == (1, "win")  # a skunk under the skunk lines


def test_a_game_to_61_has_one_skunk_line_at_31() -> None:
    short = Rules(target=61)
    assert game_value(short, SeriesRules(), (61, 31))[1:] == (1, "win")
    assert game_value(short, SeriesRules(), (30, 61))[1:] == (2, "skunk")
    assert game_value(short, SeriesRules(), (61, 0))[1:] == (2, "skunk")


def test_three_players_judge_the_win_by_the_best_loser() -> None:
    three = Rules(players=3)
    assert game_value(three, SeriesRules(), (121, 50, 95))[1:] == (1, "win")
    assert game_value(three, SeriesRules(), (121, 50, 80))[1:] == (2, "skunk")


@pytest.mark.parametrize("scores", [(121, 121), (100, 90), (121,), (121, -1, 0), (121, 90.0)])
def test_scores_that_are_not_a_finished_game_are_refused(scores: tuple[int, ...]) -> None:
    with pytest.raises(RulesError):
        game_value(CLASSIC, SeriesRules(), scores)


def test_best_of_three_with_skunks_counted() -> None:
    s = Series(CLASSIC, SeriesRules.best_of(3))
    assert s.series.first_to == 2 and s.winner is None and s.next_first_dealer() is None
    s = s.add((121, 100), first_dealer=0)
    assert s.points == (1, 0) and s.winner is None
    assert s.next_first_dealer() == 1  # the loser deals
    s = s.add((80, 121), first_dealer=1)  # a skunk: 2 game points
    assert s.points == (1, 2) and s.winner == 1
    with pytest.raises(RulesError):
        s.add((121, 0), first_dealer=0)
    assert Series.from_json(s.to_json()) == s


def test_alternate_dealing_cuts_again_for_the_third_game() -> None:
    s = Series(CLASSIC, SeriesRules(first_to=5, next_dealer="alternate"))
    s = s.add((121, 100), first_dealer=1)
    assert s.next_first_dealer() == 0  # the first game's non-dealer deals the second
    s = s.add((121, 100), first_dealer=0)
    assert s.next_first_dealer() is None  # cut again for the third
    three = Series(Rules(players=3), SeriesRules(first_to=3)).add((121, 70, 90), first_dealer=2)
    assert three.next_first_dealer() == 1  # the lowest score deals
    tie = Series(Rules(players=3), SeriesRules(first_to=3)).add((121, 90, 90), first_dealer=2)
    assert tie.next_first_dealer() is None


def test_malformed_series_data_is_refused() -> None:
    for bad in [None, [], {"games": {}}, {"games": [{"scores": "121-90"}]}, {"series": {"first_to": 0}},
                {"games": [{"scores": [121, 90], "first_dealer": 7}]}, {"series": {"double_skunk": 5}}]:
        with pytest.raises(RulesError):
            Series.from_json(bad)
    with pytest.raises(RulesError):
        SeriesRules.best_of(2)

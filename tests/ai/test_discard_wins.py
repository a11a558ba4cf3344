"""The chance of winning of each discard at any score (``cribbage.ai.discard_wins``): the coach's
points unchanged, chances between 0 and 1, the crib's distribution centred on the coach's value,
the steps version the same as the plain one, and near the end an order that points alone do not give."""

from __future__ import annotations

import pytest

from cribbage.ai.coach import analyze_discards
from cribbage.ai.discard_wins import (crib_with_mean, keep_distribution, rank_by_winning, rank_by_winning_steps,
                                      ranking_key, win_chance_of)
from cribbage.ai.discards import starters_for
from cribbage.ai.steps import finish
from cribbage.cards import CardError, parse_cards

HAND = parse_cards("5H 5C 6D JS QS 9C".split())


def mean(d):
    return sum(i * p for i, p in enumerate(d))


@pytest.mark.parametrize("target", [2.0, 3.7, 4.8, 6.25, 9.3])
def test_the_crib_distribution_has_the_coachs_mean(target):
    d = crib_with_mean(target)
    assert sum(d) == pytest.approx(1.0) and min(d) >= 0
    assert mean(d) == pytest.approx(target, abs=1e-6)


def test_the_keep_distribution_is_the_exact_show_over_the_unseen_starters():
    keep = parse_cards("5H 5C JS QS".split())
    d = keep_distribution(keep, starters_for(HAND))
    choice = next(c for c in analyze_discards(HAND, True) if set(c.keep) == set(keep))
    assert mean(d) == pytest.approx(choice.hand_ev) and sum(d) == pytest.approx(1.0)


def test_points_are_the_coachs_and_chances_are_probabilities():
    for scores in [(0, 0), (60, 75), (97, 110), (118, 119), (120, 0)]:
        for dealer in (True, False):
            ranked = rank_by_winning(HAND, dealer, scores)
            coach = {c.discard: c for c in analyze_discards(HAND, dealer)}
            assert len(ranked) == 15
            for c in ranked:
                assert 0.0 <= (c.win_chance or 0.0) <= 1.0
                assert c.net == coach[c.discard].net and c.hand_ev == coach[c.discard].hand_ev
            keys = [ranking_key(c) for c in ranked]
            assert keys == sorted(keys, reverse=True)


def test_far_from_the_end_the_best_is_the_coachs_best_by_points():
    for cards in ("5H 5C 6D JS QS 9C", "AH 2C 3D 4S 7S 8C", "2H 7D 8S 9C KH KD"):
        hand = parse_cards(cards.split())
        for dealer in (True, False):
            assert rank_by_winning(hand, dealer, (10, 12))[0].discard == analyze_discards(hand, dealer)[0].discard


def test_near_the_end_the_order_is_not_the_points_order():
    ranked = rank_by_winning(HAND, False, (97, 110))
    nets = [c.net for c in ranked]
    assert nets != sorted(nets, reverse=True)  # a surer hand beats a bigger average


def test_a_good_hand_wins_more_often_and_a_lead_is_worth_more():
    starters = starters_for(HAND)
    good = keep_distribution(parse_cards("5H 5C JS QS".split()), starters)
    poor = keep_distribution(parse_cards("6D JS QS 9C".split()), starters)
    for dealer in (True, False):
        assert win_chance_of(good, 5.0, dealer, (80, 80)) > win_chance_of(poor, 5.0, dealer, (80, 80))
        assert win_chance_of(good, 5.0, dealer, (90, 80)) > win_chance_of(good, 5.0, dealer, (80, 90))
    # the dealer's crib counts for the dealer, against the pone
    assert win_chance_of(good, 7.0, True, (80, 80)) > win_chance_of(good, 3.0, True, (80, 80))
    assert win_chance_of(good, 7.0, False, (80, 80)) < win_chance_of(good, 3.0, False, (80, 80))


def test_in_steps_it_is_the_same_ranking():
    steps = rank_by_winning_steps(HAND, True, (97, 110))
    pauses = 0
    while True:
        try:
            next(steps)
            pauses += 1
        except StopIteration as stop:
            stepped = stop.value
            break
    assert pauses == 16 and stepped == rank_by_winning(HAND, True, (97, 110))
    assert finish(rank_by_winning_steps(HAND, False, (5, 9), 61)) == rank_by_winning(HAND, False, (5, 9), 61)


@pytest.mark.parametrize("scores, target", [((121, 0), 121), ((0, -1), 121), ((61, 3), 61), ((3, 4), 100)])
def test_a_finished_or_impossible_score_is_refused(scores, target):
    with pytest.raises(ValueError):
        rank_by_winning(HAND, True, scores, target)


def test_six_different_cards_are_needed():
    with pytest.raises(CardError):
        rank_by_winning(HAND[:5], True, (0, 0))
    with pytest.raises(CardError):
        rank_by_winning([*HAND[:5], HAND[0]], True, (0, 0))


def test_chances_closer_than_the_figure_shows_are_ties_that_points_break():
    for scores in [(0, 0), (30, 41), (75, 67), (100, 96)]:
        for dealer in (True, False):
            ranked = rank_by_winning(HAND, dealer, scores)
            for a, b in zip(ranked, ranked[1:]):
                if round(a.win_chance, 3) == round(b.win_chance, 3):
                    assert a.net >= b.net - 1e-9
                else:
                    assert a.win_chance > b.win_chance

"""Discard arithmetic, checked against brute force with the itemised scorer, and the crib table."""

from __future__ import annotations

import random

import pytest

from cribbage.ai import DiscardChoice, analyze_discards
from cribbage.ai.discards import crib_ev, crib_table
from cribbage.cards import DECK, CardError, parse_cards
from cribbage.scoring import score_hand


def brute_hand_ev(keep, hand):
    starters = [c for c in DECK if c not in hand]
    assert len(starters) == 46
    return sum(score_hand(keep, s).total for s in starters) / 46


@pytest.mark.parametrize("seed", range(4))
def test_hand_ev_is_the_exact_average_over_46_starters(seed):
    hand = random.Random(seed).sample(DECK, 6)
    for choice in analyze_discards(hand, dealer=bool(seed % 2), pegging=False):
        assert choice.hand_ev == pytest.approx(brute_hand_ev(choice.keep, hand), abs=1e-9)


def test_fifteen_discards_best_first_and_net_adds_up():
    hand = parse_cards("5H 5C 6H JS QS 9C")
    for dealer in (True, False):
        choices = analyze_discards(hand, dealer)
        assert len(choices) == 15
        assert len({frozenset(c.discard) for c in choices}) == 15
        assert [c.net for c in choices] == sorted((c.net for c in choices), reverse=True)
        for c in choices:
            assert isinstance(c, DiscardChoice)
            assert set(c.keep) | set(c.discard) == set(hand)
            assert c.crib_ev > 0
            expected = c.hand_ev + c.crib_ev if dealer else c.hand_ev - c.crib_ev
            assert c.net == pytest.approx(expected + c.peg_ev)


def test_the_classic_keep_five_five_and_two_tens():
    # 5-5-J-Q keeps two fifteens and a pair whatever the starter; 6 9 go away.
    best = analyze_discards(parse_cards("5H 5C 6H JS QS 9C"), dealer=True)[0]
    assert set(best.keep) == set(parse_cards("5H 5C JS QS"))


def test_pone_does_not_give_the_dealer_a_pair_of_fives():
    choices = analyze_discards(parse_cards("5H 5C 9D 9S KC 2H"), dealer=False)
    assert not set(parse_cards("5H 5C")) <= set(choices[0].discard)


def test_analyze_discards_wants_six_different_cards():
    with pytest.raises(CardError):
        analyze_discards(parse_cards("5H 5C 6H JS QS"), dealer=True)


def test_to_json_uses_card_codes():
    data = analyze_discards(parse_cards("5H 5C 6H JS QS 9C"), dealer=True)[0].to_json()
    assert data["discard"] == ["6H", "9C"] and data["keep"] == ["5H", "5C", "JS", "QS"]
    assert {"hand_ev", "crib_ev", "net", "peg_ev"} <= set(data)


def test_crib_table_is_symmetric_and_sane():
    table = crib_table()
    for role in ("dealer", "pone", "random"):
        off = table[role]["offsuit"]
        for i in range(13):
            for j in range(13):
                assert off[i][j] == off[j][i]
                assert 2.0 < off[i][j] < 10.5
    five, jack, king = parse_cards("5H 5C JS")[0], parse_cards("JS")[0], parse_cards("KS KD")
    # Five-five is the best thing you can give any crib; kings far from fives are poor.
    assert crib_ev(*parse_cards("5H 5C"), dealer=True) == max(max(r) for r in table["dealer"]["offsuit"])
    assert crib_ev(*king, dealer=True) < crib_ev(five, jack, dealer=True)


def test_crib_table_by_brute_force_for_one_pair():
    # The random model entry for 5-5 is the exact average of 58,800 cribs; check a sample of it.
    a, b = parse_cards("5S 5H")
    rng = random.Random(7)
    rest = [c for c in DECK if c not in (a, b)]
    total, n = 0, 0
    for _ in range(4000):
        o1, o2, s = rng.sample(rest, 3)
        total += score_hand((a, b, o1, o2), s, crib=True).total
        n += 1
    assert total / n == pytest.approx(crib_table()["random"]["offsuit"][4][4], abs=0.25)


def test_far_from_the_end_discards_are_ranked_by_points():
    choices = analyze_discards(parse_cards("5H 5C 6H JS QS 9C"), dealer=False, scores=(40, 50))
    assert all(c.win_chance is None for c in choices)


def test_near_the_end_discards_are_ranked_by_the_chance_of_winning():
    # Pone needs 6 and counts first: 5-5-J-Q holds at least 6 whatever the starter.
    choices = analyze_discards(parse_cards("5H 5C 6H JS QS 9C"), dealer=False, scores=(115, 100))
    assert all(c.win_chance is not None for c in choices)
    assert [c.win_chance for c in choices] == sorted((c.win_chance for c in choices), reverse=True)
    assert set(choices[0].keep) == set(parse_cards("5H 5C JS QS"))
    assert choices[0].win_chance > 0.9
    assert "to win the game" in choices[0].describe()

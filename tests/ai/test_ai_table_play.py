"""The play at a table of three or four: the search over open hands, the draws of the hidden hands,
and that two players give exactly the two-player solver's values."""

from __future__ import annotations

import random

import pytest

from cribbage.ai.pegging import solve
from cribbage.ai.table_play import TablePlay, TableSearch, deal_hidden, evaluate_table_plays, unpack
from cribbage.cards import DECK, parse_cards

THREE = (0, 1, 2)
PARTNERS = (0, 1, 0, 1)


def best_rank(hands, sides, seat, tail=(), depth=99):
    """The rank ``seat`` lays with every hand open (ties: the lower rank)."""
    search = TableSearch(sides)
    count = sum(min(r, 10) for r in tail)
    side = sides[seat]
    options = sorted({r for r in hands[seat] if min(r, 10) <= 31 - count})
    values = {r: search.utility(search.after(hands, tuple(tail), count, seat, r, depth), side) for r in options}
    return max(options, key=lambda r: (values[r], -r)), values


@pytest.mark.parametrize("seed", range(3))
def test_two_seats_give_exactly_the_two_player_solver(seed):
    rng = random.Random(seed)
    for _ in range(40):
        cards = rng.sample(DECK, 8)
        mine, theirs = cards[:4], cards[4:]
        # The opponent's cards are the only unseen ones: every draw is his real hand.
        tp = TablePlay(0, (0, 1), tuple(mine), tuple(theirs), (4, 4))
        got = max(v for _, v in evaluate_table_plays(tp, samples=2).values())
        assert got == solve([int(c.rank) for c in mine], [int(c.rank) for c in theirs])


def test_a_partnership_does_not_lead_a_five_into_the_next_opponents_ten():
    # Seat 0 leads holding 5 and 9; the next opponent holds a king.
    hands = ((5, 9), (13,), (2,), (3,))
    assert best_rank(hands, PARTNERS, 0)[0] == 9
    assert best_rank(((5, 9), (13,), (2,)), THREE, 0)[0] == 9


def test_a_partner_is_set_up_and_an_opponent_is_not():
    # Seat 1 is out of cards, so the next to play after seat 0 is seat 2, who holds a ten-card.
    # In a partnership seat 2 is my partner: lead the 5 for his fifteen. At a table of three seat 2
    # is an opponent: lead the 6 instead.
    assert best_rank(((5, 6), (), (10,), (9,)), PARTNERS, 0)[0] == 5
    assert best_rank(((5, 6), (), (10,)), THREE, 0)[0] == 6


def test_go_passes_to_the_left_and_the_last_card_scores_the_go():
    # Count 25: seat 0 lays a 4 (29); seats 1 and 2 cannot play, seat 0 cannot either: a go to seat 0.
    # The next count is led by seat 1 (left of the last card), who lays its king; seat 2 its queen;
    # seat 0 has nothing left: the queen is the last card.
    search = TableSearch(THREE)
    v = search.after(((4,), (13,), (12,)), (10, 10, 5), 25, 0, 4, 99)
    assert unpack(v, 3) == (1, 0, 1)


def test_thirty_one_scores_two_and_a_new_count_starts_left_of_it():
    search = TableSearch(PARTNERS)
    # Count 21: seat 3 lays a ten for 31 (2 to side 1); seat 0 leads the next count with its ace, the
    # last card (1 to side 0).
    v = search.after(((1,), (), (), (10,)), (10, 10, 1), 21, 3, 10, 99)
    assert unpack(v, 2) == (1, 2)


def test_hidden_hands_respect_counts_gos_and_what_is_seen():
    rng = random.Random(5)
    hand = tuple(parse_cards("5H 6H"))
    unseen = tuple(c for c in DECK if c not in hand and c.code not in ("KS", "QS"))
    # Seat 2 said Go at 24: every card it holds is worth 8 or more.
    tp = TablePlay(0, THREE, hand, unseen, (2, 3, 2), min_values=(1, 1, 8))
    for _ in range(200):
        hands = deal_hidden(tp, rng)
        assert hands[0] == (5, 6)
        assert [len(h) for h in hands] == [2, 3, 2]
        assert all(min(r, 10) >= 8 for r in hands[2])
    # Never more copies of a rank than are unseen.
    for _ in range(200):
        hands = deal_hidden(tp, rng)
        ranks = [r for h in hands[1:] for r in h]
        assert ranks.count(13) <= 3 and ranks.count(12) <= 3


def test_the_evaluation_is_reproducible_and_within_its_options():
    hand = tuple(parse_cards("5H 6H 9C KD"))
    unseen = tuple(c for c in DECK if c not in hand)
    tp = TablePlay(1, PARTNERS, hand, unseen, (4, 4, 4, 4), tail=(12, 7), last=0)
    a = evaluate_table_plays(tp, rng=random.Random(3))
    b = evaluate_table_plays(tp, rng=random.Random(3))
    assert a == b
    assert set(a) == {5, 6, 9, 13}  # every card fits at 17; J-Q-K, 10 all count 10
    # A 13 (king) after 17 makes 27; a nine makes 26; the 6 makes 23: none scores at once.
    assert a[6][0] == 0 and a[5][0] == 0
    tp3 = TablePlay(0, THREE, hand, unseen, (4, 4, 4), tail=(), last=-1)
    assert set(evaluate_table_plays(tp3, rng=random.Random(1))) == {5, 6, 9, 13}


def test_a_fifteen_now_is_seen_as_points():
    hand = tuple(parse_cards("5H 2C"))
    unseen = tuple(c for c in DECK if c not in hand)
    tp = TablePlay(0, THREE, hand, unseen, (2, 2, 2), tail=(10,), last=2)
    got = evaluate_table_plays(tp, rng=random.Random(0))
    assert got[5][0] == 2
    assert got[5][1] > got[2][1]


def test_the_coach_ranks_every_card_that_fits_with_its_note():
    from cribbage.ai.coach import analyze_table_plays

    hand = tuple(parse_cards("5H 2C KD"))
    tail = parse_cards("TS 9H")
    unseen = tuple(c for c in DECK if c not in hand and c not in tail)
    tp = TablePlay(2, PARTNERS, hand, unseen, (3, 3, 3, 2), tail=(10, 9), last=1)
    plays = analyze_table_plays(tp, tail)
    assert {p.card for p in plays} == set(hand)  # 19: every card fits
    assert [p.ev for p in plays] == sorted((p.ev for p in plays), reverse=True)
    assert analyze_table_plays(tp, tail) == plays  # the same hint every time it is asked
    with pytest.raises(ValueError):
        analyze_table_plays(tp, parse_cards("TS"))


@pytest.mark.parametrize("players", [3, 4])
def test_the_view_of_a_real_play_gives_counts_unseen_cards_and_go_limits_that_hold(players):
    from cribbage.ai import make_player
    from cribbage.ai.table_play import table_play_from_view
    from cribbage.rules import Rules
    from cribbage.state import GameState, Phase
    from cribbage.view import view

    rules = Rules(players=players)
    checked = limited = 0
    for seed in range(6):
        state = GameState(seed, rules=rules)
        bots = [make_player("greedy", s) for s in range(players)]
        while not state.is_over and state.hand_number < 4:
            seat = state.actors()[0]
            v = view(state, seat)
            if state.phase is Phase.PLAY and state.hands[seat]:
                tp = table_play_from_view(v)
                assert tp.counts == tuple(len(h) for h in state.hands)
                assert tp.sides == tuple(rules.side_of(s) for s in range(players))
                for other in range(players):
                    if other != seat:
                        # Every card another seat really holds is unseen and fits its Go limit.
                        assert set(state.hands[other]) <= set(tp.unseen)
                        assert all(c.value >= tp.min_values[other] for c in state.hands[other])
                        limited += tp.min_values[other] > 1
                assert not set(tp.unseen) & set(state.hands[seat])
                checked += 1
            state.apply(bots[seat].choose(v))
    assert checked > 50 and limited > 0

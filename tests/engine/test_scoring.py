"""Hand, crib and pegging scoring against RULES.md, an independent scorer, and published numbers."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cribbage.cards import DECK, CardError, parse_cards
from cribbage.distribution import ALL_HANDS, hand_score_distribution
from cribbage.scoring import PeggingError, ScoreKind, hand_points, score_hand, score_play


def total(text: str, crib: bool = False) -> int:
    *hand, starter = parse_cards(text)
    return score_hand(hand, starter, crib=crib).total


def kinds(text: str, crib: bool = False) -> Counter:
    *hand, starter = parse_cards(text)
    return Counter(i.kind for i in score_hand(hand, starter, crib=crib).items)


# --- the show: tables --------------------------------------------------------------------------

@pytest.mark.parametrize("text,crib,expected", [
    ("4D 5C 5H JS 6S", False, 17),  # RULES.md worked example
    ("5H 5D 5S JC 5C", False, 29),  # the 29 hand: fifth 5 cut, jack of its suit
    ("5H 5D 5S JC 5D", False, None),  # a card given twice is refused (below)
    ("AS AH 2D 2C 3S", False, 16),  # A-A-2-2-3: four runs of 3 (12) and two pairs (4)
    ("6S 7H 7D 8C KS", False, 12),  # double run 6-7-7-8 (8) + 7-8 fifteen twice (4)
    ("6S 7H 8D 8C 9S", False, 16),  # double run of 4 (8), pair (2), 7+8 twice and 6+9 (6)
    ("3S 3H 3D 4C 5S", False, 21),  # triple run (9), pair royal (6), 3+3+4+5 three ways (6)
    ("3S 3H 4D 4C 5S", False, 20),  # double-double run (12), two pairs (4), 3+3+4+5 two ways (4)
    ("TS JH QD KC 5S", False, 12),  # run of 4 (4) + 5 with each ten-card (8)
    ("TS JS QD KC 5S", False, 13),  # ... and nobs
    ("2H 4H 6H 8H TH", False, 5),   # five-card flush (all values even: no fifteen)
    ("2H 4H 6H 8H TS", False, 4),   # four-card hand flush
    ("2H 4H 6H 8H TS", True, 0),    # a four-card crib flush does not count
    ("2H 4H 6H 8H TH", True, 5),    # a five-card crib flush does
    ("2H 4H 6H 8S TH", False, 0),   # three hand cards and the starter: no flush
    ("JH 2C 4D 8S KH", False, 1),   # his nobs: jack of the starter's suit
    ("2C 4D 8S KH JH", False, 0),   # a jack starter is his heels (at the cut), never nobs
    ("2S 4D 6H 8C KS", False, 0),   # a nineteen hand
    ("5S 5H 5D 5C JS", False, 28),  # four 5s with a jack starter: 8 fifteens... (no nobs)
])
def test_hand_table(text, crib, expected):
    *hand, starter = parse_cards(text, allow_duplicates=True)
    if expected is None:
        with pytest.raises(CardError):
            score_hand(hand, starter, crib=crib)
        return
    result = score_hand(hand, starter, crib=crib)
    assert result.total == expected
    assert result.total == independent_score(hand, starter, crib)
    assert result.total == sum(i.points for i in result.items)


def test_worked_example_items_name_their_cards():
    *hand, starter = parse_cards("4D 5C 5H JS 6S")
    result = score_hand(hand, starter)
    lines = [i.describe() for i in result.items]
    assert "fifteen 5♣ J♠ for 2" in lines
    assert "fifteen 4♦ 5♥ 6♠ for 2" in lines
    assert "pair 5♣ 5♥ for 2" in lines
    assert sum(1 for i in result.items if i.kind is ScoreKind.RUN) == 2
    assert "nobs J♠ for 1" in lines
    assert Counter(i.kind for i in result.items) == {ScoreKind.FIFTEEN: 4, ScoreKind.PAIR: 1,
                                                     ScoreKind.RUN: 2, ScoreKind.NOBS: 1}


def test_double_double_run_is_four_runs_and_two_pairs():
    result_kinds = kinds("3S 3H 4D 4C 5S")
    assert result_kinds[ScoreKind.RUN] == 4 and result_kinds[ScoreKind.PAIR] == 2


def test_run_of_four_is_not_also_runs_of_three():
    assert kinds("2S 3H 4D 5C KS")[ScoreKind.RUN] == 1
    assert total("2S 3H 4D 5C KS") == 4 + 2 * 2  # run of 4, 5+K, 2+3+K... = 2+3+10 = 15 -> two fifteens


def test_ace_is_never_high_and_queen_king_are_not_a_pair():
    assert kinds("QS KH AD 7C 9S")[ScoreKind.RUN] == 0
    assert kinds("QS KH 2D 7C 9S")[ScoreKind.PAIR] == 0


def test_three_hand_cards_and_starter_are_never_a_flush():
    assert kinds("2H 4H 6H 8S TH")[ScoreKind.FLUSH] == 0


def test_impossible_scores_never_occur_in_a_sample():
    rng = random.Random(7)
    for _ in range(3000):
        five = rng.sample(DECK, 5)
        assert score_hand(five[:4], five[4]).total not in (19, 25, 26, 27)


def test_score_hand_refuses_wrong_sizes_and_duplicates():
    with pytest.raises(CardError):
        score_hand(parse_cards("5H 5D 5S"), parse_cards("JC")[0])
    with pytest.raises(CardError):
        score_hand(parse_cards("5H 5D 5S JC"), parse_cards("5H")[0])


# --- an independent scorer ----------------------------------------------------------------------

def independent_score(hand, starter, crib=False) -> int:
    """Scored another way: subsets by bitmask, runs by rank multiplicities."""
    cards = list(hand) + [starter]
    vals = [min(int(c.rank), 10) for c in cards]
    points = 0
    for mask in range(1, 32):
        if sum(vals[i] for i in range(5) if mask >> i & 1) == 15:
            points += 2
    counts = Counter(int(c.rank) for c in cards)
    points += sum(n * (n - 1) for n in counts.values())
    # Runs: maximal stretches of consecutive present ranks of length >= 3; product of multiplicities.
    r = 1
    while r <= 13:
        if counts[r]:
            start = r
            while counts[r + 1]:
                r += 1
            length = r - start + 1
            if length >= 3:
                mult = 1
                for k in range(start, r + 1):
                    mult *= counts[k]
                points += length * mult
        r += 1
    suits = {c.suit for c in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            points += 5
        elif not crib:
            points += 4
    points += sum(1 for c in hand if c.rank == 11 and c.suit == starter.suit)
    return points


def test_agrees_with_an_independent_scorer_on_random_hands_and_cribs():
    rng = random.Random(2026)
    for i in range(20000):
        five = rng.sample(DECK, 5)
        crib = i % 2 == 1
        expected = independent_score(five[:4], five[4], crib)
        assert score_hand(five[:4], five[4], crib).total == expected, five
        assert hand_points(five[:4], five[4], crib) == expected, five


def test_fast_total_equals_itemised_total_on_flushes_and_nobs():
    for text in ["2H 4H 6H 8H TH", "2H 4H 6H 8H TS", "JH 2H 3H 9H KH", "JH 2H 3H 9H KS"]:
        *hand, starter = parse_cards(text)
        for crib in (False, True):
            assert hand_points(hand, starter, crib) == score_hand(hand, starter, crib).total


@pytest.mark.slow
def test_distribution_of_all_12994800_hands_matches_the_published_table():
    counts = hand_score_distribution()
    assert sum(counts.values()) == ALL_HANDS
    published = {
        0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268, 7: 751324,
        8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656, 14: 90100, 15: 9168,
        16: 58248, 17: 11196, 18: 2708, 20: 8068, 21: 2496, 22: 444, 23: 356, 24: 3680, 28: 76, 29: 4,
    }
    assert counts == published
    mean = sum(s * n for s, n in counts.items()) / ALL_HANDS
    assert round(mean, 4) == 4.7692
    assert not any(counts.get(s) for s in (19, 25, 26, 27))


# --- the play -----------------------------------------------------------------------------------

def peg(text: str) -> int:
    return sum(i.points for i in score_play(parse_cards(text)))


@pytest.mark.parametrize("text,points", [
    ("4S 6H 5D", 5),          # fifteen 2 + run of 3
    ("7S 8H", 2),             # fifteen
    ("5S 5H", 2),             # pair
    ("5S 5H 5D", 8),          # pair royal 6, and the count is 15: +2
    ("9S 9H 9D", 6),
    ("2S 2H 2D 2C", 12),      # double pair royal
    ("6S 7H 7D 8C", 0),       # 8 is blocked from a run by the pair of 7s
    ("4S 6H 5D 3C", 4),       # the run grows: 3-4-5-6
    ("4S 6H 5D 3C 7D", 5),    # and again: 3..7
    ("KS QH JD", 3),          # run of 3 (count 30)
    ("KS QH JD AH", 2),       # 31 for 2, no run (A-J-Q-K is not a run)
    ("TS TH AD 5C 5D", 4),    # 31 and a pair
    ("AS 2H 3D", 3),
    ("3S AH 2D", 3),
    ("3S 2H 2D 4C", 0),
    ("QS KH", 0),             # not a pair
])
def test_pegging_table(text, points):
    assert peg(text) == points
    assert peg(text) == independent_peg(parse_cards(text))


def test_pegging_refuses_a_count_past_31():
    with pytest.raises(PeggingError, match="past 31"):
        score_play(parse_cards("KS QH JD 2C"))


def independent_peg(cards) -> int:
    count = sum(min(int(c.rank), 10) for c in cards)
    pts = 2 if count in (15, 31) else 0
    ranks = [int(c.rank) for c in cards]
    n = 1
    while n < len(ranks) and ranks[-1 - n] == ranks[-1]:
        n += 1
    pts += {1: 0, 2: 2, 3: 6, 4: 12}[n]
    best = 0
    for k in range(3, len(ranks) + 1):
        tail = sorted(ranks[-k:])
        if tail == list(range(tail[0], tail[0] + k)):
            best = k
    return pts + best


def test_pegging_agrees_with_an_independent_scorer_on_random_sequences():
    rng = random.Random(99)
    for _ in range(20000):
        pack = rng.sample(DECK, 8)
        seq = []
        for c in pack:
            if sum(min(int(x.rank), 10) for x in seq) + c.value > 31:
                break
            seq.append(c)
            assert peg(" ".join(map(str, seq))) == independent_peg(seq), seq

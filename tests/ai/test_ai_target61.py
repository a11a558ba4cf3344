"""A game to 61 uses the endgame on distances: at 40–50 it is a game to 121 at 100–110."""

from __future__ import annotations

import random

from ai_positions import at_play

from cribbage.ai import analyze_discards
from cribbage.ai.pegging import play_state_from_view
from cribbage.ai.strategy import endgame_discard_values, endgame_play_values, win_chance
from cribbage.cards import parse_cards
from cribbage.view import view


def test_discards_near_61_are_those_near_121_shifted_by_60():
    hand = parse_cards("5H 5C 6D JS QS 9C")
    for dealer in (True, False):
        short = analyze_discards(hand, dealer, scores=(40, 50), target=61)
        long = analyze_discards(hand, dealer, scores=(100, 110))
        assert short[0].win_chance is not None
        assert [(c.discard, c.win_chance) for c in short] == [(c.discard, c.win_chance) for c in long]
    # Far from 61 only by the 121 reading: 40 and 50 are not near 121, so points decide there.
    assert analyze_discards(hand, True, scores=(40, 50))[0].win_chance is None


def test_the_endgame_discard_values_read_only_distances():
    dists = [{4: 0.5, 8: 0.5}, {6: 1.0}] * 7 + [{2: 1.0}]
    cribs = [4.0] * 15
    assert (endgame_discard_values(dists, cribs, True, (45, 52), target=61)
            == endgame_discard_values(dists, cribs, True, (105, 112)))
    # One card laid away (five keeps): the win table is for six-card deals.
    assert endgame_discard_values(dists[:5], cribs[:5], True, (105, 112)) is None


def test_plays_near_61_are_those_near_121_shifted_by_60():
    near = at_play("4S 5H 6C 7D 9S TS", "5D 5S JC QH KD 2C", "3H", scores=(100, 110), plays="4S")
    v_long = view(near, near.actors()[0])
    short = at_play("4S 5H 6C 7D 9S TS", "5D 5S JC QH KD 2C", "3H", scores=(40, 50), plays="4S")
    v_short = view(short, short.actors()[0])
    long_values = endgame_play_values(v_long, play_state_from_view(v_long), 16, random.Random(7))
    short_values = endgame_play_values(v_short, play_state_from_view(v_short), 16, random.Random(7), target=61)
    assert long_values is not None and long_values == short_values
    # Read as a game to 121, 40–50 is not the end of the game.
    assert endgame_play_values(v_short, play_state_from_view(v_short), 16, random.Random(7)) is None


def test_the_win_table_is_a_function_of_the_needs():
    # Needs of a 61 game at 40-50 and a 121 game at 100-110 are the same entry.
    assert win_chance(61 - 40, 61 - 50) == win_chance(121 - 100, 121 - 110)

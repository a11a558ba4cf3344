"""The weaker levels (cribbage.ai.levels): mistakes that fall with their cost, never absurd ones,
deterministic given the seed, and the easier level costs more on average than the harder one.

Thousands of positions are checked on the level's rule itself (``choose_discard``, ``choose_play``:
what :class:`LevelPlayer` applies to the expert's evaluation) over evaluations made here: real discard
evaluations of a few dozen random hands (the expert's own analysis, computed once) and play choices
with the points the rules give and values drawn around them. A few whole views go through the player.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from ai_positions import at_discard, at_play
from cribbage.actions import Discard, Play
from cribbage.ai import make_player
from cribbage.ai.coach import DiscardChoice, PlayChoice, analyze_discards
from cribbage.ai.levels import LEVELS, LevelPlayer, choose_discard, choose_play, discard_values
from cribbage.ai.pegging import peg_points
from cribbage.cards import DECK, Card, parse_cards
from cribbage.scoring import fifteens, pairs, runs
from cribbage.view import view

LOWER = ("easy", "medium")


def own_points(keep: tuple[Card, ...]) -> int:
    """Four cards' points on their own (fifteens, pairs, runs), counted here."""
    cards = list(keep)
    return sum(i.points for i in fifteens(cards)) + sum(i.points for i in pairs(cards)) + sum(
        i.points for i in runs(cards))


@lru_cache(maxsize=None)
def discard_positions() -> tuple[tuple[DiscardChoice, ...], ...]:
    """The expert's evaluation of random six-card hands, and of hands holding 5-5-5-J (a 29 hand)."""
    rng = random.Random(34)
    out = []
    for i in range(24):
        out.append(tuple(analyze_discards(rng.sample(DECK, 6), i % 2 == 0)))
    five_five_five_jack = parse_cards("5C 5D 5H JS")
    rest = [c for c in DECK if c not in five_five_five_jack]
    for i in range(16):
        out.append(tuple(analyze_discards(five_five_five_jack + rng.sample(rest, 2), i % 2 == 0)))
    return tuple(out)


def loss(values: list[float], i: int) -> float:
    return max(values) - values[i]


@pytest.mark.parametrize("name", LOWER)
def test_discards_never_lose_more_than_the_cap_nor_break_a_sure_big_hand(name):
    level = LEVELS[name]
    rng = random.Random(7)
    checked = 0
    for choices in discard_positions():
        values = discard_values(choices)
        best = max(range(len(values)), key=lambda i: values[i])
        big = own_points(choices[best].keep)
        for _ in range(60):
            i = choose_discard(choices, level, rng)
            assert loss(values, i) <= level.discard_cap + 1e-9
            if big >= 12:  # the expert keeps a sure big hand: never four that score less on their own
                assert own_points(choices[i].keep) >= big, (choices[best].keep, choices[i].keep)
            checked += 1
    assert checked >= 2000


@pytest.mark.parametrize("name", LOWER)
def test_the_29_hand_is_never_broken_up_for_a_lesser_keep(name):
    """5-5-5-J with two low odd cards: keeping the three fives and the jack is worth far more."""
    for extra, dealer in (("AS 2S", True), ("AS 2S", False), ("9S 3H", True), ("9S 3H", False)):
        hand = parse_cards("5C 5D 5H JS " + extra)
        state = at_discard("".join(f"{c} " for c in hand) if not dealer else "2D 3D 4D 6D 7D 8D",
                           "".join(f"{c} " for c in hand) if dealer else "2D 3D 4D 6D 7D 8D")
        seat = 0 if dealer else 1
        v = view(state, seat)
        assert sorted(v.hand) == sorted(hand)
        for seed in range(12):
            action = make_player(name, seed=seed).choose(v)
            assert isinstance(action, Discard) and action in v.legal_actions
            assert set(action.cards) == set(parse_cards(extra)), (name, extra, dealer, seed, action)


def random_plays(rng: random.Random) -> tuple[list[PlayChoice], int]:
    """A play position's choices: cards that fit the count, their points by the rules, and values
    drawn around those points (so the expert's best sometimes does not score)."""
    while True:
        tail_len = rng.randint(0, 4)
        tail = [rng.choice(DECK) for _ in range(tail_len)]
        count = sum(c.value for c in tail)
        if count <= 30:
            break
    hand = rng.sample([c for c in DECK if c not in tail], rng.randint(1, 4))
    ranks = {}
    for c in hand:
        if count + c.value <= 31:
            ranks.setdefault(c.rank, c)
    if not ranks:
        return [PlayChoice(None, 0, 0.0)], count
    ranks_tail = tuple(int(c.rank) for c in tail)
    plays = []
    for card in ranks.values():
        pts = peg_points(ranks_tail, int(card.rank))
        plays.append(PlayChoice(card, pts, pts + rng.gauss(0, 1.5)))
    plays.sort(key=lambda p: -p.ev)
    return plays, count


@pytest.mark.parametrize("name", LOWER)
def test_plays_never_pass_up_a_31_or_the_points_the_expert_takes(name):
    level = LEVELS[name]
    rng = random.Random(31)
    passed_31 = scoring = 0
    for _ in range(4000):
        plays, count = random_plays(rng)
        i = choose_play(plays, count, level, rng)
        chosen, best = plays[i], plays[0]
        assert max(p.ev for p in plays) - chosen.ev <= level.play_cap + 1e-9
        makes_31 = [p for p in plays if p.card is not None and count + p.card.value == 31]
        if makes_31 and count + best.card.value == 31:
            passed_31 += 1
            assert count + chosen.card.value == 31
        if best.points >= 2:
            scoring += 1
            assert chosen.points >= best.points, (plays, chosen)
    assert passed_31 > 50 and scoring > 300  # the named positions were met often


@pytest.mark.parametrize("name", LOWER)
def test_a_level_lays_the_31_in_a_real_position(name):
    # Pone 6H, dealer KH (16), pone 5C (21): the dealer holds QD (31), 4S, 8C.
    state = at_play("6H 5C TS 9D 2C 3C", "KH QD 4S 8C 7H AH", "2D", plays="6H KH 5C")
    v = view(state, 0)
    assert v.count == 21
    for seed in range(10):
        action = make_player(name, seed=seed).choose(v)
        assert isinstance(action, Play) and action.card == parse_cards("QD")[0]


@pytest.mark.parametrize("name", LOWER)
def test_a_levels_choices_are_deterministic_given_its_seed(name):
    views = [view(at_discard("5H 6D 7C 9S JD KC", "2C 3H 8D TS QH AS"), s) for s in (0, 1)]
    views.append(view(at_play("5H 6D 7C 9S JD KC", "2C 3H 8D TS QH AS", "4D", plays="5H"), 0))
    views.append(view(at_play("5H 6D 7C 9S JD KC", "2C 3H 8D TS QH AS", "4D", plays="5H TS 6D"), 0))
    seen = set()
    for v in views:
        for seed in range(6):
            first = make_player(name, seed=seed).choose(v)
            assert first in v.legal_actions
            assert make_player(name, seed=seed).choose(v) == first
            seen.add((id(v), first))
    # ... and the seed matters somewhere (a level is not the expert in disguise)
    assert len(seen) > len(views)


def test_the_easier_level_costs_more_than_the_harder():
    rng = random.Random(5)
    cost = {name: 0.0 for name in LOWER}
    for choices in discard_positions():
        values = discard_values(choices)
        for name in LOWER:
            for _ in range(40):
                cost[name] += loss(values, choose_discard(choices, LEVELS[name], rng))
    play_cost = {name: 0.0 for name in LOWER}
    positions = [random_plays(rng) for _ in range(1500)]
    for name in LOWER:
        for plays, count in positions:
            i = choose_play(plays, count, LEVELS[name], rng)
            play_cost[name] += max(p.ev for p in plays) - plays[i].ev
    assert cost["easy"] > cost["medium"] > 0
    assert play_cost["easy"] > play_cost["medium"] > 0


def test_make_player_builds_the_levels_from_their_table():
    for name in LOWER:
        player = make_player(name, seed=1)
        assert isinstance(player, LevelPlayer) and player.level == LEVELS[name] and player.name == name
    assert not isinstance(make_player("expert"), LevelPlayer)

"""Random legal matches, checked at every step: cards accounted for, counts, scores, 121, saves,
undo/redo, and that no view holds a card its seat may not know."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribbage.cards import DECK, Card
from cribbage.match import Match
from cribbage.scoring import PLAY_LIMIT
from cribbage.state import WINNING_SCORE, GameState, Phase
from cribbage.view import view


def cards_in(value, found: set[Card]) -> set[Card]:
    """Every Card reachable inside a view (fields, tuples, events, items, actions)."""
    if isinstance(value, Card):
        found.add(value)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for v in value:
            cards_in(v, found)
    elif isinstance(value, dict):
        for v in value.values():
            cards_in(v, found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            cards_in(getattr(value, f.name), found)
    return found


def secret_cards(state: GameState, seat: int) -> set[Card]:
    """Cards ``seat`` may not know: the pack (but the starter once cut), the opponent's unplayed
    hand and discards until the show."""
    opp = 1 - seat
    secret = set(state._undealt())
    if state.starter is not None:
        secret.discard(state.starter)
    if not state.play_over:
        secret |= set(state.hands[opp])
        secret |= set(state.discards[opp] or ())
    return secret


def accounted(state: GameState) -> list[Card]:
    if state.phase is Phase.CUT_FOR_DEAL or state.dealer is None:
        return state._undealt() + [c for c in state.cut_cards if c is not None]
    crib = [c for d in state.discards if d for c in d]
    if state.play_over:
        held = state.kept[0] + state.kept[1]
    else:
        held = state.hands[0] + state.hands[1] + [c for _, c in state.pile]
        held += [c for count in state.played for _, c in count]
    return list(held) + crib + state._undealt()


def check_invariants(state: GameState, previous_scores: list[int]) -> None:
    cards = accounted(state)
    assert len(cards) == 52 and set(cards) == set(DECK)
    assert 0 <= state.count <= PLAY_LIMIT
    assert state.scores[0] >= previous_scores[0] and state.scores[1] >= previous_scores[1]
    if state.phase is Phase.GAME_OVER:
        assert state.scores[state.winner] >= WINNING_SCORE
        assert state.scores[1 - state.winner] < WINNING_SCORE
        assert state.legal_actions() == []
        assert state.events[-1].kind == "win"
    else:
        assert max(state.scores) < WINNING_SCORE
        assert state.legal_actions(), "a live match always has someone to act"
    for seat in (0, 1):
        v = view(state, seat)
        # Cards named by earlier hands' events went back into the pack at the next shuffle: their
        # identity was public, their place is not. Everything else must be knowable now.
        shown = cards_in(dataclasses.replace(v, events=()), set())
        if state.phase is not Phase.CUT_FOR_DEAL:
            shown |= cards_in([e for e in v.events if e.hand == state.hand_number], set())
        leaked = shown & secret_cards(state, seat)
        assert not leaked, f"seat {seat} sees {leaked}"
        text = repr(v) + repr(state)
        for card in secret_cards(state, seat) - set(state.hands[seat]):
            assert f"Card('{card}')" not in text


def run_random_match(seed: int, rng: random.Random, check_every_step: bool = True) -> Match:
    match = Match(seed, humans=(0,))
    scores = [0, 0]
    while not match.state.is_over:
        match.apply(rng.choice(match.legal_actions()))
        if check_every_step:
            check_invariants(match.state, scores)
        scores = list(match.state.scores)
    return match


def record(state: GameState) -> tuple:
    """What a finished match must come back to: phase, scores, events, hands, winner."""
    return (state.phase, list(state.scores), list(state.events), [list(h) for h in state.hands], state.winner)


def check_record(match: Match) -> None:
    final = record(match.state)
    actions = list(match.actions)
    assert record(Match.from_json(match.to_json()).state) == final
    replay = GameState(match.seed)
    for a in actions:
        replay.apply(a)
    assert record(replay) == final
    while match.undo():
        pass
    # Back at the start: only the computer's actions before the human's first decision remain.
    first_human = next(i for i, a in enumerate(actions) if a.seat in match.humans)
    assert match.actions == actions[:first_human]
    start = GameState(match.seed)
    for a in actions[:first_human]:
        start.apply(a)
    assert record(match.state) == record(start)
    while match.redo():
        pass
    # Read the match's state again: undo and redo replace the state object.
    assert match.actions == actions
    assert record(match.state) == final


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), rng=st.randoms(use_true_random=False))
def test_random_legal_matches_keep_every_invariant(seed, rng):
    match = run_random_match(seed, rng)
    check_record(match)


def test_many_random_matches_end_correctly():
    rng = random.Random(1)
    for seed in range(60):
        match = run_random_match(seed, rng, check_every_step=seed < 10)
        assert match.state.winner in (0, 1)


@pytest.mark.slow
def test_thousands_of_random_matches():
    rng = random.Random(2)
    wins = [0, 0]
    for seed in range(2000):
        match = run_random_match(seed, rng, check_every_step=seed < 200)
        wins[match.state.winner] += 1
        if seed % 50 == 0:
            check_record(match)
    assert sum(wins) == 2000 and min(wins) > 800  # random play: neither seat is favoured much

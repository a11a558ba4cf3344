"""The coach: hints in every phase, play analysis, and the review of a hand."""

from __future__ import annotations

import json

from ai_positions import at_discard, at_play
from cribbage.actions import Discard
from cribbage.ai import Hint, analyze_plays, hint, make_player, review_hand
from cribbage.cards import parse_cards
from cribbage.match import Match
from cribbage.state import Phase
from cribbage.view import view


def test_hint_in_every_phase_is_legal_and_has_a_sentence():
    match = Match(seed=7, humans=())
    players = [make_player("expert", 1), make_player("greedy", 2)]
    phases = set()
    while not match.state.is_over and match.state.hand_number < 4:
        seat = match.state.actors()[0]
        v = match.view(seat)
        h = hint(v)
        assert isinstance(h, Hint)
        assert h.action in v.legal_actions
        assert h.text
        json.dumps(h.to_json())
        phases.add(v.phase)
        match.apply(players[seat].choose(v))
    assert {Phase.CUT_FOR_DEAL, Phase.CUT_PACK, Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY, Phase.SHOW} <= phases


def test_discard_hint_names_the_cards_and_the_numbers():
    state = at_discard("7D 8C 2S KH 3C 9S", "5H 5C 6H JS QS 9C")  # seat 0 deals
    h = hint(view(state, 0))
    assert h.action == Discard(0, tuple(parse_cards("6H 9C")))
    assert h.text.startswith("Lay away 6♥ 9♣ to your crib: keep 5♥ 5♣ J♠ Q♠ — hand 12.7 + crib")
    assert len(h.options) == 15


def test_hint_when_it_is_not_your_turn():
    state = at_play("9S KC 3D AC 8H 7H", "2H TD 4S 6C QH QD", "8D")
    h = hint(view(state, 0))
    assert h.action is None and "opponent" in h.text


def test_analyze_plays_lists_every_legal_card_best_first():
    state = at_play("4C 5H KS 9S 7D 7C", "6D QH JH 2S 8H 8C", "AD", plays="4C 6D")
    choices = analyze_plays(view(state, 1))
    assert {c.card for c in choices} == set(parse_cards("5H KS 9S"))
    assert choices == sorted(choices, key=lambda c: -c.ev)
    assert "fifteen for 2" in choices[0].note and "run of 3 for 3" in choices[0].note
    json.dumps([c.to_json() for c in choices])


def test_review_hand_compares_each_decision_with_the_best():
    match = Match(seed=3, humans=(0,))
    players = [make_player("random", 4), make_player("expert", 5)]
    while match.state.hand_number < 2 and not match.state.is_over:
        seat = match.state.actors()[0]
        match.apply(players[seat].choose(match.view(seat)))
    reviews = review_hand(match, 0, 1)
    assert reviews, "the discard at least is reviewed"
    assert reviews[0].kind == "discard"
    assert "you kept" in reviews[0].text
    for r in reviews:
        assert r.best_ev >= r.chosen_ev - 1e-9
        data = r.to_json()
        json.dumps(data)
        assert set(data) >= {"action", "chosen_ev", "best_action", "best_ev", "text"}
    assert {r.kind for r in reviews} <= {"discard", "play"}

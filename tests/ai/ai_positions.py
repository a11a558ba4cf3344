"""Helpers for the AI tests: matches stacked to deal chosen hands, and hand-built seat views."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from cribbage.actions import CutForDeal, CutPack, CutStarter, Discard, Play
from cribbage.cards import DECK, Card, parse_cards
from cribbage.state import GameState
from cribbage.view import SeatView, view


def _cut_for_deal_pack(first_dealer: int) -> list[Card]:
    low, high = parse_cards("AS KS")
    rest = [c for c in DECK if c not in (low, high)]
    first, second = (low, high) if first_dealer == 0 else (high, low)
    return rest[:4] + [first, second] + rest[4:]


def _hand_pack(pone: Sequence[Card], dealer: Sequence[Card], starter: Card) -> list[Card]:
    dealt = [card for pair in zip(pone, dealer) for card in pair]
    rest = [c for c in DECK if c not in dealt and c != starter]
    rest.insert(4, starter)
    after_cut = dealt + rest
    assert sorted(after_cut) == sorted(DECK)
    return after_cut[-4:] + after_cut[:-4]


def at_discard(pone: str, dealer: str, *, first_dealer: int = 0, starter: str = "KD") -> GameState:
    """A match stacked to deal these six-card hands (seat ``first_dealer`` deals), at the discard."""
    state = GameState(0, stacked=[_cut_for_deal_pack(first_dealer),
                                  _hand_pack(parse_cards(pone), parse_cards(dealer), parse_cards(starter)[0])])
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    state.apply(CutPack(1 - first_dealer, 4))
    return state


def at_play(pone: str, dealer: str, starter: str, *, first_dealer: int = 0, plays: str = "",
            scores: tuple[int, int] | None = None) -> GameState:
    """A match at the play: each seat lays away its last two cards, then ``plays`` (codes, in order;
    ``go`` for a Go) are applied."""
    state = at_discard(pone, dealer, first_dealer=first_dealer, starter=starter)
    if scores is not None:
        state.scores = list(scores)
        state.previous_scores = list(scores)
    pone_seat = 1 - first_dealer
    p, d = parse_cards(pone), parse_cards(dealer)
    state.apply(Discard(pone_seat, (p[4], p[5])))
    state.apply(Discard(first_dealer, (d[4], d[5])))
    state.apply(CutStarter(pone_seat, 4))
    from cribbage.actions import Go

    for token in plays.split():
        seat = state.actors()[0]
        state.apply(Go(seat) if token.lower() == "go" else Play(seat, parse_cards(token)[0]))
    return state


def seat_view(state: GameState, seat: int) -> SeatView:
    return view(state, seat)


def with_changes(v: SeatView, **changes) -> SeatView:
    return replace(v, **changes)

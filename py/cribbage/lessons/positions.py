"""Real positions of the state machine for the lessons on go, last card and his heels: a match
dealt from stacked packs (the chosen hands and starter), played up to a chosen moment.

The lessons ask the engine itself what a card scores there (:meth:`cribbage.view.SeatView.outcome`,
which knows the go and the last card) and what the dealer pegs for a jack turned up: nothing of the
play's rules is written again here.
"""

from __future__ import annotations

from typing import Sequence

from ..actions import CutForDeal, CutPack, CutStarter, Discard, Go, Play
from ..cards import DECK, Card, parse_card, parse_cards
from ..state import GameState, Phase

__all__ = ["deal_to_play", "play_out", "heels_points", "DEALER", "PONE"]

DEALER = 0
"""The seat that deals in every lesson position (the pone is the other)."""
PONE = 1


def _cut_for_deal_pack() -> list[Card]:
    """A pack where the seats cutting at depth 4 show A♠ (seat 0: the dealer) and K♠ (seat 1)."""
    low, high = parse_cards("AS KS")
    rest = [c for c in DECK if c not in (low, high)]
    return rest[:4] + [low, high] + rest[4:]


def _hand_pack(pone: Sequence[Card], dealer: Sequence[Card], starter: Card) -> list[Card]:
    """A pack which, cut by the pone at depth 4, deals these six-card hands and, cut for the starter
    at depth 4, turns up ``starter``."""
    dealt = [card for pair in zip(pone, dealer) for card in pair]
    rest = [c for c in DECK if c not in dealt and c != starter]
    rest.insert(4, starter)
    after_cut = dealt + rest
    if sorted(after_cut) != sorted(DECK):
        raise ValueError("the hands and the starter must be different cards")
    return after_cut[-4:] + after_cut[:-4]


def _fill(kept: Sequence[Card], avoid: set[Card]) -> list[Card]:
    """Four kept cards and two low-scoring cards to lay away (unused elsewhere in the position)."""
    spare = [c for c in parse_cards("KC QD 9S 8C 2D 3H TC JH") if c not in avoid and c not in kept][:2]
    return [*kept, *spare]


def deal_to_play(pone: str, dealer: str, starter: str) -> GameState:
    """A match at the play of its first hand: seat 0 deals, each keeps the four cards given."""
    p, d, s = parse_cards(pone), parse_cards(dealer), parse_card(starter)
    used = {*p, *d, s}
    p6 = _fill(p, used)
    d6 = _fill(d, used | set(p6))
    state = GameState(0, stacked=[_cut_for_deal_pack(), _hand_pack(p6, d6, s)])
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    state.apply(CutPack(PONE, 4))
    state.apply(Discard(PONE, (p6[4], p6[5])))
    state.apply(Discard(DEALER, (d6[4], d6[5])))
    state.apply(CutStarter(PONE, 4))
    return state


def play_out(state: GameState, moves: str) -> GameState:
    """Apply the plays ``moves`` ("5H 6C go 4D": a card, or the Go of whoever is to move) in turn."""
    for word in moves.split():
        seat = next(s for s in (PONE, DEALER) if state.legal_actions(s))
        if word.lower() == "go":
            state.apply(Go(seat))
        else:
            state.apply(Play(seat, parse_card(word)))
    return state


def heels_points(starter: str) -> int:
    """What the dealer pegs when ``starter`` is turned up (his heels: the engine's event)."""
    s = parse_card(starter)
    p6 = [c for c in parse_cards("2C 3C 4C 6D 7D 8D") if c != s]
    d6 = [c for c in parse_cards("9H TH QH KH 2S 3S") if c != s]
    while len(p6) < 6 or len(d6) < 6:  # the starter was one of them: any other card
        extra = next(c for c in parse_cards("AH AD 4S 5S") if c not in p6 and c not in d6 and c != s)
        (p6 if len(p6) < 6 else d6).append(extra)
    state = GameState(0, stacked=[_cut_for_deal_pack(), _hand_pack(p6, d6, s)])
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    state.apply(CutPack(PONE, 4))
    state.apply(Discard(PONE, (p6[4], p6[5])))
    state.apply(Discard(DEALER, (d6[4], d6[5])))
    state.apply(CutStarter(PONE, 4))
    assert state.phase is Phase.PLAY and state.starter == s
    return sum(e.points for e in state.events if e.kind == "heels")

"""Helpers for the engine tests: stacked packs that deal chosen hands (import as `from deals import …`)."""

from __future__ import annotations

from typing import Sequence

from cribbage.actions import CutForDeal, CutPack, CutStarter, Discard
from cribbage.cards import DECK, Card, parse_cards
from cribbage.state import GameState


def cut_for_deal_pack(first_dealer: int) -> list[Card]:
    """A pack where both seats cutting at depth 4 show A♠ for ``first_dealer`` and K♠ for the other."""
    low, high = parse_cards("AS KS")
    rest = [c for c in DECK if c not in (low, high)]
    first, second = (low, high) if first_dealer == 0 else (high, low)
    return rest[:4] + [first, second] + rest[4:]


def hand_pack(pone: str | Sequence[Card], dealer: str | Sequence[Card], starter: str | Card) -> list[Card]:
    """A stacked pack which, cut by the pone at depth 4, deals these six-card hands and, cut for the
    starter at depth 4, turns up ``starter``."""
    p = parse_cards(pone) if isinstance(pone, str) else list(pone)
    d = parse_cards(dealer) if isinstance(dealer, str) else list(dealer)
    s = parse_cards(starter)[0] if isinstance(starter, str) else starter
    dealt = [card for pair in zip(p, d) for card in pair]
    rest = [c for c in DECK if c not in dealt and c != s]
    rest.insert(4, s)
    after_cut = dealt + rest
    assert sorted(after_cut) == sorted(DECK), "hands and starter must be distinct cards"
    return after_cut[-4:] + after_cut[:-4]


def setup_hand(pone: str, dealer: str, starter: str, *, first_dealer: int = 0,
               pone_discard: str | None = None, dealer_discard: str | None = None,
               scores: tuple[int, int] | None = None, more_packs: Sequence[Sequence[Card]] = ()) -> GameState:
    """A new match at the play of its first hand: chosen hands dealt, the given discards made, starter
    cut. By default each discards its last two cards. ``scores`` presets both scores."""
    packs = [cut_for_deal_pack(first_dealer), hand_pack(pone, dealer, starter), *more_packs]
    state = GameState(0, stacked=packs)
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    assert state.dealer == first_dealer
    pone_seat = 1 - first_dealer
    if scores is not None:
        state.scores = list(scores)
        state.previous_scores = list(scores)
    state.apply(CutPack(pone_seat, 4))
    p_cards, d_cards = parse_cards(pone), parse_cards(dealer)
    pd = parse_cards(pone_discard) if pone_discard else p_cards[4:]
    dd = parse_cards(dealer_discard) if dealer_discard else d_cards[4:]
    state.apply(Discard(pone_seat, (pd[0], pd[1])))
    state.apply(Discard(first_dealer, (dd[0], dd[1])))
    state.apply(CutStarter(pone_seat, 4))
    return state

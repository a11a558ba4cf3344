"""Views: one seat's knowledge, and nothing more."""

from cribbage.actions import Count, Go, Play
from cribbage.cards import DECK, parse_card, parse_cards
from cribbage.state import Phase
from cribbage.view import view

from deals import setup_hand

DEALER, PONE = 0, 1


def test_a_view_shows_own_hand_and_only_a_count_of_the_other():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    v = view(state, PONE)
    assert v.hand == tuple(parse_cards("4C 5D 9H KS"))
    assert v.opponent_cards == 4 and v.opponent_kept == ()
    assert v.crib_size == 4 and v.crib == ()
    assert v.starter == parse_card("AD")
    assert v.discards == tuple(parse_cards("2C 7C"))
    assert v.legal_actions == tuple(Play(PONE, c) for c in parse_cards("4C 5D 9H KS"))
    assert view(state, DEALER).legal_actions == ()
    for hidden in parse_cards("6D KH 3S 3H QC 8C"):
        assert hidden.code not in repr(v)


def test_hands_and_crib_are_public_in_the_show():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    for seat, code in [(PONE, "4C"), (DEALER, "6D"), (PONE, "5D"), (DEALER, "KH")]:
        state.apply(Play(seat, parse_card(code)))
    state.apply(Go(PONE))
    for seat, code in [(DEALER, "3S"), (DEALER, "3H"), (PONE, "KS"), (PONE, "9H")]:
        state.apply(Play(seat, parse_card(code)))
    v = view(state, PONE)
    assert v.phase is Phase.SHOW
    assert set(v.opponent_kept) == set(parse_cards("6D KH 3S 3H"))
    assert set(v.crib) == set(parse_cards("2C 7C QC 8C"))
    assert v.legal_actions == (Count(PONE),)
    assert len(v.played) == 2 and v.pile == ()


def test_known_cards_and_unseen_count():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    v = view(state, PONE)
    assert v.known_cards() == set(parse_cards("4C 5D 9H KS 2C 7C AD"))
    assert v.unseen_cards == 45


def test_cut_views_give_the_depth_range_not_the_pack():
    from cribbage.state import GameState
    state = GameState(3)
    v = view(state, 0)
    assert v.phase is Phase.CUT_FOR_DEAL and v.pack_size == 52 and v.cut_depths == (4, 48)
    assert not any(card.code in repr(v) for card in DECK)

"""Views: one seat's knowledge, and nothing more."""

from cribbage.actions import Count, Go, Play
from cribbage.cards import DECK, parse_card, parse_cards
from cribbage.scoring import ScoreKind
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


def _play_out(state):
    for seat, code in [(PONE, "4C"), (DEALER, "6D"), (PONE, "5D"), (DEALER, "KH")]:
        state.apply(Play(seat, parse_card(code)))
    state.apply(Go(PONE))
    for seat, code in [(DEALER, "3S"), (DEALER, "3H"), (PONE, "KS"), (PONE, "9H")]:
        state.apply(Play(seat, parse_card(code)))


def test_hands_are_public_in_the_show_but_the_crib_stays_face_down_until_counted():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    _play_out(state)
    v = view(state, PONE)
    assert v.phase is Phase.SHOW
    assert set(v.opponent_kept) == set(parse_cards("6D KH 3S 3H"))
    assert v.legal_actions == (Count(PONE),)
    assert len(v.played) == 2 and v.pile == ()
    crib = set(parse_cards("2C 7C QC 8C"))
    state.apply(Count(PONE))
    state.apply(Count(DEALER))
    for seat in (PONE, DEALER):
        v = view(state, seat)
        assert v.show_step == 2 and v.crib == () and v.crib_size == 4
        # The dealer's own two discards are known to the dealer, the pone's are not.
        assert not (crib - set(v.discards)) & v.known_cards()
    state.apply(Count(DEALER))
    counted = [e for e in state.events if e.kind == "show crib"]
    assert len(counted) == 1 and set(counted[0].cards) == crib | {parse_card("AD")}


def test_a_game_won_before_the_crib_is_counted_never_turns_it_up():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD", scores=(0, 110))
    _play_out(state)
    if not state.is_over:
        state.apply(Count(PONE))
    assert state.is_over and state.winner == PONE
    for seat in (PONE, DEALER):
        assert view(state, seat).crib == ()


def test_a_crib_counted_as_the_game_ends_is_face_up():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD", scores=(113, 0))
    _play_out(state)
    state.apply(Count(PONE))
    state.apply(Count(DEALER))
    assert not state.is_over and state.scores[DEALER] == 119  # 113 + 4 pegged + 2 for the hand
    assert view(state, PONE).crib == ()
    state.apply(Count(DEALER))  # the crib's 2 make 121
    assert state.is_over and state.winner == DEALER
    assert state.crib_counted and set(view(state, PONE).crib) == set(parse_cards("2C 7C QC 8C"))


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


def test_the_play_preview_includes_the_last_card_and_the_go_that_follow_at_once():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    for seat, code in [(PONE, "4C"), (DEALER, "6D"), (PONE, "5D"), (DEALER, "KH")]:
        state.apply(Play(seat, parse_card(code)))
    state.apply(Go(PONE))
    for seat, code in [(DEALER, "3S"), (DEALER, "3H")]:
        state.apply(Play(seat, parse_card(code)))
    # The dealer is out; the pone leads KS then lays the last card of the hand, 9H.
    v = view(state, PONE)
    assert v.outcome(parse_card("KS")) == ()  # 10 with the 9H still to come: nothing yet
    state.apply(Play(PONE, parse_card("KS")))
    v = view(state, PONE)
    last = v.outcome(parse_card("9H"))
    assert last is not None and sum(i.points for i in last) == 1
    assert [i.kind for i in last] == [ScoreKind.LAST_CARD]
    before = state.scores[PONE]
    state.apply(Play(PONE, parse_card("9H")))
    assert state.scores[PONE] - before == 1  # the preview said exactly what was pegged


def test_the_play_preview_never_promises_a_go_the_opponent_may_answer():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    state.apply(Play(PONE, parse_card("KS")))
    state.apply(Play(DEALER, parse_card("KH")))
    # 20: the pone's 9H makes 29, and then neither 4C nor 5D fits; the dealer's cards decide the go.
    v = view(state, PONE)
    assert v.outcome(parse_card("9H")) == ()  # the dealer may still lay a 2 or an ace: no go promised
    assert v.outcome(parse_card("QC")) is None  # not in the hand
    assert view(state, DEALER).play_outcomes == ()  # not the dealer's turn
    assert {c.code for c, _ in v.play_outcomes} == {"4C", "5D", "9H"}


def test_the_play_preview_promises_only_what_this_seat_can_know():
    """Laying the last card while the opponent still holds cards that do not fit: the go follows at
    once, but only a player who saw the opponent's hand could know it, so the preview leaves it out."""
    import random

    from cribbage.state import GameState

    found = None
    for seed in range(200):
        rng, state = random.Random(seed), GameState(seed)
        while not state.is_over and found is None:
            s = state.to_play
            if state.phase is Phase.PLAY and len(state.hands[s]) == 1 and state.playable(s) \
                    and state.hands[1 - s] and state.go_said is None:
                card = state.hands[s][0]
                total = state.count + card.value
                if total != 31 and all(c.value + total > 31 for c in state.hands[1 - s]):
                    found = (state, s, card)
                    break
            state.apply(rng.choice(state.legal_actions()))
        if found:
            break
    assert found is not None
    state, seat, card = found
    promised = view(state, seat).outcome(card)
    assert promised is not None and ScoreKind.GO not in [i.kind for i in promised]
    before = state.scores[seat]
    state.apply(Play(seat, card))
    pegged = [e for e in state.events if e.seat == seat and e.kind == "go"]
    assert pegged and state.scores[seat] - before == sum(i.points for i in promised) + 1

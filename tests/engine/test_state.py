"""Scripted deals replayed card by card: every score, who leads each count, and how games end."""

from __future__ import annotations

import pytest

from cribbage.actions import Count, CutForDeal, CutPack, CutStarter, Discard, Go, Play
from cribbage.cards import DECK, parse_card, parse_cards
from cribbage.scoring import ScoreKind
from cribbage.state import GameState, IllegalActionError, Phase

from deals import cut_for_deal_pack, hand_pack, setup_hand

DEALER, PONE = 0, 1


def c(code: str):
    return parse_card(code)


def play(state: GameState, seat: int, code: str) -> int:
    """Lay a card and return what that seat pegged for it (go/last card included)."""
    before = state.scores[seat]
    state.apply(Play(seat, c(code)))
    return state.scores[seat] - before


def test_the_worked_pegging_example_from_the_rule_book():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    assert state.phase is Phase.PLAY and state.to_play == PONE  # the pone leads
    assert play(state, PONE, "4C") == 0 and state.count == 4
    assert play(state, DEALER, "6D") == 0 and state.count == 10
    assert play(state, PONE, "5D") == 5 and state.count == 15  # fifteen 2 and a run of 3
    assert play(state, DEALER, "KH") == 0 and state.count == 25
    assert state.legal_actions() == [Go(PONE)]  # 9 or K would pass 31
    state.apply(Go(PONE))
    assert state.to_play == DEALER
    assert play(state, DEALER, "3S") == 0 and state.count == 28
    assert state.to_play == DEALER  # after a Go the dealer plays on
    assert play(state, DEALER, "3H") == 4  # pair 2 + thirty-one 2, no go point
    assert state.count == 0 and state.to_play == PONE  # the pone said Go, so leads the next count
    assert play(state, PONE, "KS") == 0
    assert state.to_play == PONE  # the dealer is out of cards: skipped, no Go announced
    assert play(state, PONE, "9H") == 1  # last card
    assert state.phase is Phase.SHOW
    pegged = {s: sum(e.points for e in state.events if e.seat == s and e.source == "pegging") for s in (0, 1)}
    assert pegged == {PONE: 6, DEALER: 4}
    assert [e.kind for e in state.events if e.kind == "go"] == ["go"]  # only the announced Go
    items = [i.kind for e in state.events for i in e.items]
    assert ScoreKind.THIRTY_ONE in items and ScoreKind.LAST_CARD in items and ScoreKind.GO not in items


def test_go_point_and_the_player_who_said_go_leads_next():
    state = setup_hand("TS 5C 5D JD 2C 3C", "4H 9H 4S 9S KC QC", "5H")
    assert play(state, PONE, "TS") == 0
    assert play(state, DEALER, "4H") == 0
    assert play(state, PONE, "5C") == 0
    assert play(state, DEALER, "9H") == 0 and state.count == 28
    state.apply(Go(PONE))  # 5D and JD both pass 31
    # The dealer cannot play either (4S makes 32): the go to the dealer, who laid the last card.
    assert state.scores == [1, 0]
    go = [e for e in state.events if e.kind == "go"]
    assert go[-1].seat == DEALER and go[-1].items[0].kind is ScoreKind.GO and go[-1].points == 1
    said = go[-2]
    assert (said.seat, said.points, said.count, go[-1].count) == (PONE, 0, 28, 28)  # the count at the Go
    assert [e.count for e in state.events if e.kind == "play"] == [10, 14, 19, 28]
    assert state.count == 0 and state.to_play == PONE  # the player who said Go leads
    assert play(state, PONE, "5D") == 0
    assert play(state, DEALER, "4S") == 0
    assert play(state, PONE, "JD") == 0 and state.count == 19
    assert play(state, DEALER, "9S") == 1  # last card (count 28)
    assert state.phase is Phase.SHOW


def test_thirty_one_then_the_opponent_leads():
    state = setup_hand("KS QS AH 2H 3D 4D", "KH QH JC AD 6D 7D", "9C")
    assert play(state, PONE, "KS") == 0
    assert play(state, DEALER, "KH") == 2  # pair
    assert play(state, PONE, "QS") == 0
    assert play(state, DEALER, "AD") == 2  # 31 for 2
    assert state.count == 0 and state.to_play == PONE  # the opponent of whoever made 31 leads


def test_the_show_counts_pone_then_dealer_then_crib_and_the_deal_passes():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    for seat, code in [(PONE, "4C"), (DEALER, "6D"), (PONE, "5D"), (DEALER, "KH")]:
        state.apply(Play(seat, c(code)))
    state.apply(Go(PONE))
    for seat, code in [(DEALER, "3S"), (DEALER, "3H"), (PONE, "KS"), (PONE, "9H")]:
        state.apply(Play(seat, c(code)))
    assert state.scores[PONE] == 6 and state.scores[DEALER] == 4  # the pegging, as in the rule book
    assert state.legal_actions() == [Count(PONE)]
    with pytest.raises(IllegalActionError, match="not your turn"):
        state.apply(Count(DEALER))
    # Totals worked out by hand, not by the scorer:
    # pone 4C 5D 9H KS + AD: fifteens 5+K, 4+A+K, 5+9+A = 6;
    # dealer 6D KH 3S 3H + AD: pair of 3s = 2 (no fifteen: 6+3+3+A = 13, K+3+A = 14);
    # crib 2C 7C QC 8C + AD: fifteen 7+8 = 2; four clubs with a diamond starter is no crib flush.
    state.apply(Count(PONE))
    pone = state.events[-1]
    assert (pone.kind, pone.seat, pone.points) == ("show hand", PONE, 6)
    assert state.scores == [4, 12]
    assert state.legal_actions() == [Count(DEALER)]
    state.apply(Count(DEALER))
    dealer = state.events[-1]
    assert (dealer.kind, dealer.seat, dealer.points) == ("show hand", DEALER, 2)
    assert state.scores == [6, 12]
    assert state.legal_actions() == [Count(DEALER)]  # the dealer counts the crib too
    state.apply(Count(DEALER))
    crib = [e for e in state.events if e.kind == "show crib"][-1]
    assert (crib.seat, crib.points) == (DEALER, 2)
    assert set(crib.cards) == set(parse_cards("2C 7C QC 8C AD"))
    assert [i.kind for i in crib.items] == [ScoreKind.FIFTEEN]
    assert state.scores == [8, 12]
    shows = [(e.kind, e.seat) for e in state.events if e.kind.startswith("show")]
    assert shows == [("show hand", PONE), ("show hand", DEALER), ("show crib", DEALER)]
    assert state.phase is Phase.CUT_PACK and state.dealer == PONE and state.hand_number == 2


def test_game_ends_mid_pegging_and_nothing_after_is_scored():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD", scores=(100, 117))
    play(state, PONE, "4C")
    play(state, DEALER, "6D")
    assert play(state, PONE, "5D") == 5
    assert state.phase is Phase.GAME_OVER and state.winner == PONE and state.scores == [100, 122]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(Play(DEALER, c("KH")))
    assert state.events[-1].kind == "win"


def test_game_ends_on_his_heels():
    state = GameState(0, stacked=[cut_for_deal_pack(0), hand_pack("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "JD")])
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    state.scores = [119, 50]
    state.apply(CutPack(PONE, 4))
    state.apply(Discard(PONE, (c("2C"), c("7C"))))
    state.apply(Discard(DEALER, (c("QC"), c("8C"))))
    state.apply(CutStarter(PONE, 4))
    assert state.starter == c("JD")
    assert state.phase is Phase.GAME_OVER and state.winner == DEALER and state.scores == [121, 50]
    heels = [e for e in state.events if e.kind == "heels"]
    assert heels and heels[0].items[0].kind is ScoreKind.HEELS and heels[0].points == 2


def test_heels_without_winning_goes_on_to_the_play():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "JD")
    assert state.scores == [2, 0] and state.phase is Phase.PLAY


def test_pone_wins_in_the_show_before_the_dealer_counts():
    state = setup_hand("TS 5C 5D JD 2C 3C", "4H 9H 4S 9S KC QC", "5H", scores=(115, 101))
    for seat, code in [(PONE, "TS"), (DEALER, "4H"), (PONE, "5C"), (DEALER, "9H")]:
        state.apply(Play(seat, c(code)))
    state.apply(Go(PONE))
    for seat, code in [(PONE, "5D"), (DEALER, "4S"), (PONE, "JD"), (DEALER, "9S")]:
        state.apply(Play(seat, c(code)))
    assert state.scores == [117, 101]
    state.apply(Count(PONE))  # 5C 5D TS JD + 5H = 20
    assert state.scores == [117, 121] and state.winner == PONE and state.phase is Phase.GAME_OVER
    assert not [e for e in state.events if e.kind == "show hand" and e.seat == DEALER]


def test_equal_cuts_for_deal_are_recut():
    tie = [c for c in DECK if c.code not in ("5S", "5H")]
    tie = tie[:4] + [parse_card("5S"), parse_card("5H")] + tie[4:]
    state = GameState(0, stacked=[tie, cut_for_deal_pack(1)])
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    assert state.phase is Phase.CUT_FOR_DEAL and state.dealer is None
    assert state.cut_cards == [None, None] and state.legal_actions()[0] == CutForDeal(0, 4)
    assert "reshuffled" in state.events[-1].text
    state.apply(CutForDeal(0, 4))  # K♠ this time
    state.apply(CutForDeal(1, 4))  # A♠
    assert state.dealer == 1 and state.phase is Phase.CUT_PACK


def test_ten_cards_of_equal_value_are_not_a_tie():
    pack = [c for c in DECK if c.code not in ("KS", "QS")]
    pack = pack[:4] + [parse_card("KS"), parse_card("QS")] + pack[4:]
    state = GameState(0, stacked=[pack])
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    assert state.dealer == 1  # the queen is lower than the king


def test_the_deal_alternates_starting_with_the_pone():
    state = GameState(0, stacked=[cut_for_deal_pack(0), hand_pack("AC 2C 3C 4C 5C 6C", "AH 2H 3H 4H 5H 6H", "9S")])
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    state.apply(CutPack(PONE, 4))
    assert state.hands[PONE] == parse_cards("AC 2C 3C 4C 5C 6C")
    assert state.hands[DEALER] == parse_cards("AH 2H 3H 4H 5H 6H")
    assert state.pack_size == 40


def test_both_discards_come_before_the_starter_and_either_may_go_first():
    state = GameState(0, stacked=[cut_for_deal_pack(0), hand_pack("AC 2C 3C 4C 5C 6C", "AH 2H 3H 4H 5H 6H", "9S")])
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    state.apply(CutPack(PONE, 4))
    legal = state.legal_actions()
    assert len(legal) == 30 and {a.seat for a in legal} == {0, 1}
    state.apply(Discard(DEALER, (c("5H"), c("6H"))))
    assert len(state.legal_actions()) == 15 and state.phase is Phase.DISCARD
    with pytest.raises(IllegalActionError, match="already"):
        state.apply(Discard(DEALER, (c("AH"), c("2H"))))
    state.apply(Discard(PONE, (c("AC"), c("2C"))))
    assert state.phase is Phase.CUT_STARTER and len(state.crib) == 4


@pytest.mark.parametrize("action,message", [
    (Play(PONE, parse_card("KH")), "do not hold"),
    (Play(DEALER, parse_card("6D")), "not your turn"),
    (Go(PONE), "Go is only for when no card fits"),
    (Discard(PONE, (parse_card("4C"), parse_card("5D"))), "not something to do now"),
    (CutStarter(PONE, 2), "not something to do now"),
])
def test_illegal_actions_are_refused_with_a_readable_reason(action, message):
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    before = (list(state.scores), [list(h) for h in state.hands], list(state.events))
    with pytest.raises(IllegalActionError, match=message):
        state.apply(action)
    assert before == (list(state.scores), [list(h) for h in state.hands], list(state.events))


def test_a_card_that_would_pass_31_is_refused():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    for seat, code in [(PONE, "4C"), (DEALER, "6D"), (PONE, "5D"), (DEALER, "KH")]:
        state.apply(Play(seat, c(code)))
    with pytest.raises(IllegalActionError, match="past 31"):
        state.apply(Play(PONE, c("9H")))


def test_cut_depth_keeps_four_cards_in_each_packet():
    state = GameState(5)
    depths = [a.depth for a in state.legal_actions()]
    assert depths == list(range(4, 49))
    with pytest.raises(IllegalActionError, match="between 4 and 48"):
        state.apply(CutForDeal(0, 2))


def test_repr_shows_no_cards():
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    text = repr(state)
    assert not any(card.code in text for card in DECK)

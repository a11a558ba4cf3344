"""Every table of the rule book: three players, four in partnerships, 61, two cards from the pack to
the crib, muggins, cutting again on tens — hand-worked cases and random legal play at every table."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribbage.actions import Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play, parse_action
from cribbage.cards import DECK, Card, parse_cards
from cribbage.match import Match
from cribbage.record import record_match
from cribbage.rules import PRESETS, Rules
from cribbage.scoring import score_hand
from cribbage.state import GameState, IllegalActionError, Phase
from cribbage.view import view

THREE = Rules(players=3)
FOUR = Rules(players=4)
LOW = "AS KS QS JS"


def cut_pack(n: int, dealer: int, cards: str = LOW) -> list[Card]:
    """Each seat cutting at depth 4 in turn shows one card; ``dealer`` shows the first (lowest)."""
    shown = parse_cards(cards)
    order = [shown[0] if s == dealer else None for s in range(n)]
    high = iter(shown[1:])
    order = [c if c is not None else next(high) for c in order]
    rest = [c for c in DECK if c not in order]
    return rest[:4] + order + rest[4:]


def table(rules: Rules, hands: dict[int, str], starter: str, crib_pack: str = "", dealer: int = 0,
          discard: bool = True, scores: list[int] | None = None) -> GameState:
    """A match at ``rules`` with these hands dealt (dealing clockwise from the dealer's left), these
    cards from the pack to the crib; each seat lays away its last card(s) and the starter is cut."""
    n = rules.players
    dealt_hands = {s: parse_cards(h) for s, h in hands.items()}
    order = rules.order_from(rules.left_of(dealer))
    dealt = [dealt_hands[order[i % n]][i // n] for i in range(n * rules.hand_size)] + parse_cards(crib_pack)
    s = parse_cards(starter)[0]
    rest = [c for c in DECK if c not in dealt and c != s]
    rest.insert(4, s)
    after_cut = dealt + rest
    assert sorted(after_cut) == sorted(DECK)
    state = GameState(0, stacked=[cut_pack(n, dealer), after_cut[-4:] + after_cut[:-4]], rules=rules)
    for seat in range(n):
        state.apply(CutForDeal(seat, 4))
    assert state.dealer == dealer
    if scores is not None:
        state.scores, state.previous_scores = list(scores), list(scores)
    state.apply(CutPack(state.cutter, 4))
    if discard:
        for seat in range(n):
            state.apply(Discard(seat, tuple(dealt_hands[seat][-rules.discards:])))
        state.apply(CutStarter(state.pone, 4))
    return state


def play(state: GameState, *moves: str) -> None:
    for m in moves:
        seat = state.actors()[0]
        state.apply(Go(seat) if m == "go" else Play(seat, parse_cards(m)[0]))


# --- three players ------------------------------------------------------------------------------


def test_three_players_deal_five_each_and_one_from_the_pack_to_the_crib():
    state = table(THREE, {0: "9C 5D 6D 2H TD", 1: "KH 5S 6S 7S 8D", 2: "QH AD 4C 3C 9D"}, "8C", "7C",
                  discard=False)
    assert [len(h) for h in state.hands] == [5, 5, 5] and state.crib_pack == tuple(parse_cards("7C"))
    assert state.cutter == 2 and state.pone == 1  # the dealer's right cuts the pack; the left cuts the starter
    v = view(state, 1)
    assert v.crib_size == 1 and v.crib == () and "7C" not in repr(v)
    assert all(len(a.cards) == 1 for a in v.legal_actions)
    with pytest.raises(IllegalActionError, match="exactly one card"):
        state.apply(Discard(1, tuple(parse_cards("8D 7S"))))
    for seat, card in ((0, "TD"), (1, "8D"), (2, "9D")):
        state.apply(Discard(seat, tuple(parse_cards(card))))
    assert state.crib == parse_cards("7C 8D 9D TD")  # the pack's card, then from the dealer's left
    assert state.actors() == [1]


def test_three_players_the_go_passes_round_and_the_next_count_starts_left_of_the_last_card():
    state = table(THREE, {0: "9C 5D 6D 2H TD", 1: "KH 5S 6S 7S 8D", 2: "QH AD 4C 3C 9D"}, "8C", "7C")
    assert state.to_play == 1  # the dealer's left leads
    play(state, "KH", "QH", "9C")  # 10, 20, 29
    assert state.legal_actions() == [Go(1)]
    play(state, "go", "AD")  # seat 1 says Go; seat 2 plays on: 30
    assert state.actors() == [0] and state.legal_actions() == [Go(0)]  # seat 2 could still play on
    play(state, "go")
    go = state.events[-1]
    assert (go.kind, go.seat, go.points, go.count) == ("go", 2, 1, 30)
    assert state.count == 0 and state.to_play == 0  # left of seat 2, who laid the last card
    assert [e.seat for e in state.events if e.kind == "go" and not e.points] == [1, 0]
    assert state.scores == [0, 0, 1]


def test_three_players_show_from_the_dealers_left_then_the_crib_and_the_deal_passes_left():
    state = table(THREE, {0: "9C 5D 6D 2H TD", 1: "KH 5S 6S 7S 8D", 2: "QH AD 4C 3C 9D"}, "8C", "7C")
    rng = random.Random(1)
    while state.phase is Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    counted = []
    while state.hand_number == 1:
        seat = state.actors()[0]
        counted.append((seat, state.show_step))
        state.apply(Count(seat))
    assert counted == [(1, 0), (2, 1), (0, 2), (0, 3)]
    assert [e.kind for e in state.events if e.kind.startswith("show")] == ["show hand"] * 3 + ["show crib"]
    assert state.dealer == 1


def test_cut_for_deal_lowest_deals_and_ties_for_the_lowest_cut_again():
    tie = cut_pack(3, 0, "4S 4H KS")  # seats 0 and 1 both cut a four
    rest = [c for c in DECK if c not in parse_cards("6S 2D 9C")]
    again = rest[:4] + parse_cards("6S 2D") + rest[4:] + parse_cards("9C")  # seats 0, 1 cut again
    state = GameState(0, stacked=[tie, again], rules=THREE)
    for seat in (0, 1, 2):
        state.apply(CutForDeal(seat, 4))
    assert state.dealer is None and state.actors() == [0]
    state.apply(CutForDeal(0, 4))
    assert state.actors() == [1]
    state.apply(CutForDeal(1, 4))
    assert state.dealer == 1


@pytest.mark.parametrize("recut, dealer", [(False, 1), (True, None)])
def test_recut_on_two_ten_cards(recut, dealer):
    state = GameState(0, stacked=[cut_pack(2, 1, "JS KH")], rules=Rules(recut_tens=recut))
    state.apply(CutForDeal(0, 4))
    state.apply(CutForDeal(1, 4))
    assert state.dealer == dealer
    if recut:
        assert "two ten-cards" in state.events[-1].text and state.actors() == [0]


# --- four players, partners ------------------------------------------------------------------------


def test_partners_peg_on_one_track():
    state = table(FOUR, {0: "5C 2C 3C 4C KC", 1: "5D 2D 3D 4D KD", 2: "5H 2H 3H 4H KH", 3: "5S 8S 9S TS KS"}, "7H")
    assert len(state.scores) == 2 and state.rules.side_of(2) == 0
    play(state, "5D", "5H", "5S", "5C")  # seat 1 leads: pair (seat 2), pair royal and 15 (seat 3), four
    assert [e.points for e in state.events if e.kind == "play"] == [0, 2, 8, 12]
    assert state.scores == [2 + 12, 8]
    assert state.hand_scores[-1] == {"pegging2": 2, "pegging3": 8, "pegging0": 12}  # by seat
    v = view(state, 2)
    assert v.scores == (14, 8) and v.my_score == 14 and v.score_of(3) == 8 and len(v.hand_counts) == 4


def test_partners_win_together_at_61():
    rules = Rules(players=4, target=61)
    state = table(rules, {0: "5C 2C 3C 4C KC", 1: "5D 2D 3D 4D KD", 2: "5H 2H 3H 4H KH", 3: "5S 8S 9S TS KS"},
                  "7H", scores=[59, 40])
    play(state, "5D", "5H")
    assert state.is_over and state.winner == 0 and state.winning_seats == (0, 2)
    assert state.events[-1].text == "wins 61 to 40"


# --- two players, two cards from the pack; 61 --------------------------------------------------------


def test_two_cards_from_the_pack_to_the_crib():
    rules = PRESETS["five-card"]
    state = table(rules, {0: "AC 2C 3C 4C KC", 1: "AD 2D 3D 4D KD"}, "7H", "QS QH")
    assert state.crib == parse_cards("QS QH KD KC") and state.rules.hand_size == 5
    assert [len(k) for k in state.kept] == [4, 4]


def test_a_game_to_61_ends_the_moment_61_is_reached():
    rules = Rules(target=61)
    state = table(rules, {0: "5C 2C 3C 4C KC AH", 1: "5D 5S 3D 4D KD QD"}, "7H", scores=[30, 55])
    play(state, "5D", "5C")  # seat 0 pairs: 32
    assert not state.is_over
    play(state, "5S")  # seat 1: pair royal and fifteen, 8: past 61
    assert state.is_over and state.winner == 1 and state.events[-1].text == "wins 63 to 32"
    assert rules.skunk_line == 31 and rules.double_skunk_line is None


def test_record_skunk_lines_follow_the_target():
    rng = random.Random(4)
    for target, line in ((61, 31), (121, 91)):
        m = Match(9, rules=Rules(target=target))
        while not m.state.is_over:
            m.apply(rng.choice(m.legal_actions()))
        r = record_match(m, played_at=0)
        lost = r.scores[r.loser]
        assert (r.skunk is not None) == (lost < line)
        assert r.to_json().get("rules") == ({"target": 61} if target == 61 else None)


# --- muggins ----------------------------------------------------------------------------------------


def at_show(rules: Rules) -> GameState:
    state = table(rules, {0: "5C 5H JS 4D 9C KC", 1: "2D 3D 7H 9S QD KD"}, "6S")
    while state.phase is Phase.PLAY:
        state.apply(state.legal_actions()[0])
    state.scores = [0, 0]  # only the show's points, below
    return state  # seat 1 (pone) counts 2D 3D 7H 9S with 6S: PONE; seat 0 has 4D 5C 5H JS: 17


PONE = score_hand(parse_cards("2D 3D 7H 9S"), parse_cards("6S")[0]).total


def test_muggins_an_over_claim_is_legal_and_a_call_puts_it_back_and_pegs_the_overage():
    """Hoyle: the overmarker is put back, and the other side scores the same extra for itself
    (no more "count again" with unlimited retries: guessing down from 29 found every total)."""
    state = at_show(Rules(muggins=True))
    v = view(state, 1)
    assert [a.claim for a in v.legal_actions] == list(range(30))  # every number: nothing said
    with pytest.raises(IllegalActionError, match="how many points"):
        state.apply(Count(1))
    with pytest.raises(IllegalActionError, match="how many points"):
        state.apply(Count(1, 30))
    state.apply(Count(1, PONE + 3))  # an over-claim is pegged as said
    assert state.scores == [0, PONE + 3] and state.claim is not None and state.claim.claimed == PONE + 3
    assert str(PONE) not in " ".join(e.text for e in view(state, 0).events[-1:])
    state.apply(Muggins(0))
    back, taken, counted = state.events[-3:]
    assert (back.kind, back.seat, back.points, back.source) == ("put back", 1, -3, "hand")
    assert [i.kind.value for i in back.items] == ["put back"]
    assert (taken.kind, taken.seat, taken.points) == ("muggins", 0, 3)
    assert counted.text == f"the hand held {PONE}"
    assert state.scores == [3, PONE] and back.scores == (0, PONE) and taken.scores == (3, PONE)
    assert state.hand_scores[-1]["hand1"] == PONE and state.hand_scores[-1]["muggins0"] == 3


def test_muggins_an_over_claim_nobody_calls_stands():
    state = at_show(Rules(muggins=True))
    state.apply(Count(1, PONE + 4))
    state.apply(Pass(0))
    assert state.scores == [0, PONE + 4] and state.events[-1].text == f"the hand held {PONE}"


def test_muggins_a_false_claim_of_game_is_corrected_at_once():
    """ACC Rule 8.4b: the offender is put to what was actually scored, the opponent pegs the overclaim."""
    state = at_show(Rules(muggins=True))
    state.scores = [100, 110]
    state.apply(Count(1, 11 + PONE))  # 110 + claim reaches 121, the hand holds PONE < 11
    assert not state.is_over and state.claim is None
    assert state.scores == [111, 110 + PONE]
    fixed, taken = state.events[-2:]
    assert fixed.kind == "show hand" and not fixed.claim and fixed.points == PONE and "claims" in fixed.text
    assert (taken.kind, taken.seat, taken.points) == ("muggins", 0, 11)
    assert state.show_step == 1 and state.actors() == [0]  # the show goes on: the dealer counts


def test_muggins_a_true_claim_of_game_wins_at_once():
    state = at_show(Rules(muggins=True))
    state.scores = [100, 121 - PONE]
    state.apply(Count(1, PONE))
    assert state.is_over and state.winner == 1


def test_muggins_an_exact_claim_let_stand_and_a_call_that_finds_nothing():
    state = at_show(Rules(muggins=True))
    state.apply(Count(1, PONE))
    assert state.claim is not None and state.claim.actual == PONE and state.actors() == [0]
    assert [str(a) for a in state.legal_actions()] == ["muggins 0", "pass 0"]
    assert view(state, 0).claim == (1, PONE)
    state.apply(Muggins(0))
    assert state.events[-2].text == "calls muggins: nothing was missed" and state.scores == [0, PONE]
    state.apply(Count(0, 17))
    state.apply(Pass(1))
    assert state.scores == [17, PONE] and state.show_step == 2


def test_muggins_an_under_claim_pegs_the_claim_and_the_other_side_may_take_the_rest():
    state = at_show(Rules(muggins=True))
    state.apply(Count(1, PONE))
    state.apply(Pass(0))
    before = len(state.events)
    state.apply(Count(0, 12))  # holds 17
    assert state.scores == [12, PONE]
    new = state.events[before:]
    assert not any("17" in e.text for e in new) and [i.kind.value for e in new for i in e.items] == ["claim"]
    for s in (0, 1):  # nothing in any view says 17 before the claim is settled
        assert "17" not in repr(view(state, s).events) and not any(e.kind == "counted" for e in new)
    state.apply(Muggins(1))
    assert state.scores == [12, PONE + 5] and state.events[-2].points == 5
    assert state.events[-1].text == "the hand held 17"


def test_a_count_says_itself_whether_it_is_a_claim():
    """The table and its speech read ``Event.claim``, never the event's wording."""
    state = at_show(Rules(muggins=True))
    state.apply(Count(1, 0))  # a claim of nothing pegs nothing: still a claim
    assert state.events[-1].kind == "show hand" and state.events[-1].claim is True
    state.apply(Pass(0))
    state.apply(Count(0, 17))
    assert state.events[-1].claim is True
    plain = at_show(Rules())
    plain.apply(Count(1))
    assert plain.events[-1].kind == "show hand" and plain.events[-1].claim is False
    assert not any(e.claim for e in plain.events)


def test_muggins_an_under_claim_not_called_stands():
    state = at_show(Rules(muggins=True))
    state.apply(Count(1, 2))
    state.apply(Pass(0))
    assert state.scores == [0, 2] and state.events[-1].text == f"the hand held {PONE}"


def test_muggins_with_three_players_whoever_calls_first():
    state = table(Rules(players=3, muggins=True), {0: "9C 5D 6D 2H TD", 1: "KH 5S 6S 7S 8D",
                                                    2: "QH AD 4C 3C 9D"}, "8C", "7C")
    while state.phase is Phase.PLAY:
        state.apply(state.legal_actions()[0])
    before = list(state.scores)
    held = score_hand(parse_cards("KH 5S 6S 7S"), parse_cards("8C")[0]).total
    state.apply(Count(1, 0))  # claims nothing
    assert state.actors() == [2, 0]  # the others, from the claimant's left
    state.apply(Pass(2))
    assert state.actors() == [0]
    state.apply(Muggins(0))
    assert state.scores == [before[0] + held, before[1], before[2]]


def test_hint_never_counts_with_muggins():
    from cribbage.ai import hint

    state = at_show(Rules(muggins=True))
    h = hint(view(state, 1))
    assert h.action is None and str(PONE) not in h.text


# --- said-aloud Go kept by the match ------------------------------------------------------------------


def test_a_match_with_said_go_undoes_and_reloads_by_its_own_rules():
    m = Match(5, humans=(0, 1), declare_go=True)
    rng = random.Random(2)
    while not any(e.kind == "go" and not e.points for e in m.state.events) or len(m.actions) < 60:
        m.apply(rng.choice(m.legal_actions()))
    events = list(m.state.events)
    assert m.undo() and m.redo() and m.state.events == events
    m.restart()
    assert m.state.declare_go
    m2 = Match(5, humans=(0, 1), declare_go=True, rules=Rules(players=3))
    for _ in range(40):
        m2.apply(rng.choice(m2.legal_actions()))
    loaded = Match.from_json(m2.to_json())
    assert loaded.declare_go and loaded.rules == Rules(players=3) and loaded.state.events == m2.state.events


# --- random legal play at every table ------------------------------------------------------------------


TABLES = [*PRESETS.values(), Rules(players=3, target=61, muggins=True), Rules(players=4, muggins=True, recut_tens=True),
          Rules(crib_from_pack=2, muggins=True, target=61), Rules(players=3, recut_tens=True)]


def check(state: GameState) -> None:
    rules = state.rules
    per_side = [0] * rules.sides
    for e in state.events:
        if e.seat is not None and e.points:
            per_side[rules.side_of(e.seat)] += e.points
    assert per_side == state.scores
    if not state.is_over:
        assert all(s < rules.target for s in state.scores)
    else:
        assert state.scores[state.winner] >= rules.target
    if state.phase in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY):
        cards = [*state.crib_pack, *state._undealt(), *(c for h in state.hands for c in h),
                 *(c for d in state.discards for c in d or ()), *(c for _, c in state.pile),
                 *(c for count in state.played for _, c in count)]
        assert len(cards) == 52 and set(cards) == set(DECK)
    for seat in range(rules.players):
        v = view(state, seat)
        assert len(v.scores) == rules.sides and len(v.hand_counts) == rules.players
        if rules.muggins and state.claim is not None:
            assert all(e.kind != "counted" or e.seat != state.claim.seat for e in v.events[-1:])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TABLES), st.integers(0, 2**32), st.booleans())
def test_random_legal_play_at_every_table(rules, seed, declare_go):
    rng = random.Random(seed)
    m = Match(seed, humans=range(rules.players), rules=rules, declare_go=declare_go)
    steps = 0
    while not m.state.is_over and steps < 1500:
        action = rng.choice(m.legal_actions())
        assert parse_action(str(action)) == action
        m.apply(action)
        check(m.state)
        steps += 1
    assert m.state.is_over
    loaded = Match.from_json(m.to_json())
    assert loaded.state.events == m.state.events and loaded.rules == rules

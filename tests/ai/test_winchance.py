"""The chance of winning as a hand is played (issue 21): the model's arithmetic against a brute
force, its agreement with the win table at the start of a hand, the published first-dealer figure,
and a seat's figure reading nothing that seat may not know."""

from __future__ import annotations

import pytest

from ai_positions import at_discard
from cribbage.actions import Discard
from cribbage.ai.strategy import win_chance
from cribbage.ai.winchance import Outlook, point, pone_chance, seat_chances, supports, whole_hand
from cribbage.cards import parse_cards
from cribbage.rules import CLASSIC, Rules
from cribbage.view import view


def brute(a: int, b: int, o: Outlook) -> float:
    """The counting order written out plainly: play (both out: half each), pone's hand, dealer's
    hand and crib, then the win table with the roles swapped."""
    total = 0.0
    for x, px in enumerate(o.pone_pegging):
        for y, py in enumerate(o.dealer_pegging):
            for h, ph in enumerate(o.pone_hand):
                for d, pd in enumerate(o.dealer_hand):
                    for c, pc in enumerate(o.crib):
                        p = px * py * ph * pd * pc
                        if not p:
                            continue
                        if x >= a and y >= b:
                            total += p / 2
                        elif x >= a:
                            total += p
                        elif y >= b:
                            pass
                        elif x + h >= a:
                            total += p
                        elif y + d + c >= b:
                            pass
                        else:
                            total += p * (1 - win_chance(b - y - d - c, a - x - h))
    return total


SMALL = Outlook((0.5, 0.3, 0.2), (0.4, 0.4, 0.2), (0.2, 0.0, 0.5, 0.3), (0.3, 0.3, 0.0, 0.0, 0.4), (0.6, 0.0, 0.4))


@pytest.mark.parametrize("a, b", [(1, 1), (2, 3), (3, 2), (4, 4), (5, 7), (6, 3), (9, 9), (20, 15)])
def test_the_model_equals_the_brute_force_on_small_needs(a: int, b: int) -> None:
    assert pone_chance(a, b, SMALL) == pytest.approx(brute(a, b, SMALL), abs=1e-9)


def test_a_whole_hand_through_the_phase_model_agrees_with_the_win_table() -> None:
    """The start of a hand two ways: the win table, and the phase model with nothing known yet."""
    worst = 0.0
    for a in range(12, 122, 11):
        for b in range(12, 122, 11):
            worst = max(worst, abs(pone_chance(a, b, whole_hand()) - win_chance(a, b)))
    assert worst < 0.012, worst
    # Near the end the win table lets the pone count all its points first; the phase model knows
    # the dealer pegs during the play too, so the pone's chance is lower there.
    assert pone_chance(5, 5, whole_hand()) < win_chance(5, 5) - 0.1


def test_the_first_dealer_wins_about_55_and_a_half_percent() -> None:
    assert 1 - win_chance(121, 121) == pytest.approx(0.555, abs=0.01)
    assert 1 - pone_chance(121, 121, whole_hand()) == pytest.approx(0.555, abs=0.015)
    assert 0.5 < 1 - pone_chance(61, 61, whole_hand()) < 0.54  # a game to 61: a smaller edge


def test_more_points_still_to_come_never_lower_the_chance() -> None:
    base = Outlook(point(0), point(0), point(4), point(6), point(2))
    better = Outlook(point(0), point(0), point(12), point(6), point(2))
    for a, b in [(10, 10), (30, 25), (60, 70)]:
        assert pone_chance(a, b, better) >= pone_chance(a, b, base)
        assert pone_chance(a - 5, b, base) >= pone_chance(a, b, base)
    # Known to win in the show: the pone needs 8 and holds 12, the dealer needs more than it pegs.
    assert pone_chance(8, 30, better) == pytest.approx(1.0)
    assert pone_chance(30, 4, Outlook(point(0), point(0), point(0), point(6), point(0))) == pytest.approx(0.0)


def test_a_seats_figure_reads_only_what_that_seat_may_know() -> None:
    # The same pone hand; two different dealer hands. The pone's figure cannot tell them apart.
    dealer_hands = ("5H 5C 6H JS QS 9C", "AC 2D 4H 8S 10D QC")
    figures = []
    for dealer in dealer_hands:
        state = at_discard("7D 8C 2S KH 3C 9S", dealer)
        state.apply(Discard(1, tuple(parse_cards("2S KH"))))
        got = seat_chances(view(state, 1))
        assert got is not None
        figures.append(got)
    assert figures[0] == figures[1]
    assert sum(figures[0]) == pytest.approx(1.0)


def test_the_pones_figure_moves_with_its_own_kept_hand() -> None:
    state_good = at_discard("5D 5C 5S JH 3C 9S", "AC 2D 4H 8S 10D QC")
    state_good.apply(Discard(1, tuple(parse_cards("3C 9S"))))  # keeps 5 5 5 J: at least 14
    state_poor = at_discard("5D 5C 5S JH 3C 9S", "AC 2D 4H 8S 10D QC")
    state_poor.apply(Discard(1, tuple(parse_cards("5S JH"))))  # keeps 5 5 3 9
    good, poor = _chance(view(state_good, 1), 1), _chance(view(state_poor, 1), 1)
    assert good > poor
    # Before laying away, the whole hand is still to come, unknown.
    fresh = at_discard("5D 5C 5S JH 3C 9S", "AC 2D 4H 8S 10D QC")
    assert _chance(view(fresh, 1), 1) == pytest.approx(pone_chance(121, 121, whole_hand()))
    assert _chance(view(fresh, 1), 1) == pytest.approx(win_chance(121, 121), abs=0.005)


def _chance(v: object, seat: int) -> float:
    got = seat_chances(v)  # type: ignore[arg-type]
    assert got is not None
    return got[seat]


def test_a_game_to_61_reads_its_own_target() -> None:
    from cribbage.match import Match

    short = Match(seed=5, humans=(), rules=Rules(target=61))
    long = Match(seed=5, humans=())
    assert short.view(0).rules.target == 61
    # Before the cut for deal: even; a game to 61 at 0-0 is nearer its end than a game to 121.
    assert seat_chances(short.view(0)) == seat_chances(long.view(0)) == (0.5, 0.5)
    assert seat_chances(Match(seed=5, humans=(), rules=Rules(players=3)).view(0)) is None


def test_only_two_player_six_card_tables_are_supported() -> None:
    assert supports(CLASSIC) and supports(Rules(target=61)) and supports(Rules(muggins=True))
    assert not supports(Rules(players=3)) and not supports(Rules(players=4)) and not supports(Rules(crib_from_pack=2))


def test_every_view_of_a_whole_match_has_chances_that_add_up() -> None:
    from cribbage.ai import make_player
    from cribbage.match import Match

    match = Match(seed=31, humans=())
    players = [make_player("greedy", 1), make_player("greedy", 2)]
    seen = set()
    while not match.state.is_over:
        seat = match.state.actors()[0]
        for s in (0, 1):
            a, b = _chance(match.view(s), 0), _chance(match.view(s), 1)
            assert 0.0 <= a <= 1.0 and a + b == pytest.approx(1.0)
        seen.add(str(match.state.phase))
        match.apply(players[seat].choose(match.view(seat)))
    assert seat_chances(match.view(0)) in ((1.0, 0.0), (0.0, 1.0))
    assert {"cut for deal", "discard", "play", "show"} <= seen


def test_a_point_is_worth_more_near_the_end_and_reviews_carry_the_chance_given_away():
    from dataclasses import replace as _replace

    from cribbage.ai import make_player
    from cribbage.ai.coach import costliest, review_hand
    from cribbage.ai.winchance import point_value
    from cribbage.match import Match as _Match
    from cribbage.view import view as _view

    m = _Match(31, humans=(0,))
    players = [make_player("random", 1), make_player("expert", 2)]
    while m.state.hand_number < 4 and not m.state.is_over:
        seat = m.state.actors()[0]
        m.apply(players[seat].choose(m.view(seat)))
    v = _view(m.state, 0)
    values = [point_value(_replace(v, scores=(s, s))) for s in (10, 100, 119)]
    assert all(x is not None for x in values)
    assert 0 < values[0] < values[1] < values[2] < 0.5  # about 2%, 4% and 13% a point
    assert point_value(_view(_Match(1).state, 0)) is None  # before the deal
    reviews = [r for h in (1, 2, 3) for r in review_hand(m, 0, h)]
    lossy = [r for r in reviews if r.loss > 0.2]
    assert lossy and all(r.chance_loss is not None and r.chance_loss > 0 for r in lossy)
    assert all(r.chance_loss == 0 for r in reviews if r.loss == 0)
    top = costliest(m, 0)
    assert 1 <= len(top) <= 3
    assert [r.chance_loss for r in top] == sorted((r.chance_loss for r in top), reverse=True)
    assert top[0].chance_loss == max(r.chance_loss for r in reviews)

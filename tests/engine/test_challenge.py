"""Challenge a friend: the same deals whatever is played, the link's text, and the comparison."""

from __future__ import annotations

import pytest

from cribbage.actions import CutForDeal, CutPack, CutStarter, Discard
from cribbage.ai import make_player
from cribbage.challenge import PREFIX, Challenge, ChallengeError, compare, compare_steps
from cribbage.match import Match
from cribbage.rules import Rules


def play(match: Match, you: str, challenge: Challenge | None = None, hands: int = 99) -> Match:
    """Play ``match`` out: seat 0 by ``you``, seat 1 by the match's level; a challenge forces cuts."""
    players = {0: make_player(you, 11), 1: make_player(str(match.options.get("level", "expert")), 22)}
    while not match.state.is_over and match.state.hand_number <= hands:
        seat = match.state.actors()[0]
        legal = match.legal_actions(seat)
        forced = challenge.forced_cut(match.actions, legal) if challenge is not None else None
        match.apply(forced if forced is not None else players[seat].choose(match.view(seat)))
    return match


def dealt(match: Match, seat: int) -> list[tuple]:
    """The cards ``seat`` was dealt, hand by hand."""
    state = match.new_state()
    out = []
    for a in match.actions:
        if isinstance(a, Discard) and a.seat == seat:
            out.append(tuple(sorted(state.hands[seat])))
        state.apply(a)
    return out


@pytest.fixture(scope="module")
def original() -> Match:
    return play(Match(4242, humans=(0,), names=("Ann", "Computer"), options={"level": "medium"}), "expert")


def test_a_challenge_deals_the_same_cards_whatever_is_played(original: Match) -> None:
    ch = Challenge.from_match(original, "Ann")
    friend = play(ch.new_match("Bob"), "random", ch)
    n = min(len(dealt(original, 0)), len(dealt(friend, 0)))
    assert n >= 5
    assert dealt(original, 0)[:n] == dealt(friend, 0)[:n]
    assert dealt(original, 1)[:n] == dealt(friend, 1)[:n]
    # Without the forced cuts the deals part company (the test can fail).
    free = play(ch.new_match("Bob"), "random")
    assert dealt(free, 0)[:n] != dealt(original, 0)[:n]


def test_forced_cuts_are_the_originals_in_order(original: Match) -> None:
    ch = Challenge.from_match(original, "Ann")
    friend = play(ch.new_match("Bob"), "greedy", ch)
    cuts = [a for a in original.actions if isinstance(a, (CutForDeal, CutPack, CutStarter))]
    theirs = [a for a in friend.actions if isinstance(a, (CutForDeal, CutPack, CutStarter))]
    k = min(len(cuts), len(theirs))
    assert theirs[:k] == cuts[:k] and k > 5


def test_the_link_text_round_trips_and_refuses_damage(original: Match) -> None:
    ch = Challenge.from_match(original, "  Ann   the  first ")
    text = ch.encode()
    assert text.startswith(PREFIX) and len(text) < 4000
    assert all(c.isalnum() or c in "-_." for c in text)
    back = Challenge.decode(text)
    assert back.name == "Ann the first" and back.level == "medium" and back.seat == 0
    assert [str(a) for a in back.original.actions] == [str(a) for a in original.actions]
    friend = play(back.new_match("Bob"), "greedy", back)
    answered = Challenge.decode(back.answer(friend, "Bob").encode())
    assert answered.reply is not None and answered.reply_name == "Bob"
    assert answered.reply.actions == friend.actions
    for bad in ["", "c1.", "x1." + text[3:], text[:-40], text[:50] + "A" + text[51:], "c1.!!!!", "c1." + "A" * 70000]:
        with pytest.raises(ChallengeError):
            Challenge.decode(bad)


def test_only_a_person_against_the_computer_at_two_seats_is_a_challenge() -> None:
    with pytest.raises(ChallengeError):
        Challenge.from_match(Match(1, humans=(0, 1)), "A")
    with pytest.raises(ChallengeError):
        Challenge.from_match(Match(1, humans=(0,), rules=Rules(players=3)), "A")
    with pytest.raises(ChallengeError):
        Challenge.from_match(Match(1, humans=(0,)), "A")  # not started


def test_the_comparison_sets_the_hands_side_by_side(original: Match) -> None:
    ch = Challenge.from_match(original, "Ann")
    friend = play(ch.new_match("Bob"), "random", ch)
    cmp = compare(original, friend, 0)
    assert cmp.lines and cmp.lines[0].hand == 1
    assert len(cmp.lines) >= min(original.state.hand_number, friend.state.hand_number) - 1
    for line in cmp.lines:
        assert (
            len(line.dealt) == 6
            and set(line.discard[0]) <= set(line.dealt)
            and set(line.discard[1]) <= set(line.dealt)
        )
        assert (line.crib[0] is None) == (not line.you_deal) == (line.crib[1] is None)
    # Points add up: the last full line's score is the sum of the person's points to then.
    last = cmp.lines[-1]
    assert last.scores[0][0] == sum(line.total[0] for line in cmp.lines)
    # The random player discards differently from the expert somewhere: a difference is explained.
    diffs = [d for line in cmp.lines for d in line.differences]
    assert diffs and any(d.startswith("discard:") for d in diffs)
    assert cmp.winners[0] is not None and cmp.finals[0] == tuple(original.state.scores)
    # Two plays of the same rank peg the same: never a difference ("Q♥ against Q♣").
    plays = [d.split(": ", 1)[1].split(" (")[0] for d in diffs if d.startswith("play")]
    againsts = [d.split(") against ")[1].split(" (")[0] for d in diffs if d.startswith("play")]
    assert all(a[:-1] != b[:-1] for a, b in zip(plays, againsts))
    # Compared with itself: no differences.
    same = compare(original, original, 0)
    assert all(not line.differences for line in same.lines)


def test_the_comparison_in_steps_is_the_same_comparison_a_hand_at_a_time(original: Match) -> None:
    ch = Challenge.from_match(original, "Ann")
    friend = play(ch.new_match("Bob"), "random", ch)
    steps = compare_steps(original, friend, 0)
    taken = 0
    while True:
        try:
            next(steps)
            taken += 1
        except StopIteration as stop:
            stepped = stop.value
            break
    assert stepped == compare(original, friend, 0)
    assert taken == len(stepped.lines) > 1


def test_a_game_of_a_series_with_a_named_first_dealer_and_its_own_level_is_challenged_alike() -> None:
    # A series' later game names its first dealer (no cut for deal); the computer's level may be its seat's own.
    game = Match(77, humans=(0,), names=("Ann", "Computer"), options={"level": "expert", "levels": {"1": "easy"}},
                 first_dealer=1)
    game = play(game, "expert", hands=3)
    ch = Challenge.from_match(game, "Ann")
    assert ch.level == "easy"
    back = Challenge.decode(ch.encode())
    friend = back.new_match("Bob")
    assert friend.first_dealer == 1 and friend.options["level"] == "easy"
    friend = play(friend, "random", back, hands=3)
    n = min(len(dealt(game, 0)), len(dealt(friend, 0)))
    assert n >= 2 and dealt(friend, 0)[:n] == dealt(game, 0)[:n]
    assert compare(game, friend, 0).lines
    with pytest.raises(ChallengeError):
        ch.answer(play(Match(77, humans=(0,), options={"level": "easy"}), "random", hands=1), "Bob")

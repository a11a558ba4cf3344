"""A plain, sensible computer player for every table, and the computer's counting under muggins.

The levels (easy, medium, expert) play every table with the coach (one-card crib tables, the search
over the hidden hands at three and four: :mod:`.table_play`); :class:`~.players.TablePlayer` (``table``) is a
plainer reference player for any table: it keeps the four with the best average show over the starters it cannot see
(the card laid away nudged by whose crib it feeds) and pegs greedily: the most points now, then
the count that gives the next player least (not 5 or 21, which a ten-card turns into 15 or 31).
It sees only its :class:`~cribbage.view.SeatView`, like every player.

With muggins, a computer player counts its own hand and crib (:func:`claim_for`) and calls muggins
when a claim missed points or overmarked them (:func:`claim_error`), from the cards that lie face up
on the table. With muggins in the play it claims each card it lays (:func:`play_claim_for`) and calls
on another side's card (:func:`call_in_play`, asked of every computer seat in :attr:`SeatView.callers`
after each claim, in turn or not). It never over-claims.
How faithfully is its :class:`Habits`: the expert (and the plain reference players) count exactly
and call every miss; ``medium`` and ``easy`` now and then overlook one scoring item of their own
count (a fifteen, a pair, a run, the flush or his nobs) and let some short claims stand, so a
player has something to call and to practise on (:data:`LEVEL_HABITS`, also in the README).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import Action, Count, Muggins, Pass
from ..cards import Card
from ..rules import KEPT
from ..scoring import LAST_CARD_POINTS, PLAY_LIMIT, HandScore, score_hand, score_play
from ..view import SeatView

__all__ = ["Habits", "EXACT", "LEVEL_HABITS", "claim_for", "missed_by_claim", "crib_card_value",
           "muggins_choice", "claim_error", "play_claim_for", "call_in_play", "open_play_claim_truth"]


@dataclass(frozen=True)
class Habits:
    """How a computer player counts under muggins.

    ``miss`` is the chance that a count holding points is claimed one scoring item short;
    ``call`` the chance that a claim short of its count is called (muggins), else let stand."""

    miss: float = 0.0
    call: float = 1.0


EXACT = Habits()
"""Count exactly, call every miss: the expert and the reference players."""

LEVEL_HABITS: dict[str, Habits] = {
    "easy": Habits(miss=0.25, call=0.5),
    "medium": Habits(miss=0.10, call=0.8),
    "expert": EXACT,
}
"""Each level's habits (the README's muggins section quotes these figures)."""


def crib_card_value(rank: int) -> float:
    """Roughly what one card laid away adds to a crib beyond an average card: fives most, then
    the cards that make fifteens and runs with them."""
    return {5: 1.2, 7: 0.3, 8: 0.3, 2: 0.2, 3: 0.2, 4: 0.2, 6: 0.2}.get(rank, 0.0)


def _count_due(view: SeatView) -> HandScore:
    assert view.starter is not None
    if view.show_step >= view.rules.players:
        return score_hand(view.crib, view.starter, crib=True)
    return score_hand(view.kept, view.starter)


def claim_for(view: SeatView) -> int:
    """What the count due from this seat holds (its hand, or the crib it owns)."""
    return _count_due(view).total


def missed_by_claim(view: SeatView) -> int:
    """Points the pending claim left out (0 if none, or nothing is pending)."""
    return max(0, -claim_error(view))


def claim_error(view: SeatView) -> int:
    """How far the pending claim is from the truth, from the cards face up on the table: above 0 an
    over-claim (to put back), below 0 points missed (to take); 0 if right or nothing is pending."""
    if view.claim is None:
        return 0
    seat, claimed = view.claim
    if view.claim_what == "play":
        return claimed - open_play_claim_truth(view)
    if view.starter is None:
        return 0
    last = [e for e in view.events if e.kind in ("show hand", "show crib")][-1]
    cards = tuple(c for c in last.cards[:-1])
    actual = score_hand(cards, view.starter, crib=last.kind == "show crib").total
    return claimed - actual


def open_play_claim_truth(view: SeatView) -> int:
    """What the card of the open claim in the play scored (its count's cards are face up: the card is
    the last laid, in the count in progress or the one just ended; the last card of the play scores 1)."""
    claim_event = next(e for e in reversed(view.events) if e.claim and e.kind == "play")
    card = claim_event.cards[0]
    pile = [c for _, c in view.pile]
    count = pile if pile and pile[-1] == card else [c for _, c in view.played[-1]]
    laid = len(view.pile) + sum(len(p) for p in view.played)
    items = score_play(count)
    points = sum(i.points for i in items)
    if laid == view.rules.players * KEPT and sum(c.value for c in count) != PLAY_LIMIT:
        points += LAST_CARD_POINTS
    return points


def play_claim_for(view: SeatView, card: Card, rng: random.Random | None = None,
                   habits: Habits = EXACT) -> int:
    """What this seat claims for laying ``card`` (muggins in the play): what it scores, or now and then
    (``habits.miss``) one scoring item short. Never more than it scores."""
    due = view.play_points(card)
    if rng is not None and habits.miss > 0 and due > 0 and rng.random() < habits.miss:
        items = [i.points for i in score_play([*(c for _, c in view.pile), card])]
        if due > sum(items):
            items.append(LAST_CARD_POINTS)
        return due - rng.choice(items)
    return due


def call_in_play(view: SeatView, habits: Habits = EXACT) -> Muggins | None:
    """Muggins in the play: whether this seat calls muggins on the open claim (a card just laid), in
    turn or not. Exact habits call every miss and every over-claim; weaker ones let some stand.

    The decision is a function of the view (its draw is seeded by the claim itself), so asking again
    about the same claim — from the driver's call round or the seat's own turn — gives the same answer
    and a weaker level's chance of calling is never drawn twice."""
    if view.claim_what != "play" or view.claim is None or view.seat not in view.callers:
        return None
    if not claim_error(view):
        return None
    if habits.call < 1:
        claims = sum(1 for e in view.events if e.claim)
        key = f"call {view.seat} {view.hand_number} {claims} {view.claim} {view.scores} {view.pile} {view.played}"
        if random.Random(key).random() >= habits.call:
            return None
    return Muggins(view.seat)


def muggins_choice(view: SeatView, rng: random.Random | None = None,
                   habits: Habits = EXACT) -> Action | None:
    """With muggins: this seat's claim when it counts, muggins or a pass after a claim.

    With :data:`EXACT` habits (or no ``rng``) the claim is exact and every miss is called; otherwise
    ``rng`` draws the slips ``habits`` allow: a claim one scoring item short, a miss let stand."""
    legal = view.legal_actions
    if not legal:
        return None
    first = legal[0]
    if isinstance(first, Count) and first.claim is not None:
        due = _count_due(view)
        if rng is not None and habits.miss > 0 and due.items and rng.random() < habits.miss:
            overlooked = rng.choice(due.items)
            return Count(view.seat, due.total - overlooked.points)
        return Count(view.seat, due.total)
    if isinstance(first, (Muggins, Pass)) and view.claim_what != "play":
        if not claim_error(view):
            return Pass(view.seat)
        if rng is not None and habits.call < 1 and rng.random() >= habits.call:
            return Pass(view.seat)
        return Muggins(view.seat)
    return None

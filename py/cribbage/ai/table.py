"""A plain, sensible computer player for every table, and the computer's counting under muggins.

The levels (easy, medium, expert) play every table with the coach (one-card crib tables, the search
over the hidden hands at three and four: :mod:`.table_play`); :class:`TablePlayer` (``table``) is a
plainer reference player for any table: it keeps the four with the best average show over the starters it cannot see
(the card laid away nudged by whose crib it feeds) and pegs greedily: the most points now, then
the count that gives the next player least (not 5 or 21, which a ten-card turns into 15 or 31).
It sees only its :class:`~cribbage.view.SeatView`, like every player.

With muggins, every computer player counts its own hand and crib exactly (:func:`claim_for`) and
calls muggins exactly when a claim missed points (:func:`missed_by_claim`), from the cards that lie
face up on the table.
"""

from __future__ import annotations

import random

from ..actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play
from ..scoring import score_hand
from ..view import SeatView
from .discards import hand_ev, keeps, starters_for
from .pegging import peg_points

__all__ = ["TablePlayer", "claim_for", "missed_by_claim", "crib_card_value"]


def crib_card_value(rank: int) -> float:
    """Roughly what one card laid away adds to a crib beyond an average card: fives most, then
    the cards that make fifteens and runs with them."""
    return {5: 1.2, 7: 0.3, 8: 0.3, 2: 0.2, 3: 0.2, 4: 0.2, 6: 0.2}.get(rank, 0.0)


def claim_for(view: SeatView) -> int:
    """What the count due from this seat holds (its hand, or the crib it owns)."""
    assert view.starter is not None
    if view.show_step >= view.rules.players:
        return score_hand(view.crib, view.starter, crib=True).total
    return score_hand(view.kept, view.starter).total


def missed_by_claim(view: SeatView) -> int:
    """Points the pending claim left out (0 if none, or nothing is pending)."""
    if view.claim is None or view.starter is None:
        return 0
    seat, claimed = view.claim
    last = [e for e in view.events if e.kind in ("show hand", "show crib")][-1]
    cards = tuple(c for c in last.cards[:-1])
    actual = score_hand(cards, view.starter, crib=last.kind == "show crib").total
    return max(0, actual - claimed)


class TablePlayer:
    """Best average hand, then greedy pegging: any table, any seat."""

    name = "table"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        """Pick a legal action for this view."""
        legal = view.legal_actions
        if not legal:
            raise ValueError("this seat has nothing to do now")
        first = legal[0]
        if isinstance(first, (CutForDeal, CutPack, CutStarter)):
            lo, hi = view.cut_depths
            return type(first)(view.seat, self.rng.randint(lo, hi))
        special = muggins_choice(view)
        if special is not None:
            return special
        if len(legal) == 1:
            return first
        if isinstance(first, Discard):
            return self.discard(view)
        return self.play(view)

    def discard(self, view: SeatView) -> Action:
        """Keep the four with the best average show; the card laid away feeds the crib."""
        starters = starters_for(view.hand)
        dealer = view.dealer
        mine = dealer is not None and view.rules.side_of(dealer) == view.side
        sign = 1.0 if mine else -1.0
        scored = []
        for away, keep in keeps(view.hand):
            value = hand_ev(keep, starters) + sign * sum(crib_card_value(int(c.rank)) for c in away)
            scored.append((value, self.rng.random(), away))
        return Discard(view.seat, max(scored)[2])

    def play(self, view: SeatView) -> Action:
        """The most points now; then a count the next player can least use."""
        tail = tuple(int(c.rank) for _, c in view.pile)
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        if not plays:
            return Go(view.seat)
        scored = []
        for a in plays:
            count = view.count + a.card.value
            risk = 1.0 if count in (5, 21) else 0.0
            scored.append((peg_points(tail, int(a.card.rank)) - risk, a.card.value, self.rng.random(), a))
        return max(scored, key=lambda t: (t[0], t[1], t[2]))[3]

    def __repr__(self) -> str:
        return "<TablePlayer 'table'>"


def muggins_choice(view: SeatView) -> Action | None:
    """With muggins: the exact claim when this seat counts, muggins or a pass after a claim."""
    legal = view.legal_actions
    if not legal:
        return None
    first = legal[0]
    if isinstance(first, Count) and first.claim is not None:
        return Count(view.seat, claim_for(view))
    if isinstance(first, (Muggins, Pass)):
        return Muggins(view.seat) if missed_by_claim(view) else Pass(view.seat)
    return None

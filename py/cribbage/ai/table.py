"""A plain, sensible computer player for every table, and the computer's counting under muggins.

The levels (easy, medium, expert) play every table with the coach (one-card crib tables, the search
over the hidden hands at three and four: :mod:`.table_play`); :class:`~.players.TablePlayer` (``table``) is a
plainer reference player for any table: it keeps the four with the best average show over the starters it cannot see
(the card laid away nudged by whose crib it feeds) and pegs greedily: the most points now, then
the count that gives the next player least (not 5 or 21, which a ten-card turns into 15 or 31).
It sees only its :class:`~cribbage.view.SeatView`, like every player.

With muggins, every computer player counts its own hand and crib exactly (:func:`claim_for`) and
calls muggins exactly when a claim missed points (:func:`missed_by_claim`), from the cards that lie
face up on the table.
"""

from __future__ import annotations

from ..actions import Action, Count, Muggins, Pass
from ..scoring import score_hand
from ..view import SeatView

__all__ = ["claim_for", "missed_by_claim", "crib_card_value", "muggins_choice"]


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

"""The Go audit of a match at three or four seats: a second match with every card known replays each
action once every card of its pack's hands is open here, so the engine judges every Go (and every move)
of every seat (:func:`replay_open`; the game is :mod:`.table_game`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..actions import Action, Discard, Go
from ..deal import OpenedPacks
from ..match import Match
from ..state import IllegalActionError
from .errors import ProtocolError
from .table_deal import PackDeal

__all__ = ["replay_open"]


def replay_open(probe: Match, source: OpenedPacks, history: Sequence[tuple[int, Action]], audited: int,
                packs: Mapping[int, PackDeal]) -> int:
    """Apply ``history[audited:]`` (pack, action) to ``probe`` (whose packs are ``source``) while each
    action's pack has every hand open here; returns how many are audited now. A move the rules refuse with
    every card known (a false Go: the sayer held a card that fitted) raises :class:`ProtocolError` with the
    seat, the count and the cards."""
    while audited < len(history):
        k, action = history[audited]
        p = packs[k]
        assert p.layout is not None
        if any(s not in p.cards for hand in p.layout.hands for s in hand):
            return audited
        if source.current >= 0:
            source.packs[source.current].update(p.cards)
        if isinstance(action, Discard) and not action.cards:
            action = Discard(action.seat, tuple(p.cards[s] for s in p.discards[action.seat]))
        st = probe.state
        try:
            probe.apply(action)
        except IllegalActionError as exc:
            what = (f"said Go at the count of {st.count} while holding "
                    f"{' '.join(c.code for c in st.playable(action.seat))}, which fitted"
                    if isinstance(action, Go) else f"made the move '{action}', which the rules refuse ({exc})")
            raise ProtocolError(f"the audit of hand {k + 1}: seat {action.seat + 1} {what}") from exc
        audited += 1
    return audited

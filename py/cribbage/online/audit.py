"""The Go audit of an online match: replay every action through the engine with every card known here,
so the engine judges each Go (and every move) once the sayer's cards are open (:func:`audit_work`). A
false Go, or any move the rules refuse with all cards known, raises :class:`~.errors.AuditFailure`
with the evidence."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Count, Discard, Go
from ..cards import Card
from ..deal import OpenedPacks
from ..match import Match
from ..rules import Rules
from ..state import IllegalActionError, Phase, other
from .errors import AuditFailure
from .group import Work
from .records import PackRecord

__all__ = ["REPLAY_SLICE", "audit_work"]

REPLAY_SLICE = 20
"""Actions the Go audit's replay applies between two yields (each slice a few milliseconds)."""


def audit_work(seat: int, rules: Rules, actions: Sequence[Action], packs: Sequence[dict[int, Card]],
               records: Sequence[PackRecord]) -> Work[None]:
    """Replay ``actions`` (the match seen from ``seat``) with the cards of ``packs`` known here and the
    slots each seat laid away (``records``)."""
    them = other(seat)
    full: list[dict[int, Card]] = [dict(known) for known in packs]
    source = OpenedPacks(full)
    probe = Match(0, humans=(seat,), source=source, declare_go=True, rules=rules)
    for i, action in enumerate(actions):
        j = source.current
        if isinstance(action, Discard) and not action.cards:
            slots = records[j].discard_slots[action.seat] or []
            laid_away = [full[j][s] for s in slots if s in full[j]]
            if slots and len(laid_away) == len(slots):
                action = Discard(action.seat, tuple(laid_away))
        if i % REPLAY_SLICE == REPLAY_SLICE - 1:
            yield
        st = probe.state
        if isinstance(action, Count) and st.show_step == 2 and st.crib_unseen:
            rec = records[j]
            crib = [full[j].get(s) for s in [*st.crib_slots, *(s for seat in (0, 1)
                                                               for s in rec.discard_slots[seat] or [])]]
            if all(c is not None for c in crib):
                st.reveal_crib([c for c in crib if c is not None])
        try:
            probe.apply(action)
        except IllegalActionError as exc:
            who = "the other player" if action.seat == them else "this browser"
            if isinstance(action, Go) and st.phase is Phase.PLAY:
                fits = st.playable(action.seat)
                what = (f"said Go at the count of {st.count} while holding "
                        f"{' '.join(c.code for c in fits)}, which fitted")
            else:
                what = f"played '{action}', which the rules refuse with every card known ({exc})"
            raise AuditFailure(
                f"pack {j + 1}: {who} {what} (action {i + 1} of the match)",
                {"pack": j, "action": str(action), "index": i, "seat": action.seat, "reason": str(exc)},
            ) from exc

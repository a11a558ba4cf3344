"""The table's fair-deal line: the fingerprint of the commitment to the match's deals, shown before the
first cut, and what was committed, revealed when the match is over (:mod:`cribbage.fairness`)."""

from __future__ import annotations

from dataclasses import dataclass

from cribbage.fairness import fingerprint
from cribbage.match import Match

__all__ = ["FairLine", "fair_line"]


@dataclass(frozen=True)
class FairLine:
    """What the table says of a committed match."""

    fingerprint: str
    """``"f980 7e4f 9904 bc53"``: the first 64 bits of the commitment."""
    seed: int | None = None
    """Revealed when the match is over (None before)."""
    nonce: str | None = None
    """Revealed with the seed."""


def fair_line(match: Match) -> FairLine | None:
    """The line of a committed match (None: not committed, e.g. hot-seat, online, an older save)."""
    commit = match.commitment
    if commit is None:
        return None
    if match.state.is_over:
        return FairLine(fingerprint(commit), match.seed, match.nonce)
    return FairLine(fingerprint(commit))

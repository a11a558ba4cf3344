"""The actions a player takes, as small frozen values that print and parse themselves.

A match is its seed plus the list of these actions, so each has a short text form used in saves and
on the command line: ``"discard 0 5H 6D"``, ``"play 1 TD"``, ``"go 0"``, ``"starter 1 17"``; with
muggins ``"count 2 12"`` (a claim), ``"muggins 0"`` and ``"pass 1"``; with muggins in the play
``"play 1 5H 2"`` (the card and the points claimed for it). Seats are 0 to 3 (0 and 1 at the
classic table). A cut's ``depth`` is how many cards are lifted off the top of the pack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .cards import Card, CardError, parse_card

__all__ = [
    "CutForDeal",
    "CutPack",
    "Discard",
    "CutStarter",
    "Play",
    "Go",
    "Count",
    "Muggins",
    "Pass",
    "Action",
    "parse_action",
    "ActionError",
]


class ActionError(ValueError):
    """An action string that cannot be read."""


HIDDEN = "hidden"
"""How a discard of unseen cards is written: ``"discard 1 hidden"``."""


@dataclass(frozen=True, slots=True)
class CutForDeal:
    """Cut the shuffled pack to show a card; the lower card deals first."""

    seat: int
    depth: int
    """Cards lifted off the top; the card shown is the next one."""

    def __str__(self) -> str:
        return f"cutdeal {self.seat} {self.depth}"


@dataclass(frozen=True, slots=True)
class CutPack:
    """The pone cuts the dealer's shuffled pack before the deal."""

    seat: int
    depth: int

    def __str__(self) -> str:
        return f"cut {self.seat} {self.depth}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay cards away, face down, into the dealer's crib (two at the classic table, else one)."""

    seat: int
    cards: tuple[Card, ...]
    """The cards laid away; empty for a discard this browser may not see (online: the opponent's)."""

    def __str__(self) -> str:
        if not self.cards:
            return f"discard {self.seat} {HIDDEN}"
        return f"discard {self.seat} {' '.join(str(c) for c in self.cards)}"


@dataclass(frozen=True, slots=True)
class CutStarter:
    """The pone cuts the remaining 40 cards; the top card of the lower part is the starter."""

    seat: int
    depth: int

    def __str__(self) -> str:
        return f"starter {self.seat} {self.depth}"


@dataclass(frozen=True, slots=True)
class Play:
    """Lay a card in the play, adding its value to the count. With muggins in the play the player
    says what laying it scores: ``claim`` (None without it)."""

    seat: int
    card: Card
    claim: int | None = None
    """The points claimed for laying the card (muggins in the play only: fifteen, 31, pairs, runs
    and the last card; never the go)."""

    def __str__(self) -> str:
        if self.claim is None:
            return f"play {self.seat} {self.card}"
        return f"play {self.seat} {self.card} {self.claim}"


@dataclass(frozen=True, slots=True)
class Go:
    """Say Go: the player holds cards but none keeps the count at 31 or less."""

    seat: int

    def __str__(self) -> str:
        return f"go {self.seat}"


@dataclass(frozen=True, slots=True)
class Count:
    """In the show, count the next hand (from the dealer's left round to the dealer, then the crib)
    and peg it. With muggins the player says what it holds: ``claim`` (None without muggins)."""

    seat: int
    claim: int | None = None
    """The points claimed (muggins only: the engine does not count for the player)."""

    def __str__(self) -> str:
        return f"count {self.seat}" if self.claim is None else f"count {self.seat} {self.claim}"


@dataclass(frozen=True, slots=True)
class Muggins:
    """With muggins, just after a claim: take the points it missed, or put back an over-claim and
    peg the overage (nothing if the claim was right). In the play any seat of another side may call
    it before the next card is laid or Go is said, even out of turn."""

    seat: int

    def __str__(self) -> str:
        return f"muggins {self.seat}"


@dataclass(frozen=True, slots=True)
class Pass:
    """With muggins, just after a claim: let it stand without calling muggins."""

    seat: int

    def __str__(self) -> str:
        return f"pass {self.seat}"


Action = Union[CutForDeal, CutPack, Discard, CutStarter, Play, Go, Count, Muggins, Pass]


def parse_action(text: str) -> Action:
    """Read the text form of an action (the inverse of ``str(action)``)."""
    if not isinstance(text, str):
        raise ActionError(f"not an action: {text!r}")
    parts = text.split()
    if len(parts) < 2:
        raise ActionError(f"not an action: {text!r}")
    verb, seat_text, rest = parts[0].lower(), parts[1], parts[2:]
    if seat_text not in ("0", "1", "2", "3"):
        raise ActionError(f"not an action: {text!r} (seat must be 0 to 3)")
    seat = int(seat_text)
    try:
        if verb in ("cutdeal", "cut", "starter") and len(rest) == 1 and rest[0].isdigit():
            depth = int(rest[0])
            if verb == "cutdeal":
                return CutForDeal(seat, depth)
            return CutPack(seat, depth) if verb == "cut" else CutStarter(seat, depth)
        if verb == "discard" and len(rest) in (1, 2) and rest != [HIDDEN]:
            return Discard(seat, tuple(parse_card(r) for r in rest))
        if verb == "discard" and rest == [HIDDEN]:
            return Discard(seat, ())
        if verb == "play" and len(rest) == 1:
            return Play(seat, parse_card(rest[0]))
        if verb == "play" and len(rest) == 2 and rest[1].isdigit() and len(rest[1]) <= 2:
            return Play(seat, parse_card(rest[0]), int(rest[1]))
        if verb == "go" and not rest:
            return Go(seat)
        if verb == "count" and not rest:
            return Count(seat)
        if verb == "count" and len(rest) == 1 and rest[0].isdigit() and len(rest[0]) <= 2:
            return Count(seat, int(rest[0]))
        if verb == "muggins" and not rest:
            return Muggins(seat)
        if verb == "pass" and not rest:
            return Pass(seat)
    except CardError as exc:
        raise ActionError(f"not an action: {text!r} ({exc})") from exc
    raise ActionError(f"not an action: {text!r}")

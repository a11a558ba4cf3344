"""Where the cards of each shuffled pack come from: a seed, or a protocol that opens them one by one.

Each shuffle of a match is a *pack* of 52 **slots** (slot 0 is the top card of the shuffled pack).
The state machine (:mod:`cribbage.state`) cuts, deals and turns up *slots*; a :class:`PackSource`
says which card lies in a slot, or ``None`` when this state may not know it.

- :class:`SeededPacks`: the local modes. Every pack is shuffled from the match's seed by our own
  generator, so a seed deals the same cards on every Python; all slots are known.
- :class:`OpenedPacks`: online play. Nobody knows the order of the pack; the mental-poker deal
  (:mod:`cribbage.online`) opens a slot only for the browser the rules allow, and tells it here with
  :meth:`OpenedPacks.learn`. Unknown slots stay unknown, so the opponent's hand is a count.
  Everything learned is kept per pack, so a state can be rebuilt by replaying its actions, and a
  list of complete packs replays a match with full knowledge (the end-of-hand audit).
"""

from __future__ import annotations

from typing import Iterable, Iterator, Protocol, Sequence

from .cards import DECK, Card
from .rng import Rng

__all__ = ["PackSource", "SeededPacks", "OpenedPacks", "PACK_SIZE"]

PACK_SIZE = 52
"""Slots in a pack."""


class PackSource(Protocol):
    """The supply of shuffled packs a match draws on."""

    def shuffle(self) -> None:
        """Begin the next pack of the match (a new deal, or a recut for first deal)."""

    def card(self, slot: int) -> Card | None:
        """The card in ``slot`` of the current pack, or None if it is not known here."""


class SeededPacks:
    """Packs shuffled from the match's seed (or taken from a stacked supply, for tests)."""

    def __init__(self, seed: int, stacked: Iterable[Sequence[Card]] | None = None) -> None:
        self._rng = Rng(seed)
        # A stacked supply (tests, teaching positions): each shuffle takes the next pack in order
        # instead of shuffling, until the supply runs out.
        self._stacked: Iterator[Sequence[Card]] | None = iter(stacked) if stacked is not None else None
        self._pack: list[Card] = []

    def shuffle(self) -> None:
        pack = next(self._stacked, None) if self._stacked is not None else None
        if pack is not None:
            if sorted(pack) != sorted(DECK):
                raise ValueError("a stacked pack must hold each of the 52 cards once")
            self._pack = list(pack)
            return
        self._pack = list(DECK)
        self._rng.shuffle(self._pack)

    def card(self, slot: int) -> Card:
        return self._pack[slot]

    def __repr__(self) -> str:
        return "<SeededPacks>"  # never the order of the pack


class OpenedPacks:
    """Packs whose cards are learned slot by slot, as the online deal opens them for this browser."""

    def __init__(self, known: Iterable[dict[int, Card]] | None = None) -> None:
        self.packs: list[dict[int, Card]] = [dict(p) for p in known] if known is not None else []
        """Per pack of the match, in order: the slots opened here and their cards."""
        self.current = -1
        """Index in :attr:`packs` of the pack in play (-1 before the first shuffle)."""

    def shuffle(self) -> None:
        self.current += 1
        if self.current == len(self.packs):
            self.packs.append({})

    def card(self, slot: int) -> Card | None:
        if self.current < 0:
            return None
        return self.packs[self.current].get(slot)

    def learn(self, slot: int, card: Card) -> None:
        """Record that ``slot`` of the current pack holds ``card``; a contradiction is refused."""
        if self.current < 0:
            raise ValueError("no pack has been shuffled yet")
        if not (isinstance(slot, int) and 0 <= slot < PACK_SIZE) or isinstance(slot, bool):
            raise ValueError(f"there is no slot {slot!r} in a pack")
        if not isinstance(card, Card):
            raise ValueError(f"not a card: {card!r}")
        pack = self.packs[self.current]
        held = pack.get(slot)
        if held is not None and held != card:
            raise ValueError(f"slot {slot} already holds {held}, not {card}")
        for other_slot, other_card in pack.items():
            if other_card == card and other_slot != slot:
                raise ValueError(f"{card} is already in slot {other_slot} of this pack")
        pack[slot] = card

    def __repr__(self) -> str:
        return f"<OpenedPacks pack {self.current + 1} of {len(self.packs)}>"

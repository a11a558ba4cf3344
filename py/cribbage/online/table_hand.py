"""One pack of a table's proven deal (:mod:`.table_deal`): where its slots go (:class:`Layout`,
:func:`hand_layout`), what one seat knows of it (:class:`PackDeal`), this seat's part of a round being
made a step at a time (:class:`DealJob`), the seeded draws of a shuffle (:func:`seeded_randbelow`) and
what a ``say`` may hold (:func:`plain`) and what every message kind holds (:data:`FIELDS`). Pure data
and functions: no I/O, no clock."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any, Callable

from ..cards import Card
from ..rules import Rules
from ..state import MIN_CUT
from .elgamal import Ciphertext
from .group import Element, Work
from .pack import PACK_SIZE
from .table_chain import Story

__all__ = ["KINDS", "FIELDS", "ENVELOPE_FIELDS", "Layout", "hand_layout", "seeded_randbelow", "plain", "cut_range",
           "PackDeal", "DealJob"]


FIELDS: dict[str, frozenset[str]] = {
    "key": frozenset({"share", "proof"}),
    "shuffle": frozenset({"cards", "proof"}),
    "cut": frozenset({"depth"}),
    "deal": frozenset({"shares", "proof"}),
    "discard": frozenset({"slots"}),
    "starter": frozenset({"depth"}),
    "turn": frozenset({"shares", "proof"}),
    "lay": frozenset({"slot", "shares", "proof"}),
    "say": frozenset({"value"}),
    "crib": frozenset({"shares", "proof"}),
    "reveal": frozenset({"shares", "proof"}),
    "ack": frozenset(),
    "abort": frozenset({"reason"}),
}
KINDS = frozenset(FIELDS)
"""Every message kind (``t``) of a table deal."""
ENVELOPE_FIELDS = frozenset({"t", "p", "r", "from", "h"})


@dataclass(frozen=True)
class Layout:
    """Where the cards of a pack cut at ``depth`` go (slots of the proven pack)."""

    hands: tuple[tuple[int, ...], ...]
    """Seat -> the slots dealt to it."""
    crib_pack: tuple[int, ...]
    """The crib's cards from the pack (one at three players)."""
    rest: tuple[int, ...]
    """The undealt slots, in order: the starter is cut from them."""

    def owner(self, slot: int) -> int | None:
        return next((s for s, hand in enumerate(self.hands) if slot in hand), None)


def hand_layout(rules: Rules, dealer: int, depth: int) -> Layout:
    """The deal of :class:`~cribbage.state.GameState` (its ``_deal``) on a fresh pack of slots 0..51 cut at
    ``depth``: one card at a time clockwise from the dealer's left, then the crib's cards from the pack."""
    pack = list(range(depth, PACK_SIZE)) + list(range(depth))
    n = rules.players
    order = rules.order_from(rules.left_of(dealer))
    dealt: list[list[int]] = [[] for _ in range(n)]
    for i in range(n * rules.hand_size):
        dealt[order[i % n]].append(pack[i])
    first = n * rules.hand_size
    return Layout(tuple(tuple(d) for d in dealt), tuple(pack[first:first + rules.crib_from_pack]),
                  tuple(pack[rules.dealt:]))


def seeded_randbelow(seed: bytes, context: Callable[[], bytes] = bytes) -> Callable[[int], int]:
    """``randbelow`` drawing from ``seed``: the ``i``-th draw below ``n`` takes the top bits of
    HMAC-SHA256(seed, context ‖ i ‖ j) for j = 0, 1… (as many blocks as ``n`` needs) and tries again
    above ``n`` (rejection sampling: uniform). ``context()`` is the hash of everything this seat did and
    took before the draw (:class:`TableDeal`): the same history gives the same draws (a reload makes
    the same messages), and a history that differs after a reload (the player chose another card)
    gives other draws, so no proof's nonce is ever used for two statements (which would give the
    key away: ``s − s' = (c − c')·x``)."""
    counter = [0]

    def randbelow(n: int) -> int:
        if type(n) is not int or n <= 0:
            raise ValueError("randbelow needs a positive bound")
        bits = n.bit_length()
        size = (bits + 7) // 8
        while True:
            i = counter[0]
            counter[0] += 1
            where = context()
            data = b"".join(hmac.new(seed, where + i.to_bytes(8, "big") + j.to_bytes(4, "big"), hashlib.sha256).digest()
                            for j in range((size + 31) // 32))
            x = int.from_bytes(data[:size], "big") >> (8 * size - bits)
            if x < n:
                return x

    return randbelow


def plain(value: object, depth: int = 0) -> bool:
    """Whether ``value`` is plain JSON every seat reads alike: text, whole numbers, booleans, null, and lists
    and objects (text keys) of them, at most 8 deep; no fractions (1.0 and 1 could come back unequal)."""
    if value is None or isinstance(value, (str, bool)):
        return True
    if isinstance(value, int):
        return abs(value) < 1 << 53
    if depth >= 8:
        return False
    if isinstance(value, list):
        return all(plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v, depth + 1) for k, v in value.items())
    return False


def cut_range(size: int) -> range:
    return range(MIN_CUT, size - MIN_CUT + 1)


@dataclass
class PackDeal:
    """One pack's story and what this seat knows of it."""

    index: int
    dealer: int
    story: Story
    decks: list[list[Ciphertext]] = field(default_factory=list)
    """decks[s]: the list after seat ``s``'s shuffle (proven, or made here); decks[-1] is the pack once all shuffled."""
    layout: Layout | None = None
    shares: dict[int, dict[int, Element]] = field(default_factory=dict)
    """Slot -> seat -> that seat's proven decryption share (this seat's own only once it sent it)."""
    cards: dict[int, Card] = field(default_factory=dict)
    """Slot -> the card, for every slot opened here."""
    discards: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Seat -> the slots it laid away to the crib."""
    laid: dict[int, list[int]] = field(default_factory=dict)
    """Seat -> the slots it laid in the play, in order."""
    starter: int | None = None
    """The starter's slot once cut."""
    said: list[tuple[int, object]] = field(default_factory=list)
    """(seat, value) of every ``say``, in the story's order."""
    log: list[tuple[int, str]] = field(default_factory=list)
    """(seat, kind) of every message taken in, in the story's order (the game replays from it)."""
    phase: str = "shuffle"
    """``shuffle``, ``cut``, ``deal``, ``discard``, ``starter``, ``turn``, ``play`` (rounds opened by the
    game), ``crib``, ``reveal``."""
    shown: bool = False
    revealed: bool = False
    acts: dict[int, tuple[str, object]] = field(default_factory=dict)
    """Seat -> its action (``lay`` and the slot, or ``say`` and the value) in the round open, proven."""
    crib_open: bool = False
    """The crib's round is done: every discard is public."""
    intent: tuple[str, dict[str, Any]] | None = None
    """This seat's message (kind, fields) waiting for its round to be usable (a cut, a discard, a card laid...)."""
    mine: dict[int, Element] = field(default_factory=dict)
    """Slot -> this seat's own decryption share, computed ahead (never sent from here: :attr:`shares` holds
    what was sent)."""

    @property
    def pack(self) -> list[Ciphertext]:
        return self.decks[-1]


@dataclass
class DealJob:
    """This seat's part of a round of pack ``pack`` being made (a sliced deal), one step per
    :meth:`TableDeal.work_step`. ``kind`` ``shuffle``: its shuffle and proof, whose draws come from a seed of
    its own drawn when its round opened, so it makes the same message whenever its steps run (and again on a
    reload). Else a round of shares (``deal``, ``turn``, ``crib``, ``reveal``): this seat's shares of
    ``slots``, one at a time; their batched proof is made at the job's end."""

    pack: int
    kind: str
    work: Work[Any]
    slots: tuple[int, ...] = ()

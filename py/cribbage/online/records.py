"""This browser's bookkeeping of an online match: one :class:`PackRecord` per pack (its decks, the
shares sent and received, the slots laid and laid away) and the local move waiting for the other's
reply (:class:`Pending`). Kept by :class:`~cribbage.online.game.OnlineGame`, saved by
:mod:`.game_save`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from .elgamal import Ciphertext
from .group import Element

__all__ = ["PackRecord", "Pending"]


@dataclass
class PackRecord:
    """This browser's crypto and bookkeeping for one pack of the match."""

    first_seat: int
    """Who shuffles first (seat ``k % 2`` for pack ``k``: the first two packs are shuffled at once)."""
    start_action: int = -1
    """Index in the match's actions of the pack's first action (-1 until it is in play)."""
    deck1: list[Ciphertext] | None = None
    """The first shuffle, proven (or made here)."""
    deck2: list[Ciphertext] | None = None
    """The pack: the second shuffle, proven (or made here); 52 slots."""
    incoming: dict[str, Any] | None = None
    """A received shuffle waiting for its proof to be checked (as received)."""
    ready: bool = False
    """Both shuffles are proven, and both browsers know it: the pack may be cut."""
    shares_in: dict[int, Element] = field(default_factory=dict)
    """Slot -> the other's proven decryption share."""
    mine: dict[int, Element] = field(default_factory=dict)
    """Slot -> this browser's decryption share (computed for slots opened, sent or not)."""
    ahead: dict[int, Element] = field(default_factory=dict)
    """Slot -> this browser's decryption share, computed in the background once the pack is ready
    (never sent from here, not saved): a move's shares are then ready the moment it is made."""
    shares_out: list[int] = field(default_factory=list)
    """Slots whose share this browser has sent (or will, in queued work)."""
    discard_slots: list[list[int] | None] = field(default_factory=lambda: [None, None])
    """The two slots each seat laid away to the crib (named, not opened, when discarding)."""
    laid: list[list[int]] = field(default_factory=lambda: [[], []])
    """The slots each seat has laid in the play, in order."""
    ended: bool = False
    end_action: int = -1
    """Index in the match's actions just past the pack's last action."""
    saved: tuple[tuple[Any, ...], str, tuple[str, str, str]] | None = field(default=None, compare=False,
                                                                             repr=False)
    """(:meth:`save_mark`, the record's canonical JSON, its pieces: the JSON of its fields but the
    decks, and of each deck) as last saved: written again only when the mark
    changes."""

    def save_mark(self) -> tuple[Any, ...]:
        """What changes whenever the saved record would: a record only grows (shares are added, never
        replaced; slots laid are appended; a deck is set, or let go once the pack ended), so the sizes
        and the flags tell, with the decks and the shuffle received themselves (compared as the same
        objects: at once)."""
        return (self.start_action, self.deck1, self.deck2, self.incoming, self.ready,
                len(self.shares_in), len(self.mine), len(self.shares_out), str(self.discard_slots),
                len(self.laid[0]), len(self.laid[1]), self.ended, self.end_action)


@dataclass
class Pending:
    """A local action sent and waiting for the other's shares before it is applied here (None: with
    muggins, the crib turned before its count)."""

    action: Action | None
    slots: list[int]

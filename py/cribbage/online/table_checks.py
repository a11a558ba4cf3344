"""What a seat of a table's deal (:mod:`.table_deal`) checks ahead, in slices, before a message is taken
in: another seat's shuffle and its proof (the longest check of a hand), and the decryption shares of a
``deal`` message with their batched proof. The deal asks :meth:`TableDeal.check_ahead
<.table_deal.TableDeal.check_ahead>` for the work, and on receipt takes the result from here (a check
that failed is made again on receipt, so the deal stops with the evidence). Nothing here is saved: a
reload checks again on receipt. Pure: no I/O, no clock."""

from __future__ import annotations

import hashlib
from typing import Any

from . import elgamal
from .elgamal import Ciphertext
from .errors import ProtocolError
from .group import Work
from .pack import PACK_SIZE, constants_work, public_deck
from .table_chain import canonical
from .table_hand import PackDeal
from .table_keys import TableKeys, read_shares

__all__ = ["AheadChecks", "check_key"]


def check_key(k: int, sender: int, message: dict[str, Any]) -> str:
    """The key of a received message's check: its pack, sender, kind, cards, shares and proof."""
    text = canonical([k, sender, message.get("t"), message.get("cards"), message.get("shares"),
                      message.get("proof")])
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class AheadChecks:
    """The results of the checks made ahead, by :func:`check_key`."""

    def __init__(self) -> None:
        self.checked: dict[str, list[Ciphertext] | None] = {}
        """A received shuffle's key -> its list, proven (None: the check failed: the deal checks it again
        on receipt and stops with the evidence)."""
        self.proven: dict[str, bool] = {}
        """A received deal message's key -> whether its shares' proof held."""

    def shares_work(self, keys: TableKeys, p: PackDeal, sender: int, message: dict[str, Any],
                    key: str) -> Work[None]:
        """Check the shares of seat ``sender``'s ``deal`` message of pack ``p``, a step at a time."""
        ok = False
        try:
            shares = read_shares(keys.group, message.get("shares"), message.get("proof"), "shares")
            yield
            ok = yield from keys.shares_proven_work(p.index, "deal", sender, shares,
                                                    [p.pack[s] for s in shares.slots])
        except ProtocolError:
            pass
        self.proven[key] = ok

    def shuffle_work(self, keys: TableKeys, p: PackDeal, sender: int, message: dict[str, Any],
                     key: str) -> Work[None]:
        """Check seat ``sender``'s shuffle of pack ``p`` and its proof, a step at a time."""
        g = keys.group
        self.checked.pop(key, None)
        yield from constants_work(g)
        inputs = p.decks[-1] if p.decks else public_deck(g)
        try:
            outputs = yield from elgamal.decode_ciphertexts_work(g, message.get("cards"), PACK_SIZE,
                                                                 f"seat {sender + 1}'s shuffle")
            yield
            yield from keys.verify_shuffle(p.index, sender, inputs, outputs, message.get("proof"))
        except ProtocolError:
            self.checked[key] = None  # (taken in now, checked again, and refused with the evidence)
            return
        self.checked[key] = outputs

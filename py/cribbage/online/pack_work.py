"""This browser's cryptographic work on one pack of an online match, as generators that yield between
steps (:data:`~.group.Work`): its own decryption shares (:func:`mine_work`, computed ahead by
:func:`ahead_work`), the other's shares read (:func:`read_shares`) and checked, opening cards
(:func:`open_work`), and a received shuffle checked (:func:`verify_shuffle_work`). The keys and proofs
are :mod:`.pack`; which slots to open, for whom and when is :mod:`.game`."""

from __future__ import annotations

from typing import Any, Callable

from ..cards import DECK, Card
from . import elgamal
from .elgamal import Ciphertext
from .errors import AuditFailure, ProtocolError
from .group import Element, Work
from .pack import PACK_SIZE, MatchKeys, Shares, public_deck
from .records import PackRecord

__all__ = ["Opened", "my_share", "mine_work", "ahead_work", "read_shares", "open_work", "verify_shuffle_work"]

Opened = dict[int, tuple[Card, Element]]
"""Slot -> (the card it opens, the other's share that opened it)."""


def my_share(keys: MatchKeys, rec: PackRecord, slot: int) -> Element:
    """This browser's share of ``slot``: kept, computed ahead, or computed now (then kept ahead)."""
    value = rec.mine.get(slot)
    if value is None:
        value = rec.ahead.get(slot)
    if value is None:
        assert rec.deck2 is not None
        value = keys.my_share(rec.deck2[slot])
        rec.ahead[slot] = value
    return value


def mine_work(keys: MatchKeys, rec: PackRecord, slots: list[int]) -> Work[None]:
    """This browser's decryption shares of ``slots``, kept (sent later, or added to the other's to
    open a card: computed ahead while the other's reply is on its way)."""
    for s in slots:
        if s not in rec.mine:
            computed = s not in rec.ahead
            rec.mine[s] = my_share(keys, rec, s)
            if computed:
                yield


def ahead_work(keys: MatchKeys, rec: PackRecord) -> Work[None]:
    """This browser's shares of every slot of a ready pack, computed ahead in the background."""
    if rec.deck2 is None or rec.ended:
        return
    for s in range(PACK_SIZE):
        if s not in rec.mine and s not in rec.ahead:
            rec.ahead[s] = keys.my_share(rec.deck2[s])
            yield


def read_shares(keys: MatchKeys, message: dict[str, Any], slots: list[int]) -> Shares:
    """Decode the other's shares of a payload, which must be for exactly ``slots`` (nothing checked
    beyond their encodings yet)."""
    shares = keys.read_shares(message["shares"], message["proof"])
    if len(shares.slots) != len(slots):
        raise ProtocolError(f"expected decryption shares for {len(slots)} slots")
    for slot in shares.slots:
        if slot not in slots:
            raise ProtocolError(f"a share for slot {slot}, which this message does not open")
    return shares


def open_work(keys: MatchKeys, rec: PackRecord, k: int, shares: Shares, known: dict[int, Card]) -> Work[Opened]:
    """Check the other's proven shares of pack ``k``; the cards they open (``known``: the cards of the
    pack opened here so far; nothing changed but this browser's own shares kept)."""
    assert rec.deck2 is not None
    deck = rec.deck2
    yield from keys.check_shares_work(k, shares, [deck[s] for s in shares.slots])
    opened: Opened = {}
    mine_new: dict[int, Element] = {}
    for slot, value in zip(shares.slots, shares.values):
        ct = deck[slot]
        mine = rec.mine.get(slot)
        if mine is None:
            computed = slot not in rec.ahead
            mine = my_share(keys, rec, slot)
            mine_new[slot] = mine
            if computed:
                yield
        index = keys.open(ct, mine, value)
        if index is None:
            raise AuditFailure(f"pack {k + 1}: slot {slot} opens no card, though every proof passed",
                               {"pack": k, "slot": slot})
        opened[slot] = (DECK[index], value)
    for slot, (card, _) in opened.items():
        if slot in known and known[slot] != card:
            raise AuditFailure(f"pack {k + 1}: slot {slot} was already opened as {known[slot].code}",
                               {"pack": k, "slot": slot})
        if slot not in known and card in known.values():
            raise AuditFailure(f"pack {k + 1}: slot {slot} opens {card.code}, already elsewhere in the pack",
                               {"pack": k, "slot": slot})
    rec.mine.update(mine_new)  # this browser's own shares: keeping them changes nothing the rules see
    return opened


def verify_shuffle_work(keys: MatchKeys, rec: PackRecord, k: int,
                        randbelow: Callable[[int], int]) -> Work[tuple[int, list[Ciphertext], Any]]:
    """Check the shuffle of pack ``k`` received (``rec.incoming``); after step 1 shuffle it again.
    Returns (the step checked, the deck to send or keep, the new shuffle's proof or None); sets
    ``rec.deck1`` / ``rec.deck2`` (the caller clears ``rec.incoming`` once it has sent what follows)."""
    group = keys.group
    incoming = rec.incoming
    assert incoming is not None
    step = incoming["step"]
    inputs = public_deck(group) if step == 1 else rec.deck1
    assert inputs is not None
    try:
        outputs = yield from elgamal.decode_ciphertexts_work(group, incoming["cards"], PACK_SIZE,
                                                             f"the shuffle (step {step}) of pack {k + 1}")
    except ProtocolError as exc:
        raise AuditFailure(f"pack {k + 1}: {exc}", {"pack": k, "step": f"shuffle {step}"}) from exc
    yield
    yield from keys.verify_shuffle(k, step, inputs, outputs, incoming["proof"])
    if step == 1:
        rec.deck1 = outputs
        deck2, proof = yield from keys.shuffle_and_prove(k, 2, outputs, randbelow)
        rec.deck2 = deck2
        return step, deck2, proof
    rec.deck2 = outputs
    rec.ready = True
    return step, outputs, None

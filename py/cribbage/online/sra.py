"""The cryptographic deal: SRA / Pohlig–Hellman encryption of the pack, which commutes.

Group: the 2048-bit MODP group of RFC 3526 (group 14). ``P`` is a safe prime, ``Q = (P-1)/2`` is
prime, and everything lives in the subgroup of order ``Q`` (the quadratic residues). A card is the
residue :data:`CARD_POINTS` ``[i]`` for ``DECK[i]``; a peer's key for one pack is a 256-bit exponent
``k`` in ``[2, Q)``; encrypting is ``m -> m^k``, decrypting ``c -> c^(1/k mod Q)``. Because
``(m^a)^b == (m^b)^a``, either layer can be removed first.

Card points are hashed into the group, not small integers: with ``m_i = (i+2)^2`` the products
``m_0 * m_1 == m_4`` (2*3 = 6) survive encryption, so anyone could find such triples in the
doubly-encrypted pack and name cards. Hashed points have no known relations.

One pack, two shuffles:

1. the first shuffler (key ``a``) sends its table ``[m_i^a]`` in a secret order;
2. the second (key ``b``) raises each value to ``b`` and sends them in its own secret order:
   the pack, 52 slots each ``m^(ab)``.

A *share* for slot ``s`` from peer X is ``c_s^(1/x)``: a value ``m^y`` the other peer (key ``y``)
looks up in its own table ``{m_i^y}``, so opening a card costs one full-size power, paid by the
sender of the share. At the end of the pack both reveal their keys and each audits the pack
(:func:`audit_pack`). The big-integer work is written as generators (:data:`Work`) that yield after
each power, so a browser can spread it over frames; :func:`run` drives one to the end.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Callable, Generator, Sequence, TypeVar

from ..cards import DECK, Card
from .errors import AuditFailure, ProtocolError

__all__ = [
    "P",
    "Q",
    "KEY_BITS",
    "ELEMENT_TEXT_LENGTH",
    "CARD_POINTS",
    "PACK_SIZE",
    "Group",
    "GROUP_14",
    "TEST_GROUP",
    "Work",
    "Tally",
    "run",
    "jacobi",
    "is_element",
    "encode_element",
    "decode_element",
    "decode_pack_list",
    "encode_key",
    "decode_key",
    "new_key",
    "inverse",
    "random_permutation",
    "card_table",
    "shuffle_first",
    "shuffle_second",
    "make_share",
    "open_share",
    "PackAudit",
    "audit_pack",
]

T = TypeVar("T")

Work = Generator[None, None, T]
"""A slice of big-integer work: it yields after each modular power and returns its result."""

P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
"""The 2048-bit safe prime of RFC 3526, group 14."""
Q = (P - 1) // 2
"""The prime order of the subgroup of quadratic residues mod ``P``."""
KEY_BITS = 256
"""Bits of a pack key: short exponents, twice the group's ~112-bit strength."""
ELEMENT_BYTES = 256
ELEMENT_TEXT_LENGTH = 344
"""Characters of one group element on the wire: base64 of its 256 big-endian bytes."""
PACK_SIZE = len(DECK)


def _card_point(index: int, p: int) -> int:
    """Hash the card's index into the group: SHAKE-256 to 256 bits more than p, reduced mod p, squared."""
    digest = hashlib.shake_256(f"cribbage card point {index}".encode("ascii")).digest((p.bit_length() + 263) // 8)
    return pow(int.from_bytes(digest, "big") % p, 2, p)


@dataclass(frozen=True)
class Group:
    """A safe-prime group for the deal: the prime, the subgroup order and the 52 card points."""

    p: int
    q: int
    points: tuple[int, ...]
    """The plaintext of ``DECK[i]``: a quadratic residue with no known relation to the others."""
    element_bytes: int
    text_length: int
    """Characters of one element on the wire: base64 of its big-endian bytes."""

    @classmethod
    def of(cls, p: int) -> "Group":
        """The group of the safe prime ``p`` (``(p-1)/2`` prime; not checked here)."""
        points = tuple(_card_point(i, p) for i in range(PACK_SIZE))
        assert len(set(points)) == PACK_SIZE and 1 not in points
        size = (p.bit_length() + 7) // 8
        return cls(p, (p - 1) // 2, points, size, 4 * ((size + 2) // 3))


GROUP_14 = Group.of(P)
"""RFC 3526 group 14: the group of every real deal."""
CARD_POINTS = GROUP_14.points
"""The card points of group 14."""
TEST_GROUP = Group.of(int("f7e12f10702f5e910cbec741e84e2608d29d655c81bf7bf093b38ed4267537c9249c8fe3a20a0c68"
                          "153e6daa5f9a23f3", 16))
"""A 384-bit safe-prime group, far too small for play: it lets tests run many whole matches fast."""


@dataclass
class Tally:
    """How much big-integer work one peer did (for the benchmark)."""

    short: int = 0
    """Powers with a 256-bit exponent (encrypting)."""
    full: int = 0
    """Powers with a full-size exponent (decryption shares)."""
    checks: int = 0
    """Subgroup membership tests (Jacobi symbols, far cheaper than a power)."""


def run(work: Work[T]) -> T:
    """Drive a piece of work to its end at once (tests, CPython) and return its result."""
    while True:
        try:
            next(work)
        except StopIteration as stop:
            result: T = stop.value
            return result


# --- group elements --------------------------------------------------------------------------


def jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a/n) for odd n > 0; for the prime P, 1 exactly on the subgroup of order Q."""
    a %= n
    result = 1
    while a:
        while not a & 1:
            a >>= 1
            if n & 7 in (3, 5):
                result = -result
        a, n = n, a
        if a & 3 == 3 and n & 3 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def is_element(x: object, tally: Tally | None = None, group: Group = GROUP_14) -> bool:
    """True when ``x`` is an int in the subgroup of order Q, other than 1.

    Membership is Euler's criterion ``x^Q == 1``, computed as the Jacobi symbol, which is the same
    test for a prime modulus at about 1/75 of the cost of the power.
    """
    if type(x) is not int or not 1 < x < group.p:
        return False
    if tally is not None:
        tally.checks += 1
    return jacobi(x, group.p) == 1


def encode_element(x: int, group: Group = GROUP_14) -> str:
    """A group element as text: base64 of its 256 big-endian bytes."""
    return base64.b64encode(x.to_bytes(group.element_bytes, "big")).decode("ascii")


def decode_element(text: object, what: str, tally: Tally | None = None, group: Group = GROUP_14) -> int:
    """Read a group element sent by the other browser; refuse anything else with :class:`ProtocolError`."""
    if not isinstance(text, str) or len(text) != group.text_length:
        raise ProtocolError(f"{what} is not a group element ({group.text_length} base64 characters)")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError) as exc:
        raise ProtocolError(f"{what} is not valid base64") from exc
    value = int.from_bytes(raw, "big")
    if len(raw) != group.element_bytes or not is_element(value, tally, group):
        raise ProtocolError(f"{what} is not in the group of the deal (it could leak a key bit)")
    return value


def decode_pack_list(values: object, what: str, tally: Tally | None = None, group: Group = GROUP_14) -> list[int]:
    """Read a shuffled pack: 52 distinct group elements, else :class:`ProtocolError`."""
    if not isinstance(values, list) or len(values) != PACK_SIZE:
        raise ProtocolError(f"{what} must hold exactly {PACK_SIZE} values")
    decoded = [decode_element(v, f"{what}, position {i}", tally, group) for i, v in enumerate(values)]
    seen: dict[int, int] = {}
    for i, v in enumerate(decoded):
        if v in seen:
            raise ProtocolError(f"{what} holds the same value twice (positions {seen[v]} and {i}): "
                                "a pack with a duplicate card")
        seen[v] = i
    return decoded


def encode_key(key: int) -> str:
    """A pack key as 64 hex digits (JSON numbers cannot carry 256 bits safely in a browser)."""
    return f"{key:064x}"


def decode_key(text: object, what: str = "the key", group: Group = GROUP_14) -> int:
    """Read a revealed pack key: 64 hex digits for a number in [2, Q)."""
    if not isinstance(text, str) or len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise ProtocolError(f"{what} is not 64 lower-case hex digits")
    key = int(text, 16)
    if not 2 <= key < group.q:
        raise ProtocolError(f"{what} is out of range")
    return key


# --- keys and permutations -------------------------------------------------------------------

RandBelow = Callable[[int], int]
"""Where secret numbers come from: ``secrets.randbelow`` unless a test gives another."""


def new_key(randbelow: RandBelow = secrets.randbelow) -> int:
    """A fresh pack key: a 256-bit exponent in [2, Q), drawn from the operating system's secrets."""
    return 2 + randbelow((1 << KEY_BITS) - 2)


def inverse(key: int, group: Group = GROUP_14) -> int:
    """The decryption exponent ``1/key mod Q`` (full size)."""
    return pow(key, -1, group.q)


def random_permutation(n: int, randbelow: RandBelow = secrets.randbelow) -> list[int]:
    """A uniformly random order of ``range(n)`` (Fisher–Yates with secret draws)."""
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


# --- shuffling ------------------------------------------------------------------------------


def card_table(key: int, tally: Tally | None = None, group: Group = GROUP_14) -> Work[list[int]]:
    """``[m_i^key]`` for the 52 cards in DECK order: one peer's lookup table for a pack."""
    table: list[int] = []
    for point in group.points:
        table.append(pow(point, key, group.p))
        if tally is not None:
            tally.short += 1
        yield
    return table


def shuffle_first(key: int, order: Sequence[int], tally: Tally | None = None,
                  group: Group = GROUP_14) -> Work[tuple[list[int], list[int]]]:
    """The first shuffle: (own table, the table in the secret ``order``: position j holds card order[j])."""
    table = yield from card_table(key, tally, group)
    return table, [table[i] for i in order]


def shuffle_second(first: Sequence[int], key: int, order: Sequence[int],
                   tally: Tally | None = None, group: Group = GROUP_14) -> Work[tuple[list[int], list[int]]]:
    """The second shuffle: (own table, the pack: slot s holds ``first[order[s]]^key``)."""
    table = yield from card_table(key, tally, group)
    raised: list[int] = []
    for value in first:
        raised.append(pow(value, key, group.p))
        if tally is not None:
            tally.short += 1
        yield
    return table, [raised[j] for j in order]


def make_share(pack_value: int, key_inverse: int, tally: Tally | None = None, group: Group = GROUP_14) -> int:
    """A decryption share: remove this peer's layer from one slot of the pack (one full power)."""
    if tally is not None:
        tally.full += 1
    return pow(pack_value, key_inverse, group.p)


def open_share(share: int, table: dict[int, int]) -> int | None:
    """The card index a received share opens with this peer's table, or None (a wrong share)."""
    return table.get(share)


# --- the audit ------------------------------------------------------------------------------


@dataclass
class PackAudit:
    """What a passed audit of one pack established."""

    cards: list[Card]
    """The card in every slot of the pack."""
    evidence: list[str] = field(default_factory=list)
    """Empty when the pack passed (kept for symmetry with :class:`AuditFailure`)."""


def audit_pack(
    first: Sequence[int],
    second: Sequence[int],
    first_key: int,
    second_key: int,
    *,
    own_table: Sequence[int],
    own_is_first: bool,
    own_order: Sequence[int] | None,
    shares: dict[int, int],
    pack: int = 0,
    tally: Tally | None = None,
    group: Group = GROUP_14,
) -> Work[PackAudit]:
    """Check a finished pack with both keys; return every slot's card, or raise :class:`AuditFailure`.

    ``first``/``second``: the two shuffled lists as sent; ``own_table``: this peer's ``[m_i^key]``;
    ``own_order``: the second shuffler's own secret order (None for the first shuffler);
    ``shares``: slot -> share this peer received from the other. Checks that the first list is a
    permutation of the 52 cards under the first key, the pack a permutation of the first list
    raised to the second key, and every share received the one the other's key gives.
    """
    def fail(message: str, **evidence: object) -> AuditFailure:
        return AuditFailure(f"pack {pack + 1}: {message}", {"pack": pack, **evidence})

    if not (2 <= first_key < group.q and 2 <= second_key < group.q):
        raise fail("a revealed key is out of range")
    # The first list against the cards under the first key.
    if own_is_first:
        table_first = list(own_table)
        if len(first) != PACK_SIZE or set(first) != set(table_first):
            raise fail("this browser's own first shuffle does not match its key (corrupt save?)")
    else:
        table_first = yield from card_table(first_key, tally, group)
    index_first = {v: i for i, v in enumerate(table_first)}
    first_cards: list[int] = []
    for j, value in enumerate(first):
        i = index_first.get(value)
        if i is None:
            raise fail(f"position {j} of the first shuffle is not a card under the revealed key: the pack "
                       "was not the 52 cards", step="first shuffle", position=j)
        first_cards.append(i)
    if len(set(first_cards)) != PACK_SIZE:
        raise fail("the first shuffle holds a card twice", step="first shuffle")
    # The pack against the first list raised to the second key.
    slot_from: list[int]
    if own_order is not None and not own_is_first:
        slot_from = list(own_order)
    else:
        index_raised: dict[int, int] = {}
        for j, value in enumerate(first):
            index_raised[pow(value, second_key, group.p)] = j
            if tally is not None:
                tally.short += 1
            yield
        slot_from = []
        for s, value in enumerate(second):
            j2 = index_raised.get(value)
            if j2 is None:
                raise fail(f"slot {s} of the pack is not one of the first shuffle's cards under the second "
                           "key: the second shuffle changed a card", step="second shuffle", slot=s)
            slot_from.append(j2)
        if len(set(slot_from)) != PACK_SIZE:
            raise fail("the second shuffle holds a card twice", step="second shuffle")
    cards = [DECK[first_cards[slot_from[s]]] for s in range(PACK_SIZE)]
    # Every share received: the other removed its layer from slot s, leaving m^own_key.
    for s, share in sorted(shares.items()):
        expected = own_table[cards[s].index]
        if share != expected:
            got = open_share(share, {v: i for i, v in enumerate(own_table)})
            claimed = DECK[got].code if got is not None else "no card"
            raise fail(f"the share sent for slot {s} opened {claimed}, but that slot holds {cards[s].code}: "
                       "a false decryption share", step="share", slot=s, card=cards[s].code, claimed=claimed)
    return PackAudit(cards)

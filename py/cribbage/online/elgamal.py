"""ElGamal encryption of card points under the joint key, in additive notation.

A ciphertext is a pair ``(a, b)`` with ``a = r·G`` and ``b = M + r·Y`` (ElGamal, "A public key
cryptosystem and a signature scheme based on discrete logarithms", CRYPTO '84), where ``Y = y_0 +
y_1`` is the sum of the two browsers' key shares. The public deck is the trivial encryption of each
card point, ``(identity, M_i)``; a shuffle re-encrypts (adds an encryption of the identity) and
permutes. To open a ciphertext each key holder sends its decryption share ``x_j·a`` (with a
Chaum–Pedersen proof, :mod:`.proofs`), and ``M = b − Σ_j x_j·a``.
"""

from __future__ import annotations

from typing import Sequence

from .errors import ProtocolError
from .group import Element, FixedBase, Group, Work, run

__all__ = [
    "Ciphertext",
    "public_deck",
    "reencrypt",
    "decryption_share",
    "combine",
    "encode_ciphertexts",
    "decode_ciphertexts",
    "decode_ciphertexts_work",
]

Ciphertext = tuple[Element, Element]
"""``(a, b)``: ``a = r·G``, ``b = M + r·Y``."""


def public_deck(group: Group, points: Sequence[Element]) -> list[Ciphertext]:
    """The trivial encryptions ``(identity, M_i)`` of the card points (randomness 0)."""
    return [(group.identity, m) for m in points]


def reencrypt(group: Group, gY: FixedBase, ct: Ciphertext, r: int) -> Ciphertext:
    """``(a + r·G, b + r·Y)``: the same plaintext under fresh randomness (``gY`` is ``Y``'s table)."""
    a, b = ct
    return group.add(a, group.mul_gen(r)), group.add(b, gY.mul(r))


def decryption_share(group: Group, x: int, ct: Ciphertext) -> Element:
    """A key holder's share ``x·a`` of the opening of ``ct``."""
    return group.mul(ct[0], x)


def combine(group: Group, ct: Ciphertext, shares: Sequence[Element]) -> Element:
    """The plaintext point ``b − Σ shares`` (correct when the shares are the holders' ``x_j·a``)."""
    total = ct[1]
    for d in shares:
        total = group.sub(total, d)
    return total


def encode_ciphertexts(group: Group, cts: Sequence[Ciphertext]) -> list[list[str]]:
    """For the wire: a list of ``[a, b]`` pairs of base64 texts."""
    return [[group.encode_text(a), group.encode_text(b)] for a, b in cts]


def decode_ciphertexts(group: Group, value: object, n: int, what: str) -> list[Ciphertext]:
    """Read ``n`` ciphertexts sent by the other browser.

    :class:`ProtocolError` unless ``value`` is a list of ``n`` pairs of valid elements (the
    identity is refused: an honest re-encryption never yields it) with no ciphertext repeated.
    """
    return run(decode_ciphertexts_work(group, value, n, what))


def decode_ciphertexts_work(group: Group, value: object, n: int, what: str) -> Work[list[Ciphertext]]:
    """:func:`decode_ciphertexts`, yielding after every few (a point's square root is not free)."""
    if not isinstance(value, list) or len(value) != n:
        raise ProtocolError(f"{what} is not a list of {n} ciphertexts")
    result: list[Ciphertext] = []
    seen: set[Ciphertext] = set()
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise ProtocolError(f"{what}[{i}] is not a pair of elements")
        ct = (group.decode_text(pair[0], f"{what}[{i}].a"), group.decode_text(pair[1], f"{what}[{i}].b"))
        if ct in seen:
            raise ProtocolError(f"{what}[{i}] repeats an earlier ciphertext")
        seen.add(ct)
        result.append(ct)
        if i % 8 == 7:
            yield
    return result

"""Fiat–Shamir transcripts: every proof's challenge is a hash of everything said before it.

A :class:`Transcript` is a running SHA-256 over labelled, length-prefixed items: an item is the
8-byte length of its label, the label (UTF-8), the 8-byte length of its data and the data, so no
two different sequences of items hash alike (a label cannot run into its data, nor one item into
the next). Challenges are scalars drawn from the running digest with the group's
``hash_to_scalar`` (RFC 9380's hash_to_field), and each draw is itself appended, so successive
challenges differ.

The caller first appends the whole context (protocol version, group name, generator derivation,
room, match, pack, step, the prover's seat, both key shares); each proof then appends its own
statement (all its inputs, outputs and commitments) before any challenge. Bernhard, Pereira and
Warinschi, "How not to prove yourself: pitfalls of the Fiat–Shamir heuristic and applications to
Helios" (ASIACRYPT 2012), show what goes wrong otherwise: a challenge that hashes only the
commitments ("weak Fiat–Shamir") lets a prover choose the statement after the challenge and prove
false ones; the challenge must hash the whole statement.
"""

from __future__ import annotations

import hashlib
from typing import Iterable

from .group import Element, Group

__all__ = ["Transcript"]

_CHALLENGE_DST = b"cribbage-v2 transcript challenge"


class Transcript:
    """A Fiat–Shamir transcript over SHA-256; items are labelled and length-prefixed."""

    def __init__(self, protocol: str) -> None:
        self._hash = hashlib.sha256()
        self.append_text("protocol", protocol)

    def copy(self) -> Transcript:
        """An independent transcript in the same state (a fork of the context)."""
        other = Transcript.__new__(Transcript)
        other._hash = self._hash.copy()
        return other

    def append(self, label: str, data: bytes) -> None:
        """Append one item: its label and its bytes, each preceded by its length."""
        name = label.encode("utf-8")
        self._hash.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big"))
        self._hash.update(data)

    def append_int(self, label: str, n: int) -> None:
        """A non-negative integer below 2**64 (a count, an index, a seat)."""
        if not 0 <= n < 1 << 64:
            raise ValueError("a transcript integer is in [0, 2**64)")
        self.append(label, n.to_bytes(8, "big"))

    def append_text(self, label: str, s: str) -> None:
        self.append(label, s.encode("utf-8"))

    def append_element(self, label: str, group: Group, e: Element) -> None:
        """A group element, by its canonical encoding (the identity has its own, shorter one)."""
        self.append(label, group.encode(e))

    def append_elements(self, label: str, group: Group, seq: Iterable[Element]) -> None:
        """A sequence of elements: its count, then each element."""
        items = list(seq)
        self.append_int(label, len(items))
        for e in items:
            self.append_element(label, group, e)

    def challenge(self, label: str, group: Group) -> int:
        """A scalar in ``[0, q)`` from everything appended so far; the label is appended first."""
        self.append("challenge", label.encode("utf-8"))
        return group.hash_to_scalar(_CHALLENGE_DST, self._hash.copy().digest())

    def challenges(self, label: str, group: Group, n: int) -> list[int]:
        """``n`` independent scalars: the label and ``n`` are appended, then one hash per index."""
        self.append("challenges", label.encode("utf-8"))
        self.append_int("count", n)
        digest = self._hash.copy().digest()
        return [group.hash_to_scalar(_CHALLENGE_DST, digest + i.to_bytes(8, "big")) for i in range(n)]

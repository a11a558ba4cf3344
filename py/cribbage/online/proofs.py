"""Sigma proofs made non-interactive with a :class:`~.transcript.Transcript`.

- Schnorr's proof of knowledge of a discrete logarithm (C. P. Schnorr, "Efficient signature
  generation by smart cards", J. Cryptology 4(3), 1991): each browser proves it knows ``x_j`` with
  ``y_j = x_j·G``. Without it the second browser could announce ``y' = z·G − y_other`` (a rogue
  key) and the joint key ``Y = y_other + y'`` would be ``z·G``, all its own.
- Chaum and Pedersen's proof of equality of discrete logarithms (D. Chaum, T. P. Pedersen,
  "Wallet databases with observers", CRYPTO '92, section 3.2): a decryption share ``d_j = x_j·a``
  is proved to use the key behind ``y_j``: ``log_G(y_j) = log_a(d_j)``.

Both are in the compact form (challenge, response): the verifier recomputes the commitments from
them with one two-term multi-scalar multiplication each, and checks that they hash to the same
challenge. The statement (the bases and the public values) is appended to the transcript inside
these functions, before the commitments; the caller has appended the context. The transcript
given is advanced in place, so a later proof on it is bound to this one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TypeVar

from .errors import ProtocolError
from .group import Element, Group, RandBelow
from .transcript import Transcript

__all__ = ["DlogProof", "DleqProof", "prove_dlog", "verify_dlog", "prove_dleq", "verify_dleq"]


_P = TypeVar("_P", bound="_CompactProof")


@dataclass(frozen=True)
class _CompactProof:
    """A proof sent as its challenge and response ``(c, s)``: the commitments are recomputed."""

    group: Group = field(compare=False, repr=False)
    challenge: int
    response: int

    def to_wire(self) -> list[str]:
        """``[c, s]`` as scalar texts."""
        return [self.group.scalar_text(self.challenge), self.group.scalar_text(self.response)]

    @classmethod
    def from_wire(cls: type[_P], group: Group, value: object, what: str) -> _P:
        """Read a proof sent by the other browser; :class:`ProtocolError` unless two canonical scalars."""
        return cls(group, *_decode_pair(group, value, what))


@dataclass(frozen=True)
class DlogProof(_CompactProof):
    """Schnorr: ``R = k·G``, ``c = H(transcript, G, y, R)``, ``s = k + c·x``; sent as ``(c, s)``."""


@dataclass(frozen=True)
class DleqProof(_CompactProof):
    """Chaum–Pedersen: ``R_i = k·B_i``, ``c = H(transcript, B_1, P_1, B_2, P_2, R_1, R_2)``, ``s = k + c·x``."""


def _decode_pair(group: Group, value: object, what: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError(f"{what} is not a proof (a list of two scalars)")
    return (group.decode_scalar_text(value[0], f"{what} challenge"),
            group.decode_scalar_text(value[1], f"{what} response"))


def _mul(group: Group, base: Element, k: int) -> Element:
    return group.mul_gen(k) if base == group.generator else group.mul(base, k)


def prove_dlog(group: Group, x: int, transcript: Transcript,
               randbelow: RandBelow = secrets.randbelow) -> DlogProof:
    """Prove knowledge of ``x`` with ``y = x·G`` (the statement ``G, y`` is appended here)."""
    y = group.mul_gen(x)
    transcript.append_element("dlog base", group, group.generator)
    transcript.append_element("dlog public", group, y)
    k = group.random_scalar(randbelow)
    transcript.append_element("dlog commitment", group, group.mul_gen(k))
    c = transcript.challenge("dlog challenge", group)
    return DlogProof(group, c, (k + c * x) % group.order)


def verify_dlog(group: Group, y: Element, proof: DlogProof, transcript: Transcript) -> bool:
    """Whether ``proof`` shows knowledge of ``log_G(y)`` in this transcript's context."""
    commitment = group.multi_mul([(group.generator, proof.response), (y, (-proof.challenge) % group.order)])
    transcript.append_element("dlog base", group, group.generator)
    transcript.append_element("dlog public", group, y)
    transcript.append_element("dlog commitment", group, commitment)
    return transcript.challenge("dlog challenge", group) == proof.challenge


def _dleq_statement(group: Group, transcript: Transcript, base1: Element, pub1: Element,
                    base2: Element, pub2: Element) -> None:
    transcript.append_element("dleq base 1", group, base1)
    transcript.append_element("dleq public 1", group, pub1)
    transcript.append_element("dleq base 2", group, base2)
    transcript.append_element("dleq public 2", group, pub2)


def prove_dleq(group: Group, x: int, base1: Element, pub1: Element, base2: Element, pub2: Element,
               transcript: Transcript, randbelow: RandBelow = secrets.randbelow) -> DleqProof:
    """Prove ``pub1 = x·base1`` and ``pub2 = x·base2`` for the same ``x`` (e.g. ``G, y_j, a, d_j``)."""
    _dleq_statement(group, transcript, base1, pub1, base2, pub2)
    k = group.random_scalar(randbelow)
    transcript.append_element("dleq commitment 1", group, _mul(group, base1, k))
    transcript.append_element("dleq commitment 2", group, _mul(group, base2, k))
    c = transcript.challenge("dleq challenge", group)
    return DleqProof(group, c, (k + c * x) % group.order)


def verify_dleq(group: Group, base1: Element, pub1: Element, base2: Element, pub2: Element,
                proof: DleqProof, transcript: Transcript) -> bool:
    """Whether ``proof`` shows ``log_base1(pub1) = log_base2(pub2)`` in this transcript's context."""
    s, c = proof.response, proof.challenge
    minus_c = (-c) % group.order
    commitment1 = group.multi_mul([(base1, s), (pub1, minus_c)])
    commitment2 = group.multi_mul([(base2, s), (pub2, minus_c)])
    _dleq_statement(group, transcript, base1, pub1, base2, pub2)
    transcript.append_element("dleq commitment 1", group, commitment1)
    transcript.append_element("dleq commitment 2", group, commitment2)
    return transcript.challenge("dleq challenge", group) == c

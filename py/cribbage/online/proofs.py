"""Sigma proofs made non-interactive with a :class:`~.transcript.Transcript`.

- Schnorr's proof of knowledge of a discrete logarithm (C. P. Schnorr, "Efficient signature
  generation by smart cards", J. Cryptology 4(3), 1991): each browser proves it knows ``x_j`` with
  ``y_j = x_j·G``. Without it the second browser could announce ``y' = z·G − y_other`` (a rogue
  key) and the joint key ``Y = y_other + y'`` would be ``z·G``, all its own.
- Chaum and Pedersen's proof of equality of discrete logarithms (D. Chaum, T. P. Pedersen,
  "Wallet databases with observers", CRYPTO '92, section 3.2): a decryption share ``d_j = x_j·a``
  is proved to use the key behind ``y_j``: ``log_G(y_j) = log_a(d_j)``.

- The batched Chaum–Pedersen proof of RFC 9497 ("Oblivious Pseudorandom Functions (OPRFs) Using
  Prime-Order Groups", 2023), section 2.2 (``ComputeComposites``, ``GenerateProof``,
  ``VerifyProof``), as first used by Privacy Pass (Davidson, Goldberg, Sullivan, Tankersley,
  Valsorda, PoPETs 2018): the several decryption shares ``d_i = x·a_i`` one message
  opens are proved at once. Both sides draw weights ``w_i`` from a hash of the whole statement
  (every ``a_i`` and ``d_i``), form the composites ``M = Σ w_i·a_i`` and ``Z = Σ w_i·d_i`` (the
  prover, knowing ``x``, takes ``Z = x·M``), and one Chaum–Pedersen proof shows
  ``log_G(y) = log_M(Z)``. A share off by ``e_j ≠ 0`` makes ``Z − x·M = Σ w_i·e_i``, zero only if
  the weights, fixed by the hash after the shares, happen to cancel it: probability about ``1/q``
  per hash query (the prover cannot choose the weights, as in the small-exponents test of Bellare,
  Garay and Rabin, EUROCRYPT 1998, section 3.2, where the verifier draws them). Verifying costs two
  multi-scalar multiplications of ``n`` terms and one Chaum–Pedersen check, instead of ``n`` checks.
  A single share (a card laid) is its own composite (weight 1): the plain Chaum–Pedersen proof.

All are in the compact form (challenge, response): the verifier recomputes the commitments from
them with one two-term multi-scalar multiplication each, and checks that they hash to the same
challenge. The statement (the bases and the public values) is appended to the transcript inside
these functions, before the commitments; the caller has appended the context. The transcript
given is advanced in place, so a later proof on it is bound to this one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Sequence, TypeVar

from .errors import ProtocolError
from .group import Element, Group, RandBelow, Work, run
from .transcript import Transcript

__all__ = ["DlogProof", "DleqProof", "BatchDleqProof", "prove_dlog", "verify_dlog", "prove_dleq", "verify_dleq",
           "prove_dleq_batch", "verify_dleq_batch"]


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


@dataclass(frozen=True)
class BatchDleqProof(_CompactProof):
    """RFC 9497 §2.2: the Chaum–Pedersen proof of ``log_G(y) = log_M(Z)`` over the composites of the
    batch; sent as ``(c, s)``."""


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


def _composite_weights(group: Group, transcript: Transcript, base1: Element, pub1: Element,
                       bases: Sequence[Element], values: Sequence[Element]) -> list[int]:
    """RFC 9497 §2.2.1 ``ComputeComposites``: the weights, from a hash of the whole statement (the
    seed: the context, both bases and publics, every pair) and each pair's index."""
    if not bases or len(bases) != len(values):
        raise ValueError("a batch holds one value for each base, and at least one")
    transcript.append_element("batch dleq base", group, base1)
    transcript.append_element("batch dleq public", group, pub1)
    transcript.append_elements("batch dleq bases", group, bases)
    transcript.append_elements("batch dleq values", group, values)
    if len(bases) == 1:
        return [1]  # one pair is its own composite: the plain Chaum–Pedersen proof of it
    return transcript.challenges("batch dleq composite weights", group, len(bases))


def prove_dleq_batch(group: Group, x: int, base1: Element, pub1: Element, bases: Sequence[Element],
                     values: Sequence[Element], transcript: Transcript,
                     randbelow: RandBelow = secrets.randbelow) -> BatchDleqProof:
    """Prove ``pub1 = x·base1`` and ``values[i] = x·bases[i]`` for every ``i`` (RFC 9497 §2.2.1
    ``GenerateProof``, with ``ComputeCompositesFast``: ``Z = x·M``)."""
    return run(prove_dleq_batch_work(group, x, base1, pub1, bases, values, transcript, randbelow))


def prove_dleq_batch_work(group: Group, x: int, base1: Element, pub1: Element, bases: Sequence[Element],
                          values: Sequence[Element], transcript: Transcript,
                          randbelow: RandBelow = secrets.randbelow) -> Work[BatchDleqProof]:
    """:func:`prove_dleq_batch`, yielding between its multiplications (a frame stays short)."""
    weights = _composite_weights(group, transcript, base1, pub1, bases, values)
    m = group.multi_mul(list(zip(bases, weights))) if len(bases) > 1 else bases[0]
    yield
    z = group.mul(m, x) if len(bases) > 1 else values[0]
    yield
    proof = prove_dleq(group, x, base1, pub1, m, z, transcript, randbelow)
    return BatchDleqProof(group, proof.challenge, proof.response)


def verify_dleq_batch(group: Group, base1: Element, pub1: Element, bases: Sequence[Element],
                      values: Sequence[Element], proof: BatchDleqProof, transcript: Transcript) -> bool:
    """Whether ``proof`` shows ``log_base1(pub1) = log_bases[i](values[i])`` for every ``i`` (RFC 9497
    §2.2.2 ``VerifyProof``): one check for the whole batch, which fails if any one value is false."""
    return run(verify_dleq_batch_work(group, base1, pub1, bases, values, proof, transcript))


def verify_dleq_batch_work(group: Group, base1: Element, pub1: Element, bases: Sequence[Element],
                           values: Sequence[Element], proof: BatchDleqProof, transcript: Transcript) -> Work[bool]:
    """:func:`verify_dleq_batch`, yielding between its multiplications."""
    if not bases or len(bases) != len(values):
        return False
    weights = _composite_weights(group, transcript, base1, pub1, bases, values)
    if len(bases) == 1:
        m, z = bases[0], values[0]
    else:
        m = group.multi_mul(list(zip(bases, weights)))
        yield
        z = group.multi_mul(list(zip(values, weights)))
        yield
    return verify_dleq(group, base1, pub1, m, z, DleqProof(group, proof.challenge, proof.response), transcript)

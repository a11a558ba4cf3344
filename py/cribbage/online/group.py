"""The prime-order groups of the proven deal, behind one interface the proofs are written against.

Written additively whatever the group: ``add``, ``neg``, ``mul`` (scalar multiplication), the
identity is the neutral element. Elements are immutable, hashable and compared with ``==`` (an
elliptic-curve point is kept in affine coordinates, the identity as ``None``).

- :class:`ModPGroup`: the quadratic residues modulo a safe prime (elements are ints). Far too
  small for play at the size used in tests; it lets the test suite run many whole matches fast,
  and keeps the proofs honest about depending on the interface only.
- The real deal runs on NIST P-256 (:mod:`.p256`), with hash-to-curve of RFC 9380.

Every value received from the other browser is read through :meth:`Group.decode` /
:meth:`Group.decode_scalar` (or their ``*_text`` forms), which refuse the identity, a point off the
group, a non-canonical encoding and a scalar not below the order, *before* any arithmetic.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Generator, Sequence, TypeVar

from .errors import ProtocolError

__all__ = [
    "Element",
    "Group",
    "FixedBase",
    "OpCount",
    "ModPGroup",
    "MODP_TEST",
    "expand_message_xmd",
    "RandBelow",
    "Work",
    "run",
    "multi_mul_work",
    "SLICE_TERMS",
]

Element = Any
"""A group element: immutable, hashable, compared with ``==`` (an int, an affine point, ``None``)."""

RandBelow = Callable[[int], int]
"""Where secret numbers come from: ``secrets.randbelow`` unless a test gives another."""

T = TypeVar("T")

Work = Generator[None, None, T]
"""A slice of group work: it yields after every expensive step (a scalar multiplication or a few),
so a browser can spread it over frames; it returns its result."""


def run(work: Work[T]) -> T:
    """Drive a piece of work to its end at once (tests, CPython) and return its result."""
    while True:
        try:
            next(work)
        except StopIteration as stop:
            result: T = stop.value
            return result


@dataclass
class OpCount:
    """Scalar multiplications done (for the benchmark): single, fixed-base, and multi-scalar terms."""

    mul: int = 0
    fixed: int = 0
    multi: int = 0
    """Multi-scalar multiplications (each counted once)."""
    multi_terms: int = 0
    """Terms of all multi-scalar multiplications."""

    def total_naive(self) -> int:
        """The same work as single multiplications (a multi-scalar multiplication of n terms is n)."""
        return self.mul + self.fixed + self.multi_terms


def expand_message_xmd(msg: bytes, dst: bytes, length: int) -> bytes:
    """RFC 9380, section 5.3.1: expand_message_xmd with SHA-256."""
    if len(dst) > 255:
        raise ValueError("a domain separation tag is at most 255 bytes")
    b_in_bytes, r_in_bytes = 32, 64
    ell = -(-length // b_in_bytes)
    if ell > 255 or length > 65535:
        raise ValueError("expand_message_xmd: length too large")
    dst_prime = dst + bytes([len(dst)])
    z_pad = bytes(r_in_bytes)
    l_i_b_str = length.to_bytes(2, "big")
    b0 = hashlib.sha256(z_pad + msg + l_i_b_str + b"\x00" + dst_prime).digest()
    b = [hashlib.sha256(b0 + b"\x01" + dst_prime).digest()]
    for i in range(2, ell + 1):
        prev = bytes(x ^ y for x, y in zip(b0, b[-1]))
        b.append(hashlib.sha256(prev + bytes([i]) + dst_prime).digest())
    return b"".join(b)[:length]


SLICE_TERMS = 24
"""Terms of a multi-scalar multiplication done between two yields (about 10 ms inside Pyodide on P-256)."""


def multi_mul_work(group: "Group", pairs: Sequence[tuple[Element, int]], chunk: int = SLICE_TERMS) -> Work[Element]:
    """``Σ k_i·P_i`` in slices of ``chunk`` terms, yielding between them (a browser's frame stays short)."""
    total = group.identity
    for i in range(0, len(pairs), chunk):
        total = group.add(total, group.multi_mul(pairs[i:i + chunk]))
        yield
    return total


class FixedBase(ABC):
    """A base point with precomputed multiples: ``mul(k)`` is several times faster than ``Group.mul``."""

    @abstractmethod
    def mul(self, k: int) -> Element:
        """``k`` times the base."""


class Group(ABC):
    """A cyclic group of prime order in which DDH is believed hard (or a small one, for tests)."""

    name: str
    """Goes into every Fiat–Shamir transcript (``"P-256"``, ``"modp-384"``)."""
    order: int
    """The prime order ``q``; scalars live in ``[0, q)``."""
    element_bytes: int
    """Length of :meth:`encode` of any element other than the identity."""
    scalar_bytes: int
    """Length of :meth:`encode_scalar`."""
    identity: Element
    generator: Element
    ops: OpCount
    """Work counted, for the benchmark (reset it freely)."""

    # --- arithmetic ---------------------------------------------------------------------------

    @abstractmethod
    def add(self, a: Element, b: Element) -> Element: ...

    @abstractmethod
    def neg(self, a: Element) -> Element: ...

    def sub(self, a: Element, b: Element) -> Element:
        return self.add(a, self.neg(b))

    @abstractmethod
    def mul(self, a: Element, k: int) -> Element:
        """``k·a`` for any int ``k`` (reduced mod the order)."""

    def mul_gen(self, k: int) -> Element:
        """``k·G``, from a fixed-base table of the generator."""
        return self.fixed(self.generator).mul(k)

    @abstractmethod
    def fixed(self, base: Element) -> FixedBase:
        """Precompute multiples of ``base`` (worth it when it is used many times)."""

    def fixed_work(self, base: Element) -> Work[FixedBase]:
        """:meth:`fixed` in slices (a table can cost as much as many multiplications)."""
        return self.fixed(base)
        yield  # (a generator: a group whose tables are cheap makes them at once)

    def fixed_ready(self) -> bool:
        """Whether the generator's table is made (a group whose tables are cheap: always)."""
        return True

    def multi_mul(self, pairs: Sequence[tuple[Element, int]]) -> Element:
        """``Σ k_i·P_i`` (subclasses do it faster than one multiplication a term)."""
        total = self.identity
        for point, k in pairs:
            total = self.add(total, self.mul(point, k))
        return total

    # --- encodings ----------------------------------------------------------------------------

    @abstractmethod
    def encode(self, a: Element) -> bytes:
        """Canonical bytes of an element (the identity too, as a distinct shorter string)."""

    @abstractmethod
    def decode(self, data: bytes) -> Element:
        """The element ``data`` encodes; ValueError unless it is canonical, in the group, not the identity."""

    def encode_scalar(self, k: int) -> bytes:
        return (k % self.order).to_bytes(self.scalar_bytes, "big")

    def decode_scalar(self, data: bytes) -> int:
        """A scalar in ``[0, q)``; ValueError for a wrong length or a value not below the order."""
        if len(data) != self.scalar_bytes:
            raise ValueError(f"a scalar is {self.scalar_bytes} bytes")
        k = int.from_bytes(data, "big")
        if k >= self.order:
            raise ValueError("a scalar is not below the group order")
        return k

    def encode_text(self, a: Element) -> str:
        """An element on the wire: base64 of :meth:`encode`."""
        return base64.b64encode(self.encode(a)).decode("ascii")

    def decode_text(self, text: object, what: str) -> Element:
        """Read an element sent by the other browser; :class:`ProtocolError` naming ``what`` otherwise."""
        raw = _b64(text, self.element_bytes, what, "a group element")
        try:
            return self.decode(raw)
        except ValueError as exc:
            raise ProtocolError(f"{what} is not a valid element of {self.name} ({exc})") from exc

    def scalar_text(self, k: int) -> str:
        return base64.b64encode(self.encode_scalar(k)).decode("ascii")

    def decode_scalar_text(self, text: object, what: str) -> int:
        raw = _b64(text, self.scalar_bytes, what, "a scalar")
        try:
            return self.decode_scalar(raw)
        except ValueError as exc:
            raise ProtocolError(f"{what} is not a valid scalar of {self.name} ({exc})") from exc

    # --- hashing and randomness ---------------------------------------------------------------

    @abstractmethod
    def hash_to_group(self, dst: bytes, msg: bytes) -> Element:
        """An element nobody knows the discrete logarithm of, from a domain tag and a message."""

    def hash_to_scalar(self, dst: bytes, msg: bytes) -> int:
        """A scalar in ``[0, q)`` with negligible bias (RFC 9380's hash_to_field, one element)."""
        length = (self.order.bit_length() + 128 + 7) // 8
        return int.from_bytes(expand_message_xmd(msg, dst, length), "big") % self.order

    def random_scalar(self, randbelow: RandBelow = secrets.randbelow) -> int:
        """A secret scalar in ``[1, q)``."""
        return 1 + randbelow(self.order - 1)


def _b64(text: object, size: int, what: str, kind: str) -> bytes:
    length = 4 * ((size + 2) // 3)
    if not isinstance(text, str) or len(text) != length:
        raise ProtocolError(f"{what} is not {kind} ({length} base64 characters)")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError) as exc:
        raise ProtocolError(f"{what} is not valid base64") from exc
    if len(raw) != size:
        raise ProtocolError(f"{what} is not {kind} ({size} bytes)")
    if base64.b64encode(raw).decode("ascii") != text:
        # the unused low bits of the last character set: another spelling of the same bytes
        raise ProtocolError(f"{what} is not in canonical base64 (its unused bits are set)")
    return raw


# --- the quadratic residues modulo a safe prime (tests) --------------------------------------


def _jacobi(a: int, n: int) -> int:
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


class _ModPFixed(FixedBase):
    def __init__(self, group: "ModPGroup", base: int) -> None:
        self.group, self.base = group, base

    def mul(self, k: int) -> int:
        self.group.ops.fixed += 1
        return pow(self.base, k % self.group.order, self.group.p)


class ModPGroup(Group):
    """The subgroup of order ``q = (p-1)/2`` of the integers modulo a safe prime ``p``."""

    def __init__(self, p: int, name: str | None = None) -> None:
        self.p = p
        self.order = (p - 1) // 2
        self.name = name or f"modp-{p.bit_length()}"
        self.element_bytes = (p.bit_length() + 7) // 8
        self.scalar_bytes = (self.order.bit_length() + 7) // 8
        self.identity = 1
        self.generator = 4  # 2^2: a quadratic residue other than 1, so it generates the subgroup
        self.ops = OpCount()

    def add(self, a: int, b: int) -> int:
        return a * b % self.p

    def neg(self, a: int) -> int:
        return pow(a, -1, self.p)

    def mul(self, a: int, k: int) -> int:
        self.ops.mul += 1
        return pow(a, k % self.order, self.p)

    def fixed(self, base: int) -> FixedBase:
        return _ModPFixed(self, base)

    def multi_mul(self, pairs: Sequence[tuple[int, int]]) -> int:
        self.ops.multi += 1
        self.ops.multi_terms += len(pairs)
        total = 1
        for a, k in pairs:
            total = total * pow(a, k % self.order, self.p) % self.p
        return total

    def encode(self, a: int) -> bytes:
        if a == 1:
            return b"\x00"
        return a.to_bytes(self.element_bytes, "big")

    def decode(self, data: bytes) -> int:
        if len(data) != self.element_bytes:
            raise ValueError(f"an element is {self.element_bytes} bytes")
        x = int.from_bytes(data, "big")
        if not 1 < x < self.p:
            raise ValueError("not a residue other than 1 below p")
        if _jacobi(x, self.p) != 1:
            raise ValueError("not in the subgroup of prime order")
        return x

    def hash_to_group(self, dst: bytes, msg: bytes) -> int:
        length = self.element_bytes + 32
        counter = 0
        while True:
            x = int.from_bytes(expand_message_xmd(msg + bytes([counter]), dst, length), "big") % self.p
            y = x * x % self.p
            if y not in (0, 1):
                return y
            counter += 1


MODP_TEST = ModPGroup(int("f7e12f10702f5e910cbec741e84e2608d29d655c81bf7bf093b38ed4267537c9249c8fe3a20a0c68"
                          "153e6daa5f9a23f3", 16), "modp-384-test")
"""A 384-bit safe-prime group, far too small for play: the tests run whole matches in it."""

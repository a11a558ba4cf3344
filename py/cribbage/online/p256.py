"""NIST P-256 (secp256r1) as a :class:`~.group.Group`: the curve the proven deal runs on.

The curve is ``y² = x³ - 3x + b`` over the prime field of ``p = 2²⁵⁶ - 2²²⁴ + 2¹⁹² + 2⁹⁶ - 1``
(SEC 2 §2.4.2, FIPS 186-4 §D.1.2.3); its points form a group of prime order ``n`` (cofactor 1), so
every point on the curve is in the group and decoding needs no subgroup check.

Representation. A public element is an affine tuple ``(x, y)`` of ints below ``p``, or ``None``
for the identity (the point at infinity). Inside an operation points are kept in Jacobian
coordinates ``(X, Y, Z)`` meaning ``(X/Z², Y/Z³)``, ``Z = 0`` for the identity, so no inversion is
needed until the end: every operation normalises its result once, with one ``pow(z, -1, p)``.
Doubling uses the ``a = -3`` formula (``dbl-2001-b``, 3M + 5S); additions are mixed (a Jacobian
accumulator plus an affine point, 8M + 3S) wherever the added points can be made affine first, by
Montgomery's simultaneous inversion (one inversion for a whole table).

Scalar multiplication (all scalars are reduced mod ``n``; ``0`` or the identity gives the identity):

- :meth:`P256.mul`, variable base: width-5 wNAF (about 256 doublings and 43 additions) over the
  odd multiples ``P, 3P, …, 15P``, made affine together.
- :meth:`P256.fixed`, fixed base: signed windows of ``w`` bits with one table per window of the
  affine points ``d·2^(w·j)·P`` for ``d = 1 … 2^(w-1)``; a multiplication is one mixed addition a
  window and no doubling (43 additions for ``w = 6``). A table is built in affine coordinates, all
  windows at once, one batched inversion a multiple (a few milliseconds: cheap enough for the joint
  key of each match). The generator's table is built on first use and kept; ``mul_gen`` uses it.
- :meth:`P256.multi_mul`: Straus's interleaved wNAF (one chain of doublings shared by all terms)
  up to :data:`PIPPENGER_FROM` terms, Pippenger's bucket method with signed digits beyond.

Encoding: SEC 1 v2 §2.3.3 compressed points (``02``/``03`` and the 32-byte ``x``), the identity
as the single byte ``00``; decoding (§2.3.4) accepts only the compressed form of a point on the
curve and refuses the identity. ``hash_to_group`` is the RFC 9380 suite
``P256_XMD:SHA-256_SSWU_RO_`` (§8.2): hash_to_field (§5.2, count 2, L = 48) with
``expand_message_xmd`` (§5.3.1), the simplified SWU map (§6.6.2) with ``Z = -10``, the sum of the
two points, and no cofactor clearing (``h_eff = 1``).

Nothing here is constant-time: the deal's secrets are short-lived and the other player sees only
timings of whole messages over a network, not of single multiplications.
"""

from __future__ import annotations

from typing import Sequence

from .group import FixedBase, Group, OpCount, Work, expand_message_xmd, run

__all__ = ["P256", "P256_GROUP", "PIPPENGER_FROM"]

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
"""The field prime."""
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
"""The group order."""
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
GX = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
GY = 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5

_SQRT_EXP = (P + 1) // 4  # p ≡ 3 (mod 4): a square's root is its (p+1)/4-th power
_SWU_Z = P - 10  # RFC 9380 §8.2: Z = -10 for P-256
_SWU_MINUS_B_OVER_A = (P - B) * pow(A, -1, P) % P
_SWU_B_OVER_ZA = B * pow(_SWU_Z * A, -1, P) % P

Affine = tuple[int, int]
Point = Affine | None
Jacobian = tuple[int, int, int]

_INF: Jacobian = (1, 1, 0)

WNAF_WIDTH = 5
"""wNAF width of variable-base and Straus multiplication: digits odd in ±15, tables of 8 points."""
FIXED_WIDTH = 6
"""Window of fixed-base tables: 43 windows of 32 points (1376 affine points a table)."""
PIPPENGER_FROM = 256
"""Number of terms from which :meth:`P256.multi_mul` uses Pippenger's buckets rather than Straus
(measured in CPython: Straus is faster below about 250 terms, the shuffle proof's 52 to 110 included)."""


# --- field and point arithmetic (module functions: the hot loops call them with ints) ------------


def _double(x: int, y: int, z: int) -> Jacobian:
    """2·(X, Y, Z), Jacobian, a = -3 (dbl-2001-b)."""
    if not z:
        return _INF
    delta = z * z % P
    gamma = y * y % P
    beta = x * gamma % P
    alpha = 3 * (x - delta) * (x + delta) % P
    x3 = (alpha * alpha - 8 * beta) % P
    return x3, (alpha * (4 * beta - x3) - 8 * gamma * gamma) % P, 2 * y * z % P


def _add_mixed(x1: int, y1: int, z1: int, x2: int, y2: int) -> Jacobian:
    """(X1, Y1, Z1) + (x2, y2), Jacobian plus affine; any inputs (equal, opposite, identity)."""
    if not z1:
        return x2, y2, 1
    zz = z1 * z1 % P
    h = x2 * zz % P - x1
    r = y2 * zz % P * z1 % P - y1
    if not h:
        return _double(x1, y1, z1) if not r else _INF
    hh = h * h % P
    hhh = h * hh % P
    v = x1 * hh % P
    x3 = (r * r - hhh - 2 * v) % P
    return x3, (r * (v - x3) - y1 * hhh) % P, z1 * h % P


def _add_jacobian(p1: Jacobian, p2: Jacobian) -> Jacobian:
    """p1 + p2, both Jacobian; any inputs."""
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    if not z1:
        return p2
    if not z2:
        return p1
    z1z1 = z1 * z1 % P
    z2z2 = z2 * z2 % P
    u1 = x1 * z2z2 % P
    s1 = y1 * z2z2 % P * z2 % P
    h = x2 * z1z1 % P - u1
    r = y2 * z1z1 % P * z1 % P - s1
    if not h:
        return _double(x1, y1, z1) if not r else _INF
    hh = h * h % P
    hhh = h * hh % P
    v = u1 * hh % P
    x3 = (r * r - hhh - 2 * v) % P
    return x3, (r * (v - x3) - s1 * hhh) % P, z1 * z2 % P * h % P


def _to_affine(x: int, y: int, z: int) -> Point:
    if not z:
        return None
    zi = pow(z, -1, P)
    zi2 = zi * zi % P
    return x * zi2 % P, y * zi2 % P * zi % P


def _batch_inverse(values: Sequence[int]) -> list[int]:
    """Inverses mod p of values none of which is 0 mod p, with one inversion (Montgomery's trick)."""
    prefix = []
    acc = 1
    for v in values:
        prefix.append(acc)
        acc = acc * v % P
    inv = pow(acc, -1, P)
    out = [0] * len(values)
    for i in range(len(values) - 1, -1, -1):
        out[i] = inv * prefix[i] % P
        inv = inv * values[i] % P
    return out


def _batch_affine(points: Sequence[Jacobian]) -> list[Affine]:
    """Affine forms of points none of which is the identity, with one inversion."""
    out = []
    for (x, y, _), zi in zip(points, _batch_inverse([z for _, _, z in points])):
        zi2 = zi * zi % P
        out.append((x * zi2 % P, y * zi2 % P * zi % P))
    return out


def _affine_add(a: Point, b: Point) -> Point:
    """a + b in affine coordinates (one inversion)."""
    if a is None:
        return b
    if b is None:
        return a
    x1, y1 = a
    x2, y2 = b
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return None
        slope = 3 * (x1 * x1 - 1) * pow(2 * y1, -1, P) % P
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (slope * slope - x1 - x2) % P
    return x3, (slope * (x1 - x3) - y1) % P


def _wnaf(k: int, width: int) -> list[tuple[int, int]]:
    """The non-zero digits ``(position, digit)`` of the width-``width`` NAF of ``k > 0``, low first."""
    full = 1 << width
    mask, half = full - 1, full >> 1
    out = []
    pos = 0
    while k:
        if k & 1:
            d = k & mask
            if d > half:
                d -= full
            out.append((pos, d))
            k = (k - d) >> width
            pos += width
        else:
            tz = (k & -k).bit_length() - 1
            k >>= tz
            pos += tz
    return out


def _odd_multiples(points: Sequence[Affine], count: int) -> list[list[Affine]]:
    """For each point ``P`` (not the identity), ``[P, 3P, …, (2·count-1)P]`` affine; two inversions in all."""
    twice = _batch_affine([_double(x, y, 1) for x, y in points])
    jac: list[Jacobian] = []
    for (x, y), (tx, ty) in zip(points, twice):
        acc: Jacobian = (x, y, 1)
        jac.append(acc)
        for _ in range(count - 1):
            acc = _add_mixed(*acc, tx, ty)
            jac.append(acc)
    flat = _batch_affine(jac)
    return [flat[i:i + count] for i in range(0, len(flat), count)]


def _straus(points: Sequence[Affine], scalars: Sequence[int]) -> Point:
    """Σ k_i·P_i by interleaved wNAF: one chain of doublings, one mixed addition a non-zero digit."""
    half = 1 << (WNAF_WIDTH - 2)
    tables = _odd_multiples(points, half)
    schedule: list[list[Affine]] = [[] for _ in range(N.bit_length() + 1)]
    top = 0
    for table, k in zip(tables, scalars):
        for pos, d in _wnaf(k, WNAF_WIDTH):
            if d > 0:
                schedule[pos].append(table[d >> 1])
            else:
                x, y = table[-d >> 1]
                schedule[pos].append((x, P - y))
            top = max(top, pos)
    x, y, z = _INF
    for pos in range(top, -1, -1):
        if z:
            x, y, z = _double(x, y, z)
        for px, py in schedule[pos]:
            x, y, z = _add_mixed(x, y, z, px, py)
    return _to_affine(x, y, z)


def _pippenger(points: Sequence[Affine], scalars: Sequence[int]) -> Point:
    """Σ k_i·P_i by Pippenger's buckets over signed windows of ``c`` bits."""
    c = max(4, len(points).bit_length() - 2)  # measured best: 7 for 300 terms, 8 for 600 to 1200
    full = 1 << c
    mask, half = full - 1, full >> 1
    windows = -(-(N.bit_length() + 1) // c)
    digits: list[list[int]] = []
    for k in scalars:
        row = []
        for _ in range(windows):
            d = k & mask
            k >>= c
            if d > half:
                d -= full
                k += 1
            row.append(d)
        digits.append(row)
    acc = _INF
    for j in range(windows - 1, -1, -1):
        for _ in range(c):
            acc = _double(*acc)
        buckets: list[Jacobian] = [_INF] * (half + 1)
        for (px, py), row in zip(points, digits):
            d = row[j]
            if d > 0:
                buckets[d] = _add_mixed(*buckets[d], px, py)
            elif d < 0:
                buckets[-d] = _add_mixed(*buckets[-d], px, P - py)
        running = total = _INF
        for b in range(half, 0, -1):
            running = _add_jacobian(running, buckets[b])
            total = _add_jacobian(total, running)
        acc = _add_jacobian(acc, total)
    return _to_affine(*acc)


# --- the group --------------------------------------------------------------------------------


class _P256Fixed(FixedBase):
    """Per-window tables of affine multiples of one base point: ``mul`` is additions only."""

    def __init__(self, group: "P256", base: Affine, width: int = FIXED_WIDTH,
                 tables: list[list[Affine]] | None = None) -> None:
        self.group = group
        self.width = width
        self.tables = tables if tables is not None else run(_fixed_tables_work(base, width))
        """``tables[j][d - 1] = d·2^(width·j)·base``."""

    def mul(self, k: int) -> Point:
        self.group.ops.fixed += 1
        k %= N
        full = 1 << self.width
        mask, half = full - 1, full >> 1
        x, y, z = _INF
        for table in self.tables:
            if not k:
                break
            d = k & mask
            k >>= self.width
            if d > half:
                d -= full
                k += 1
                px, py = table[-d - 1]
                x, y, z = _add_mixed(x, y, z, px, P - py)
            elif d:
                px, py = table[d - 1]
                x, y, z = _add_mixed(x, y, z, px, py)
        return _to_affine(x, y, z)


def _fixed_tables_work(base: Affine, width: int) -> Work[list[list[Affine]]]:
    """The tables of :class:`_P256Fixed`, yielding between columns (a table of a new base costs about
    as much as 20 multiplications: in slices, a browser's frame stays short)."""
    half = 1 << (width - 1)
    windows = -(-(N.bit_length() + 1) // width)
    x, y, z = base[0], base[1], 1
    starts: list[Jacobian] = []
    for _ in range(windows):
        starts.append((x, y, z))
        for _ in range(width):
            x, y, z = _double(x, y, z)
    yield
    # The multiples d·B_j of all windows' B_j = 2^(width·j)·base at once, in affine coordinates:
    # one batched inversion for each d (a third of the work of Jacobian additions normalised after).
    bases = _batch_affine(starts)
    column = []
    for (x, y), i in zip(bases, _batch_inverse([2 * y for _, y in bases])):
        slope = 3 * (x * x - 1) * i % P  # (3x² + a) / 2y with a = -3
        x2 = (slope * slope - 2 * x) % P
        column.append((x2, (slope * (x - x2) - y) % P))
    columns = [bases, column]
    for d in range(half - 2):  # d = 3 … half: d·B_j = (d-1)·B_j + B_j, never ±B_j (the order is prime)
        if d % 4 == 0:
            yield
        previous = columns[-1]
        inverses = _batch_inverse([px - bx for (px, _), (bx, _) in zip(previous, bases)])
        column = []
        for (px, py), (bx, by), i in zip(previous, bases, inverses):
            slope = (py - by) * i % P
            x3 = (slope * slope - px - bx) % P
            column.append((x3, (slope * (bx - x3) - by) % P))
        columns.append(column)
    return [list(row) for row in zip(*columns)]


class P256(Group):
    """The NIST P-256 group: affine points, ``None`` the identity; SEC 1 compressed encodings."""

    def __init__(self) -> None:
        self.name = "P-256"
        self.order = N
        self.element_bytes = 33
        self.scalar_bytes = 32
        self.identity = None
        self.generator = (GX, GY)
        self.ops = OpCount()
        self._generator_table: _P256Fixed | None = None

    # --- arithmetic ---------------------------------------------------------------------------

    def add(self, a: Point, b: Point) -> Point:
        return _affine_add(a, b)

    def neg(self, a: Point) -> Point:
        return None if a is None else (a[0], (P - a[1]) % P)

    def mul(self, a: Point, k: int) -> Point:
        self.ops.mul += 1
        k %= N
        if a is None or not k:
            return None
        return _straus([a], [k])

    def fixed(self, base: Point) -> FixedBase:
        if base is None:
            raise ValueError("no table of multiples of the identity")
        if base == self.generator:
            if self._generator_table is None:
                self._generator_table = _P256Fixed(self, base)
            return self._generator_table
        return _P256Fixed(self, base)

    def fixed_work(self, base: Point) -> Work[FixedBase]:
        if base is None:
            raise ValueError("no table of multiples of the identity")
        if base == self.generator and self._generator_table is not None:
            return self._generator_table
        tables = yield from _fixed_tables_work(base, FIXED_WIDTH)
        table = _P256Fixed(self, base, tables=tables)
        if base == self.generator:
            if self._generator_table is None:
                self._generator_table = table
            return self._generator_table
        return table

    def fixed_ready(self) -> bool:
        return self._generator_table is not None

    def multi_mul(self, pairs: Sequence[tuple[Point, int]]) -> Point:
        self.ops.multi += 1
        self.ops.multi_terms += len(pairs)
        points: list[Affine] = []
        scalars: list[int] = []
        for point, k in pairs:
            k %= N
            if point is not None and k:
                points.append(point)
                scalars.append(k)
        if not points:
            return None
        if len(points) >= PIPPENGER_FROM:
            return _pippenger(points, scalars)
        return _straus(points, scalars)

    # --- encodings ----------------------------------------------------------------------------

    def encode(self, a: Point) -> bytes:
        if a is None:
            return b"\x00"
        x, y = a
        return bytes([2 | (y & 1)]) + x.to_bytes(32, "big")

    def decode(self, data: bytes) -> Affine:
        if len(data) != 33:
            raise ValueError("a point is 33 bytes (SEC 1 compressed)")
        if data[0] not in (2, 3):
            raise ValueError("not a compressed point (prefix 02 or 03)")
        x = int.from_bytes(data[1:], "big")
        if x >= P:
            raise ValueError("x is not below the field prime")
        rhs = (x * x * x - 3 * x + B) % P
        y = pow(rhs, _SQRT_EXP, P)
        if y * y % P != rhs:
            raise ValueError("x is not on the curve")
        if y & 1 != data[0] & 1:
            y = P - y
        return x, y

    # --- hashing ------------------------------------------------------------------------------

    def hash_to_group(self, dst: bytes, msg: bytes) -> Affine:
        """RFC 9380 ``P256_XMD:SHA-256_SSWU_RO_``: hash_to_field (2 elements), map each, add."""
        uniform = expand_message_xmd(msg, dst, 96)
        q0 = _map_to_curve(int.from_bytes(uniform[:48], "big") % P)
        q1 = _map_to_curve(int.from_bytes(uniform[48:], "big") % P)
        point = _affine_add(q0, q1)
        if point is None:  # Q1 = -Q0: probability about 2^-256
            raise ValueError("hash_to_group: the two points cancel")
        return point


def _map_to_curve(u: int) -> Affine:
    """RFC 9380 §6.6.2, simplified SWU for ``y² = x³ + Ax + B`` (A = -3), Z = -10."""
    zu2 = _SWU_Z * u * u % P
    tv1 = zu2 * zu2 + zu2
    tv1 = pow(tv1, -1, P) if tv1 % P else 0
    x1 = _SWU_MINUS_B_OVER_A * (1 + tv1) % P if tv1 else _SWU_B_OVER_ZA
    gx1 = (x1 * x1 * x1 + A * x1 + B) % P
    y = pow(gx1, _SQRT_EXP, P)
    if y * y % P == gx1:
        x = x1
    else:
        x = zu2 * x1 % P
        gx2 = (x * x * x + A * x + B) % P
        y = pow(gx2, _SQRT_EXP, P)
    if u & 1 != y & 1:
        y = (P - y) % P
    return x, y


P256_GROUP = P256()
"""The group of the proven deal."""

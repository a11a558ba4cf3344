"""NIST P-256 (cribbage.online.p256): known answers from RFC 9380 and published k·G vectors,
consistency of the three ways to multiply, and the refusals of decoding."""

from __future__ import annotations

import base64
import random

import pytest

from cribbage.online import ProtocolError
from cribbage.online.group import expand_message_xmd, run
from cribbage.online.p256 import P256, P256_GROUP, PIPPENGER_FROM, B, N, P

G = P256_GROUP
GEN = G.generator
rng = random.Random(256)


def point(x: str, y: str) -> tuple[int, int]:
    return int(x, 16), int(y, 16)


# --- RFC 9380 Appendix K.1: expand_message_xmd(SHA-256), DST QUUX-V01-CS02-with-expander-SHA256-128 ---

XMD_DST = b"QUUX-V01-CS02-with-expander-SHA256-128"
XMD_VECTORS = [
    (b"", 0x20, "68a985b87eb6b46952128911f2a4412bbc302a9d759667f87f7a21d803f07235"),
    (b"abc", 0x20, "d8ccab23b5985ccea865c6c97b6e5b8350e794e603b4b97902f53a8a0d605615"),
    (b"abcdef0123456789", 0x20, "eff31487c770a893cfb36f912fbfcbff40d5661771ca4b2cb4eafe524333f5c1"),
    (b"", 0x80,
     "af84c27ccfd45d41914fdff5df25293e221afc53d8ad2ac06d5e3e29485dadbee0d121587713a3e0dd4d5e69e93eb7cd4f5df4cd"
     "103e188cf60cb02edc3edf18eda8576c412b18ffb658e3dd6ec849469b979d444cf7b26911a08e63cf31f9dcc541708d3491184472"
     "c2c29bb749d4286b004ceb5ee6b9a7fa5b646c993f0ced"),
    (b"abc", 0x80,
     "abba86a6129e366fc877aab32fc4ffc70120d8996c88aee2fe4b32d6c7b6437a647e6c3163d40b76a73cf6a5674ef1d890f95b66"
     "4ee0afa5359a5c4e07985635bbecbac65d747d3d2da7ec2b8221b17b0ca9dc8a1ac1c07ea6a1e60583e2cb00058e77b7b72a29842"
     "5cd1b941ad4ec65e8afc50303a22c0f99b0509b4c895f40"),
    (b"q128_" + b"q" * 128, 0x20, "b23a1d2b4d97b2ef7785562a7e8bac7eed54ed6e97e29aa51bfe3f12ddad1ff9"),
    (b"a512_" + b"a" * 512, 0x20, "4623227bcc01293b8c130bf771da8c298dede7383243dc0993d2d94823958c4c"),
]


@pytest.mark.parametrize(("msg", "length", "expected"), XMD_VECTORS)
def test_expand_message_xmd_rfc9380_k1(msg: bytes, length: int, expected: str) -> None:
    assert expand_message_xmd(msg, XMD_DST, length).hex() == expected


# --- RFC 9380 Appendix J.1.1: P256_XMD:SHA-256_SSWU_RO_ ---------------------------------------

H2C_DST = b"QUUX-V01-CS02-with-P256_XMD:SHA-256_SSWU_RO_"
H2C_VECTORS = [
    (b"", "2c15230b26dbc6fc9a37051158c95b79656e17a1a920b11394ca91c44247d3e4",
     "8a7a74985cc5c776cdfe4b1f19884970453912e9d31528c060be9ab5c43e8415"),
    (b"abc", "0bb8b87485551aa43ed54f009230450b492fead5f1cc91658775dac4a3388a0f",
     "5c41b3d0731a27a7b14bc0bf0ccded2d8751f83493404c84a88e71ffd424212e"),
    (b"abcdef0123456789", "65038ac8f2b1def042a5df0b33b1f4eca6bff7cb0f9c6c1526811864e544ed80",
     "cad44d40a656e7aff4002a8de287abc8ae0482b5ae825822bb870d6df9b56ca3"),
    (b"q128_" + b"q" * 128, "4be61ee205094282ba8a2042bcb48d88dfbb609301c49aa8b078533dc65a0b5d",
     "98f8df449a072c4721d241a3b1236d3caccba603f916ca680f4539d2bfb3c29e"),
    (b"a512_" + b"a" * 512, "457ae2981f70ca85d8e24c308b14db22f3e3862c5ea0f652ca38b5e49cd64bc5",
     "ecb9f0eadc9aeed232dabc53235368c1394c78de05dd96893eefa62b0f4757dc"),
]


@pytest.mark.parametrize(("msg", "x", "y"), H2C_VECTORS)
def test_hash_to_group_rfc9380_j11(msg: bytes, x: str, y: str) -> None:
    assert G.hash_to_group(H2C_DST, msg) == point(x, y)


def test_hash_to_group_intermediate_points_of_j11() -> None:
    # msg "": u0, u1 and the two mapped points Q0, Q1 of the same appendix.
    from cribbage.online.p256 import _map_to_curve

    u0 = int("ad5342c66a6dd0ff080df1da0ea1c04b96e0330dd89406465eeba11582515009", 16)
    u1 = int("8c0f1d43204bd6f6ea70ae8013070a1518b43873bcd850aafa0a9e220e2eea5a", 16)
    uniform = expand_message_xmd(b"", H2C_DST, 96)
    assert [int.from_bytes(uniform[:48], "big") % P, int.from_bytes(uniform[48:], "big") % P] == [u0, u1]
    assert _map_to_curve(u0) == point("ab640a12220d3ff283510ff3f4b1953d09fad35795140b1c5d64f313967934d5",
                                      "dccb558863804a881d4fff3455716c836cef230e5209594ddd33d85c565b19b1")
    assert _map_to_curve(u1) == point("51cce63c50d972a6e51c61334f0f4875c9ac1cd2d3238412f84e31da7d980ef5",
                                      "b45d1a36d00ad90e5ec7840a60a4de411917fbe7c82c3949a6e699e5a1b66aac")


# --- k·G: the P-256 vectors of point-at-infinity.org/ecc/nisttv -----------------------------

KG_VECTORS = [
    (1, "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296",
     "4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5"),
    (2, "7CF27B188D034F7E8A52380304B51AC3C08969E277F21B35A60B48FC47669978",
     "07775510DB8ED040293D9AC69F7430DBBA7DADE63CE982299E04B79D227873D1"),
    (3, "5ECBE4D1A6330A44C8F7EF951D4BF165E6C6B721EFADA985FB41661BC6E7FD6C",
     "8734640C4998FF7E374B06CE1A64A2ECD82AB036384FB83D9A79B127A27D5032"),
    (20, "83A01A9378395BAB9BCD6A0AD03CC56D56E6B19250465A94A234DC4C6B28DA9A",
     "76E49B6DE2F73234AE6A5EB9D612B75C9F2202BB6923F54FF8240AAA86F640B8"),
    (112233445566778899, "339150844EC15234807FE862A86BE77977DBFB3AE3D96F4C22795513AEAAB82F",
     "B1C14DDFDC8EC1B2583F51E85A5EB3A155840F2034730E9B5ADA38B674336A21"),
    (112233445566778899112233445566778899, "1B7E046A076CC25E6D7FA5003F6729F665CC3241B5ADAB12B498CD32F2803264",
     "BFEA79BE2B666B073DB69A2A241ADAB0738FE9D2DD28B5604EB8C8CF097C457B"),
    (29852220098221261079183923314599206100666902414330245206392788703677545185283,
     "9EACE8F4B071E677C5350B02F2BB2B384AAE89D58AA72CA97A170572E0FB222F",
     "1BBDAEC2430B09B93F7CB08678636CE12EAAFD58390699B5FD2F6E1188FC2A78"),
    (57896042899961394862005778464643882389978449576758748073725983489954366354431,
     "878F22CC6DB6048D2B767268F22FFAD8E56AB8E2DC615F7BD89F1E350500DD8D",
     "714A5D7BB901C9C5853400D12341A892EF45D87FC553786756C4F0C9391D763E"),
]


@pytest.mark.parametrize(("k", "x", "y"), KG_VECTORS)
def test_k_times_g(k: int, x: str, y: str) -> None:
    expected = point(x, y)
    assert G.mul(GEN, k) == expected
    assert G.mul_gen(k) == expected
    assert G.multi_mul([(GEN, k)]) == expected
    assert G.mul(GEN, N - k) == G.neg(expected)  # and n - k gives the negation


# --- arithmetic consistency -------------------------------------------------------------------


def random_point() -> tuple[int, int]:
    p = G.mul_gen(rng.randrange(1, N))
    assert p is not None
    return p  # type: ignore[no-any-return]


def naive(pairs: list[tuple[object, int]]) -> object:
    total = None
    for p, k in pairs:
        total = G.add(total, G.mul(p, k))
    return total


def test_the_curve_and_the_order() -> None:
    x, y = GEN
    assert (y * y - (x ** 3 - 3 * x + B)) % P == 0
    assert G.mul(GEN, N) is None and G.mul_gen(N) is None and G.mul(GEN, 0) is None
    assert G.mul(None, 5) is None and G.multi_mul([]) is None
    assert G.mul(GEN, N + 7) == G.mul(GEN, 7) and G.mul(GEN, -1) == G.neg(GEN)
    assert G.name == "P-256" and G.order == N and G.identity is None
    assert (G.element_bytes, G.scalar_bytes) == (33, 32)


def test_the_group_law() -> None:
    a, b = rng.randrange(N), rng.randrange(N)
    pa, pb = G.mul_gen(a), G.mul_gen(b)
    assert G.add(pa, pb) == G.mul_gen(a + b) == G.add(pb, pa)
    assert G.add(pa, pa) == G.mul(pa, 2) == G.mul_gen(2 * a)
    assert G.add(pa, G.neg(pa)) is None and G.sub(pa, pa) is None
    assert G.add(pa, None) == pa == G.add(None, pa)
    assert G.neg(None) is None and G.neg(G.neg(pa)) == pa
    assert G.mul(G.mul(pa, b), 3) == G.mul_gen(3 * a * b)


def test_fixed_base_equals_variable_base_and_multi() -> None:
    base = random_point()
    table = G.fixed(base)
    for k in [0, 1, 2, 15, 16, 17, 31, 32, 33, N - 1, N, N + 1, 2 ** 255, 2 ** 256 - 1] + \
             [rng.randrange(N) for _ in range(5)]:
        assert table.mul(k) == G.mul(base, k) == G.multi_mul([(base, k)])
    assert G.fixed(GEN) is G.fixed(GEN)  # the generator's table is built once



def test_a_table_made_in_slices_is_the_table_made_at_once() -> None:
    """``fixed_work`` (the joint key's table, made once a match before its first shuffle) yields
    between its columns and ends with the same table as ``fixed``; the generator's table made in
    slices is the one kept."""
    g = P256()
    y = g.mul(g.generator, 987654321)
    work = g.fixed_work(y)
    pieces = 0
    while True:
        try:
            next(work)
            pieces += 1
        except StopIteration as stop:
            sliced = stop.value
            break
    assert pieces >= 8
    at_once = g.fixed(y)
    assert sliced.tables == at_once.tables  # type: ignore[attr-defined]
    k = random.Random(5).randrange(N)
    assert sliced.mul(k) == at_once.mul(k) == g.mul(y, k)
    assert not g.fixed_ready()
    kept = run(g.fixed_work(g.generator))
    assert g.fixed_ready() and g.fixed(g.generator) is kept and kept.mul(k) == g.mul(g.generator, k)

@pytest.mark.parametrize("terms", [0, 1, 2, 10, 60])
def test_multi_mul_is_the_sum_of_singles(terms: int) -> None:
    points = [random_point() for _ in range(min(terms, 8))]
    pairs: list[tuple[object, int]] = []
    for i in range(terms):
        p: object = points[i % len(points)]
        k = rng.randrange(N)
        if i % 7 == 3:
            k = 0
        if i % 11 == 5:
            p = None
        pairs.append((p, k))
    assert G.multi_mul(pairs) == naive(pairs)


def test_multi_mul_cancelling_and_repeated_terms() -> None:
    p = random_point()
    k = rng.randrange(N)
    assert G.multi_mul([(p, k), (p, N - k)]) is None
    assert G.multi_mul([(p, k), (p, k)]) == G.mul(p, 2 * k)
    assert G.multi_mul([(p, k), (G.neg(p), k), (GEN, 1)]) == GEN


def test_pippenger_equals_straus() -> None:
    # The bucket method runs from PIPPENGER_FROM terms; check it directly on fewer (it is exact for any).
    from cribbage.online.p256 import _pippenger, _straus

    points = [random_point() for _ in range(5)]
    pts = [points[i % 5] for i in range(40)]
    ks = [rng.randrange(N) for _ in range(40)]
    ks[3] = 1
    ks[7] = N - ks[2]  # cancels a term with the same point
    assert _pippenger(pts, ks) == _straus(pts, ks) == naive(list(zip(pts, ks)))


def test_multi_mul_with_many_terms_takes_the_buckets() -> None:
    from cribbage.online.p256 import _straus

    points = [random_point() for _ in range(4)]
    pairs = [(points[i % 4], rng.randrange(N)) for i in range(PIPPENGER_FROM + 3)]
    pairs[10] = (None, 5)
    pairs[11] = (points[3], 0)
    kept = [(p, k) for p, k in pairs if p is not None and k]
    assert G.multi_mul(pairs) == _straus([p for p, _ in kept], [k for _, k in kept])


def test_op_counts() -> None:
    group = P256()
    group.mul(GEN, 3)
    group.mul_gen(3)
    group.fixed(GEN).mul(4)
    group.multi_mul([(GEN, 1), (GEN, 2), (None, 3)])
    assert (group.ops.mul, group.ops.fixed, group.ops.multi, group.ops.multi_terms) == (1, 2, 1, 3)


# --- encodings --------------------------------------------------------------------------------


def test_encode_decode_round_trip() -> None:
    assert G.encode(GEN).hex() == "036b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
    assert G.encode(None) == b"\x00"
    for _ in range(20):
        p = random_point()
        data = G.encode(p)
        assert len(data) == 33 and data[0] == 2 + (p[1] & 1)
        assert G.decode(data) == p
        assert G.decode_text(G.encode_text(p), "a point") == p


def off_curve_x() -> int:
    x = 0
    while True:
        rhs = (x ** 3 - 3 * x + B) % P
        if pow(rhs, (P - 1) // 2, P) == P - 1:
            return x
        x += 1


def bad_encodings() -> list[bytes]:
    x, y = GEN
    return [
        b"\x00",  # the identity
        b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big"),  # uncompressed
        b"\x04" + x.to_bytes(32, "big"),
        b"\x05" + x.to_bytes(32, "big"),
        b"\x00" + x.to_bytes(32, "big"),
        b"\x02" + P.to_bytes(32, "big"),  # x = p
        b"\x03" + (P + 1).to_bytes(32, "big"),  # x > p
        b"\x02" + (2 ** 256 - 1).to_bytes(32, "big"),
        b"\x02" + off_curve_x().to_bytes(32, "big"),
        b"\x02" + x.to_bytes(32, "big")[1:],  # 32 bytes
        b"\x02" + x.to_bytes(32, "big") + b"\x00",  # 34 bytes
        b"",
    ]


@pytest.mark.parametrize("data", bad_encodings())
def test_decode_refuses(data: bytes) -> None:
    with pytest.raises(ValueError):
        G.decode(data)
    with pytest.raises(ProtocolError):
        G.decode_text(base64.b64encode(data).decode("ascii"), "a point")


def test_an_x_at_or_above_p_is_refused_even_when_x_minus_p_is_on_the_curve() -> None:
    x = next(x for x in range(1, 100) if pow((x ** 3 - 3 * x + B) % P, (P - 1) // 2, P) == 1)
    assert G.decode(b"\x02" + x.to_bytes(32, "big"))[0] == x
    with pytest.raises(ValueError, match="below the field prime"):
        G.decode(b"\x02" + (x + P).to_bytes(32, "big"))


def test_scalars() -> None:
    assert G.decode_scalar(G.encode_scalar(N - 1)) == N - 1
    with pytest.raises(ValueError):
        G.decode_scalar(N.to_bytes(32, "big"))

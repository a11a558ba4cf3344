"""The cryptographic deal: the group, the card points, shuffles, shares and the audit of one pack."""

from __future__ import annotations

import random

import pytest

from cribbage.cards import DECK
from cribbage.online import AuditFailure, ProtocolError
from cribbage.online import sra
from cribbage.online.sra import P, Q


def keys(seed: int) -> tuple[int, int, list[int], list[int]]:
    rng = random.Random(seed)
    return (sra.new_key(rng.randrange), sra.new_key(rng.randrange),
            sra.random_permutation(52, rng.randrange), sra.random_permutation(52, rng.randrange))


def deal(seed: int = 1) -> dict[str, object]:
    a, b, order_a, order_b = keys(seed)
    table_a, first = sra.run(sra.shuffle_first(a, order_a))
    table_b, pack = sra.run(sra.shuffle_second(first, b, order_b))
    return {"a": a, "b": b, "order_a": order_a, "order_b": order_b, "table_a": table_a, "table_b": table_b,
            "first": first, "pack": pack}


def truth(d: dict[str, object]) -> list[int]:
    """The card index in each slot, from the two secret orders."""
    order_a, order_b = d["order_a"], d["order_b"]
    return [order_a[order_b[s]] for s in range(52)]  # type: ignore[index]


def test_the_group_is_rfc3526_group_14() -> None:
    assert P.bit_length() == 2048
    assert pow(2, P - 1, P) == 1 and pow(3, Q, P) in (1, P - 1)
    assert P % 8 == 7  # so 2 is a residue and -1 is not
    assert hex(P).endswith("15728e5a8aacaa68ffffffffffffffff")


def test_jacobi_is_eulers_criterion() -> None:
    rng = random.Random(5)
    for _ in range(40):
        x = rng.randrange(2, P - 1)
        assert (sra.jacobi(x, P) == 1) == (pow(x, Q, P) == 1)
    assert sra.jacobi(P - 1, P) == -1
    assert sra.jacobi(4, P) == 1


def test_card_points_are_distinct_residues_with_no_small_product_relations() -> None:
    points = sra.CARD_POINTS
    assert len(set(points)) == 52
    assert all(sra.is_element(m) for m in points)
    assert all(pow(m, Q, P) == 1 for m in points[:3])
    members = set(points)
    # m_x * m_y == m_z would survive encryption and name cards in the encrypted pack.
    assert not any(points[x] * points[y] % P in members for x in range(52) for y in range(x, 52))
    assert not any(pow(m, -1, P) in members for m in points)


def test_small_integer_points_would_leak_through_encryption() -> None:
    # Why the points are hashed: with (i+2)^2 a product relation shows through any key.
    k = sra.new_key(random.Random(2).randrange)
    enc = [pow((i + 2) ** 2, k, P) for i in range(52)]
    assert enc[0] * enc[1] % P == enc[4]


def test_encryption_commutes_and_shares_open_the_right_card() -> None:
    d = deal(3)
    cards = truth(d)
    table_a = {v: i for i, v in enumerate(d["table_a"])}  # type: ignore[arg-type]
    table_b = {v: i for i, v in enumerate(d["table_b"])}  # type: ignore[arg-type]
    inv_a, inv_b = sra.inverse(d["a"]), sra.inverse(d["b"])  # type: ignore[arg-type]
    pack = d["pack"]
    for s in (0, 7, 51):
        share_from_a = sra.make_share(pack[s], inv_a)  # type: ignore[index]
        share_from_b = sra.make_share(pack[s], inv_b)  # type: ignore[index]
        assert sra.open_share(share_from_a, table_b) == cards[s]
        assert sra.open_share(share_from_b, table_a) == cards[s]
        # A share meant for the other side opens nothing in one's own table.
        assert sra.open_share(share_from_a, table_a) is None


def test_a_share_of_nothing_opens_no_card() -> None:
    d = deal(4)
    table_b = {v: i for i, v in enumerate(d["table_b"])}  # type: ignore[arg-type]
    assert sra.open_share(pow(5, 2 * 12345, P), table_b) is None


def test_the_pack_hides_the_cards_from_either_table() -> None:
    d = deal(6)
    assert not set(d["pack"]) & set(d["table_a"])  # type: ignore[arg-type]
    assert not set(d["pack"]) & set(d["table_b"])  # type: ignore[arg-type]
    assert not set(d["pack"]) & set(sra.CARD_POINTS)  # type: ignore[arg-type]


def test_elements_round_trip_and_bad_ones_are_refused() -> None:
    d = deal(7)
    for v in d["pack"][:3]:  # type: ignore[index]
        text = sra.encode_element(v)
        assert len(text) == sra.ELEMENT_TEXT_LENGTH
        assert sra.decode_element(text, "x") == v
    non_residue = P - 1
    bad = [None, 5, "", "A" * 344, "!" * 344, sra.encode_element(non_residue), sra.encode_element(1),
           sra.encode_element(0), base64_of(P), sra.encode_element(d["pack"][0])[:-4]]  # type: ignore[index]
    for b in bad:
        with pytest.raises(ProtocolError):
            sra.decode_element(b, "value")


def base64_of(n: int) -> str:
    import base64
    return base64.b64encode(n.to_bytes(256, "big")).decode()


def test_a_pack_list_with_a_duplicate_is_refused_at_once() -> None:
    d = deal(8)
    texts = [sra.encode_element(v) for v in d["first"]]  # type: ignore[attr-defined]
    assert sra.decode_pack_list(texts, "pack") == d["first"]
    dup = list(texts)
    dup[10] = dup[20]
    with pytest.raises(ProtocolError, match="twice"):
        sra.decode_pack_list(dup, "pack")
    with pytest.raises(ProtocolError):
        sra.decode_pack_list(texts[:51], "pack")
    with pytest.raises(ProtocolError):
        sra.decode_pack_list("x", "pack")


def test_keys_round_trip_and_are_range_checked() -> None:
    k = sra.new_key()
    assert 2 <= k < 2**256
    assert sra.decode_key(sra.encode_key(k)) == k
    for bad in [None, 3, "", "g" * 64, "0" * 64, "01" + "0" * 62 + "x", "F" * 64, "0" * 63]:
        with pytest.raises(ProtocolError):
            sra.decode_key(bad)


def test_permutations_are_permutations() -> None:
    for seed in range(5):
        order = sra.random_permutation(52, random.Random(seed).randrange)
        assert sorted(order) == list(range(52))


def audit(d: dict[str, object], *, as_first: bool, shares: dict[int, int] | None = None,
          first: list[int] | None = None, pack: list[int] | None = None, a: int | None = None,
          b: int | None = None) -> sra.PackAudit:
    return sra.run(sra.audit_pack(
        first if first is not None else d["first"], pack if pack is not None else d["pack"],  # type: ignore[arg-type]
        a if a is not None else d["a"], b if b is not None else d["b"],  # type: ignore[arg-type]
        own_table=d["table_a" if as_first else "table_b"],  # type: ignore[arg-type]
        own_is_first=as_first, own_order=None if as_first else d["order_b"],  # type: ignore[arg-type]
        shares=shares or {}))


def test_an_honest_pack_passes_the_audit_from_both_sides() -> None:
    d = deal(9)
    expected = [DECK[i] for i in truth(d)]
    inv_a, inv_b = sra.inverse(d["a"]), sra.inverse(d["b"])  # type: ignore[arg-type]
    shares_to_b = {s: sra.make_share(d["pack"][s], inv_a) for s in (1, 2, 3)}  # type: ignore[index]
    shares_to_a = {s: sra.make_share(d["pack"][s], inv_b) for s in (4, 5)}  # type: ignore[index]
    tally = sra.Tally()
    result = sra.run(sra.audit_pack(d["first"], d["pack"], d["a"], d["b"], own_table=d["table_a"],  # type: ignore[arg-type]
                                    own_is_first=True, own_order=None, shares=shares_to_a, tally=tally))
    assert result.cards == expected
    assert tally.short == 52 and tally.full == 0
    assert audit(d, as_first=False, shares=shares_to_b).cards == expected


def test_a_first_shuffle_with_a_card_twice_is_caught_by_the_audit() -> None:
    # The subtle duplicate: one value made with another exponent, so the list holds no equal values.
    d = deal(10)
    first = list(d["first"])  # type: ignore[call-overload]
    card = d["order_a"][0]  # type: ignore[index]
    first[1] = pow(sra.CARD_POINTS[card], d["a"] + 1, P)  # type: ignore[operator]
    b, order_b = d["b"], d["order_b"]
    table_b, pack = sra.run(sra.shuffle_second(first, b, order_b))  # type: ignore[arg-type]
    d2 = dict(d, first=first, pack=pack, table_b=table_b)
    with pytest.raises(AuditFailure, match="first shuffle") as info:
        audit(d2, as_first=False)
    assert info.value.evidence["position"] == 1


def test_a_second_shuffle_that_changes_a_card_is_caught_by_the_audit() -> None:
    d = deal(11)
    pack = list(d["pack"])  # type: ignore[call-overload]
    pack[17] = pow(sra.CARD_POINTS[0], d["a"] * d["b"] + 1, P)  # type: ignore[operator]
    with pytest.raises(AuditFailure, match="slot 17") as info:
        audit(d, as_first=True, pack=pack)
    assert info.value.evidence["slot"] == 17


def test_a_false_share_is_caught_by_the_audit() -> None:
    d = deal(12)
    inv_a = sra.inverse(d["a"])  # type: ignore[arg-type]
    # A gives B slot 9's opening but says it is slot 8's: a real card, the wrong one.
    false = {8: sra.make_share(d["pack"][9], inv_a)}  # type: ignore[index]
    with pytest.raises(AuditFailure, match="slot 8") as info:
        audit(d, as_first=False, shares=false)
    assert info.value.evidence["card"] == DECK[truth(d)[8]].code


def test_a_false_key_fails_the_audit() -> None:
    d = deal(13)
    with pytest.raises(AuditFailure):
        audit(d, as_first=False, a=d["a"] + 2)  # type: ignore[operator]
    with pytest.raises(AuditFailure):
        audit(d, as_first=True, b=d["b"] + 2)  # type: ignore[operator]


def test_work_yields_between_powers() -> None:
    a = sra.new_key()
    steps = 0
    work = sra.card_table(a)
    while True:
        try:
            next(work)
            steps += 1
        except StopIteration as stop:
            assert len(stop.value) == 52
            break
    assert steps == 52


def _probable_prime(n: int) -> bool:
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def test_the_test_group_is_a_safe_prime_group_with_its_own_points() -> None:
    g = sra.TEST_GROUP
    assert _probable_prime(g.p) and _probable_prime(g.q) and g.p == 2 * g.q + 1
    assert len(set(g.points)) == 52 and all(sra.is_element(m, None, g) for m in g.points)
    assert g.text_length == len(sra.encode_element(g.points[0], g))
    assert _probable_prime(sra.Q)  # group 14's subgroup order too

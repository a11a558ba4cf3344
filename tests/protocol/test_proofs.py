"""Fiat–Shamir transcripts, ElGamal helpers, and the Schnorr and Chaum–Pedersen proofs."""

from __future__ import annotations

import base64
import random
from typing import Any

import pytest

from cribbage.online import ProtocolError
from cribbage.online.elgamal import (
    combine, decode_ciphertexts, decryption_share, encode_ciphertexts, public_deck, reencrypt,
)
from cribbage.online.group import MODP_TEST, Group
from cribbage.online import proofs
from cribbage.online.proofs import (
    BatchDleqProof, DleqProof, DlogProof, prove_dleq, prove_dleq_batch, prove_dlog, verify_dleq, verify_dleq_batch,
    verify_dlog,
)
from cribbage.online.transcript import Transcript

G = MODP_TEST


def context(group: Group, room: str = "room-1", pack: int = 3, seat: int = 0) -> Transcript:
    t = Transcript("cribbage-v2 test")
    t.append_text("group", group.name)
    t.append_text("room", room)
    t.append_int("pack", pack)
    t.append_int("seat", seat)
    return t


def rng(seed: int = 7) -> random.Random:
    return random.Random(seed)


# --- transcript -------------------------------------------------------------------------------


def test_transcript_is_deterministic_and_copies_fork() -> None:
    a, b = context(G), context(G)
    assert a.challenge("c", G) == b.challenge("c", G)
    fork = a.copy()
    assert fork.challenge("d", G) == a.challenge("d", G)
    fork.append("x", b"1")
    assert fork.challenge("e", G) != a.challenge("e", G)


def test_successive_challenges_differ() -> None:
    t = context(G)
    first, second = t.challenge("c", G), t.challenge("c", G)
    assert first != second
    us = t.challenges("u", G, 5)
    assert len(set(us)) == 5 and all(0 <= u < G.order for u in us)
    assert t.challenge("c", G) not in us


@pytest.mark.parametrize("items", [
    [("ab", b"c")],            # another split of label and data
    [("a", b"bc"), ("x", b"")],  # another length split across items
    [("x", b""), ("a", b"bc")],  # another order
    [("b", b"bc")],            # another label
    [("a", b"bcd")],           # other data
])
def test_transcript_items_are_labelled_and_length_prefixed(items: list[tuple[str, bytes]]) -> None:
    base = context(G)
    base.append("a", b"bc")
    other = context(G)
    for label, data in items:
        other.append(label, data)
    assert base.challenge("c", G) != other.challenge("c", G)


def test_transcript_challenges_depend_on_label_and_count() -> None:
    assert context(G).challenges("u", G, 3) != context(G).challenges("v", G, 3)
    assert context(G).challenges("u", G, 3) != context(G).challenges("u", G, 4)[:3]
    assert context(G).challenge("u", G) != context(G).challenge("v", G)


def test_transcript_elements_count_and_identity() -> None:
    a, b = context(G), context(G)
    a.append_elements("e", G, [G.identity, 4])
    b.append_elements("e", G, [4, G.identity])
    assert a.challenge("c", G) != b.challenge("c", G)
    with pytest.raises(ValueError):
        context(G).append_int("n", -1)


# --- ElGamal ----------------------------------------------------------------------------------


def points(group: Group, n: int) -> list[Any]:
    return [group.hash_to_group(b"test card", bytes([i])) for i in range(n)]


def test_reencrypt_and_open_with_two_shares() -> None:
    r = rng()
    x0, x1 = G.random_scalar(r.randrange), G.random_scalar(r.randrange)
    Y = G.add(G.mul_gen(x0), G.mul_gen(x1))
    deck = public_deck(G, points(G, 4))
    assert all(a == G.identity for a, _ in deck)
    gY = G.fixed(Y)
    for ct, m in zip(deck, points(G, 4)):
        once = reencrypt(G, gY, ct, G.random_scalar(r.randrange))
        twice = reencrypt(G, gY, once, G.random_scalar(r.randrange))
        shares = [decryption_share(G, x0, twice), decryption_share(G, x1, twice)]
        assert combine(G, twice, shares) == m
        assert combine(G, twice, shares[:1]) != m


def test_ciphertexts_on_the_wire() -> None:
    r = rng()
    gY = G.fixed(G.mul_gen(5))
    cts = [reencrypt(G, gY, ct, G.random_scalar(r.randrange)) for ct in public_deck(G, points(G, 3))]
    wire = encode_ciphertexts(G, cts)
    assert decode_ciphertexts(G, wire, 3, "deck") == cts
    bad: list[object] = [
        "x", wire[:2], wire + [wire[0]], [wire[0], wire[1], wire[0]], [wire[0], wire[1], wire[2][:1]],
        [wire[0], wire[1], (wire[2][0], wire[2][1])], [wire[0], wire[1], [wire[2][0], 5]],
        [wire[0], wire[1], [wire[2][0], G.encode_text(G.identity)]],
        [wire[0], wire[1], [wire[2][0], wire[2][1][:-4] + "!!!!"]],
    ]
    for value in bad:
        with pytest.raises(ProtocolError):
            decode_ciphertexts(G, value, 3, "deck")
    with pytest.raises(ProtocolError):  # the public deck's identity components are never received
        decode_ciphertexts(G, encode_ciphertexts(G, public_deck(G, points(G, 2))), 2, "deck")


# --- Schnorr ----------------------------------------------------------------------------------


def test_dlog_completeness_and_wire() -> None:
    r = rng()
    x = G.random_scalar(r.randrange)
    proof = prove_dlog(G, x, context(G), r.randrange)
    assert verify_dlog(G, G.mul_gen(x), proof, context(G))
    again = DlogProof.from_wire(G, proof.to_wire(), "key proof")
    assert again == proof and verify_dlog(G, G.mul_gen(x), again, context(G))


@pytest.mark.parametrize("other", [
    {"room": "room-2"}, {"pack": 4}, {"seat": 1},
])
def test_dlog_fails_in_another_context(other: dict[str, object]) -> None:
    r = rng()
    x = G.random_scalar(r.randrange)
    proof = prove_dlog(G, x, context(G), r.randrange)
    assert not verify_dlog(G, G.mul_gen(x), proof, context(G, **other))  # type: ignore[arg-type]


def test_dlog_fails_for_another_key_or_a_tampered_proof() -> None:
    r = rng()
    x = G.random_scalar(r.randrange)
    y = G.mul_gen(x)
    proof = prove_dlog(G, x, context(G), r.randrange)
    assert not verify_dlog(G, G.mul_gen(x + 1), proof, context(G))
    assert not verify_dlog(G, y, DlogProof(G, proof.challenge, (proof.response + 1) % G.order), context(G))
    assert not verify_dlog(G, y, DlogProof(G, (proof.challenge + 1) % G.order, proof.response), context(G))


def test_rogue_key_cannot_be_proved() -> None:
    """``y' = z·G − y_other`` makes ``Y = z·G``; its maker knows ``z``, not ``log y'``."""
    r = rng()
    y_other = G.mul_gen(G.random_scalar(r.randrange))
    z = G.random_scalar(r.randrange)
    rogue = G.sub(G.mul_gen(z), y_other)
    assert G.add(y_other, rogue) == G.mul_gen(z)
    # A proof made with what the attacker knows (z) is a proof for z·G, not for the rogue key.
    assert not verify_dlog(G, rogue, prove_dlog(G, z, context(G, seat=1), r.randrange), context(G, seat=1))
    # The other browser's own proof, replayed, is for y_other in the other seat.
    honest = prove_dlog(G, 12345, context(G, seat=0), r.randrange)
    assert not verify_dlog(G, rogue, honest, context(G, seat=1))
    # Choosing the response and solving for the commitment needs the challenge first: it fails.
    s, c = G.random_scalar(r.randrange), G.random_scalar(r.randrange)
    assert not verify_dlog(G, rogue, DlogProof(G, c, s), context(G, seat=1))


# --- Chaum–Pedersen ---------------------------------------------------------------------------


def dleq_setup(seed: int = 3) -> tuple[int, Any, Any, Any, random.Random]:
    r = rng(seed)
    x = G.random_scalar(r.randrange)
    y = G.mul_gen(x)
    a = G.mul_gen(G.random_scalar(r.randrange))
    return x, y, a, G.mul(a, x), r


def test_dleq_completeness_and_wire() -> None:
    x, y, a, d, r = dleq_setup()
    proof = prove_dleq(G, x, G.generator, y, a, d, context(G), r.randrange)
    assert verify_dleq(G, G.generator, y, a, d, proof, context(G))
    again = DleqProof.from_wire(G, proof.to_wire(), "share proof")
    assert verify_dleq(G, G.generator, y, a, d, again, context(G))


def test_dleq_fails_for_a_wrong_share_other_key_context_or_tampering() -> None:
    x, y, a, d, r = dleq_setup()
    proof = prove_dleq(G, x, G.generator, y, a, d, context(G), r.randrange)
    wrong = G.mul(a, x + 1)  # a valid point, not x·a
    assert not verify_dleq(G, G.generator, y, a, wrong, proof, context(G))
    assert not verify_dleq(G, G.generator, G.mul_gen(x + 1), a, d, proof, context(G))
    assert not verify_dleq(G, G.generator, y, G.add(a, a), d, proof, context(G))
    assert not verify_dleq(G, G.generator, y, a, d, proof, context(G, pack=4))
    assert not verify_dleq(G, G.generator, y, a, d, proof, context(G, seat=1))
    assert not verify_dleq(G, G.generator, y, a, d, DleqProof(G, proof.challenge, proof.response ^ 1),
                           context(G))
    # A cheater proving a wrong share with its real key still fails.
    cheat = prove_dleq(G, x, G.generator, y, a, wrong, context(G), r.randrange)
    assert not verify_dleq(G, G.generator, y, a, wrong, cheat, context(G))


# --- the batched Chaum–Pedersen proof (RFC 9497 §2.2) -------------------------------------------


def batch_setup(n: int = 6, seed: int = 5) -> tuple[int, Any, list[Any], list[Any], random.Random]:
    """A key ``x``, ``y = x·G``, ``n`` bases (first halves of ciphertexts) and the true shares ``x·a_i``."""
    r = rng(seed)
    x = G.random_scalar(r.randrange)
    bases = [G.mul_gen(G.random_scalar(r.randrange)) for _ in range(n)]
    return x, G.mul_gen(x), bases, [G.mul(a, x) for a in bases], r


@pytest.mark.parametrize("n", [1, 2, 6])
def test_batch_dleq_completeness_and_wire(n: int) -> None:
    x, y, bases, values, r = batch_setup(n)
    proof = prove_dleq_batch(G, x, G.generator, y, bases, values, context(G), r.randrange)
    again = BatchDleqProof.from_wire(G, proof.to_wire(), "batch proof")
    assert verify_dleq_batch(G, G.generator, y, bases, values, again, context(G))


@pytest.mark.parametrize("bad", range(6))
def test_batch_dleq_rejects_a_single_false_share_among_six(bad: int) -> None:
    x, y, bases, values, r = batch_setup()
    proof = prove_dleq_batch(G, x, G.generator, y, bases, values, context(G), r.randrange)
    false = list(values)
    false[bad] = G.add(false[bad], G.generator)  # a valid element, not x·a
    # The honest proof of the true shares does not cover the false one...
    assert not verify_dleq_batch(G, G.generator, y, bases, false, proof, context(G))
    # ...and a proof made by the key's owner over the false batch fails too.
    cheat = prove_dleq_batch(G, x, G.generator, y, bases, false, context(G), r.randrange)
    assert not verify_dleq_batch(G, G.generator, y, bases, false, cheat, context(G))
    # Shares swapped between two slots, another context, another key, a tampered response: all fail.
    swapped = list(values)
    swapped[bad], swapped[(bad + 1) % 6] = swapped[(bad + 1) % 6], swapped[bad]
    assert not verify_dleq_batch(G, G.generator, y, bases, swapped, proof, context(G))
    assert not verify_dleq_batch(G, G.generator, y, bases, values, proof, context(G, pack=4))
    assert not verify_dleq_batch(G, G.generator, G.mul_gen(x + 1), bases, values, proof, context(G))
    assert not verify_dleq_batch(G, G.generator, y, bases, values,
                                 BatchDleqProof(G, proof.challenge, (proof.response + 1) % G.order), context(G))
    # A batch that drops a share, or an empty one, proves nothing.
    assert not verify_dleq_batch(G, G.generator, y, bases[:-1], values[:-1], proof, context(G))
    assert not verify_dleq_batch(G, G.generator, y, [], [], proof, context(G))


def _weights_blind_to_the_shares(group: Group, transcript: Transcript, base1: Any, pub1: Any,
                                 bases: Any, values: Any) -> list[int]:
    """A deliberately broken ``_composite_weights``: the weights do not hash the shares, so a prover
    knows them before choosing its shares (what the real one must never allow)."""
    transcript.append_element("batch dleq base", group, base1)
    transcript.append_element("batch dleq public", group, pub1)
    transcript.append_elements("batch dleq bases", group, bases)
    return transcript.challenges("batch dleq composite weights", group, len(bases))


def test_batch_dleq_weights_hash_the_shares_so_cancelling_errors_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two false shares whose errors cancel in the composites of weights known in advance: a verifier
    whose weights ignore the shares accepts them (so this test can fail), ours refuses them."""
    x, y, bases, values, r = batch_setup()
    known = _weights_blind_to_the_shares(G, context(G), G.generator, y, bases, values)
    e = G.mul_gen(424242)
    forged = list(values)
    forged[0] = G.add(values[0], G.mul(e, known[1]))  # x·a_0 + w_1·E
    forged[1] = G.sub(values[1], G.mul(e, known[0]))  # x·a_1 − w_0·E: Σ w_i·d_i = x·M still
    assert forged[:2] != values[:2]
    with monkeypatch.context() as patched:
        patched.setattr(proofs, "_composite_weights", _weights_blind_to_the_shares)
        fooled = prove_dleq_batch(G, x, G.generator, y, bases, forged, context(G), r.randrange)
        assert verify_dleq_batch(G, G.generator, y, bases, forged, fooled, context(G))
    assert not verify_dleq_batch(G, G.generator, y, bases, forged, fooled, context(G))
    fresh = prove_dleq_batch(G, x, G.generator, y, bases, forged, context(G), r.randrange)
    assert not verify_dleq_batch(G, G.generator, y, bases, forged, fresh, context(G))


@pytest.mark.parametrize("cls", [DlogProof, DleqProof, BatchDleqProof])
def test_proof_from_wire_refuses_bad_values(cls: type[DlogProof] | type[DleqProof] | type[BatchDleqProof]) -> None:
    good = G.scalar_text(5)
    too_big = base64.b64encode(G.order.to_bytes(G.scalar_bytes, "big")).decode()
    for value in [None, good, [good], [good, good, good], [good, 5], [good, too_big], [good, good[:-4]],
                  [good, G.encode_text(G.identity)], {"c": good, "s": good}]:
        with pytest.raises(ProtocolError):
            cls.from_wire(G, value, "proof")


# --- P-256, when it is there ------------------------------------------------------------------


def test_proofs_on_p256() -> None:
    p256 = pytest.importorskip("cribbage.online.p256")
    P: Group = p256.P256_GROUP
    r = rng()
    x = P.random_scalar(r.randrange)
    y = P.mul_gen(x)
    assert verify_dlog(P, y, prove_dlog(P, x, context(P), r.randrange), context(P))
    a = P.mul_gen(P.random_scalar(r.randrange))
    d = P.mul(a, x)
    proof = prove_dleq(P, x, P.generator, y, a, d, context(P), r.randrange)
    assert verify_dleq(P, P.generator, y, a, d, DleqProof.from_wire(P, proof.to_wire(), "p"), context(P))
    assert not verify_dleq(P, P.generator, y, a, P.add(d, a), proof, context(P))
    bases = [P.mul_gen(P.random_scalar(r.randrange)) for _ in range(6)]
    shares = [P.mul(b, x) for b in bases]
    batch = prove_dleq_batch(P, x, P.generator, y, bases, shares, context(P), r.randrange)
    assert verify_dleq_batch(P, P.generator, y, bases, shares, BatchDleqProof.from_wire(P, batch.to_wire(), "p"),
                             context(P))
    shares[3] = P.add(shares[3], a)
    assert not verify_dleq_batch(P, P.generator, y, bases, shares, batch, context(P))


# --- canonical base64 (issue 31) ---------------------------------------------------------------


def _respell(text: str) -> str:
    """The same bytes with the unused low bits of the last data character set (a second spelling)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    pad = len(text) - len(text.rstrip("="))
    last = len(text) - pad - 1
    spare = {1: 0b1111, 2: 0b11}[pad]
    other = alphabet[alphabet.index(text[last]) | spare]
    assert base64.b64decode(text[:last] + other + text[last + 1:]) == base64.b64decode(text)
    return text[:last] + other + text[last + 1:]


def test_a_proof_whose_scalar_is_spelt_with_its_unused_bits_set_is_refused() -> None:
    """A P-256 scalar is 32 bytes: 44 base64 characters whose last data character has two unused bits."""
    from cribbage.online import p256

    group: Group = p256.P256_GROUP
    x = group.random_scalar(rng().randrange)
    y = group.mul_gen(x)
    proof = prove_dlog(group, x, context(group), randbelow=rng().randrange)
    wire = proof.to_wire()
    assert verify_dlog(group, y, DlogProof.from_wire(group, wire, "proof"), context(group))
    assert wire[1].endswith("=") and not wire[1].endswith("==")
    forged = [wire[0], _respell(wire[1])]
    with pytest.raises(ProtocolError, match="canonical base64"):
        DlogProof.from_wire(group, forged, "proof")

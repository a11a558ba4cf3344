"""The verifiable re-encryption shuffle (Wikström's proof after Haenni et al.'s pseudo-code)."""

from __future__ import annotations

import base64
import dataclasses
import random
from typing import Any

import pytest

from cribbage.online import ProtocolError
from cribbage.online.elgamal import Ciphertext, combine, decryption_share, public_deck, reencrypt
from cribbage.online.group import MODP_TEST, Group, run
from cribbage.online.shuffle import (
    ShuffleProof, commitment_generators, prove_shuffle, random_permutation, shuffle, verify_shuffle,
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


@dataclasses.dataclass
class Setup:
    group: Group
    x: list[int]
    Y: Any
    inputs: list[Ciphertext]
    outputs: list[Ciphertext]
    psi: list[int]
    rands: list[int]
    proof: ShuffleProof
    rng: random.Random


def card_points(group: Group, n: int) -> list[Any]:
    return [group.hash_to_group(b"test card", bytes([i])) for i in range(n)]


def setup(n: int = 8, group: Group = G, seed: int = 1, reencrypted_inputs: bool = False) -> Setup:
    r = random.Random(seed)
    x = [group.random_scalar(r.randrange), group.random_scalar(r.randrange)]
    Y = group.add(group.mul_gen(x[0]), group.mul_gen(x[1]))
    gY = group.fixed(Y)
    inputs = public_deck(group, card_points(group, n))
    if reencrypted_inputs:
        inputs = shuffle(group, gY, inputs, r.randrange)[0]
    outputs, psi, rands = shuffle(group, gY, inputs, r.randrange)
    proof = run(prove_shuffle(group, Y, gY, inputs, outputs, psi, rands, context(group), r.randrange))
    return Setup(group, x, Y, inputs, outputs, psi, rands, proof, r)


def verify(s: Setup, outputs: list[Ciphertext] | None = None, proof: ShuffleProof | None = None,
           transcript: Transcript | None = None, Y: Any = None) -> None:
    run(verify_shuffle(s.group, s.Y if Y is None else Y, s.inputs, s.outputs if outputs is None else outputs,
                       s.proof if proof is None else proof, transcript or context(s.group)))


def cheat(s: Setup, outputs: list[Ciphertext]) -> ShuffleProof:
    """A proof made by running the honest prover over cheating outputs with the honest witness."""
    return run(prove_shuffle(s.group, s.Y, s.group.fixed(s.Y), s.inputs, outputs, s.psi, s.rands,
                             context(s.group), s.rng.randrange))


def opened(s: Setup, outputs: list[Ciphertext]) -> list[Any]:
    g = s.group
    return [combine(g, ct, [decryption_share(g, x, ct) for x in s.x]) for ct in outputs]


# --- completeness -----------------------------------------------------------------------------


def test_a_deck_of_52_shuffles_twice_and_verifies() -> None:
    first = setup(52)
    verify(first, proof=ShuffleProof.from_wire(G, first.proof.to_wire(), 52))
    assert opened(first, first.outputs) == [card_points(G, 52)[j] for j in first.psi]
    gY = G.fixed(first.Y)
    outputs, psi, rands = shuffle(G, gY, first.outputs, first.rng.randrange)
    proof = run(prove_shuffle(G, first.Y, gY, first.outputs, outputs, psi, rands, context(G, seat=1),
                              first.rng.randrange))
    run(verify_shuffle(G, first.Y, first.outputs, outputs, proof, context(G, seat=1)))
    assert sorted(opened(first, outputs)) == sorted(card_points(G, 52))


def test_shuffle_convention() -> None:
    s = setup(6)
    gY = G.fixed(s.Y)
    assert sorted(s.psi) == list(range(6))
    assert s.outputs == [reencrypt(G, gY, s.inputs[j], s.rands[j]) for j in s.psi]


def test_random_permutation_is_a_permutation() -> None:
    r = random.Random(5)
    seen = {tuple(random_permutation(4, r.randrange)) for _ in range(400)}
    assert len(seen) == 24


def test_commitment_generators_are_hashed_distinct_and_cached() -> None:
    h, hs = commitment_generators(G, 10)
    assert commitment_generators(G, 10)[1] is hs
    assert len(set([h, *hs, G.generator, G.identity])) == 13
    assert commitment_generators(G, 4) == (h, hs[:4])


# --- soundness: context, key, tampering -------------------------------------------------------


@pytest.mark.parametrize("other", [{"room": "room-2"}, {"pack": 4}, {"seat": 1}])
def test_fails_in_another_context(other: dict[str, Any]) -> None:
    s = setup()
    with pytest.raises(ProtocolError, match="false"):
        verify(s, transcript=context(G, **other))


def test_fails_for_another_key() -> None:
    s = setup()
    with pytest.raises(ProtocolError, match="false"):
        verify(s, Y=G.add(s.Y, G.generator))


def tampered_proofs(s: Setup) -> list[tuple[str, ShuffleProof]]:
    """Each field of the proof changed in turn (lists at their first and last index)."""
    g, p = s.group, s.proof
    result: list[tuple[str, ShuffleProof]] = []
    for name in ShuffleProof._ELEMENTS:
        result.append((name, dataclasses.replace(p, **{name: g.add(getattr(p, name), g.generator)})))
    for name in ShuffleProof._SCALARS:
        result.append((name, dataclasses.replace(p, **{name: (getattr(p, name) + 1) % g.order})))
    for name in ShuffleProof._ELEMENT_LISTS + ShuffleProof._SCALAR_LISTS:
        for i in (0, len(s.inputs) - 1):
            values: list[Any] = list(getattr(p, name))
            values[i] = (values[i] + 1) % g.order if name.startswith("s") else g.add(values[i], g.generator)
            changed: dict[str, Any] = {name: values}
            result.append((f"{name}[{i}]", dataclasses.replace(p, **changed)))
    return result


def test_every_field_of_the_proof_is_checked() -> None:
    s = setup()
    cases = tampered_proofs(s)
    assert len(cases) == 5 + 4 + 5 * 2
    for _name, proof in cases:
        with pytest.raises(ProtocolError, match="false"):
            verify(s, proof=proof)
        # and through the wire, too
        with pytest.raises(ProtocolError, match="false"):
            verify(s, proof=ShuffleProof.from_wire(G, proof.to_wire(), len(s.inputs)))


def test_every_output_component_is_checked() -> None:
    s = setup()
    for i in range(len(s.outputs)):
        for k in range(2):
            outputs = list(s.outputs)
            ct = list(outputs[i])
            ct[k] = G.add(ct[k], G.generator)
            outputs[i] = (ct[0], ct[1])
            with pytest.raises(ProtocolError, match="false"):
                verify(s, outputs=outputs)


def attacks(s: Setup) -> dict[str, list[Ciphertext]]:
    g, gY, r = s.group, s.group.fixed(s.Y), s.rng
    outside = g.hash_to_group(b"test card", b"\xff")  # not one of the deck's points
    swapped = list(s.outputs)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    foreign = list(s.outputs)
    foreign[2] = reencrypt(g, gY, (g.identity, outside), g.random_scalar(r.randrange))
    duplicated = list(s.outputs)
    duplicated[3] = duplicated[4]
    reencrypted_twice = list(s.outputs)
    reencrypted_twice[3] = reencrypt(g, gY, s.outputs[4], g.random_scalar(r.randrange))
    product = list(s.outputs)
    a = (g.add(s.inputs[0][0], s.inputs[1][0]), g.add(s.inputs[0][1], s.inputs[1][1]))
    product[5] = reencrypt(g, gY, a, g.random_scalar(r.randrange))
    return {"swap": swapped, "foreign card": foreign, "duplicate": duplicated,
            "same card twice": reencrypted_twice, "product slot": product}


@pytest.mark.parametrize("attack", ["swap", "foreign card", "duplicate", "same card twice", "product slot"])
def test_cheating_outputs_fail(attack: str) -> None:
    s = setup()
    outputs = attacks(s)[attack]
    with pytest.raises(ProtocolError, match="false"):
        verify(s, outputs=outputs)  # the honest proof, cheating outputs
    with pytest.raises(ProtocolError, match="false"):
        verify(s, outputs=outputs, proof=cheat(s, outputs))  # a proof made over the cheating outputs


def test_wrong_lengths_and_identity_outputs_are_refused() -> None:
    s = setup()
    with pytest.raises(ProtocolError, match="outputs"):
        verify(s, outputs=s.outputs[:-1])
    other = setup(7)
    with pytest.raises(ProtocolError, match="not for 8"):
        verify(s, proof=other.proof)
    outputs = list(s.outputs)
    outputs[0] = (G.identity, outputs[0][1])
    with pytest.raises(ProtocolError, match="identity"):
        verify(s, outputs=outputs)


def test_the_prover_refuses_an_inconsistent_witness_shape() -> None:
    s = setup(4)
    with pytest.raises(ValueError):
        run(prove_shuffle(G, s.Y, G.fixed(s.Y), s.inputs, s.outputs, [0, 0, 1, 2], s.rands, context(G)))


# --- wire -------------------------------------------------------------------------------------


def test_from_wire_refuses_bad_values() -> None:
    s = setup(4)
    wire: dict[str, Any] = dict(s.proof.to_wire())
    too_big = base64.b64encode(G.order.to_bytes(G.scalar_bytes, "big")).decode()
    identity = G.encode_text(G.identity)

    def changed(key: str, value: Any) -> dict[str, Any]:
        return {**wire, key: value}

    bad: list[object] = [
        None, [], {k: v for k, v in wire.items() if k != "s1"}, {**wire, "extra": "x"},
        changed("c", wire["c"][:3]), changed("s_hat", list(wire["s_hat"]) + [wire["s1"]]),
        changed("t1", 5), changed("t1", identity), changed("t1", wire["s1"] + "A"), changed("c", "x"),
        changed("c_hat", [identity, *wire["c_hat"][1:]]), changed("s2", too_big),
        changed("s_prime", [*wire["s_prime"][:3], too_big]), changed("s3", wire["t1"][:-4] + "@@@@"),
        changed("t_hat", [*wire["t_hat"][:3], None]),
    ]
    for value in bad:
        with pytest.raises(ProtocolError):
            ShuffleProof.from_wire(G, value, 4)
    with pytest.raises(ProtocolError):
        ShuffleProof.from_wire(G, wire, 5)
    assert ShuffleProof.from_wire(G, wire, 4) == s.proof


# --- work slicing -----------------------------------------------------------------------------


def count_yields(work: Any) -> int:
    count = 0
    try:
        while True:
            next(work)
            count += 1
    except StopIteration:
        return count


def test_prover_and_verifier_yield_between_multiplications() -> None:
    n = 10
    s = setup(n)
    prover = prove_shuffle(G, s.Y, G.fixed(s.Y), s.inputs, s.outputs, s.psi, s.rands, context(G), s.rng.randrange)
    verifier = verify_shuffle(G, s.Y, s.inputs, s.outputs, s.proof, context(G))
    assert count_yields(prover) > 3 * n
    assert count_yields(verifier) > 2 * n


# --- P-256, when it is there ------------------------------------------------------------------


def test_shuffle_on_p256() -> None:
    p256 = pytest.importorskip("cribbage.online.p256")
    s = setup(6, group=p256.P256_GROUP, reencrypted_inputs=True)
    verify(s, proof=ShuffleProof.from_wire(s.group, s.proof.to_wire(), 6))
    with pytest.raises(ProtocolError):
        verify(s, outputs=attacks(s)["product slot"])

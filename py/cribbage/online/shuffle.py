"""A verifiable re-encryption shuffle of ElGamal ciphertexts: Wikström's proof of a shuffle.

The proof is the one of Terelius and Wikström ("Proofs of restricted shuffles", AFRICACRYPT 2010)
and Wikström ("A commitment-consistent proof of a shuffle", ACISP 2009), exactly as written step
by step in Haenni, Locher, Koenig and Dubuis, "Pseudo-Code Algorithms for Verifiable
Re-Encryption Mix-Nets" (Financial Cryptography 2017 workshops, Voting'17): its pseudo-code
algorithms GenShuffle, GenPermutation, GenPermutationCommitment, GenCommitmentChain,
GenShuffleProof and CheckShuffleProof, cited here by name (their numbers were not checked against
the paper's text; the equations were checked against implementations of the same pseudo-code,
CHVote's among them). Each step below quotes the line of the paper it implements.

From multiplicative to additive notation:

====================================  =====================================================
the paper                             here
====================================  =====================================================
``x·y``, ``x/y``, ``x^k``             ``x + y``, ``x − y``, ``k·x``
``e = (a, b)``, ``a = m·pk^r``,       ``(a, b)``, ``a = r·G``, ``b = M + r·Y`` — the two
``b = g^r``                           components swap places: the paper's ``a`` is our ``b``
``pk``                                the joint key ``Y``
``(t_{4,1}, t_{4,2})``                ``(t4_b, t4_a)``: named by the component they check
``g``, ``h``, ``h_1..h_N``            ``G``, and :func:`commitment_generators`
====================================  =====================================================

Conventions (the paper's): ``psi`` maps outputs to inputs, output ``i`` is a re-encryption of input
``psi[i]``, and the re-encryption randomness is indexed by the *input*: ``outputs[i] =
reencrypt(inputs[psi[i]], rands[psi[i]])`` (GenShuffle's ``r'_{j_i}``), so that ``r' = Σ r'_i u_i``.

The commitment generators ``h, h_1..h_N`` are hashed into the group (nobody knows their logarithms
to ``G`` or to each other), never multiples of ``G``. The Fiat–Shamir transcript (the caller has
put the context in) gets the statement ``Y, h, h_1..h_N``, the inputs and the outputs, then the
permutation commitment ``c``, then the challenges ``u`` are drawn (the paper's GetChallenges over
``(e, e', c, pk)``), then the commitment chain ``ĉ`` and the prover's commitments ``t``, then the
challenge ``c`` (GetChallenge over ``(y, t)``). The proof sent is ``(c, ĉ, t, s)`` as in the paper;
the verifier recomputes the challenges.

Prover and verifier are generators (:data:`~.group.Work`) that yield after every scalar
multiplication, fixed-base or single or multi-scalar, so a browser can spread them over frames.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Sequence

from .elgamal import Ciphertext, reencrypt
from .errors import ProtocolError
from .group import Element, FixedBase, Group, RandBelow, Work, multi_mul_work, run
from .transcript import Transcript

__all__ = [
    "GENERATOR_DST",
    "commitment_generators",
    "random_permutation",
    "shuffle_work",
    "shuffle",
    "ShuffleProof",
    "prove_shuffle",
    "verify_shuffle",
]

GENERATOR_DST = b"cribbage-v2 shuffle generator"
"""Domain tag of the commitment generators: ``h`` is index 0, ``h_i`` index ``i`` (4 bytes)."""

_GENERATORS: dict[tuple[str, int], tuple[Element, list[Element]]] = {}


def commitment_generators(group: Group, n: int) -> tuple[Element, list[Element]]:
    """``h`` and ``h_1..h_n`` (the paper's GetGenerators), hashed into the group; cached."""
    key = (group.name, n)
    if key not in _GENERATORS:
        run(commitment_generators_work(group, n))
    return _GENERATORS[key]


def commitment_generators_work(group: Group, n: int) -> Work[None]:
    """Make (and cache) :func:`commitment_generators` in slices of a few hashes into the group."""
    key = (group.name, n)
    if key in _GENERATORS:
        return
    points = []
    for i in range(n + 1):
        points.append(group.hash_to_group(GENERATOR_DST, i.to_bytes(4, "big")))
        if i % 8 == 7:
            yield
    _GENERATORS.setdefault(key, (points[0], points[1:]))


def generators_ready(group: Group, n: int) -> bool:
    return (group.name, n) in _GENERATORS


def random_permutation(n: int, randbelow: RandBelow = secrets.randbelow) -> list[int]:
    """A uniform permutation of ``range(n)`` (the paper's GenPermutation: Knuth's shuffle)."""
    psi = list(range(n))
    for i in range(n - 1, 0, -1):
        j = randbelow(i + 1)
        psi[i], psi[j] = psi[j], psi[i]
    return psi


def shuffle(group: Group, gY: FixedBase, cts: Sequence[Ciphertext],
            randbelow: RandBelow = secrets.randbelow) -> tuple[list[Ciphertext], list[int], list[int]]:
    """GenShuffle: ``(outputs, psi, rands)`` with ``outputs[i] = reencrypt(cts[psi[i]], rands[psi[i]])``."""
    return run(shuffle_work(group, gY, cts, randbelow))


def shuffle_work(group: Group, gY: FixedBase, cts: Sequence[Ciphertext],
                 randbelow: RandBelow = secrets.randbelow) -> Work[tuple[list[Ciphertext], list[int], list[int]]]:
    """:func:`shuffle`, yielding after every few re-encryptions (a browser's frame stays short)."""
    psi = random_permutation(len(cts), randbelow)
    rands = [group.random_scalar(randbelow) for _ in cts]
    outputs: list[Ciphertext] = []
    for i, j in enumerate(psi):
        outputs.append(reencrypt(group, gY, cts[j], rands[j]))
        if i % 8 == 7:
            yield
    return outputs, psi, rands


@dataclass(frozen=True)
class ShuffleProof:
    """The paper's ``π = (t, s, c, ĉ)``: commitments, responses, permutation commitment, chain."""

    group: Group = field(compare=False, repr=False)
    c: list[Element]
    """Permutation commitment, ``c_{psi[i]} = r_{psi[i]}·G + h_i``."""
    c_hat: list[Element]
    """Commitment chain, ``ĉ_i = r̂_i·G + u'_i·ĉ_{i−1}``, ``ĉ_0 = h``."""
    t1: Element
    t2: Element
    t3: Element
    t4_a: Element
    """The paper's ``t_{4,2}``: ``Σ ω'_i·a'_i − ω_4·G``."""
    t4_b: Element
    """The paper's ``t_{4,1}``: ``Σ ω'_i·b'_i − ω_4·Y``."""
    t_hat: list[Element]
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: list[int]
    s_prime: list[int]

    _ELEMENTS = ("t1", "t2", "t3", "t4_a", "t4_b")
    _ELEMENT_LISTS = ("c", "c_hat", "t_hat")
    _SCALARS = ("s1", "s2", "s3", "s4")
    _SCALAR_LISTS = ("s_hat", "s_prime")

    def to_wire(self) -> dict[str, str | list[str]]:
        """A JSON-able dict of base64 texts, one key a field."""
        g = self.group
        wire: dict[str, str | list[str]] = {}
        for name in self._ELEMENTS:
            wire[name] = g.encode_text(getattr(self, name))
        for name in self._ELEMENT_LISTS:
            wire[name] = [g.encode_text(e) for e in getattr(self, name)]
        for name in self._SCALARS:
            wire[name] = g.scalar_text(getattr(self, name))
        for name in self._SCALAR_LISTS:
            wire[name] = [g.scalar_text(k) for k in getattr(self, name)]
        return wire

    @classmethod
    def from_wire(cls, group: Group, value: object, n: int) -> ShuffleProof:
        """Read a proof of a shuffle of ``n`` sent by the other browser; every element and scalar is
        validated (:class:`ProtocolError` for a wrong type, key, length, encoding or the identity)."""
        return run(cls.read(group, value, n))

    @classmethod
    def read(cls, group: Group, value: object, n: int) -> Work[ShuffleProof]:
        """:meth:`from_wire`, yielding between the lists of elements (decoding points is not free)."""
        keys = cls._ELEMENTS + cls._ELEMENT_LISTS + cls._SCALARS + cls._SCALAR_LISTS
        if not isinstance(value, dict) or set(value) != set(keys):
            raise ProtocolError(f"a shuffle proof is a dict with the keys {', '.join(keys)}")
        for name in cls._ELEMENT_LISTS + cls._SCALAR_LISTS:
            if not isinstance(value[name], list) or len(value[name]) != n:
                raise ProtocolError(f"shuffle proof {name} is not a list of {n}")
        fields: dict[str, object] = {}
        for name in cls._ELEMENTS:
            fields[name] = group.decode_text(value[name], f"shuffle proof {name}")
        for name in cls._ELEMENT_LISTS:
            decoded = []
            for i, e in enumerate(value[name]):
                decoded.append(group.decode_text(e, f"shuffle proof {name}[{i}]"))
                if i % 16 == 15:
                    yield
            fields[name] = decoded
        for name in cls._SCALARS:
            fields[name] = group.decode_scalar_text(value[name], f"shuffle proof {name}")
        for name in cls._SCALAR_LISTS:
            fields[name] = [group.decode_scalar_text(k, f"shuffle proof {name}[{i}]")
                            for i, k in enumerate(value[name])]
        return cls(group, **fields)  # type: ignore[arg-type]


def _statement(group: Group, transcript: Transcript, Y: Element, inputs: Sequence[Ciphertext],
               outputs: Sequence[Ciphertext]) -> tuple[Element, list[Element]]:
    """Append ``Y``, the generators, the inputs and the outputs; return the generators."""
    h, hs = commitment_generators(group, len(inputs))
    transcript.append_element("shuffle key", group, Y)
    transcript.append_element("shuffle h", group, h)
    transcript.append_elements("shuffle h_i", group, hs)
    transcript.append_elements("shuffle inputs", group, [e for ct in inputs for e in ct])
    transcript.append_elements("shuffle outputs", group, [e for ct in outputs for e in ct])
    return h, hs


def _commitments(group: Group, transcript: Transcript, c_hat: Sequence[Element], t: Sequence[Element],
                 t_hat: Sequence[Element]) -> int:
    """Append the chain and the prover's commitments; draw the challenge (GetChallenge(y, t))."""
    transcript.append_elements("shuffle commitment chain", group, c_hat)
    transcript.append_elements("shuffle t", group, t)
    transcript.append_elements("shuffle t_hat", group, t_hat)
    return transcript.challenge("shuffle challenge", group)


def prove_shuffle(group: Group, Y: Element, gY: FixedBase, inputs: Sequence[Ciphertext],
                  outputs: Sequence[Ciphertext], psi: Sequence[int], rands: Sequence[int],
                  transcript: Transcript, randbelow: RandBelow = secrets.randbelow) -> Work[ShuffleProof]:
    """GenShuffleProof: prove ``outputs[i] = reencrypt(inputs[psi[i]], rands[psi[i]])``.

    ``gY`` is the fixed-base table of ``Y``. Yields after every scalar multiplication.
    """
    n, q = len(inputs), group.order
    if not n or len(outputs) != n or len(rands) != n or sorted(psi) != list(range(n)):
        raise ValueError("a shuffle proof needs n > 0 inputs, n outputs, n randomisers, a permutation of n")

    def rand() -> int:
        return group.random_scalar(randbelow)

    h, hs = _statement(group, transcript, Y, inputs, outputs)
    yield

    # GenPermutationCommitment(psi, h): c_{j_i} = r_{j_i}·G + h_i, j_i = psi(i).
    r = [0] * n
    c: list[Element] = [group.identity] * n
    for i, j in enumerate(psi):
        r[j] = rand()
        c[j] = group.add(group.mul_gen(r[j]), hs[i])
        yield
    transcript.append_elements("shuffle permutation commitment", group, c)

    # u ← GetChallenges(N, (e, e', c, pk)); u'_i = u_{j_i}.
    u = transcript.challenges("shuffle u", group, n)
    u_prime = [u[j] for j in psi]

    # GenCommitmentChain(h, u'): ĉ_i = r̂_i·G + u'_i·ĉ_{i−1}, ĉ_0 = h.
    r_hat = [rand() for _ in range(n)]
    c_hat: list[Element] = []
    previous = h
    for i in range(n):
        step = group.mul_gen(r_hat[i])
        yield
        previous = group.add(step, group.mul(previous, u_prime[i]))
        c_hat.append(previous)
        yield

    # r̄ = Σ r_i; v_N = 1, v_i = u'_{i+1}·v_{i+1}; r̂ = Σ r̂_i·v_i; r̃ = Σ r_i·u_i; r' = Σ r'_i·u_i.
    r_bar = sum(r) % q
    v = [1] * n
    for i in range(n - 2, -1, -1):
        v[i] = u_prime[i + 1] * v[i + 1] % q
    r_hat_sum = sum(rh * vi for rh, vi in zip(r_hat, v)) % q
    r_tilde = sum(ri * ui for ri, ui in zip(r, u)) % q
    r_prime = sum(ri * ui for ri, ui in zip(rands, u)) % q

    # ω_1..ω_4, ω̂_i, ω'_i at random; the commitments t.
    w1, w2, w3, w4 = rand(), rand(), rand(), rand()
    w_hat = [rand() for _ in range(n)]
    w_prime = [rand() for _ in range(n)]
    t1 = group.mul_gen(w1)
    yield
    t2 = group.mul_gen(w2)
    yield
    # t_3 = ω_3·G + Σ ω'_i·h_i
    t3 = group.mul_gen(w3)
    yield
    t3 = group.add(t3, (yield from multi_mul_work(group, list(zip(hs, w_prime)))))
    yield
    # (t_{4,1}, t_{4,2}) = (Σ ω'_i·b'_i − ω_4·Y, Σ ω'_i·a'_i − ω_4·G)
    t4_a = group.mul_gen(-w4 % q)
    yield
    t4_a = group.add(t4_a, (yield from multi_mul_work(group, [(a, w) for (a, _), w in zip(outputs, w_prime)])))
    yield
    t4_b = gY.mul(-w4 % q)
    yield
    t4_b = group.add(t4_b, (yield from multi_mul_work(group, [(b, w) for (_, b), w in zip(outputs, w_prime)])))
    yield
    # t̂_i = ω̂_i·G + ω'_i·ĉ_{i−1}
    t_hat: list[Element] = []
    for i in range(n):
        step = group.mul_gen(w_hat[i])
        yield
        t_hat.append(group.add(step, group.mul(c_hat[i - 1] if i else h, w_prime[i])))
        yield

    challenge = _commitments(group, transcript, c_hat, [t1, t2, t3, t4_a, t4_b], t_hat)

    # s_1 = ω_1 + c·r̄, s_2 = ω_2 + c·r̂, s_3 = ω_3 + c·r̃, s_4 = ω_4 + c·r', ŝ_i = ω̂_i + c·r̂_i,
    # s'_i = ω'_i + c·u'_i.
    return ShuffleProof(
        group, c, c_hat, t1, t2, t3, t4_a, t4_b, t_hat,
        (w1 + challenge * r_bar) % q, (w2 + challenge * r_hat_sum) % q,
        (w3 + challenge * r_tilde) % q, (w4 + challenge * r_prime) % q,
        [(w + challenge * rh) % q for w, rh in zip(w_hat, r_hat)],
        [(w + challenge * up) % q for w, up in zip(w_prime, u_prime)],
    )


def verify_shuffle(group: Group, Y: Element, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext],
                   proof: ShuffleProof, transcript: Transcript) -> Work[None]:
    """CheckShuffleProof: return if ``outputs`` is a re-encrypted permutation of ``inputs``;
    :class:`ProtocolError` with the reason otherwise. Yields after every scalar multiplication."""
    n, q = len(inputs), group.order
    if not n or len(outputs) != n:
        raise ProtocolError(f"a shuffle of {n} inputs has {len(outputs)} outputs")
    if any(len(getattr(proof, name)) != n for name in ShuffleProof._ELEMENT_LISTS + ShuffleProof._SCALAR_LISTS):
        raise ProtocolError(f"the shuffle proof is not for {n} ciphertexts")
    if any(group.identity in ct for ct in outputs):
        raise ProtocolError("a shuffled ciphertext has the identity as a component")

    h, hs = _statement(group, transcript, Y, inputs, outputs)
    yield
    transcript.append_elements("shuffle permutation commitment", group, proof.c)
    u = transcript.challenges("shuffle u", group, n)
    yield
    t = [proof.t1, proof.t2, proof.t3, proof.t4_a, proof.t4_b]
    challenge = _commitments(group, transcript, proof.c_hat, t, proof.t_hat)
    minus_c = -challenge % q
    s_prime = proof.s_prime

    def check(computed: Element, sent: Element, what: str) -> None:
        if computed != sent:
            raise ProtocolError(f"the shuffle proof is false ({what} does not match)")

    # t'_1 = −c·c̄ + s_1·G, with c̄ = Σ c_i − Σ h_i.
    c_bar = group.identity
    for ci, hi in zip(proof.c, hs):
        c_bar = group.add(c_bar, group.sub(ci, hi))
    fixed = group.mul_gen(proof.s1)
    yield
    check(group.add(fixed, group.mul(c_bar, minus_c)), proof.t1, "t1")
    yield

    # t'_2 = −c·ĉ + s_2·G, with ĉ = ĉ_N − (Π u_i)·h.
    u_product = 1
    for ui in u:
        u_product = u_product * ui % q
    fixed = group.mul_gen(proof.s2)
    yield
    check(group.add(fixed, group.multi_mul([(proof.c_hat[-1], minus_c), (h, challenge * u_product % q)])),
          proof.t2, "t2")
    yield

    # t'_3 = −c·c̃ + s_3·G + Σ s'_i·h_i, with c̃ = Σ u_i·c_i.
    cu = [minus_c * ui % q for ui in u]
    fixed = group.mul_gen(proof.s3)
    yield
    check(group.add(fixed, (yield from multi_mul_work(group, list(zip(proof.c, cu)) + list(zip(hs, s_prime))))),
          proof.t3, "t3")
    yield

    # t'_{4,2} = −c·a + Σ s'_i·a'_i − s_4·G, with a = Σ u_i·a_i (the identity terms of the public
    # deck are left out: they add nothing).
    fixed = group.mul_gen(-proof.s4 % q)
    yield
    terms = [(a, k) for (a, _), k in zip(inputs, cu) if a != group.identity]
    terms += [(a, k) for (a, _), k in zip(outputs, s_prime)]
    check(group.add(fixed, (yield from multi_mul_work(group, terms))), proof.t4_a, "t4_a")
    yield

    # t'_{4,1} = −c·b + Σ s'_i·b'_i − s_4·Y, with b = Σ u_i·b_i.
    terms = [(Y, -proof.s4 % q)] + [(b, k) for (_, b), k in zip(inputs, cu)]
    terms += [(b, k) for (_, b), k in zip(outputs, s_prime)]
    check((yield from multi_mul_work(group, terms)), proof.t4_b, "t4_b")
    yield

    # t̂'_i = −c·ĉ_i + ŝ_i·G + s'_i·ĉ_{i−1}, ĉ_0 = h.
    for i in range(n):
        fixed = group.mul_gen(proof.s_hat[i])
        yield
        previous = proof.c_hat[i - 1] if i else h
        check(group.add(fixed, group.multi_mul([(proof.c_hat[i], minus_c), (previous, s_prime[i])])),
              proof.t_hat[i], f"t_hat[{i}]")
        yield

"""The proven pack: the cryptography of one online match, seen from one browser.

The construction is Barnett & Smart, *Mental Poker Revisited* (IMA Cryptography and Coding 2003),
section 4, over a prime-order group (NIST P-256 in play, :mod:`.p256`):

- **Keys.** Each browser draws a secret share ``x_j`` for the match and publishes ``y_j = x_j·G``
  with a Schnorr proof of knowledge of ``x_j`` (so nobody can choose a share that cancels the
  other's: the rogue-key attack). The deal's key is ``Y = y_0 + y_1``; no share is ever revealed.
- **Cards** are points ``M_i`` hashed into the group (RFC 9380 hash-to-curve, their own domain tag):
  nobody knows a relation between them. The **public deck** is their 52 trivial encryptions
  ``(O, M_i)``, built by each browser itself, never received.
- **Shuffles.** The first shuffler re-encrypts and permutes the public deck, the second re-encrypts
  and permutes the first's list; each list carries Wikström's proof of a shuffle (:mod:`.shuffle`,
  as written in Haenni, Locher, Koenig & Dubuis 2017), verified by the other before it shuffles,
  cuts or decrypts anything. The pack's order is uniform if either browser is honest.
- **Opening a slot** ``(a, b)``: each browser's decryption share is ``d_j = x_j·a``, proven by
  a Chaum–Pedersen proof that ``log_G y_j = log_a d_j``; the card is ``b − d_0 − d_1`` looked up among
  the ``M_i``. The shares one message opens (up to six: a hand) carry one batched proof for all of
  them (RFC 9497 §2.2, :func:`.proofs.prove_dleq_batch`), which fails if any one share is false.
  A private card is opened for its owner by the other's share alone (the owner adds
  its own, never sent until the card is public).
- **Fiat–Shamir.** Every proof's challenge hashes the whole statement (:mod:`.transcript`): the
  protocol version, the group and the derivation of its generators, the room, the match, the pack,
  the step or slot, the prover's seat, both key shares, the inputs, the outputs and the commitments
  (Bernhard, Pereira & Warinschi, ASIACRYPT 2012, on the weak form).

This module holds no protocol state: :mod:`.game` decides what to open for whom and when.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

from ..rules import CLASSIC, Rules
from . import elgamal, proofs, shuffle
from .elgamal import Ciphertext
from .errors import AuditFailure, ProtocolError
from .group import Element, FixedBase, Group, RandBelow, Work, run
from .transcript import Transcript

__all__ = [
    "PROTOCOL",
    "PACK_SIZE",
    "CARD_TAG",
    "RULES",
    "rules_statement",
    "card_points",
    "card_index",
    "public_deck",
    "MatchKeys",
    "Shares",
]

PROTOCOL = "cribbage-proven-deal/3"
"""The protocol version, first in every transcript (3: one batched proof for the shares of a message;
2 proved each share apart)."""
PACK_SIZE = 52
RULES = "cribbage: two players, six cards, game to 121"
"""The classic table's statement of its rules, in every transcript of a classic match (unchanged since
the first proven deal, so a classic match saved before the rule book still verifies)."""
CARD_TAG = b"cribbage-proven-deal/2 card"
"""The hash-to-curve domain tag of the card points (the message is the card's index, one byte)."""


def rules_statement(rules: Rules) -> str:
    """The rules the match is played under, as every transcript states them: :data:`RULES` for the
    classic table, else ``"cribbage: "`` and the canonical JSON of ``rules.to_json()`` (sorted keys, no
    spaces), so a proof made at one table is no proof at another.

    >>> rules_statement(Rules(target=61, muggins=True))
    'cribbage: {"muggins":true,"target":61}'
    """
    if rules.is_classic:
        return RULES
    return "cribbage: " + json.dumps(rules.to_json(), sort_keys=True, separators=(",", ":"))


_CARD_POINTS: dict[Group, tuple[Element, ...]] = {}


def card_points(group: Group) -> tuple[Element, ...]:
    """``M_i`` for the 52 cards of :data:`cribbage.cards.DECK`, in that order (made once a group)."""
    found = _CARD_POINTS.get(group)
    return found if found is not None else run(card_points_work(group))


def card_points_work(group: Group) -> Work[tuple[Element, ...]]:
    """:func:`card_points` in slices (52 hashes into the group: ~40 ms inside Pyodide on P-256)."""
    found = _CARD_POINTS.get(group)
    if found is None:
        points = []
        for i in range(PACK_SIZE):
            points.append(group.hash_to_group(CARD_TAG, bytes([i])))
            if i % 8 == 7:
                yield
        assert len(set(points)) == PACK_SIZE
        found = _CARD_POINTS.setdefault(group, tuple(points))
    return found


def constants_ready(group: Group) -> bool:
    """Whether the deal's constants of ``group`` are made (see :func:`constants_work`)."""
    return group in _CARD_POINTS and shuffle.generators_ready(group, PACK_SIZE) and group.fixed_ready()


def constants_work(group: Group) -> Work[None]:
    """Make the deal's constants in slices: the card points, the shuffle proofs' commitment
    generators and the generator's table (~0.1 s inside Pyodide on P-256, once a page). A browser
    makes them while it waits for the other (they are cached), so the first shuffle does not."""
    yield from card_points_work(group)
    yield from shuffle.commitment_generators_work(group, PACK_SIZE)
    yield from group.fixed_work(group.generator)


@lru_cache(maxsize=4)
def _card_lookup(group: Group) -> dict[Element, int]:
    return {m: i for i, m in enumerate(card_points(group))}


def card_index(group: Group, point: Element) -> int | None:
    """The index in DECK of the card ``point`` is, or None (not a card)."""
    return _card_lookup(group).get(point)


def public_deck(group: Group) -> list[Ciphertext]:
    """The 52 trivial encryptions ``(O, M_i)``: the first shuffle's input, built here, never received."""
    return elgamal.public_deck(group, list(card_points(group)))


@dataclass(frozen=True)
class Shares:
    """The decryption shares of some slots with one batched Chaum–Pedersen proof for them all."""

    slots: tuple[int, ...]
    values: tuple[Element, ...]
    proof: proofs.BatchDleqProof | None
    """None only for no shares at all."""

    def to_wire(self, group: Group) -> dict[str, Any]:
        """The ``shares`` and ``proof`` fields of a payload: ``[[slot, value], ...]`` and ``[c, s]``."""
        return {"shares": [[s, group.encode_text(v)] for s, v in zip(self.slots, self.values)],
                "proof": [] if self.proof is None else self.proof.to_wire()}


class MatchKeys:
    """The key shares of one match and the transcripts that bind every proof to it.

    ``context`` names the room; ``match`` is the match's number in the room. ``mine`` is this
    browser's secret share (never sent); ``public`` the two public shares once both are known.
    ``rules``: the table, stated in every transcript (:func:`rules_statement`).
    """

    def __init__(self, group: Group, room: str, match: int, seat: int, secret: int, rules: Rules = CLASSIC) -> None:
        self.group = group
        self.rules = rules
        self.room = room
        self.match = match
        self.seat = seat
        self.secret = secret
        self.public: list[Element | None] = [None, None]
        self.public[seat] = group.mul_gen(secret)
        self._joint: FixedBase | None = None

    # --- transcripts ----------------------------------------------------------------------------

    def transcript(self, step: str, prover: int, **fields: int) -> Transcript:
        """The context every proof of this match starts from (both shares once known)."""
        g = self.group
        t = Transcript(PROTOCOL)
        t.append_text("group", g.name)
        t.append_text("card tag", CARD_TAG.decode("ascii"))
        t.append_text("generator tag", shuffle.GENERATOR_DST.decode("ascii"))
        t.append_text("rules", rules_statement(self.rules))
        t.append_text("room", self.room)
        t.append_int("match", self.match)
        t.append_text("step", step)
        t.append_int("prover", prover)
        for name in sorted(fields):
            t.append_int(name, fields[name])
        if step != "key":
            y0, y1 = self.public
            assert y0 is not None and y1 is not None
            t.append_element("key share 0", g, y0)
            t.append_element("key share 1", g, y1)
        return t

    # --- key shares -----------------------------------------------------------------------------

    def key_message(self, randbelow: RandBelow) -> dict[str, Any]:
        """This browser's public share with its proof of knowledge (the ``key`` payload's body)."""
        proof = proofs.prove_dlog(self.group, self.secret, self.transcript("key", self.seat), randbelow)
        mine = self.public[self.seat]
        return {"share": self.group.encode_text(mine), "proof": proof.to_wire()}

    def take_key(self, share: object, proof: object) -> None:
        """Check the other's public share and its proof; ProtocolError (nothing kept) if either fails."""
        g = self.group
        them = 1 - self.seat
        if self.public[them] is not None:
            raise ProtocolError("a second key share for this match")
        y = g.decode_text(share, "the other's key share")
        p = proofs.DlogProof.from_wire(g, proof, "the key share's proof")
        if y == self.public[self.seat]:
            raise ProtocolError("the other's key share equals this browser's")
        if not proofs.verify_dlog(g, y, p, self.transcript("key", them)):
            raise ProtocolError("the other's key share comes without a valid proof of knowledge of its "
                                "secret (a rogue key would let it cancel this browser's share)")
        self.public[them] = y

    @property
    def ready(self) -> bool:
        return self.public[0] is not None and self.public[1] is not None

    @property
    def joint(self) -> Element:
        y0, y1 = self.public
        assert y0 is not None and y1 is not None
        return self.group.add(y0, y1)

    def joint_table(self) -> FixedBase:
        if self._joint is None:
            self._joint = self.group.fixed(self.joint)
        return self._joint

    def joint_table_work(self) -> Work[FixedBase]:
        """:meth:`joint_table` in slices: made once a match, before its first shuffle."""
        if self._joint is None:
            table = yield from self.group.fixed_work(self.joint)
            if self._joint is None:
                self._joint = table
        return self._joint

    # --- shuffles -------------------------------------------------------------------------------

    def shuffle_and_prove(self, pack: int, step: int, inputs: Sequence[Ciphertext],
                          randbelow: RandBelow) -> Work[tuple[list[Ciphertext], dict[str, Any]]]:
        """This browser's shuffle of ``inputs`` and its proof: (outputs, the proof on the wire)."""
        g = self.group
        gY = yield from self.joint_table_work()
        outputs, psi, rands = yield from shuffle.shuffle_work(g, gY, list(inputs), randbelow)
        t = self.transcript("shuffle", self.seat, pack=pack, shuffle_step=step)
        proof = yield from shuffle.prove_shuffle(g, self.joint, gY, list(inputs), outputs, psi, rands, t, randbelow)
        return outputs, proof.to_wire()

    def verify_shuffle(self, pack: int, step: int, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext],
                       proof: object) -> Work[None]:
        """Check the other's shuffle of ``inputs``; :class:`AuditFailure` with the evidence if it fails."""
        g = self.group
        them = 1 - self.seat
        try:
            p = yield from shuffle.ShuffleProof.read(g, proof, PACK_SIZE)
            yield
            t = self.transcript("shuffle", them, pack=pack, shuffle_step=step)
            yield from shuffle.verify_shuffle(g, self.joint, list(inputs), list(outputs), p, t)
        except ProtocolError as exc:
            raise AuditFailure(f"pack {pack + 1}: the other browser's shuffle (step {step}) is not proven: {exc}",
                               {"pack": pack, "step": f"shuffle {step}", "reason": str(exc)}) from exc

    # --- shares ---------------------------------------------------------------------------------

    def my_share(self, ct: Ciphertext) -> Element:
        """This browser's decryption share of a slot (kept or sent; one scalar multiplication)."""
        return elgamal.decryption_share(self.group, self.secret, ct)

    def _shares_transcript(self, prover: int, pack: int, slots: Sequence[int]) -> Transcript:
        t = self.transcript("shares", prover, pack=pack)
        t.append_int("slots", len(slots))
        for slot in slots:
            t.append_int("slot", slot)
        return t

    def prove_shares(self, pack: int, slots: Sequence[int], cts: Sequence[Ciphertext], values: Sequence[Element],
                     randbelow: RandBelow) -> Shares:
        """This browser's shares ``values`` of ``slots`` (ciphertexts ``cts``) with one proof for all."""
        return run(self.prove_shares_work(pack, slots, cts, values, randbelow))

    def prove_shares_work(self, pack: int, slots: Sequence[int], cts: Sequence[Ciphertext],
                          values: Sequence[Element], randbelow: RandBelow) -> Work[Shares]:
        """:meth:`prove_shares` in slices (a few multiplications each)."""
        g = self.group
        if not slots:
            return Shares((), (), None)
        t = self._shares_transcript(self.seat, pack, slots)
        mine = self.public[self.seat]
        proof = yield from proofs.prove_dleq_batch_work(g, self.secret, g.generator, mine, [ct[0] for ct in cts],
                                                        list(values), t, randbelow)
        return Shares(tuple(slots), tuple(values), proof)

    def read_shares(self, shares: object, proof: object) -> Shares:
        """Decode the ``shares`` and ``proof`` fields of a payload (no arithmetic beyond decoding the
        points); ProtocolError if anything is malformed or a slot comes twice."""
        g = self.group
        if not isinstance(shares, list) or len(shares) > 8:
            raise ProtocolError("shares are a list of at most 8 [slot, value] pairs")
        slots: list[int] = []
        values: list[Element] = []
        for entry in shares:
            if not isinstance(entry, list) or len(entry) != 2:
                raise ProtocolError("a share is a [slot, value] pair")
            slot = entry[0]
            if type(slot) is not int or not 0 <= slot < PACK_SIZE:
                raise ProtocolError("a share's slot must be a number from 0 to 51")
            if slot in slots:
                raise ProtocolError(f"two shares for slot {slot}")
            slots.append(slot)
            values.append(g.decode_text(entry[1], f"the share for slot {slot}"))
        if not slots:
            if proof != []:
                raise ProtocolError("no shares, yet a proof")
            return Shares((), (), None)
        p = proofs.BatchDleqProof.from_wire(g, proof, "the proof of the shares")
        return Shares(tuple(slots), tuple(values), p)

    def check_shares(self, pack: int, shares: Shares, cts: Sequence[Ciphertext]) -> None:
        """The other's shares (of slots whose ciphertexts are ``cts``) must carry a valid batched
        proof; else :class:`AuditFailure` naming the slots (one false share fails them all)."""
        run(self.check_shares_work(pack, shares, cts))

    def check_shares_work(self, pack: int, shares: Shares, cts: Sequence[Ciphertext]) -> Work[None]:
        """:meth:`check_shares` in slices."""
        if shares.proof is None:
            return
        g = self.group
        them = 1 - self.seat
        y = self.public[them]
        t = self._shares_transcript(them, pack, shares.slots)
        if not (yield from proofs.verify_dleq_batch_work(g, g.generator, y, [ct[0] for ct in cts],
                                                         list(shares.values), shares.proof, t)):
            slots = list(shares.slots)
            raise AuditFailure(
                f"pack {pack + 1}: the other browser's decryption shares of slots {slots} are not proven "
                "(a false share)", {"pack": pack, "slots": slots, "step": "shares"})

    def open(self, ct: Ciphertext, mine: Element, theirs: Element) -> int | None:
        """The card index of a slot from both shares, or None (cannot happen after valid proofs)."""
        return card_index(self.group, elgamal.combine(self.group, ct, [mine, theirs]))

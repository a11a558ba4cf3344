"""The cryptography of one match at a table of N seats (N = 2, 3, 4): the two-party pack made N-party.

The construction is the one of :mod:`.pack`, which Barnett & Smart (*Mental Poker Revisited*, IMA
Cryptography and Coding 2003) give for any number of players (their section 4, "a verifiable
k-out-of-k threshold masking function"); only the count of key holders changes:

- **Joint key** (Barnett & Smart §4.1, key generation): each seat ``j`` draws ``x_j`` and publishes
  ``y_j = x_j·G`` with a Schnorr proof of knowledge (Schnorr, J. Cryptology 1991) whose statement
  names the seat; the deal's key is ``Y = Σ_j y_j``. A seat that chose its share after seeing the
  others' (``y' = z·G − Σ y_others``, the rogue key) could not prove it knows its logarithm. Every
  later proof's statement holds all N shares, in seat order.
- **Shuffles** (Barnett & Smart §4.3, "verifiable masking and shuffling"): seat 0 shuffles the public
  deck (built by every seat itself, never received), seat 1 shuffles seat 0's list, and so on up to
  seat N−1; each list carries Wikström's proof of a re-encryption shuffle (:mod:`.shuffle`: Terelius
  & Wikström, AFRICACRYPT 2010; Wikström, ACISP 2009; as written by Haenni, Locher, Koenig & Dubuis,
  Voting'17) under the joint key, which every other seat verifies before it uses the list. The pack
  is the composition of N permutations each proven; one uniform permutation, kept secret by an honest
  seat, makes the composition uniform whatever the others chose (they chose theirs before seeing it
  and cannot undo it: they only know the lists, encrypted under a key that needs the honest share).
- **Opening a slot** ``(a, b)`` (Barnett & Smart §4.2, "verifiable decryption"): seat ``j``'s share is
  ``d_j = x_j·a`` with a Chaum–Pedersen proof (CRYPTO '92 §3.2) that ``log_G y_j = log_a d_j``; the
  shares a message carries share one batched proof (RFC 9497 §2.2, :func:`.proofs.prove_dleq_batch`).
  The card is ``b − Σ_j d_j`` looked up among the card points. A card private to seat ``j`` is opened
  for it by the N−1 other seats' shares (published to every seat: without ``d_j`` they open nothing),
  and ``j`` adds its own, which it publishes only when the card becomes public. So no coalition that
  leaves out ``j`` (its partner included) can open ``j``'s card, and no coalition that leaves out any
  one seat can open a card of the undealt pack.
- **Fiat–Shamir**: every challenge hashes the whole statement (:mod:`.transcript`): the protocol, the
  group, the generators' tags, the rules, the room, the match, the number of seats, the step, the
  prover's seat, every key share, then the proof's own inputs, outputs and commitments (Bernhard,
  Pereira & Warinschi, ASIACRYPT 2012). A proof made at two seats is no proof at three.

This module holds no protocol state and does no I/O: :mod:`.table_deal` decides what is sent, to
whom it is shown and when; :mod:`.table_chain` makes every seat see the same messages.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..rules import CLASSIC, Rules
from . import elgamal, proofs, shuffle
from .elgamal import Ciphertext
from .errors import AuditFailure, ProtocolError
from .group import Element, FixedBase, Group, RandBelow, Work
from .pack import CARD_TAG, PACK_SIZE, Shares, card_index, rules_statement
from .transcript import Transcript

__all__ = ["TABLE_PROTOCOL", "MAX_SEATS", "TableKeys", "read_shares"]

TABLE_PROTOCOL = "cribbage-table-deal/1"
"""First in every transcript of a table deal: distinct from the two-party :data:`.pack.PROTOCOL`, so no
proof of a two-player room's deal is a proof here, nor the reverse."""
MAX_SEATS = 4


def read_shares(group: Group, shares: object, proof: object, what: str) -> Shares:
    """Decode ``[[slot, value], ...]`` and one batched proof sent by another seat (no arithmetic beyond
    decoding the points); :class:`ProtocolError` if anything is malformed or a slot comes twice."""
    if not isinstance(shares, list) or len(shares) > PACK_SIZE:
        raise ProtocolError(f"{what}: shares are a list of at most {PACK_SIZE} [slot, value] pairs")
    slots: list[int] = []
    values: list[Element] = []
    for entry in shares:
        if not isinstance(entry, list) or len(entry) != 2:
            raise ProtocolError(f"{what}: a share is a [slot, value] pair")
        slot = entry[0]
        if type(slot) is not int or not 0 <= slot < PACK_SIZE:
            raise ProtocolError(f"{what}: a share's slot must be a number from 0 to {PACK_SIZE - 1}")
        if slot in slots:
            raise ProtocolError(f"{what}: two shares for slot {slot}")
        slots.append(slot)
        values.append(group.decode_text(entry[1], f"{what}: the share for slot {slot}"))
    if not slots:
        if proof != []:
            raise ProtocolError(f"{what}: no shares, yet a proof")
        return Shares((), (), None)
    p = proofs.BatchDleqProof.from_wire(group, proof, f"{what}: the proof of the shares")
    return Shares(tuple(slots), tuple(values), p)


class TableKeys:
    """The key shares of one match at a table of ``seats`` seats, seen from seat ``seat``.

    ``secret`` is this seat's share (never sent); ``public[j]`` seat ``j``'s public share once proven.
    """

    def __init__(self, group: Group, room: str, match: int, seats: int, seat: int, secret: int,
                 rules: Rules = CLASSIC) -> None:
        if type(seats) is not int or not 2 <= seats <= MAX_SEATS:
            raise ValueError(f"a table has 2 to {MAX_SEATS} seats")
        if type(seat) is not int or not 0 <= seat < seats:
            raise ValueError(f"a seat is a number from 0 to {seats - 1}")
        if not 0 < secret < group.order:
            raise ValueError("a secret share is in [1, q)")
        self.group = group
        self.room = room
        self.match = match
        self.seats = seats
        self.seat = seat
        self.secret = secret
        self.rules = rules
        self.public: list[Element | None] = [None] * seats
        self.public[seat] = group.mul_gen(secret)
        self._joint: FixedBase | None = None

    # --- transcripts ----------------------------------------------------------------------------

    def transcript(self, step: str, prover: int, **fields: int) -> Transcript:
        """The context every proof of this match starts from (every seat's share once all are known)."""
        g = self.group
        t = Transcript(TABLE_PROTOCOL)
        t.append_text("group", g.name)
        t.append_text("card tag", CARD_TAG.decode("ascii"))
        t.append_text("generator tag", shuffle.GENERATOR_DST.decode("ascii"))
        t.append_text("rules", rules_statement(self.rules))
        t.append_text("room", self.room)
        t.append_int("match", self.match)
        t.append_int("seats", self.seats)
        t.append_text("step", step)
        t.append_int("prover", prover)
        for name in sorted(fields):
            t.append_int(name, fields[name])
        if step != "key":
            for j, y in enumerate(self.public):
                assert y is not None
                t.append_element(f"key share {j}", g, y)
        return t

    # --- key shares -----------------------------------------------------------------------------

    def key_message(self, randbelow: RandBelow) -> dict[str, Any]:
        """This seat's public share with its proof of knowledge."""
        proof = proofs.prove_dlog(self.group, self.secret, self.transcript("key", self.seat), randbelow)
        return {"share": self.group.encode_text(self.public[self.seat]), "proof": proof.to_wire()}

    def take_key(self, seat: int, share: object, proof: object) -> None:
        """Check seat ``seat``'s public share and its proof; :class:`ProtocolError` (nothing kept) if
        either fails or the share repeats one already known."""
        g = self.group
        if seat == self.seat or self.public[seat] is not None:
            raise ProtocolError(f"a second key share from seat {seat + 1}")
        y = g.decode_text(share, f"seat {seat + 1}'s key share")
        p = proofs.DlogProof.from_wire(g, proof, f"seat {seat + 1}'s key proof")
        if y in self.public:
            raise ProtocolError(f"seat {seat + 1}'s key share repeats another seat's")
        if not proofs.verify_dlog(g, y, p, self.transcript("key", seat)):
            raise ProtocolError(f"seat {seat + 1}'s key share comes without a valid proof of knowledge of its "
                                "secret (a rogue key would let it cancel the others' shares)")
        self.public[seat] = y

    @property
    def ready(self) -> bool:
        return all(y is not None for y in self.public)

    @property
    def joint(self) -> Element:
        total = self.group.identity
        for y in self.public:
            assert y is not None
            total = self.group.add(total, y)
        return total

    def joint_table_work(self) -> Work[FixedBase]:
        """The joint key's fixed-base table, made once a match in slices."""
        if self._joint is None:
            table = yield from self.group.fixed_work(self.joint)
            if self._joint is None:
                self._joint = table
        return self._joint

    # --- shuffles -------------------------------------------------------------------------------

    def shuffle_and_prove(self, pack: int, inputs: Sequence[Ciphertext],
                          randbelow: RandBelow) -> Work[tuple[list[Ciphertext], dict[str, Any]]]:
        """This seat's shuffle of ``inputs`` (pack ``pack``, step = this seat) and its proof on the wire."""
        g = self.group
        gY = yield from self.joint_table_work()
        outputs, psi, rands = yield from shuffle.shuffle_work(g, gY, list(inputs), randbelow)
        t = self.transcript("shuffle", self.seat, pack=pack)
        proof = yield from shuffle.prove_shuffle(g, self.joint, gY, list(inputs), outputs, psi, rands, t, randbelow)
        return outputs, proof.to_wire()

    def verify_shuffle(self, pack: int, prover: int, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext],
                       proof: object) -> Work[None]:
        """Check seat ``prover``'s shuffle of ``inputs``; :class:`AuditFailure` with the evidence if not proven."""
        g = self.group
        try:
            p = yield from shuffle.ShuffleProof.read(g, proof, PACK_SIZE)
            t = self.transcript("shuffle", prover, pack=pack)
            yield from shuffle.verify_shuffle(g, self.joint, list(inputs), list(outputs), p, t)
        except ProtocolError as exc:
            raise AuditFailure(f"pack {pack + 1}: seat {prover + 1}'s shuffle is not proven: {exc}",
                               {"pack": pack, "seat": prover, "step": "shuffle", "reason": str(exc)}) from exc

    # --- decryption shares ----------------------------------------------------------------------

    def my_share(self, ct: Ciphertext) -> Element:
        return elgamal.decryption_share(self.group, self.secret, ct)

    def _shares_transcript(self, prover: int, pack: int, purpose: str, slots: Sequence[int]) -> Transcript:
        t = self.transcript("shares", prover, pack=pack)
        t.append_text("purpose", purpose)
        t.append_int("slots", len(slots))
        for slot in slots:
            t.append_int("slot", slot)
        return t

    def prove_shares(self, pack: int, purpose: str, slots: Sequence[int], cts: Sequence[Ciphertext],
                     randbelow: RandBelow, values: Sequence[Element] | None = None) -> Shares:
        """This seat's shares of ``slots`` (ciphertexts ``cts``; ``values``: the shares if computed ahead)
        with one batched proof for all."""
        if not slots:
            return Shares((), (), None)
        g = self.group
        values = [self.my_share(ct) for ct in cts] if values is None else list(values)
        t = self._shares_transcript(self.seat, pack, purpose, slots)
        proof = proofs.prove_dleq_batch(g, self.secret, g.generator, self.public[self.seat],
                                        [ct[0] for ct in cts], values, t, randbelow)
        return Shares(tuple(slots), tuple(values), proof)

    def check_shares(self, pack: int, purpose: str, prover: int, shares: Shares, cts: Sequence[Ciphertext]) -> None:
        """Seat ``prover``'s shares must carry a valid batched proof; else :class:`AuditFailure`."""
        if shares.proof is None:
            return
        g = self.group
        t = self._shares_transcript(prover, pack, purpose, shares.slots)
        if not proofs.verify_dleq_batch(g, g.generator, self.public[prover], [ct[0] for ct in cts],
                                        list(shares.values), shares.proof, t):
            slots = list(shares.slots)
            raise AuditFailure(f"pack {pack + 1}: seat {prover + 1}'s decryption shares of slots {slots} are not "
                               "proven (a false share)",
                               {"pack": pack, "seat": prover, "slots": slots, "step": purpose})

    def shares_proven_work(self, pack: int, purpose: str, prover: int, shares: Shares,
                           cts: Sequence[Ciphertext]) -> Work[bool]:
        """Whether seat ``prover``'s shares carry a valid batched proof (:meth:`check_shares` in slices)."""
        if shares.proof is None:
            return True
        g = self.group
        t = self._shares_transcript(prover, pack, purpose, shares.slots)
        return (yield from proofs.verify_dleq_batch_work(g, g.generator, self.public[prover], [ct[0] for ct in cts],
                                                         list(shares.values), shares.proof, t))

    def open(self, ct: Ciphertext, shares: Sequence[Element]) -> int | None:
        """The card index of a slot from every seat's share, or None (not a card: a share is missing)."""
        if len(shares) != self.seats:
            return None
        return card_index(self.group, elgamal.combine(self.group, ct, list(shares)))


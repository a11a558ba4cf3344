"""Provably fair deals against the computer: a hash commitment to a match's seed, opened at the end.

A local match's every pack is shuffled from its seed (:mod:`cribbage.deal`, :mod:`cribbage.rng`), and
the only other thing that decides which cards come up is where each cut is made, which is one of the
match's recorded actions. So the seed fixes every deal the moment the match begins. Before the first
cut the table shows a short *fingerprint* of a commitment to that seed; when the match is over the page
reveals the seed and the nonce, and anyone can check that

1. they open the commitment (the same SHA-256 digest as the fingerprint seen before the first cut), and
2. re-dealing every pack from that seed, cut where the record says it was cut, gives exactly the cards
   that were on the table, hand by hand (:func:`verify`).

The construction is the textbook *hash commitment*: ``C = SHA-256(DOMAIN || 0x00 || seed as 8 bytes
big-endian || nonce)`` with a fresh 128-bit random nonce (:func:`commitment`). A commitment scheme is
*binding* (the committer cannot later open C to another value) and *hiding* (C reveals nothing of
the value before it is opened); see e.g. Goldreich, *Foundations of Cryptography* vol. 1 §4.4.1, or
Katz and Lindell, *Introduction to Modern Cryptography* §5.6.5. Binding here rests on SHA-256's
collision resistance (SHA-256 is specified in FIPS 180-4, *Secure Hash Standard*); hiding on the
nonce, which is drawn from the operating system's secure generator (:mod:`secrets`) and revealed only at
the end, so the 64-bit seed cannot be found by trying seeds against the fingerprint. The domain tag
keeps the digest from meaning anything in another protocol.

The computer never sees the seed: a :class:`~cribbage.ai.Player` receives only a
:class:`~cribbage.view.SeatView` (its own cards and the cards the rules show), and the seed of its own
random habits, in a committed match, is a one-way function of seed and nonce (:func:`player_seed`),
from which the seed cannot be worked back.

Everything here is plain data in and sentences out: :func:`verify` never raises on bad input; a
match without a commitment (every match saved before this module) simply has none
(:data:`NOT_COMMITTED`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .actions import Action, ActionError, CutPack, parse_action
from .rules import CLASSIC, Rules, RulesError
from .state import GameState, IllegalActionError

__all__ = [
    "DOMAIN", "NONCE_BYTES", "NOT_COMMITTED", "FairnessError", "Verdict", "new_nonce", "check_nonce",
    "commitment", "fingerprint", "player_seed", "deal_lines", "verify", "verify_record_json",
]

DOMAIN = b"cribbage.fair-deal.v1"
"""The domain tag hashed before the seed and nonce."""
PLAYER_DOMAIN = b"cribbage.computer-habits.v1"
"""The domain tag of :func:`player_seed`."""
NONCE_BYTES = 16
"""A nonce's length: 128 random bits, written as 32 lowercase hex digits."""
NOT_COMMITTED = "This match was played before deals were committed: it has nothing to verify."
_SEED_BYTES = 8


class FairnessError(ValueError):
    """A nonce or commitment that is not well formed; the message says why."""


def new_nonce() -> str:
    """A fresh random nonce (32 hex digits) from the operating system's secure generator."""
    return secrets.token_hex(NONCE_BYTES)


def check_nonce(nonce: Any) -> str:
    """``nonce`` if it is 32 lowercase hex digits, else :class:`FairnessError`."""
    if (not isinstance(nonce, str) or len(nonce) != 2 * NONCE_BYTES
            or any(c not in "0123456789abcdef" for c in nonce)):
        raise FairnessError(f"a nonce is {2 * NONCE_BYTES} lowercase hexadecimal digits")
    return nonce


def _seed_bytes(seed: int) -> bytes:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** (8 * _SEED_BYTES):
        raise FairnessError("a seed is an integer from 0 to 2**64 - 1")
    return seed.to_bytes(_SEED_BYTES, "big")


def commitment(seed: int, nonce: str) -> str:
    """The commitment to ``seed``: SHA-256 over the domain tag, a zero byte, the seed (8 bytes,
    big-endian) and the nonce's 16 bytes, as 64 hex digits."""
    message = DOMAIN + b"\x00" + _seed_bytes(seed) + bytes.fromhex(check_nonce(nonce))
    return hashlib.sha256(message).hexdigest()


def fingerprint(commit: str) -> str:
    """The short form shown on the table: the commitment's first 64 bits in four groups,
    ``"3f2a 91c0 7be4 d215"`` (a forger would need a second preimage of those 64 bits)."""
    head = commit[:16]
    return " ".join(head[i:i + 4] for i in range(0, 16, 4))


def player_seed(seed: int, nonce: str, step: int) -> int:
    """The seed of the computer's own random habits at ``step`` (actions so far) of a committed match:
    a one-way function of seed and nonce, so nothing the computer holds leads back to the deals."""
    message = PLAYER_DOMAIN + b"\x00" + _seed_bytes(seed) + bytes.fromhex(check_nonce(nonce)) + \
        step.to_bytes(8, "big")
    return int.from_bytes(hashlib.sha256(message).digest()[:8], "big") % (2**61)


# --- the deals ------------------------------------------------------------------------------------


def _codes(cards: Iterable[Any]) -> str:
    return " ".join(c.code for c in cards)


def deal_lines(seed: int, actions: Sequence[Action | str], names: Sequence[str], *, rules: Rules = CLASSIC,
               first_dealer: int | None = None) -> tuple[list[str], str | None]:
    """Every deal of the match, re-dealt from ``seed`` and cut where ``actions`` cut: one line for the
    cut for deal (when there is one), then one a hand, e.g. ``"Hand 1: You 4H 5S 6D 7C 8H 9S; Computer
    ...; starter JD"``. Returns the lines and, if an action cannot be played on these deals, a sentence
    naming the hand where it failed (the lines stop there)."""
    state = GameState(seed, rules=rules, first_dealer=first_dealer)
    lines: list[str] = []
    cuts: list[str] = []
    hand_at: dict[int, int] = {}
    for index, item in enumerate(actions):
        seen = len(state.events)
        try:
            action = parse_action(item) if isinstance(item, str) else item
            state.apply(action)
        except (ActionError, IllegalActionError, ValueError) as exc:
            where = f"hand {state.hand_number}" if state.hand_number else "the cut for deal"
            if cuts and not lines:
                lines.append("Cut for deal: " + ", ".join(cuts))
            return lines, (f"In {where}, action {index + 1} ({item}) cannot be played on the cards the "
                           f"committed seed deals: {exc}.")
        for event in state.events[seen:]:
            if event.kind == "cut for deal" and event.cards and event.seat is not None:
                cuts.append(f"{names[event.seat]} {event.cards[0].code}")
            elif event.kind == "starter" and event.cards:
                i = hand_at.get(event.hand)
                if i is not None:
                    lines[i] += f"; starter {event.cards[0].code}"
        if isinstance(action, CutPack):
            if cuts and not lines:
                lines.append("Cut for deal: " + ", ".join(cuts))
            parts = [f"{names[s]} {_codes(state.hands[s])}" for s in range(rules.players)]
            if state.crib_pack:
                parts.append(f"crib from the pack {_codes(state.crib_pack)}")
            hand_at[state.hand_number] = len(lines)
            lines.append(f"Hand {state.hand_number}: " + "; ".join(parts))
    if cuts and not lines:
        lines.append("Cut for deal: " + ", ".join(cuts))
    return lines, None


@dataclass(frozen=True)
class Verdict:
    """The outcome of :func:`verify`: passed or not, the sentence saying so, and the re-dealt lines."""

    ok: bool
    summary: str
    """One or two sentences for people: what matched, or the first hand that differs."""
    lines: tuple[str, ...] = ()
    """Every deal as re-dealt from the revealed seed."""
    fingerprint: str = ""
    """The fingerprint of the recorded commitment (to compare with the one shown before the first cut)."""


def verify(*, seed: int, nonce: str, commit: str, actions: Sequence[Action | str], names: Sequence[str],
           recorded: Sequence[str], rules: Rules = CLASSIC, first_dealer: int | None = None) -> Verdict:
    """Check a finished match against its commitment: the revealed seed and nonce must open ``commit``,
    and every deal re-dealt from the seed must be the one ``recorded`` (the cards that were on the
    table). Never raises: a failure is a :class:`Verdict` naming the first hand that differs."""
    shown = fingerprint(commit) if isinstance(commit, str) else ""
    try:
        opened = commitment(seed, nonce)
    except FairnessError as exc:
        return Verdict(False, f"This match's revealed values cannot be checked: {exc}.", (), shown)
    lines, failure = deal_lines(seed, actions, names, rules=rules, first_dealer=first_dealer)
    problems: list[str] = []
    for mine, theirs in zip(lines, recorded):
        if mine != theirs:
            hand = mine.split(":", 1)[0]
            problems.append(f"{hand} differs: the committed seed deals \u201c{mine}\u201d but the record "
                            f"shows \u201c{theirs}\u201d.")
            break
    if not problems and failure:
        problems.append(failure)
    if not problems and len(lines) != len(recorded):
        n = min(len(lines), len(recorded))
        extra = recorded[n] if len(recorded) > n else lines[n]
        hand = extra.split(":", 1)[0]
        what = ("in the record but not dealt by the committed seed" if len(recorded) > n
                else "dealt by the committed seed but missing from the record")
        problems.append(f"{hand} differs: it is {what}.")
    if opened != commit:
        problems.append(f"The revealed seed and nonce do not open the commitment {shown}: the deals are not "
                        "the ones committed before the first cut.")
    if problems:
        return Verdict(False, " ".join(problems), tuple(lines), shown)
    hands = sum(1 for line in lines if line.startswith("Hand "))
    return Verdict(True, f"Every card matches: the seed {seed} and nonce {nonce} open the commitment {shown}, "
                   f"and re-dealing them gives all {hands} hands exactly as they were played.", tuple(lines), shown)


def verify_record_json(data: Any) -> Verdict | None:
    """Verify one match record as stored in the history (plain data), reading only the fields the
    check needs and trusting none of the record's own checks; None when it has no commitment."""
    if not isinstance(data, dict):
        return Verdict(False, "This match record is not an object.")
    fair = data.get("fair")
    if fair is None:
        return None
    if not isinstance(fair, dict):
        return Verdict(False, "This match record's commitment is not an object.")
    seed, nonce, commit, deals = data.get("seed"), fair.get("nonce"), fair.get("commitment"), fair.get("deals")
    actions, names = data.get("actions"), data.get("names")
    if not isinstance(commit, str) or not isinstance(deals, list) or not all(isinstance(d, str) for d in deals):
        return Verdict(False, "This match record's commitment is incomplete.")
    if (not isinstance(actions, list) or not all(isinstance(a, str) for a in actions)
            or not isinstance(names, list) or not all(isinstance(n, str) for n in names)):
        return Verdict(False, "This match record's actions or names cannot be read.", (), fingerprint(commit))
    if not isinstance(seed, int) or isinstance(seed, bool):
        return Verdict(False, "This match record's seed is not a number.", (), fingerprint(commit))
    try:
        rules = Rules.from_json(data.get("rules"))
    except RulesError as exc:
        return Verdict(False, f"This match record's rules cannot be used: {exc}.", (), fingerprint(commit))
    first = data.get("first_dealer")
    if first is not None and (not isinstance(first, int) or isinstance(first, bool)
                              or not 0 <= first < rules.players):
        return Verdict(False, "This match record's first dealer is invalid.", (), fingerprint(commit))
    if len(names) != rules.players:
        return Verdict(False, "This match record does not name every seat.", (), fingerprint(commit))
    return verify(seed=seed, nonce=nonce if isinstance(nonce, str) else "", commit=commit, actions=actions,
                  names=names, recorded=deals, rules=rules, first_dealer=first)

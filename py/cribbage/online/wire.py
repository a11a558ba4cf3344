"""The online protocol's wire format: every payload's kind and fields (:data:`MESSAGE_KINDS`), the
checks of a payload's envelope (:func:`check_fields`, :func:`check_shape`: types and sizes, no
arithmetic), of a payload of the next match kept before this browser begins it (:func:`check_early`),
the cleaning of the other browser's text (:func:`clean_peer_text`) and the rules a table may name
(:func:`online_rules`). What each payload means is :mod:`.game` and :mod:`.moves`; docs/protocol.md
tells it whole.

Message kinds (``"t"``): ``key`` (a key share and its proof), ``shuffle`` (a proven shuffle, step 1
or 2), ``ready`` (the first shuffler verified step 2: the pack may be used), the actions ``cutdeal``,
``cut``, ``discard``, ``starter``, ``play``, ``go``, ``count`` (with the sender's decryption shares
for the slots the action opens, ``[[slot, value], ...]``, and one ``proof`` for them all),
``shares`` (the reply that opens them for the actor),
``final`` (what the sender still held when the match ended or was abandoned), ``next`` (accept the
next hand), ``newmatch`` and ``abort``. Every one carries the match number ``m`` and its sender's
message number ``n`` (0, 1, 2... per match), so a replayed or lost payload is refused.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from ..rules import Rules, RulesError
from ..state import MAX_CLAIM, MAX_PLAY_CLAIM
from .errors import ProtocolError
from .pack import PACK_SIZE

__all__ = ["MESSAGE_KINDS", "EARLY_KINDS", "MAX_EARLY_BYTES", "MAX_REASON", "online_rules", "clean_peer_text",
           "check_fields", "check_shape", "check_early", "small_int", "canonical"]

MAX_REASON = 200
"""Longest ``abort`` reason kept from the other browser (cleaned, shown in quotes as its words)."""
EARLY_KINDS = ("key", "newmatch", "abort")
"""What the other browser may send in the next match before this browser begins it (it has no key
share of this browser's there yet, so nothing else of that match can be made): at most one of each."""
MAX_EARLY_BYTES = 4096
"""Longest payload of the next match kept before this browser begins it (canonical JSON: a key
share and its proof with the rules are a few hundred characters, an abort's reason at most 200)."""
_FIELDS: dict[str, frozenset[str]] = {
    "key": frozenset({"share", "proof"}),
    "shuffle": frozenset({"pack", "step", "cards", "proof"}),
    "ready": frozenset({"pack"}),
    "cutdeal": frozenset({"pack", "depth", "shares", "proof"}),
    "cut": frozenset({"pack", "depth", "shares", "proof"}),
    "discard": frozenset({"pack", "slots"}),
    "starter": frozenset({"pack", "depth", "shares", "proof"}),
    "play": frozenset({"pack", "slot", "shares", "proof"}),
    "go": frozenset({"pack"}),
    "count": frozenset({"pack", "shares", "proof"}),
    "muggins": frozenset({"pack"}),
    "pass": frozenset({"pack"}),
    "crib": frozenset({"pack", "shares", "proof"}),
    "shares": frozenset({"pack", "shares", "proof"}),
    "final": frozenset({"pack", "shares", "proof"}),
    "next": frozenset({"hand"}),
    "newmatch": frozenset({"op"}),
    "abort": frozenset({"reason"}),
}
MESSAGE_KINDS = frozenset(_FIELDS)
"""Every payload kind the protocol sends and accepts."""
_OPTIONAL: dict[str, frozenset[str]] = {"key": frozenset({"rules"}), "count": frozenset({"claim"}),
                                        "play": frozenset({"claim"})}
"""Fields a payload carries only at some tables: the rules in a ``key`` (any table but the classic
one, whose payloads are as before the rule book), the claim of a ``count`` (muggins), the claim of a
``play`` (muggins in the play)."""


def online_rules(data: object) -> Rules:
    """The rules of an online table from their plain data (``Rules.to_json``); :class:`RulesError`,
    in words for a player, for anything the rule book does not have or online play does not offer
    (three and four players play at one device only)."""
    rules = Rules.from_json(data)
    if rules.players != 2:
        raise RulesError(f"online play is for two players; {rules.describe()} is played at one device")
    return rules



def clean_peer_text(text: object, limit: int = MAX_REASON) -> str:
    """Text from the other browser made safe to keep and show: no lone surrogates, no control or
    format characters, whitespace collapsed, at most ``limit`` characters."""
    if not isinstance(text, str):
        return ""
    out: list[str] = []
    for ch in text:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            continue
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"):
            ch = " " if ch in "\t\n\r" else ""
        out.append(ch)
    cleaned = " ".join("".join(out).split())
    return cleaned[:limit]


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, ASCII (what a save's checksum hashes, and what a
    payload's size is measured in)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=True, separators=(",", ":"))


def check_fields(message: object, rules: Rules) -> tuple[str, dict[str, Any]]:
    """(the kind, the payload) of a payload whose kind and field names are right at this table;
    :class:`ProtocolError` if not."""
    if not isinstance(message, dict):
        raise ProtocolError("a message must be a JSON object")
    kind = message.get("t")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError(f"unknown message kind {clean_peer_text(str(kind), 40)!r}")
    expected = _FIELDS[kind] | {"t", "m", "n"}
    if kind == "count" and rules.muggins:
        expected |= {"claim"}  # with muggins every count says what it claims
    elif kind == "play" and rules.play_muggins:
        expected |= {"claim"}  # with muggins in the play every card says what it scores
    elif kind == "key" and "rules" in message:
        expected |= {"rules"}  # checked when the key is taken: a peer at another table is refused
    if set(message) != expected:
        extra = sorted(clean_peer_text(str(k), 20) for k in set(message) - expected)
        missing = sorted(expected - set(message))
        raise ProtocolError(f"a {kind!r} message has the wrong fields (extra {extra}, missing {missing})")
    return kind, message


def small_int(value: object, what: str, limit: int = 1 << 20) -> int:
    if type(value) is not int or not 0 <= value < limit:
        raise ProtocolError(f"{what} must be a small non-negative integer")
    return value


def check_shape(kind: str, message: dict[str, Any]) -> None:
    """The types and sizes of a payload's fields (no arithmetic): ProtocolError if wrong."""
    if "pack" in message:
        small_int(message["pack"], "the pack number", 1 << 12)
    if "depth" in message:
        small_int(message["depth"], "the depth", PACK_SIZE)
    if "slot" in message:
        small_int(message["slot"], "the slot laid", PACK_SIZE)
    if "hand" in message:
        small_int(message["hand"], "the hand number", 1 << 12)
    if "claim" in message:
        small_int(message["claim"], "the claim", (MAX_PLAY_CLAIM if kind == "play" else MAX_CLAIM) + 1)
    if "step" in message and message["step"] not in (1, 2) or type(message.get("step", 1)) is not int:
        raise ProtocolError("a shuffle's step is 1 or 2")
    if "slots" in message:
        slots = message["slots"]
        if not isinstance(slots, list) or len(slots) not in (1, 2):
            raise ProtocolError("a discard names one or two slots")
        for s in slots:
            small_int(s, "a discarded slot", PACK_SIZE)
    if "shares" in message:
        shares = message["shares"]
        if not isinstance(shares, list) or len(shares) > 8:
            raise ProtocolError("shares are a list of at most 8 [slot, value] pairs")
        for entry in shares:
            if not isinstance(entry, list) or len(entry) != 2:
                raise ProtocolError("a share is a [slot, value] pair")
            small_int(entry[0], "a share's slot", PACK_SIZE)
            if not isinstance(entry[1], str):
                raise ProtocolError("a share's value is text")
        proof = message["proof"]
        if not isinstance(proof, list) or len(proof) != (2 if shares else 0):
            raise ProtocolError("the shares' proof is a list of two scalars (none without shares)")
    if kind == "shuffle":
        if not isinstance(message["cards"], list) or len(message["cards"]) != PACK_SIZE:
            raise ProtocolError(f"a shuffle holds exactly {PACK_SIZE} ciphertexts")
        if not isinstance(message["proof"], dict):
            raise ProtocolError("a shuffle's proof is an object")
    if kind == "key" and not (isinstance(message["share"], str) and isinstance(message["proof"], list)):
        raise ProtocolError("a key share is text and its proof a list")
    if kind == "abort" and not isinstance(message["reason"], str):
        raise ProtocolError("an abort must give its reason as text")


def check_early(kind: str, message: dict[str, Any], kept: list[dict[str, Any]]) -> None:
    """May a payload of the next match, which the other began before this browser did (it accepted
    this browser's offer, or both agreed and it settled first), be kept after those already ``kept``?
    Only what the protocol can send before it has this browser's key share of that match (its own
    ``key``, an offer of yet another match, an ``abort``), in order from its first, each once,
    shape-checked and small (:data:`EARLY_KINDS`, :data:`MAX_EARLY_BYTES`); else :class:`ProtocolError`."""
    if kind not in EARLY_KINDS:
        raise ProtocolError(f"a {kind!r} message of the next match before this browser began it")
    n = small_int(message["n"], "the message number", 1 << 40)
    if n != len(kept) or n >= len(EARLY_KINDS):
        raise ProtocolError(f"message number {n} of the next match where {len(kept)} was expected")
    if any(other["t"] == kind for other in kept):
        raise ProtocolError(f"a second {kind!r} message of the next match before this browser began it")
    check_shape(kind, message)
    if kind == "newmatch" and message["op"] != "offer":
        raise ProtocolError("an answer in the next match to an offer that was never made there")
    if len(canonical(message)) > MAX_EARLY_BYTES:
        raise ProtocolError(f"a {kind!r} message of the next match longer than {MAX_EARLY_BYTES} characters")


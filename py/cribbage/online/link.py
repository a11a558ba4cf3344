"""The link between two browsers: envelopes, sequence numbers, seat proofs, heartbeat, resume.

No I/O and no clock: the caller feeds what the channel does and the time, then drains the results.

    link = Link.host(new_room_id(), new_seat_key(), now, new_room_secret())  # the opener, seat 0
    link = Link.join(room_id, new_seat_key(), now, secret)    # the friend, seat 1 (keep the key!)
    link = Link.from_dict(saved)                              # after a reload: same seat, same counters
    is_room_id(text_from_url), is_room_secret(fragment_k)     # check a link's parts before Link.join
    link.connected(now, channel_binding(local_fp, remote_fp, caller))  # the channel opened, with its
                                                              # fingerprints and the caller's signalling id
    link.disconnected(now)                                    # the channel closed
    link.receive(text, now)                                   # a string that came over the channel
    link.tick(now)                                            # call every ~0.5 s: heartbeat, retries
    link.send(payload, now)                                   # a JSON-able dict for the peer (queued)
    link.pop_outgoing() -> list[str]                          # write these to the channel, in order
    link.pop_events() -> list[LinkEvent]                      # Delivered / Problem / StateChanged / HangUp
    link.state, link.can_act, link.status_text                # live/waiting/offline, or final: refused/expired
    link.full                                                 # the host said "full": call again later
    link.to_dict()                                            # save it with the game state after each batch
    link.distrust(text, now)                                  # the game refused a delivered payload

``now`` is Unix time in seconds (wall clock: rooms expire after seven days of disuse). Every payload
is delivered exactly once, in order, across reconnects and reloads, provided the caller saves
``to_dict()`` together with the game state after every call that returned events or queued a
payload (the game state that consumed the delivered payloads and produced the sent ones).
Bad input from the peer (not JSON, unknown kind, wrong types, oversized or nested too deep, a gap
in the sequence, a failed seat proof) is never raised: it gives one ``Problem``, nothing is
delivered, and the link waits (``can_act`` false) until a new hello/proof handshake succeeds, which
it asks for itself (at most every 3 s). Duplicates and replays of payloads already delivered are
ignored silently: a resend after a reconnect is normal. ``Delivered`` events are the only way peer
data reaches the game; ``Problem.text`` and ``StateChanged.text`` are our own plain text (never the
peer's) to show as text, not HTML. On ``HangUp`` the caller closes the channel (~200 ms later, so the
refusal gets through). A host that gets a second connection while one is open asks
``screen(hello_text, now, caller_id)``: a refusal to send, or ``None`` when it claims the friend's
seat and may replace the channel there (then the caller moves the link to it: ``connected``, then
``receive`` that text; the proof decides).

Threat model: the signalling server (PeerJS) may be hostile. It sees the room id and the peer ids
and can route a call anywhere, even to itself, or relay both browsers live through two WebRTC
connections of its own, seeing and changing everything they send. It never sees the room secret:
that lives in the link's ``#k=`` fragment, which browsers send to no server. Defeating it takes
(1) the secret, (2) a seat key, and (3) binding every proof to the one DTLS channel it is made on.

Channel binding: the page reads both ends' DTLS certificate fingerprints (sha-256) from the data
channel's SDP and gives them to ``connected()`` as a :class:`Binding`; without a well-formed one no
proof is made or accepted on that channel. Every MAC covers both fingerprints in seat order (the
host's end, the guest's end): the prover puts its own in its seat's place. A relay terminates two
DTLS connections, so each side sees another pair and every proof made through it fails.

Seat proof: a seat key never leaves its browser. Its commitment ``SHA-256(label, room, key)`` is
given to the other seat once, at the first join; afterwards each side proves its seat on every
(re)connection and resync by ``HMAC-SHA256(commitment, "cribbage-proof-v2" | room | seat | nonce |
fp_host | fp_guest)`` over a fresh 256-bit nonce chosen by the other side. The commitments are the
proof keys, so neither ever crosses a channel in clear before the other end has shown the secret
on that very channel.

First join (no trust on first use): the host makes a 256-bit room secret with the room; the guest
has it from the link. The guest's hello says ``"join": true``; the host answers nothing but its own
hello until the guest's proof (for the host's nonce) carries ``seal`` = the guest's commitment XOR
``HMAC(secret, "cribbage-seal-v2" | room | nonce | fp_host | fp_guest)`` and ``jmac`` =
``HMAC(secret, "cribbage-join-v2" | room | 1 | guest commitment | nonce | fp_host | fp_guest)``.
Only if both check out (and no other friend holds seat 1) does the host bind that commitment and
answer the guest's nonce with its proof plus ``commit`` (its commitment) and its own ``jmac`` (seat
0, over its commitment and the guest's nonce), which the guest checks before binding it. Anything
else gets ``refuse: full`` and nothing more: no proof, no commitment. A host room saved before
secrets existed accepts no first join (the web layer gives such a never-joined room a secret when
it is reopened); a friend already joined keeps proving its seat as before.

What this guarantees: a live link means the other end holds the other seat's key (or, at the first
join, the room secret) and sits at the far end of this very DTLS channel. It does not stop a
hostile signalling server from refusing or dropping calls (a denial of service), and whoever gets
the whole link before the friend joins can take seat 2, as the friend could.

Strangers: a caller that proves no seat within ``UNPROVEN_TIMEOUT`` (10 s) is hung up (the host
says "full"), so the page can hear the next caller. The host counts that time per caller (the
signalling id in the channel's :class:`Binding`) across its calls: calling again does not restart
it, only ``UNPROVEN_FORGET`` (60 s) without a call does, and a caller whose time is up is hung up
as soon as it connects. A second caller claiming the friend's seat may replace one that has held
the channel for ``SCREEN_GRACE`` (3 s) without proving a seat (``screen()``), so a stranger who
keeps calling, under one id or many, holds the room for seconds at a time at most and the friend
(who proves within a round trip) gets in. A refusal from a peer never proven on the channel does
not close the host's room; and a guest told "full" keeps calling (``link.full``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import re
import secrets
from dataclasses import dataclass
from typing import Any, Literal, Union

__all__ = [
    "PROTOCOL",
    "MAX_ENVELOPE",
    "PING_INTERVAL",
    "LOSS_TIMEOUT",
    "ROOM_LIFETIME",
    "UNPROVEN_TIMEOUT",
    "UNPROVEN_FORGET",
    "SCREEN_GRACE",
    "RESEND_KEEP",
    "RESEND_CHARS",
    "Binding",
    "channel_binding",
    "Link",
    "LinkError",
    "LinkState",
    "LinkEvent",
    "Delivered",
    "Problem",
    "StateChanged",
    "HangUp",
    "new_room_id",
    "is_room_id",
    "new_seat_key",
    "new_room_secret",
    "is_room_secret",
    "rendezvous",
    "nostr_key",
    "seat_commitment",
]

PROTOCOL = 3
"""The envelope version; a peer speaking another one is refused with a plain message (version 1 had
seat proofs not bound to the channel and a join by trust on first use; version 2 carried the deal's
payloads with one proof per decryption share, whose transcripts version 3 no longer accepts)."""
MAX_ENVELOPE = 192 * 1024
"""Longest envelope accepted or sent, in characters (a 2048-bit encrypted pack is ~35 000); sent as
ASCII, so also bytes, under the 256 KiB a Chromium data channel message may carry."""
MAX_DEPTH = 32
"""Deepest nesting of lists and objects accepted or sent (deeper JSON overflows Pyodide's stack)."""
PING_INTERVAL = 2.0
"""Seconds between heartbeats."""
LOSS_TIMEOUT = 10.0
"""Seconds of silence after which the peer is considered lost (WebRTC never says so itself)."""
HELLO_RETRY = 3.0
"""Seconds after which an unanswered hello is sent again with a fresh nonce."""
UNPROVEN_TIMEOUT = 10.0
"""Seconds a channel may stay open without the peer proving its seat before it is dropped (so a
stranger holding the host's only channel cannot keep the friend out)."""
UNPROVEN_FORGET = 60.0
"""Seconds without a call after which a caller that never proved a seat starts a fresh
``UNPROVEN_TIMEOUT`` (the friend whose first try failed is not shut out for good)."""
SCREEN_GRACE = 3.0
"""Seconds an unproven caller holds the host's channel before a second caller claiming the friend's
seat may replace it (an honest handshake takes a round trip or two)."""
TURN_KEEP = 12.0
"""Seconds a caller turned away by ``screen`` keeps its turn without calling again (the friend
calls again every 5 s)."""
MAX_CALLERS = 64
"""Callers whose unproven time the host remembers (the oldest is forgotten first)."""
ROOM_LIFETIME = 7 * 24 * 3600.0
"""A room unused for this long has expired."""
RESEND_KEEP = 8
"""Payloads the peer acknowledged that are still kept (and saved) to send again, should the peer come
back behind them: a browser whose disk lost its last writes despite everything (one without strict
durability) resumes where its disk is, and is sent them again."""
RESEND_CHARS = 32_000
"""At most this many characters of acknowledged payloads are kept (a shuffled pack is large)."""
MAX_COUNTER = 2**53 - 1
"""Sequence numbers stay exact in JavaScript too."""

LinkState = Literal["offline", "waiting", "live", "refused", "expired"]
JsonDict = dict[str, Any]

_LABEL = b"cribbage-seat-v1"  # the commitment's label (saved rooms hold commitments made with it)
_PROOF = b"cribbage-proof-v2"
_JOIN = b"cribbage-join-v2"
_SEAL = b"cribbage-seal-v2"
_RENDEZVOUS = b"cribbage-rendezvous-v1"
_NOSTR_KEY = b"cribbage-nostr-key-v1"
_HEX64 = re.compile(r"[0-9a-f]{64}")
_SECRET = re.compile(r"[A-Za-z0-9_-]{43}")
_FINGERPRINT = re.compile(r"sha-256 [0-9A-F]{2}(?::[0-9A-F]{2}){31}")
_ROOM = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{3,63}")
# a JSON string (to its closing quote, or to the end: never backtracks) or a bracket
_TOKENS = re.compile(r'"(?:[^"\\]+|\\[\s\S])*(?:"|\\?$)|[\[\]{}]')
_REFUSALS = {
    "full": "This room is full: two players are already seated.",
    "expired": "This room has expired (unused for seven days). Start a new one.",
    "key": "The other browser could not prove its seat, so the connection was refused.",
    "seat": "This seat is already open in another tab or browser.",
    "room": "The other browser is in a different room.",
    "unknown": "The other browser does not recognise this seat in its room.",
    "version": "The other browser runs a different version of the game; reload both pages.",
}


_UNKNOWN_CALLER = ("A browser claimed the other seat of this room, which this browser has no record of; "
                   "it was refused.")
_FULL_RETRY = "The host's browser says this room is full; trying again in a few seconds."
_UNBOUND = ("This browser could not read the connection's security fingerprints, so no seat can be proven "
            "on it; trying again.")
_NO_SECRET = ("This room link is incomplete: ask your friend for the whole link (with the part after "
              "\u201c#\u201d).")


class LinkError(ValueError):
    """A local misuse of the link (an unsendable payload) or a damaged saved link."""


class _Violation(Exception):
    """Bad input from the peer; the text is shown to the local player."""


@dataclass(frozen=True, slots=True)
class Delivered:
    """The peer's payload number ``n``, delivered exactly once and in order."""

    n: int
    payload: JsonDict


@dataclass(frozen=True, slots=True)
class Problem:
    """The peer sent something bad; it was ignored (plain text for the player)."""

    text: str


@dataclass(frozen=True, slots=True)
class StateChanged:
    """The link's state changed (plain text for the player)."""

    state: LinkState
    text: str


@dataclass(frozen=True, slots=True)
class HangUp:
    """We refused the peer on this channel: close it once the refusal has been sent."""

    reason: str
    text: str


LinkEvent = Union[Delivered, Problem, StateChanged, HangUp]


def new_room_id() -> str:
    """A fresh random room id (URL- and PeerJS-safe)."""
    return "r" + secrets.token_hex(10)


def is_room_id(text: object) -> bool:
    """Whether a room id read from a link is well formed (else the page says the link is broken)."""
    return _room(text)


def new_seat_key() -> str:
    """A fresh random seat key (256 bits, hex); keep it in this browser's storage only."""
    return secrets.token_hex(32)


def seat_commitment(room: str, key: str) -> str:
    """The commitment to a seat key in a room (given to the other side once, at the first join)."""
    return hashlib.sha256(_LABEL + b"\0" + room.encode() + b"\0" + key.encode()).hexdigest()


def new_room_secret() -> str:
    """A fresh room secret (256 bits, base64url without padding: 43 characters) for the link's ``#k=``."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()


def is_room_secret(text: object) -> bool:
    """Whether a room secret read from a link's fragment is well formed."""
    return isinstance(text, str) and _SECRET.fullmatch(text) is not None


def _items(items: list[tuple[int, str]]) -> str:
    """The JSON text of a saved list of payloads: ``[[n,PAYLOAD],...]``."""
    return "[" + ",".join(f"[{n},{text}]" for n, text in items) + "]"


def rendezvous(room: str, secret: str | None) -> str:
    """The name both seats of a room are known by on a signalling path: an HMAC of the room id under
    the room secret (32 hex digits), so whoever knows only the room id (in the link's query, seen by
    the web host, the signalling server and browser history) cannot find the host; the room id itself
    for a room made before secrets existed."""
    if secret is None or not is_room_secret(secret):
        return room
    return hmac.new(_secret_bytes(secret), _RENDEZVOUS + b"|" + room.encode(), hashlib.sha256).hexdigest()[:32]


def nostr_key(room: str, secret: str | None) -> str | None:
    """The password of the Nostr signalling path (static/net.js: Trystero encrypts the offers and
    answers it sends over public relays under it): an HMAC of the room id under the room secret, with
    another label than :func:`rendezvous` (which the PeerJS server sees), 43 base64url characters.
    None for a room without a secret: such a room uses PeerJS only."""
    if secret is None or not is_room_secret(secret):
        return None
    digest = hmac.new(_secret_bytes(secret), _NOSTR_KEY + b"|" + room.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _secret_bytes(secret: str) -> bytes:
    return base64.urlsafe_b64decode(secret + "=")


@dataclass(frozen=True, slots=True)
class Binding:
    """The DTLS certificate fingerprints of one data channel, as this browser sees them
    (``"sha-256 AB:CD:…"``, upper-case hex): its own end and the other one."""

    local: str
    remote: str
    caller: str = ""
    """The other end's signalling id ("" if unknown): the host times unproven callers by it."""


def channel_binding(local: object, remote: object, caller: object = "") -> Binding | None:
    """The binding of a channel from the two fingerprints the page read, or None if either is missing
    or malformed (or both ends claim the same certificate): no seat is proven on such a channel.
    ``caller``: the other end's signalling id (kept to 128 characters; not part of any proof)."""
    if not (isinstance(local, str) and isinstance(remote, str)):
        return None
    if _FINGERPRINT.fullmatch(local) is None or _FINGERPRINT.fullmatch(remote) is None or local == remote:
        return None
    return Binding(local, remote, caller[:128] if isinstance(caller, str) else "")


def _ends(binding: Binding, seat: int) -> bytes:
    """The channel's two fingerprints in seat order (the host's end, the guest's end)."""
    pair = (binding.local, binding.remote) if seat == 0 else (binding.remote, binding.local)
    return b"%s|%s" % (pair[0].encode(), pair[1].encode())


def _mac(commitment: str, room: str, seat: int, nonce: str, ends: bytes) -> str:
    """The proof of ``seat``: HMAC-SHA256 keyed by its commitment over the verifier's nonce and the channel."""
    message = b"%s|%s|%d|%s|%s" % (_PROOF, room.encode(), seat, nonce.encode(), ends)
    return hmac.new(bytes.fromhex(commitment), message, hashlib.sha256).hexdigest()


def _join_mac(secret: str, room: str, seat: int, commitment: str, nonce: str, ends: bytes) -> str:
    """The proof that ``seat`` holds the room secret (the whole link), binding its commitment to the
    verifier's nonce and the channel."""
    message = b"%s|%s|%d|%s|%s|%s" % (_JOIN, room.encode(), seat, commitment.encode(), nonce.encode(), ends)
    return hmac.new(_secret_bytes(secret), message, hashlib.sha256).hexdigest()


def _seal(secret: str, room: str, commitment: str, nonce: str, ends: bytes) -> str:
    """The guest's commitment hidden under the room secret (XOR with a pad made of the secret, the
    host's nonce and the channel), so a relay never learns it; sealing twice opens it."""
    pad = hmac.new(_secret_bytes(secret), b"%s|%s|%s|%s" % (_SEAL, room.encode(), nonce.encode(), ends),
                   hashlib.sha256).digest()
    return bytes(a ^ b for a, b in zip(bytes.fromhex(commitment), pad)).hex()


def _dump(obj: JsonDict) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> JsonDict:
    out: JsonDict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate field {key!r}")
        out[key] = value
    return out


def _too_deep(text: str) -> bool:
    """Whether the JSON text nests lists and objects deeper than ``MAX_DEPTH`` (checked without parsing)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False  # the common case, found fast
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif token in "]}":
            depth -= 1
    return False


def _parse(text: object) -> JsonDict:
    """The envelope as a dict, or a violation; the size is checked before parsing."""
    if not isinstance(text, str):
        raise _Violation("The other browser sent something that is not text; it was ignored.")
    if len(text) > MAX_ENVELOPE:
        raise _Violation(f"The other browser sent an oversized message ({len(text)} characters); it was ignored.")
    if _too_deep(text):
        raise _Violation("The other browser sent a message nested too deeply; it was ignored.")
    try:
        obj = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError):
        raise _Violation("The other browser sent a message that is not valid JSON; it was ignored.") from None
    if not isinstance(obj, dict):
        raise _Violation("The other browser sent a message of the wrong shape; it was ignored.")
    version = obj.get("v")
    if type(version) is not int:
        raise _Violation("The other browser sent a message without a version; it was ignored.")
    if version != PROTOCOL:
        raise _Violation(_REFUSALS["version"])
    kind = obj.get("k")
    if not isinstance(kind, str) or kind not in _SCHEMAS:
        raise _Violation("The other browser sent a message of an unknown kind; it was ignored.")
    schema = _SCHEMAS[kind]
    required = {name for name, (_, optional) in schema.items() if not optional}
    if not required <= obj.keys() - {"v", "k"} <= schema.keys():
        raise _Violation(f"The other browser sent a malformed {kind} message; it was ignored.")
    for name, value in obj.items():
        if name in ("v", "k"):
            continue
        check, _ = schema[name]
        if not check(value):
            raise _Violation(f"The other browser sent a {kind} message with a bad {name!r}; it was ignored.")
    return obj


def _count(value: object) -> bool:
    return type(value) is int and 0 <= value <= MAX_COUNTER


def _positive(value: object) -> bool:
    return _count(value) and value != 0


def _hex64(value: object) -> bool:
    return isinstance(value, str) and _HEX64.fullmatch(value) is not None


def _room(value: object) -> bool:
    return isinstance(value, str) and _ROOM.fullmatch(value) is not None


def _seat(value: object) -> bool:
    return type(value) is int and value in (0, 1)


def _flag(value: object) -> bool:
    return type(value) is bool


def _yes(value: object) -> bool:
    return value is True


def _payload(value: object) -> bool:
    return isinstance(value, dict)


def _reason(value: object) -> bool:
    return isinstance(value, str) and len(value) <= 32


_Field = tuple[Any, bool]  # (check, optional)
_SCHEMAS: dict[str, dict[str, _Field]] = {
    "hello": {"room": (_room, False), "seat": (_seat, False), "nonce": (_hex64, False),
              "recv": (_count, False), "sent": (_count, False), "join": (_yes, True)},
    "proof": {"for": (_hex64, False), "mac": (_hex64, False), "commit": (_hex64, True), "jmac": (_hex64, True),
              "seal": (_hex64, True)},
    "data": {"n": (_positive, False), "ack": (_count, False), "p": (_payload, False)},
    "ack": {"ack": (_count, False)},
    "ping": {"ack": (_count, False), "sent": (_count, False), "live": (_flag, False)},
    "refuse": {"reason": (_reason, False)},
}


class Link:
    """One seat's end of the link to the other seat of a room."""

    def __init__(self, room: str, seat: int, key: str, now: float, *, peer_commit: str | None = None,
                 secret: str | None = None, sent: int = 0, recv: int = 0,
                 outbox: list[tuple[int, JsonDict]] | None = None,
                 kept: list[tuple[int, JsonDict]] | None = None) -> None:
        if not _room(room):
            raise LinkError(f"bad room id {room!r}")
        if not _seat(seat):
            raise LinkError(f"bad seat {seat!r}")
        if not _hex64(key):
            raise LinkError("a seat key is 64 lowercase hex digits")
        if peer_commit is not None and not _hex64(peer_commit):
            raise LinkError("bad peer commitment")
        if secret is not None and not is_room_secret(secret):
            raise LinkError("a room secret is 43 base64url characters")
        self.room = room
        """The room id (in the link the host shares)."""
        self.seat = seat
        """0 for the room's opener (the host), 1 for the friend who joined."""
        self.key = key
        """This seat's secret key: never sent, kept in this browser's storage."""
        self.commit = seat_commitment(room, key)
        """This seat's commitment, given to the other side once at the first join."""
        self.peer_commit = peer_commit
        """The other seat's commitment (None until the first join binds it)."""
        self.secret = secret
        """The room secret of the link's ``#k=`` (None in a room made before there was one): a first
        join must prove it."""
        self.last_used = float(now)
        """When the room was last used (Unix seconds); seven days later it has expired."""
        self.sent = sent
        """Payloads queued for the peer so far (the last ``n`` given)."""
        self.recv = recv
        """Payloads delivered from the peer so far (the last ``n`` accepted)."""
        self.outbox: list[tuple[int, JsonDict]] = list(outbox or [])
        """Sent payloads not yet acknowledged, oldest first, resent after a reconnect."""
        self.kept: list[tuple[int, JsonDict]] = list(kept or [])
        """Payloads the peer acknowledged, newest last (``RESEND_KEEP`` at most): sent again if the
        peer comes back behind them."""
        self._texts: dict[int, tuple[JsonDict, str]] = {}
        """id(payload) -> (the payload, its JSON) for :meth:`to_json`."""
        self.duplicates = 0
        """Payloads received again and ignored (a resend after a reconnect, or a replay)."""
        self.resent_from_log = 0
        """Acknowledged payloads sent again because the peer came back behind them."""
        self._out: list[str] = []
        self._events: list[LinkEvent] = []
        self._connected = False
        self._authed = False  # the peer proved its seat on this connection
        self._trusted = True  # no bad input since the last completed handshake
        self._lost = False
        self._closed: LinkState | None = None  # "refused" / "expired" once final
        self._closed_text = ""
        self._challenge: str | None = None  # our nonce awaiting the peer's proof
        self._challenge_at = float("-inf")
        self._resync_due = False  # a new handshake is wanted once the retry interval allows
        self._proven = False  # the peer's proof for this round checked out
        self._peer_hello: tuple[int, int] | None = None  # (recv, sent) from the peer's hello this round
        self._last_heard = 0.0
        self._last_ping = float("-inf")
        self._reported = False  # a Problem was shown since trust was lost
        self._hung_up = False  # we refused whoever is on this channel
        self._binding: Binding | None = None  # the channel's fingerprints (None: nothing is proven on it)
        self._connected_at = 0.0  # when the unproven clock of this channel's caller started
        self._called_at = 0.0  # when this channel opened
        self._callers: dict[str, tuple[float, float]] = {}
        """Host: caller id -> (its unproven clock's start, its last call) for callers that never proved a seat."""
        self._caller = ""  # the signalling id of the caller on this channel ("" if unknown)
        self._turns: dict[str, tuple[float, float]] = {}
        """Host: callers turned away by ``screen`` while the channel was taken -> (first turned away,
        last call), in order: the one first turned away is admitted first."""
        self._join_nonce: str | None = (
            None  # host: the nonce of a joining guest's hello, answered once it proved the secret
        )
        self._full = False  # guest: the host said the room is full (we try again)
        self._state: LinkState = "offline"

    # ---- construction and persistence -------------------------------------------------------

    @classmethod
    def host(cls, room: str, key: str, now: float, secret: str | None = None) -> Link:
        """The link of the player who opened the room (seat 0); ``secret`` goes in the shared link."""
        return cls(room, 0, key, now, secret=secret)

    @classmethod
    def join(cls, room: str, key: str, now: float, secret: str | None = None) -> Link:
        """The link of the friend who opened the room's link (seat 1), with the secret of its ``#k=``."""
        return cls(room, 1, key, now, secret=secret)

    def to_dict(self) -> JsonDict:
        """Everything needed to resume after a reload (JSON-able; holds the seat key)."""
        return {"format": 1, "room": self.room, "seat": self.seat, "key": self.key,
                "peer_commit": self.peer_commit, "secret": self.secret, "last_used": self.last_used, "sent": self.sent,
                "recv": self.recv, "outbox": [[n, json.loads(_dump(p))] for n, p in self.outbox],
                "kept": [[n, json.loads(_dump(p))] for n, p in self.kept]}

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text, each payload written once: the same payloads are saved after
        every batch until the other acknowledges them (and a few more after), and a shuffle's is
        ~15 kB. (The payloads are the link's own copies, never changed: their texts are kept.)"""
        head, outbox, kept = self.pieces()
        return f'{head[:-1]},"outbox":{_items(outbox)},"kept":{_items(kept)}}}'

    def pieces(self) -> tuple[str, list[tuple[int, str]], list[tuple[int, str]]]:
        """:meth:`to_json` in pieces: the head's JSON text (an object), and the outbox's and the kept
        payloads' ``(n, text)`` (each payload's text the same string object from save to save: the
        room's log writes only the payloads that are new)."""
        texts: dict[int, tuple[JsonDict, str]] = {}

        def entries(items: list[tuple[int, JsonDict]]) -> list[tuple[int, str]]:
            out = []
            for n, payload in items:
                kept = self._texts.get(id(payload))
                if kept is None or kept[0] is not payload:
                    kept = (payload, _dump(payload))
                texts[id(payload)] = kept
                out.append((n, kept[1]))
            return out

        outbox, kept = entries(self.outbox), entries(self.kept)
        self._texts = texts  # (only the payloads still saved)
        head = _dump({"format": 1, "room": self.room, "seat": self.seat, "key": self.key,
                      "peer_commit": self.peer_commit, "secret": self.secret, "last_used": self.last_used,
                      "sent": self.sent, "recv": self.recv})
        return head, outbox, kept

    @classmethod
    def from_dict(cls, data: object) -> Link:
        """A link restored from ``to_dict()``; ``LinkError`` if the record is damaged."""
        if not isinstance(data, dict) or data.get("format") != 1:
            raise LinkError("the saved online link is damaged or from another version")
        try:
            sent, recv, outbox_raw = data["sent"], data["recv"], data["outbox"]
            last_used = data["last_used"]
            if not (_count(sent) and _count(recv) and isinstance(outbox_raw, list)):
                raise LinkError("bad counters")
            if type(last_used) not in (int, float) or not math.isfinite(last_used):
                raise LinkError("bad date")
            outbox: list[tuple[int, JsonDict]] = []
            for item in outbox_raw:
                if not (isinstance(item, list) and len(item) == 2 and _positive(item[0])
                        and isinstance(item[1], dict)):
                    raise LinkError("bad outbox entry")
                outbox.append((item[0], item[1]))
            numbers = [n for n, _ in outbox]
            if numbers != list(range(sent - len(outbox) + 1, sent + 1)):
                raise LinkError("the outbox does not end at the last payload sent")
            kept: list[tuple[int, JsonDict]] = []
            kept_raw = data.get("kept", [])  # (saves made before it existed have none)
            if not isinstance(kept_raw, list):
                raise LinkError("bad kept payloads")
            for item in kept_raw:
                if not (isinstance(item, list) and len(item) == 2 and _positive(item[0])
                        and isinstance(item[1], dict)):
                    raise LinkError("bad kept payload")
                kept.append((item[0], item[1]))
            base = sent - len(outbox)
            if [n for n, _ in kept] != list(range(base - len(kept) + 1, base + 1)):
                raise LinkError("the kept payloads do not end where the outbox begins")
            link = cls(data["room"], data["seat"], data["key"], last_used, peer_commit=data["peer_commit"],
                       secret=data.get("secret"), sent=sent, recv=recv, outbox=outbox, kept=kept)
        except (KeyError, TypeError, ValueError) as exc:
            raise LinkError(f"the saved online link is damaged: {exc}") from None
        return link

    # ---- what the caller reads ----------------------------------------------------------------

    @property
    def state(self) -> LinkState:
        """``live`` (both here and proven), ``waiting``, ``offline``, or final: ``refused``/``expired``."""
        if self._closed is not None:
            return self._closed
        if not self._connected:
            return "offline"
        if self._authed and self._trusted and not self._lost:
            return "live"
        return "waiting"

    @property
    def full(self) -> bool:
        """Whether the host's browser last said the room is full (the friend calls again, less often)."""
        return self._full

    @property
    def can_act(self) -> bool:
        """Whether the local player may act: both players connected and the peer proven."""
        return self.state == "live"

    @property
    def status_text(self) -> str:
        """The state in a few plain words for the table."""
        state = self.state
        if state in ("refused", "expired"):
            return self._closed_text
        if self._full and state != "live":
            return _FULL_RETRY
        if state == "offline":
            return "Not connected to the other player."
        if state == "live":
            return "Connected to the other player."
        if self._connected and self._binding is None:
            return _UNBOUND
        if self._hung_up:
            return "Refused a browser that cannot take the other seat; waiting for the other player."
        if self._lost:
            return "Lost contact with the other player: waiting for them to come back."
        if not self._trusted:
            return "The other browser sent bad data: waiting for it to resynchronise."
        return "Connecting to the other player…"

    def expired(self, now: float) -> bool:
        """Whether the room has gone unused for seven days."""
        return now - self.last_used >= ROOM_LIFETIME

    def pop_outgoing(self) -> list[str]:
        """The envelopes to write to the channel, in order (and forget them)."""
        out, self._out = self._out, []
        return out

    def pop_events(self) -> list[LinkEvent]:
        """What happened since the last call, in order (and forget it)."""
        events, self._events = self._events, []
        return events

    # ---- what the caller tells us ------------------------------------------------------------------

    def connected(self, now: float, binding: Binding | None = None) -> None:
        """The channel to the peer opened: say hello (or refuse, if the room expired).

        ``binding``: the channel's DTLS fingerprints as this browser sees them (:func:`channel_binding`);
        every seat proof made or checked on this channel covers them. Without one (the page could not
        read them) no proof is made or accepted: the channel is dropped after ``UNPROVEN_TIMEOUT``."""
        self._reset_connection()
        self._connected = True
        self._connected_at = self._called_at = now
        self._last_heard = now
        self._last_ping = now
        if isinstance(binding, Binding):
            self._binding = channel_binding(binding.local, binding.remote, binding.caller)
            self._caller = binding.caller if self.seat == 0 and self._binding is not None else ""
            if self._caller:
                self._connected_at = self._unproven_since(self._caller, now)
        if self._closed is None and self.expired(now):
            self._close("expired")
        if self._closed is None and self.seat == 1 and self.peer_commit is None and self.secret is None:
            self._close("refused", _NO_SECRET)
        if self._closed is None and self._binding is None:
            self._events.append(Problem(_UNBOUND))
            self._reported = True
        if self._closed is None:
            self._start_round(now)
        self._after()

    def stop(self, text: str) -> None:
        """Stop for good, for a reason of this page's own (its room link names a signalling server it
        does not trust): the final state ``refused``, saying ``text``; nothing is sent."""
        if self._closed is None:
            self._close("refused", text)
        self._after()

    def disconnected(self, now: float) -> None:
        """The channel closed (or the transport gave up on it)."""
        self._reset_connection()
        self._after()

    def send(self, payload: JsonDict, now: float) -> int:
        """Queue a payload for the peer (sent now if live, else after the next handshake); its ``n``."""
        if not isinstance(payload, dict):
            raise LinkError("a payload is a dict")
        n = self.sent + 1
        try:
            text = _dump({"v": PROTOCOL, "k": "data", "n": n, "ack": MAX_COUNTER, "p": payload})
        except (TypeError, ValueError, RecursionError) as exc:
            raise LinkError(f"the payload is not plain JSON: {exc}") from None
        if len(text) > MAX_ENVELOPE:
            raise LinkError(f"the payload is too large to send ({len(text)} characters)")
        if _too_deep(text):
            raise LinkError(f"the payload nests deeper than {MAX_DEPTH - 1} levels")
        copy = json.loads(text)["p"]  # our own copy: later changes by the caller do not leak in
        self.sent = n
        self.outbox.append((n, copy))
        self.last_used = max(self.last_used, now)
        if self._connected and self._authed and self._trusted and self._closed is None:
            self._send_data(n, copy)
        return n

    def tick(self, now: float) -> None:
        """Let time pass: heartbeat, loss of a silent peer, retry of an unanswered hello."""
        if self._connected and self._closed is None:
            if now - self._last_ping >= PING_INTERVAL:
                self._last_ping = now
                self._emit({"k": "ping", "ack": self.recv, "sent": self.sent, "live": self.state == "live"})
            if not self._lost and now - self._last_heard >= LOSS_TIMEOUT:
                self._lost = True
            if not self._authed and not self._hung_up and now - self._connected_at >= UNPROVEN_TIMEOUT:
                # nobody proved a seat on this channel: free it for the next caller (the friend)
                if self.seat == 0:
                    self._hang_up("full", "A browser that did not prove a seat within 10 seconds was "
                                          "disconnected.")
                else:
                    self._hang_up("timeout", "The host's browser did not prove its seat in time; "
                                             "calling again.", tell=False)
            # a hello unanswered, a resync wanted, or a handshake that never completed: try again
            retry = self._challenge is not None or self._resync_due or not (self._authed and self._trusted)
            if retry and now - self._challenge_at >= HELLO_RETRY:
                self._start_round(now)
        self._after()

    def receive(self, text: object, now: float) -> None:
        """A string from the channel; bad input is reported and ignored, never raised."""
        if not self._connected:
            return
        try:
            msg = _parse(text)
            self._last_heard = max(self._last_heard, now)
            self._lost = False
            self._dispatch(msg, now)
        except _Violation as bad:
            self._violation(str(bad), now)
        self._after()

    def distrust(self, text: str, now: float) -> None:
        """The game refused a delivered payload: report ``text`` (our own words), trust the peer no
        more and act no more until a new seat-proof handshake, as for bad input on the link."""
        self._violation(text, now)
        self._after()

    def screen(self, text: object, now: float, caller: str = "") -> str | None:
        """For a second connection: the refusal to send it, or None if it claims this link's peer seat
        and may replace the channel: the one there is not proven and has held it for ``SCREEN_GRACE``
        (or is gone), and ``caller`` (its signalling id) has not used up its own unproven time."""
        try:
            msg = _parse(text)
        except _Violation:
            return self._refusal("key")
        if self._closed == "expired" or self.expired(now):
            return self._refusal("expired")
        if msg["k"] != "hello" or msg["room"] != self.room:
            return self._refusal("room" if msg["k"] == "hello" else "key")
        if msg["seat"] == self.seat:
            return self._refusal("seat")
        if self.seat == 0 and msg.get("join") and self.secret is None:
            return self._refusal("full")  # a room without a secret cannot be joined
        if self.seat == 0:
            if self._connected and self._authed and not self._lost:
                return self._refusal("full")  # the friend is here (and heard within LOSS_TIMEOUT)
            if caller and now - self._unproven_since(caller, now, peek=True) >= UNPROVEN_TIMEOUT:
                return self._refusal("full")  # this caller had its time and proved nothing
            # callers turned away while the one there might still prove a seat wait their turn, in order
            for who, (_, last) in list(self._turns.items()):
                if now - last > TURN_KEEP:
                    del self._turns[who]  # it did not call again: forgotten
            if caller:
                first, _ = self._turns.pop(caller, (now, now))
                self._turns[caller] = (first, now)
                while len(self._turns) > MAX_CALLERS:
                    del self._turns[next(iter(self._turns))]
            waiting = (self._connected and now - self._called_at < SCREEN_GRACE
                       and now - self._connected_at < UNPROVEN_TIMEOUT)  # (not a caller whose time is up)
            if waiting or (caller and min(f for f, _ in self._turns.values()) < self._turns[caller][0]):
                return self._refusal("full")  # the caller there may still prove a seat, or another's turn
            self._turns.pop(caller, None)
        return None  # the seat (or join) proof on the channel decides

    # ---- inside ---------------------------------------------------------------------------------------

    def _unproven_since(self, caller: str, now: float, peek: bool = False) -> float:
        """When ``caller``'s unproven clock started (``now`` for a new caller, or one not heard for
        ``UNPROVEN_FORGET``); unless ``peek``, this call is recorded."""
        start, last = self._callers.get(caller, (now, now))
        if now - last > UNPROVEN_FORGET:
            start = now
        if not peek:
            self._callers.pop(caller, None)
            self._callers[caller] = (start, now)
            while len(self._callers) > MAX_CALLERS:
                del self._callers[next(iter(self._callers))]
        return start

    def _reset_connection(self) -> None:
        if self._connected and self._caller in self._callers:
            start, _ = self._callers[self._caller]
            self._callers[self._caller] = (start, self._last_heard)  # its last sign of life
        self._caller = ""
        self._connected = False
        self._authed = False
        self._trusted = True
        self._lost = False
        self._challenge = None
        self._challenge_at = float("-inf")
        self._resync_due = False
        self._proven = False
        self._peer_hello = None
        self._reported = False
        self._hung_up = False
        self._binding = None
        self._join_nonce = None

    def _emit(self, obj: JsonDict) -> None:
        self._out.append(_dump({"v": PROTOCOL, **obj}))

    def _refusal(self, reason: str) -> str:
        return _dump({"v": PROTOCOL, "k": "refuse", "reason": reason})

    def _after(self) -> None:
        state = self.state
        if state != self._state:
            self._state = state
            self._events.append(StateChanged(state, self.status_text))

    def _close(self, state: LinkState, text: str | None = None) -> None:
        self._closed = state
        self._closed_text = text or _REFUSALS["expired"]

    def _hang_up(self, reason: str, text: str | None = None, tell: bool = True) -> None:
        """Refuse the peer on this channel (``tell``: say why to it first)."""
        if tell:
            self._out.append(self._refusal(reason))
        self._events.append(HangUp(reason, text or _REFUSALS.get(reason, "The connection was refused.")))
        self._authed = False
        self._trusted = False
        self._challenge = None
        self._join_nonce = None
        self._hung_up = True

    def _violation(self, text: str, now: float) -> None:
        """Bad input: tell the player once, distrust the peer, and ask for a resync."""
        if not self._reported:
            self._events.append(Problem(text))
            self._reported = True
        self._trusted = False
        if self._challenge is None and self._closed is None:
            self._resync_soon(now)

    def _resync_soon(self, now: float) -> None:
        """Start a handshake now, or at the next tick if one was started less than a retry ago."""
        if now - self._challenge_at >= HELLO_RETRY:
            self._start_round(now)
        else:
            self._resync_due = True

    def _start_round(self, now: float) -> None:
        """Send a hello with a fresh nonce; the peer must answer with a proof of its seat."""
        self._challenge = secrets.token_hex(32)
        self._challenge_at = now
        self._resync_due = False
        self._proven = False
        self._peer_hello = None
        if self._binding is None:
            return  # no proof on a channel we cannot bind: wait to be dropped, then call again
        hello: JsonDict = {"k": "hello", "room": self.room, "seat": self.seat, "nonce": self._challenge,
                           "recv": self.recv, "sent": self.sent}
        if self.seat == 1 and self.peer_commit is None:
            hello["join"] = True  # first join: our proof will show the room secret
        self._emit(hello)

    def _dispatch(self, msg: JsonDict, now: float) -> None:
        kind = msg["k"]
        if self._closed is not None:
            if kind == "hello" and self._closed == "expired":  # an expired room says so to whoever asks
                self._out.append(self._refusal("expired"))
            return
        if kind == "hello":
            self._on_hello(msg, now)
        elif kind == "proof":
            self._on_proof(msg, now)
        elif kind == "refuse":
            reason = msg["reason"]
            if self.seat == 0 and not self._authed:
                # a caller that never proved the friend's seat cannot close the room: drop its channel
                if not self._hung_up:
                    self._hang_up("refused", "A browser that could not take the other seat hung up.",
                                  tell=False)
            elif self._hung_up and reason == "key":
                pass  # proofs failed both ways (a relay?): its refusal of us is no verdict, call again
            elif self.seat == 1 and reason == "full":
                self._full = True  # perhaps a stranger holds the host's channel for now: call again
                self._hang_up("full", _FULL_RETRY, tell=False)
            elif reason == "expired":
                self._close("expired")
            else:
                self._close("refused", _REFUSALS.get(reason, "The other browser refused the connection."))
        elif not (self._authed and self._trusted):
            return  # not proven on this connection yet, or distrusted: ignore until a handshake
        elif kind == "data":
            self._on_data(msg, now)
        elif kind == "ack":
            self._on_ack(msg["ack"])
        elif kind == "ping":
            self._on_ack(msg["ack"])
            if msg["sent"] < self.recv:
                raise _Violation("The other browser forgot messages it had sent; the connection is paused.")
            if msg["live"] and msg["sent"] > self.recv and self.state == "live" and self._challenge is None:
                self._resync_soon(now)  # a message went missing: resynchronise quietly

    def _on_hello(self, msg: JsonDict, now: float) -> None:
        if msg["room"] != self.room:
            self._hang_up("room")
            return
        if msg["seat"] == self.seat:
            self._hang_up("seat")
            return
        if self.expired(now):
            self._hang_up("expired")
            self._close("expired")
            return
        if self._binding is None:
            return  # no proof is made on a channel we cannot bind
        join = bool(msg.get("join"))
        if self.seat == 0:
            if join and self.secret is None:
                self._hang_up("full")  # a room made without a secret cannot be joined
                return
            if not join and self.peer_commit is None:
                self._hang_up("unknown", _UNKNOWN_CALLER)  # (its refusal text is the caller's view)
                return
        elif join:
            raise _Violation("The host's browser sent a malformed hello; it was ignored.")
        if self._challenge is None and not self._proven:  # (proven: its proof came first)
            self._start_round(now)
        self._peer_hello = (msg["recv"], msg["sent"])
        if join:
            # A first join: answer (with our commitment) only once the guest has shown the secret.
            self._join_nonce = msg["nonce"]
            return
        self._join_nonce = None
        self._emit(self._proof(msg["nonce"]))
        self._finish_round(now)

    def _proof(self, nonce: str) -> JsonDict:
        """Our answer to the peer's nonce: the seat proof, and at a first join what it needs besides."""
        assert self._binding is not None
        ends = _ends(self._binding, self.seat)
        proof: JsonDict = {"k": "proof", "for": nonce, "mac": _mac(self.commit, self.room, self.seat, nonce, ends)}
        if self.seat == 1 and self.peer_commit is None and self.secret is not None:
            proof["seal"] = _seal(self.secret, self.room, self.commit, nonce, ends)
            proof["jmac"] = _join_mac(self.secret, self.room, 1, self.commit, nonce, ends)
        elif self.seat == 0 and self._join_nonce == nonce and self.secret is not None:
            proof["commit"] = self.commit
            proof["jmac"] = _join_mac(self.secret, self.room, 0, self.commit, nonce, ends)
        return proof

    def _on_proof(self, msg: JsonDict, now: float) -> None:
        if msg["for"] != self._challenge or self._binding is None:
            return  # an answer to an older hello of ours (or a replay): stale, ignore
        ends = _ends(self._binding, self.seat)
        peer_commit = self.peer_commit
        joined = False
        if self.seat == 0 and self._join_nonce is not None:
            # a joining guest: it must show the room secret on this channel, else "full" and nothing more
            seal, jmac = msg.get("seal"), msg.get("jmac")
            if self.secret is None or seal is None or jmac is None:
                self._hang_up("full")
                return
            commit = _seal(self.secret, self.room, seal, msg["for"], ends)
            if not hmac.compare_digest(_join_mac(self.secret, self.room, 1, commit, msg["for"], ends), jmac):
                self._events.append(Problem("A browser without this room's whole link (or on a relayed "
                                            "connection) tried to join; it was refused."))
                self._hang_up("full")
                return
            if peer_commit is not None and commit != peer_commit:
                self._hang_up("full")  # someone else with the link, after the friend joined
                return
            peer_commit, joined = commit, True
        elif self.seat == 1 and peer_commit is None:
            host_commit, jmac = msg.get("commit"), msg.get("jmac")
            if host_commit is None or jmac is None or self.secret is None:
                raise _Violation("The host's browser did not identify its seat; it was ignored.")
            if not hmac.compare_digest(_join_mac(self.secret, self.room, 0, host_commit, msg["for"], ends), jmac):
                self._events.append(Problem("The other browser does not hold this room's secret (or the "
                                            "connection is relayed); it was refused."))
                self._hang_up("key")
                return
            peer_commit = host_commit
        if peer_commit is None:
            self._hang_up("unknown")
            return
        expected = _mac(peer_commit, self.room, 1 - self.seat, msg["for"], ends)
        if not hmac.compare_digest(expected, msg["mac"]):
            self._events.append(Problem("The other browser could not prove its seat key on this connection; "
                                        "it was refused."))
            self._hang_up("key")
            return
        self.peer_commit = peer_commit  # bound once, at the first join (the friend holding the link)
        if joined and self._join_nonce is not None:
            self._emit(self._proof(self._join_nonce))  # now answer the guest: our commitment, our proof
            self._join_nonce = None
        self._challenge = None
        self._proven = True
        self._finish_round(now)

    def _finish_round(self, now: float) -> None:
        """Once the peer is proven and its counters are known: check them and resend what it lacks."""
        if not self._proven or self._peer_hello is None:
            return
        peer_recv, peer_sent = self._peer_hello
        self._proven = False
        self._peer_hello = None
        base = self.sent - len(self.outbox)  # payloads the peer acknowledged before
        if peer_recv > self.sent:
            # We are the one behind: our disk lost messages we had sent (the peer has them).
            raise _Violation("This browser lost its last moves: its saved game is behind the other "
                             "browser's (its disk did not keep what it had sent before it was closed), so "
                             "the match cannot resume here.")
        if peer_recv < base:
            need = base - peer_recv
            if need <= len(self.kept) and self.kept[-need][0] == peer_recv + 1:
                # The peer came back behind what it acknowledged (its disk lost it): send it again.
                self.outbox[:0] = self.kept[-need:]
                del self.kept[-need:]
                self.resent_from_log += need
            else:
                raise _Violation("The other browser lost messages it had acknowledged: its saved game is "
                                 "behind this one's (its disk did not keep them), so the match cannot resume.")
        if peer_sent < self.recv:
            raise _Violation("The other browser lost messages it had sent: its saved game is behind this "
                             "one's (its disk did not keep them), so the match cannot resume.")
        self._authed = True
        self._trusted = True
        self._callers.pop(self._caller, None)  # it proved its seat: its unproven time is forgiven
        self._reported = False
        self._hung_up = False
        self._full = False
        self._lost = False
        self.last_used = max(self.last_used, now)
        self._on_ack(peer_recv)
        for n, payload in self.outbox:
            self._send_data(n, payload)

    def _on_ack(self, ack: int) -> None:
        if ack > self.sent:
            raise _Violation("The other browser acknowledged messages never sent; the connection is paused.")
        if not (self.outbox and self.outbox[0][0] <= ack):
            return
        while self.outbox and self.outbox[0][0] <= ack:
            self.kept.append(self.outbox.pop(0))
        sizes = [len(_dump(p)) for _, p in self.kept]
        while self.kept and (len(self.kept) > RESEND_KEEP or sum(sizes) > RESEND_CHARS):
            self.kept.pop(0)
            sizes.pop(0)

    def _on_data(self, msg: JsonDict, now: float) -> None:
        n = msg["n"]
        self._on_ack(msg["ack"])
        if n <= self.recv:
            self.duplicates += 1  # already applied: a resend or a replay
            self._emit({"k": "ack", "ack": self.recv})
            return
        if n != self.recv + 1:
            raise _Violation(f"The other browser's message {n} arrived out of order (expected {self.recv + 1});"
                             " it was refused and the link is resynchronising.")
        self.recv = n
        self.last_used = max(self.last_used, now)
        self._events.append(Delivered(n, msg["p"]))
        self._emit({"k": "ack", "ack": self.recv})

    def _send_data(self, n: int, payload: JsonDict) -> None:
        self._emit({"k": "data", "n": n, "ack": self.recv, "p": payload})

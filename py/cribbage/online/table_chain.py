"""One story for every seat: rounds of broadcast messages, each confirmed by every seat's echo.

At a table of N seats a seat could tell two seats different things (a different shuffle, a
different card laid): *equivocation*, which two players cannot do to each other. This module
implements *broadcast with abort* (Goldwasser & Lindell, "Secure multi-party computation without
agreement", J. Cryptology 18(3), 2005, section 3, the echo round of their compiler; the echo itself
is the first phase of Bracha's reliable broadcast, Information and Computation 75(2), 1987): every
seat echoes a hash of what it received, and a seat uses a message only once every other seat has
echoed the same hash. It is told whole, with its threat model, in docs/protocol.md ("Three and
four seats").

- A *story* (one per match for the keys, one per pack) is a sequence of rounds. Round ``r`` has a
  set of speakers, the same at every honest seat (fixed by the protocol, or by the game's rules from
  the story so far); each speaker sends exactly one message, to every other seat, carrying
  ``r``, its seat (``from``) and ``h``, the story's hash before the round.
- When a seat holds every speaker's message of round ``r``, the story's hash becomes
  ``H_{r+1} = SHA-256(H_r, r, (seat, canonical JSON of its message) for each speaker in seat order)``
  (items length-prefixed as in :mod:`.transcript`), and the seat sends an echo, ``ack``, of ``r`` and
  ``H_{r+1}`` to every other seat.
- **The rule**: a seat sends a message of round ``r + 1`` (anything built on round ``r``) only once it
  holds an ``ack`` of round ``r`` from every other seat, each with its own ``H_{r+1}``. A seat that
  sent two seats different messages in round ``r`` makes their ``H_{r+1}`` differ, so each of them
  gets from the other an echo that does not match its own: both stop, before either sends anything
  built on the round. An echo that does not match, or a message whose ``h`` does not match, stops the
  story (:class:`Diverged`). ``H_0`` hashes the protocol, the room, the match, the rules, the number
  of seats and the story's name, so no message or echo of another story can be taken in this one.

The transport must deliver each message with the seat it comes from, authenticated (the pairwise
links of the mesh prove it), and in order on each link; nothing else (docs/protocol.md).
No I/O here: :meth:`Story.send` returns the message to broadcast, :meth:`Story.receive` takes one.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Callable

from .errors import ProtocolError

__all__ = ["Story", "Diverged", "canonical", "story_root", "MAX_MESSAGE"]

MAX_MESSAGE = 64_000
"""Longest message accepted (in canonical JSON characters): a proven shuffle is about 20 kB on P-256."""
_HEX64 = re.compile(r"[0-9a-f]{64}")


class Diverged(ProtocolError):
    """Two seats hold different stories: a seat equivocated, or sent a message built on another story."""


def canonical(value: object) -> str:
    """Canonical JSON: sorted keys, no spaces, ASCII."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _item(h: Any, label: str, data: bytes) -> None:
    name = label.encode("utf-8")
    h.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big"))
    h.update(data)


def story_root(*items: tuple[str, str]) -> str:
    """``H_0`` of a story from labelled texts (protocol, group, rules, room, match, seats, name...)."""
    h = hashlib.sha256()
    for label, text in items:
        _item(h, label, text.encode("utf-8"))
    return h.hexdigest()


def _round_hash(previous: str, r: int, messages: dict[int, dict[str, Any]]) -> str:
    h = hashlib.sha256()
    _item(h, "previous", bytes.fromhex(previous))
    _item(h, "round", r.to_bytes(8, "big"))
    for seat in sorted(messages):
        _item(h, "seat", seat.to_bytes(8, "big"))
        _item(h, "message", canonical(messages[seat]).encode("ascii"))
    return h.hexdigest()


Handler = Callable[[int, dict[str, Any]], None]
"""Checks a message's body and takes it in (``ProtocolError`` if it is false); called once a round's
message may be used: the round before it is confirmed by every seat."""


class Story:
    """One story seen from seat ``seat`` of ``seats``: the rounds, the hashes, the echoes."""

    def __init__(self, seats: int, seat: int, root: str, name: str, tag: dict[str, Any] | None = None) -> None:
        self.seats = seats
        self.tag: dict[str, Any] = dict(tag or {})
        """Fields every message of this story carries besides the envelope (which story it is: ``{"p": 3}``)."""
        self.seat = seat
        self.name = name
        """How messages name this story (``"keys"``, ``"pack 3"``): in errors only."""
        self.hashes: list[str] = [root]
        """``hashes[r]``: the story's hash before round ``r``."""
        self.speakers: tuple[int, ...] | None = None
        """The speakers of the round being collected (None: not opened here yet)."""
        self.kinds: tuple[str, ...] = ()
        """The kinds of message the round takes."""
        self.got: dict[int, dict[str, Any]] = {}
        """Seat -> its message of the round being collected (taken in)."""
        self.waiting: dict[int, dict[str, Any]] = {}
        """Seat -> its message of the round being collected, not yet usable (the round is not opened
        here, or the round before not confirmed)."""
        self.acks: dict[int, dict[int, str]] = {}
        """Round -> seat -> the hash it echoed."""
        self.handler: Handler | None = None
        self.done: Callable[[int], None] | None = None
        self.rounds: list[dict[int, dict[str, Any]]] = []
        """Every round done: seat -> its message (the evidence of the story)."""

    # --- where the story is ---------------------------------------------------------------------

    @property
    def round(self) -> int:
        """The round being collected (rounds done so far)."""
        return len(self.hashes) - 1

    def confirmed(self, r: int) -> bool:
        """Every other seat echoed round ``r`` with the hash held here (round -1: the root, always)."""
        if r < 0:
            return True
        if r >= self.round:
            return False
        acks = self.acks.get(r, {})
        return all(acks.get(s) == self.hashes[r + 1] for s in range(self.seats) if s != self.seat)

    @property
    def settled(self) -> bool:
        """Every round so far is done and confirmed, and none is open: the next may be opened."""
        return self.speakers is None and self.confirmed(self.round - 1)

    @property
    def usable(self) -> bool:
        """The open round's messages may be used and this seat's sent: the round before is confirmed."""
        return self.speakers is not None and self.confirmed(self.round - 1)

    def open(self, kinds: tuple[str, ...], speakers: tuple[int, ...], handler: Handler,
             done: Callable[[int], None] | None = None) -> None:
        """Open the next round: a message of one of ``kinds`` from each of ``speakers`` (every honest seat
        opens the same); ``handler`` takes each message in (this seat's own too), ``done`` is called
        with the round's number once every speaker's message is in."""
        if self.speakers is not None:
            raise ValueError(f"{self.name}: round {self.round} is already open")
        self.kinds, self.speakers = kinds, tuple(sorted(set(speakers)))
        self.handler, self.done = handler, done

    # --- sending ------------------------------------------------------------------------------

    def send(self, kind: str, body: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """This seat's message of the open round (``body`` holds its fields), taken in here by the
        round's handler: (the message to broadcast, messages to broadcast after it: the echo if the
        round is now complete)."""
        if (not self.usable or self.speakers is None or self.seat not in self.speakers or self.seat in self.got
                or kind not in self.kinds or self.handler is None):
            raise ValueError(f"{self.name}: this seat may not speak in round {self.round} now")
        message = {**body, **self.tag, "t": kind, "r": self.round, "from": self.seat, "h": self.hashes[-1]}
        self.handler(self.seat, message)
        self.got[self.seat] = message
        return message, self._complete()

    def _complete(self) -> list[dict[str, Any]]:
        if self.speakers is None or set(self.got) != set(self.speakers):
            return []
        r = self.round
        self.hashes.append(_round_hash(self.hashes[r], r, self.got))
        self.rounds.append(self.got)
        done = self.done
        self.speakers, self.got, self.handler, self.done = None, {}, None, None
        self._check_acks(r)
        if done is not None:
            done(r)
        return [{**self.tag, "t": "ack", "r": r, "from": self.seat, "h": self.hashes[r + 1]}]

    def _check_acks(self, r: int) -> None:
        for seat, h in self.acks.get(r, {}).items():
            if h != self.hashes[r + 1]:
                raise Diverged(f"{self.name}: seat {seat + 1} holds another story of round {r} than this seat "
                               "(a seat told two seats different things)")

    # --- receiving ----------------------------------------------------------------------------

    def receive(self, sender: int, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Take a message of this story from ``sender`` (the envelope checked by the caller: a dict
        whose ``from`` is ``sender``). Returns messages to broadcast (an echo). :class:`ProtocolError`
        with nothing changed for a replay or a message out of turn; :class:`Diverged` for another
        story; the handler's error for a false body (the round is not advanced)."""
        r = message.get("r")
        h = message.get("h")
        if type(r) is not int or r < 0:
            raise ProtocolError(f"{self.name}: a message's round is a number")
        if not isinstance(h, str) or not _HEX64.fullmatch(h):
            raise ProtocolError(f"{self.name}: a message's story hash is 64 hexadecimal digits")
        if message.get("t") == "ack":
            return self._receive_ack(sender, r, h)
        if r < self.round or sender in self.got:
            raise ProtocolError(f"{self.name}: seat {sender + 1} sent round {r} again (a replay)")
        if r > self.round:
            raise ProtocolError(f"{self.name}: seat {sender + 1} sent round {r} before round {self.round} was done")
        if sender in self.waiting:
            raise ProtocolError(f"{self.name}: seat {sender + 1} sent round {r} twice")
        if self.speakers is not None and sender not in self.speakers:
            raise ProtocolError(f"{self.name}: seat {sender + 1} spoke out of turn in round {r}")
        self.waiting[sender] = message
        return self.pump()

    def _receive_ack(self, sender: int, r: int, h: str) -> list[dict[str, Any]]:
        if r > self.round:
            raise ProtocolError(f"{self.name}: seat {sender + 1} echoed round {r} before round {self.round} was done")
        acks = self.acks.setdefault(r, {})
        if sender in acks:
            raise ProtocolError(f"{self.name}: seat {sender + 1} echoed round {r} again (a replay)")
        acks[sender] = h
        if r < self.round and h != self.hashes[r + 1]:
            raise Diverged(f"{self.name}: seat {sender + 1} holds another story of round {r} than this seat "
                           "(a seat told two seats different things)")
        return self.pump()

    def pump(self) -> list[dict[str, Any]]:
        """Take in the waiting messages of the open round once it is usable; returns echoes to send."""
        if not self.usable or self.speakers is None or self.handler is None:
            return []
        for sender in sorted(self.waiting):
            message = self.waiting.pop(sender)
            if sender not in self.speakers:
                raise ProtocolError(f"{self.name}: seat {sender + 1} spoke out of turn in round {self.round}")
            if message.get("t") not in self.kinds:
                raise ProtocolError(f"{self.name}: seat {sender + 1} sent {str(message.get('t'))[:20]!r} when "
                                    f"round {self.round} takes {' or '.join(self.kinds)}")
            if message["h"] != self.hashes[-1]:
                raise Diverged(f"{self.name}: seat {sender + 1}'s message of round {self.round} is built on another "
                               "story than this seat's (a seat told two seats different things)")
            self.handler(sender, message)
            self.got[sender] = message
        return self._complete()

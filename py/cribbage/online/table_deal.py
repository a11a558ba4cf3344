"""One seat's side of the proven deal at a table of two, three or four seats: messages in, messages out.

The cryptography is :mod:`.table_keys` (Barnett & Smart's N-party pack: a joint key from every
seat's proven share, a proven shuffle by every seat in turn, proven decryption shares); one story
for every seat is :mod:`.table_chain` (every round echoed by every seat before anything is built on
it). This module says which rounds a match and a hand have, who speaks in each, and what every
message must hold; it checks every received value before use and never computes a share the rules
keep from the seat it would open a card for. Pure and synchronous: no I/O, no clock.

A match: one ``keys`` story (round 0: every seat's key share and its Schnorr proof). A hand (a
*pack* ``k``, started by :meth:`TableDeal.start_pack` with its dealer at every seat) is a story of
its own, so the next pack can be shuffled while a hand is played:

====  =====================  ============================================================================
 r     speakers               message
====  =====================  ============================================================================
 0..   seat ``r``             ``shuffle``: seat ``r``'s proven shuffle of round ``r − 1``'s list (round 0:
 N−1                          of the public deck, built by every seat itself)
 N     the cutter             ``cut``: the depth (the cutter sits on the dealer's right)
 N+1   every seat             ``deal``: its shares of every slot dealt to *another* seat, one batched proof
 N+2   every seat             ``discard``: the slots it lays away to the crib (named, not opened)
 N+3   the pone               ``starter``: the depth of the cut for the starter (the pone: dealer's left)
 N+4   every seat             ``turn``: its share of the starter's slot (the starter opens for all)
 then  one seat, as the game  ``lay`` (a card of its hand, with its own share: it opens for all, the
       says (:meth:`turn`)    others' shares being public since the deal) or ``say`` (any other action
                              of the game: a Go, a claim, a count, as a small JSON value)
 then  every seat             ``crib`` (:meth:`show`): its own shares of its discards and its share of
                              the crib's cards from the pack (three players): the crib opens for all
 then  every seat             ``reveal`` (:meth:`reveal`, the audit): its own shares of every card of its
                              hand still hidden: every hand opens for all, so every Go can be judged
====  =====================  ============================================================================

Every seat receives every message (a broadcast); a card private to seat ``j`` stays private because
only ``j`` holds its own share ``x_j·a`` of it, which it sends only when the rules make the card
public. The shares each seat holds are in :attr:`PackDeal.shares` (slot -> seat -> share), so a test
can show a seat lacks the share it would need.

A *sliced* deal (``sliced=True``, as :class:`~.table_game.TableGame` makes it) does no long call: this
seat's shuffle and its rounds of shares wait as :class:`DealJob` and are made a step at a time
(:meth:`TableDeal.work_step`: a few group operations a step), the end of each an event of the save; a
received shuffle may be checked in slices before it is taken in (:meth:`TableDeal.check_ahead`); this
seat's shares of a proven pack are computed ahead. The messages are the same as an unsliced deal's.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..cards import DECK, Card
from ..match import SaveError
from ..rules import CLASSIC, Rules
from . import elgamal
from .elgamal import Ciphertext
from .errors import ProtocolError
from .group import Element, Group, Work, run
from .pack import PACK_SIZE, constants_ready, constants_work, public_deck, rules_statement
from .table_chain import MAX_MESSAGE, Diverged, Story, canonical, story_root
from .table_checks import AheadChecks, check_key
from .table_hand import (ENVELOPE_FIELDS, FIELDS, KINDS, DealJob, Layout, PackDeal, cut_range, hand_layout, plain,
                         seeded_randbelow)
from .table_keys import MAX_SEATS, TABLE_PROTOCOL, TableKeys, read_shares

__all__ = ["TableDeal", "PackDeal", "DealJob", "Layout", "hand_layout", "seeded_randbelow", "MAX_SAY", "KINDS",
           "SAVE_FORMAT", "SAVE_VERSION", "AHEAD_SHARES"]

SAVE_FORMAT = "cribbage-table-deal"
SAVE_VERSION = 2
"""1: every shuffle and share made within the event that opened its round (:attr:`TableDeal.sliced` false);
2: a sliced deal, whose own shuffles and shares are jobs whose ends are events of their own (``["done", pack,
kind]``). A save of version 1 replays, and plays on, unsliced."""
AHEAD_SHARES = 4
"""This seat's decryption shares computed ahead in one :meth:`TableDeal.work_step` (about 1 ms each on
P-256 in CPython)."""

MAX_SAY = 500
"""Longest ``say`` value (canonical JSON characters): an action of the game, never a card."""
MAX_BUFFERED = 64
"""Messages of packs not started here yet kept until they are (a seat's game may start a pack first)."""



def _recorded(method: Callable[..., None]) -> Callable[..., None]:
    """A call of the game or the player, kept in :attr:`TableDeal.events` once it succeeded."""
    def call(self: "TableDeal", *args: Any) -> None:
        event = ["call", method.__name__, [list(a) if isinstance(a, tuple) else a for a in args]]
        with self._event(event):
            method(self, *args)
    call.__name__, call.__doc__ = method.__name__, method.__doc__
    return call


class TableDeal:
    """Seat ``seat`` of ``rules.players`` in a match: call :meth:`receive` with every message from another
    seat (with the seat its authenticated link says it comes from), the intents of the local player
    (:meth:`cut`, :meth:`discard`, :meth:`cut_starter`, :meth:`lay`, :meth:`say`) and of the game
    (:meth:`start_pack`, :meth:`turn`, :meth:`show`, :meth:`reveal`), and broadcast what
    :meth:`take_outbox` returns to every other seat, in order."""

    def __init__(self, seat: int, *, rules: Rules = CLASSIC, room: str = "", match: int = 0,
                 group: Group | None = None, randbelow: Callable[[int], int] | None = None,
                 seed: bytes | None = None, sliced: bool = False) -> None:
        """``seed``: the 32 bytes every secret of this seat is drawn from (:func:`seeded_randbelow`; fresh
        if not given), kept in the save so a reload makes the same messages again. ``randbelow``
        instead (tests): a deal that cannot be saved. ``sliced``: this seat's shuffles and shares wait as
        :class:`DealJob` for :meth:`work_step` (a page's frames stay short) and a received shuffle may
        be checked ahead in slices (:meth:`check_ahead`); else every call does all its work at once."""
        if not isinstance(rules, Rules):
            raise TypeError("rules must be a Rules value")
        if group is None:
            from .p256 import P256_GROUP
            group = P256_GROUP
        self.rules = rules
        self.seats = rules.players
        if self.seats > MAX_SEATS:  # pragma: no cover - the rule book has at most four
            raise ValueError("at most four seats")
        self.seat = seat
        self.group = group
        self.room = str(room)
        self.match = match
        if randbelow is None:
            seed = seed if seed is not None else secrets.token_bytes(32)
            if not isinstance(seed, bytes) or len(seed) != 32:
                raise ValueError("a seed is 32 bytes")
            randbelow = seeded_randbelow(seed, lambda: self._context)
        else:
            seed = None
        self.seed = seed
        self.randbelow = randbelow
        self.sliced = sliced
        self.jobs: list[DealJob] = []
        """This seat's shuffles and shares still being made (a sliced deal), oldest first."""
        self._warm: Work[None] | None = constants_work(group) if sliced and not constants_ready(group) else None
        self.ahead = AheadChecks()
        """Received shuffles and deal shares proven ahead, in slices, by :meth:`check_ahead`."""
        self._own_decks: dict[int, list[Ciphertext]] = {}
        self.events: list[list[Any]] = []
        """Every call and every message taken, in order (the save: replayed from the seed on a reload)."""
        self._history = hashlib.sha256(b"cribbage-table-deal history").digest()
        """A hash chained over :attr:`events`."""
        self._context = self._history
        """What the seeded draws are keyed by now: the history and the event being handled."""
        self.keys = TableKeys(group, self.room, match, self.seats, seat, group.random_scalar(randbelow), rules)
        self.failure: str | None = None
        """Why the match stopped (a false proof, another story, another seat's abort)."""
        self.evidence: dict[str, object] = {}
        self.packs: dict[int, PackDeal] = {}
        self._outbox: list[dict[str, Any]] = []
        self._early: list[tuple[int, dict[str, Any]]] = []
        self.key_story = Story(self.seats, seat, self._root("keys"), "keys", {"p": -1})
        self.key_story.open(("key",), tuple(range(self.seats)), self._take_key)
        self._speak(self.key_story, "key", self.keys.key_message(randbelow))

    def _root(self, name: str, *more: tuple[str, str]) -> str:
        return story_root(("protocol", TABLE_PROTOCOL), ("group", self.group.name),
                          ("rules", rules_statement(self.rules)), ("room", self.room),
                          ("match", str(self.match)), ("seats", str(self.seats)), ("story", name), *more)

    # --- queries ------------------------------------------------------------------------------

    @property
    def keys_ready(self) -> bool:
        """Every seat's key share is proven, and every seat confirmed it holds the same ones."""
        return self.key_story.round >= 1 and self.key_story.confirmed(0)

    def take_outbox(self) -> list[dict[str, Any]]:
        """The messages to broadcast to every other seat, oldest first (JSON-able)."""
        out, self._outbox = self._outbox, []
        return out

    def hand(self, k: int) -> list[Card]:
        """This seat's cards of pack ``k`` (once the deal round is done)."""
        p = self.packs[k]
        if p.layout is None:
            return []
        return [p.cards[s] for s in p.layout.hands[self.seat] if s in p.cards]

    def card(self, k: int, slot: int) -> Card | None:
        return self.packs[k].cards.get(slot)

    # --- saves ------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """What a reload needs, as JSON-able data: the table, the seed (every secret of this seat comes
        from it: keep it as the two-player save keeps its key), every call and message taken, what is
        still to send, and the stories' hashes (checked after the replay)."""
        if self.seed is None:
            raise ValueError("a deal drawing from an outside randbelow cannot be saved")
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION if self.sliced else 1, "seat": self.seat,
                "rules": self.rules.to_json(), "room": self.room, "match": self.match, "group": self.group.name,
                "seed": self.seed.hex(),
                "events": json.loads(json.dumps(self.events)), "outbox": json.loads(json.dumps(self._outbox)),
                "hashes": self._hashes()}

    def _hashes(self) -> dict[str, str]:
        out = {"keys": self.key_story.hashes[-1]}
        out.update({str(k): p.story.hashes[-1] for k, p in self.packs.items()})
        return out

    @classmethod
    def from_dict(cls, data: Any, groups: tuple[Group, ...] = ()) -> "TableDeal":
        """Rebuild a seat from :meth:`to_dict` by replaying its calls and messages from its seed (the same
        messages come out again: they are not sent twice); :class:`SaveError` for anything doubtful."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or data.get("version") not in (1, 2):
            raise SaveError("this is not a save of a table deal of this version")
        try:
            from .group import MODP_TEST
            from .p256 import P256_GROUP
            known = {g.name: g for g in (P256_GROUP, MODP_TEST, *groups)}
            group = known[data["group"]]
            deal = cls(data["seat"], rules=Rules.from_json(data["rules"]), room=data["room"], match=data["match"],
                       group=group, seed=bytes.fromhex(data["seed"]), sliced=data["version"] == 2)
            for event in data["events"]:
                if event[0] == "recv":
                    deal.receive(event[1], event[2])
                elif event[0] == "done":
                    deal._replay_done(event[1], event[2])
                else:
                    getattr(deal, event[1])(*[tuple(a) if isinstance(a, list) and event[1] == "turn" else a
                                              for a in event[2]])
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise SaveError(f"this table deal's save cannot be replayed ({exc})") from exc
        if deal._hashes() != data.get("hashes"):
            raise SaveError("this table deal's save does not replay to the story it recorded")
        deal._outbox = list(data["outbox"])
        return deal

    # --- the game's calls -----------------------------------------------------------------------

    @_recorded
    def start_pack(self, k: int, dealer: int) -> None:
        """Begin pack ``k`` dealt by ``dealer`` (every seat calls it with the same values; pack ``k + 1`` may
        begin while pack ``k`` is played)."""
        if type(k) is not int or k < 0 or k in self.packs:
            raise ValueError(f"pack {k} has begun already")
        if type(dealer) is not int or not 0 <= dealer < self.seats:
            raise ValueError("the dealer is a seat")
        if not self.keys_ready:
            raise ValueError("the packs begin once every seat's key share is proven and confirmed")
        root = self._root(f"pack {k}", ("keys", self.key_story.hashes[1]), ("dealer", str(dealer)))
        self.packs[k] = PackDeal(k, dealer, Story(self.seats, self.seat, root, f"pack {k + 1}", {"p": k}))
        self._progress(self.packs[k])
        early, self._early = [m for m in self._early if m[1]["p"] == k], [m for m in self._early if m[1]["p"] != k]
        for sender, message in early:
            if self.failure is None:
                self._receive(sender, message)

    @_recorded
    def cut(self, k: int, depth: int) -> None:
        """The cutter cuts pack ``k`` at ``depth`` (sent once every shuffle is proven and confirmed)."""
        p = self._pack_for_intent(k, "cut")
        if self.seat != (p.dealer - 1) % self.seats:
            raise ValueError("only the player on the dealer's right cuts the pack")
        if depth not in cut_range(PACK_SIZE):
            raise ValueError("a cut leaves at least four cards each side")
        self._intend(p, "cut", {"depth": depth})

    @_recorded
    def discard(self, k: int, slots: list[int]) -> None:
        """Lay ``slots`` of this seat's hand away to the crib (named only: they open at the show)."""
        p = self._pack_for_intent(k, "discard")
        assert p.layout is not None
        if len(set(slots)) != self.rules.discards or any(s not in p.layout.hands[self.seat] for s in slots):
            raise ValueError(f"a discard is {self.rules.discards} slot(s) of this seat's hand")
        self._intend(p, "discard", {"slots": sorted(slots)})

    @_recorded
    def cut_starter(self, k: int, depth: int) -> None:
        """The pone cuts pack ``k`` for the starter."""
        p = self._pack_for_intent(k, "starter")
        assert p.layout is not None
        if self.seat != (p.dealer + 1) % self.seats:
            raise ValueError("only the player on the dealer's left cuts for the starter")
        if depth not in cut_range(len(p.layout.rest)):
            raise ValueError("a cut leaves at least four cards each side")
        self._intend(p, "starter", {"depth": depth})

    @_recorded
    def turn(self, k: int, seat: int | tuple[int, ...]) -> None:
        """Open the next round of the play of pack ``k``: ``seat`` acts (every seat's game says the same,
        from the story so far). A tuple of seats: each of them sends one ``lay`` or ``say`` in the round
        (a window for calls of muggins by every seat of another side: a call, or a pass)."""
        p = self._pack(k)
        if p.phase != "play" or not p.story.settled:
            raise ValueError("a turn is opened once the starter is turned and the last round confirmed")
        seats = (seat,) if isinstance(seat, int) else tuple(seat)
        if not seats or any(type(s) is not int or not 0 <= s < self.seats for s in seats):
            raise ValueError("a turn is one or more seats'")
        p.acts = {}
        self._open(p, ("lay", "say"), seats, lambda s, m: self._take_act(p, s, m), lambda: self._after_acts(p))
        self._progress(p)

    @_recorded
    def lay(self, k: int, slot: int) -> None:
        """This seat lays ``slot`` of its hand (its own share goes with it: the card opens for all)."""
        p = self._pack_for_intent(k, "play")
        if self.seat not in (p.story.speakers or ()):
            raise ValueError("it is not this seat's turn")
        if slot not in self._held(p, self.seat):
            raise ValueError("a card laid is one of this seat's hand, not laid nor discarded")
        shares = self.keys.prove_shares(k, "lay", [slot], [p.pack[slot]], self.randbelow, [self._my_share(p, slot)])
        self._intend(p, "lay", {"slot": slot, **shares.to_wire(self.group)})

    @_recorded
    def say(self, k: int, value: object) -> None:
        """This seat's action of the game other than a card (a Go, a claim...): told the same to every seat."""
        p = self._pack_for_intent(k, "play")
        if self.seat not in (p.story.speakers or ()):
            raise ValueError("it is not this seat's turn")
        if not plain(value) or len(canonical(value)) > MAX_SAY:
            raise ValueError("an action is a small plain value")
        self._intend(p, "say", {"value": value})

    @_recorded
    def show(self, k: int) -> None:
        """Open the crib for all (every seat's game calls it at the show): this seat's own shares of its
        discards and of the crib's cards from the pack go out."""
        p = self._pack(k)
        if p.phase != "play" or not p.story.settled or p.shown:
            raise ValueError("the crib is shown once, after the play")
        p.shown = True
        self._open_all(p, "crib", self._crib_slots(p, self.seat))
        self._progress(p)

    @_recorded
    def reveal(self, k: int) -> None:
        """The audit: every seat opens every card of its hand still hidden (at the end of a hand or of
        the match, or when a hand is abandoned), so every Go can be judged by replaying the hand."""
        p = self._pack(k)
        if p.phase != "play" or not p.story.settled or p.revealed:
            raise ValueError("the hands are revealed once, after the starter and the last round confirmed")
        p.revealed = True
        self._open_all(p, "reveal", self._hidden_own(p, self.seat))
        self._progress(p)

    # --- this seat's work, in slices (a sliced deal) ------------------------------------------------

    @property
    def busy(self) -> bool:
        """:meth:`work_step` has something to do (a shuffle being made, the group's constants, shares ahead)."""
        return self.failure is None and (bool(self.jobs) or self._warm is not None or self._ahead() is not None)

    def work_step(self) -> bool:
        """One slice of this seat's own work (a few scalar multiplications at most): the group's constants,
        then the oldest :class:`DealJob` of shares (a round of the hand waits for it), else of a shuffle (its
        end sends the shuffle), then this seat's decryption shares of a proven pack not dealt yet
        (:attr:`PackDeal.mine`). False when there was none."""
        if self.failure is not None:
            self.jobs, self._warm = [], None
            return False
        if self._warm is not None:
            try:
                next(self._warm)
            except StopIteration:
                self._warm = None
            return True
        if self.jobs:
            job = next((j for j in self.jobs if j.kind != "shuffle"), self.jobs[0])
            try:
                next(job.work)
                return True
            except StopIteration as stop:
                result = stop.value
            except ProtocolError as exc:  # pragma: no cover - this seat's own inputs were proven
                self._stop(str(exc), {"pack": job.pack, "step": job.kind})
                return True
            self.jobs.remove(job)
            self._done(job, result)
            return True
        p = self._ahead()
        if p is None:
            return False
        for slot in [s for s in range(PACK_SIZE) if s not in p.mine][:AHEAD_SHARES]:
            p.mine[slot] = self.keys.my_share(p.pack[slot])
        return True

    def _ahead(self) -> PackDeal | None:
        """The proven pack, not dealt yet, whose shares this seat computes ahead (a sliced deal)."""
        if not self.sliced:
            return None
        return next((p for _, p in sorted(self.packs.items()) if p.phase in ("shuffle", "cut")
                     and len(p.decks) == self.seats and len(p.mine) < PACK_SIZE), None)

    def _done(self, job: DealJob, result: Any) -> None:
        """This seat's shuffle, or shares, of a round are made: they go out once the round is usable (an
        event: a reload ends the job at the same place in the story; the shares' proof draws from it)."""
        with self._event(["done", job.pack, job.kind]):
            p = self.packs[job.pack]
            if job.kind == "shuffle":
                outputs, proof = result
                self._own_decks[job.pack] = outputs
                p.intent = ("shuffle", {"cards": elgamal.encode_ciphertexts(self.group, outputs), "proof": proof})
            else:
                mine = list(job.slots)
                shares = self.keys.prove_shares(p.index, job.kind, mine, [p.pack[s] for s in mine], self.randbelow,
                                                [self._my_share(p, s) for s in mine])
                p.intent = (job.kind, shares.to_wire(self.group))
            self._progress(p)

    def _replay_done(self, k: object, kind: object) -> None:
        job = next((j for j in self.jobs if j.pack == k and j.kind == kind), None)
        if job is None:
            raise ValueError(f"a save ends a job ({str(kind)[:10]}) of pack {k} never begun")
        self.jobs.remove(job)
        self._done(job, run(job.work))

    def _shuffle_work(self, p: PackDeal, draws: Callable[[int], int]) -> Work[tuple[list[Ciphertext], dict[str, Any]]]:
        yield from constants_work(self.group)  # (the public deck's card points: made once, in slices)
        inputs = p.decks[-1] if p.decks else public_deck(self.group)  # (unchanged while this job runs)
        return (yield from self.keys.shuffle_and_prove(p.index, inputs, draws))

    def _shares_work(self, p: PackDeal, slots: list[int]) -> Work[None]:
        for slot in slots:
            if slot not in p.mine:
                self._my_share(p, slot)
                yield

    def check_ahead(self, sender: int, message: object) -> "Work[None] | bool":
        """Before :meth:`receive`: a received shuffle, or the shares of a deal (a sliced deal), are checked in
        slices first. True: take ``message`` now; False: wait (it is a shuffle of the next pack, not begun
        here yet); or the work of checking it (then True). Nothing else changes: :meth:`receive` still checks
        everything else (and the proof again if this check found it false, to stop with the evidence)."""
        if (not self.sliced or self.failure is not None or not isinstance(message, dict)
                or message.get("t") not in ("shuffle", "deal") or type(sender) is not int):
            return True
        k = message.get("p")
        if type(k) is not int:
            return True
        p = self.packs.get(k)
        if p is None:
            return message.get("t") == "deal" or k != max(self.packs, default=-1) + 1
        if message.get("t") == "deal":
            if sender == self.seat or not 0 <= sender < self.seats or len(p.decks) != self.seats:
                return True
            key = check_key(k, sender, message)
            return True if key in self.ahead.proven else self.ahead.shares_work(self.keys, p, sender, message, key)
        if (sender == self.seat or not 0 <= sender < self.seats or message.get("r") != sender
                or len(p.decks) != sender or p.story.round != sender):
            return True
        key = check_key(k, sender, message)
        if key in self.ahead.checked:
            return True
        return self.ahead.shuffle_work(self.keys, p, sender, message, key)

    def _my_share(self, p: PackDeal, slot: int) -> Element:
        """This seat's own share of ``slot`` (computed ahead, or now)."""
        value = p.mine.get(slot)
        if value is None:
            value = p.mine[slot] = self.keys.my_share(p.pack[slot])
        return value

    # --- receiving ----------------------------------------------------------------------------

    def receive(self, sender: int, message: object) -> None:
        """Take a message from seat ``sender`` (as its authenticated link says). :class:`ProtocolError`,
        nothing changed, for a malformed message, a replay, one out of turn or claiming another seat;
        a false proof or another story stops the match (:attr:`failure`; an ``abort`` goes out)."""
        if self.failure is not None:
            return
        with self._event(["recv", sender, message]):
            self._receive(sender, message)

    @contextmanager
    def _event(self, event: list[Any]) -> Iterator[None]:
        """Handle ``event`` with the draws keyed by the history and it; keep it once it succeeded."""
        step = hashlib.sha256(self._history + canonical(event).encode("ascii")).digest()
        self._context = step
        try:
            yield
        except BaseException:
            self._context = self._history
            raise
        self.events.append(event)
        self._history = self._context = step

    def _receive(self, sender: int, message: object) -> None:
        if type(sender) is not int or not 0 <= sender < self.seats or sender == self.seat:
            raise ProtocolError("a message comes from another seat of the table")
        if not isinstance(message, dict):
            raise ProtocolError(f"seat {sender + 1} sent something that is not a message")
        kind = message.get("t")
        if kind not in FIELDS:
            raise ProtocolError(f"seat {sender + 1} sent an unknown kind of message")
        if message.get("from") != sender:
            raise ProtocolError(f"a message from seat {sender + 1} says it comes from another seat")
        expected = (ENVELOPE_FIELDS - ({"r", "h"} if kind == "abort" else set())) | FIELDS[kind]
        if set(message) != expected:
            raise ProtocolError(f"seat {sender + 1}'s {kind} message has fields {sorted(map(str, message))}, "
                                f"not {sorted(expected)}")
        if len(canonical(message)) > MAX_MESSAGE:
            raise ProtocolError(f"seat {sender + 1}'s message is too long")
        k = message["p"]
        if type(k) is not int or k < -1:
            raise ProtocolError(f"seat {sender + 1}'s message names no pack")
        if kind == "abort":
            reason = " ".join(str(message["reason"]).split())[:200]
            self._stop(f"seat {sender + 1} stopped the match: {reason}", {"seat": sender}, send=False)
            return
        if kind != "ack" and (kind == "key") != (k == -1):
            raise ProtocolError(f"seat {sender + 1} sent a {kind} message outside a pack")
        if k == -1:
            story = self.key_story
        elif k in self.packs:
            story = self.packs[k].story
        else:
            # (another seat may begin a pack first, even before this seat holds every echo of the keys)
            if k > max(self.packs, default=-1) + 2 or len(self._early) >= MAX_BUFFERED:
                raise ProtocolError(f"seat {sender + 1} sent a message of pack {k + 1}, not begun here")
            self._early.append((sender, message))
            return
        try:
            out = story.receive(sender, message)
        except (Diverged, _Refused) as exc:
            self._stop(str(exc), getattr(exc, "evidence", {"seat": sender, "step": "story"}))
            return
        self._outbox.extend(out)
        if k >= 0:
            self._progress(self.packs[k])

    # --- the rounds ---------------------------------------------------------------------------

    def _take_key(self, sender: int, message: dict[str, Any]) -> None:
        if sender == self.seat:
            return
        try:
            self.keys.take_key(sender, message["share"], message["proof"])
        except ProtocolError as exc:
            raise _Refused(str(exc), {"seat": sender, "step": "key"}) from exc

    def _progress(self, p: PackDeal) -> None:
        """Take in what may be taken, send this seat's part once its round is usable, open the next
        fixed round once the last is confirmed; until nothing moves."""
        while self.failure is None:
            before = (p.story.round, p.story.speakers, p.intent is None)
            try:
                out = p.story.pump()
                if p.intent is not None and p.story.usable and self.seat in (p.story.speakers or ()):
                    (kind, body), p.intent = p.intent, None
                    message, more = p.story.send(kind, body)
                    self._outbox.append(message)
                    self._outbox.extend(out + more)
                else:
                    self._outbox.extend(out)
                self._advance(p)
            except (Diverged, _Refused) as exc:
                self._stop(str(exc), getattr(exc, "evidence", {"step": "story"}))
            except ProtocolError as exc:
                self._stop(str(exc), {"pack": p.index, "step": p.phase})
            if (p.story.round, p.story.speakers, p.intent is None) == before:
                return

    def _advance(self, p: PackDeal) -> None:
        """Open the pack's next fixed round once the last is confirmed, with this seat's part."""
        if not p.story.settled or p.phase == "play":
            return
        r, n = p.story.round, self.seats
        if r < n:
            self._open(p, ("shuffle",), (r,), lambda s, m: self._take_shuffle(p, s, m))
            if r == self.seat:
                if self.sliced:
                    draws = seeded_randbelow(self.randbelow(1 << 256).to_bytes(32, "big"))
                    self.jobs.append(DealJob(p.index, "shuffle", self._shuffle_work(p, draws)))
                    return
                inputs = p.decks[-1] if p.decks else public_deck(self.group)
                outputs, proof = run(self.keys.shuffle_and_prove(p.index, inputs, self.randbelow))
                self._own_decks[p.index] = outputs
                p.intent = ("shuffle", {"cards": elgamal.encode_ciphertexts(self.group, outputs), "proof": proof})
        elif r == n:
            p.phase = "cut"
            self._open(p, ("cut",), ((p.dealer - 1) % n,), lambda s, m: self._take_cut(p, s, m))
        elif r == n + 1:
            p.phase = "deal"
            assert p.layout is not None
            self._open_all(p, "deal", [s for j, hand in enumerate(p.layout.hands) if j != self.seat for s in hand])
        elif r == n + 2:
            p.phase = "discard"
            self._open(p, ("discard",), tuple(range(n)), lambda s, m: self._take_discard(p, s, m))
        elif r == n + 3:
            p.phase = "starter"
            self._open(p, ("starter",), ((p.dealer + 1) % n,), lambda s, m: self._take_starter(p, s, m))
        elif r == n + 4:
            p.phase = "turn"
            assert p.starter is not None
            self._open_all(p, "turn", [p.starter])
        else:
            p.phase = "play"

    def _open_all(self, p: PackDeal, kind: str, mine: list[int]) -> None:
        """A round in which every seat sends its shares of the slots the round opens (``mine``: this seat's),
        computed now: the round before is confirmed by every seat."""
        self._open(p, (kind,), tuple(range(self.seats)), lambda s, m: self._take_shares(p, kind, s, m),
                   lambda: self._after_shares(p, kind))
        if self.sliced:  # (the shares one a step, the proof at the job's end; at the deal, this seat's own too)
            own = list(p.layout.hands[self.seat]) if kind == "deal" and p.layout is not None else []
            self.jobs.append(DealJob(p.index, kind, self._shares_work(p, mine + own), tuple(mine)))
            return
        shares = self.keys.prove_shares(p.index, kind, mine, [p.pack[s] for s in mine], self.randbelow,
                                        [self._my_share(p, s) for s in mine])
        p.intent = (kind, shares.to_wire(self.group))

    def _open(self, p: PackDeal, kinds: tuple[str, ...], speakers: tuple[int, ...],
              handler: Callable[[int, dict[str, Any]], None], after: Callable[[], None] | None = None) -> None:
        """Open the pack's next round; once every speaker's message is in, the round goes into
        :attr:`PackDeal.log` in seat order (the same at every seat, whatever order they came in), then
        ``after`` runs."""
        def done(r: int) -> None:
            p.log.extend((seat, m["t"]) for seat, m in sorted(p.story.rounds[r].items()))
            if after is not None:
                after()
        p.story.open(kinds, speakers, handler, done)

    def _intend(self, p: PackDeal, kind: str, body: dict[str, Any]) -> None:
        p.intent = (kind, body)
        self._progress(p)

    def _speak(self, story: Story, kind: str, body: dict[str, Any]) -> None:
        message, out = story.send(kind, body)
        self._outbox.append(message)
        self._outbox.extend(out)

    def _take_shuffle(self, p: PackDeal, sender: int, message: dict[str, Any]) -> None:
        g = self.group
        if sender == self.seat:
            p.decks.append(self._own_decks.pop(p.index))
            return
        inputs = p.decks[-1] if p.decks else public_deck(g)
        checked = self.ahead.checked.pop(check_key(p.index, sender, message), None) if self.ahead.checked else None
        if checked is not None:  # (proven ahead, in slices: check_ahead)
            p.decks.append(checked)
            return
        try:
            outputs = elgamal.decode_ciphertexts(g, message["cards"], PACK_SIZE, f"seat {sender + 1}'s shuffle")
            run(self.keys.verify_shuffle(p.index, sender, inputs, outputs, message["proof"]))
        except ProtocolError as exc:
            raise _Refused(str(exc), {"pack": p.index, "seat": sender, "step": "shuffle"}) from exc
        p.decks.append(outputs)

    def _take_cut(self, p: PackDeal, sender: int, message: dict[str, Any]) -> None:
        depth = message["depth"]
        if type(depth) is not int or depth not in cut_range(PACK_SIZE):
            raise _Refused(f"seat {sender + 1} cut the pack at an illegal depth", {"seat": sender, "step": "cut"})
        p.layout = hand_layout(self.rules, p.dealer, depth)

    def _take_discard(self, p: PackDeal, sender: int, message: dict[str, Any]) -> None:
        assert p.layout is not None
        slots = message["slots"]
        if (not isinstance(slots, list) or len(slots) != self.rules.discards or len(set(map(str, slots))) != len(slots)
                or any(type(s) is not int or s not in p.layout.hands[sender] for s in slots)):
            raise _Refused(f"seat {sender + 1}'s discard is not {self.rules.discards} slot(s) of its hand",
                           {"seat": sender, "step": "discard"})
        p.discards[sender] = tuple(slots)

    def _take_starter(self, p: PackDeal, sender: int, message: dict[str, Any]) -> None:
        assert p.layout is not None
        depth = message["depth"]
        if type(depth) is not int or depth not in cut_range(len(p.layout.rest)):
            raise _Refused(f"seat {sender + 1} cut for the starter at an illegal depth",
                           {"seat": sender, "step": "starter"})
        p.starter = p.layout.rest[depth]

    def _take_act(self, p: PackDeal, sender: int, message: dict[str, Any]) -> None:
        if message["t"] == "say":
            if not plain(message["value"]) or len(canonical(message["value"])) > MAX_SAY:
                raise _Refused(
                    f"seat {sender + 1}'s action is not a small plain value", {"seat": sender, "step": "say"}
                )
            p.acts[sender] = ("say", message["value"])
            return
        slot = message["slot"]
        if type(slot) is not int or slot not in self._held(p, sender):
            raise _Refused(f"seat {sender + 1} laid slot {str(slot)[:8]}, not a card of its hand still held",
                           {"seat": sender, "step": "lay"})
        self._check(p, "lay", sender, message, [slot])
        p.acts[sender] = ("lay", slot)

    def _after_acts(self, p: PackDeal) -> None:
        """The round's actions, in seat order: a card laid opens for every seat."""
        for seat, (kind, value) in sorted(p.acts.items()):
            if kind == "say":
                p.said.append((seat, value))
            else:
                assert isinstance(value, int)
                p.laid.setdefault(seat, []).append(value)
                self._try_open(p, [value])
        p.acts = {}

    def _take_shares(self, p: PackDeal, kind: str, sender: int, message: dict[str, Any]) -> None:
        assert p.layout is not None
        if kind == "deal":
            want = [s for j, hand in enumerate(p.layout.hands) if j != sender for s in hand]
        elif kind == "turn":
            assert p.starter is not None
            want = [p.starter]
        elif kind == "crib":
            want = self._crib_slots(p, sender)
        else:
            want = self._hidden_own(p, sender)
        self._check(p, kind, sender, message, want)

    def _check(self, p: PackDeal, kind: str, sender: int, message: dict[str, Any], want: list[int]) -> None:
        """Seat ``sender``'s shares of exactly ``want``, each proven (this seat's own: made here); kept in
        :attr:`PackDeal.shares`."""
        what = f"seat {sender + 1}'s {kind} shares"
        try:
            shares = read_shares(self.group, message["shares"], message["proof"], what)
            if sorted(shares.slots) != sorted(want):
                raise ProtocolError(f"{what} are of slots {sorted(shares.slots)}, not {sorted(want)}")
            proven = self.ahead.proven.pop(check_key(p.index, sender, message), False) if self.ahead.proven else False
            if sender != self.seat and not proven:
                self.keys.check_shares(p.index, kind, sender, shares, [p.pack[s] for s in shares.slots])
        except ProtocolError as exc:
            raise _Refused(str(exc), {"pack": p.index, "seat": sender, "step": kind}) from exc
        for slot, value in zip(shares.slots, shares.values):
            p.shares.setdefault(slot, {})[sender] = value

    def _after_shares(self, p: PackDeal, kind: str) -> None:
        """A round of shares is complete (every share in it proven): open what it opens for this seat."""
        assert p.layout is not None
        if kind == "deal":
            own = list(p.layout.hands[self.seat])
            for slot in own:
                p.shares.setdefault(slot, {})[self.seat] = self._my_share(p, slot)
            self._try_open(p, own)
            for slot in own:  # this seat's own share is kept only once it sends it
                del p.shares[slot][self.seat]
        elif kind == "turn":
            assert p.starter is not None
            self._try_open(p, [p.starter])
        elif kind == "crib":
            p.crib_open = True
            self._try_open(p, [s for d in p.discards.values() for s in d] + list(p.layout.crib_pack))
        else:
            self._try_open(p, [s for hand in p.layout.hands for s in hand])

    def _try_open(self, p: PackDeal, slots: list[int]) -> None:
        for slot in slots:
            held = p.shares.get(slot, {})
            if slot in p.cards or len(held) != self.seats:
                continue
            index = self.keys.open(p.pack[slot], [held[s] for s in range(self.seats)])
            if index is None:  # pragma: no cover - every share was proven
                raise _Refused(f"slot {slot} opens to no card", {"pack": p.index, "slot": slot})
            p.cards[slot] = DECK[index]

    # --- the rules of who holds what ------------------------------------------------------------

    def _held(self, p: PackDeal, seat: int) -> list[int]:
        """Seat ``seat``'s dealt slots neither discarded nor laid."""
        assert p.layout is not None
        gone = set(p.discards.get(seat, ())) | set(p.laid.get(seat, []))
        return [s for s in p.layout.hands[seat] if s not in gone]

    def _crib_slots(self, p: PackDeal, seat: int) -> list[int]:
        """The slots seat ``seat`` opens at the show: its discards and the crib's cards from the pack."""
        assert p.layout is not None
        return sorted(set(p.discards.get(seat, ())) | set(p.layout.crib_pack))

    def _hidden_own(self, p: PackDeal, seat: int) -> list[int]:
        """Seat ``seat``'s dealt slots whose card is not public yet (its discards too, before the show)."""
        assert p.layout is not None
        public = set(p.laid.get(seat, [])) | (set(p.discards.get(seat, ())) if p.crib_open else set())
        return [s for s in p.layout.hands[seat] if s not in public]

    def _pack(self, k: int) -> PackDeal:
        if self.failure is not None:
            raise ValueError(f"the match has stopped: {self.failure}")
        if k not in self.packs:
            raise ValueError(f"pack {k + 1} has not begun")
        return self.packs[k]

    def _pack_for_intent(self, k: int, phase: str) -> PackDeal:
        p = self._pack(k)
        if p.phase != phase or p.intent is not None or self.seat in p.story.got:
            raise ValueError(f"pack {k + 1} does not wait for this seat's {phase} now")
        return p

    def stop(self, reason: str, evidence: dict[str, object] | None = None) -> None:
        """The game found a fault the deal cannot see (a move the rules refuse, a false Go at the audit):
        stop the match here and tell every seat (an ``abort``). Not recorded: a reload's game finds it again."""
        self._stop(reason, dict(evidence or {}))

    def _stop(self, reason: str, evidence: dict[str, object], send: bool = True) -> None:
        if self.failure is None:
            self.failure = reason
            self.evidence = dict(evidence)
            if send:
                self._outbox.append({"t": "abort", "p": -1, "from": self.seat, "reason": reason[:200]})


class _Refused(ProtocolError):
    """A message's body is false (a proof, a slot, a depth): the match stops with the evidence."""

    def __init__(self, message: str, evidence: dict[str, object]) -> None:
        super().__init__(message)
        self.evidence = evidence

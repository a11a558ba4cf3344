"""One browser's side of an online match: intents and payloads in, payloads out, every pack audited.

An :class:`OnlineGame` holds a :class:`~cribbage.match.Match` whose packs are
:class:`~cribbage.deal.OpenedPacks`, with ``declare_go=True``: the engine is the one rule book, and
this module only decides which slots of the pack to open, for whom, and when.

- Local intents: :meth:`OnlineGame.act` (the local player's action), :meth:`accept_next_hand`
  (the next pack is shuffled during the show; it is cut and dealt once both have accepted),
  :meth:`offer_new_match` / :meth:`answer_new_match` (the hand abandoned is still revealed and
  audited, alongside the new match).
- Received payloads: :meth:`OnlineGame.receive` checks every field against the match and either
  applies the message or raises :class:`ProtocolError`, leaving everything as it was.
- Work: the big-integer steps (shuffles, decryption shares, audits) are queued; :meth:`step`
  does some within a time budget (a browser calls it once a frame), :meth:`run_all` does them all.
  Payloads to send collect in :meth:`take_outbox`, in order.

The message kinds (``"t"``): ``shuffle`` (a pack list, step 1 or 2), the actions ``cutdeal``,
``cut``, ``discard``, ``starter``, ``play``, ``go``, ``count`` (with the sender's decryption
shares for the slots the action opens), ``shares`` (the reply that opens them for the actor),
``reveal`` (a pack key once the pack is over), ``next`` (accept the next hand), ``newmatch`` and
``abort`` (an audit caught the other browser). Every one carries the match number ``m`` and its
sender's message number ``n`` (0, 1, 2... per match), so a replayed or lost payload is refused even
if the link let it through.

A browser drives it like this (the link carries the payloads)::

    game = OnlineGame(seat)                 # or OnlineGame.from_dict(saved)
    game.act(action)                        # the local player's move (IllegalActionError if not now)
    game.receive(payload)                   # ProtocolError: refused, nothing changed
    game.step(budget_ms=30)                 # once a frame while game.busy
    for payload in game.take_outbox(): link.send(payload)
    save(game.to_dict())                    # after each change
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Play, parse_action
from ..cards import DECK, Card, parse_card
from ..deal import OpenedPacks
from ..match import Match, SaveError
from ..state import GameState, IllegalActionError, Phase, other
from ..view import SeatView
from . import sra
from .errors import AuditFailure, ProtocolError

__all__ = ["OnlineGame", "SAVE_FORMAT", "SAVE_VERSION", "MESSAGE_KINDS"]

SAVE_FORMAT = "cribbage-online"
SAVE_VERSION = 1
REPLAY_SLICE = 20
"""Actions the audit's replay applies between two yields (each slice a few milliseconds)."""
MAX_REASON = 500
"""Longest ``abort`` reason kept from the other browser."""

_FIELDS: dict[str, frozenset[str]] = {
    "shuffle": frozenset({"pack", "step", "cards"}),
    "cutdeal": frozenset({"pack", "depth", "shares"}),
    "cut": frozenset({"pack", "depth", "shares"}),
    "discard": frozenset({"pack", "slots"}),
    "starter": frozenset({"pack", "depth", "shares"}),
    "play": frozenset({"pack", "slot", "shares"}),
    "go": frozenset({"pack"}),
    "count": frozenset({"pack", "shares"}),
    "shares": frozenset({"pack", "shares"}),
    "reveal": frozenset({"pack", "key"}),
    "next": frozenset({"hand"}),
    "newmatch": frozenset({"op"}),
    "abort": frozenset({"reason"}),
}
MESSAGE_KINDS = frozenset(_FIELDS)
"""Every payload kind this module sends and accepts."""


@dataclass
class PackRecord:
    """This browser's crypto and bookkeeping for one pack of the match."""

    first_seat: int
    """Who shuffles first (seat 0 for a cut for deal, the pone for a hand)."""
    start_action: int
    """Index in the match's actions of the pack's first action."""
    key: int = 0
    """This browser's secret exponent for the pack (0 until it has shuffled)."""
    order: list[int] = field(default_factory=list)
    """This browser's secret shuffle order."""
    table: list[int] = field(default_factory=list)
    """``[m_i^key]`` in DECK order: opens the other's shares."""
    first: list[int] | None = None
    """The first shuffler's list."""
    second: list[int] | None = None
    """The pack: 52 slots, each encrypted by both."""
    shares_in: dict[int, int] = field(default_factory=dict)
    """Slot -> decryption share received from the other browser."""
    shares_out: list[int] = field(default_factory=list)
    """Slots this browser has opened for the other (or will, in queued work)."""
    discard_slots: list[list[int] | None] = field(default_factory=lambda: [None, None])
    """The two slots each seat laid away to the crib (named, not opened, when discarding)."""
    laid: list[list[int]] = field(default_factory=lambda: [[], []])
    """The slots each seat has laid in the play, in order."""
    ended: bool = False
    """True once the pack's last action is applied here (then this browser reveals its key)."""
    end_action: int = -1
    """Index in the match's actions just past the pack's last action."""
    other_key: int | None = None
    """The other browser's key, once revealed."""
    cards: list[Card] | None = None
    """The whole pack, once audited."""

    @property
    def ready(self) -> bool:
        """True once both shuffles are done and this browser holds the pack."""
        return self.second is not None and bool(self.table)


@dataclass
class _Pending:
    """A local action sent and waiting for the other's shares before it is applied here."""

    action: Action
    slots: list[int]


Clock = Callable[[], float]


class OnlineGame:
    """One browser's side of an online match (seat 0 or 1), driven by intents and payloads."""

    def __init__(self, seat: int, names: tuple[str, str] = ("Seat 1", "Seat 2"), *,
                 randbelow: Callable[[int], int] = secrets.randbelow, clock: Clock = time.perf_counter,
                 group: sra.Group = sra.GROUP_14) -> None:
        if seat not in (0, 1) or type(seat) is not int:
            raise ValueError("a seat is 0 or 1")
        self.seat = seat
        self.names = (str(names[0]), str(names[1]))
        self.randbelow = randbelow
        self.group = group
        """The group of the deal (tests may use a small one for speed)."""
        self.clock = clock
        self.tally = sra.Tally()
        """Big-integer work done by this browser (for the benchmark)."""
        self.match_number = 0
        self.sent = 0
        """Payloads sent in this match (the next one's ``n``)."""
        self.received = 0
        """Payloads taken from the other browser in this match (the ``n`` expected next)."""
        self.failure: str | None = None
        """Why the match stopped (an audit caught a cheat, or the other browser stopped it)."""
        self.evidence: dict[str, object] = {}
        self._closing: OnlineGame | None = None
        """The match abandoned by agreement, kept until its last pack is audited."""
        self.new_match_offer: int | None = None
        """The seat whose offer of a new match is waiting for an answer."""
        self._outbox: list[dict[str, Any]] = []
        self._jobs: list[dict[str, Any]] = []
        self._work: sra.Work[None] | None = None
        self._reset_match()

    def _reset_match(self) -> None:
        self.source = OpenedPacks()
        self.match = Match(0, humans=(self.seat,), names=self.names, source=self.source, declare_go=True)
        self.records: list[PackRecord] = []
        self.learned: list[tuple[int, int, Card]] = []
        """(action index, slot, card) for every slot opened here, so a reload replays what was known when."""
        self.pending: _Pending | None = None
        self.accepted = [False, False]
        self._jobs = []
        self._work = None
        self._sync_pack()

    # --- queries -------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The engine state (this browser's knowledge only)."""
        return self.match.state

    def view(self) -> SeatView:
        """What the local player may know now."""
        return self.match.view(self.seat)

    @property
    def busy(self) -> bool:
        """True while big-integer work is queued."""
        return bool(self._jobs)

    @property
    def audit_pending(self) -> bool:
        """True while a finished pack waits for the other's key or for its audit here."""
        return any(r.ended and r.cards is None for r in self.records)

    @property
    def pack(self) -> PackRecord | None:
        """The record of the pack in play, if its shuffle has begun."""
        k = self.source.current
        return self.records[k] if 0 <= k < len(self.records) else None

    def waiting_for(self) -> str | None:
        """Why the local player cannot act now, or None."""
        if self.failure:
            return "the match has stopped"
        if self.pending is not None:
            return "the other browser's decryption"
        st = self.match.state
        if st.is_over:
            return None
        if self._needs_acceptance() and not all(self.accepted):
            if not self.accepted[self.seat]:
                return "your acceptance of the next hand"
            return "the other player to accept the next hand"
        if self.audit_pending:
            return "the audit of the last pack"  # a key never revealed holds up the next deal
        rec = self.pack
        if rec is None or not rec.ready:
            return "the shuffle"
        return None

    def legal_actions(self) -> list[Action]:
        """The local player's legal actions now (none while waiting)."""
        if self.waiting_for() is not None:
            return []
        return self.match.state.legal_actions(self.seat)

    def can_accept_next_hand(self) -> bool:
        """True when the next hand waits for this player's acceptance."""
        return not self.failure and self._needs_acceptance() and not self.accepted[self.seat]

    def take_outbox(self) -> list[dict[str, Any]]:
        """The payloads to send, oldest first (each JSON-able); the outbox is then empty."""
        out, self._outbox = self._outbox, []
        return out

    # --- saves ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything this browser needs to continue after a reload, as plain JSON-able data.

        It holds this browser's own keys of unfinished packs, but never a seed and never a card of
        the other's hand before the rules make it public (only the cards opened here are kept).
        """
        g = self.group

        def elements(values: list[int] | None) -> list[str] | None:
            return None if values is None else [sra.encode_element(v, g) for v in values]

        records = []
        for rec in self.records:
            records.append({
                "first_seat": rec.first_seat, "start_action": rec.start_action,
                "key": sra.encode_key(rec.key) if rec.key else None, "order": list(rec.order),
                "table": elements(rec.table), "first": elements(rec.first), "second": elements(rec.second),
                "shares_in": [[s, sra.encode_element(v, g)] for s, v in sorted(rec.shares_in.items())],
                "shares_out": list(rec.shares_out), "discard_slots": [d and list(d) for d in rec.discard_slots],
                "laid": [list(x) for x in rec.laid], "ended": rec.ended, "end_action": rec.end_action,
                "other_key": sra.encode_key(rec.other_key) if rec.other_key is not None else None,
                "cards": [c.code for c in rec.cards] if rec.cards is not None else None,
            })
        body: dict[str, Any] = {
            "format": SAVE_FORMAT, "version": SAVE_VERSION, "seat": self.seat, "names": list(self.names),
            "group_bits": g.p.bit_length(), "match_number": self.match_number, "failure": self.failure,
            "evidence": json.loads(json.dumps(self.evidence, default=str)),
            "new_match_offer": self.new_match_offer, "sent": self.sent, "received": self.received, "accepted": list(self.accepted),
            "actions": [str(a) for a in self.match.actions],
            "learned": [[i, s, c.code] for i, s, c in self.learned],
            "records": records,
            "pending": None if self.pending is None else {"action": str(self.pending.action),
                                                          "slots": list(self.pending.slots)},
            "jobs": json.loads(json.dumps(self._jobs)), "outbox": json.loads(json.dumps(self._outbox)),
            "closing": None if self._closing is None else self._closing.to_dict(),
            "tally": [self.tally.short, self.tally.full, self.tally.checks],
        }
        body["checksum"] = _checksum(body)
        return body

    @classmethod
    def from_dict(cls, data: Any, *, randbelow: Callable[[int], int] = secrets.randbelow,
                  clock: Clock = time.perf_counter) -> "OnlineGame":
        """Rebuild a peer from :meth:`to_dict`; refuse anything doubtful with SaveError."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("this is not a save of an online match")
        if data.get("version") != SAVE_VERSION:
            raise SaveError("this online save is from another version of the game")
        if data.get("checksum") != _checksum(data):
            raise SaveError("this online save has been altered or damaged (its checksum does not match)")
        try:
            group = {g.p.bit_length(): g for g in (sra.GROUP_14, sra.TEST_GROUP)}[data["group_bits"]]
            game = cls(data["seat"], tuple(data["names"]), randbelow=randbelow, clock=clock,
                       group=group)
            game.match_number = int(data["match_number"])
            game.failure = data["failure"]
            game.evidence = dict(data["evidence"])
            game.new_match_offer = data["new_match_offer"]
            game.sent = int(data["sent"])
            game.received = int(data["received"])
            game.accepted = [bool(a) for a in data["accepted"]]
            game.records = []
            for r in data["records"]:
                rec = PackRecord(first_seat=int(r["first_seat"]), start_action=int(r["start_action"]))
                rec.key = int(r["key"], 16) if r["key"] else 0
                rec.order = [int(x) for x in r["order"]]
                rec.table = _elements(r["table"], group) or []
                rec.first = _elements(r["first"], group)
                rec.second = _elements(r["second"], group)
                rec.shares_in = {int(s): sra.decode_element(v, "a saved share", None, group) for s, v in r["shares_in"]}
                rec.shares_out = [int(x) for x in r["shares_out"]]
                rec.discard_slots = [None if d is None else [int(x) for x in d] for d in r["discard_slots"]]
                rec.laid = [[int(x) for x in seat] for seat in r["laid"]]
                rec.ended = bool(r["ended"])
                rec.end_action = int(r["end_action"])
                rec.other_key = int(r["other_key"], 16) if r["other_key"] is not None else None
                rec.cards = [parse_card(c) for c in r["cards"]] if r["cards"] is not None else None
                game.records.append(rec)
            game.learned = [(int(i), int(s), parse_card(c)) for i, s, c in data["learned"]]
            game.source = OpenedPacks()
            game.match = Match(0, humans=(game.seat,), names=game.names, source=game.source, declare_go=True)
            at = 0
            for n, text in enumerate(data["actions"]):
                action = parse_action(text)
                while at < len(game.learned) and game.learned[at][0] == n:
                    game.source.learn(game.learned[at][1], game.learned[at][2])
                    at += 1
                st = game.match.state
                if isinstance(action, Count) and st.show_step == 2 and st.crib_unseen:
                    rec = game.records[game.source.current]
                    crib = [game._known(s) for seat in (0, 1) for s in rec.discard_slots[seat] or []]
                    st.reveal_crib(crib)
                game.match.apply(action)
            if at != len(game.learned):
                raise SaveError("this online save holds cards learned after its last action")
            pending = data["pending"]
            game.pending = None if pending is None else _Pending(parse_action(pending["action"]),
                                                                 [int(x) for x in pending["slots"]])
            game._jobs = list(data["jobs"])
            game._closing = None if data["closing"] is None else cls.from_dict(data["closing"])
            game._outbox = list(data["outbox"])
            game.tally = sra.Tally(*(int(x) for x in data["tally"]))
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, AssertionError, IndexError) as exc:
            raise SaveError(f"this online save cannot be loaded: {exc!r}"[:300]) from exc
        return game

    # --- local intents -------------------------------------------------------------------------

    def act(self, action: Action) -> None:
        """The local player's action; refused with IllegalActionError (nothing changes) if not now."""
        if self.failure:
            raise IllegalActionError(f"the match has stopped: {self.failure}")
        if getattr(action, "seat", None) != self.seat:
            raise IllegalActionError("you can only act for your own seat")
        waiting = self.waiting_for()
        if waiting is not None:
            raise IllegalActionError(f"waiting for {waiting}")
        st = self.match.state
        reason = _refusal(st, action)
        if reason is not None and not (isinstance(action, Count) and st.show_step == 2 and st.crib_unseen
                                       and st.phase is Phase.SHOW and self.seat in st.actors()):
            raise IllegalActionError(reason)
        rec = self.pack
        assert rec is not None
        k = self.source.current
        base = {"m": self.match_number, "pack": k}
        if isinstance(action, (CutForDeal, CutStarter)):
            slot = st.slot_at(action.depth)
            self.pending = _Pending(action, [slot])
            kind = "cutdeal" if isinstance(action, CutForDeal) else "starter"
            self._queue_send({**base, "t": kind, "depth": action.depth}, [slot])
        elif isinstance(action, CutPack):
            slots = st.deal_slots(action.depth)
            self.pending = _Pending(action, list(slots[self.seat]))
            self._queue_send({**base, "t": "cut", "depth": action.depth}, list(slots[other(self.seat)]))
        elif isinstance(action, Discard):
            laid_away = [self._own_slot(c) for c in action.cards]
            self._apply(action)
            rec.discard_slots[self.seat] = laid_away
            self._queue_send({**base, "t": "discard", "slots": laid_away}, None)
        elif isinstance(action, Play):
            slot = self._own_slot(action.card)
            self._apply(action)
            rec.laid[self.seat].append(slot)
            self._queue_send({**base, "t": "play", "slot": slot}, [slot])
            self._after_apply(k)
        elif isinstance(action, Go):
            self._apply(action)
            self._queue_send({**base, "t": "go"}, None)
            self._after_apply(k)
        elif isinstance(action, Count):
            if st.show_step == 2:
                mine = rec.discard_slots[self.seat]
                theirs = rec.discard_slots[other(self.seat)]
                assert mine is not None and theirs is not None
                if st.crib_unseen:
                    self.pending = _Pending(action, list(theirs))
                    self._queue_send({**base, "t": "count"}, list(mine))
                    return
            self._apply(action)
            self._queue_send({**base, "t": "count"}, [])
            self._after_apply(k)

    def accept_next_hand(self) -> None:
        """Accept that the next hand be dealt (both must, before the pone may cut)."""
        if not self.can_accept_next_hand():
            raise IllegalActionError("there is no next hand to accept now")
        self.accepted[self.seat] = True
        self._queue_send({"t": "next", "m": self.match_number, "hand": self.match.state.hand_number}, None)
        self._sync_pack()

    def offer_new_match(self) -> None:
        """Offer the other player a new match (it starts when they accept)."""
        if self.new_match_offer is not None:
            raise IllegalActionError("an offer of a new match is already waiting for an answer")
        self.new_match_offer = self.seat
        self._emit({"t": "newmatch", "m": self.match_number, "op": "offer"})

    def answer_new_match(self, accept: bool) -> None:
        """Accept or decline the other player's offer of a new match."""
        if self.new_match_offer != other(self.seat):
            raise IllegalActionError("there is no offer of a new match to answer")
        self.new_match_offer = None
        self._emit({"t": "newmatch", "m": self.match_number, "op": "accept" if accept else "decline"})
        if accept:
            self._new_match()

    def _new_match(self) -> None:
        # The hand in progress is abandoned, but still revealed and audited: the old match is kept
        # aside (``closing``) until the other's key for that pack comes and the audit passes.
        rec = self.pack
        self._closing = None
        if rec is not None and rec.ready and not rec.ended and self.failure is None:
            rec.ended = True
            rec.end_action = len(self.match.actions)
            closing = OnlineGame.__new__(OnlineGame)
            closing.__dict__ = dict(self.__dict__)
            closing._outbox, closing._jobs, closing._work, closing._closing = [], [], None, None
            self._closing = closing
            self._outbox.append({"t": "reveal", "m": self.match_number, "n": 0, "pack": self.source.current,
                                 "key": sra.encode_key(rec.key)})
        self.match_number += 1
        self.sent = self.received = 0
        self.failure = None
        self.evidence = {}
        self._reset_match()

    # --- work ----------------------------------------------------------------------------------

    def step(self, budget_ms: float = 30.0) -> bool:
        """Do queued work for about ``budget_ms`` (one power at least); True while more remains."""
        deadline = self.clock() + budget_ms / 1000.0
        while self._jobs:
            if self._work is None:
                self._work = self._start_job(self._jobs[0])
            try:
                next(self._work)
            except StopIteration:
                self._work = None
                if self._jobs:
                    self._jobs.pop(0)
            except AuditFailure as exc:
                self._stop(str(exc), exc.evidence)
                return False
            except Exception as exc:  # a bug must not crash the page: stop the match and say why
                self._stop(f"this browser failed in its own work ({type(exc).__name__}: {exc})", {})
                return False
            if self.clock() >= deadline:
                break
        return bool(self._jobs)

    def run_all(self) -> None:
        """Do all queued work now (tests, the command line)."""
        while self.step(1e9):
            pass

    def _emit(self, message: dict[str, Any]) -> None:
        """Put a payload in the outbox, numbered: each is unique, so a replayed one is refused."""
        self._outbox.append({**message, "n": self.sent})
        self.sent += 1

    def _queue_send(self, message: dict[str, Any], share_slots: list[int] | None) -> None:
        self._jobs.append({"kind": "send", "message": message, "slots": share_slots})

    def _start_job(self, job: dict[str, Any]) -> sra.Work[None]:
        kind = job["kind"]
        if kind == "send":
            return self._job_send(job["message"], job["slots"])
        if kind == "shuffle1":
            return self._job_shuffle_first(job["pack"])
        if kind == "shuffle2":
            return self._job_shuffle_second(job["pack"])
        if kind == "audit":
            return self._job_audit(job["pack"])
        if kind == "reveal":
            return self._job_reveal(job["pack"])
        if kind == "closing_audit":
            return self._job_closing_audit(job["pack"])
        raise AssertionError(kind)

    def _job_send(self, message: dict[str, Any], slots: list[int] | None) -> sra.Work[None]:
        if slots is not None:
            rec = self.records[message["pack"]]
            inv = sra.inverse(rec.key, self.group)
            assert rec.second is not None
            shares: list[list[Any]] = []
            for s in slots:
                share = sra.make_share(rec.second[s], inv, self.tally, self.group)
                shares.append([s, sra.encode_element(share, self.group)])
                yield
            message = {**message, "shares": shares}
        self._emit(message)
        return None

    def _job_closing_audit(self, k: int) -> sra.Work[None]:
        closing = self._closing
        if closing is None:
            return None
        try:
            yield from closing._job_audit(k)
        except AuditFailure as exc:
            raise AuditFailure(f"in the match abandoned: {exc}", exc.evidence) from exc
        self._closing = None

    def _job_reveal(self, k: int) -> sra.Work[None]:
        self._emit({"t": "reveal", "m": self.match_number, "pack": k,
                             "key": sra.encode_key(self.records[k].key)})
        return None
        yield  # a generator with no power to compute

    def _job_shuffle_first(self, k: int) -> sra.Work[None]:
        key = sra.new_key(self.randbelow)
        order = sra.random_permutation(sra.PACK_SIZE, self.randbelow)
        table, first = yield from sra.shuffle_first(key, order, self.tally, self.group)
        rec = self.records[k]
        rec.key, rec.order, rec.table, rec.first = key, order, table, first
        self._emit({"t": "shuffle", "m": self.match_number, "pack": k, "step": 1,
                             "cards": [sra.encode_element(v, self.group) for v in first]})

    def _job_shuffle_second(self, k: int) -> sra.Work[None]:
        rec = self.records[k]
        assert rec.first is not None
        key = sra.new_key(self.randbelow)
        order = sra.random_permutation(sra.PACK_SIZE, self.randbelow)
        table, second = yield from sra.shuffle_second(rec.first, key, order, self.tally, self.group)
        rec.key, rec.order, rec.table, rec.second = key, order, table, second
        self._emit({"t": "shuffle", "m": self.match_number, "pack": k, "step": 2,
                             "cards": [sra.encode_element(v, self.group) for v in second]})

    def _job_audit(self, k: int) -> sra.Work[None]:
        rec = self.records[k]
        assert rec.first is not None and rec.second is not None and rec.other_key is not None
        mine_first = rec.first_seat == self.seat
        keys = (rec.key, rec.other_key) if mine_first else (rec.other_key, rec.key)
        result = yield from sra.audit_pack(
            rec.first, rec.second, keys[0], keys[1], own_table=rec.table, own_is_first=mine_first,
            own_order=None if mine_first else rec.order, shares=rec.shares_in, pack=k, tally=self.tally,
            group=self.group)
        cards = result.cards
        them = other(self.seat)
        learned = self.source.packs[k]
        for s, card in learned.items():
            if cards[s] != card:
                raise AuditFailure(f"pack {k + 1}: slot {s} was opened as {card.code} but holds {cards[s].code}",
                                   {"pack": k, "slot": s, "card": cards[s].code, "claimed": card.code})
        rec.cards = cards
        yield from self._replay_audit(k)
        # The pack is settled: its secrets are no longer needed.
        rec.table, rec.first, rec.second, rec.order, rec.shares_in = [], None, None, [], {}

    def _replay_audit(self, k: int) -> sra.Work[None]:
        """Replay the match to the end of pack ``k`` knowing every card: the engine judges each action.

        Late in a match this is hundreds of actions: it yields every few, so a browser's frames stay short."""
        them = other(self.seat)
        full: list[dict[int, Card]] = []
        for j in range(k + 1):
            cards = self.records[j].cards
            assert cards is not None
            full.append(dict(enumerate(cards)))
        probe = Match(0, humans=(self.seat,), source=OpenedPacks(full), declare_go=True)
        end = self.records[k].end_action
        j = 0
        for i, action in enumerate(self.match.actions[:end]):
            while j + 1 < len(self.records) and self.records[j + 1].start_action <= i:
                j += 1
            if isinstance(action, Discard) and not action.cards:
                slots = self.records[j].discard_slots[action.seat] or []
                pack_cards = self.records[j].cards
                assert pack_cards is not None
                action = Discard(action.seat, tuple(pack_cards[s] for s in slots))
            if i % REPLAY_SLICE == REPLAY_SLICE - 1:
                yield
            try:
                probe.apply(action)
            except IllegalActionError as exc:
                who = "the other player" if action.seat == them else "this browser"
                st = probe.state
                if isinstance(action, Go) and st.phase is Phase.PLAY:
                    fits = st.playable(action.seat)
                    what = (f"said Go at the count of {st.count} while holding "
                            f"{' '.join(c.code for c in fits)}, which fitted")
                else:
                    what = f"played '{action}', which the rules refuse with every card known ({exc})"
                raise AuditFailure(
                    f"pack {j + 1}: {who} {what} (action {i + 1} of the match)",
                    {"pack": j, "action": str(action), "index": i, "seat": action.seat, "reason": str(exc)},
                ) from exc

    def _stop(self, reason: str, evidence: dict[str, object]) -> None:
        self.failure = reason
        self.evidence = dict(evidence)
        self._jobs = []
        self._work = None
        self.pending = None
        self._emit({"t": "abort", "m": self.match_number, "reason": reason[:MAX_REASON]})

    # --- receiving -----------------------------------------------------------------------------

    def receive(self, message: object) -> None:
        """Take one payload from the other browser; refuse anything wrong with ProtocolError, unchanged."""
        if not isinstance(message, dict):
            raise ProtocolError("a message must be a JSON object")
        kind = message.get("t")
        if not isinstance(kind, str) or kind not in _FIELDS:
            raise ProtocolError(f"unknown message kind {str(kind)[:40]!r}")
        expected = _FIELDS[kind] | {"t", "m", "n"}
        if set(message) != expected:
            extra = sorted(str(k)[:20] for k in set(message) - expected)
            missing = sorted(expected - set(message))
            raise ProtocolError(f"a {kind!r} message has the wrong fields (extra {extra}, missing {missing})")
        m = _int(message["m"], "the match number")
        if m == self.match_number - 1 and kind != "newmatch":
            closing = self._closing
            if kind == "reveal" and closing is not None:
                closing._on_reveal(message)  # the key of the hand abandoned: audit it
                closing._jobs = []
                self._jobs.append({"kind": "closing_audit", "pack": message["pack"]})
            return  # otherwise sent before the other saw the new match begin: it no longer matters
        if m != self.match_number:
            raise ProtocolError(f"a message for match {m}, but this is match {self.match_number}")
        n = _int(message["n"], "the message number", 1 << 40)
        if n != self.received:
            raise ProtocolError(f"message number {n} where {self.received} was expected (replayed or lost)")
        number = self.match_number
        try:
            self._receive(kind, message)
        except ProtocolError:
            raise
        except Exception as exc:  # a bug here must not crash the page: stop the match, say why
            self._stop(f"this browser could not process a {kind!r} message ({type(exc).__name__}: {exc})", {})
            raise ProtocolError(f"the match has stopped: {self.failure}") from exc
        if self.match_number == number:
            self.received += 1

    def _receive(self, kind: str, message: dict[str, Any]) -> None:
        if kind == "abort":
            reason = message["reason"]
            if not isinstance(reason, str):
                raise ProtocolError("an abort must give its reason as text")
            if self.failure is None:
                self.failure = "the other browser stopped the match: " + reason[:MAX_REASON]
                self._jobs, self._work, self.pending = [], None, None
            return
        if kind == "newmatch":
            self._receive_newmatch(message["op"])
            return
        if self.failure:
            return  # the match has stopped: the rest of its moves are read and ignored
        handler = getattr(self, "_on_" + kind)
        handler(message)

    def _receive_newmatch(self, op: object) -> None:
        them = other(self.seat)
        if op == "offer":
            if self.new_match_offer == self.seat:
                self.new_match_offer = None  # both offered: that is agreement
                self._new_match()
            elif self.new_match_offer is None:
                self.new_match_offer = them
            else:
                raise ProtocolError("a second offer of a new match")
        elif op in ("accept", "decline"):
            if self.new_match_offer != self.seat:
                raise ProtocolError("an answer to an offer of a new match that was not made")
            self.new_match_offer = None
            if op == "accept":
                self._new_match()
        else:
            raise ProtocolError("a new-match message must offer, accept or decline")

    def _current(self, message: dict[str, Any], *, ready: bool = True) -> tuple[int, PackRecord]:
        k = _int(message["pack"], "the pack number")
        if k != self.source.current or self.pack is None:
            raise ProtocolError(f"a message about pack {k + 1}, but the pack in play is {self.source.current + 1}")
        rec = self.pack
        if ready and not rec.ready:
            raise ProtocolError("an action before the pack was shuffled")
        return k, rec

    def _check_keys(self) -> None:
        """A new deal only after the other revealed its keys of every finished pack (so each is audited)."""
        if any(r.ended and r.key and r.other_key is None for r in self.records):
            raise ProtocolError("a cut before the other browser revealed its key of the last pack")

    def _check_turn(self, action: Action) -> None:
        if self.pending is not None:
            raise ProtocolError("an action while this browser's own action waits for its reply")
        reason = _refusal(self.match.state, action)
        if reason is not None:
            raise ProtocolError(f"the other player's '{action}' is not legal now: {reason}")

    def _open(self, rec: PackRecord, k: int, shares: object, slots: list[int]) -> dict[int, tuple[Card, int]]:
        """Check shares for exactly ``slots``; return the cards they open (nothing is changed)."""
        if not isinstance(shares, list) or len(shares) != len(slots):
            raise ProtocolError(f"expected decryption shares for {len(slots)} slots")
        lookup = {v: i for i, v in enumerate(rec.table)}
        opened: dict[int, Card] = {}
        values: dict[int, int] = {}
        for entry in shares:
            if not isinstance(entry, list) or len(entry) != 2:
                raise ProtocolError("a share is a [slot, value] pair")
            slot = _int(entry[0], "a share's slot")
            if slot not in slots or slot in opened:
                raise ProtocolError(f"a share for slot {slot}, which this message does not open")
            value = sra.decode_element(entry[1], f"the share for slot {slot}", None, self.group)
            index = sra.open_share(value, lookup)
            if index is None:
                raise ProtocolError(f"the share for slot {slot} opens no card: a wrong decryption share")
            opened[slot] = DECK[index]
            values[slot] = value
        known = self.source.packs[k]
        seen = set(known.values())
        for slot, card in opened.items():
            if slot in known and known[slot] != card:
                raise ProtocolError(f"slot {slot} was already opened as {known[slot].code}")
            if slot not in known and card in seen:
                raise ProtocolError(f"the share for slot {slot} opens {card.code}, already elsewhere in the pack")
        if len(set(opened.values())) != len(opened):
            raise ProtocolError("two shares open the same card")
        return {slot: (card, values[slot]) for slot, card in opened.items()}

    def _learn(self, rec: PackRecord, opened: dict[int, tuple[Card, int]]) -> None:
        for slot, (card, value) in opened.items():
            self.source.learn(slot, card)
            self.learned.append((len(self.match.actions), slot, card))
            rec.shares_in[slot] = value

    def _on_shuffle(self, message: dict[str, Any]) -> None:
        k, rec = self._current(message, ready=False)
        step = _int(message["step"], "the shuffle step")
        mine_first = rec.first_seat == self.seat
        if step == 1 and not mine_first and rec.first is None:
            checks = sra.Tally()
            rec_first = sra.decode_pack_list(message["cards"], "the first shuffle", checks, self.group)
            if set(rec_first) & set(self.group.points):
                raise ProtocolError("the first shuffle left cards unencrypted")
            rec.first = rec_first
            self.tally.checks += checks.checks
            self._jobs.append({"kind": "shuffle2", "pack": k})
        elif step == 2 and mine_first and rec.first is not None and rec.second is None and rec.table:
            checks = sra.Tally()
            second = sra.decode_pack_list(message["cards"], "the second shuffle", checks, self.group)
            if set(second) & set(rec.first):
                raise ProtocolError("the second shuffle left cards unencrypted")
            rec.second = second
            self.tally.checks += checks.checks
        else:
            raise ProtocolError(f"a shuffle (step {str(step)[:5]}) that is not expected now")

    def _on_cutdeal(self, message: dict[str, Any]) -> None:
        self._turn_up(message, CutForDeal(other(self.seat), _int(message["depth"], "the depth")),
                      keys_first=True)

    def _turn_up(self, message: dict[str, Any], action: CutForDeal | CutStarter, keys_first: bool = False) -> None:
        """The other cut and turned up a public card (for deal, or the starter): open its slot for both."""
        k, rec = self._current(message)
        if keys_first:
            self._check_keys()
        self._check_turn(action)
        slot = self.match.state.slot_at(action.depth)
        opened = self._open(rec, k, message["shares"], [slot])
        self._learn(rec, opened)
        self._reply(rec, k, [slot])
        self._apply(action)
        self._after_apply(k)

    def _on_cut(self, message: dict[str, Any]) -> None:
        k, rec = self._current(message)
        action = CutPack(other(self.seat), _int(message["depth"], "the depth"))
        if self._needs_acceptance() and not all(self.accepted):
            raise ProtocolError("a cut before both players accepted the next hand")
        self._check_keys()
        self._check_turn(action)
        slots = self.match.state.deal_slots(action.depth)
        opened = self._open(rec, k, message["shares"], list(slots[self.seat]))
        self._learn(rec, opened)
        self._reply(rec, k, list(slots[other(self.seat)]))
        self._apply(action)

    def _on_discard(self, message: dict[str, Any]) -> None:
        _, rec = self._current(message)
        them = other(self.seat)
        action = Discard(them, ())
        self._check_turn(action)
        raw = message["slots"]
        if not isinstance(raw, list) or len(raw) != 2:
            raise ProtocolError("a discard names two slots")
        slots = [_int(s, "a discarded slot") for s in raw]
        dealt = self.match.state.hand_slots[them]
        if slots[0] == slots[1] or any(s not in dealt for s in slots):
            raise ProtocolError(f"the discard names slots {slots}, not two slots dealt to that player")
        self._apply(action)
        rec.discard_slots[them] = slots

    def _on_starter(self, message: dict[str, Any]) -> None:
        self._turn_up(message, CutStarter(other(self.seat), _int(message["depth"], "the depth")))

    def _on_play(self, message: dict[str, Any]) -> None:
        k, rec = self._current(message)
        them = other(self.seat)
        slot = _int(message["slot"], "the slot laid")
        if slot not in self.match.state.hand_slots[them]:
            raise ProtocolError(f"slot {slot} was not dealt to the player who lays it")
        if slot in (rec.discard_slots[them] or []):
            raise ProtocolError(f"slot {slot} went to the crib: it cannot be laid")
        if slot in rec.laid[them]:
            raise ProtocolError(f"slot {slot} was laid before")
        if self.pending is not None:
            raise ProtocolError("an action while this browser's own action waits for its reply")
        st = self.match.state
        if st.phase is not Phase.PLAY or st.to_play != them:
            raise ProtocolError("the other player lays a card out of turn")
        opened = self._open(rec, k, message["shares"], [slot])
        action = Play(them, opened[slot][0])
        self._check_turn(action)
        self._learn(rec, opened)
        self._apply(action)
        rec.laid[them].append(slot)
        self._after_apply(k)

    def _on_go(self, message: dict[str, Any]) -> None:
        k, _ = self._current(message)
        action = Go(other(self.seat))
        self._check_turn(action)
        self._apply(action)
        self._after_apply(k)

    def _on_count(self, message: dict[str, Any]) -> None:
        k, rec = self._current(message)
        them = other(self.seat)
        action = Count(them)
        st = self.match.state
        if self.pending is not None:
            raise ProtocolError("an action while this browser's own action waits for its reply")
        if st.phase is not Phase.SHOW or them not in st.actors():
            raise ProtocolError("the other player counts out of turn")
        if st.show_step == 2 and st.crib_unseen:
            theirs = rec.discard_slots[them]
            mine = rec.discard_slots[self.seat]
            assert theirs is not None and mine is not None
            opened = self._open(rec, k, message["shares"], list(theirs))
            crib = [self._known(s) for s in mine] + [opened[s][0] for s in theirs]
            self._learn(rec, opened)
            st.reveal_crib(crib)
            self._reply(rec, k, list(mine))
        elif message["shares"] != []:
            raise ProtocolError("a count that opens no cards carries no shares")
        self._check_turn(action)
        self._apply(action)
        self._after_apply(k)

    def _on_shares(self, message: dict[str, Any]) -> None:
        k, rec = self._current(message)
        pending = self.pending
        if pending is None:
            raise ProtocolError("decryption shares that nothing here waits for")
        opened = self._open(rec, k, message["shares"], pending.slots)
        action = pending.action
        st = self.match.state
        self._learn(rec, opened)
        self.pending = None
        if isinstance(action, Count):
            mine = rec.discard_slots[self.seat]
            assert mine is not None
            st.reveal_crib([self._known(s) for s in mine] + [opened[s][0] for s in pending.slots])
        self._apply(action)
        self._after_apply(k)

    def _on_reveal(self, message: dict[str, Any]) -> None:
        k = _int(message["pack"], "the pack number")
        if not 0 <= k < len(self.records):
            raise ProtocolError(f"a key for pack {k + 1}, which does not exist")
        rec = self.records[k]
        if not rec.ended:
            raise ProtocolError(f"a key for pack {k + 1} before that pack is over here")
        if rec.other_key is not None:
            raise ProtocolError(f"a second key for pack {k + 1}")
        rec.other_key = sra.decode_key(message["key"], f"the key of pack {k + 1}", self.group)
        self._jobs.append({"kind": "audit", "pack": k})

    def _on_next(self, message: dict[str, Any]) -> None:
        hand = _int(message["hand"], "the hand number")
        them = other(self.seat)
        st = self.match.state
        if hand != st.hand_number or not self._needs_acceptance() or self.accepted[them]:
            raise ProtocolError("an acceptance of a next hand that is not waiting")
        self.accepted[them] = True
        self._sync_pack()

    # --- applying ------------------------------------------------------------------------------

    def _reply(self, rec: PackRecord, k: int, slots: list[int]) -> None:
        rec.shares_out.extend(slots)
        self._queue_send({"t": "shares", "m": self.match_number, "pack": k}, slots)

    def _apply(self, action: Action) -> None:
        self.match.apply(action)

    def _after_apply(self, k: int) -> None:
        """Close pack ``k`` if the action ended it (a new pack, or the game over), then open the next."""
        if self.source.current != k or self.match.state.is_over:
            rec = self.records[k]
            if not rec.ended:
                rec.ended = True
                rec.end_action = len(self.match.actions)
                if rec.key:
                    self._jobs.append({"kind": "reveal", "pack": k})
        self._sync_pack()

    def _needs_acceptance(self) -> bool:
        st = self.match.state
        return st.phase is Phase.CUT_PACK and st.hand_number >= 2

    def _sync_pack(self) -> None:
        st = self.match.state
        k = self.source.current
        if st.is_over or st.phase not in (Phase.CUT_FOR_DEAL, Phase.CUT_PACK) or k < len(self.records):
            return
        # The next pack is shuffled at once, while the players look at the show: the deal (the cut)
        # is what waits for both to accept the next hand.
        first = st.pone if st.phase is Phase.CUT_PACK and st.pone is not None else 0
        start = self.records[-1].end_action if self.records else 0
        self.records.append(PackRecord(first_seat=first, start_action=start))
        self.accepted = [False, False]
        if first == self.seat:
            self._jobs.append({"kind": "shuffle1", "pack": k})

    def _own_slot(self, card: Card) -> int:
        for slot in self.match.state.hand_slots[self.seat]:
            if self.source.card(slot) == card:
                return slot
        raise IllegalActionError(f"you do not hold {card.pretty}")

    def _known(self, slot: int) -> Card:
        card = self.source.card(slot)
        assert card is not None
        return card


def _checksum(body: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the save without its checksum (catches damage)."""
    payload = {k: v for k, v in body.items() if k != "checksum"}
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


def _elements(values: Any, group: sra.Group) -> list[int] | None:
    if values is None:
        return None
    return [sra.decode_element(v, "a saved value", None, group) for v in values]


def _refusal(state: Any, action: Action) -> str | None:
    """Why the engine refuses ``action`` now, or None if it is legal."""
    try:
        state._check(action)
    except IllegalActionError as exc:
        return str(exc)
    return None


def _int(value: object, what: str, limit: int = 1 << 20) -> int:
    if type(value) is not int or not 0 <= value < limit:
        raise ProtocolError(f"{what} must be a small non-negative integer")
    return value

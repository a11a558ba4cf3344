"""One browser's side of an online match: intents and payloads in, payloads out, every step proven.

An :class:`OnlineGame` holds a :class:`~cribbage.match.Match` whose packs are
:class:`~cribbage.deal.OpenedPacks`, with ``declare_go=True``: the engine is the one rule book, and
this module only decides which slots of the pack to open, for whom, and when. The cryptography of
the deal (key shares, proven shuffles, proven decryption shares) is :mod:`.pack`.

Threat model (docs/protocol.md tells it whole): the other browser runs arbitrary code and the
signalling server may be hostile. Promised, under DDH in the group of the deal (NIST P-256):

- **secrecy**: nothing about this browser's hidden cards (hand, discards, the crib before its
  count) or the undealt pack reaches the other browser beyond what the rules make public: every
  list the other sends is proven a shuffle of the deck before this browser uses it, and this
  browser computes decryption shares only for the slots the engine opens now;
- **soundness**: every step of the other browser is verified before it is used (a key share by a
  Schnorr proof, a shuffle by Wikström's proof, the decryption shares of a message by one batched
  Chaum–Pedersen proof); a failed proof stops the match at once with the evidence as text;
- **fair chance**: the pack's order is uniform if either browser is honest; cut depths stay the
  players' choice.

What cannot be proven when it happens is a *Go* (it depends on cards still hidden). It is checked by
replaying the hand through the engine once the sayer's cards are open: at the end of the play, or,
when the match ends first (someone pegs out) or is abandoned for a new one, by a ``final`` message in
which both open what they still hold, with proofs. The result of a match is *verified* only then
(:attr:`OnlineGame.verification`).

- Local intents: :meth:`act`, :meth:`accept_next_hand`, :meth:`offer_new_match` /
  :meth:`answer_new_match`.
- Received payloads: :meth:`receive` checks the envelope at once (:class:`ProtocolError`, nothing
  changed); the rest (the move's legality, every proof) is checked in order by the queued work, and
  a failure stops the match (``failure`` and ``evidence``) before anything computed from the bad
  input is sent.
- Work: :meth:`step` does some within a time budget (a browser calls it once a frame): first the
  moves (received and sent), then, in the background, the shuffles of the packs ahead (the next
  pack is shuffled and proven while the current hand is played) and this browser's decryption
  shares of every slot of a pack once it is ready (so a move's shares only need their proof). The
  background waits while this browser's own move waits for the other's reply. :meth:`run_all` does
  it all. Payloads to send collect in :meth:`take_outbox`, in order.
- A cut (for deal, of the pack, for the starter) is answered before its shares are checked: the
  answer (this browser's shares of the slots the cut gives the other, or of the card turned up)
  depends only on the cut's depth, checked legal first, and the rules already give the other those
  cards. Nothing is built on the cut's own shares before their proof is checked.

Beside it: :mod:`.wire` (every payload's kind and fields, the envelope checks: the message kinds are
listed there), :mod:`.moves` (the other browser's moves, one handler per kind), :mod:`.jobs` (the queued
work as typed values), :mod:`.pack_work` (shares, opening cards, checking a shuffle), :mod:`.audit` (the
Go audit), :mod:`.records` (each pack's bookkeeping) and :mod:`.game_save` (the save format).
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any, Callable

from ..actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play
from ..cards import Card
from ..deal import OpenedPacks
from ..match import Match
from ..rules import CLASSIC, Rules
from ..state import GameState, IllegalActionError, Phase, other
from ..view import SeatView
from . import elgamal, game_save
from .audit import REPLAY_SLICE, audit_work
from .elgamal import Ciphertext
from .errors import AuditFailure, ProtocolError
from .game_save import SAVE_FORMAT, SAVE_VERSION, OldProtocolSave
from .group import Group, OpCount, Work
from .jobs import (BACKGROUND, AheadJob, AuditJob, Job, KeyJob, MineJob, ReceiveJob, SendJob, ShuffleJob,
                   WorkQueue)
from .moves import HANDLERS, call_refusal, on_reveal, refusal
from .pack import MatchKeys, constants_ready, constants_work, public_deck
from .pack_work import ahead_work, mine_work, verify_shuffle_work
from .records import PackRecord, Pending
from .wire import (EARLY_KINDS, MAX_EARLY_BYTES, MESSAGE_KINDS, check_early, check_fields, check_shape,
                   clean_peer_text, online_rules, small_int)

__all__ = ["OnlineGame", "SAVE_FORMAT", "SAVE_VERSION", "MESSAGE_KINDS", "EARLY_KINDS", "MAX_EARLY_BYTES",
           "OldProtocolSave", "VERIFY_WAIT", "REPLAY_SLICE", "clean_peer_text", "online_rules"]

LOOKAHEAD = 1
"""Packs shuffled ahead of the one in play (the first two packs are shuffled at once, one by each)."""
VERIFY_WAIT = 30.0
"""Seconds after the end of a match this browser waits for the other's cards before giving up."""

Clock = Callable[[], float]


class OnlineGame:
    """One browser's side of an online match (seat 0 or 1), driven by intents and payloads."""

    def __init__(self, seat: int, names: tuple[str, str] = ("Seat 1", "Seat 2"), *, room: str = "",
                 randbelow: Callable[[int], int] = secrets.randbelow, clock: Clock = time.perf_counter,
                 group: Group | None = None, rules: Rules = CLASSIC) -> None:
        if seat not in (0, 1) or type(seat) is not int:
            raise ValueError("a seat is 0 or 1")
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules value, not {rules!r}")
        self.rules = online_rules(rules.to_json())
        """The table (two players; both browsers' must be equal: the ``key`` payload says it, and every
        proof's statement holds it)."""
        self.seat = seat
        self.names = (str(names[0]), str(names[1]))
        self.room = str(room)
        self.randbelow = randbelow
        self.group = group if group is not None else game_save.default_group()
        """The group of the deal (tests may use a small one for speed)."""
        self.clock = clock
        self.match_number = 0
        self.sent = 0
        """Payloads sent in this match (the next one's ``n``)."""
        self.received = 0
        """Payloads taken from the other browser in this match (the ``n`` expected next)."""
        self.failure: str | None = None
        """Why the match stopped (a proof failed, a Go was false, or the other browser stopped it)."""
        self.evidence: dict[str, object] = {}
        self.peer_reason: str = ""
        """The other browser's own words when it stopped the match (cleaned; shown in quotes)."""
        self.new_match_offer: int | None = None
        """The seat whose offer of a new match is waiting for an answer."""
        self.settling = False
        """A new match is agreed: it starts once the other opened what it held in the hand abandoned."""
        self._early: list[dict[str, Any]] = []
        """Payloads of the next match that came while this one settles."""
        self._outbox: list[dict[str, Any]] = []
        self.revision = 0
        """Counts finished pieces of work: a slice that finished none changed nothing worth saving
        (work in progress is never saved; it starts again after a reload)."""
        self.work = WorkQueue(None if constants_ready(self.group) else constants_work(self.group))
        """The queued work (:mod:`.jobs`): the moves, then the constants of the group and the packs ahead."""
        self._deck_texts: dict[int, tuple[list[Ciphertext], str]] = {}
        """id(deck) -> (the deck, its ciphertexts as canonical JSON): each deck is encoded once for the saves."""
        self._reset_match(self.group.random_scalar(randbelow))

    def _reset_match(self, secret: int) -> None:
        self.keys = MatchKeys(self.group, self.room, self.match_number, self.seat, secret, self.rules)
        self.source = OpenedPacks()
        self.match = Match(0, humans=(self.seat,), names=self.names, source=self.source, declare_go=True,
                           rules=self.rules)
        self.records: list[PackRecord] = []
        self.learned: list[tuple[int, int, Card]] = []
        """(action index, slot, card) for every slot opened here, so a reload replays what was known when."""
        self.pending: Pending | None = None
        self.accepted = [False, False]
        self.final_sent = False
        self.final_checked = False
        """The other's ``final`` came and the replay of the whole match with its cards passed."""
        self.gave_up = False
        """The other did not open its cards within :data:`VERIFY_WAIT` of the end (or left)."""
        self.over_at: float | None = None
        self.work.drop()
        self.work.add(KeyJob())

    # --- queries -------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The engine state (this browser's knowledge only)."""
        return self.match.state

    @property
    def ops(self) -> OpCount:
        """Group work counted (for the benchmark; shared by every game of the same group)."""
        return self.group.ops

    def view(self) -> SeatView:
        """What the local player may know now."""
        return self.match.view(self.seat)

    @property
    def busy(self) -> bool:
        """True while work can go on now (moves to check or send, shuffles to make or verify).

        The shuffles of the packs ahead wait while this browser's own move waits for the other's
        reply: then the reply is checked the moment it comes, with no slice of a shuffle before it."""
        return self.work.busy(self.pending is None)

    @property
    def moving(self) -> bool:
        """True while a move waits to be checked or sent (the background shuffles aside)."""
        return self.work.moving

    @property
    def next_job(self) -> str:
        """The kind of the work that runs next, for a trace ("recv count", "send shares", "verify"...;
        "" when none): kinds only, never a value."""
        return self.work.label(self.pending is None)

    @property
    def audit_pending(self) -> bool:
        """True while the end of the match waits for the other's cards or their check here."""
        return self.match.state.is_over and not self.final_checked

    @property
    def pack(self) -> PackRecord | None:
        """The record of the pack in play, if its shuffle has begun."""
        k = self.source.current
        return self.records[k] if 0 <= k < len(self.records) else None

    @property
    def verification(self) -> str | None:
        """None while the match goes on; then ``verified`` (every card and Go checked), ``waiting``
        (for the other's cards, up to :data:`VERIFY_WAIT`), ``stands`` (the other lost and did not
        open its cards: the win stands) or ``unverified`` (the other won and did not open them)."""
        if not self.match.state.is_over:
            return None
        if self.final_checked:
            return "verified"
        if self.gave_up:
            return "stands" if self.match.state.winner == self.seat else "unverified"
        return "waiting"

    def waiting_for(self) -> str | None:
        """Why the local player cannot act now, or None."""
        if self.failure:
            return "the match has stopped"
        if self.settling:
            return "the other browser to open the cards it held in the hand abandoned"
        if self.new_match_offer is not None:
            return "the answer to the offer of a new match"
        if self.pending is not None:
            return "the other browser's decryption"
        if any(isinstance(j, ReceiveJob) for j in self.work.fg):
            return "the other browser's move to be checked"
        st = self.match.state
        if st.is_over:
            return None
        if self._needs_acceptance() and not all(self.accepted):
            if not self.accepted[self.seat]:
                return "your acceptance of the next hand"
            return "the other player to accept the next hand"
        rec = self.pack
        if rec is None or not rec.ready:
            return "the shuffle"
        if self._crib_turn_due():
            return "the crib to be turned"
        return None

    def legal_actions(self) -> list[Action]:
        """The local player's legal actions now (none while waiting). Online a call of muggins in the
        play is made on one's turn only (:func:`~.moves.call_refusal`)."""
        if self.waiting_for() is not None:
            return []
        st = self.match.state
        return [a for a in st.legal_actions(self.seat) if call_refusal(st, a) is None]

    def can_accept_next_hand(self) -> bool:
        """True when the next hand waits for this player's acceptance."""
        return (not self.failure and not self.settling and self._needs_acceptance()
                and not self.accepted[self.seat])

    def take_outbox(self) -> list[dict[str, Any]]:
        """The payloads to send, oldest first (each JSON-able); the outbox is then empty."""
        out, self._outbox = self._outbox, []
        return out

    def tick(self, now: float) -> None:
        """Call now and then with the wall clock: gives up waiting for the other's cards 30 s after the end."""
        if not self.match.state.is_over or self.final_checked or self.failure:
            return
        if self.over_at is None or now < self.over_at:
            self.over_at = now
        elif now - self.over_at >= VERIFY_WAIT:
            self.gave_up = True

    # --- saves ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything this browser needs to continue after a reload, as plain JSON-able data: its secret
        key share of the match (never sent), never a card of the other's hand before the rules make it
        public (only the cards opened here are kept)."""
        data: dict[str, Any] = json.loads(self.to_json())
        return data

    def to_json(self) -> str:
        """:meth:`to_dict` as canonical JSON text (sorted keys, no spaces, ASCII): what the page saves
        (the format: :mod:`.game_save`)."""
        return game_save.to_json(self)

    @classmethod
    def from_dict(cls, data: Any, *, randbelow: Callable[[int], int] = secrets.randbelow,
                  clock: Clock = time.perf_counter, groups: tuple[Group, ...] = ()) -> "OnlineGame":
        """Rebuild a peer from :meth:`to_dict`; refuse anything doubtful with SaveError.

        ``groups``: the groups a save may name besides P-256 (tests). A save of the earlier protocol
        raises :class:`OldProtocolSave`."""
        return game_save.from_dict(cls, data, randbelow=randbelow, clock=clock, groups=groups)

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
        reason = refusal(st, action) or call_refusal(st, action)
        if reason is not None and not (isinstance(action, Count) and st.show_step == 2 and st.crib_unseen
                                       and st.phase is Phase.SHOW and self.seat in st.actors()):
            raise IllegalActionError(reason)
        rec = self.pack
        assert rec is not None
        k = self.source.current
        base = {"m": self.match_number, "pack": k}
        if isinstance(action, (CutForDeal, CutStarter)):
            slot = st.slot_at(action.depth)
            self.pending = Pending(action, [slot])
            kind = "cutdeal" if isinstance(action, CutForDeal) else "starter"
            self._queue_send({**base, "t": kind, "depth": action.depth}, [slot])
        elif isinstance(action, CutPack):
            slots = st.deal_slots(action.depth)
            self.pending = Pending(action, list(slots[self.seat]))
            self._queue_send({**base, "t": "cut", "depth": action.depth}, list(slots[other(self.seat)]))
            self.work.add(MineJob(k, list(slots[self.seat])))
        elif isinstance(action, Discard):
            laid_away = [self._own_slot(c) for c in action.cards]
            self._apply(action)
            rec.discard_slots[self.seat] = laid_away
            self._queue_send({**base, "t": "discard", "slots": laid_away})
        elif isinstance(action, Play):
            slot = self._own_slot(action.card)
            self._apply(action)
            rec.laid[self.seat].append(slot)
            claim = {} if action.claim is None else {"claim": action.claim}
            self._queue_send({**base, "t": "play", "slot": slot, **claim}, [slot])
            self._after_apply(k)
        elif isinstance(action, Go):
            self._apply(action)
            self._queue_send({**base, "t": "go"})
            self._after_apply(k)
        elif isinstance(action, (Muggins, Pass)):
            self._apply(action)
            self._queue_send({**base, "t": "muggins" if isinstance(action, Muggins) else "pass"})
            self._after_apply(k)
        elif isinstance(action, Count):
            claim = {} if action.claim is None else {"claim": action.claim}
            if st.show_step == 2 and st.crib_unseen:  # (never with muggins: its crib is turned first)
                mine, theirs = self._crib_slots(rec)
                self.pending = Pending(action, theirs)
                self._queue_send({**base, "t": "count", **claim}, mine)
                self.work.add(MineJob(k, list(theirs)))
                return
            self._apply(action)
            self._queue_send({**base, "t": "count", "shares": [], "proof": [], **claim})
            self._after_apply(k)

    def accept_next_hand(self) -> None:
        """Accept that the next hand be dealt (both must, before the pone may cut)."""
        if not self.can_accept_next_hand():
            raise IllegalActionError("there is no next hand to accept now")
        self.accepted[self.seat] = True
        self._queue_send({"t": "next", "m": self.match_number, "hand": self.match.state.hand_number})

    def offer_new_match(self) -> None:
        """Offer the other player a new match (it starts when they accept and the hand is settled)."""
        if self.new_match_offer is not None or self.settling:
            raise IllegalActionError("an offer of a new match is already waiting for an answer")
        if self.pending is not None:
            raise IllegalActionError("wait for the other browser's decryption first")
        self.new_match_offer = self.seat
        self._queue_send({"t": "newmatch", "m": self.match_number, "op": "offer"})

    def answer_new_match(self, accept: bool) -> None:
        """Accept or decline the other player's offer of a new match."""
        if self.new_match_offer != other(self.seat):
            raise IllegalActionError("there is no offer of a new match to answer")
        if accept and self.pending is not None:
            raise IllegalActionError("wait for the other browser's decryption first")
        self.new_match_offer = None
        answer = {"t": "newmatch", "m": self.match_number, "op": "accept" if accept else "decline"}
        if accept and (self.failure is not None or self.final_checked):
            self._emit(answer)  # the new match starts now and drops this match's queue: send it first
        else:
            self._queue_send(answer)
        if accept:
            self._agree_new_match()

    def _agree_new_match(self) -> None:
        """Both agreed: open what this browser holds in the hand abandoned, then wait for the other's."""
        self.settling = True
        self.work.drop_background()
        if self.failure is not None or self.final_checked:
            self._new_match()
        elif not self.final_sent:
            self._send_final()

    def _new_match(self) -> None:
        self.settling = False
        self.new_match_offer = None
        self.match_number += 1
        self.sent = self.received = 0
        self.failure = None
        self.evidence = {}
        self.peer_reason = ""
        self._reset_match(self.group.random_scalar(self.randbelow))
        early, self._early = self._early, []
        for message in early:
            try:
                self.receive(message)
            except ProtocolError as exc:
                self._stop(f"a message of the new match was refused: {exc}", {})
                return

    # --- work ----------------------------------------------------------------------------------

    def step(self, budget_ms: float = 30.0) -> bool:
        """Do queued work for about ``budget_ms`` (one step at least); True while more remains.

        The moves come first (received ones to check, this browser's shares to prove); the shuffles
        of the packs ahead run when no move waits. A move whose payload is ready ends the step, so
        that it is sent before any other work."""
        deadline = self.clock() + budget_ms / 1000.0
        while self.busy:
            try:
                done = self.work.advance(self._start, self.pending is None)
                if done is not None:
                    self.revision += 1
                    if self._outbox and not isinstance(done, BACKGROUND):
                        break  # a move's payload goes out (saved, then sent) before more work
            except AuditFailure as exc:
                self._stop(str(exc), exc.evidence)
                return False
            except ProtocolError as exc:
                self._stop(f"the other browser sent a move this one refuses: {exc}", {"reason": str(exc)})
                return False
            except Exception as exc:  # noqa: BLE001 - a bug must not crash the page: stop the match and say why
                self._stop(f"this browser failed in its own work ({type(exc).__name__}: {exc})", {})
                return False
            if self.clock() >= deadline:
                break
        return self.busy

    def run_all(self) -> None:
        """Do all queued work now (tests, the command line)."""
        while self.step(1e9):
            pass

    def _emit(self, message: dict[str, Any]) -> None:
        """Put a payload in the outbox, numbered: each is unique, so a replayed one is refused."""
        self._outbox.append({**message, "n": self.sent})
        self.sent += 1

    def _queue_send(self, message: dict[str, Any], share_slots: list[int] | None = None, at: int | None = None) -> None:
        """Send ``message`` after the work queued before it (or at place ``at`` of the queue), with this
        browser's proven shares of ``share_slots`` (None: a message that carries no shares)."""
        if share_slots is not None:
            rec = self.records[message["pack"]]
            rec.shares_out.extend(s for s in share_slots if s not in rec.shares_out)
        self.work.add(SendJob(message, share_slots), at)

    def _start(self, job: Job) -> Work[None]:
        if isinstance(job, KeyJob):
            return self._job_key()
        if isinstance(job, SendJob):
            return self._job_send(job.message, job.slots)
        if isinstance(job, ReceiveJob):
            return self._job_recv(job.message, job.replied)
        if isinstance(job, MineJob):
            return mine_work(self.keys, self.records[job.pack], job.slots)
        if isinstance(job, AheadJob):
            return ahead_work(self.keys, self.records[job.pack])
        if isinstance(job, AuditJob):
            return self._job_audit(job.final)
        if isinstance(job, ShuffleJob):
            return self._job_shuffle_first(job.pack)
        return self._job_verify(job.pack)

    def _job_key(self) -> Work[None]:
        body = self.keys.key_message(self.randbelow)
        if not self.rules.is_classic:
            body["rules"] = self.rules.to_json()  # (the classic key payload is as before the rule book)
        yield
        self._emit({"t": "key", "m": self.match_number, **body})
        self._sync_packs()

    def _job_send(self, message: dict[str, Any], slots: list[int] | None) -> Work[None]:
        if slots is None:
            self._emit(message)
            return
        k = message["pack"]
        rec = self.records[k]
        yield from mine_work(self.keys, rec, slots)
        assert rec.deck2 is not None
        shares = yield from self.keys.prove_shares_work(k, slots, [rec.deck2[s] for s in slots],
                                                        [rec.mine[s] for s in slots], self.randbelow)
        # No yield after the emit: a save made while this job was half done redoes the whole job.
        self._emit({**message, **shares.to_wire(self.group)})

    def _job_shuffle_first(self, k: int) -> Work[None]:
        deck1, proof = yield from self.keys.shuffle_and_prove(k, 1, public_deck(self.group), self.randbelow)
        rec = self.records[k]
        rec.deck1 = deck1
        self._emit({"t": "shuffle", "m": self.match_number, "pack": k, "step": 1,
                    "cards": elgamal.encode_ciphertexts(self.group, deck1), "proof": proof})

    def _job_verify(self, k: int) -> Work[None]:
        """Check a received shuffle's proof; the second shuffler then shuffles, the first says ``ready``."""
        rec = self.records[k]
        step, deck, proof = yield from verify_shuffle_work(self.keys, rec, k, self.randbelow)
        if step == 1:
            self._emit({"t": "shuffle", "m": self.match_number, "pack": k, "step": 2,
                        "cards": elgamal.encode_ciphertexts(self.group, deck), "proof": proof})
        else:
            self._emit({"t": "ready", "m": self.match_number, "pack": k})
            self.work.add_background(AheadJob(k))
        # Only now, with no yield after the emit: a save made while this job was half done (a page
        # killed or reloaded mid-shuffle) still holds the shuffle to check, and the job starts over.
        rec.incoming = None

    def _job_recv(self, message: dict[str, Any], replied: bool) -> Work[None]:
        if self.failure and message["t"] != "newmatch":
            return
        if message["t"] in ("cut", "cutdeal", "starter"):
            yield from on_reveal(self, message, replied)
            return
        yield from HANDLERS[message["t"]](self, message)

    def _job_audit(self, final: bool) -> Work[None]:
        """Replay the match with every card known here: the engine judges each Go (and every move)."""
        yield from audit_work(self.seat, self.rules, self.match.actions, self.source.packs, self.records)
        if final:
            self.final_checked = True
            self.gave_up = False
            if self.settling:
                self._new_match()

    def _stop(self, reason: str, evidence: dict[str, object]) -> None:
        self.failure = reason
        self.evidence = dict(evidence)
        self.work.drop(warm=True)
        self.pending = None
        self.settling = False
        self._emit({"t": "abort", "m": self.match_number, "reason": clean_peer_text(reason)})

    # --- receiving -----------------------------------------------------------------------------

    def receive(self, message: object) -> None:
        """Take one payload from the other browser.

        Its envelope (kind, fields, match and message numbers, the shape of its values) is checked
        now: :class:`ProtocolError`, nothing changed. The move itself and its proofs are checked in
        order by the queued work (:meth:`step`); a failure there stops the match."""
        kind, message = check_fields(message, self.rules)
        m = small_int(message["m"], "the match number")
        if m == self.match_number + 1 and (self.settling or self.new_match_offer == self.seat):
            # (the other accepted this browser's offer and began the new match: its accept is queued here)
            check_early(kind, message, self._early)  # (only the few it may send before this browser begins it)
            self._early.append(message)
            return
        if m < self.match_number and kind != "newmatch":
            return  # sent before the other saw the new match begin: it no longer matters
        if m != self.match_number:
            raise ProtocolError(f"a message for match {m}, but this is match {self.match_number}")
        n = small_int(message["n"], "the message number", 1 << 40)
        if n != self.received:
            raise ProtocolError(f"message number {n} where {self.received} was expected (replayed or lost)")
        check_shape(kind, message)
        if kind == "discard" and len(message["slots"]) != self.rules.discards:
            raise ProtocolError("a discard names two slots" if self.rules.discards == 2 else "a discard names one slot")
        self.received += 1
        if kind == "abort":
            if self.failure is None:
                self.peer_reason = clean_peer_text(message["reason"])
                self.failure = "the other browser stopped the match"
                self.work.drop(warm=True)
                self.pending = None
                self.settling = False
            return
        if self.failure and kind != "newmatch":
            return  # the match has stopped: the rest of its moves are read and ignored
        self.work.add(ReceiveJob(message))  # checked in order by step()

    # --- the crib -------------------------------------------------------------------------------

    def _crib_slots(self, rec: PackRecord) -> tuple[list[int], list[int]]:
        """(the slots whose shares this browser sends, the slots it opens with the other's shares) to
        turn the crib: its own discards and the other's, each with the crib's cards from the pack
        (opened to nobody until now: both shares are needed)."""
        mine, theirs = rec.discard_slots[self.seat], rec.discard_slots[other(self.seat)]
        assert mine is not None and theirs is not None
        pack = list(self.match.state.crib_slots)
        return [*mine, *pack], [*theirs, *pack]

    def _crib_turn_due(self) -> bool:
        """With muggins: the show has come to a crib still face down here (it is turned before its
        owner claims it, so the claim can be checked, and the other can call muggins on it)."""
        st = self.match.state
        return (self.rules.muggins and st.phase is Phase.SHOW and st.show_step == self.rules.players
                and st.crib_unseen > 0 and st.claim is None)

    def _turn_crib_if_open(self) -> None:
        """Turn the crib over in the engine once every card of it is open here (at the show only)."""
        st = self.match.state
        rec = self.pack
        if (st.phase is not Phase.SHOW or st.show_step != self.rules.players or not st.crib_unseen
                or rec is None or any(d is None for d in rec.discard_slots)):
            return
        slots = [*st.crib_slots, *(s for seat in (0, 1) for s in rec.discard_slots[seat] or [])]
        cards = [self.source.card(s) for s in slots]
        if all(c is not None for c in cards):
            st.reveal_crib([c for c in cards if c is not None])

    def _start_crib_turn(self) -> None:
        """The dealer, with muggins: send its shares of the crib, and wait for the other's."""
        st = self.match.state
        if (self.failure or self.settling or self.pending is not None or not self._crib_turn_due()
                or st.dealer != self.seat):
            return
        k = self.source.current
        mine, theirs = self._crib_slots(self.records[k])
        self.pending = Pending(None, theirs)
        self._queue_send({"t": "crib", "m": self.match_number, "pack": k}, mine)
        self.work.add(MineJob(k, list(theirs)))

    # --- applying ------------------------------------------------------------------------------

    def _reply(self, k: int, slots: list[int]) -> None:
        self._queue_send({"t": "shares", "m": self.match_number, "pack": k}, slots)

    def _apply(self, action: Action) -> None:
        before = self.match.state.phase
        self.match.apply(action)
        st = self.match.state
        if before is Phase.PLAY and st.phase is not Phase.PLAY and not st.is_over:
            self.work.add(AuditJob())  # every card of the play is open: judge each Go now

    def _after_apply(self, k: int) -> None:
        """Close pack ``k`` if the action ended it, open the next; at the end, open what is still held."""
        rec = self.records[k]
        if (self.source.current != k or self.match.state.is_over) and not rec.ended:
            rec.ended = True
            rec.end_action = len(self.match.actions)
            rec.deck1 = None  # the slots still needed are in deck2
            rec.ahead = {}
        if self.match.state.is_over:
            self.work.drop_background()
            if not self.final_sent:
                self._send_final()
        self._start_crib_turn()
        self._sync_packs()

    def _unopened_kept(self, seat: int) -> list[int]:
        """``seat``'s slots of the pack in play it still holds, unopened to the other (after its discard)."""
        rec = self.pack
        if rec is None or rec.discard_slots[seat] is None:
            return []
        gone = set(rec.discard_slots[seat] or []) | set(rec.laid[seat])
        return [s for s in self.match.state.hand_slots[seat] if s not in gone]

    def _send_final(self) -> None:
        self.final_sent = True
        k = max(self.source.current, 0)
        rec = self.pack
        slots = self._unopened_kept(self.seat) if rec is not None and rec.ready else []
        if rec is None or not rec.ready:
            self._emit({"t": "final", "m": self.match_number, "pack": k, "shares": [], "proof": []})
        else:
            self._queue_send({"t": "final", "m": self.match_number, "pack": k}, slots)

    def _needs_acceptance(self) -> bool:
        st = self.match.state
        return st.phase is Phase.CUT_PACK and st.hand_number >= 2

    def _sync_packs(self) -> None:
        """Start the packs ahead once both key shares are known; mark the pack in play."""
        st = self.match.state
        k = self.source.current
        if 0 <= k < len(self.records) and self.records[k].start_action < 0:
            self.records[k].start_action = self.records[k - 1].end_action if k > 0 else 0
        if st.is_over or self.failure or self.settling or not self.keys.ready:
            return
        while len(self.records) <= max(k, 0) + LOOKAHEAD:
            n = len(self.records)
            self.records.append(PackRecord(first_seat=n % 2, start_action=0 if n == 0 else -1))
            if n % 2 == self.seat:
                self.work.add_background(ShuffleJob(n))

    def _own_slot(self, card: Card) -> int:
        for slot in self.match.state.hand_slots[self.seat]:
            if self.source.card(slot) == card:
                return slot
        raise IllegalActionError(f"you do not hold {card.pretty}")

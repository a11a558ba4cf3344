"""One seat's side of an online match at a table of three or four (partners included): the game layer
over the proven deal.

A :class:`TableGame` owns a :class:`~.table_deal.TableDeal` (the cards, the proofs, one story for every
seat) and a :class:`~cribbage.match.Match` (the rule book) whose packs are an
:class:`~cribbage.deal.OpenedPacks` filled only with the cards the deal opens for this seat. The match
is a *function of the deal's story*: every round of a pack, once every seat has echoed it
(:meth:`Story.confirmed <.table_chain.Story.confirmed>`), is turned into the match's actions, in the
story's order, the same at every seat; nothing a seat says reaches the match before that. So a reload
rebuilds the match by replaying the deal (:meth:`TableGame.from_dict`), and every seat's game opens
the same next round from the same story (whose turn it is, the crib's round, the audit, an agreement).

The rounds of a pack (:mod:`.table_deal`) become, in order: ``cut`` + ``deal`` -> ``CutPack`` (once this
seat's cards are open), ``discard`` -> one ``Discard`` per seat (hidden seats: no cards), ``starter`` +
``turn`` -> ``CutStarter``; then rounds this module opens: a *turn* (``lay``: a ``Play`` of the card
opened; ``say`` ``{"act": text}``: a Go, a count or claim, a call of muggins or a pass, by
:func:`~cribbage.actions.parse_action`), the *crib* (the show reaches a crib face down: it opens for
all, :meth:`GameState.reveal_crib`), the *reveal* (the match is over: every hand opens for the audit)
and an *agreement* (every seat says ``{"agree": "next"}`` before the next pack is cut, and
``{"agree": "new"}`` or ``"leave"`` at the end of a match). Calls of muggins in the show are one round
of every caller; they apply clockwise from the claimant's left, and once the claim is settled the later
calls lapse.

The audit: a second match with every card known (:attr:`TableGame.probe`) replays each pack's actions
once every card of that pack's hands is open here (after the crib's round, or the reveal at the end of
the match); any action the rules refuse with all cards known (a false Go) stops the match with the
evidence, before this seat sends anything more. The result is *verified* once the last pack passed.

The crypto work waits in an inbox: :meth:`receive` only queues; :meth:`work` does one *step* at a time
within a time budget, each step a few scalar multiplications at most (about 15 ms of CPython on P-256,
so under 50 ms inside Pyodide): a message taken in (a shuffle received is first checked in slices,
:meth:`TableDeal.check_ahead <.table_deal.TableDeal.check_ahead>`, while the messages of other packs go
on), a slice of this seat's own shuffle or shares (:class:`~.table_deal.DealJob`) or of its shares computed
ahead. The next pack is begun, shuffled and proven by every seat while the hand is played (once the
current pack's cards are out), so the deal after "next hand" needs only the cut and the decryption
shares. See docs/protocol.md, "Three and four seats: the game", and docs/performance.md.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..actions import (Action, ActionError, Count, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play,
                       parse_action)
from ..cards import Card
from ..deal import OpenedPacks
from ..match import Match, SaveError
from ..rules import Rules
from ..state import MIN_CUT, IllegalActionError, Phase
from ..view import SeatView
from .errors import ProtocolError
from .group import Group, Work
from .pack import PACK_SIZE
from .table_audit import replay_open
from .table_deal import TableDeal

__all__ = ["TableGame", "SAVE_FORMAT", "SAVE_VERSION", "HOST", "ENDED"]

SAVE_FORMAT = "cribbage-table-game"
SAVE_VERSION = 1
HOST = 0
"""The seat that opened the room: it may end the match with an unverified result."""
ENDED = "the host ended the match"
"""The reason every seat gives when the host ends the match (its ``abort`` carries it)."""
_SAID = (Go, Count, Muggins, Pass)
"""The actions a ``say`` may carry (a card goes as a ``lay``; a discard and the cuts have their rounds)."""


@dataclass
class _Fixed:
    """What the fixed rounds of a pack told so far (depths wait for the round that opens their cards)."""

    cut: int | None = None
    starter: int | None = None


class TableGame:
    """Seat ``seat`` of a table of ``rules.players`` (3 or 4: two-player rooms keep :class:`~.game.OnlineGame`,
    its messages and its saves). Broadcast :meth:`take_outbox` to every other seat; hand every message
    received to :meth:`receive` with its sender, then call :meth:`work`."""

    def __init__(self, seat: int, *, rules: Rules, names: tuple[str, ...] = (), room: str = "", match: int = 0,
                 group: Group | None = None, seed: bytes | None = None,
                 randbelow: Callable[[int], int] | None = None, _deal: TableDeal | None = None) -> None:
        if not isinstance(rules, Rules):
            raise TypeError("rules must be a Rules value")
        if rules.players < 3:
            raise ValueError("a table game is for three or four seats (two play OnlineGame)")
        if rules.play_muggins:
            raise ValueError("muggins in the play is not offered online at three or four yet")
        if type(seat) is not int or not 0 <= seat < rules.players:
            raise ValueError(f"a seat is 0 to {rules.players - 1}")
        self.rules = rules
        self.seat = seat
        self.n = rules.players
        self.names = tuple(str(x) for x in names[:self.n]) + tuple(
            f"Seat {i + 1}" for i in range(len(names), self.n))
        self.room, self.group = room, group
        self.deal = _deal if _deal is not None else TableDeal(
            seat, rules=rules, room=room, match=match, group=group, seed=seed, randbelow=randbelow, sliced=True)
        self.inbox: list[tuple[int, Any]] = []
        """Messages received and not yet taken in (:meth:`work`)."""
        self.checking: tuple[Any, Work[None]] | None = None
        """A shuffle of the inbox being checked ahead, a slice per step (never saved: a reload checks again)."""
        self.refused: list[str] = []
        """Why each message refused on receipt was refused (a replay, one out of turn: nothing changed)."""
        self.ended = False
        """The host ended the match: its result stands unverified."""
        self.early: list[tuple[int, Any]] = []
        """Messages of the next match's keys that came before every seat's agreement was confirmed here."""
        self._reset()

    def _reset(self) -> None:
        self.match: Match | None = None
        self.source = OpenedPacks()
        self.probe: Match | None = None
        """The audit's match: every card known, each pack replayed once all its hands are open here."""
        self.probe_source = OpenedPacks()
        self.history: list[tuple[int, Action]] = []
        """(pack, action) of every action applied to the match, in order (the probe replays it)."""
        self.audited = 0
        self.done: dict[int, int] = {}
        """Pack -> the rounds of its story turned into the match's actions so far."""
        self.fixed: dict[int, _Fixed] = {}
        self.agreed: dict[int, str] = {}
        """Pack -> what every seat agreed in its agreement round (``next``, ``new``, ``leave``)."""
        self.first_dealer: int | None = None
        self.new_match_due = False

    # --- queries --------------------------------------------------------------------------------

    @property
    def failure(self) -> str | None:
        """Why the match stopped (a false proof, another story, a move the rules refuse, a false Go, another
        seat's abort, the host's end), or None."""
        return self.deal.failure

    def status(self) -> str:
        """``keys`` (the joint key is being made), ``playing``, ``auditing`` (the match is over, the hands
        being opened), ``verified``, ``ended`` (by the host: unverified), ``stopped``."""
        if self.ended or (self.failure or "").endswith(ENDED):
            return "ended"
        if self.failure is not None:
            return "stopped"
        if self.match is None:
            return "keys"
        if self.match.state.is_over:
            return "verified" if self.verified else "auditing"
        return "playing"

    @property
    def verified(self) -> bool:
        """The match is over and every action of it replayed with every card known."""
        return (self.match is not None and self.match.state.is_over and self.failure is None
                and self.audited == len(self.history))

    def view(self) -> SeatView | None:
        """What this seat may know now (None before the first deal's keys)."""
        return None if self.match is None else self.match.view(self.seat)

    def take_outbox(self) -> list[dict[str, Any]]:
        return self.deal.take_outbox()

    @property
    def busy(self) -> bool:
        """:meth:`work` has something to do now (a message to take or check, this seat's own work)."""
        if self.failure is not None:
            return False
        return self._next_message() is not None or self.checking is not None or self.deal.busy

    @property
    def moving(self) -> bool:
        """Work a move waits for: a message to take in, or this seat's shares of a round of the hand (its
        card's, the starter's, the show's). The rest of :attr:`busy` is background: the next pack's
        shuffles, their checks and the shares computed ahead, done while the hand is played."""
        if self.failure is not None:
            return False
        return self._next_message() is not None or any(job.kind != "shuffle" for job in self.deal.jobs)

    def _k(self) -> int:
        """The deal's pack of the hand in play."""
        assert self.match is not None
        return self.match.state.hand_number - 1

    def _may_speak(self, k: int, phase: str) -> bool:
        p = self.deal.packs.get(k)
        return (p is not None and p.phase == phase and p.intent is None and p.story.usable
                and self.seat in (p.story.speakers or ()) and self.seat not in p.story.got
                and self.done.get(k, 0) == p.story.round)

    def legal(self) -> list[Action]:
        """This seat's legal actions now (none while waiting for the deal or the other seats)."""
        if self.failure is not None or self.match is None or self._next_message() is not None:
            return []
        st = self.match.state
        k = self._k()
        if st.phase is Phase.CUT_PACK:
            if st.cutter != self.seat or (k > 0 and self.agreed.get(k - 1) != "next"):
                return []
            p = self.deal.packs.get(k)
            if p is None or p.phase != "cut" or not self._may_speak(k, "cut"):
                return []
            return [CutPack(self.seat, d) for d in range(MIN_CUT, PACK_SIZE - MIN_CUT + 1)]
        phase = {Phase.DISCARD: "discard", Phase.CUT_STARTER: "starter", Phase.PLAY: "play", Phase.SHOW: "play"}
        if st.phase not in phase or not self._may_speak(k, phase[st.phase]):
            return []
        p = self.deal.packs[k]
        if st.phase in (Phase.PLAY, Phase.SHOW) and (p.story.kinds != ("lay", "say") or self._agreeing(k)):
            return []
        return list(st.legal_actions(self.seat))

    def _agreeing(self, k: int) -> bool:
        """The round open on pack ``k`` is an agreement: every seat speaks in it (a turn of the game never has
        every seat of three or four: one player, or the callers of muggins of the other sides)."""
        p = self.deal.packs.get(k)
        return p is not None and p.story.kinds == ("lay", "say") and p.story.speakers == tuple(range(self.n))

    @property
    def _agreement_rounds(self) -> list[int]:
        return [k for k in sorted(self.deal.packs) if self._agreeing(k)]

    def can_agree(self) -> str | None:
        """What this seat is asked to agree to now: ``next`` (the next hand), ``new`` (a new match), or None."""
        if self.failure is not None or self.match is None:
            return None
        for k in list(self._agreement_rounds):
            if self._may_speak(k, "play"):
                return "new" if self.match.state.is_over else "next"
        return None

    # --- the local player ---------------------------------------------------------------------

    def act(self, action: Action) -> None:
        """The local player's action: sent as a deal message; it reaches the match once every seat has it.
        :class:`IllegalActionError` (nothing changes) when it is not legal now."""
        if action not in self.legal():
            raise IllegalActionError(f"'{action}' is not yours to make now")
        assert self.match is not None
        k = self._k()
        if isinstance(action, CutPack):
            self.deal.cut(k, action.depth)
        elif isinstance(action, Discard):
            self.deal.discard(k, [self._slot(k, c) for c in action.cards])
        elif isinstance(action, CutStarter):
            self.deal.cut_starter(k, action.depth)
        elif isinstance(action, Play):
            self.deal.lay(k, self._slot(k, action.card))
        else:
            self.deal.say(k, {"act": str(action)})
        self._sync()

    def agree(self, answer: str = "next") -> None:
        """Between hands: ``next`` (deal the next hand) or ``new`` (ask for a new match instead); when the
        match is over: ``new`` (a new match) or ``leave``. All ``next``: the next hand; all ``new``: a new
        match; between hands, anything mixed asks every seat again; at the end, anything mixed ends."""
        asked = self.can_agree()
        allowed = ("next", "new") if asked == "next" else ("new", "leave")
        if asked is None or answer not in allowed:
            raise IllegalActionError("there is nothing to agree to now" if asked is None
                                     else f"the answer now is {' or '.join(allowed)}")
        self.deal.say(self._agreement_rounds[0], {"agree": answer})
        self._sync()

    def end_match(self) -> None:
        """The host ends the match (a seat has gone, or will not agree): every seat stops, the result unverified."""
        if self.seat != HOST:
            raise IllegalActionError("only the host may end the match")
        self.ended = True
        self.deal.stop(ENDED)

    def _slot(self, k: int, card: Card) -> int:
        p = self.deal.packs[k]
        assert p.layout is not None
        return next(s for s in p.layout.hands[self.seat] if p.cards.get(s) == card)

    # --- messages in ----------------------------------------------------------------------------

    def receive(self, sender: int, message: Any) -> None:
        """Queue a message from seat ``sender`` (as its authenticated link says); :meth:`work` takes it in."""
        self.inbox.append((sender, message))

    def work(self, budget: float | None = None, clock: Callable[[], float] = time.perf_counter) -> None:
        """Do queued work a step at a time (:meth:`step`) until ``budget`` seconds have passed (None: all of
        it; 0: one step)."""
        start = clock()
        while self.failure is None and self.step():
            if budget is not None and clock() - start >= budget:
                return
        if self.failure is not None:
            self.inbox.clear()
            self.checking = None
        self._sync()

    def step(self) -> bool:
        """One step of work, the most urgent first: a message that may be taken in (in order, but for the
        messages of a pack whose shuffle waits to be checked); a slice of a shuffle's check; a slice of this
        seat's own work (:meth:`TableDeal.work_step <.table_deal.TableDeal.work_step>`). False: none now."""
        if self.failure is not None:
            return False
        i = self._next_message()
        if i is not None:
            self._take(*self.inbox.pop(i))
            self._sync()
            return True
        if self.checking is not None:
            try:
                next(self.checking[1])
            except StopIteration:
                self.checking = None
            return True
        if self.deal.work_step():
            self._sync()
            return True
        return False

    def _next_message(self) -> int | None:
        """The inbox's first message that may be taken in now (starting the check of a shuffle that must be
        checked first): the messages of a pack wait behind its shuffle being checked (or of a pack not begun
        here yet), those of other packs and of the keys go on."""
        waiting: set[object] = set()
        for i, (sender, message) in enumerate(self.inbox):
            pack = message.get("p") if isinstance(message, dict) else None
            pack = pack if type(pack) is int else None
            if pack in waiting:
                continue
            if self.checking is not None and self.checking[0] is message:
                waiting.add(pack)
                continue
            ready = self.deal.check_ahead(sender, message)
            if ready is True:
                return i
            waiting.add(pack)
            if ready is not False and self.checking is None:
                self.checking = (message, ready)
        return None

    def _take(self, sender: int, message: Any) -> None:
        try:
            self.deal.receive(sender, message)
        except ProtocolError as exc:
            if (isinstance(message, dict) and message.get("p") == -1 and message.get("t") in ("key", "ack")
                    and self.match is not None and self.match.state.is_over and len(self.early) < 4 * self.n):
                self.early.append((sender, message))  # the next match's keys, from a seat that switched first
            else:
                self.refused.append(str(exc))

    # --- the match from the story -------------------------------------------------------------

    def _sync(self) -> None:
        """Bring the match up to the confirmed story, then open the next round the match needs."""
        for _ in range(10_000):
            if self.failure is not None:
                return
            try:
                moved = self._step()
            except (IllegalActionError, ProtocolError, ValueError) as exc:
                self.deal.stop(str(exc), getattr(exc, "evidence", {}))
                return
            if not moved:
                return

    def _step(self) -> bool:
        d = self.deal
        if self.new_match_due:
            self._new_match()
            return True
        if self.match is None:
            if not d.keys_ready:
                return False
            self.first_dealer = int(d.key_story.hashes[1], 16) % self.n
            self.match = Match(0, humans=(self.seat,), names=self.names, source=self.source, declare_go=True,
                               rules=self.rules, first_dealer=self.first_dealer)
            self.probe = Match(0, humans=(), names=self.names, source=self.probe_source, declare_go=True,
                               rules=self.rules, first_dealer=self.first_dealer)
            return True
        st = self.match.state
        k = self._k()
        if not st.is_over:
            for j in (k, k + 1):  # the next pack is shuffled while this hand is played (once its cards are out)
                if j == k + 1 and (k not in d.packs or d.packs[k].phase != "play"):
                    continue
                if j not in d.packs:
                    d.start_pack(j, ((self.first_dealer or 0) + j) % self.n)
                    return True
        for j in sorted(d.packs):
            if self._take_rounds(j):
                return True
        if self._audit():
            return True
        return self._open_next(k)

    def _take_rounds(self, k: int) -> bool:
        """Turn the next confirmed round of pack ``k`` into the match's actions (if the match is there)."""
        assert self.match is not None
        p = self.deal.packs[k]
        r = self.done.get(k, 0)
        if r >= len(p.story.rounds) or not p.story.confirmed(r):
            return False
        n = self.n
        st = self.match.state
        here = st.hand_number - 1 == k
        msgs = p.story.rounds[r]
        fixed = self.fixed.setdefault(k, _Fixed())
        if n <= r <= n + 4 and not here:
            return False  # a pack cut ahead of its hand waits for it
        if r == n:
            if k > 0 and self.agreed.get(k - 1) != "next":
                return False  # (a cut before every seat agreed: used only once they have)
            fixed.cut = msgs[(p.dealer - 1) % n]["depth"]
        elif r == n + 1:
            assert p.layout is not None and fixed.cut is not None
            for slot in p.layout.hands[self.seat]:
                self.source.learn(slot, p.cards[slot])
            self._apply(k, CutPack((p.dealer - 1) % n, fixed.cut))
        elif r == n + 2:
            for seat in range(n):
                cards = tuple(p.cards[s] for s in p.discards[seat]) if seat == self.seat else ()
                self._apply(k, Discard(seat, cards))
        elif r == n + 3:
            fixed.starter = msgs[(p.dealer + 1) % n]["depth"]
        elif r == n + 4:
            assert p.starter is not None and fixed.starter is not None
            self.source.learn(p.starter, p.cards[p.starter])
            self._apply(k, CutStarter((p.dealer + 1) % n, fixed.starter))
        elif r > n + 4:
            self._take_open_round(k, msgs)
        self.done[k] = r + 1
        return True

    def _take_open_round(self, k: int, msgs: dict[int, dict[str, Any]]) -> None:
        assert self.match is not None
        p = self.deal.packs[k]
        st = self.match.state
        kinds = {m["t"] for m in msgs.values()}
        if len(msgs) == self.n and kinds == {"say"}:  # an agreement
            answers = set()
            for seat, m in msgs.items():
                value = m.get("value")
                if m["t"] != "say" or not isinstance(value, dict) or set(value) != {"agree"} \
                        or value["agree"] not in ("next", "new", "leave"):
                    raise ProtocolError(f"seat {seat + 1} answered the agreement with something else")
                answers.add(value["agree"])
            if len(answers) > 1 and not st.is_over:
                return  # between hands, no agreement: every seat is asked again
            self.agreed[k] = answers.pop() if len(answers) == 1 else "leave"
            if self.agreed[k] == "new":
                self.new_match_due = True
            return
        if kinds == {"crib"}:
            crib = [p.cards[s] for s in [*(x for d in p.discards.values() for x in d)]]
            assert p.layout is not None
            crib += [p.cards[s] for s in p.layout.crib_pack]
            st.reveal_crib(crib)
            return
        if kinds == {"reveal"}:
            return
        order = st.actors() if st.phase is Phase.SHOW and st.claim is not None else sorted(msgs)
        claim = st.claim
        for seat in order:
            m = msgs[seat]
            if m["t"] == "lay":
                action: Action = Play(seat, p.cards[m["slot"]])
            else:
                value = m["value"]
                try:
                    if not isinstance(value, dict) or set(value) != {"act"} or not isinstance(value["act"], str):
                        raise ActionError("not an action")
                    action = parse_action(value["act"])
                except ActionError as exc:
                    raise ProtocolError(f"seat {seat + 1} said something that is not an action of the game") from exc
                if not isinstance(action, _SAID) or action.seat != seat:
                    raise ProtocolError(f"seat {seat + 1} said '{value['act'][:40]}', not an action of its own")
                if isinstance(action, (Muggins, Pass)) and claim is not None and self.match.state.claim is not claim:
                    continue  # the claim was settled by an earlier call of this round: this one lapses
            self._apply(k, action)

    def _apply(self, k: int, action: Action) -> None:
        assert self.match is not None
        try:
            self.match.apply(action)
        except IllegalActionError as exc:
            raise ProtocolError(f"seat {action.seat + 1}'s move '{action}' is against the rules: {exc}") from exc
        self.history.append((k, action))

    def _audit(self) -> bool:
        """Replay on the probe every action whose pack has every hand open here (:mod:`.table_audit`); a
        refusal stops the match."""
        assert self.probe is not None
        before = self.audited
        self.audited = replay_open(self.probe, self.probe_source, self.history, self.audited, self.deal.packs)
        return self.audited != before

    def _open_next(self, k: int) -> bool:
        """Open the round the match needs next on its pack, once its story is settled and taken in."""
        assert self.match is not None
        st = self.match.state
        d = self.deal
        if st.is_over:
            p = d.packs.get(k)
            if p is None or p.phase != "play" or not self._ready(k):
                return False
            if not p.revealed:
                d.reveal(k)
                return True
            if self.verified and k not in self.agreed:
                return self._open_agreement(k)
            return False
        if st.phase is Phase.CUT_PACK and k > 0 and k - 1 not in self.agreed:
            if self._ready(k - 1) and self.audited == len(self.history):
                return self._open_agreement(k - 1)
            return False
        if st.phase not in (Phase.PLAY, Phase.SHOW) or not self._ready(k):
            return False
        p = d.packs[k]
        if p.phase != "play":
            return False
        if st.phase is Phase.SHOW and st.show_step == self.n and st.crib_unseen and not p.shown:
            d.show(k)
            return True
        d.turn(k, tuple(st.actors()))
        return True

    def _ready(self, k: int) -> bool:
        p = self.deal.packs[k]
        return p.story.settled and self.done.get(k, 0) == p.story.round

    def _open_agreement(self, k: int) -> bool:
        self.deal.turn(k, tuple(range(self.n)))
        return True

    def _new_match(self) -> None:
        """Every seat agreed to a new match: new keys, new packs (the match number goes up)."""
        old = self.deal
        self.deal = TableDeal(self.seat, rules=self.rules, room=self.room, match=old.match + 1, group=old.group,
                              seed=None if old.seed is None else _next_seed(old.seed),
                              randbelow=None if old.seed is not None else old.randbelow, sliced=True)
        self.checking = None
        self.deal._outbox[:0] = old.take_outbox()
        self._reset()
        self.inbox[:0] = self.early
        self.early = []

    # --- saves ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """What a reload needs: the deal's save (its seed and every call and message) and the messages
        not yet taken in; the match is rebuilt from the deal. Never a card (only the seed)."""
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "seat": self.seat, "names": list(self.names),
                "ended": self.ended, "deal": self.deal.to_dict(), "inbox": json.loads(json.dumps(self.inbox)),
                "early": json.loads(json.dumps(self.early))}

    @classmethod
    def from_dict(cls, data: Any, groups: tuple[Group, ...] = ()) -> "TableGame":
        """Rebuild a seat from :meth:`to_dict` (:class:`SaveError` for anything doubtful)."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
            raise SaveError("this is not a save of a table game of this version")
        deal = TableDeal.from_dict(data.get("deal"), groups)
        try:
            game = cls(deal.seat, rules=deal.rules, names=tuple(data["names"]), room=deal.room, match=deal.match,
                       group=deal.group, _deal=deal)
            game.ended = bool(data["ended"])
            game.inbox = [(int(s), m) for s, m in data["inbox"]]
            game.early = [(int(s), m) for s, m in data.get("early", [])]
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"this table game's save cannot be loaded ({exc})") from exc
        game._sync()
        return game


def _next_seed(seed: bytes) -> bytes:
    """The seed of the next match's secrets, from this one's (a reload of the next match has its own save)."""
    return hashlib.sha256(b"cribbage-table-game next match" + seed).digest()

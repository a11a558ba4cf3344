"""How a move is agreed: the :class:`Session` protocol and :class:`LocalSession` (computer, hot-seat).

The controller reads ``session.match`` (never changes it), proposes the local player's moves with
``propose(action)``, asks for what needs the other side's consent with ``request(offer)`` (undo,
redo, restart, a new match, the next hand), answers the other side's ``question`` with
``answer(yes)``, and redraws on every :class:`Change` it receives through ``subscribe``. Seat drivers
(:mod:`web.sessions.seats`) are told when their seat may act and propose through the same session.

A local session applies at once: every offer is granted (this device is both sides), ``link`` is
always "live" and ``question`` always None. An online session (``web/sessions/online/peer.py``) sends proposals and
offers to the peer and applies them once agreed; ``link`` says whether the peer is there.

After every change a session first re-prompts the seats (so ``busy`` is already true when the
computer is about to move) and then tells its listeners.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Callable, Literal, Protocol, Sequence, TypeVar

from cribbage.actions import Action
from cribbage.match import Match
from cribbage.state import Event, IllegalActionError, Phase
from cribbage.view import SeatView

from web.sessions.seats import Propose, Seat
from web.sessions.storage import Storage
from web.kit.caught import caught

__all__ = ["Link", "Offer", "Question", "Change", "Session", "LocalSession", "Listener", "summary_hand",
           "deal_cut_held"]

Link = Literal["live", "waiting", "offline"]
"""live: both sides can act; waiting: the other side is connecting; offline: it is gone."""


class Offer(Enum):
    """What one side asks of the match that the other side must accept (online)."""

    UNDO = "undo"
    REDO = "redo"
    RESTART = "restart"
    NEW_MATCH = "new match"
    NEXT_HAND = "next hand"


@dataclass(frozen=True)
class Question:
    """The other side's pending offer, waiting for ``answer(yes)``."""

    offer: Offer
    seat: int
    """Who asks."""


ChangeKind = Literal["applied", "refused", "undone", "redone", "restarted", "next hand", "granted",
                     "declined", "link", "question"]


@dataclass(frozen=True)
class Change:
    """What just happened to the session (one per notification)."""

    kind: ChangeKind
    events: tuple[Event, ...] = ()
    """applied: the new events of the log."""
    scores_before: tuple[int, ...] = (0, 0)
    """applied: each side's score before the action (a moved peg pops)."""
    message: str = ""
    """refused: why, in a sentence for the player."""
    offer: Offer | None = None
    """granted/declined: which offer."""


Listener = Callable[[Change], None]
_S = TypeVar("_S")


class Session(Protocol):
    """One match as agreed between the seats."""

    @property
    def match(self) -> Match:
        """The agreed match; read-only to the controller."""
        ...

    @property
    def seats(self) -> tuple[Seat, ...]:
        """One driver per seat of the table (2, 3 or 4)."""
        ...

    @property
    def link(self) -> Link: ...

    @property
    def question(self) -> Question | None: ...

    @property
    def acked_hand(self) -> int:
        """The last hand whose show both sides dismissed with "Next hand"."""
        ...

    @property
    def busy(self) -> bool:
        """A seat driver is about to move (the computer is thinking)."""
        ...

    def can(self, offer: Offer) -> bool:
        """Whether ``request(offer)`` would do anything now (undo with nothing to undo: False)."""
        ...

    def start(self) -> None:
        """Prompt the seat drivers for the first time (once the controller has subscribed)."""
        ...
    def propose(self, action: Action) -> None: ...
    def request(self, offer: Offer) -> None: ...
    def answer(self, yes: bool) -> None: ...
    def subscribe(self, listener: Listener) -> None: ...
    def pause(self, paused: bool) -> None:
        """Hold the seat drivers (a dialog is open); release them again."""
        ...
    def save(self) -> None:
        """Store the match now (a changed option, e.g. the computer's level)."""
        ...
    def close(self) -> None:
        """Stop every driver; the session is not used again."""
        ...

    # Optional members: a session that has nothing to say here takes :class:`LocalSession`'s defaults
    # (an online session, :mod:`web.sessions.online.peer`, says something in each).

    @property
    def invited(self) -> bool:
        """A room link's invitation not yet accepted (*Not now* leaves no trace: the mode is not kept)."""
        ...

    @property
    def perspective(self) -> int | None:
        """The seat that is "you" on this device (None: the mode says, :attr:`Mode.perspective`)."""
        ...

    def dress(self, scene: _S) -> _S:
        """The table's scene with the session's own slot filled (online: its panel; no action while
        waiting). The scene is the table's (:class:`web.table.scene.Scene`), which sessions never import."""
        ...

    def dress_view(self, view: SeatView) -> SeatView:
        """The seat's view with only the calls the session allows now (online: not while waiting)."""
        ...

    def click(self, action: str, data: dict[str, str]) -> bool:
        """A control of the session's own (online: the room's); True if it was one."""
        ...


def summary_hand(match: Match, acked: int) -> int | None:
    """The hand whose show stays on the table: just counted, not yet dismissed."""
    st = match.state
    if st.phase is not Phase.CUT_PACK or st.hand_number < 2:
        return None
    done = st.hand_number - 1
    if done <= acked:
        return None
    if not any(e.hand == done and e.kind == "show crib" for e in reversed(st.events)):
        return None
    return done


def deal_cut_held(match: Match, acked: int, seats: Sequence[Seat]) -> bool:
    """The cut for deal is decided and the computer would cut the pack at once (the pone, on the dealer's
    left, cuts): the cut cards stay on the table until the player moves on ("Next hand" acknowledges
    hand 0; ``acked`` -1 until then)."""
    st = match.state
    if acked >= 0 or st.phase is not Phase.CUT_PACK or st.hand_number != 1 or st.dealer is None:
        return False
    cutter = st.cutter if st.cutter is not None else 1 - st.dealer  # the dealer's right cuts the pack
    return seats[cutter].kind == "computer" and any(s.kind != "computer" for s in seats)


class LocalSession:
    """Every seat on this device (2, 3 or 4): proposals apply at once, offers are granted at once, saved
    on change."""

    link: Link = "live"
    question: Question | None = None
    invited = False
    perspective: int | None = None
    """The mode says who "you" are (:attr:`web.sessions.registry.Mode.perspective`)."""

    def __init__(self, match: Match, seats: Sequence[Seat], storage: Storage | None = None,
                 save_key: str | None = None, ui_key: str | None = None, acked_hand: int = 0) -> None:
        self._match = match
        self._seats = tuple(seats)
        self.storage = storage
        self.save_key = save_key
        self.ui_key = ui_key
        self.acked_hand = acked_hand
        self._listeners: list[Listener] = []
        self._paused = False
        self._closed = False
        self._applying = False
        self._queue: list[Action] = []
        self.holder: int | None = None
        """Hot-seat: the seat holding the device now; undo and redo touch only its own moves (None: any)."""

    @property
    def match(self) -> Match:
        return self._match

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self._seats

    @property
    def busy(self) -> bool:
        return any(s.pending for s in self._seats)

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def start(self) -> None:
        """Let the seat drivers see whose turn it is (call once the listeners are in place)."""
        self._prompt()

    # --- moves -----------------------------------------------------------------------------------

    def propose(self, action: Action) -> None:
        """This device's input proposes a move for one of its own seats."""
        if not self._seats[action.seat].local:
            self._emit(Change("refused", message=f"{self._seats[action.seat].label} moves for itself."))
            return
        self._apply(action)

    def _proposer(self, seat: int) -> Propose:
        def propose(action: Action) -> None:
            if action.seat != seat:
                self._emit(Change("refused", message="A seat may only move for itself."))
                return
            self._apply(action)
        return propose

    def _apply(self, action: Action) -> None:
        if self._applying:  # a driver answered while being prompted: after this change is told
            self._queue.append(action)
            return
        self._applying = True
        try:
            self._apply_one(action)
        finally:
            self._applying = False
        if self._queue:
            self._apply(self._queue.pop(0))

    def _apply_one(self, action: Action) -> None:
        if self._closed:
            return
        st = self._match.state
        before = len(st.events)
        scores = tuple(st.scores)
        try:
            self._match.apply(action)
        except IllegalActionError as exc:
            self._emit(Change("refused", message=str(exc)[:1].upper() + str(exc)[1:] + "."))
            return
        new = tuple(self._match.state.events[before:])
        self.save()
        self._prompt()
        self._emit(Change("applied", events=new, scores_before=scores))

    # --- offers ----------------------------------------------------------------------------------

    def can(self, offer: Offer) -> bool:
        if offer is Offer.UNDO:
            return self._match.can_undo and self._own(self._match.actions[-1:])
        if offer is Offer.REDO:
            return self._match.can_redo and self._own(self._match.undone[-1:])
        if offer is Offer.NEXT_HAND:
            return (summary_hand(self._match, self.acked_hand) is not None
                    or deal_cut_held(self._match, self.acked_hand, self._seats))
        return True

    def _own(self, actions: Sequence[Action]) -> bool:
        """True if the people's moves among ``actions`` are the holder's (any, when nobody holds: hot-seat
        only sets a holder, and there one undo or redo is one move)."""
        people = self._match.humans
        return self.holder is None or all(a.seat == self.holder for a in actions if a.seat in people)

    def request(self, offer: Offer) -> None:
        """Granted at once: this device speaks for both sides."""
        if self._closed or not self.can(offer):
            return
        kind: ChangeKind = "granted"
        if offer in (Offer.UNDO, Offer.REDO, Offer.RESTART):
            self._stop()
            if offer is Offer.UNDO:
                self._match.undo()
                kind = "undone"
            elif offer is Offer.REDO:
                self._match.redo()
                kind = "redone"
            else:
                self._match.restart()
                kind = "restarted"
            hand = self._match.state.hand_number
            self.acked_hand = min(self.acked_hand, hand - 1) if offer is not Offer.RESTART else -1
        elif offer is Offer.NEXT_HAND:
            done = summary_hand(self._match, self.acked_hand)
            self.acked_hand = done if done is not None else 0  # else: the cut for deal was seen
            kind = "next hand"
        if kind != "granted":
            self.save()
            self._prompt()
        self._emit(Change(kind, offer=offer))

    def answer(self, yes: bool) -> None:
        """Nothing is ever asked of a local session."""

    # --- drivers -----------------------------------------------------------------------------------

    def pause(self, paused: bool) -> None:
        self._paused = paused
        if paused:
            self._stop()
        else:
            self._prompt()

    def close(self) -> None:
        self._stop()
        self._closed = True

    def _stop(self) -> None:
        for seat in self._seats:
            seat.cancel()

    def _prompt(self) -> None:
        """Tell each seat that may act now; stop the others."""
        st = self._match.state
        held = (self._paused or self._closed or st.is_over
                or summary_hand(self._match, self.acked_hand) is not None
                or deal_cut_held(self._match, self.acked_hand, self._seats))
        actors = set() if held else set(st.actors())
        # Muggins in the play: a claim on a card is open to every seat of another side until the next
        # card, Go or count, in turn or not; a driver that can call (the computer) is asked once a claim.
        callers = set() if held else {s for s in st.callers_now() if s not in actors
                                      and hasattr(self._seats[s], "on_call")} if (
            st.claim is not None and st.claim.what == "play") else set()
        for i, seat in enumerate(self._seats):
            if i not in actors and i not in callers:
                seat.cancel()
        for i in sorted(actors):
            self._seats[i].on_turn(self._match.view(i), self._proposer(i))
        for i in sorted(callers):
            getattr(self._seats[i], "on_call")(self._match.view(i), self._proposer(i))  # noqa: B009 - a member only some seats have

    def _emit(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    # --- saving ------------------------------------------------------------------------------------

    def save(self) -> None:
        """The match JSON and the next-hand acknowledgement, after every change."""
        if self.storage is None or self.save_key is None:
            return
        try:
            self.storage.set(self.save_key, self._match.to_json())
            if self.ui_key is not None:
                self.storage.set(self.ui_key, json.dumps({"ack": self.acked_hand}))
        except Exception as exc:  # noqa: BLE001 - a full or blocked storage must not stop the game
            caught("sessions.session.LocalSession.save", exc)

    # --- the protocol's optional members: nothing of a local session's own ------------------------

    def dress(self, scene: _S) -> _S:
        return scene

    def dress_view(self, view: SeatView) -> SeatView:
        return view

    def click(self, action: str, data: dict[str, str]) -> bool:
        return False

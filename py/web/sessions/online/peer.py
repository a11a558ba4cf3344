"""Online play: :class:`PeerSession`, the Session protocol over an :class:`~cribbage.online.game.OnlineGame`
(the proven deal) and a :class:`~cribbage.online.link.Link` (seats, acknowledgements, heartbeat). The
mode's menu entry is in :mod:`web.sessions.registry`; a room is opened by :mod:`.room`; when work runs,
texts leave and the table is drawn is :mod:`.runner`; what the page gives online play and a room's
names are :mod:`.env` (re-exported here, as the page and the tests have always read them).

The session is transport-agnostic: a :class:`Channel` carries strings to the other browser (PeerJS in
the page, an in-memory pair in the tests) and calls back ``on_open`` / ``on_message`` / ``on_close`` /
``on_full`` / ``on_error``. Time and timers come from the host: the deal's big-integer work runs in
slices of :data:`SLICE_MS` one task each (so no frame is long), the link's heartbeat every
:data:`TICK_MS`. After every batch the link and the game are saved together under the room's key
(``link.to_json()`` + ``game.to_json()``: no seed, nothing of the other's hidden cards).

Rooms: the first browser to open a room holds seat 0 (it creates the room from the menu, with a
256-bit room secret); the room link is ``?room=ID#k=SECRET`` (QR code and Copy link alike: the
fragment reaches no server). The friend who opens the whole link takes seat 1 by proving the secret
(see :mod:`cribbage.online.link`); a link without its ``#k=`` is refused in a sentence ("ask your
friend for the whole link"). The same browser reopening the link reclaims its seat (the seat key is
in this browser's storage, the secret too). After "room is full" the friend calls again every
:data:`FULL_REDIAL_S` (a stranger can hold the host's channel for 10 s at most). Names are sent as a
``name`` payload and shown as text only.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, Callable

from cribbage.actions import Action, Muggins
from cribbage.match import Match
from cribbage.online.errors import ProtocolError
from cribbage.online.game import OnlineGame, clean_peer_text
from cribbage.online.link import LOSS_TIMEOUT, Binding, Delivered, HangUp, Link, Problem, StateChanged
from cribbage.state import IllegalActionError
from cribbage.view import SeatView

from web.sessions.base import OpenContext
from web.sessions.online.env import (CHANNEL_ERRORS, CURRENT_KEY, ENV, NAME_KEY, Channel, ChannelEvents,
                                     ChannelFactory, OnlineEnv, clean_name, configure, parse_rules_query,
                                     peer_ids, refusal_text, room_key, room_link, rules_query)
from web.sessions.online.room_rules import rules_sentence
from web.sessions.online.runner import HOLD_MS, SLICE_MS, Runner
from web.sessions.seats import LocalHuman, RemoteSeat, Seat
from web.sessions.session import Change, Link as LinkName, Listener, Offer, Question, summary_hand

__all__ = ["PeerSession", "OnlinePanel", "PeerSeat", "TICK_MS", "SAVE_FAILED",
           # (re-exported: the page's and the tests' names for online play's environment)
           "Channel", "ChannelEvents", "ChannelFactory", "CHANNEL_ERRORS", "OnlineEnv", "ENV", "configure",
           "CURRENT_KEY", "NAME_KEY", "room_key", "peer_ids", "room_link", "clean_name", "refusal_text",
           "rules_query", "parse_rules_query", "SLICE_MS", "HOLD_MS"]

TICK_MS = 500
"""The link's heartbeat and reconnection clock."""
REDIAL_S = 3.0
"""Seconds between attempts of the friend to reach the room's host."""
FULL_REDIAL_S = 5.0
"""Seconds before the friend calls again after the host said the room is full (a stranger may hold
the host's channel for up to ``link.UNPROVEN_TIMEOUT``)."""
ROOM_FULL = ("This room is full: two players are already seated (this page keeps asking, in case a seat "
             "frees up).")
"""What a browser without a seat sees instead of the table (a third browser with the whole link)."""
SAVE_FAILED = ("This browser could not save the match; it goes on here, but a reload now would lose the "
               "latest moves.")
MAX_FAILURE = 400
"""Longest reason for a stopped match shown (ours; the evidence follows it)."""
REACH_S = 15.0
"""Seconds the friend may be there (registered, answering) without a data channel opening before the
page says why: the networks block a direct connection."""
REACH_STALE_S = 25.0
"""Seconds after the last sign of the friend (it calls again about every 10 s) when that is forgotten."""
NO_DIRECT = ("{peer}\u2019s browser is there, but no direct connection between your two browsers could be "
             "made: one of your networks (or both) blocks it. Try again with both on the same Wi-Fi, or ask "
             "whoever runs this page to set up a TURN relay.")
INVITED = "Your friend\u2019s room plays by house rules. Join it to play by them, or not now: nothing is sent before you join."
"""What the invited friend reads above the room's rules and the *Join* and *Not now* buttons."""
DECLINED = ("You did not join this room, and nothing was sent to it. To join later, open the link again; "
            "meanwhile you can play against the computer.")



@dataclass(frozen=True)
class OnlinePanel:
    """What the table shows of online play (all plain text; the renderer escapes it)."""

    room: str
    link: str
    """The room's address to share."""
    seat: int
    state: str
    """live / waiting / offline / refused / expired"""
    status: str
    """The connection in a sentence."""
    turn: str
    """Whose turn, or what we wait for, in a sentence."""
    my_name: str
    peer_name: str
    joined: bool
    """The friend has joined at least once (else the link is shown prominently)."""
    question: str = ""
    """The other side's pending offer, as a sentence ('' if none)."""
    rules: str = ""
    """The room's table in words when it is not the classic game: ``"This room plays: to 61, muggins."``"""
    offered: bool = False
    """Our offer of a new match waits for an answer."""
    problems: tuple[str, ...] = ()
    """Our messages (the link's problems, notes), each fact once and none repeating ``status``."""
    failure: str = ""
    """Why the match stopped, in our words only."""
    evidence: str = ""
    """What this browser checked and found wrong (JSON as text; '' if nothing to show)."""
    peer_words: str = ""
    """The other browser's own words on why it stopped the match (cleaned, bounded): shown in quotes,
    apart from our evidence, as its claim and not ours."""
    waiting: str = ""
    """Why nobody at this table can act now, naming whom we wait for ('' when this player may act):
    the prompt says it instead of "You to play"."""
    result: str = ""
    """The end of the match and whether its result is verified ('' until it is over)."""
    blocked: bool = False
    """This browser has no seat at this table (a third browser told "full", a refused or expired room):
    the page shows ``status`` alone, and no table."""
    folded: bool = False
    """Both players have been connected: the link and name fields fold into one line."""
    expanded: bool = False
    """The player opened the folded link and name fields (``online-fold`` toggles it)."""
    invited: bool = False
    """The friend is asked to accept the room's rules (``rules``): *Join* and *Not now* are shown, and
    no table (nothing has been sent)."""
    declined: bool = False
    """The friend chose *Not now*: the page says so and offers a game against the computer."""
    qr: str = ""
    """The room link's QR code as SVG markup, while the friend has not joined the host's room ('' when
    not shown, or while the page's QR library loads)."""


class PeerSeat(RemoteSeat):
    """The friend's seat: its moves arrive through the protocol, which applies them itself."""

    def on_turn(self, view: Any, propose: Callable[[Action], None]) -> None:
        """Nothing to propose here: the game applies the friend's checked moves."""


class PeerSession:
    """One online match between this browser and the friend's, as the controller's Session."""

    def __init__(self, ctx: OpenContext, env: OnlineEnv, link: Link, game: OnlineGame, tag: str,
                 my_name: str, peer_name: str, acked: int = 0, joined: bool = False) -> None:
        self.ctx = ctx
        self.env = env
        self.net = link
        self.game = game
        self.tag = tag
        self.my_name = my_name
        self.peer_name = peer_name
        self.acked_hand = acked
        self.joined = joined
        seats: list[Seat] = [LocalHuman("You"), PeerSeat(peer_name)]
        if game.seat == 1:
            seats.reverse()
        self._seats = (seats[0], seats[1])
        self.problems: list[str] = []
        self.notes: list[str] = []
        self._listeners: list[Listener] = []
        self._closed = False
        self._started = False
        self._tick_handle: object | None = None
        self._last_dial = float("-inf")
        self._open = False
        self._heard = 0.0
        self._sent_name = False
        self._save_failed = False
        self._record: str | None = None
        """The room's record as this page last wrote it (a save that would write it again is skipped)."""
        self.expanded = False
        """The folded panel's link and name fields are open (the player asked)."""
        self.invited = False
        """The friend's browser, opening a room link at a table other than the classic one, has not
        accepted the room's rules yet: nothing is dialled, sent or saved until :meth:`accept`."""
        self.declined = False
        """The invited friend chose *Not now*: nothing was sent; the page offers a game against the computer."""
        self._reach_first: float | None = None
        self._reach_last = 0.0
        self.no_direct = False
        """The friend has been there for REACH_S without a channel opening (the page says why)."""
        self.channel: Channel | None = None
        self._save_failure: str | None = None
        self.runner = Runner(game, self, ctx.timer, ctx.storage.when_durable, self._out, trace=env.trace)
        """When work runs, texts leave and the table is drawn (:mod:`.runner`)."""
        self._held_work: bool | None = None
        """What :meth:`_hold_check` last told the page (None: nothing yet)."""

    # --- the Session protocol ----------------------------------------------------------------------

    @property
    def match(self) -> Match:
        return self.game.match

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return self._seats

    @property
    def perspective(self) -> int:
        """The seat that is "you" in this browser."""
        return self.game.seat

    @property
    def other(self) -> int:
        return 1 - self.game.seat

    @property
    def link(self) -> LinkName:
        state = self.net.state
        return state if state in ("live", "waiting") else "offline"

    @property
    def question(self) -> Question | None:
        if self.game.new_match_offer == self.other:
            return Question(Offer.NEW_MATCH, self.other)
        return None

    @property
    def busy(self) -> bool:  # noqa: D401
        """Shuffling or waiting for the other browser's decryption."""
        return self.game.moving or self.game.pending is not None

    def can(self, offer: Offer) -> bool:
        if offer is Offer.NEXT_HAND:
            return summary_hand(self.match, self.acked_hand) is not None
        if offer is Offer.NEW_MATCH:
            return self.game.new_match_offer is None
        return False  # no undo, redo or restart online

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def start(self) -> None:
        """Open the channel, start the heartbeat and any queued work."""
        if self._started or self._closed or self.invited:
            return
        self._started = True
        self._send_name()
        if self.env.refusal:
            self.net.stop(self.env.refusal)  # the page's link names a server it does not trust: contact nothing
        elif self.env.channel is not None:
            me, host = peer_ids(self.net.room, self.game.seat, self.tag)
            self.channel = self.env.channel(self.net.room, self.game.seat, me, host, self)
            self._dial()
        self._tick_handle = self.ctx.timer.later(TICK_MS, self._tick)
        self.runner.batch(lambda: None)

    def accept(self) -> None:
        """The invited friend accepts the room's rules: the seat is saved, then the key set-up starts."""
        if not self.invited or self._closed:
            return
        self.invited = self.declined = False
        self.notes.append(f"You joined the room: {self.game.rules.describe()}.")
        self._save()
        self.start()

    def can_act(self) -> str | None:
        """Why the local player cannot act now (a sentence), or None."""
        if self.invited:
            return DECLINED if self.declined else INVITED
        if self.game.failure:
            return "The match has stopped: " + self.failure_text()
        if not self.net.can_act:
            if self.net.state in ("refused", "expired"):
                return self.net.status_text
            if self.no_direct:
                return NO_DIRECT.format(peer=self.peer_name)
            if not self.joined:
                return f"Waiting for {self.peer_name} to join."
            return f"Waiting for {self.peer_name} to reconnect."
        waiting = self.game.waiting_for()
        if waiting is None:
            return None
        if waiting == "the shuffle":
            return "Shuffling and proving the pack\u2026"
        if waiting == "the other browser's move to be checked":
            return f"Checking {self.peer_name}\u2019s move\u2026"
        if waiting == "the other browser's decryption":
            return f"Waiting for {self.peer_name}\u2019s browser\u2026"
        if waiting == "your acceptance of the next hand":
            return "Press Next hand when you are ready."
        if waiting == "the other player to accept the next hand":
            return f"Waiting for {self.peer_name} to accept the next hand."
        return f"Waiting for {waiting}."

    def propose(self, action: Action) -> None:
        """The local player's move: refused unless both are here and it is legal now."""
        if self._closed or self.invited:
            return
        if action.seat != self.game.seat:
            self._emit(Change("refused", message=f"{self.peer_name} moves for themselves."))
            return
        why = self.can_act()
        if why is not None:
            self._emit(Change("refused", message=why))
            return
        self._trace(f"propose {type(action).__name__}")
        try:
            self.runner.move(lambda: self.game.act(action))
        except IllegalActionError as exc:
            text = str(exc)
            self._emit(Change("refused", message=text[:1].upper() + text[1:] + "."))

    def request(self, offer: Offer) -> None:
        """Next hand: this side accepts it. A new match: offered to the friend (or accepted if offered)."""
        if self._closed or self.invited:
            return
        if offer is Offer.NEXT_HAND:
            done = summary_hand(self.match, self.acked_hand)
            if done is None:
                return
            self.acked_hand = done
            if self.game.can_accept_next_hand():
                self.runner.batch(self.game.accept_next_hand)
            else:
                self._save()
            self._emit(Change("next hand", offer=offer))
        elif offer is Offer.NEW_MATCH:
            if self.question is not None:
                self.answer(True)
                return
            if self.game.new_match_offer is not None:
                return
            self.runner.batch(self.game.offer_new_match)
            self.notes.append(f"You offered {self.peer_name} a new match.")
            self._emit(Change("question", offer=offer))

    def answer(self, yes: bool) -> None:
        """Accept or decline the friend's offer of a new match."""
        if self.question is None or self._closed or self.invited:
            return
        self.runner.batch(lambda: self.game.answer_new_match(yes))
        if not yes:
            self.notes.append(f"You declined {self.peer_name}\u2019s new match.")
            self._emit(Change("declined", offer=Offer.NEW_MATCH))

    def pause(self, paused: bool) -> None:
        """Nothing to hold: the friend's moves come whatever dialog is open here."""

    def save(self) -> None:
        self._save()

    def close(self) -> None:
        self._closed = True
        self.runner.close()
        if self._tick_handle is not None:
            self.ctx.timer.cancel(self._tick_handle)
            self._tick_handle = None
        self._hold_check()
        if self.channel is not None:
            self.channel.close()
            self.channel = None

    # --- extra controls (the controller routes unknown actions here) --------------------------------

    def click(self, action: str, data: dict[str, str]) -> bool:
        """``online-name`` (data value), ``online-accept``, ``online-decline``, ``online-join``,
        ``online-not-now``; True if handled."""
        if action == "online-join":
            self.accept()
            return True
        if action == "online-not-now":
            if self.invited:
                self.declined = True
            return True
        if self.invited:
            return False  # nothing else before the room's rules are accepted
        if action == "online-name":
            name = clean_name(data.get("value", ""))
            if name is None:
                self._emit(Change("refused", message="A name needs at least one letter."))
                return True
            self.my_name = name
            try:
                self.ctx.storage.set(NAME_KEY, name)
            except Exception:  # noqa: BLE001
                pass
            self._sent_name = False
            self.runner.batch(self._send_name)
            return True
        if action in ("online-accept", "online-decline"):
            self.answer(action == "online-accept")
            return True
        if action == "online-fold":
            self.expanded = not self.expanded
            return True
        if action == "online-dismiss":
            self.problems.clear()
            self.notes.clear()
            return True
        return False

    def dress(self, scene: Any) -> Any:
        """The controller's scene, with no action offered while we cannot act, and the online panel."""
        view = self.dress_view(scene.view)
        if self.can_act() is not None and view.legal_actions:
            view = dataclasses.replace(view, legal_actions=())
        return dataclasses.replace(scene, view=view, online=self.panel(), busy=self.busy)

    def dress_view(self, view: SeatView) -> SeatView:
        """The engine's view of this seat with only the calls online play allows: muggins in the play
        is called on one's own turn (:meth:`OnlineGame.legal_actions`), so the *Muggins!* button and
        its key are not offered out of turn (a tap would only be refused)."""
        calls = [a for a in view.legal_actions if isinstance(a, Muggins)]
        if not calls or view.claim_what != "play":
            return view
        allowed = [a for a in self.game.legal_actions() if isinstance(a, Muggins)]
        if all(a in allowed for a in calls):
            return view
        return dataclasses.replace(view, legal_actions=tuple(
            a for a in view.legal_actions if not isinstance(a, Muggins) or a in allowed))

    def panel(self) -> OnlinePanel:
        """What the table shows of the room, the link and the connection: each fact once, in our
        words, the other browser's own words apart and in quotes."""
        question = ""
        if self.question is not None:
            question = f"{self.peer_name} offers a new match."
        ev = words = ""
        if self.game.failure:
            if self.game.evidence:
                ev = json.dumps(self.game.evidence, indent=1, sort_keys=True, default=str)[:4000]
            words = clean_peer_text(self.game.peer_reason)
        state = self.net.state
        blocked = state in ("refused", "expired") or (self.game.seat == 1 and not self.joined and self.net.full)
        status = self.net.status_text
        if blocked and state not in ("refused", "expired"):
            status = ROOM_FULL
        if self.invited:
            blocked, status = True, DECLINED if self.declined else INVITED
        waiting = "" if self.game.failure else (self.can_act() or "")
        said = {status, waiting}
        messages: list[str] = []
        for text in self.problems[-3:] + self.notes[-2:]:
            if text not in said:
                said.add(text)
                messages.append(text)
        link = room_link(self.env, self.net.room, self.net.secret, self.game.rules)
        qr = ""
        if self.env.qr is not None and self.game.seat == 0 and not self.joined:
            qr = self.env.qr(link, self._qr_ready)
        return OnlinePanel(
            room=self.net.room, link=link, qr=qr,
            seat=self.game.seat, rules=rules_sentence(self.game.rules),
            state=state, status=status, turn=self.turn_text(),
            my_name=self.my_name, peer_name=self.peer_name, joined=self.joined, question=question,
            offered=self.game.new_match_offer == self.game.seat, problems=tuple(messages),
            failure=self.failure_text() if self.game.failure else "", evidence=ev, peer_words=words,
            waiting=waiting, result=self.result_text() if self.match.state.is_over else "",
            blocked=blocked, folded=self.joined and not blocked, expanded=self.expanded,
            invited=self.invited and not self.declined, declined=self.declined)

    def _qr_ready(self) -> None:
        """The page's QR library has loaded: the room link's code can be drawn now."""
        if not self._closed:
            self._emit(Change("link"))

    def failure_text(self) -> str:
        """Why the match stopped, in our words (the other browser's own words go apart, in quotes).

        Cleaned and bounded too: a stop for an unexpected error quotes its exception."""
        return clean_peer_text(self.game.failure or "", MAX_FAILURE)

    def result_text(self) -> str:
        """The end of the match, and whether its result is verified."""
        v = self.game.verification
        if v == "verified":
            return "The match is over. The result is verified: every card and every Go was checked."
        if v == "stands":
            return (f"The match is over. {self.peer_name}\u2019s browser did not open the cards it still held; "
                    "your win stands.")
        if v == "unverified":
            return (f"The match is over, but the result is unverified: {self.peer_name}\u2019s browser did not "
                    "open the cards it still held, so its last Go could not be checked. It counts as neither a "
                    "win nor a loss.")
        return (f"The match is over. Checking the result: waiting for {self.peer_name}\u2019s browser to open "
                "the cards it still held\u2026")

    def turn_text(self) -> str:
        """Whose turn it is, or what the table waits for."""
        why = self.can_act()
        if why is not None:
            return why
        st = self.match.state
        if st.is_over:
            return self.result_text()
        if summary_hand(self.match, self.acked_hand) is not None:
            return "The hand is over: press Next hand when you are ready."
        waiting = self.game.waiting_for()
        if waiting == "the other player to accept the next hand":
            return f"Waiting for {self.peer_name} to accept the next hand."
        actors = st.actors()
        if self.game.seat in actors:
            return "Your turn."
        if actors:
            return f"{self.peer_name}\u2019s turn."
        return ""

    # --- the channel's events ------------------------------------------------------------------------

    def on_open(self, binding: Binding | None = None) -> None:
        self._trace("channel open")
        self._open = True
        self.runner.new_channel()
        self._reach_first = None
        self.no_direct = False
        self._heard = self.env.wall()
        self.runner.batch(lambda: self.net.connected(self.env.wall(), binding))

    def on_message(self, text: str) -> None:
        self._trace("channel in")
        self._heard = self.env.wall()
        self.runner.receive(lambda: self.net.receive(text, self.env.wall()))

    def on_close(self) -> None:
        self._open = False
        self.runner.new_channel()
        if not self.net.full:
            self._last_dial = float("-inf")  # the friend redials at the next tick
        self.runner.batch(lambda: self.net.disconnected(self.env.wall()))

    def on_reach(self) -> None:
        now = self.env.wall()
        if self._reach_first is None or now - self._reach_last > REACH_STALE_S:
            self._reach_first = now
        self._reach_last = now
        self._hold_check()

    def _check_reach(self, now: float) -> None:
        """Say (or stop saying) that the friend is there but no direct connection opens."""
        first = self._reach_first
        if first is not None and now - self._reach_last > REACH_STALE_S:
            self._reach_first = first = None  # no sign of the friend for a while: just waiting again
        blocked = not self._open and first is not None and now - first >= REACH_S
        if blocked != self.no_direct:
            self.no_direct = blocked
            self._emit(Change("link"))

    def on_full(self) -> None:
        self.notes.append("Another browser tried to join this room and was told it is full.")
        self._emit(Change("link"))

    def on_error(self, code: str) -> None:
        if code in ("peer-unavailable", "connect-timeout"):
            return  # the host is not there yet: the next dial tries again
        text = CHANNEL_ERRORS.get(code)
        if text is None:
            return
        if text not in self.notes:
            self.notes.append(text)
        self.notes = self.notes[-3:]
        self._emit(Change("link"))

    # --- inside ----------------------------------------------------------------------------------------

    def _send_name(self) -> None:
        if not self._sent_name:
            self._sent_name = True
            self.net.send({"t": "name", "name": self.my_name}, self.env.wall())

    def _dial(self) -> None:
        now = self.env.wall()
        if (self.channel is not None and self.game.seat == 1 and not self._open
                and self.net.state not in ("refused", "expired")
                and now - self._last_dial >= (FULL_REDIAL_S if self.net.full else REDIAL_S)):
            self._last_dial = now
            self.channel.connect()

    def _tick(self) -> None:
        self._tick_handle = None
        if self._closed:
            return
        now = self.env.wall()
        if self._open and now - self._heard > LOSS_TIMEOUT + 1 and self.channel is not None:
            self._open = False  # our heartbeat gave up: the friend redials once it is back
            self.runner.new_channel()
            self.channel.drop()
            self.runner.batch(lambda: self.net.disconnected(now))
        self._dial()
        self._check_storage()
        self._check_reach(now)

        def tick() -> None:
            self.net.tick(now)
            self.game.tick(now)

        self.runner.quiet(tick)
        if not self._closed:
            self._tick_handle = self.ctx.timer.later(TICK_MS, self._tick)

    # --- the runner's Driven: what a batch carries, shows, saves and draws ------------------------------

    def look(self) -> tuple[object, ...]:
        """What the table shows now (compared by the runner before and after a batch)."""
        st = self.match.state
        return (len(st.events), st.scores[0], st.scores[1], self.net.state, self.game.match_number,
                self.game.failure, st.hand_number, self.busy, self.game.new_match_offer,
                self.game.waiting_for(), self.game.verification)

    def change(self, before: Any) -> Change | None:
        """The redraw owed since the look ``before``: a new match, a move, an offer, the link (None: at
        most "busy" or "checking" changed, which the runner draws once the payload is out)."""
        events, score0, score1, state, number, failure, hand, _, question, _, _ = before
        st = self.match.state
        if self.game.match_number != number:
            self.acked_hand = 0
            self.problems.clear()
            self.notes.append("A new match has started.")
            return Change("applied", events=tuple(st.events), scores_before=(0, 0))
        if len(st.events) != events or st.hand_number != hand:
            return Change("applied", events=tuple(st.events[events:]), scores_before=(score0, score1))
        if self.game.new_match_offer != question:
            return Change("question")
        if self.net.state != state or self.game.failure != failure:
            return Change("link")
        return None

    def draw(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    def settled(self) -> None:
        self._hold_check()

    @property
    def working(self) -> bool:
        """Whether online work is under way in this page (see :attr:`OnlineEnv.hold`): the friend's
        call reaching it, the channel's handshake, or the deal's work (a move to check or prove, a
        decryption awaited, the shuffles ahead)."""
        if self._closed or not self._started:
            return False
        if self.net.state in ("refused", "expired"):
            return False
        if self._open and self.net.state != "live":
            return True  # the handshake, then the key set-up
        if not self._open and self._reach_first is not None and not self.no_direct:
            return True  # the friend's call is reaching this page: the channel is about to open
        return self.game.busy or (self._open and self.game.pending is not None)

    def _hold_check(self) -> None:
        """Tell the page when online work starts and stops (:attr:`OnlineEnv.hold`), once a change."""
        hold = self.env.hold
        working = self.working
        if hold is None or working == self._held_work:
            return
        self._held_work = working
        try:
            hold(working)
        except Exception:  # noqa: BLE001 - the page's background jobs never stop the match
            pass

    def carry(self) -> tuple[bool, bool]:
        """Carry payloads and envelopes until quiet: (the link reported anything, a payload was sent)."""
        now = self.env.wall()
        heard = carried = False
        for _ in range(10_000):
            moved = False
            for payload in self.game.take_outbox():
                self._trace(f"emit {payload.get('t')}")
                self.net.send(payload, now)
                moved = carried = True
            for text in self.net.pop_outgoing():
                moved = True
                if self.channel is not None and self._open:
                    self.runner.send(text)
            for event in self.net.pop_events():
                moved = heard = True
                if isinstance(event, Delivered):
                    self._deliver(event.payload)
                elif isinstance(event, Problem):
                    self._problem(event.text)
                elif isinstance(event, StateChanged):
                    if event.state == "live":
                        self.joined = True
                elif isinstance(event, HangUp):
                    self.notes.append(event.text)
                    self.ctx.timer.later(200, self._hang_up)
            if not moved:
                break
        return heard, carried

    def _out(self, text: str) -> None:
        """A text released by the runner (its save is on disk): on the channel, if it is still open."""
        if self._open and self.channel is not None and not self._closed:
            self.channel.send(text)

    def _check_storage(self) -> None:
        """Tell the player when saves stop reaching the disk (and when they reach it again)."""
        try:
            why = self.ctx.storage.failure()
        except Exception:  # noqa: BLE001
            why = None
        if why == self._save_failure:
            return
        self._save_failure = why
        if why is not None:
            self._problem(f"This browser cannot save the match ({why}), so nothing more is sent to "
                          f"{self.peer_name} until it can; it keeps trying. If you reload, the match "
                          "resumes from the last move saved.")
        else:
            self.notes.append("Saving works again.")
        self._emit(Change("link"))

    def _hang_up(self) -> None:
        if self.channel is not None and not self._closed:
            self.channel.drop()
        self.on_close()

    def _deliver(self, payload: dict[str, Any]) -> None:
        self._trace(f"deliver {clean_peer_text(payload.get('t'), 12)}")
        if payload.get("t") == "name":
            name = clean_name(payload.get("name"))
            if name is None:
                self.net.distrust("The other browser sent a name that is not text; it was ignored.",
                                  self.env.wall())
                return
            self.peer_name = name
            self._seats[self.other].label = name
            return
        try:
            self.game.receive(payload)
        except ProtocolError as exc:
            # Refused by the rules or the deal: nothing changes, and the peer is not trusted again
            # (no move is taken from it) until it proves its seat in a new handshake.
            self.net.distrust(f"The other browser sent something wrong ({exc}). It was refused; nothing changed.",
                              self.env.wall())

    def _problem(self, text: str) -> None:
        self.problems.append(text[:400])
        self.problems = self.problems[-5:]

    def _save(self) -> None:
        """Save the link and the game together. A save that fails (a full storage, or a bug) never
        stops the match: it goes on in this page, the player is told once, and the next batch tries again.
        Nothing is saved for a room not joined yet (:attr:`invited`): a reload asks again."""
        if self.invited:
            return
        self._trace("save >")
        try:
            head = json.dumps({"format": 1, "room": self.net.room, "seat": self.game.seat, "tag": self.tag,
                               "my_name": self.my_name, "peer_name": self.peer_name, "acked": self.acked_hand,
                               "joined": self.joined}, ensure_ascii=True)
            # The link and the game write their own JSON, each part once (a save late in a match
            # costs about what an early one does): the record is {..., "link": ..., "game": ...}.
            record = f'{head[:-1]}, "link": {self.net.to_json()}, "game": {self.game.to_json()}}}'
            if record == self._record:
                return  # nothing changed since the last save: the store is not written again
            self.ctx.storage.set(room_key(self.net.room), record)
            self.ctx.storage.set(CURRENT_KEY, self.net.room)
            self._record = record
        except Exception:  # noqa: BLE001 - a full storage must not stop the game
            if not self._save_failed:
                self._save_failed = True
                self.notes.append(SAVE_FAILED)
            return
        finally:
            self._trace("save <")
        self._save_failed = False

    def _emit(self, change: Change) -> None:
        self.runner.draw(change)

    def _trace(self, label: str) -> None:
        trace = self.env.trace
        if trace is not None:
            trace(label)

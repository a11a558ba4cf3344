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
from cribbage.online.link import Delivered, HangUp, Link, Problem, StateChanged
from cribbage.state import IllegalActionError
from cribbage.view import SeatView

from web.sessions.base import OpenContext
from web.sessions.online.env import (CHANNEL_ERRORS, CURRENT_KEY, ENV, NAME_KEY, Channel, ChannelEvents,
                                     ChannelFactory, OnlineEnv, clean_name, configure, parse_rules_query,
                                     peer_ids, refusal_text, room_key, room_link, rules_query)
from web.sessions.online.panel import panel_slot
from web.sessions.online.room_log import RoomLog
from web.sessions.online.room_rules import rules_sentence
from web.sessions.online.connection import FULL_REDIAL_S, REACH_S, REACH_STALE_S, REDIAL_S, TICK_MS, Connection
from web.sessions.online.runner import HOLD_MS, SLICE_MS, Runner
from web.sessions.online.words import (DECLINED, INVITED, JOINED_NOTE_MS, MAX_FAILURE, NAME_ASKED_KEY,
                                       OFFER_DECLINED, ROOM_FULL, SAVE_FAILED, result_words, unlinked_words,
                                       waiting_alone, waiting_words)
from web.sessions.seats import LocalHuman, RemoteSeat, Seat
from web.sessions.session import Change, Link as LinkName, Listener, Offer, Question, summary_hand
from web.kit.caught import caught

__all__ = [
    "PeerSession",
    "OnlinePanel",
    "PeerSeat",
    "TICK_MS",
    "SAVE_FAILED",
    # (re-exported: the page's and the tests' names for online play's environment)
    "Channel",
    "ChannelEvents",
    "ChannelFactory",
    "CHANNEL_ERRORS",
    "OnlineEnv",
    "ENV",
    "configure",
    "CURRENT_KEY",
    "NAME_KEY",
    "room_key",
    "peer_ids",
    "room_link",
    "clean_name",
    "refusal_text",
    "rules_query",
    "parse_rules_query",
    "SLICE_MS",
    "HOLD_MS",
    "REDIAL_S",
    "FULL_REDIAL_S",
    "REACH_S",
    "REACH_STALE_S",
]


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
    ask_name: bool = False
    """This browser has never been asked for a name: the panel asks once (*Save name* or *Not now*)."""


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
        self._sent_name = False
        self.expanded = False
        """The folded panel's link and name fields are open (the player asked)."""
        self.invited = False
        """The friend's browser, opening a room link at a table other than the classic one, has not
        accepted the room's rules yet: nothing is dialled, sent or saved until :meth:`accept`."""
        self.declined = False
        """The invited friend chose *Not now*: nothing was sent; the page offers a game against the computer."""
        self.broken = ""
        """Why this page cannot join the room of its link (incomplete, broken: :mod:`.incomplete`), or '':
        the page says it alone and offers a game against the computer (no room is made)."""
        self.ask_name = False
        """This browser has never been asked for a name (:data:`NAME_ASKED_KEY`): the panel asks once."""
        try:
            self.ask_name = not (ctx.storage.get(NAME_KEY) or ctx.storage.get(NAME_ASKED_KEY))
        except Exception as exc:  # noqa: BLE001 - a blocked storage: no name is remembered, none is asked
            caught("sessions.online.peer.PeerSession", exc)
        self._driver = _Driver(self)
        self.runner = Runner(
            game,
            self._driver,
            ctx.timer,
            ctx.storage.when_durable,
            lambda text: self.connection.send(text),
            trace=env.trace,
        )
        """When work runs, texts leave and the table is drawn (:mod:`.runner`)."""
        self.connection = Connection(ctx, env, link, game, self.runner, self._tell, self._driver.check_storage)
        """The channel to the other browser, the dialling and the heartbeat (:mod:`.connection`)."""

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
    def busy(self) -> bool:
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
        self.connection.start(self.tag)
        self.runner.batch(lambda: None)

    def accept(self) -> None:
        """The invited friend accepts the room's rules: the seat is saved, then the key set-up starts."""
        if not self.invited or self._closed or self.broken:
            return
        self.invited = self.declined = False
        joined = f"You joined the room: {self.game.rules.describe()}."
        self.notes.append(joined)
        self.ctx.timer.later(JOINED_NOTE_MS, lambda: self._forget(joined))
        self.save()
        self.start()

    def can_act(self) -> str | None:
        """Why the local player cannot act now (a sentence), or None."""
        if self.invited:
            return self.broken or (DECLINED if self.declined else INVITED)
        if self.game.failure:
            return "The match has stopped: " + self.failure_text()
        if not self.net.can_act:
            if self.net.state in ("refused", "expired"):
                return self.net.status_text
            c = self.connection
            return unlinked_words(self.peer_name, no_direct=self.no_direct, relay=bool(self.env.relay),
                                  no_answer=c.no_answer, stopped=c.stopped_calling, joined=self.joined,
                                  host=self.game.seat == 0)
        waiting = self.game.waiting_for()
        return None if waiting is None else waiting_words(waiting, self.peer_name)

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
                self.save()
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

    def declined_offer(self) -> None:
        """The friend declined our offer of a new match: said in place of the offer."""
        offered = f"You offered {self.peer_name} a new match."
        if offered in self.notes:
            self.notes.remove(offered)
        self.notes.append(OFFER_DECLINED.format(peer=self.peer_name))

    def pause(self, paused: bool) -> None:
        """Nothing to hold: the friend's moves come whatever dialog is open here."""

    def save(self) -> None:
        """Save the link and the game together (:meth:`_Driver.save`)."""
        self._driver.save()

    def close(self) -> None:
        self._closed = True
        self.runner.close()
        self.connection.close()

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
            self.ask_name = False
            try:
                self.ctx.storage.set(NAME_KEY, name)
                self.ctx.storage.set(NAME_ASKED_KEY, "1")
            except Exception as exc:  # noqa: BLE001
                caught("sessions.online.peer.PeerSession.click", exc)
            self._sent_name = False
            self.runner.batch(self._send_name)
            return True
        if action in ("online-accept", "online-decline"):
            self.answer(action == "online-accept")
            return True
        if action == "online-name-later":
            self.ask_name = False
            try:
                self.ctx.storage.set(NAME_ASKED_KEY, "1")
            except Exception as exc:  # noqa: BLE001 - a full storage: asked again on the next visit
                caught("sessions.online.peer.PeerSession.click", exc)
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
        return dataclasses.replace(scene, view=view, online=panel_slot(self.panel()), busy=self.busy)

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
            blocked, status = True, self.broken or (DECLINED if self.declined else INVITED)
        elif state == "offline" and self.game.seat == 0 and not self.joined and not blocked and not self.game.failure:
            status = waiting_alone(self.game.seat, self.peer_name)  # waiting is no error (panel: a grey dot)
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
            invited=self.invited and not self.declined, declined=self.declined,
            ask_name=self.ask_name and not blocked)

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
        return result_words(self.game.verification, self.peer_name, bool(self.game.failure))

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

    # --- the connection ------------------------------------------------------------------------------

    @property
    def channel(self) -> Channel | None:
        """The channel to the other browser (None before :meth:`start`, or when none is made)."""
        return self.connection.channel

    @property
    def no_direct(self) -> bool:
        """The friend has been there a while without a channel opening (the page says why)."""
        return self.connection.no_direct

    @property
    def working(self) -> bool:
        """Online work is under way in this page (:attr:`Connection.working`)."""
        return self.connection.working

    def _tell(self, text: str, once: bool) -> None:
        if once and text in self.notes:
            return
        self.notes.append(text)
        if once:
            self.notes = self.notes[-3:]
        self._emit(Change("link"))

    # --- inside ----------------------------------------------------------------------------------------

    def _forget(self, note: str) -> None:
        """Take a passing note (``You joined the room…``) off the panel."""
        if note in self.notes and not self._closed:
            self.notes.remove(note)
            self._emit(Change("link"))

    def _send_name(self) -> None:
        if not self._sent_name:
            self._sent_name = True
            self.net.send({"t": "name", "name": self.my_name}, self.env.wall())

    def _problem(self, text: str) -> None:
        self.problems.append(text[:400])
        self.problems = self.problems[-5:]

    def _emit(self, change: Change) -> None:
        self.runner.draw(change)

    def _trace(self, label: str) -> None:
        trace = self.env.trace
        if trace is not None:
            trace(label)


class _Driver:
    """The runner's view of a session (:class:`~.runner.Driven`): what a batch carries between the game,
    the link and the channel, what the table shows, what is saved and drawn. Apart from the session, so
    the Session's own surface stays the protocol's."""

    def __init__(self, session: PeerSession) -> None:
        self.s = session
        self._log = RoomLog(session.ctx.storage, room_key(session.net.room))
        """The room's record: a base and an append-only log (a save that changes nothing writes nothing)."""
        self._log.load()
        self._save_failed = False
        self._save_failure: str | None = None

    def look(self) -> tuple[object, ...]:
        """What the table shows now (compared by the runner before and after a batch)."""
        st = self.s.match.state
        return (len(st.events), st.scores[0], st.scores[1], self.s.net.state, self.s.game.match_number,
                self.s.game.failure, st.hand_number, self.s.busy, self.s.game.new_match_offer,
                self.s.game.waiting_for(), self.s.game.verification)

    def change(self, before: Any) -> Change | None:
        """The redraw owed since the look ``before``: a new match, a move, an offer, the link (None: at
        most "busy" or "checking" changed, which the runner draws once the payload is out)."""
        events, score0, score1, state, number, failure, hand, _, question, _, _ = before
        st = self.s.match.state
        if self.s.game.match_number != number:
            self.s.acked_hand = 0
            self.s.problems.clear()
            self.s.notes.append("A new match has started.")
            return Change("applied", events=tuple(st.events), scores_before=(0, 0))
        if len(st.events) != events or st.hand_number != hand:
            return Change("applied", events=tuple(st.events[events:]), scores_before=(score0, score1))
        if self.s.game.new_match_offer != question:
            if question == self.s.game.seat and self.s.game.new_match_offer is None and not self.s.game.settling:
                self.s.declined_offer()
            return Change("question")
        if self.s.net.state != state or self.s.game.failure != failure:
            return Change("link")
        return None

    def draw(self, change: Change) -> None:
        for listener in list(self.s._listeners):
            listener(change)

    def save(self) -> None:
        """Save the link and the game together. A save that fails (a full storage, or a bug) never
        stops the match: it goes on in this page, the player is told once, and the next batch tries again.
        Nothing is saved for a room not joined yet (:attr:`invited`): a reload asks again."""
        if self.s.invited:
            return
        self.s._trace("save >")
        try:
            head = {"format": 1, "room": self.s.net.room, "seat": self.s.game.seat, "tag": self.s.tag,
                    "my_name": self.s.my_name, "peer_name": self.s.peer_name, "acked": self.s.acked_hand,
                    "joined": self.s.joined}
            # Only what changed since the last save is appended (:mod:`.room_log`).
            if not self._log.save(head, self.s.net, self.s.game):
                return  # nothing changed since the last save: the store is not written again
            if self.s.ctx.storage.get(CURRENT_KEY) != self.s.net.room:
                self.s.ctx.storage.set(CURRENT_KEY, self.s.net.room)
        except Exception as exc:  # noqa: BLE001 - a full storage must not stop the game
            caught("sessions.online.peer._Driver.save", exc)
            if not self._save_failed:
                self._save_failed = True
                self.s.notes.append(SAVE_FAILED)
            return
        finally:
            self.s._trace("save <")
        self._save_failed = False

    def check_storage(self) -> None:
        """Tell the player when saves stop reaching the disk (and when they reach it again)."""
        try:
            why = self.s.ctx.storage.failure()
        except Exception as exc:  # noqa: BLE001
            caught("sessions.online.peer._Driver.check_storage", exc)
            why = None
        if why == self._save_failure:
            return
        self._save_failure = why
        if why is not None:
            self.s._problem(f"This browser cannot save the match ({why}), so nothing more is sent to "
                          f"{self.s.peer_name} until it can; it keeps trying. If you reload, the match "
                          "resumes from the last move saved.")
        else:
            self.s.notes.append("Saving works again.")
        self.s._emit(Change("link"))


    def settled(self) -> None:
        self.s.connection.hold_check()

    def carry(self) -> tuple[bool, bool]:
        """Carry payloads and envelopes until quiet: (the link reported anything, a payload was sent)."""
        now = self.s.env.wall()
        heard = carried = False
        for _ in range(10_000):
            moved = False
            for payload in self.s.game.take_outbox():
                self.s._trace(f"emit {payload.get('t')}")
                self.s.net.send(payload, now)
                moved = carried = True
            for text in self.s.net.pop_outgoing():
                moved = True
                if self.s.channel is not None and self.s.connection.open:
                    self.s.runner.send(text)
            for event in self.s.net.pop_events():
                moved = heard = True
                if isinstance(event, Delivered):
                    self._deliver(event.payload)
                elif isinstance(event, Problem):
                    self.s._problem(event.text)
                elif isinstance(event, StateChanged):
                    if event.state == "live":
                        self.s.joined = True
                elif isinstance(event, HangUp):
                    self.s.notes.append(event.text)
                    self.s.ctx.timer.later(200, self.s.connection.hang_up)
            if not moved:
                break
        return heard, carried

    def _deliver(self, payload: dict[str, Any]) -> None:
        self.s._trace(f"deliver {clean_peer_text(payload.get('t'), 12)}")
        if payload.get("t") == "name":
            name = clean_name(payload.get("name"))
            if name is None:
                self.s.net.distrust("The other browser sent a name that is not text; it was ignored.",
                                  self.s.env.wall())
                return
            self.s.peer_name = name
            self.s._seats[self.s.other].label = name
            return
        try:
            self.s.game.receive(payload)
        except ProtocolError as exc:
            # Refused by the rules or the deal: nothing changes, and the peer is not trusted again
            # (no move is taken from it) until it proves its seat in a new handshake.
            self.s.net.distrust(f"The other browser sent something wrong ({exc}). It was refused; nothing changed.",
                              self.s.env.wall())

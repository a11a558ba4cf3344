"""Online play: :class:`PeerSession` (the Session protocol over an OnlineGame and a Link) and how the
online mode opens one (:func:`new_room`, :func:`resume_room`). The mode's menu entry is in
:mod:`web.sessions.registry`, which imports this module only when an online session is first opened.

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
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from cribbage.actions import Action, Muggins
from cribbage.match import Match, SaveError
from cribbage.online.group import Group
from cribbage.online.errors import ProtocolError
from cribbage.online.game import OldProtocolSave, OnlineGame, clean_peer_text, online_rules
from cribbage.rules import CLASSIC, Rules, RulesError
from cribbage.online.link import (LOSS_TIMEOUT, Binding, Delivered, HangUp, Link, LinkError, Problem,
                                  StateChanged, is_room_id, is_room_secret, new_room_id, new_room_secret,
                                  new_seat_key, rendezvous)
from cribbage.state import Event, IllegalActionError, Phase
from cribbage.view import SeatView

from web.sessions.base import ONLINE_SAVE_KEY, Mode, OpenContext
from web.sessions.newgame import RULE_WORDS
from web.sessions.online.room_rules import rules_sentence
from web.sessions.seats import LocalHuman, RemoteSeat, Seat
from web.sessions.session import Change, ChangeKind, Link as LinkName, Listener, Offer, Question, summary_hand

__all__ = ["Channel", "ChannelEvents", "ChannelFactory", "OnlineEnv", "ENV", "configure", "PeerSession",
           "OnlinePanel", "new_room", "resume_room", "room_key", "CURRENT_KEY", "NAME_KEY", "clean_name",
           "peer_ids", "rules_query", "parse_rules_query"]

CURRENT_KEY = ONLINE_SAVE_KEY
"""The room this browser last played in (also the mode's save key: the menu offers to resume it)."""
NAME_KEY = "cribbage.online.name"
"""This browser's player name."""
SLICE_MS = 8.0
"""Work per task: steps until this budget is spent (one step of the proven deal is a few ms inside
Pyodide), so a task of the deal's work, with a move's save and redraw beside its first slice, stays
well under 50 ms even while the page shares its core. The next slice comes through the page's
``soon`` (no 4 ms timer clamp a hop), so halving the budget from 16 ms costs the deal no time."""
HOLD_MS = 250
"""Longest a payload's save may keep the queued work (and a redraw) waiting: the store usually
answers in a few milliseconds, and the payload goes out before anything else runs."""
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
INCOMPLETE_LINK = ("This room link is incomplete: ask your friend for the whole link (with the part after "
                   "\u201c#\u201d).")
MAX_NAME = 24
INVITED = "Your friend\u2019s room plays by house rules. Join it to play by them, or not now: nothing is sent before you join."
"""What the invited friend reads above the room's rules and the *Join* and *Not now* buttons."""
DECLINED = ("You did not join this room, and nothing was sent to it. To join later, open the link again; "
            "meanwhile you can play against the computer.")


def room_key(room: str) -> str:
    """Where a room's link and game are saved."""
    return f"cribbage.online.room.{room}"


def peer_ids(room: str, seat: int, tag: str, secret: str | None = None) -> tuple[str, str]:
    """(this browser's signalling id, the host's) for a room: the host is reachable at a fixed id,
    derived from the room secret when there is one (:func:`~cribbage.online.link.rendezvous`)."""
    name = rendezvous(room, secret)
    host = f"cribbage-{name}-0"
    return (host if seat == 0 else f"cribbage-{name}-1-{tag}"), host


def refusal_text(detail: str) -> str | None:
    """The sentence for what a room link asks that this page does not trust (net.js ``untrusted()``:
    JSON ``{"what": "signal"|"relay", "value": ...}``, or "" for nothing), or None."""
    try:
        data = json.loads(detail) if detail else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return None
    value = "".join(ch for ch in str(data.get("value", "")) if unicodedata.category(ch)[0] != "C").strip()
    named = "\u201c" + (value if len(value) <= 80 else value[:80] + "\u2026") + "\u201d"
    if data.get("what") == "relay":
        return (f"This link asks to route the game through the relay {named}, which a link may not choose, "
                "so nothing was contacted: ask your friend for a room link made on this page.")
    return (f"This link asks to use the signalling server {named}, which this page does not trust, so it "
            "was not contacted: ask your friend for a room link made on this page.")


def clean_name(text: object) -> str | None:
    """A player name as plain text, or None: cleaned as all the other browser's text is
    (:func:`~cribbage.online.game.clean_peer_text`: no lone surrogates, no control or format
    characters, whitespace collapsed), at most 24 characters."""
    return clean_peer_text(text, MAX_NAME) or None


class Channel(Protocol):
    """A string pipe to the other browser (PeerJS in the page)."""

    def connect(self) -> None:
        """The friend: (re)dial the room's host. The host: nothing (it is called)."""
        ...

    def send(self, text: str) -> bool: ...
    def drop(self) -> None:
        """Close the current channel; stay reachable."""
        ...

    def close(self) -> None:
        """Close everything; no event follows."""
        ...


class ChannelEvents(Protocol):
    """What a channel tells its session (strings only)."""

    def on_open(self, binding: Binding | None = None) -> None:
        """The channel opened; ``binding``: its DTLS fingerprints (None: unreadable, nothing is proven)."""
        ...

    def on_message(self, text: str) -> None: ...
    def on_close(self) -> None: ...
    def on_full(self) -> None: ...
    def on_error(self, code: str) -> None: ...
    def on_reach(self) -> None:
        """The other browser is registered and a channel to it is being negotiated (not open yet)."""
        ...


CHANNEL_ERRORS = {
    "unavailable-id": "This seat is still held by another tab, or by a page that was closed abruptly; trying again.",
    "no-peerjs": "Online play could not load its connection library (is this device offline?); reload the page "
                 "to try again.",
    "bad-signal": "The signalling server named in this link cannot be used.",
    **{code: "The signalling server cannot be reached; retrying." for code in (
        "network", "signal-lost", "socket-error", "socket-closed", "server-error", "open-timeout")},
}
"""What the page says of a channel error (never its code); a code not here says nothing (the next
dial tries again)."""

ChannelFactory = Callable[[str, int, str, str, ChannelEvents], Channel]
"""(room, seat, my id, host id, events) -> a channel."""


@dataclass
class OnlineEnv:
    """What the page gives online play (``browser.py`` fills it; the tests give in-memory channels)."""

    channel: ChannelFactory | None = None
    room: str | None = None
    """The room id of ``?room=`` (None: none in the URL)."""
    secret: str | None = None
    """The room secret of the link's ``#k=`` (None: none, or malformed: the link is incomplete)."""
    bad_room: str | None = None
    """A ``?room=`` that is not a room id (the page says the link is broken)."""
    page_url: str = "./"
    """The page's address without its query (the room link starts with it)."""
    link_query: str = ""
    """Extra query for the room link, e.g. ``&signal=...`` (same signalling server)."""
    refusal: str | None = None
    """Why online play contacts nothing on this page (its link names an untrusted signalling server
    or relay, see :func:`refusal_text`), or None."""
    wall: Callable[[], float] = time.time
    group: Group | None = None
    """The group of the deal: None is NIST P-256 (tests on loopback may use a small one)."""
    rules: Rules = CLASSIC
    """The table of ``?rules=``: a new room's (``?mode=online&rules=to61,muggins``), or the room's
    own in its link (the friend plays by them; the host's browser checks they are its own)."""
    bad_rules: str | None = None
    """Why the link's ``?rules=`` cannot be played online (the page says so), or None."""
    hold: Callable[[bool], None] | None = None
    """Called with True while this page's online work is under way (the channel opening and its
    handshake, the key set-up, a move to check or prove, the shuffles ahead) and False once it is
    done: the page then holds its own background jobs (the start-up snapshot's worker and the service
    worker's install, which took a core from the deal's slices on a 2-core machine), see
    ``static/loader.mjs`` and ``static/sw-register.js``."""
    qr: Callable[[str, Callable[[], None]], str] | None = None
    """The room link's QR code as SVG markup, drawn by the page (``web.page.net.RoomQr``: a vendored
    library encodes it): ``qr(link, ready)`` gives ``""`` while the library loads and calls
    ``ready()`` once it is there. None: no QR code."""
    trace: Callable[[str], None] | None = None
    """Called with a short label at each step of the session (a payload in or out, a slice of work,
    a save, a redraw), for ``py/tools/bench_online.py``: kinds and durations only, never a card or
    a value (the page turns it on with ``?trace=1``)."""


ENV = OnlineEnv()

_RULE_WORDS: dict[str, dict[str, Any]] = {"to61": RULE_WORDS["to61"], **RULE_WORDS}
"""The words of ``?rules=``, comma-separated: the New game dialog's list (:data:`web.sessions.newgame.RULE_WORDS`),
``to61`` first as room links have always written it (none: the classic game)."""


def rules_query(rules: Rules) -> str:
    """The ``rules=`` value of a room link (``""`` for the classic table)."""
    data = rules.to_json()
    return ",".join(word for word, choice in _RULE_WORDS.items() if all(data.get(k) == v for k, v in choice.items()))


def parse_rules_query(text: str) -> Rules:
    """The table a ``?rules=`` names; :class:`RulesError` (in words) for a word online play does not know."""
    data: dict[str, Any] = {}
    for word in (w.strip() for w in text.split(",")):
        if not word or word == "classic":
            continue
        if word not in _RULE_WORDS:
            raise RulesError(f"unknown rule {clean_peer_text(word, 20)!r} (online: {', '.join(_RULE_WORDS)})")
        data.update(_RULE_WORDS[word])
    return online_rules(data)


def configure(**values: Any) -> OnlineEnv:
    """Set the environment of online play (the page, or a test)."""
    global ENV
    room = values.get("room")
    if room is not None and not is_room_id(room):
        values = {**values, "room": None, "bad_room": str(room)[:80]}
    if not is_room_secret(values.get("secret")):
        values = {**values, "secret": None}
    text = values.pop("rules_text", None)
    if text:
        try:
            values = {**values, "rules": parse_rules_query(str(text)[:200])}
        except RulesError as exc:
            values = {**values, "bad_rules": f"This link names rules online play does not have: {exc}."}
    ENV = dataclasses.replace(OnlineEnv(), **values)
    return ENV


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
        self._pumping = False
        self._again = False
        self._work_handle: object | None = None
        self._tick_handle: object | None = None
        self._last_dial = float("-inf")
        self._open = False
        self._heard = 0.0
        self._sent_name = False
        self._carried = False
        self._save_failed = False
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
        self._held: deque[tuple[int, str]] = deque()
        """Texts for the channel waiting for the save that produced them to be on disk (with the
        channel's generation: a text meant for a channel that has closed since is dropped)."""
        self._queued = 0
        self._released = 0
        self._generation = 0
        self._save_failure: str | None = None
        self._owed = False
        """A redraw put off while a payload waits for its save or the move's queued work goes on
        (see :meth:`_batch`)."""
        self._hold_handle: object | None = None
        self._held_too_long = False
        self._deferred: list[Change] = []
        """Redraws put off to a task of their own after a slice of work (see :meth:`_redraw`), drawn in
        order by :meth:`_draw_deferred` (or first when another redraw is made at once)."""
        self._deferred_handle: object | None = None
        self._sliced = False
        """A slice of work ran in this batch (its redraw then gets a task of its own)."""
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
            me, host = peer_ids(self.net.room, self.game.seat, self.tag, self.net.secret)
            self.channel = self.env.channel(self.net.room, self.game.seat, me, host, self)
            self._dial()
        self._tick_handle = self.ctx.timer.later(TICK_MS, self._tick)
        self._batch(lambda: None)

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
            self._batch(lambda: self.game.act(action), work=True, now=True)
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
                self._batch(self.game.accept_next_hand)
            else:
                self._save()
            self._emit(Change("next hand", offer=offer))
        elif offer is Offer.NEW_MATCH:
            if self.question is not None:
                self.answer(True)
                return
            if self.game.new_match_offer is not None:
                return
            self._batch(self.game.offer_new_match)
            self.notes.append(f"You offered {self.peer_name} a new match.")
            self._emit(Change("question", offer=offer))

    def answer(self, yes: bool) -> None:
        """Accept or decline the friend's offer of a new match."""
        if self.question is None or self._closed or self.invited:
            return
        self._batch(lambda: self.game.answer_new_match(yes))
        if not yes:
            self.notes.append(f"You declined {self.peer_name}\u2019s new match.")
            self._emit(Change("declined", offer=Offer.NEW_MATCH))

    def pause(self, paused: bool) -> None:
        """Nothing to hold: the friend's moves come whatever dialog is open here."""

    def save(self) -> None:
        self._save()

    def close(self) -> None:
        self._closed = True
        for handle in (self._work_handle, self._tick_handle, self._hold_handle, self._deferred_handle):
            if handle is not None:
                self.ctx.timer.cancel(handle)
        self._work_handle = self._tick_handle = self._hold_handle = self._deferred_handle = None
        self._deferred.clear()
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
            self._batch(self._send_name)
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
        if self.game.failure:  # stopped while its result was being checked: it never will be
            return (f"The match is over, but the result is unverified: the match stopped before "
                    f"{self.peer_name}\u2019s last cards were checked.")
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
        self._generation += 1
        self._reach_first = None
        self.no_direct = False
        self._heard = self.env.wall()
        self._batch(lambda: self.net.connected(self.env.wall(), binding))

    def on_message(self, text: str) -> None:
        self._trace("channel in")
        self._heard = self.env.wall()
        self._batch(lambda: self.net.receive(text, self.env.wall()), work=True)

    def on_close(self) -> None:
        self._open = False
        self._generation += 1
        if not self.net.full:
            self._last_dial = float("-inf")  # the friend redials at the next tick
        self._batch(lambda: self.net.disconnected(self.env.wall()))

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

    def on_knock(self, caller: str, text: str) -> str | None:
        """A second caller's first message while a channel is up: None lets it replace the channel
        (it claims the friend's seat and the one there has not proved it), else the refusal to send it."""
        return self.net.screen(text, self.env.wall(), caller)

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
            self._generation += 1
            self.channel.drop()
            self._batch(lambda: self.net.disconnected(now))
        self._dial()
        self._check_storage()
        self._check_reach(now)
        verification = self.game.verification

        def tick() -> None:
            self.net.tick(now)
            self.game.tick(now)

        self._batch(tick, quiet=verification == self.game.verification)
        if not self._closed:
            self._tick_handle = self.ctx.timer.later(TICK_MS, self._tick)

    def _work(self) -> None:
        self._trace("work")
        self._work_handle = None
        if self._closed:
            return
        if self._holding():
            self._schedule_work()  # a payload waits for its save: _resume() runs the work once it is out
            return
        # Saved only if a piece of work finished (or something was sent): work in progress is not
        # part of a save, so saving after every slice of a shuffle's proof would only cost time.
        self._batch(self._slice, quiet=True)

    def _slice(self) -> None:
        """One slice of the game's queued work (SLICE_MS), traced for the benchmark."""
        self._sliced = True
        trace = self.env.trace
        if trace is None:
            self.game.step(SLICE_MS)
            return
        lane = "fg" if self.game.moving else "bg"
        job = self.game.next_job
        trace(f"slice {lane} {job} >" if job else f"slice {lane} >")
        self.game.step(SLICE_MS)
        trace(f"slice {lane} <")

    def _batch(self, fn: Callable[[], object], quiet: bool = False, work: bool = False, now: bool = False) -> None:
        """Run ``fn`` then carry everything it set moving; save once; tell the listeners once.

        ``quiet``: ``fn`` changes nothing worth saving by itself (the heartbeat, a slice of work): saved
        only if the link then reported events, a payload was sent or a piece of work finished.
        ``work``: a move was made or a payload came: its first slice of work runs now, in the same
        task (its checks and shares are a few milliseconds: no timer hop, one save). After any slice the
        table is redrawn in a task of its own right after (:meth:`_soon`): a move's slice, its save and
        its redraw in one task were the longest tasks of a match (62-74 ms of wall time, quiet).
        ``now``: the local player's own move: drawn in its tap's task (the page must never show, even
        for a frame, a table on which the move just made is still to make), "busy" included, and its
        first slice runs in the next task (a move's slice of proofs or audit and its redraw in the tap's
        task made tasks of 51-67 ms of wall time, quiet). Its payload then goes out a redraw later.

        What goes out first: a payload waits for its save to be on disk, so until the store says so
        (or :data:`HOLD_MS` at most) no more work runs and a redraw that only says "busy" waits; the
        same redraw waits while more of the move's work is queued. The table is then drawn once per
        move, after its payload is on its way."""
        if not self._pumping:
            self._sliced = False
        st = self.match.state
        before, scores = len(st.events), (st.scores[0], st.scores[1])
        state, number, failure, hand = self.net.state, self.game.match_number, self.game.failure, st.hand_number
        busy = self.busy
        question = self.game.new_match_offer
        said = (self.game.waiting_for(), self.game.verification)  # what the table tells the player
        revision = self.game.revision
        if self._pumping:
            fn()
            self._again = True
            return
        held_before = self._holding()  # (what this batch sends waits for this batch's save: no matter)
        self._pumping = True
        try:
            fn()
            heard = self._pump()
            if work and not now and self.game.moving and not self._closed and not held_before:
                self._slice()
                heard = self._pump() or heard
        finally:
            self._pumping = False
        if self._closed:
            return
        if not quiet or heard or self._carried or self.game.revision != revision:
            self._save()
        st = self.match.state
        change: Change | None = None
        if self.game.match_number != number:
            self.acked_hand = 0
            self.problems.clear()
            self.notes.append("A new match has started.")
            change = Change("applied", events=tuple(st.events), scores_before=(0, 0))
        elif len(st.events) != before or st.hand_number != hand:
            change = Change("applied", events=tuple(st.events[before:]), scores_before=scores)
        elif self.game.new_match_offer != question:
            change = Change("question")
        elif self.net.state != state or self.game.failure != failure:
            change = Change("link")
        elif self._again or heard or self.busy != busy or (self.game.waiting_for(), self.game.verification) != said:
            self._owed = True  # "busy", "checking": drawn below, or once the payload is out and the work done
        self._again = False
        if change is None and self._owed and (now or (not self._holding() and not (self.game.moving and self.game.busy))):
            change = Change("link")  # (the player's own move: its "busy" frame at once, see above)
        if change is not None:
            self._owed = False
            self._redraw(change)
        self._release_when_durable()
        self._schedule_work()
        self._sliced = False
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

    def _schedule_work(self) -> None:
        """Run the queued work on the host's timer, unless a payload waits for its save to be on disk:
        then :meth:`_release` (or :data:`HOLD_MS` at most) resumes it."""
        if self._closed:
            return
        if self._holding():
            if self._hold_handle is None and (self.game.busy or self._owed):
                self._hold_handle = self.ctx.timer.later(HOLD_MS, self._hold_over)
            return
        if self._work_handle is None and self.game.busy:
            self._work_handle = self._soon(self._work)

    def _soon(self, fn: Callable[[], None]) -> object:
        """The next slice of work: at once after this task (the page's ``soon``: no 4 ms clamp of
        nested timers), else on a zero-delay timer."""
        soon = getattr(self.ctx.timer, "soon", None)
        return soon(fn) if soon is not None else self.ctx.timer.later(0, fn)

    def _holding(self) -> bool:
        """A payload waits for its save to be on disk (for up to :data:`HOLD_MS`): nothing else runs."""
        return self._released < self._queued and not self._held_too_long

    def _hold_over(self) -> None:
        """The store is slow (or cannot write): the work goes on while the payloads still wait."""
        self._hold_handle = None
        self._held_too_long = True
        self._resume()

    def _resume(self) -> None:
        """The payloads are out (or the store is slow): the queued work goes on, a redraw put off is made."""
        self._trace("resume")
        if self._hold_handle is not None:
            self.ctx.timer.cancel(self._hold_handle)
            self._hold_handle = None
        if self._closed:
            return
        if self._work_handle is None and self.game.busy:
            self._work_handle = self._soon(self._work)
        if self._owed and not (self.game.moving and self.game.busy) and not self._pumping:
            self._owed = False
            self._redraw(Change("link"))

    def _pump(self) -> bool:
        """Carry payloads and envelopes until quiet; True if the link reported anything."""
        now = self.env.wall()
        heard = False
        self._carried = False
        for _ in range(10_000):
            moved = False
            for payload in self.game.take_outbox():
                self._trace(f"emit {payload.get('t')}")
                self.net.send(payload, now)
                moved = self._carried = True
            for text in self.net.pop_outgoing():
                moved = True
                if self.channel is not None and self._open:
                    self._held.append((self._generation, text))
                    self._queued += 1
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
                return heard
        return heard

    def _release_when_durable(self) -> None:
        """Durable before sent: the texts queued so far go to the channel once every save made so
        far is on disk (an acknowledgement included, so nothing is acknowledged that a killed
        browser could lose). In order; at once with a storage whose writes are durable at once."""
        if self._released == self._queued:
            return
        mark = self._queued
        self._trace(f"durable wait {self._released}..{mark}")
        self.ctx.storage.when_durable(lambda: self._release(mark))

    def _release(self, mark: int) -> None:
        self._trace(f"durable {mark}")
        while self._held and self._released < mark:
            generation, text = self._held.popleft()
            self._released += 1
            if (generation == self._generation and self._open and self.channel is not None
                    and not self._closed):
                self._trace("channel out")
                self.channel.send(text)
        if self._released >= self._queued:
            self._held_too_long = False
            self._resume()

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
            self.ctx.storage.set(room_key(self.net.room), record)
            self.ctx.storage.set(CURRENT_KEY, self.net.room)
        except Exception:  # noqa: BLE001 - a full storage must not stop the game
            if not self._save_failed:
                self._save_failed = True
                self.notes.append(SAVE_FAILED)
            return
        finally:
            self._trace("save <")
        self._save_failed = False

    def _redraw(self, change: Change) -> None:
        """Tell the listeners now, or, if a slice of work ran in this task, in a task of its own right
        after (a slice, its save and a redraw together made the longest tasks of a match)."""
        if not self._sliced:
            self._emit(change)
            return
        self._deferred.append(change)
        if self._deferred_handle is None:
            self._deferred_handle = self._soon(self._draw_deferred)

    def _draw_deferred(self) -> None:
        """Draw the redraws put off by :meth:`_redraw` (in their own task, or before what comes next)."""
        changes, handle = self._deferred, self._deferred_handle
        self._deferred, self._deferred_handle = [], None
        if handle is not None:
            self.ctx.timer.cancel(handle)
        for change in changes:
            if not self._closed:
                self._emit_now(change)

    def _emit(self, change: Change) -> None:
        self._draw_deferred()  # in order: a move's redraw put off comes first
        self._emit_now(change)

    def _emit_now(self, change: Change) -> None:
        self._trace(f"redraw {change.kind} >")
        for listener in list(self._listeners):
            listener(change)
        self._trace("redraw <")

    def _trace(self, label: str) -> None:
        trace = self.env.trace
        if trace is not None:
            trace(label)


def room_link(env: OnlineEnv, room: str, secret: str | None = None, rules: Rules = CLASSIC) -> str:
    """The address a friend opens to join ``room``; the secret goes in the fragment (``#k=``), which
    the browser never sends to any server. The room's rules ride in the query (``&rules=``): the friend
    sees them before playing, and both browsers check them in the first payload of every match."""
    words = rules_query(rules)
    link = f"{env.page_url}?room={room}{'&rules=' + words if words else ''}{env.link_query}"
    return f"{link}#k={secret}" if secret else link


def _my_name(ctx: OpenContext, seat: int) -> str:
    """The name this browser plays under (its saved name, else "Player 1" / "Player 2")."""
    try:
        return clean_name(ctx.storage.get(NAME_KEY)) or f"Player {seat + 1}"
    except Exception:  # noqa: BLE001
        return f"Player {seat + 1}"


def _load(ctx: OpenContext, env: OnlineEnv, room: str) -> PeerSession | None:
    """The saved seat of ``room`` in this browser (SaveError/LinkError if it is damaged)."""
    raw = ctx.storage.get(room_key(room))
    if not raw:
        return None
    data = json.loads(raw)
    if not isinstance(data, dict) or data.get("format") != 1 or data.get("room") != room:
        raise SaveError("the saved online room is damaged")
    link = Link.from_dict(data["link"])
    notes: list[str] = []
    try:
        game = OnlineGame.from_dict(data["game"], groups=() if env.group is None else (env.group,))
        if game.group.name != (env.group.name if env.group is not None else "P-256"):  # (a test save on a real page)
            raise SaveError(f"this room\u2019s match was saved on a page playing with the group {game.group.name}, "
                            f"and this page plays with {env.group.name if env.group is not None else 'NIST P-256'} "
                            "only, so it was not loaded")
    except OldProtocolSave:
        # The deal of an earlier version cannot continue: the room, its link and the seats stay,
        # and a new match starts in it.
        game = OnlineGame(link.seat, room=room, group=env.group, rules=env.rules)
        notes.append("This room\u2019s match was made by an earlier version of the game and cannot be "
                     "continued; a new match has started in the same room.")
    if link.seat != game.seat or link.room != room:
        raise SaveError("the saved online room does not match its seat")
    if link.peer_commit is None and link.secret is None:
        if link.seat == 0:
            link.secret = new_room_secret()  # a room made before secrets, never joined: its link gets one now
        elif env.room == room:
            link.secret = env.secret  # a friend whose first join never finished: the link's secret
    session = PeerSession(ctx, env, link, game, str(data["tag"]),
                          clean_name(data.get("my_name")) or _my_name(ctx, game.seat),
                          clean_name(data.get("peer_name")) or "Friend", 0 if notes else int(data.get("acked", 0)),
                          bool(data.get("joined", False)))
    session.notes.extend(notes)
    return session


def _fresh(ctx: OpenContext, env: OnlineEnv, room: str, seat: int, rules: Rules | None = None) -> PeerSession:
    """A new seat in ``room``: the host's (at ``rules``, else the page's ``?rules=``), or the friend's
    at the room link's rules. A friend asked to a table other than the classic one is only invited:
    nothing is saved, sent or dialled until they accept (:meth:`PeerSession.accept`)."""
    now = env.wall()
    key = new_seat_key()
    link = Link.host(room, key, now, new_room_secret()) if seat == 0 else Link.join(room, key, now, env.secret)
    game = OnlineGame(seat, room=room, group=env.group, rules=env.rules if rules is None else rules)
    session = PeerSession(ctx, env, link, game, secrets.token_hex(6), _my_name(ctx, seat), "Friend")
    if env.bad_rules and seat == 0 and rules is None:
        session.notes.append(env.bad_rules + " This room plays the classic game.")
    if seat == 1 and not game.rules.is_classic:
        session.invited = True
    else:
        session._save()
    return session


def new_room(mode: Mode, ctx: OpenContext, seed: int, level: str) -> PeerSession:
    """Create a room: this browser holds seat 0 and shows the link to share. Its rules: the ones
    chosen in the menu (``ctx.rules``), else the page's ``?rules=``."""
    return _fresh(ctx, ENV, new_room_id(), 0, ctx.rules)


def resume_room(mode: Mode, ctx: OpenContext) -> tuple[PeerSession | None, str | None]:
    """``?room=ID``: reclaim this browser's seat there, or join as the friend; else the last room."""
    env = ENV
    if env.bad_room is not None:
        return None, "This room link is broken (its room id is not valid). A new room was opened instead."
    room = env.room or ctx.storage.get(CURRENT_KEY)
    if not room or not is_room_id(room):
        return None, None
    try:
        session = _load(ctx, env, room)
    except (SaveError, LinkError, ValueError, KeyError, TypeError) as exc:
        aside = f"{room_key(room)}.corrupt.{ctx.now_ms()}"
        try:
            ctx.storage.set(aside, ctx.storage.get(room_key(room)) or "")
        except Exception:  # noqa: BLE001
            pass
        return None, (f"The saved online game could not be read. A copy of it was kept in this browser."
                      f"\nWhy: {exc}. The copy is stored as \u201c{aside}\u201d.")
    if session is not None:
        if session.net.expired(env.wall()):
            return session, "This room has expired (unused for seven days). Start a new one."
        return session, None
    if env.room is None:
        return None, None
    if env.secret is None:
        return None, INCOMPLETE_LINK
    if env.bad_rules:
        return None, env.bad_rules + " Ask your friend for the room's link again."
    return _fresh(ctx, env, room, 1), None


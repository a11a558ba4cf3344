"""The table's Session for a room of three or four online (:class:`PartySession`): one browser's seat,
over a :class:`~cribbage.online.table_session.TableSession` (the room's mesh and the proven deal) and
the page's channels (:class:`~web.sessions.online.mesh_env.MeshChannels`, one per other browser).

What the page does reaches the table session with the time, in the two-player scheduler's batches
(:class:`~web.sessions.online.runner.Runner`, its three rules kept: your own move drawn in the tap's
task; nothing sent before the save that made it is durable; no slice of crypto work in the same task
as a redraw); what it wants written goes to the channel of its peer; the signalling ids it wants
called are dialled on the heartbeat (:data:`TICK_MS`). Its save is written once per batch
(:mod:`.store`), and a reload restores the same seat of the same game (:mod:`.room`).

The table is the session's match (:attr:`TableGame.match <cribbage.online.table_game.TableGame.match>`):
it holds only the cards the deal opened for this seat, so whatever the table draws of it is this seat's
to know. Before the game starts, the table shows the lobby alone (the panel, :mod:`.panel`: the seats in
the order people came, each named). Next hand and a new match are agreed by every seat
(:meth:`TableSession.agree`); the host may end the match, unverified, while a seat is away or will not agree.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from cribbage.actions import Action
from cribbage.deal import OpenedPacks
from cribbage.match import Match
from cribbage.online.link import LOSS_TIMEOUT
from cribbage.online.table_session import TableSession
from cribbage.rules import Rules
from cribbage.state import IllegalActionError
from cribbage.view import SeatView

from web.kit.caught import caught
from web.sessions.base import OpenContext
from web.sessions.online.env import NAME_KEY, OnlineEnv, clean_name, room_link
from web.sessions.online.mesh_env import MeshChannels
from web.sessions.online.party.driver import PartyDriver
from web.sessions.online.party.panel import PartyPanel, panel_slot
from web.sessions.online.runner import Runner
from web.sessions.online.words import NAME_ASKED_KEY
from web.sessions.seats import LocalHuman, RemoteSeat, Seat
from web.sessions.session import Change, Link, Listener, Offer, Question, summary_hand

__all__ = ["PartySession", "TICK_MS", "NO_MESH"]

TICK_MS = 500
"""The heartbeat: the room's links' timeouts, and the ids to call again."""
NO_MESH = ("This page cannot reach the other browsers of a table of three or four (its connection "
           "library did not load, or this device is offline): reload the page to try again.")


class PartySeat(RemoteSeat):
    """Another browser's seat: its moves arrive through the deal, which applies them itself."""

    def on_turn(self, view: Any, propose: Any) -> None:
        """Nothing to propose here."""


class PartySession:
    """One browser's seat at an online table of three or four, as the table's Session."""

    invited = False
    question: Question | None = None

    def __init__(self, ctx: OpenContext, env: OnlineEnv, room: str, secret: str, rules: Rules, *,
                 table: TableSession | None = None, host: bool = False, acked: int = 0) -> None:
        self.ctx = ctx
        self.env = env
        self.room = room
        self.secret = secret
        self.chosen = rules
        """The host's table, or (a newcomer) the table its link names, until the roster says."""
        self.table = table
        """The room and the game (None: made once this player has a name, :meth:`start`)."""
        self.host = host if table is None else table.seat == 0
        self.acked_hand = acked
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.stopped = ""
        """Why the table stopped here (the room's or the game's words), or ''."""
        self.want: str | None = None
        """An answer this player gave before the table asked it (``next``, ``new``, ``leave``)."""
        self.mesh: MeshChannels | None = None
        self.expanded = False
        self.listeners: list[Listener] = []
        self.generations: dict[str, int] = {}
        """Peer -> its channel's generation (opened or closed): a held text for a channel gone is dropped."""
        self.heard: dict[str, float] = {}
        """Peer -> when its open channel last said anything: a channel silent past the link's loss
        timeout is dropped (a killed browser's stays "open" in WebRTC), so the seats call again."""
        self._closed = self._started = False
        self._tick_handle: object | None = None
        self._seats: tuple[tuple[str, ...], int, tuple[Seat, ...]] | None = None
        self._blank: tuple[Rules, tuple[str, ...], int, Match] | None = None
        self.my_name = self._stored_name()
        self.ask_name = False
        """No name yet in this browser: the lobby asks once before the seat is taken (the roster keeps it)."""
        if table is None:
            try:
                self.ask_name = not (self.my_name or ctx.storage.get(NAME_ASKED_KEY))
            except Exception as exc:  # noqa: BLE001 - a blocked storage: nothing asked, a default name
                caught("sessions.online.party.PartySession", exc)
        self.driver = PartyDriver(self)
        self.runner = Runner(self.driver.work, self.driver, ctx.timer, ctx.storage.when_durable, self._out,
                             trace=env.trace)

    # --- the Session protocol -------------------------------------------------------------------

    @property
    def match(self) -> Match:
        game = self.table.game if self.table is not None else None
        if game is not None and game.match is not None:
            return game.match
        key = (self.rules, self.names, self.perspective)
        if self._blank is None or self._blank[:3] != key:  # the lobby's: no card in it
            self._blank = (*key, Match(0, humans=(self.perspective,), names=self.names, rules=self.rules,
                                       source=OpenedPacks()))
        return self._blank[3]

    @property
    def rules(self) -> Rules:
        roster = self.table.room.roster if self.table is not None else None
        return roster.rules if roster is not None else self.chosen

    @property
    def names(self) -> tuple[str, ...]:
        """Each seat's name as the roster says (an open seat: ``Seat N``)."""
        n = self.rules.players
        roster = self.table.room.roster if self.table is not None else None
        taken = [s.name for s in roster.seats] if roster is not None else [self.my_name or "Host"]
        return tuple(taken[i] if i < len(taken) else f"Seat {i + 1}" for i in range(n))

    @property
    def seats(self) -> tuple[Seat, ...]:
        names, me = self.names, self.perspective
        if self._seats is None or self._seats[:2] != (names, me):
            made: tuple[Seat, ...] = tuple(LocalHuman("You") if i == me else PartySeat(name)
                                           for i, name in enumerate(names))
            self._seats = (names, me, made)
        return self._seats[2]

    @property
    def perspective(self) -> int:
        seat = self.table.seat if self.table is not None else None
        return seat if seat is not None else (0 if self.host else self.rules.players - 1)

    @property
    def started(self) -> bool:
        """The game is on (its first match made: the table is drawn, not the lobby)."""
        game = self.table.game if self.table is not None else None
        return game is not None and game.match is not None

    @property
    def link(self) -> Link:
        if self.table is None or self.stopped:
            return "offline"
        return "live" if self.table.room.started and not self.table.missing else "waiting"

    @property
    def busy(self) -> bool:
        """A move's work is under way (the next pack's, in the background, is not shown as busy)."""
        return self.table is not None and self.table.moving

    def can(self, offer: Offer) -> bool:
        if offer is Offer.NEXT_HAND:
            return summary_hand(self.match, self.acked_hand) is not None
        if offer is Offer.NEW_MATCH:
            return self.started and not self.stopped
        return False  # no undo, redo or restart online

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def start(self) -> None:
        """Take the seat (once this player has a name) and call the others."""
        if self._started or self._closed:
            return
        self._started = True
        if not self.ask_name:
            self._connect()

    def can_act(self) -> str | None:
        """Why this player cannot act now (a sentence), or None."""
        t = self.table
        if t is None:
            return "Say your name to take a seat at this table." if self.ask_name else "Taking a seat\u2026"
        if self.stopped:
            return "The match has stopped: " + self.stopped
        if not self.started:
            return t.status_text or "Dealing the first hand: making the table\u2019s joint key\u2026"
        if t.missing:
            return t.status_text or f"Waiting for {_either(t.missing)} to come back."
        if t.legal() or t.can_agree() is not None:
            return None  # (an answer the table asks for: Next hand, New match, in the panel too)
        st = self.match.state
        if st.is_over:
            return None if t.status() in ("verified", "ended") else "Checking every hand\u2019s cards\u2026"
        if self._agreeing():
            return "Waiting for every seat to agree to the next hand."
        others = [self.names[p] for p in st.actors() if p != self.perspective]
        if others:
            return f"Waiting for {_either(tuple(others))}."
        return "Waiting for the deal\u2026"

    def _agreeing(self) -> bool:
        """Between hands: the next hand waits for some seat's agreement."""
        game = self.table.game if self.table is not None else None
        if game is None or game.match is None:
            return False
        st = game.match.state
        k = st.hand_number - 1
        return st.phase.name == "CUT_PACK" and k > 0 and game.agreed.get(k - 1) != "next"

    def propose(self, action: Action) -> None:
        """This player's move: refused in words unless it is legal now."""
        if self._closed or self.table is None:
            return
        if action.seat != self.perspective:
            self._emit(Change("refused", message="Every player moves for themselves."))
            return
        why = self.can_act()
        if why is not None:
            self._emit(Change("refused", message=why))
            return
        table = self.table
        try:
            self.runner.move(lambda: table.act(action, self.env.wall()))
        except IllegalActionError as exc:
            text = str(exc)
            self._emit(Change("refused", message=text[:1].upper() + text[1:] + "."))

    def request(self, offer: Offer) -> None:
        """Next hand, a new match: this seat's answer, given when the table asks (every seat agrees)."""
        if self._closed or self.table is None or not self.started:
            return
        if offer is Offer.NEXT_HAND:
            done = summary_hand(self.match, self.acked_hand)
            if done is None:
                return
            self.acked_hand = done
            self.want = "next"
            self.runner.batch(lambda: None)
            self._emit(Change("next hand", offer=offer))
        elif offer is Offer.NEW_MATCH:
            self.want = "new"
            self.notes.append("You asked for a new match: it starts once every seat agrees.")
            self.runner.batch(lambda: None)
            self._emit(Change("question", offer=offer))

    def answer(self, yes: bool) -> None:
        """No question is ever put to one seat alone here: every seat answers the table's own."""

    def pause(self, paused: bool) -> None:
        """Nothing to hold: the others' moves come whatever dialog is open here."""

    def save(self) -> None:
        self.driver.save()

    def close(self) -> None:
        self._closed = True
        self.runner.close()
        if self._tick_handle is not None:
            self.ctx.timer.cancel(self._tick_handle)
            self._tick_handle = None
        if self.mesh is not None:
            self.mesh.close()
            self.mesh = None

    @property
    def closed(self) -> bool:
        return self._closed

    # --- what the table shows -----------------------------------------------------------------------

    def dress(self, scene: Any) -> Any:
        """The table's scene with the room's panel, and no action offered while this seat cannot act."""
        view = self.dress_view(scene.view)
        if self.can_act() is not None and view.legal_actions:
            view = dataclasses.replace(view, legal_actions=())
        return dataclasses.replace(scene, view=view, online=panel_slot(self.panel()), busy=self.busy)

    def dress_view(self, view: SeatView) -> SeatView:
        """Only the actions the table takes from this seat now (the deal's, not the rule book's alone)."""
        if not view.legal_actions:
            return view
        allowed = set(self.table.legal()) if self.table is not None and self.started else set()
        kept = tuple(a for a in view.legal_actions if a in allowed)
        return view if len(kept) == len(view.legal_actions) else dataclasses.replace(view, legal_actions=kept)

    def panel(self) -> PartyPanel:
        t = self.table
        roster = t.room.roster if t is not None else None
        taken = len(roster.seats) if roster is not None else 0
        names = self.names
        away = set() if t is None or roster is None else {p for p in t.room.missing if p < taken}
        seats = tuple((names[i], i < taken, i in away) for i in range(self.rules.players))
        asked = t.can_agree() if t is not None and self.started and not self.stopped else None
        status = (self.stopped or t.status_text) if t is not None else self.can_act() or ""
        if t is not None and not status:
            status = "Everyone is here."
        waiting = "" if self.stopped else (self.can_act() or "")
        if self.started and self.match.state.is_over and not self.stopped:
            waiting = ""
        return PartyPanel(
            link=room_link(self.env, self.room, self.secret, self.rules), status=status,
            rules=self.rules.describe(), seats=seats, me=self.perspective if roster is not None else None,
            lobby=not self.started, host=self.host, stopped=self.stopped, problems=tuple(self.problems[-3:]),
            notes=tuple(self.notes[-2:]), ask_name=self.ask_name, asked=asked or "", want=self.want or "",
            waiting=waiting, result=self.result_text(),
            end=self.host and self.started and not self.stopped and not self.match.state.is_over,
            qr=self._qr(taken))

    def result_text(self) -> str:
        """The end of the match, and whether its result is verified ('' while it goes on)."""
        t = self.table
        if t is None or not self.started:
            return ""
        status = t.status()
        if status == "ended":
            return "The host ended the match: its result stands unverified."
        if not self.match.state.is_over:
            return ""
        if status == "verified":
            return "Match over. Every card of every hand was checked: the result is verified."
        if status == "stopped":
            return "Match over, but the check of its cards failed: the result is not verified."
        return "Match over. Checking every hand\u2019s cards\u2026"

    def _qr(self, taken: int) -> str:
        if self.env.qr is None or self.started or taken >= self.rules.players:
            return ""
        return self.env.qr(room_link(self.env, self.room, self.secret, self.rules), lambda: self._emit(Change("link")))

    # --- the room's own controls (the controller routes unknown actions here) ---------------------

    def click(self, action: str, data: dict[str, str]) -> bool:
        if action == "online-name":
            name = clean_name(data.get("value", ""))
            if name is None:
                self._emit(Change("refused", message="A name needs at least one letter."))
                return True
            self._remember(name)
            if self.table is None:
                self.my_name = name
                self._connect()
            elif name != self.my_name:
                self.notes.append("Your name at this table stays as the others know it; the new one is for "
                                  "your next tables.")
            return True
        if action == "online-name-later":
            self._remember(None)
            if self.table is None:
                self._connect()
            return True
        if self.table is None:
            return False
        now = self.env.wall()
        table = self.table
        if action == "party-end":
            if self.host and self.started:
                self.runner.batch(lambda: table.end_match(now))
            return True
        if action in ("party-new", "party-leave", "party-next"):
            answer = action[6:]
            if answer == "next":
                if summary_hand(self.match, self.acked_hand) is not None:
                    self.request(Offer.NEXT_HAND)
                    return True
            self.want = answer
            self.runner.batch(lambda: None)
            return True
        if action == "online-fold":
            self.expanded = not self.expanded
            return True
        if action == "online-dismiss":
            self.problems.clear()
            self.notes.clear()
            return True
        return False

    # --- inside --------------------------------------------------------------------------------------

    def _stored_name(self) -> str:
        try:
            return clean_name(self.ctx.storage.get(NAME_KEY)) or ""
        except Exception as exc:  # noqa: BLE001
            caught("sessions.online.party.PartySession._stored_name", exc)
            return ""

    def _remember(self, name: str | None) -> None:
        self.ask_name = False
        try:
            if name is not None:
                self.ctx.storage.set(NAME_KEY, name)
            self.ctx.storage.set(NAME_ASKED_KEY, "1")
        except Exception as exc:  # noqa: BLE001 - a full storage: asked again next time
            caught("sessions.online.party.PartySession._remember", exc)

    def _connect(self) -> None:
        """Take the seat (a new table session: saved at once, its seat key is its seat), register on
        the page's channels and start the heartbeat."""
        if self._closed or not self._started:
            return
        if self.table is None:
            now = self.env.wall()
            seed = bytes(self.env.randbelow(256) for _ in range(32))
            name = self.my_name or ("Host" if self.host else "Guest")
            if self.host:
                self.table = TableSession.open(self.room, self.secret, self.chosen, name, now,
                                               group=self.env.group, seed=seed, budget=0.0)
            else:
                self.table = TableSession.join(self.room, self.secret, name, now, group=self.env.group,
                                               seed=seed, budget=0.0)
        if self.env.mesh is None:
            self.problems.append(NO_MESH)
            self.runner.batch(lambda: None)
            return
        self.mesh = self.env.mesh(self.room, self.secret, self.table.my_id, self.driver.events)
        self.runner.batch(self.dial)
        self._tick_handle = self.ctx.timer.later(TICK_MS, self._tick)

    def dial(self) -> None:
        """Call every id the room wants called now."""
        if self.table is None or self.mesh is None or self._closed:
            return
        for peer in self.table.to_dial(self.env.wall()):
            self.mesh.dial(peer)

    def _tick(self) -> None:
        self._tick_handle = None
        if self._closed or self.table is None:
            return
        table, work = self.table, self.driver.work
        now = self.env.wall()
        for peer, heard in list(self.heard.items()):
            if now - heard > LOSS_TIMEOUT + 1 and self.mesh is not None:
                del self.heard[peer]
                self.mesh.drop(peer)  # (its "close" comes back as an event: the room then calls again)
        if table.busy:  # (the table's tick takes in a queued message too: a slice, its redraw apart)
            def run() -> None:
                table.tick(self.env.wall())
                work.fresh = True
            self.runner.receive(run)
        else:
            self.runner.quiet(lambda: table.tick(self.env.wall()))
        self.dial()
        self._tick_handle = self.ctx.timer.later(TICK_MS, self._tick)

    def _out(self, text: str) -> None:
        """A text released by the runner (its save is on disk): to its peer's channel."""
        peer, _, rest = text.partition("\n")
        generation, _, body = rest.partition("\n")
        if self.mesh is not None and not self._closed and generation == str(self.generations.get(peer, 0)):
            self.mesh.send(peer, body)

    def _emit(self, change: Change) -> None:
        if not self._closed:
            self.runner.draw(change)


def _either(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

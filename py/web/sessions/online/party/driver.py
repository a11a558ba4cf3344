"""What a batch of a table's session does (:class:`PartyDriver`, the runner's
:class:`~web.sessions.online.runner.Driven`): carry the table session's texts to the runner (held until
their save is durable, then written to their peer's channel) and its events to the panel, look at the
table, save the room's record (:mod:`.store`) and tell the listeners. Beside it, the page's events as
batches (:class:`PartyEvents`, the :class:`~web.sessions.online.mesh_env.MeshEvents` of the contract)
and the table's queued crypto work as the runner slices it (:class:`PartyWork`)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from cribbage.online.link import Binding
from cribbage.online.table_room import CloseChannel, RoomProblem, Stopped
from cribbage.online.table_session import GameRefused, GameStopped, TableSession

from web.kit.caught import caught
from web.sessions.base import OpenContext
from web.sessions.online.env import CHANNEL_ERRORS, CURRENT_KEY, OnlineEnv, room_key
from web.sessions.online.mesh_env import MeshChannels
from web.sessions.online.party.table_log import TableLog
from web.sessions.online.runner import Runner
from web.sessions.online.words import SAVE_FAILED
from web.sessions.session import Change, Listener

__all__ = ["PartyDriver", "PartyEvents", "PartyWork", "CLOSE_MS", "Party"]

CLOSE_MS = 200
"""A channel the room wants closed is dropped this much later (its refusal gets through first)."""


class Party(Protocol):
    """What the driver needs of its session (:class:`~.session.PartySession`)."""

    ctx: OpenContext
    env: OnlineEnv
    room: str
    table: TableSession | None
    runner: Runner
    want: str | None
    stopped: str
    problems: list[str]
    notes: list[str]
    acked_hand: int
    mesh: MeshChannels | None
    listeners: list[Listener]
    generations: dict[str, int]
    """Peer -> how many times its channel opened or closed: a text held for a channel since gone is dropped."""
    heard: dict[str, float]
    """Peer -> when its open channel last said anything."""

    @property
    def closed(self) -> bool: ...
    def dial(self) -> None: ...


class PartyWork:
    """The table's queued messages as the runner's work (:class:`~web.sessions.online.runner.Work`):
    the table session takes one message per call of its own (budget 0), the rest in the runner's slices.
    ``fresh``: a call from the page ran some of it, so the runner treats the batch as one with a slice
    (its redraw then gets a task of its own)."""

    def __init__(self, session: Party) -> None:
        self.s = session
        self.fresh = False
        self.revision = 0
        self.next_job = ""

    @property
    def busy(self) -> bool:
        t = self.s.table
        return t is not None and (t.busy or self.fresh)

    @property
    def moving(self) -> bool:
        """A move's work (the runner puts a redraw off only for it): not the next pack's, made in the
        background while the hand is played, which may take seconds."""
        t = self.s.table
        return t is not None and (t.moving or self.fresh)

    def step(self, budget_ms: float) -> bool:
        self.fresh = False
        t = self.s.table
        if t is None or not t.busy:
            return False
        t.budget = budget_ms / 1000.0
        try:
            t.work(self.s.env.wall())
        finally:
            t.budget = 0.0
        self.revision += 1
        return t.busy


class PartyEvents:
    """The page's channels tell the session (:class:`~web.sessions.online.mesh_env.MeshEvents`)."""

    def __init__(self, session: Party, work: PartyWork) -> None:
        self.s = session
        self.work = work

    def _from_page(self, fn: Callable[[Any, float], None]) -> None:
        s = self.s
        table = s.table
        if s.closed or table is None:
            return

        def run() -> None:
            if s.env.trace is not None:
                s.env.trace("take in")  # (the table may take in a message here: crypto work)
            fn(table, s.env.wall())
            self.work.fresh = True  # (the table took in a message: a slice's worth of work)
        s.runner.receive(run)

    def on_registered(self) -> None:
        if not self.s.closed:
            self.s.runner.batch(self.s.dial)

    def _new_channel(self, peer: str) -> None:
        self.s.generations[peer] = self.s.generations.get(peer, 0) + 1

    def on_open(self, peer: str, binding: Binding | None) -> None:
        self._new_channel(peer)
        self.s.heard[peer] = self.s.env.wall()
        self._from_page(lambda t, now: t.opened(peer, binding, now))

    def on_message(self, peer: str, text: str) -> None:
        if peer in self.s.heard:
            self.s.heard[peer] = self.s.env.wall()
        self._from_page(lambda t, now: t.received(peer, text, now))

    def on_close(self, peer: str, reason: str) -> None:
        self._new_channel(peer)
        self.s.heard.pop(peer, None)
        self._from_page(lambda t, now: t.closed(peer, now))

    def on_reach(self, peer: str) -> None:
        """Nothing to say: the room says who is missing until the channel opens."""

    def on_error(self, peer: str, code: str) -> None:
        text = CHANNEL_ERRORS.get(code)
        if peer == "" and text is not None and not self.s.closed and text not in self.s.problems:
            self.s.problems.append(text)
            self.s.runner.draw(Change("link"))


class PartyDriver:
    """The runner's view of a table's session."""

    def __init__(self, session: Party) -> None:
        self.s = session
        self.work = PartyWork(session)
        self.events = PartyEvents(session, self.work)
        self.log = TableLog(session.ctx.storage, room_key(session.room))
        self.log.load()  # (the generations stored now: removed once this page has written its own base)
        self._save_failed = False
        self._holding: bool | None = None
        self.saves = 0
        """Records written (a test counts them: once per batch at most)."""

    def carry(self) -> tuple[bool, bool]:
        """Answers given ahead, the texts to send and the events, until quiet."""
        t = self.s.table
        if t is None:
            return False, False
        heard = carried = False
        for _ in range(1000):
            moved = False
            want, asked = self.s.want, t.can_agree()
            if want is not None and asked is not None and not self.s.stopped:
                self.s.want = None
                if want in (("next", "new") if asked == "next" else ("new", "leave")):
                    t.agree(want, self.s.env.wall())
                    moved = True
            for peer, text in t.pop_outgoing():
                # (an id has no line break: the session's out splits it, and drops a text whose channel is gone)
                self.s.runner.send(f"{peer}\n{self.s.generations.get(peer, 0)}\n{text}")
                moved = carried = True
            for event in t.pop_events():
                moved = heard = True
                self._event(event)
            if not moved:
                break
        return heard, carried

    def _event(self, event: object) -> None:
        s = self.s
        if isinstance(event, CloseChannel):
            peer = event.peer
            s.ctx.timer.later(CLOSE_MS, lambda: None if s.mesh is None or s.closed else s.mesh.drop(peer))
        elif isinstance(event, (Stopped, GameStopped)):
            s.stopped = s.stopped or event.text
        elif isinstance(event, (RoomProblem, GameRefused)):
            s.problems.append(event.text[:400])
            del s.problems[:-5]

    def look(self) -> tuple[object, ...]:
        s, t = self.s, self.s.table
        game = t.game if t is not None else None
        m = game.match if game is not None else None
        st = m.state if m is not None else None
        roster = t.room.roster if t is not None else None
        return (m, len(st.events) if st is not None else 0, tuple(st.scores) if st is not None else (),
                st.hand_number if st is not None else 0, t.status() if t is not None else "",
                t.missing if t is not None else (), len(roster.seats) if roster is not None else 0,
                t.seat if t is not None else None, t.can_agree() if t is not None else None, s.stopped,
                len(s.problems), s.want, t.status_text if t is not None else "",
                # what this seat may do: a message that changes only that (the last ack of a round, which
                # makes it this seat's turn to cut or lay) must redraw the table, or the turn never shows
                tuple(t.legal()) if t is not None else ())

    def change(self, before: Any) -> Change | None:
        m0, n0, scores0 = before[0], before[1], before[2]
        now = self.look()
        t = self.s.table
        game = t.game if t is not None else None
        m = game.match if game is not None else None
        if m is not None and m is not m0:
            if m0 is not None:
                self.s.acked_hand = 0
                self.s.notes.append("A new match has started.")
            return Change("applied", events=tuple(m.state.events), scores_before=tuple(0 for _ in m.state.scores))
        if m is not None and now[1] != n0:
            return Change("applied", events=tuple(m.state.events[n0:]), scores_before=scores0)
        if now[:-1] != before[:-1]:
            return Change("link")
        return None  # (only what this seat may do changed: the runner's owed redraw, after any slice)

    def save(self) -> None:
        """The room's record, once per batch and only when it changed. A save that fails never stops
        the table: the player is told once, and the next batch tries again."""
        t = self.s.table
        if t is None:
            return
        try:
            if not self.log.save(t, self.s.acked_hand):  # (what changed: an entry of the table's log)
                return
            storage = self.s.ctx.storage
            self.saves += 1
            if storage.get(CURRENT_KEY) != self.s.room:
                storage.set(CURRENT_KEY, self.s.room)
        except Exception as exc:  # noqa: BLE001 - a full storage must not stop the game
            caught("sessions.online.party.PartyDriver.save", exc)
            if not self._save_failed:
                self._save_failed = True
                self.s.notes.append(SAVE_FAILED)
            return
        self._save_failed = False

    def draw(self, change: Change) -> None:
        for listener in list(self.s.listeners):
            listener(change)

    def settled(self) -> None:
        """Tell the page when this page's online work starts and stops (it holds its background jobs)."""
        hold = self.s.env.hold
        busy = self.work.busy or self.s.runner.holding
        if hold is not None and busy != self._holding:
            self._holding = busy
            hold(busy)

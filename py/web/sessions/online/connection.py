"""The channel to the other browser and the link's clock: :class:`Connection` dials (the friend calls
the host every :data:`REDIAL_S`, :data:`FULL_REDIAL_S` after "full"), takes the channel's events
(:class:`~.env.ChannelEvents`: open, message, close, full, error, reach) into the link through the
session's runner, beats the heartbeat every :data:`TICK_MS` (giving up on a silent channel after the
link's ``LOSS_TIMEOUT``), says when the friend is there but no direct route opens (:data:`REACH_S`),
and tells the page while online work is under way (:attr:`~.env.OnlineEnv.hold`)."""

from __future__ import annotations

from typing import Callable

from cribbage.online.game import OnlineGame
from cribbage.online.link import LOSS_TIMEOUT, Binding, Link

from web.sessions.base import OpenContext
from web.sessions.online.env import CHANNEL_ERRORS, Channel, OnlineEnv, peer_ids
from web.sessions.online.runner import Runner
from web.sessions.session import Change
from web.kit.caught import caught

__all__ = ["Connection", "TICK_MS", "REDIAL_S", "FULL_REDIAL_S", "REACH_S", "REACH_STALE_S", "NO_ANSWER_S",
           "NO_ANSWER_REDIAL_S", "NO_ANSWER_STOP_S"]

TICK_MS = 500
"""The link's heartbeat and reconnection clock."""
REDIAL_S = 3.0
"""Seconds between attempts of the friend to reach the room's host."""
FULL_REDIAL_S = 5.0
"""Seconds before the friend calls again after the host said the room is full (a stranger may hold
the host's channel for up to ``link.UNPROVEN_TIMEOUT``)."""
REACH_S = 15.0
"""Seconds the friend may be there (registered, answering) without a data channel opening before the
page says why: the networks block a direct connection."""
NO_ANSWER_S = 20.0
"""Seconds the friend may call the host without an answer (no page registered at the host's id)
before the page says so (:data:`~.words.NO_ANSWER`) and calls less often (:data:`NO_ANSWER_REDIAL_S`)."""
NO_ANSWER_REDIAL_S = 15.0
"""Seconds between calls once nobody has answered for :data:`NO_ANSWER_S` (a wrong link's caller, or a
host whose page is closed: it keeps calling, never as often as at first)."""
NO_ANSWER_STOP_S = 600.0
"""Seconds without an answer after which a page that never joined the room stops calling (a wrong
link, or a room its host left): :data:`~.words.NO_ANSWER_STOPPED`, a reload calls again. A friend who
joined once keeps calling (every NO_ANSWER_REDIAL_S) until the host is back."""
REACH_STALE_S = 25.0
"""Seconds after the last sign of the friend (it calls again about every 10 s) when that is forgotten."""


class Connection:
    """One session's channel, dialling, heartbeat and reach (the channel's :class:`~.env.ChannelEvents`)."""

    def __init__(self, ctx: OpenContext, env: OnlineEnv, net: Link, game: OnlineGame, runner: Runner,
                 tell: Callable[[str, bool], None], heartbeat: Callable[[], None]) -> None:
        self.ctx = ctx
        self.env = env
        self.net = net
        self.game = game
        self.runner = runner
        self.tell = tell
        """Say a sentence to the player and redraw (``once``: unless it is already said)."""
        self.heartbeat = heartbeat
        """The session's own check at each tick (is saving still working?)."""
        self.channel: Channel | None = None
        self.open = False
        """A data channel to the other browser is open."""
        self.no_direct = False
        """The friend has been there for REACH_S without a channel opening (the page says why)."""
        self.started = False
        self.closed = False
        self.no_answer = False
        """The friend has called the host for NO_ANSWER_S and nobody answered (the page says so)."""
        self.stopped_calling = False
        """A page that never joined stopped calling after NO_ANSWER_STOP_S without an answer."""
        self._unanswered: float | None = None
        """When the host's id first did not answer (None: it answered, or no call failed yet)."""
        self._heard = 0.0
        self._last_dial = float("-inf")
        self._reach_first: float | None = None
        self._reach_last = 0.0
        self._tick_handle: object | None = None
        self._held_work: bool | None = None
        """What :meth:`hold_check` last told the page (None: nothing yet)."""

    def start(self, tag: str) -> None:
        """Open the channel (unless the page's link names a server it does not trust), start the clock."""
        self.started = True
        if self.env.refusal:
            self.net.stop(self.env.refusal)  # contact nothing
        elif self.env.channel is not None:
            me, host = peer_ids(self.net.room, self.game.seat, tag, self.net.secret)
            self.channel = self.env.channel(self.net.room, self.game.seat, me, host, self)
            self._dial()
        self._tick_handle = self.ctx.timer.later(TICK_MS, self._tick)

    def close(self) -> None:
        self.closed = True
        if self._tick_handle is not None:
            self.ctx.timer.cancel(self._tick_handle)
            self._tick_handle = None
        self.hold_check()
        if self.channel is not None:
            self.channel.close()
            self.channel = None

    def send(self, text: str) -> None:
        """A text the runner released (its save is on disk): on the channel, if it is still open."""
        if self.open and self.channel is not None and not self.closed:
            self.channel.send(text)

    # --- the channel's events ------------------------------------------------------------------------

    def on_open(self, binding: Binding | None = None) -> None:
        self._trace("channel open")
        self.open = True
        self.runner.new_channel()
        self._reach_first = None
        self.no_direct = False
        self._answered()
        self._heard = self.env.wall()
        self.runner.batch(lambda: self.net.connected(self.env.wall(), binding))

    def on_message(self, text: str) -> None:
        self._trace("channel in")
        self._heard = self.env.wall()
        self.runner.receive(lambda: self.net.receive(text, self.env.wall()))

    def on_close(self) -> None:
        self.open = False
        self.runner.new_channel()
        if not self.net.full:
            self._last_dial = float("-inf")  # the friend redials at the next tick
        self.runner.batch(lambda: self.net.disconnected(self.env.wall()))

    def on_reach(self) -> None:
        now = self.env.wall()
        self._answered()
        if self._reach_first is None or now - self._reach_last > REACH_STALE_S:
            self._reach_first = now
        self._reach_last = now
        self.hold_check()

    def on_knock(self, caller: str, text: str) -> str | None:
        """A second caller's first message while a channel is up: None lets it replace the channel
        (it claims the friend's seat and the one there has not proved it), else the refusal to send it."""
        return self.net.screen(text, self.env.wall(), caller)

    def on_full(self) -> None:
        self.tell("Another browser tried to join this room and was told it is full.", False)

    def on_error(self, code: str) -> None:
        if code in ("peer-unavailable", "connect-timeout"):
            self._unanswered_call()  # the host is not there (yet): the next dial tries again
            return
        text = CHANNEL_ERRORS.get(code)
        if text is not None:
            self.tell(text, True)

    def hang_up(self) -> None:
        """The link hung up (a peer that never proved its seat): drop the channel, stay reachable."""
        if self.channel is not None and not self.closed:
            self.channel.drop()
        self.on_close()

    # --- the page's hold -------------------------------------------------------------------------------

    @property
    def working(self) -> bool:
        """Whether online work is under way in this page (see :attr:`OnlineEnv.hold`): the friend's
        call reaching it, the channel's handshake, or the deal's work (a move to check or prove, a
        decryption awaited, the shuffles ahead)."""
        if self.closed or not self.started:
            return False
        if self.net.state in ("refused", "expired"):
            return False
        if self.open and self.net.state != "live":
            return True  # the handshake, then the key set-up
        if not self.open and self._reach_first is not None and not self.no_direct:
            return True  # the friend's call is reaching this page: the channel is about to open
        return self.game.busy or (self.open and self.game.pending is not None)

    def hold_check(self) -> None:
        """Tell the page when online work starts and stops (:attr:`OnlineEnv.hold`), once a change."""
        hold = self.env.hold
        working = self.working
        if hold is None or working == self._held_work:
            return
        self._held_work = working
        try:
            hold(working)
        except Exception as exc:  # noqa: BLE001 - the page's background jobs never stop the match
            caught("sessions.online.connection.Connection.hold_check", exc)

    # --- inside ----------------------------------------------------------------------------------------

    def _unanswered_call(self) -> None:
        """A call of the friend's found nobody at the host's id: after NO_ANSWER_S of that, the session
        says so (:data:`~.words.NO_ANSWER`) until the host's page answers."""
        if self.game.seat != 1 or self.open:
            return
        now = self.env.wall()
        if self._unanswered is None:
            self._unanswered = now
        elif not self.no_answer and now - self._unanswered >= NO_ANSWER_S:
            self.no_answer = True  # the session says NO_ANSWER while it lasts (PeerSession.can_act)
            self.runner.draw(Change("link"))
        elif self.net.peer_commit is None and now - self._unanswered >= NO_ANSWER_STOP_S:
            self.stopped_calling = True  # never joined: a wrong link, or a room left; a reload calls again
            self.runner.draw(Change("link"))

    def _answered(self) -> None:
        """The host's page answered (a channel is being set up, or opened)."""
        self._unanswered = None
        if self.no_answer:
            self.no_answer = False
            self.runner.draw(Change("link"))

    def _dial(self) -> None:
        now = self.env.wall()
        wait = NO_ANSWER_REDIAL_S if self.no_answer else FULL_REDIAL_S if self.net.full else REDIAL_S
        if (self.channel is not None and self.game.seat == 1 and not self.open and not self.stopped_calling
                and self.net.state not in ("refused", "expired")
                and now - self._last_dial >= wait):
            self._last_dial = now
            self.channel.connect()

    def _check_reach(self, now: float) -> bool:
        """Whether the page now says (or stops saying) that the friend is there but no direct
        connection opens."""
        first = self._reach_first
        if first is not None and now - self._reach_last > REACH_STALE_S:
            self._reach_first = first = None  # no sign of the friend for a while: just waiting again
        blocked = not self.open and first is not None and now - first >= REACH_S
        if blocked == self.no_direct:
            return False
        self.no_direct = blocked
        return True

    def _tick(self) -> None:
        self._tick_handle = None
        if self.closed:
            return
        now = self.env.wall()
        if self.open and now - self._heard > LOSS_TIMEOUT + 1 and self.channel is not None:
            self.open = False  # our heartbeat gave up: the friend redials once it is back
            self.runner.new_channel()
            self.channel.drop()
            self.runner.batch(lambda: self.net.disconnected(now))
        self._dial()
        self.heartbeat()
        if self._check_reach(now):
            self.runner.draw(Change("link"))

        def tick() -> None:
            self.net.tick(now)
            self.game.tick(now)

        self.runner.quiet(tick)
        if not self.closed:
            self._tick_handle = self.ctx.timer.later(TICK_MS, self._tick)

    def _trace(self, label: str) -> None:
        if self.env.trace is not None:
            self.env.trace(label)

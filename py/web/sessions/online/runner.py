"""When online play's work runs, when its texts leave, when the table is drawn: the :class:`Runner`.

An online session does three kinds of work: it takes in what comes (a tap, a text from the other
browser, a heartbeat), it carries what that set moving (the game's payloads to the link, the link's
texts to the channel, the link's events back to the game) and it runs the proven deal's queued work
in slices of :data:`SLICE_MS` (one slice a task, so no frame is long). The runner decides the order;
the session (:class:`Driven`) says what each step is. Three rules, each with a test:

- **your own move is drawn in the tap's task** (:meth:`Runner.move`): the page never shows, even for a
  frame, a table on which the move just made is still to make; its first slice runs in the next task;
- **nothing is sent before it is durable** (:meth:`Runner.send`): a text for the channel waits until
  every save made so far is on disk (``storage.when_durable``), an acknowledgement included, so nothing
  is sent that a killed browser could lose; while it waits no more work runs and a redraw that only
  says "busy" waits too, for :data:`HOLD_MS` at most (a slow store: the work goes on, the texts wait);
- **no slice of work in the same task as a redraw**: after a slice, the table is redrawn in a task of
  its own right after (the host's ``soon``: no 4 ms timer clamp), in order with any later redraw.

Each batch (:meth:`Runner.batch` and its kinds) runs its function, carries until quiet, saves once
(only if something moved) and tells the listeners once. A batch inside a batch only runs its
function (the outer one carries, saves and draws).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable, Protocol

from web.sessions.session import Change

__all__ = ["SLICE_MS", "HOLD_MS", "Driven", "Work", "Timer", "Durable", "Runner"]

SLICE_MS = 8.0
"""Work per task: steps until this budget is spent (one step of the proven deal is a few ms inside
Pyodide), so a task of the deal's work, with a move's save and redraw beside its first slice, stays
well under 50 ms even while the page shares its core. The next slice comes through the page's
``soon`` (no 4 ms timer clamp a hop), so halving the budget from 16 ms costs the deal no time."""
HOLD_MS = 250
"""Longest a payload's save may keep the queued work (and a redraw) waiting: the store usually
answers in a few milliseconds, and the payload goes out before anything else runs."""


class Work(Protocol):
    """The proven deal's queued work as the runner sees it (:class:`cribbage.online.game.OnlineGame`)."""

    @property
    def busy(self) -> bool:
        """Work can run now."""
        ...

    @property
    def moving(self) -> bool:
        """A move's work is queued (to check or to send): it runs before the background work."""
        ...

    @property
    def revision(self) -> int:
        """Counts finished pieces of work (one finished: something worth saving)."""
        ...

    @property
    def next_job(self) -> str:
        """The kind of work that runs next, for a trace ("" when none)."""
        ...

    def step(self, budget_ms: float) -> bool: ...


class Driven(Protocol):
    """What a batch does, told by the session."""

    def carry(self) -> tuple[bool, bool]:
        """Carry payloads and events until quiet (texts for the channel through :meth:`Runner.send`):
        (the link reported anything, a payload of the game was sent)."""
        ...

    def look(self) -> object:
        """What the table shows now, comparable (``==``) with an earlier look."""
        ...

    def change(self, before: Any) -> Change | None:
        """The redraw a batch owes since the look ``before`` (a move, an offer, the link...), or None
        when at most a status line (busy, checking) changed."""
        ...

    def save(self) -> None: ...

    def draw(self, change: Change) -> None:
        """Tell the listeners now."""
        ...

    def settled(self) -> None:
        """After every batch (the page's hold on its background jobs)."""
        ...


class Timer(Protocol):
    def later(self, ms: int, fn: Callable[[], None]) -> object: ...
    def cancel(self, handle: object) -> None: ...


Durable = Callable[[Callable[[], None]], None]
"""``when_durable(fn)``: call ``fn`` once every write made so far is on disk (at once if it is)."""


class Runner:
    """The scheduler of one online session: batches, slices of work, held texts and put-off redraws."""

    def __init__(self, work: Work, driven: Driven, timer: Timer, durable: Durable, out: Callable[[str], None],
                 *, trace: Callable[[str], None] | None = None, slice_ms: float = SLICE_MS,
                 hold_ms: int = HOLD_MS) -> None:
        self.work = work
        self.driven = driven
        self.timer = timer
        self.durable = durable
        self.out = out
        """Puts a released text on the channel (the session drops it if the channel closed since)."""
        self.trace = trace
        self.slice_ms = slice_ms
        self.hold_ms = hold_ms
        self.closed = False
        self._pumping = False
        self._again = False
        self._sliced = False
        """A slice of work ran in this batch (its redraw then gets a task of its own)."""
        self._owed = False
        """A redraw put off while a payload waits for its save or the move's queued work goes on."""
        self._work_handle: object | None = None
        self._hold_handle: object | None = None
        self._held_too_long = False
        self._held: deque[tuple[int, str]] = deque()
        """Texts for the channel waiting for the save that produced them to be on disk (with the
        channel's generation: a text meant for a channel that has closed since is dropped)."""
        self._queued = 0
        self._released = 0
        self._generation = 0
        self._deferred: list[Change] = []
        self._deferred_handle: object | None = None

    # --- batches ---------------------------------------------------------------------------------

    def batch(self, fn: Callable[[], object]) -> None:
        """An intent or a link event: run ``fn``, carry, save, draw once."""
        self._batch(fn)

    def quiet(self, fn: Callable[[], object]) -> None:
        """``fn`` changes nothing worth saving by itself (the heartbeat): saved only if the link then
        reported events, a payload was sent or a piece of work finished."""
        self._batch(fn, quiet=True)

    def receive(self, fn: Callable[[], object]) -> None:
        """A text came: its first slice of work runs now, in the same task (its checks and shares are a
        few milliseconds: no timer hop, one save); the redraw after it in a task of its own."""
        self._batch(fn, work=True)

    def move(self, fn: Callable[[], object]) -> None:
        """The local player's own move: drawn in its tap's task ("busy" included), its first slice in
        the next task (a slice and a redraw in the tap's task made tasks of 51-67 ms); its payload then
        goes out a redraw later. Exceptions of ``fn`` reach the caller, nothing changed."""
        self._batch(fn, work=True, now=True)

    @property
    def holding(self) -> bool:
        """A text waits for its save to be on disk (for up to :attr:`hold_ms`): no work runs."""
        return self._released < self._queued and not self._held_too_long

    # --- texts -------------------------------------------------------------------------------------

    def send(self, text: str) -> None:
        """A text for the channel: out once every save made so far is on disk, in order."""
        self._held.append((self._generation, text))
        self._queued += 1

    def new_channel(self) -> None:
        """The channel opened or closed: texts still held for the one before are dropped when due."""
        self._generation += 1

    # --- redraws -----------------------------------------------------------------------------------

    def draw(self, change: Change) -> None:
        """Tell the listeners now (after any redraw put off, in order)."""
        self._draw_deferred()
        self._emit(change)

    def close(self) -> None:
        """Stop: no timer of this runner fires, nothing is drawn or sent."""
        self.closed = True
        for handle in (self._work_handle, self._hold_handle, self._deferred_handle):
            if handle is not None:
                self.timer.cancel(handle)
        self._work_handle = self._hold_handle = self._deferred_handle = None
        self._deferred.clear()

    # --- inside --------------------------------------------------------------------------------------

    def _batch(self, fn: Callable[[], object], quiet: bool = False, work: bool = False, now: bool = False) -> None:
        if not self._pumping:
            self._sliced = False
        if self._pumping:
            fn()
            self._again = True
            return
        before = self.driven.look()
        revision = self.work.revision
        held_before = self.holding  # (what this batch sends waits for this batch's save: no matter)
        self._pumping = True
        try:
            fn()
            heard, carried = self.driven.carry()
            if work and not now and self.work.moving and not self.closed and not held_before:
                self._slice()
                more, sent = self.driven.carry()
                heard, carried = heard or more, carried or sent
        finally:
            self._pumping = False
        if self.closed:
            return
        if not quiet or heard or carried or self.work.revision != revision:
            self.driven.save()
        change = self.driven.change(before)
        if change is None and (self._again or heard or self.driven.look() != before):
            self._owed = True  # "busy", "checking": drawn below, or once the payload is out and the work done
        self._again = False
        if change is None and self._owed and (now or (not self.holding and not self._moving())):
            change = Change("link")  # (the player's own move: its "busy" frame at once, see above)
        if change is not None:
            self._owed = False
            self._redraw(change)
        self._release_when_durable()
        self._schedule_work()
        self._sliced = False
        self.driven.settled()

    def _moving(self) -> bool:
        return self.work.moving and self.work.busy

    def _slice(self) -> None:
        """One slice of the queued work, traced for the benchmark."""
        self._sliced = True
        trace = self.trace
        if trace is None:
            self.work.step(self.slice_ms)
            return
        lane = "fg" if self.work.moving else "bg"
        job = self.work.next_job
        trace(f"slice {lane} {job} >" if job else f"slice {lane} >")
        self.work.step(self.slice_ms)
        trace(f"slice {lane} <")

    def _work(self) -> None:
        self._trace("work")
        self._work_handle = None
        if self.closed:
            return
        if self.holding:
            self._schedule_work()  # a payload waits for its save: _resume() runs the work once it is out
            return
        # Saved only if a piece of work finished (or something was sent): work in progress is not
        # part of a save, so saving after every slice of a shuffle's proof would only cost time.
        self._batch(self._slice, quiet=True)

    def _schedule_work(self) -> None:
        """Run the queued work on the timer, unless a text waits for its save to be on disk: then
        :meth:`_release` (or :attr:`hold_ms` at most) resumes it."""
        if self.closed:
            return
        if self.holding:
            if self._hold_handle is None and (self.work.busy or self._owed):
                self._hold_handle = self.timer.later(self.hold_ms, self._hold_over)
            return
        if self._work_handle is None and self.work.busy:
            self._work_handle = self._soon(self._work)

    def _soon(self, fn: Callable[[], None]) -> object:
        """At once after this task (the page's ``soon``), else on a zero-delay timer."""
        soon = getattr(self.timer, "soon", None)
        return soon(fn) if soon is not None else self.timer.later(0, fn)

    def _hold_over(self) -> None:
        """The store is slow (or cannot write): the work goes on while the texts still wait."""
        self._hold_handle = None
        self._held_too_long = True
        self._resume()

    def _resume(self) -> None:
        """The texts are out (or the store is slow): the queued work goes on, a redraw put off is made."""
        self._trace("resume")
        if self._hold_handle is not None:
            self.timer.cancel(self._hold_handle)
            self._hold_handle = None
        if self.closed:
            return
        if self._work_handle is None and self.work.busy:
            self._work_handle = self._soon(self._work)
        if self._owed and not self._moving() and not self._pumping:
            self._owed = False
            self._redraw(Change("link"))

    def _release_when_durable(self) -> None:
        """The texts queued so far go to the channel once every save made so far is on disk."""
        if self._released == self._queued:
            return
        mark = self._queued
        self._trace(f"durable wait {self._released}..{mark}")
        self.durable(lambda: self._release(mark))

    def _release(self, mark: int) -> None:
        self._trace(f"durable {mark}")
        while self._held and self._released < mark:
            generation, text = self._held.popleft()
            self._released += 1
            if generation == self._generation and not self.closed:
                self._trace("channel out")
                self.out(text)
        if self._released >= self._queued:
            self._held_too_long = False
            self._resume()

    def _redraw(self, change: Change) -> None:
        """Draw now, or, if a slice of work ran in this task, in a task of its own right after."""
        if not self._sliced:
            self.draw(change)
            return
        self._deferred.append(change)
        if self._deferred_handle is None:
            self._deferred_handle = self._soon(self._draw_deferred)

    def _draw_deferred(self) -> None:
        changes, handle = self._deferred, self._deferred_handle
        self._deferred, self._deferred_handle = [], None
        if handle is not None:
            self.timer.cancel(handle)
        for change in changes:
            if not self.closed:
                self._emit(change)

    def _emit(self, change: Change) -> None:
        self._trace(f"redraw {change.kind} >")
        self.driven.draw(change)
        self._trace("redraw <")

    def _trace(self, label: str) -> None:
        if self.trace is not None:
            self.trace(label)

"""The online runner's three timing rules, through its public surface and a fake clock: your own move
is drawn in the tap's task; nothing is sent before it is durable; no slice of work shares a task with
a redraw. Plus its batches: one save and one redraw each, none when nothing moved."""

from __future__ import annotations

from typing import Any, Callable

from web.sessions.online.runner import HOLD_MS, SLICE_MS, Runner
from web.sessions.session import Change


class Clock:
    """A fake page: timers by due time (ms), each run as a task of its own; ``soon`` is due at once."""

    def __init__(self) -> None:
        self.now = 0
        self.timers: dict[int, tuple[int, Callable[[], None]]] = {}
        self.next = 0
        self.log: list[str] = []
        """What happened, "task" first in each task."""

    def later(self, ms: int, fn: Callable[[], None]) -> int:
        self.next += 1
        self.timers[self.next] = (self.now + ms, fn)
        return self.next

    def soon(self, fn: Callable[[], None]) -> int:
        return self.later(0, fn)

    def cancel(self, handle: object) -> None:
        self.timers.pop(handle, None)  # type: ignore[call-overload]

    def delays(self) -> list[int]:
        return sorted(due - self.now for due, _ in self.timers.values())

    def task(self) -> bool:
        """Run the next timer due now; False if none."""
        due = [h for h, (t, _) in self.timers.items() if t <= self.now]
        if not due:
            return False
        _, fn = self.timers.pop(min(due))
        self.log.append("task")
        fn()
        return True

    def run(self) -> None:
        while self.task():
            pass

    def advance(self, ms: int) -> None:
        self.now += ms
        self.run()


class Work:
    """Queued work: ``fg`` steps of a move, ``bg`` steps in the background."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.fg = 0
        self.bg = 0
        self.revision = 0

    @property
    def busy(self) -> bool:
        return bool(self.fg or self.bg)

    @property
    def moving(self) -> bool:
        return bool(self.fg)

    @property
    def next_job(self) -> str:
        return "send" if self.fg else "shuffle" if self.bg else ""

    def step(self, budget_ms: float) -> bool:
        assert budget_ms == SLICE_MS
        self.clock.log.append("slice")
        if self.fg:
            self.fg -= 1
        elif self.bg:
            self.bg -= 1
        self.revision += 1
        return self.busy


class Session:
    """The session's side: what a batch carries (``outgoing`` texts, ``heard`` events), shows and saves."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.runner: Runner | None = None
        self.outgoing: list[str] = []
        self.heard = False
        self.moves = 0
        self.status = "ready"
        self.saves = 0

    def carry(self) -> tuple[bool, bool]:
        assert self.runner is not None
        sent = bool(self.outgoing)
        for text in self.outgoing:
            self.runner.send(text)
        self.outgoing = []
        heard, self.heard = self.heard, False
        return heard, sent

    def look(self) -> object:
        return (self.moves, self.status)

    def change(self, before: Any) -> Change | None:
        return Change("applied") if before[0] != self.moves else None

    def save(self) -> None:
        self.saves += 1
        self.clock.log.append("save")

    def draw(self, change: Change) -> None:
        self.clock.log.append(f"redraw {change.kind}")

    def settled(self) -> None:
        pass


class Disk:
    """``when_durable``: the callbacks wait until the test says the writes are on disk."""

    def __init__(self) -> None:
        self.waiting: list[Callable[[], None]] = []

    def __call__(self, fn: Callable[[], None]) -> None:
        self.waiting.append(fn)

    def done(self) -> None:
        waiting, self.waiting = self.waiting, []
        for fn in waiting:
            fn()


def make() -> tuple[Runner, Clock, Work, Session, Disk, list[str]]:
    clock = Clock()
    work, session, disk, sent = Work(clock), Session(clock), Disk(), []
    runner = Runner(work, session, clock, disk, lambda text: (sent.append(text), clock.log.append("out"))[0])
    session.runner = runner
    return runner, clock, work, session, disk, sent


def tasks(log: list[str]) -> list[list[str]]:
    """The log cut into tasks (the first: what ran in the caller's task)."""
    out: list[list[str]] = [[]]
    for entry in log:
        if entry == "task":
            out.append([])
        else:
            out[-1].append(entry)
    return out


def test_your_own_move_is_drawn_in_the_taps_task_and_its_work_runs_after() -> None:
    runner, clock, work, session, disk, sent = make()

    def act() -> None:
        session.moves += 1
        work.fg = 2
        session.outgoing.append("move")

    runner.move(act)
    assert clock.log == ["save", "redraw applied"]  # drawn in the tap's task, no slice in it
    disk.done()
    assert sent == ["move"]
    clock.run()
    assert work.fg == 0 and all(not ("slice" in t and "redraw" in " ".join(t)) for t in tasks(clock.log))


def test_an_illegal_move_reaches_the_caller_and_nothing_is_saved_or_drawn() -> None:
    runner, clock, *_ = make()

    def refused() -> None:
        raise ValueError("not now")

    try:
        runner.move(refused)
    except ValueError:
        pass
    else:
        raise AssertionError("the refusal did not reach the caller")
    assert clock.log == [] and not clock.timers


def test_nothing_is_sent_before_every_save_made_so_far_is_on_disk_and_in_order() -> None:
    runner, clock, work, session, disk, sent = make()
    session.outgoing = ["a", "b"]
    runner.batch(lambda: None)
    session.outgoing = ["c"]
    runner.batch(lambda: None)
    assert sent == [] and clock.log.count("save") == 2
    disk.done()
    assert sent == ["a", "b", "c"]


def test_while_a_text_waits_for_its_save_no_work_runs_until_the_hold_is_over() -> None:
    runner, clock, work, session, disk, sent = make()

    def came() -> None:
        session.outgoing.append("ack")
        work.bg = 3

    runner.batch(came)
    assert runner.holding and clock.delays() == [HOLD_MS]  # no slice of work is due, only the hold's end
    clock.advance(HOLD_MS - 1)
    assert "slice" not in clock.log
    clock.advance(1)  # a slow store: the work goes on, the text still waits for the disk
    assert work.bg == 0 and sent == [] and not runner.holding
    disk.done()
    assert sent == ["ack"]


def test_the_work_goes_on_as_soon_as_the_texts_are_out() -> None:
    runner, clock, work, session, disk, sent = make()
    session.outgoing.append("ack")
    work.bg = 1
    runner.batch(lambda: None)
    disk.done()
    assert sent == ["ack"] and not runner.holding and clock.delays() == [0]
    clock.run()
    assert work.bg == 0


def test_a_received_texts_first_slice_runs_in_its_task_and_its_redraw_in_a_task_of_its_own() -> None:
    runner, clock, work, session, disk, sent = make()

    def came() -> None:
        work.fg = 1
        session.moves += 1

    runner.receive(came)
    assert tasks(clock.log)[0] == ["slice", "save"]  # the slice, its save: the redraw is put off
    clock.run()
    assert tasks(clock.log)[1:] == [["redraw applied"]]


def test_no_slice_of_work_shares_a_task_with_a_redraw() -> None:
    runner, clock, work, session, disk, sent = make()
    for n in range(20):
        def came(n: int = n) -> None:
            work.fg += n % 3
            work.bg += 2
            session.moves += n % 2
            if n % 4 == 0:
                session.outgoing.append(f"t{n}")

        clock.log.append("task")  # (a text came: a task of its own)
        runner.receive(came)
        disk.done()
        clock.run()
    both = [t for t in tasks(clock.log) if "slice" in t and any(e.startswith("redraw") for e in t)]
    assert not both and clock.log.count("slice") > 20 and not work.busy


def test_a_text_held_for_a_channel_that_closed_since_is_dropped() -> None:
    runner, clock, work, session, disk, sent = make()
    session.outgoing.append("old")
    runner.batch(lambda: None)
    runner.new_channel()
    session.outgoing.append("new")
    runner.batch(lambda: None)
    disk.done()
    assert sent == ["new"]


def test_a_quiet_batch_that_moved_nothing_is_not_saved_or_drawn() -> None:
    runner, clock, work, session, disk, sent = make()
    runner.quiet(lambda: None)
    assert clock.log == []
    session.heard = True  # the link reported something: saved
    runner.quiet(lambda: None)
    assert clock.log == ["save", "redraw link"]


def test_a_status_change_is_drawn_once_the_moves_work_is_done() -> None:
    runner, clock, work, session, disk, sent = make()

    def checking() -> None:
        session.status = "checking"
        work.fg = 2

    runner.batch(checking)
    assert "redraw link" not in clock.log  # owed: the move's work is still queued
    clock.run()
    assert clock.log.count("redraw link") == 1 and tasks(clock.log)[-1] == ["redraw link"]


def test_a_batch_inside_a_batch_only_runs_its_function() -> None:
    runner, clock, work, session, disk, sent = make()

    def outer() -> None:
        session.moves += 1
        runner.batch(lambda: session.outgoing.append("inner"))

    runner.batch(outer)
    assert clock.log == ["save", "redraw applied"]
    disk.done()
    assert sent == ["inner"]


def test_after_close_no_timer_fires_and_nothing_is_sent_or_drawn() -> None:
    runner, clock, work, session, disk, sent = make()

    def came() -> None:
        work.fg, work.bg = 1, 5
        session.moves += 1
        session.outgoing.append("x")

    runner.receive(came)
    runner.close()
    assert not clock.timers
    disk.done()
    clock.advance(HOLD_MS * 4)
    assert sent == [] and "redraw applied" not in clock.log and runner.closed

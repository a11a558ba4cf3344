"""The queued work of an online match, as typed values: each job a frozen dataclass, matched by type
in :meth:`OnlineGame._start <cribbage.online.game.OnlineGame>`. The moves (a payload to send, one
received to check, this browser's shares to compute, the Go audit, the key) run first, in order; the
background (:data:`BackgroundJob`: the shuffles of the packs ahead and this browser's shares of a
ready pack) in pack order when no move waits.

A room's save holds the queues as plain data (:func:`job_to_json`, :func:`job_from_json`), in the
shape saves have always had: ``{"kind": "send", "message": ..., "slots": ...}`` and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

from .group import Work

__all__ = [
    "KeyJob",
    "SendJob",
    "ReceiveJob",
    "MineJob",
    "AheadJob",
    "AuditJob",
    "ShuffleJob",
    "VerifyJob",
    "Job",
    "BackgroundJob",
    "BACKGROUND",
    "WorkQueue",
    "job_to_json",
    "job_from_json",
    "background_from_json",
    "job_label",
]


@dataclass(frozen=True)
class KeyJob:
    """Make and send this browser's key share of the match, with its proof (the first job of a match)."""


@dataclass(frozen=True)
class SendJob:
    """Send ``message`` with this browser's proven decryption shares of ``slots`` (None: it carries none)."""

    message: dict[str, Any]
    slots: list[int] | None = None


@dataclass(frozen=True)
class ReceiveJob:
    """Check and apply a payload of the other browser. ``replied``: a cut whose reply went out first."""

    message: dict[str, Any]
    replied: bool = False


@dataclass(frozen=True)
class MineJob:
    """Compute this browser's decryption shares of ``slots`` of pack ``pack`` (while a reply travels)."""

    pack: int
    slots: list[int]


@dataclass(frozen=True)
class AuditJob:
    """Replay the match with every card known here: the engine judges each Go. ``final``: the one
    after the other's ``final`` (the result is then verified)."""

    final: bool = False


@dataclass(frozen=True)
class AheadJob:
    """Compute this browser's shares of every slot of a ready pack, in the background."""

    pack: int


@dataclass(frozen=True)
class ShuffleJob:
    """Shuffle the public deck and prove it: the first shuffle of a pack this browser begins."""

    pack: int


@dataclass(frozen=True)
class VerifyJob:
    """Check the other's shuffle of a pack (then shuffle it again, or say the pack is ready)."""

    pack: int


BackgroundJob = Union[AheadJob, ShuffleJob, VerifyJob]
BACKGROUND = (AheadJob, ShuffleJob, VerifyJob)
"""The background jobs' types (for ``isinstance``)."""
Job = Union[KeyJob, SendJob, ReceiveJob, MineJob, AuditJob, AheadJob, ShuffleJob, VerifyJob]

_KINDS: dict[type, str] = {KeyJob: "key", SendJob: "send", ReceiveJob: "recv", MineJob: "mine", AuditJob: "audit",
                           AheadJob: "ahead", ShuffleJob: "shuffle1", VerifyJob: "verify"}


def job_label(job: Job) -> str:
    """The job's kind for a trace ("recv count", "send shares", "verify"...): kinds only, never a value."""
    kind = _KINDS[type(job)]
    if isinstance(job, (SendJob, ReceiveJob)):
        return f"{kind} {job.message.get('t')}"
    return kind


def job_to_json(job: Job) -> dict[str, Any]:
    """The job as a save holds it."""
    data: dict[str, Any] = {"kind": _KINDS[type(job)]}
    if isinstance(job, SendJob):
        data.update(message=job.message, slots=job.slots)
    elif isinstance(job, ReceiveJob):
        data["message"] = job.message
        if job.replied:
            data["replied"] = True
    elif isinstance(job, MineJob):
        data.update(pack=job.pack, slots=job.slots)
    elif isinstance(job, AuditJob):
        if job.final:
            data["final"] = True
    elif isinstance(job, (AheadJob, ShuffleJob, VerifyJob)):
        data["pack"] = job.pack
    return data


def job_from_json(data: Any) -> Job:
    """A job from a save (KeyError, TypeError or ValueError if it is not one)."""
    kind = data["kind"]
    if kind == "key":
        return KeyJob()
    if kind == "send":
        slots = data["slots"]
        return SendJob(dict(data["message"]), None if slots is None else [int(s) for s in slots])
    if kind == "recv":
        return ReceiveJob(dict(data["message"]), bool(data.get("replied", False)))
    if kind == "mine":
        return MineJob(int(data["pack"]), [int(s) for s in data["slots"]])
    if kind == "audit":
        return AuditJob(bool(data.get("final", False)))
    if kind in ("ahead", "shuffle1", "verify"):
        return background_from_json(data)
    raise ValueError(f"unknown job {str(kind)[:20]!r}")


def background_from_json(data: Any) -> BackgroundJob:
    """A background job from a save."""
    kind, pack = data["kind"], int(data["pack"])
    if kind == "ahead":
        return AheadJob(pack)
    if kind == "shuffle1":
        return ShuffleJob(pack)
    if kind == "verify":
        return VerifyJob(pack)
    raise ValueError(f"unknown background job {str(kind)[:20]!r}")


class WorkQueue:
    """The queued work of one browser's side of a match: the moves (``fg``) first, in order; then,
    when no move waits and the caller allows it (this browser's own move is not waiting for the other's
    reply), the group's constants (``warm``, made once a page) and the background (``bg``), in pack
    order. Each job runs as a generator, one step per :meth:`advance`."""

    def __init__(self, warm: Work[None] | None = None) -> None:
        self.fg: list[Job] = []
        self.bg: list[BackgroundJob] = []
        self.fg_work: Work[None] | None = None
        self.bg_work: Work[None] | None = None
        self.warm = warm
        """The deal's constants of the group, made in the background before anything needs them
        (cached for the page; never saved: a reload makes them again)."""

    def busy(self, background: bool) -> bool:
        """Work can run now (``background``: the background may run)."""
        return bool(self.fg or ((self.bg or self.warm is not None) and background))

    @property
    def moving(self) -> bool:
        """A move waits to be checked or sent."""
        return bool(self.fg)

    def label(self, background: bool) -> str:
        """The kind of the work that runs next (:func:`job_label`, "warm"; "" when none)."""
        if not self.fg and self.warm is not None and background:
            return "warm"
        jobs: list[Job] = [*self.fg] or ([*self.bg] if background else [])
        return job_label(jobs[0]) if jobs else ""

    def add(self, job: Job, at: int | None = None) -> None:
        """A move's job, last (or at place ``at`` of the moves)."""
        if at is None:
            self.fg.append(job)
        else:
            self.fg.insert(at, job)

    def add_background(self, job: BackgroundJob) -> None:
        """Background work in pack order (the pack needed soonest first; the one begun stays first)."""
        start = 1 if self.bg_work is not None else 0
        at = next((i for i in range(start, len(self.bg)) if self.bg[i].pack > job.pack), len(self.bg))
        self.bg.insert(at, job)

    def drop(self, *, warm: bool = False) -> None:
        """Forget every job (and the constants' work if ``warm``: the match stopped)."""
        self.fg, self.bg, self.fg_work, self.bg_work = [], [], None, None
        if warm:
            self.warm = None

    def drop_background(self) -> None:
        self.bg, self.bg_work = [], None

    def advance(self, start: Callable[[Job], Work[None]], background: bool) -> Job | None:
        """One step of the work due (call only while :meth:`busy`); the job it finished, if any.
        ``start`` makes a job's generator. A job that replaced the queue (a new match) is not popped."""
        if self.fg:
            job: Job = self.fg[0]
            if self.fg_work is None:
                self.fg_work = start(job)
            try:
                next(self.fg_work)
            except StopIteration:
                self.fg_work = None
                if self.fg and self.fg[0] is job:
                    self.fg.pop(0)
                return job
        elif self.warm is not None:
            try:
                next(self.warm)
            except StopIteration:
                self.warm = None
        else:
            job = self.bg[0]
            if self.bg_work is None:
                self.bg_work = start(job)
            try:
                next(self.bg_work)
            except StopIteration:
                self.bg_work = None
                if self.bg and self.bg[0] is job:
                    self.bg.pop(0)
                return job
        return None

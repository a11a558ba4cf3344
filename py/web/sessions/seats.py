"""Seat drivers: who moves for a seat, and how its move reaches the session.

A session calls ``seat.on_turn(view, propose)`` whenever that seat may act (again after every change,
with the fresh view) and ``seat.cancel()`` when the seat must stop (undo, a dialog, the show waiting
for "Next hand", the session closing). A driver answers by calling ``propose(action)``, never by
touching the match.

- :class:`LocalHuman`: moves come from this browser's input (the controller proposes them).
- :class:`Computer`: chooses from ``view`` alone (``make_player(level).choose(view)``), after a
  visible delay run by the host's timer; its search runs in slices of at most :data:`SLICE_MS`
  (``choose_steps``: the same choice, made between frames), so the page never freezes.
- :class:`RemoteSeat`: moves arrive from outside (the online peer) through :meth:`RemoteSeat.arrive`;
  the shape ``web/sessions/online/peer.py`` fills in.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import sys
import time
from types import ModuleType
from typing import Callable, Generator, Iterator, Literal, Protocol

from cribbage.actions import Action, CutForDeal, CutPack, CutStarter, Discard, Muggins, Play
from cribbage.cards import Card
from cribbage.scoring import fifteens, pairs, runs, score_play
from cribbage.view import SeatView
from web.kit.caught import caught

__all__ = ["Seat", "SeatKind", "Propose", "Timer", "LocalHuman", "Computer", "RemoteSeat", "ai_module",
           "ai_available", "fallback_choose", "keep_points", "warm_steps", "warming", "warmed", "SLICE_MS",
           "computer_pause", "PAUSE_RANGE"]

SLICE_MS = 12.0
"""The longest piece of the computer's search run in one go (the page draws between pieces)."""

PAUSE_RANGE = (0.4, 1.6)
"""The computer's pause before a move, as parts of the chosen speed: from a forced move (one legal
choice) to the hardest decision (a close discard, many cards to choose from). See :func:`computer_pause`."""

SeatKind = Literal["human", "computer", "remote"]
Propose = Callable[[Action], None]


class Seat(Protocol):
    """A seat's driver."""

    kind: SeatKind
    local: bool
    """May this browser's input act for the seat?"""
    label: str
    """How this browser names the seat ("You", "Computer", a friend's name)."""

    def on_turn(self, view: SeatView, propose: Propose) -> None: ...
    def cancel(self) -> None: ...

    @property
    def pending(self) -> bool:
        """True while a move of this seat is on its way (the computer is thinking)."""
        ...


class Timer(Protocol):
    """The host's timer (``setTimeout`` in the page, a fake in the tests)."""

    def later(self, ms: int, fn: Callable[[], None]) -> object: ...
    def cancel(self, handle: object) -> None: ...


_AI: list[ModuleType | None] = []


def ai_module() -> ModuleType | None:
    """``cribbage.ai`` imported on first use (the table is drawn before it is needed); None if it
    cannot be imported (the table still works, with :func:`fallback_choose`)."""
    if not _AI:
        try:
            for _ in _AI_IMPORT[0] if _AI_IMPORT else ():
                pass  # a warm-up left it half imported: finish it now
            from cribbage import ai
        except Exception as exc:  # noqa: BLE001 - the table must still work without it
            caught("sessions.seats.ai_module", exc)
            _AI.append(None)
        else:
            _AI.append(ai)
    return _AI[0]


_WARM: list[bool] = []
"""Holds True once :func:`warm_steps` has run to its end."""

AI_MODULES = ("discards", "steps", "pegging", "table_play", "strategy", "coach", "table", "players", "levels")
"""The modules ``cribbage.ai`` imports at once, in the order they load (its ``__init__`` imports
them all: one step of ~80 ms in the page, a long task whoever ran it)."""
_AI_IMPORT: list[Iterator[str]] = []
"""The one run of :func:`_ai_import_steps` (shared: whoever advances it, each module loads once)."""


def _ai_import_steps() -> Iterator[str]:
    """Import ``cribbage.ai`` one module per step: the package is registered without running its
    ``__init__``, its modules are imported one by one (a submodule needs only the package's path),
    then the ``__init__`` runs and finds them loaded. :func:`ai_module` finishes a run under way."""
    spec = importlib.util.find_spec("cribbage.ai")
    if spec is None or spec.loader is None:
        raise ImportError("cribbage.ai")
    package = importlib.util.module_from_spec(spec)
    sys.modules["cribbage.ai"] = package
    try:
        for name in AI_MODULES:
            importlib.import_module("cribbage.ai." + name)
            yield "cribbage.ai." + name
        spec.loader.exec_module(package)
    except BaseException:
        sys.modules.pop("cribbage.ai", None)  # a plain import will try again (and say why)
        _AI_IMPORT.clear()
        raise
    setattr(sys.modules["cribbage"], "ai", package)  # noqa: B010 - an attribute mypy does not know of the package
    _AI_IMPORT.clear()  # imported: a later run finds it in sys.modules
    yield "cribbage.ai"


def _importing_ai() -> Iterator[str]:
    """The steps of importing ``cribbage.ai`` still to do (none once it is imported)."""
    if not _AI_IMPORT:
        if "cribbage.ai" in sys.modules:
            return iter(("cribbage.ai",))
        _AI_IMPORT.append(_ai_import_steps())
    return _AI_IMPORT[0]


def warm_steps() -> Iterator[str]:
    """Import the computer and the coach piece by piece and load their tables, one step per
    ``next()`` (the page runs one in each idle moment after the table is drawn, so the first hint
    or the computer's first move finds them ready). Yields the name of the step just done; a step
    already done (by another run of it) costs nothing the second time."""
    if _WARM:
        return
    # importlib.resources (how the tables are read) and what it pulls in, then the computer (the
    # package imports its modules at once), then its tables.
    # (Only modules the small stdlib archive holds: any other would fetch the full one.)
    for name in ("pathlib", "shutil", "tempfile", "importlib.resources", "json"):
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - ai_module() will say so when it is needed
            caught("sessions.seats.warm_steps", exc)
            return
        yield name
    try:
        yield from _importing_ai()
    except Exception as exc:  # noqa: BLE001 - ai_module() will say so when it is needed
        caught("sessions.seats.warm_steps", exc)
        return
    if ai_module() is None:
        return
    from cribbage.ai import discards, strategy

    discards.crib_table()
    yield "crib table"
    for role in ("dealer", "pone"):
        discards._role_table(role)
        yield f"crib table ({role})"
    strategy.win_chance(60, 60)
    yield "win table"
    strategy._histograms()
    yield "hand histograms"
    strategy._peg_table()
    yield "peg table"
    from cribbage.scoring import rank_points_steps

    for _ in rank_points_steps():  # the fast hand totals, piece by piece
        yield "hand totals"  # 455 small pieces
    _WARM.append(True)


class _Warming:
    """A run of :func:`warm_steps` that knows when it has ended."""

    def __init__(self) -> None:
        self.steps = warm_steps()
        self.done = False

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        try:
            return next(self.steps)
        except StopIteration:
            self.done = True
            raise


_WARMING: list[_Warming] = []


def warming() -> Iterator[str]:
    """The page's one run of :func:`warm_steps`: the idle callbacks and the computer's first move
    advance the same steps, so no piece is done twice when both are at it."""
    if not _WARMING or _WARMING[0].done:
        _WARMING[:] = [_Warming()]
    return _WARMING[0]


def warmed() -> bool:
    """Are the computer and its tables loaded?"""
    return bool(_WARM)


def ai_available() -> bool:
    """True when the coach can be offered, without importing it yet."""
    return bool(_AI[0]) if _AI else importlib.util.find_spec("cribbage.ai") is not None


def computer_pause(view: SeatView, delay: int) -> int:
    """The computer's pause in ms before its move from ``view`` at the chosen speed ``delay``: 0 stays
    0 (instant); else ``delay`` times a part within :data:`PAUSE_RANGE` that grows with how hard the
    decision looks (``cribbage.ai.levels.decision_weight``: a forced move or a single playable rank is
    quick, a close discard takes longest). Before the computer is loaded: a single legal move is
    quick, anything else the middle."""
    if delay <= 0:
        return 0
    own = [a for a in view.legal_actions if not isinstance(a, Muggins)]
    weight = 0.0 if len(own) <= 1 else 0.5
    ai = ai_module() if _WARM and weight else None
    if ai is not None:
        try:
            weight = float(ai.levels.decision_weight(view))
        except Exception as exc:  # noqa: BLE001 - a pause is never worth stalling the table
            caught("sessions.seats.computer_pause", exc)
    lo, hi = PAUSE_RANGE
    return round(delay * (lo + (hi - lo) * min(1.0, max(0.0, weight))))


def keep_points(keep: list[Card]) -> int:
    """What four kept cards score before the starter: fifteens, pairs, runs, a four-card flush."""
    pts = sum(i.points for i in (*fifteens(keep), *pairs(keep), *runs(keep)))
    if len(keep) == 4 and len({c.suit for c in keep}) == 1:
        pts += 4
    return pts


def fallback_choose(view: SeatView, seed: int) -> Action:
    """Without the AI package: the legal action with the best immediate score."""
    legal = list(view.legal_actions)
    first = legal[0]
    if isinstance(first, (CutForDeal, CutPack, CutStarter)):
        lo, hi = view.cut_depths
        return type(first)(view.seat, random.Random(seed).randint(lo, hi))
    if isinstance(first, Discard):
        discards = [a for a in legal if isinstance(a, Discard)]
        return max(discards, key=lambda a: keep_points([c for c in view.hand if c not in a.cards]))
    if isinstance(first, Play):
        pile = [c for _, c in view.pile]
        plays = [a for a in legal if isinstance(a, Play)]
        return max(plays, key=lambda a: (sum(i.points for i in score_play(pile + [a.card])), a.card.value))
    return first


class LocalHuman:
    """A player at this browser: the controller proposes their moves from clicks and keys."""

    kind: SeatKind = "human"
    local = True

    def __init__(self, label: str) -> None:
        self.label = label

    def on_turn(self, view: SeatView, propose: Propose) -> None:
        """Nothing to do: the move comes from the page."""

    def cancel(self) -> None:
        """Nothing pending."""

    @property
    def pending(self) -> bool:
        return False


class Computer:
    """The computer opponent: sees only its own view, moves after a pause on the host's timer
    (:func:`computer_pause`: ``delay()`` ms scaled by how hard the decision looks; 0 stays 0)."""

    kind: SeatKind = "computer"
    local = False

    def __init__(self, label: str, timer: Timer, level: Callable[[], str], delay: Callable[[], int],
                 seed: Callable[[], int]) -> None:
        self.label = label
        self.timer = timer
        self.level = level
        """The level now (the menu may change it mid-match)."""
        self.delay = delay
        """The pacing now, in milliseconds."""
        self.seed = seed
        """The seed of its next choice (deterministic: the session derives it from the match)."""
        self._handle: object | None = None
        self._turn: tuple[SeatView, Propose] | None = None
        self._called: tuple[int, int] | None = None
        """Muggins in the play: the claim last decided on out of turn (hand, claims so far): once each."""

    def on_turn(self, view: SeatView, propose: Propose) -> None:
        """Keep the freshest view; start the clock unless it is already running."""
        self._turn = (view, propose)
        if self._handle is None:
            self._handle = self.timer.later(computer_pause(view, self.delay()), self._fire)

    def cancel(self) -> None:
        if self._handle is not None:
            self.timer.cancel(self._handle)
        self._handle = None
        self._turn = None

    def on_call(self, view: SeatView, propose: Propose) -> None:
        """Muggins in the play, out of turn: decide once, after the usual delay, whether to call muggins
        on the card claim open in ``view`` (its own habits, seeded from the match); propose the call or
        nothing. The next card, Go or count closes the claim (and cancels this)."""
        key = (view.hand_number, sum(1 for e in view.events if e.claim))
        if self._handle is not None or key == self._called:
            return
        self._called = key

        def decide() -> None:
            self._handle = None
            call = self.call(view)
            if call is not None:
                propose(call)
            if self._turn is not None and self._handle is None:  # its turn came while it decided: take it
                self._handle = self.timer.later(computer_pause(self._turn[0], self.delay()), self._fire)

        self._handle = self.timer.later(self.delay(), decide)

    def call(self, view: SeatView) -> Action | None:
        """Whether this computer calls muggins on the open card claim of ``view`` (None: let it stand)."""
        ai = ai_module()
        if ai is None:
            return None
        try:
            call: Action | None = ai.call_for_level(view, self.level())
            return call
        except Exception as exc:  # noqa: BLE001 - a call is never worth stalling the table
            caught("sessions.seats.Computer.call", exc)
            return None

    @property
    def pending(self) -> bool:
        return self._handle is not None

    def choose(self, view: SeatView) -> Action:
        """The computer's move from ``view`` only (the fallback if the AI fails or is missing)."""
        steps = self.choose_steps(view)
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                action: Action = stop.value
                return action

    def choose_steps(self, view: SeatView) -> Generator[None, None, Action]:
        """:meth:`choose` in steps: the search yields between pieces (the same choice at the end)."""
        seed = self.seed()
        legal = view.legal_actions
        if legal and isinstance(legal[0], (CutForDeal, CutPack, CutStarter)):
            # Every player of cribbage.ai cuts so (random.Random(seed) over view.cut_depths): the
            # same cut without waiting for the computer to be imported.
            return fallback_choose(view, seed)
        if not _WARM:  # the idle warm-up is not done: import and load the rest a piece at a time
            for _ in warming():
                yield
        ai = ai_module()
        if ai is not None:
            try:
                player = ai.make_player(self.level(), seed=seed)
                steps = getattr(player, "choose_steps", None)
                if steps is None:
                    chosen: Action = player.choose(view)
                    return chosen
                result: Action = yield from steps(view)
                return result
            except Exception as exc:  # noqa: BLE001 - fall back rather than stall the table
                caught("sessions.seats.Computer.choose_steps", exc)
        return fallback_choose(view, seed)

    def _fire(self) -> None:
        turn, self._turn, self._handle = self._turn, None, None
        if turn is None:
            return
        view, propose = turn
        self._run(self.choose_steps(view), propose)

    def _run(self, steps: Generator[None, None, Action], propose: Propose) -> None:
        """Run the search for at most :data:`SLICE_MS`; continue on the next timer, or propose."""
        self._handle = None
        end = time.perf_counter() + SLICE_MS / 1000
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                propose(stop.value)
                return
            if time.perf_counter() >= end:
                break
        self._handle = self.timer.later(0, lambda: self._run(steps, propose))


class RemoteSeat:
    """A seat played elsewhere: its moves arrive from outside (the peer) and are proposed in order.

    ``arrive(action)`` queues a move; it is proposed when the session says the seat may act. The
    online module adds the transport; the session still checks every move against the rules.
    """

    kind: SeatKind = "remote"
    local = False

    def __init__(self, label: str) -> None:
        self.label = label
        self.inbox: list[Action] = []
        self._propose: Propose | None = None

    def arrive(self, action: Action) -> None:
        """A move from the other side."""
        self.inbox.append(action)
        self._deliver()

    def on_turn(self, view: SeatView, propose: Propose) -> None:
        self._propose = propose
        self._deliver()

    def cancel(self) -> None:
        self._propose = None

    @property
    def pending(self) -> bool:
        return False

    def _deliver(self) -> None:
        if self._propose is None or not self.inbox:
            return
        propose, self._propose = self._propose, None
        propose(self.inbox.pop(0))

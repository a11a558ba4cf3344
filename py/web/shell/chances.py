"""The controller's side of the chance of winning: the bar by the board, its setting, and the
game-over figures (the race chart's second line, the match's costliest decisions).

**Whose view.** The bar's figures are :func:`cribbage.ai.winchance.seat_chances` of the view the
frame draws, and of nothing else: against the computer "you"'s view, in hot-seat the view of the
seat whose cards are drawn (nothing at all while the cover is up), online this side's view. So the
bar never knows more than the screen shows.

**Never in the tap's path.** Drawing a frame only looks the figure up (by the view's fingerprint);
a figure not known yet is worked out after the frame is painted, on the host's timer, in slices of
:data:`web.sessions.seats.SLICE_MS` (the model's steps, :func:`cribbage.ai.winchance.seat_chances_steps`),
and the table is drawn again when it is known. Until then the bar keeps its last figure for the
same seat (or says it is being worked out). The game-over work (each hand's start replayed, the
coach's review of every decision for :func:`cribbage.ai.coach.costliest_steps`) runs the same way.

**The setting** is kept per mode in the settings (``cribbage.settings`` → ``"chances"``): on against
the computer, off in hot-seat and online unless turned on. Online it is this side's own choice: the
other browser is not asked (the link's messages have no room for it yet).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Generator, Iterator, Mapping, Protocol

from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.state import Phase
from cribbage.view import SeatView
from cribbage.view import view as view_of

from web.kit.controls import Handler
from web.kit.winchance import ChanceScene, Costly, WinBar, review_line
from web.sessions import seats
from web.sessions.seats import ai_available, ai_module, warm_steps, warmed
from web.sessions.storage import Storage
from web.kit.caught import caught

if TYPE_CHECKING:
    from cribbage.ai.coach import DiscardChoice

    from web.sessions.base import Mode

DiscardKey = tuple[tuple[str, ...], bool, tuple[int, int]]

__all__ = ["TableChances", "fingerprint", "match_key", "SETTING", "WAIT_MS", "supported"]

SETTING = "chances"
"""The key of the per-mode switches in the settings."""
WAIT_MS = 60
"""Pause after a frame before the figure is worked out: the frame (and a card's travel) is painted first."""
CACHE_SIZE = 256
"""Figures remembered, by fingerprint (undo and redo find them again)."""
RACE_MODES = ("computer", "hotseat", "challenge")
"""Modes whose game-over chart gets the chance line (online play keeps its page's time for the link)."""

Fingerprint = tuple[Any, ...]


def supported(rules: Rules) -> bool:
    """Two players with six cards each: the only table the model covers (without importing it)."""
    return rules.players == 2 and rules.crib_from_pack == 0


def fingerprint(view: SeatView) -> Fingerprint:
    """Everything of ``view`` the figure depends on (the seat, the scores and who deals, the phase,
    the seat's own cards, what lies on the table, how many cards are laid)."""
    laid = len(view.pile) + sum(len(c) for c in view.played)
    return (view.seat, str(view.phase), view.hand_number, view.dealer, tuple(view.scores), view.winner,
            tuple(view.hand), tuple(view.kept), tuple(view.discards), view.starter, view.show_step,
            tuple(view.opponent_kept), laid, view.rules.target, view.rules.players, view.rules.crib_from_pack)


class _Screen(Protocol):
    dialog: str | None
    focus: str | None
    reviews: dict[int, list[str]]


class Table(Protocol):
    """What the chances need of the table (the app's controller)."""

    @property
    def host(self) -> Any: ...
    @property
    def storage(self) -> Storage: ...
    @property
    def match(self) -> Match: ...
    @property
    def mode_def(self) -> Mode: ...
    @property
    def perspective(self) -> int | None: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def ui(self) -> _Screen: ...
    def refresh(self) -> None: ...


Work = Generator[None, None, Any]


class TableChances:
    """The bar's figures (cached by fingerprint), their timer, the setting, the game-over figures."""

    def __init__(self, table: Table, settings_key: str) -> None:
        self.table = table
        self.settings_key = settings_key
        self._switches: dict[str, bool] | None = None
        self._cache: dict[Fingerprint, tuple[float, float] | None] = {}
        self._last: tuple[tuple[int, int, int], tuple[float, float]] | None = None
        """The last figure drawn: ((the match, its hand, the seat whose view it came from), the figures)."""
        self._wanted: tuple[Fingerprint, SeatView] | None = None
        """The figure the last frame asked for and did not have."""
        self._job: tuple[Any, Work] | None = None
        """The work under way: (what it is for, its steps)."""
        self._timer: object | None = None
        self._warm: Iterator[str] | None = None
        self.discards: dict[DiscardKey, list[DiscardChoice]] = {}
        """The coach's ranking of the keeps of a hand (the preview's line), by hand, deal and scores."""
        self._coach_wanted = False
        """A frame went without the coach's line (the discard's preview): warm the coach up after the
        paint, in slices, then draw the table again (:meth:`want_coach`)."""
        self._races: dict[Any, tuple[tuple[int, float], ...] | None] = {}
        """A finished match's chance after each hand, by the match's key (:func:`match_key`)."""
        self._costly: dict[Any, tuple[Costly, ...] | None] = {}
        """A finished match's costliest decisions, by the match's key."""
        self._asked: dict[str, tuple[Any, Match, int]] = {}
        """What the last frame asked for and lacked: ``race`` and ``costly``, each (key, match, seat)."""

    # --- the setting ----------------------------------------------------------------------------

    def _read(self) -> dict[str, bool]:
        if self._switches is None:
            self._switches = {}
            try:
                raw = self.table.storage.get(self.settings_key)
                settings = json.loads(raw) if raw else None
            except Exception as exc:  # noqa: BLE001 - settings are a convenience
                caught("shell.chances.TableChances._read", exc)
                settings = None
            found = settings.get(SETTING) if isinstance(settings, dict) else None
            if isinstance(found, dict):
                self._switches = {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, bool)}
        return self._switches

    def reload(self) -> None:
        """The settings were replaced (an import): read them again."""
        self._switches = None

    def enabled(self) -> bool:
        """Is the bar on for the mode on the table? (By default against the computer only.)"""
        mode = self.table.mode_def
        return self._read().get(mode.key, bool(mode.computer) and mode.perspective is not None)

    def toggle(self) -> bool:
        """Turn the bar on or off for this mode (remembered); the new state."""
        on = not self.enabled()
        switches = self._read()
        switches[self.table.mode_def.key] = on
        try:
            raw = self.table.storage.get(self.settings_key)
            settings = json.loads(raw) if raw else {}
            if not isinstance(settings, dict):
                settings = {}
        except Exception as exc:  # noqa: BLE001
            caught("shell.chances.TableChances.toggle", exc)
            settings = {}
        settings[SETTING] = dict(switches)
        try:
            self.table.storage.set(self.settings_key, json.dumps(settings))
        except Exception as exc:  # noqa: BLE001 - a full or blocked storage: on for this page only
            caught("shell.chances.TableChances.toggle", exc)
        if not on:
            self._stop()
        return on

    # --- the bar ----------------------------------------------------------------------------------

    def scene(self, view: SeatView, private: bool) -> ChanceScene:
        """What the frame of ``view`` shows (``private``: no hot-seat cover is up)."""
        rules = view.rules
        if not supported(rules):
            return ChanceScene()
        mode = self.table.mode_def
        on = self.enabled()
        bar = None
        names = self.table.names
        pair = (names[0], names[1]) if len(names) >= 2 else ("Seat 1", "Seat 2")
        over = view.phase is Phase.GAME_OVER
        if not on:
            self._wanted = None
        if on and ai_available():
            if not private:
                bar = WinBar(pair, hidden=True)
                self._wanted = None
            else:
                bar = WinBar(pair, self._figure(view), over=over)
        you = self.table.perspective if self.table.perspective is not None else 0
        race, costly, wanted = None, None, False
        self._asked.pop("costly", None)
        if over and mode.key in RACE_MODES:
            match = self.table.match
            race = self.race_of(match, you)
            wanted = self._costly_wanted()
            if wanted:
                key = match_key(match)
                if key in self._costly:
                    costly = self._costly[key]
                else:
                    self._asked["costly"] = (key, match, you)
        return ChanceScene(setting=on, online=mode.key == "online", bar=bar, race=race, you=you,
                           costly=costly, costly_wanted=wanted)

    def _figure(self, view: SeatView) -> tuple[float, float] | None:
        key = fingerprint(view)
        whose = (id(self.table.match), view.hand_number, view.seat)
        if key in self._cache:
            got = self._cache[key]
            if got is not None:
                self._last = (whose, got)
            self._wanted = None
            return got
        self._wanted = (key, view)
        # Not known yet: the last figure of the same seat's view in this hand stands in until it is
        # (never another seat's: in hot-seat it would tell of the other hand).
        return self._last[1] if self._last is not None and self._last[0] == whose else None

    def race_of(self, match: Match, you: int) -> tuple[tuple[int, float], ...] | None:
        """``you``'s chance of winning after each hand of a finished ``match`` (the race chart's band),
        or None until it is worked out (the next frame after the frame that asked draws it)."""
        if not supported(match.rules) or not match.state.is_over:
            return None
        key = (match_key(match), you)
        if key in self._races:
            return self._races[key]
        self._asked["race"] = (key, match, you)
        return None

    def after_frame(self) -> None:
        """A frame was drawn: work out what it lacked, after the paint. Not while a dialog other than
        the record is open (it hides the table and holds the computer: the work waits for it to
        close, like the seats)."""
        dialog = self.table.ui.dialog
        if dialog and dialog != "record":
            if self._timer is not None:
                self.table.host.cancel(self._timer)
                self._timer = None
            return
        if self._timer is None and self._pending():
            self._timer = self.table.host.later(WAIT_MS, self._tick)

    def actions(self) -> Mapping[str, Handler]:
        """The show's *Review this hand* (the coach's review, against the computer)."""
        return {"review": self._on_review}

    def _on_review(self, data: dict[str, str]) -> None:
        try:
            hand = int(data.get("hand", ""))
        except ValueError:
            return
        ai = ai_module()
        me = self.table.perspective
        if ai is None or not self.table.mode_def.computer or me is None:
            return
        try:
            reviews = ai.review_hand(self.table.match, me, hand)
            lines = [review_line(r) for r in reviews if r.text]  # each cost in points and chance of winning
        except Exception as exc:  # noqa: BLE001
            caught("shell.chances.TableChances._on_review", exc)
            lines = [f"The coach could not review this hand ({exc})."]
        self.table.ui.reviews[hand] = lines
        self.table.ui.focus = "btn-close"
        self.table.refresh()

    def keep_ev(self, view: SeatView, selected: tuple[str, ...]) -> str | None:
        """The coach's one line on the keep chosen (None: not yet, in the tap's task, or none)."""
        if not warmed():
            # Not in the tap's task: the coach is loaded after the paint, in slices, and the line
            # comes with the next frame (a page busy with online play's deal may not have been idle yet).
            self.want_coach()
            return None
        ai = ai_module()
        if ai is None:
            return None
        # The scores matter near 121, where the coach ranks keeps by the chance of winning.
        scores = (view.my_score, max(score for side, score in enumerate(view.scores) if side != view.side))
        key = (tuple(c.code for c in view.hand), view.dealer == view.seat, scores)
        choices = self.discards.get(key)
        if choices is None:
            try:
                choices = ai.analyze_discards(view.hand, view.dealer == view.seat, scores=scores)
            except Exception as exc:  # noqa: BLE001
                caught("shell.chances.TableChances.keep_ev", exc)
                return None
            self.discards[key] = choices
        for rank, ch in enumerate(choices, 1):
            if {c.code for c in ch.discard} == set(selected):
                crib = (f"your crib +{ch.crib_ev:.1f}" if ch.dealer else f"their crib \u2212{ch.crib_ev:.1f}")
                best = "the best keep" if rank == 1 else f"number {rank} of 15 (best {choices[0].net:.1f})"
                top = choices[0].win_chance
                if ch.win_chance is not None and top is not None:
                    best = (f"chance of winning {100 * ch.win_chance:.0f}%, " + ("the best keep" if rank == 1 else
                            f"number {rank} of 15 (best {100 * top:.0f}%)"))
                return f"With the starter: hand {ch.hand_ev:.1f} on average, {crib}: net {ch.net:.1f}, {best}."
        return None

    def want_coach(self) -> None:
        """The frame being drawn would show a line of the coach that is not loaded yet: load it after
        the paint, in slices (never in the tap's task: importing it and reading its tables is ~0.3 s
        inside Pyodide), and draw the table again once it is loaded."""
        self._coach_wanted = True

    def _pending(self) -> bool:
        return self._wanted is not None or bool(self._asked) or self._coach_wanted

    def _stop(self) -> None:
        if self._timer is not None:
            self.table.host.cancel(self._timer)
        self._timer, self._job, self._wanted = None, None, None

    # --- the work, in slices ---------------------------------------------------------------------

    def _next_job(self) -> tuple[Any, Work] | None:
        """The bar first (it is on the table now), then the race chart's band, then the costliest."""
        what: Any
        if self._wanted is not None:
            what = ("bar", self._wanted[0])
        elif "race" in self._asked:
            what = ("race", self._asked["race"][0])
        elif "costly" in self._asked:
            what = ("costly", self._asked["costly"][0])
        else:
            return None
        if self._job is not None and self._job[0] == what:
            return self._job
        if self._wanted is not None:
            return what, self._bar_steps(self._wanted[1])
        _, match, you = self._asked[what[0]]
        return what, (self._race_steps(match, you) if what[0] == "race" else self._costly_steps(match, you))

    def _tick(self) -> None:
        """One slice: warm the coach up if it is not, else the figure the table waits for."""
        self._timer = None
        end = time.perf_counter() + seats.SLICE_MS / 1000
        redraw = False
        try:
            while True:
                if not warmed():
                    if self._warm is None:
                        self._warm = warm_steps()
                    if next(self._warm, None) is None:
                        self._warm = None
                        if not warmed():
                            self._coach_wanted = False
                            return  # the coach cannot be loaded: no figures
                elif self._coach_wanted:
                    self._coach_wanted = False
                    redraw = True  # its line on the table now
                else:
                    job = self._next_job()
                    if job is None:
                        self._job = None
                        break
                    self._job = job
                    try:
                        next(job[1])
                    except StopIteration as stop:
                        self._job = None
                        redraw = self._finished(job[0], stop.value) or redraw
                if time.perf_counter() >= end:
                    break
        except Exception as exc:  # noqa: BLE001 - the figure is a bonus: never stop the table for it
            caught("shell.chances.TableChances._tick", exc)
            self._fail()
            return
        dialog = self.table.ui.dialog
        if dialog and dialog != "record":
            return  # a dialog opened: the next frame after it closes asks again
        if redraw:
            self.table.refresh()  # the frame asks again for what it still lacks (after_frame)
        elif self._job is not None or self._pending():
            self._timer = self.table.host.later(0, self._tick)

    def _fail(self) -> None:
        """The work under way failed: it is not tried again (the frame shows nothing for it)."""
        if self._job is not None:
            kind, key = self._job[0]
            if kind == "bar":
                self._cache[key] = None
            else:
                (self._races if kind == "race" else self._costly)[key] = None
                self._asked.pop(kind, None)
        self._job, self._wanted = None, None

    def _finished(self, what: Any, result: Any) -> bool:
        """Keep a result; True if the table should be drawn again."""
        kind, key = what
        if kind == "bar":
            self._cache[key] = result
            if len(self._cache) > CACHE_SIZE:
                del self._cache[next(iter(self._cache))]
            wanted = self._wanted
            if wanted is not None and wanted[0] == key:
                self._wanted = None
                return True
            return False
        (self._races if kind == "race" else self._costly)[key] = result
        asked = self._asked.get(kind)
        if asked is not None and asked[0] == key:
            del self._asked[kind]
            return True
        return False

    @staticmethod
    def _bar_steps(view: SeatView) -> Work:
        ai = ai_module()
        if ai is None:
            return None
        from cribbage.ai.winchance import seat_chances_steps

        return (yield from seat_chances_steps(view))

    # --- game over -------------------------------------------------------------------------------

    def _costly_wanted(self) -> bool:
        mode = self.table.mode_def
        return bool(mode.computer) and self.table.perspective is not None and ai_available()

    @staticmethod
    def _race_steps(match: Match, you: int) -> Work:
        """Each hand's start replayed, ``you``'s chance there (from ``you``'s view: at the start of a
        hand nothing is dealt yet, so it is public), and the result at the end."""
        from cribbage.ai.winchance import seat_chances_steps

        race: list[tuple[int, float]] = []
        state = match.new_state()
        seen = 0
        starts: list[SeatView] = []
        for action in list(match.actions):
            state.apply(action)
            if state.hand_number > seen and state.phase is not Phase.GAME_OVER:
                seen = state.hand_number
                starts.append(view_of(state, you))
        for view in starts:
            yield
            chances = yield from seat_chances_steps(view)
            if chances is not None:
                race.append((view.hand_number - 1, chances[you]))  # after the hand before it
        if match.state.winner is not None:
            race.append((match.state.hand_number, 1.0 if match.state.winner == you else 0.0))
        return tuple(race)

    @staticmethod
    def _costly_steps(match: Match, you: int) -> Work:
        """The coach's review of every decision of ``you``, the costliest three in words."""
        from cribbage.ai.coach import costliest_steps

        found = yield from costliest_steps(match, you, 3)
        return tuple(Costly(r.hand, review_line(r)) for r in found)


def match_key(match: Match) -> tuple[Any, ...]:
    """A finished match, by value: its seed, rules and actions (a replayed record and the match on
    the table are the same match)."""
    return match.seed, match.rules, len(match.actions), hash(tuple(str(a) for a in match.actions))

"""The daily discard puzzle's page (``?mode=puzzle``): the day's six cards and situation
(:mod:`cribbage.puzzle`), the player's two cards laid away, then the coach's 15 discards ranked, the
result, the streak, the history and a text to share.

No browser here (like :mod:`web.screens.scorekeeper.screen`): the glue (:mod:`web.page.puzzle`) hands it a host
that draws, speaks, tells the time and runs timers, and a storage; the tests hand it fakes. Today is
the host's clock in UTC unless the page is given one (``?today=2026-12-02``, for tests); ``?date=``
opens another day (up to today). The coach works the day's answer out in slices of a few
milliseconds while the player thinks (:func:`cribbage.ai.discard_wins.rank_by_winning_steps`), so
the answer is usually ready the moment two cards are laid away; if not, it is finished then.

The history is saved under :data:`HISTORY_KEY`; a stored history that cannot be read is set aside
under another key, never lost, and the player is told.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Protocol

from cribbage.puzzle import (FIRST_DAY, History, Puzzle, Result, grade, parse_day, puzzle_for, reason,
                             share_text)

from web.screens.puzzle.view import PuzzleScene, day_title, overlay_html, table_html, verdict
from web.kit.controls import Handler, route
from web.kit.frame import Rendered
from web.sessions.storage import Storage
from web.kit.caught import caught

if TYPE_CHECKING:
    from cribbage.ai.coach import DiscardChoice

__all__ = ["PuzzleController", "HISTORY_KEY", "utc_day", "SLICE_MS"]

HISTORY_KEY = "cribbage.puzzle.history"
SLICE_MS = 12
"""The longest the coach works at a time before giving the page back."""


class Host(Protocol):
    def show(self, rendered: Rendered, focus: str | None) -> None: ...
    def announce(self, text: str) -> None: ...
    def now_ms(self) -> int: ...
    def later(self, ms: int, fn: Callable[[], None]) -> Any: ...


def utc_day(ms: int) -> date:
    """The UTC date at ``ms`` milliseconds since 1970."""
    return datetime.fromtimestamp(ms / 1000.0, tz=timezone.utc).date()


class PuzzleController:
    """The puzzle on the page: the day shown, the cards picked, the answers, the history."""

    def __init__(self, host: Host, storage: Storage, *, day: str | None = None, today: str | None = None,
                 embedded: bool = False) -> None:
        self.host = host
        self.storage = storage
        self.embedded = embedded
        self.notice: str | None = None
        self._clock: date | None = None
        if today is not None:
            try:
                self._clock = parse_day(today)
            except ValueError as exc:
                self.notice = f"?today= is ignored: {exc}."
        self._asked_day = day
        self.history = History()
        self.day = self.today()
        self.puzzle: Puzzle = puzzle_for(self.day)
        self.selected: tuple[int, ...] = ()
        self.dialog: str | None = None
        self.copied = False
        self.copy_refused = False
        self.focus: str | None = None
        self._rankings: dict[date, list["DiscardChoice"]] = {}
        self._work: tuple[date, Iterator[Any]] | None = None
        self._warm: Iterator[str] | None = None
        self._timer: Any = None

    # --- time and days ---------------------------------------------------------------------------

    def today(self) -> date:
        """Today (UTC): the page's clock, or the one it was given; never before the first puzzle."""
        day = self._clock if self._clock is not None else utc_day(self.host.now_ms())
        return max(day, FIRST_DAY)

    def boot(self) -> None:
        self._load()
        today = self.today()
        if self._asked_day is not None:
            try:
                asked = parse_day(self._asked_day)
            except ValueError as exc:
                self.notice = f"That day cannot be opened ({exc}): here is today\u2019s puzzle."
                asked = today
            if asked > today:
                self.notice = (f"The puzzle of {asked.isoformat()} is not out yet (it is "
                               f"{today.isoformat()} in UTC): here is today\u2019s.")
                asked = today
            today = asked
        self._open(today, announce=False)

    def _open(self, day: date, announce: bool = True) -> None:
        day = min(max(day, FIRST_DAY), self.today())
        self.day = day
        self.puzzle = puzzle_for(day)
        self.selected = ()
        self.copied = self.copy_refused = False
        if announce:
            self.host.announce(f"Puzzle of {day_title(day)}. {self.puzzle.situation()}")
        self.refresh()
        self._schedule()

    # --- saves -----------------------------------------------------------------------------------

    def _load(self) -> None:
        raw = self.storage.get(HISTORY_KEY)
        if raw is None:
            return
        try:
            self.history = History.from_json(json.loads(raw))
        except Exception as exc:  # noqa: BLE001 - any unreadable history is set aside, never lost
            caught("screens.puzzle.screen.PuzzleController._load", exc)
            aside = f"{HISTORY_KEY}.corrupt.{self.host.now_ms()}"
            try:
                self.storage.set(aside, raw)
                self.storage.remove(HISTORY_KEY)
            except Exception as err:  # noqa: BLE001
                caught("screens.puzzle.screen.PuzzleController._load", err)
                aside = "(it could not be copied)"
            self.history = History()
            self.notice = (f"Your puzzle history could not be read ({exc or type(exc).__name__}). It was set "
                           f"aside as \u201c{aside}\u201d; a new one has started.")

    def _save(self) -> None:
        try:
            self.storage.set(HISTORY_KEY, json.dumps(self.history.to_json(), separators=(",", ":")))
        except Exception as exc:  # noqa: BLE001 - a full storage must not lose the answer on screen
            caught("screens.puzzle.screen.PuzzleController._save", exc)
            self.notice = f"Your answer could not be saved ({exc})."

    # --- the coach -------------------------------------------------------------------------------

    def ranking(self, day: date) -> list["DiscardChoice"]:
        """The coach's answer for ``day`` (finished now if it is not ready)."""
        got = self._rankings.get(day)
        if got is not None:
            return got
        if self._work is not None and self._work[0] == day:
            steps = self._work[1]
        else:
            steps = self._steps(day)
        self._work = None
        for _ in steps:
            pass
        return self._rankings[day]

    def _steps(self, day: date) -> Iterator[None]:
        """The answer of ``day`` in pieces (the ranking is stored when the last piece is done)."""
        from cribbage.ai.discard_wins import rank_by_winning_steps

        p = puzzle_for(day)
        steps = rank_by_winning_steps(p.hand, p.dealer, p.scores, p.target)
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                self._rankings[day] = stop.value
                return
            yield

    def _pending(self) -> bool:
        return self.day not in self._rankings

    def _schedule(self) -> None:
        """Work the shown day's answer out in the page's quiet moments."""
        if self._timer is None and self._pending():
            self._timer = self.host.later(40, self._slice)

    def _slice(self) -> None:
        """One slice of the coach's work (at most about :data:`SLICE_MS`)."""
        self._timer = None
        start = self.host.now_ms()
        while self.host.now_ms() - start < SLICE_MS:
            if self._warm is None:
                from web.sessions.seats import warm_steps  # the coach and its tables, piece by piece

                self._warm = warm_steps()
            if next(self._warm, None) is not None:
                continue
            if not self._pending():
                return
            if self._work is None or self._work[0] != self.day:
                self._work = (self.day, self._steps(self.day))
            if next(self._work[1], "done") == "done":
                self._work = None
                self.refresh()  # the answer is ready (shown at once if it was waited for)
                return
        self._schedule()

    # --- drawing ---------------------------------------------------------------------------------

    @property
    def result(self) -> Result | None:
        return self.history.get(self.day)

    def scene(self) -> PuzzleScene:
        result = self.result
        ranking = self._rankings.get(self.day) if result is not None else None
        scene = PuzzleScene(self.puzzle, self.today(), self.history, self.selected, result, ranking,
                            notice=self.notice, dialog=self.dialog,
                            copied="refused" if self.copy_refused else ("yes" if self.copied else ""))
        if result is not None and ranking is not None:
            scene.reason = reason(self.puzzle, ranking)
            scene.share = share_text(result, self.history.streak_on(result.day) if result.on_day else None)
        return scene

    def render(self, scene: PuzzleScene | None = None) -> Rendered:
        """The markup of ``scene`` (the present one by default)."""
        scene = self.scene() if scene is None else scene
        result = scene.result
        meta = {"mode": "puzzle", "phase": "puzzle", "dialog": self.dialog or "", "day": self.day.isoformat(),
                "today": scene.today.isoformat(), "hand": " ".join(c.code for c in self.puzzle.hand),
                "solved": "true" if result is not None else "false",
                "answer": "true" if scene.ranking is not None else "false",
                "coach": "working" if self._pending() else "ready",
                "selected": ",".join(map(str, self.selected)),
                "streak": str(self.history.streak(scene.today))}
        return Rendered(table_html(scene), overlay_html(scene), meta)

    def refresh(self) -> None:
        self.host.show(self.render(), self.focus)
        self.focus = None

    # --- input -----------------------------------------------------------------------------------

    def actions(self) -> Mapping[str, Handler]:
        """Every control of the Puzzle, each with its handler (:class:`web.shell.screen.Screen`)."""
        return {
            "pz-card": self._on_pz_card, "pz-clear": self._on_pz_clear, "pz-confirm": self._on_pz_confirm,
            "pz-prev": self._on_pz_prev, "pz-next": self._on_pz_next, "pz-today": self._on_pz_today,
            "pz-date": self._on_pz_date, "pz-open": self._on_pz_open, "pz-dismiss": self._on_pz_dismiss,
            "pz-history": self._on_pz_history, "pz-menu": self._on_pz_menu, "pz-close": self._on_pz_close,
            "pz-copy": self._on_pz_copy, "pz-close-backdrop": self._on_pz_backdrop,
        }

    def click(self, action: str, data: dict[str, str] | None = None) -> None:
        route(self.actions(), action, data)

    def _on_pz_card(self, data: dict[str, str]) -> None:
        if self.result is not None:
            return
        try:
            index = int(data.get("index", ""))
        except ValueError:
            return
        if not 0 <= index < 6:
            return
        if index in self.selected:
            self.selected = tuple(i for i in self.selected if i != index)
        else:
            self.selected = (*self.selected, index)[-2:]  # a third card replaces the first picked
        self.focus = f"pz-card-{index}"
        self.refresh()

    def _on_pz_clear(self, data: dict[str, str]) -> None:
        self.selected = ()
        self.focus = "pz-card-0"
        self.refresh()

    def _on_pz_confirm(self, data: dict[str, str]) -> None:
        if self.result is not None or len(self.selected) != 2:
            return
        p = self.puzzle
        discard = [p.hand[i] for i in self.selected]
        ranking = self.ranking(self.day)
        result = grade(p, ranking, discard, self.today())
        self.history.add(result)
        self._save()
        self.selected = ()
        self.focus = "pz-verdict"
        self.host.announce(f"{verdict(result, ranking)} {reason(p, ranking)}")
        self.refresh()

    def _go(self, day: date) -> None:
        self.dialog = None
        self._open(day)

    def _on_pz_prev(self, data: dict[str, str]) -> None:
        self.focus = "pz-prev"
        self._go(self.day - timedelta(days=1))

    def _on_pz_next(self, data: dict[str, str]) -> None:
        self.focus = "pz-next"
        self._go(self.day + timedelta(days=1))

    def _on_pz_today(self, data: dict[str, str]) -> None:
        self.focus = "pz-day"
        self._go(self.today())

    def _on_pz_date(self, data: dict[str, str]) -> None:
        self._open_text(data.get("value", ""))

    def _on_pz_open(self, data: dict[str, str]) -> None:
        self._open_text(data.get("choice", ""))

    def _open_text(self, text: str) -> None:
        try:
            day = parse_day(text)
        except ValueError as exc:
            self.notice = f"That day cannot be opened: {exc}."
            self.refresh()
            return
        if day > self.today():
            self.notice = f"The puzzle of {day.isoformat()} is not out yet."
            self.refresh()
            return
        self._go(day)

    def _on_pz_backdrop(self, data: dict[str, str]) -> None:
        """A click on the dimmed page around a dialog, or inside the dialog (the click bubbles to the
        backdrop: the page sorts the two out for the table's ``close-backdrop`` only): nothing, as
        before the explicit table (the old router found no method of this name)."""

    def _on_pz_dismiss(self, data: dict[str, str]) -> None:
        self.notice = None
        self.refresh()

    def _on_pz_history(self, data: dict[str, str]) -> None:
        self.dialog = "history"
        self.focus = "btn-close"
        self.refresh()

    def _on_pz_menu(self, data: dict[str, str]) -> None:
        self.dialog = "menu"
        self.focus = "btn-close"
        self.refresh()

    def _on_pz_close(self, data: dict[str, str]) -> None:
        self.dialog = None
        self.refresh()

    _on_pz_close_backdrop = _on_pz_close

    def _on_pz_copy(self, data: dict[str, str]) -> None:
        """The page's glue put the share text on the clipboard (``ok``: ``false`` if the browser
        refused; the text stays on screen to select by hand): say so on the button."""
        self.copied = True
        self.copy_refused = data.get("ok") == "false"
        self.refresh()

    def key(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False,
            target_action: str | None = None) -> bool:
        if alt or ctrl:
            return False
        if key == "Escape":
            if self.dialog:
                self._on_pz_close({})
                return True
            if self.selected:
                self._on_pz_clear({})
                return True
            return False
        if self.dialog:
            return False
        lower = key.lower()
        if key in "123456" and len(key) == 1 and self.result is None:
            self._on_pz_card({"index": str(int(key) - 1)})
            return True
        if key == "Enter" and target_action in (None, "pz-card") and len(self.selected) == 2:
            self._on_pz_confirm({})
            return True
        if key == "ArrowLeft" and self.day > FIRST_DAY:
            self._on_pz_prev({})
            return True
        if key == "ArrowRight" and self.day < self.today():
            self._on_pz_next({})
            return True
        if lower == "t":
            self._on_pz_today({})
            return True
        if lower == "h":
            self._on_pz_history({})
            return True
        if lower == "m":
            self._on_pz_menu({})
            return True
        return False

"""The controller's side of the player's record: keeping finished matches, the record dialog, export
and import.

:class:`RecordScreens` belongs to one :class:`~web.shell.controller.Controller` and is reached through a
few hooks there: :meth:`match_changed` after every change of the match (a finished match is kept in
the history once: its id is the digest of seed, seats and actions, so a reload on the game-over
screen finds it already kept), :meth:`handler` for the ``record*`` clicks, :meth:`scene` for the
drawing, and :meth:`import_text` for the file the page read. The coach's totals of a kept match are
filled in afterwards on the host's timer, one decision at a time within a small time budget, so the
page never freezes; a reload simply starts that review again.
"""

from __future__ import annotations

from typing import Callable, Mapping, Protocol

from cribbage.fairness import NOT_COMMITTED, Verdict, verify_record_json
from cribbage.match import Match
from cribbage.record import CoachRun, History, MatchRecord, RecordError, Stats, record_match, replay

from web.screens.record.store import (
    HISTORY_KEY,
    append_record,
    export_all,
    export_filename,
    fill_coach,
    import_bundle,
    preview_import,
    read_history,
)
from web.screens.record.view import RECORD_DIALOG, RecordScene
from web.sessions.seats import ai_available, ai_module
from web.sessions.storage import Storage
from web.kit.winchance import review_line
from web.kit.caught import caught

__all__ = ["RecordScreens", "Table", "RECORDED_MODES", "COACH_SLICE_MS", "COACH_START_MS", "IMPORT_LIMIT"]

RECORDED_MODES = ("computer", "hotseat")
"""Modes whose finished matches are kept (an online match is not, for now)."""
COACH_START_MS = 400
"""Pause after the game-over screen is drawn before the coach starts its review."""
COACH_SLICE_MS = 12
"""Time the coach may take in one timer tick (then the page draws and answers input). Its longest
step is ~15 ms in CPython, ~30 ms in the page: a tick stays well under 50 ms (the computer's
search uses the same 12 ms)."""
IMPORT_LIMIT = 20_000_000
"""A bigger file is not an export of ours (500 matches take well under 1 MB)."""
SAMPLES = 16
"""The coach's deals sampled a play. :func:`cribbage.record.coach_totals` takes 64, but one such play
analysis can take a second in the page (the slowest step of a whole match, measured under load), and a
step cannot be split; 16 keeps the slowest step to a fraction of that for close to the same totals."""


class _Clock(Protocol):
    def announce(self, text: str) -> None: ...
    def later(self, ms: int, fn: Callable[[], None]) -> object: ...
    def now_ms(self) -> int: ...


class _Screen(Protocol):
    dialog: str | None
    focus: str | None


class _Races(Protocol):
    def race_of(self, match: Match, you: int) -> tuple[tuple[int, float], ...] | None: ...


class Table(Protocol):
    """What the record screens need of the table they belong to (the app's controller, which is not
    imported here: it imports this module on first use)."""

    @property
    def host(self) -> _Clock: ...
    @property
    def storage(self) -> Storage: ...
    @property
    def match(self) -> Match: ...
    @property
    def mode(self) -> str: ...
    @property
    def ui(self) -> _Screen: ...
    @property
    def chances(self) -> _Races: ...
    def refresh(self) -> None: ...
    def _set_dialog(self, dialog: str | None) -> None: ...
    def cover_for(self) -> int | None: ...
    def reload_after_import(self, keys: set[str]) -> None: ...


class RecordScreens:
    """History keeping, the record dialog's state and its actions, for one controller."""

    def __init__(self, controller: Table) -> None:
        self.ctl = controller
        self.page = "list"
        self.open_id: str | None = None
        self.message: str | None = None
        self.error = False
        self._pending: tuple[str, tuple[str, ...], int] | None = None
        """An import waiting for the player's yes: (text, what it replaces, matches it adds)."""
        self._seen: set[str] = set()
        """Matches already handed to the history by this page."""
        self._queue: list[MatchRecord] = []
        """Kept matches waiting for the coach."""
        self._run: tuple[str, CoachRun] | None = None
        self._timer: object | None = None
        self._opened: tuple[str, Match | None] | None = None
        """The match opened from the list, replayed once (None if it cannot be replayed)."""
        self._cache: tuple[str | None, History, str | None, Stats] | None = None
        """The history last read: (stored text, history, problem, statistics)."""
        self._reviews: dict[tuple[str, int], list[str]] = {}
        """The coach's review of a kept match's hand, by (match id, hand number)."""
        self._verdicts: dict[str, Verdict] = {}
        """*Verify this match*: its outcome, by match id (asked for on this page)."""

    # --- keeping finished matches ---------------------------------------------------------------

    def match_changed(self) -> None:
        """Keep the match on the table if it has just finished (once; nothing else happens here)."""
        ctl = self.ctl
        if ctl.mode not in RECORDED_MODES or not ctl.match.state.is_over:
            return
        try:
            record = record_match(ctl.match, ctl.host.now_ms())
        except RecordError:
            return
        if record.id in self._seen:
            return
        self._seen.add(record.id)
        try:
            added = append_record(ctl.storage, record)
        except Exception as exc:  # noqa: BLE001 - a full or blocked storage must not stop the game
            caught("screens.record.screen.RecordScreens.match_changed", exc)
            return
        kept: MatchRecord | None = record
        if not added:  # kept before this page was loaded: has the coach been through it?
            kept = next((r for r in self._history()[0].records if r.id == record.id), None)
        if kept is not None and kept.coach is None:
            self._queue.append(kept)
            self._schedule(COACH_START_MS)

    def _schedule(self, ms: int) -> None:
        if self._timer is None and ai_available():
            self._timer = self.ctl.host.later(ms, self._tick)

    def _tick(self) -> None:
        """Run the coach for one slice of time, then give the page back."""
        self._timer = None
        host = self.ctl.host
        start = host.now_ms()
        try:
            while True:
                if self._run is None:
                    if not self._queue:
                        return
                    record = self._queue.pop(0)
                    self._run = (record.id, CoachRun(replay(record), samples=SAMPLES))
                record_id, run = self._run
                while not run.done and host.now_ms() - start < COACH_SLICE_MS:
                    run.step()
                if not run.done:
                    break
                self._run = None
                if fill_coach(self.ctl.storage, record_id, run.result()) and self.ctl.ui.dialog == RECORD_DIALOG:
                    self.ctl.refresh()
                if host.now_ms() - start >= COACH_SLICE_MS:
                    break
        except Exception as exc:  # noqa: BLE001 - the coach is a bonus: drop this review, keep the page going
            caught("screens.record.screen.RecordScreens._tick", exc)
            self._run = None
        if self._run is not None or self._queue:
            self._schedule(0)

    @property
    def coach_pending(self) -> bool:
        """The coach is still reviewing a kept match."""
        return self._run is not None or bool(self._queue)

    # --- the dialog -------------------------------------------------------------------------------

    def scene(self) -> RecordScene | None:
        """What the record dialog shows (None when it is closed)."""
        if self.ctl.ui.dialog != RECORD_DIALOG:
            return None
        history, problem, stats = self._history()
        rs = RecordScene(page=self.page, history=history, stats=stats, problem=problem,
                         message=self.message, error=self.error)
        if self.page == "match" and self.open_id is not None:
            record = next((r for r in history.records if r.id == self.open_id), None)
            rs.match = record
            if record is not None:
                match = self._replayed(record)
                rs.events = tuple(match.state.events) if match is not None else ()
                rs.can_review = match is not None and ai_available()
                rs.reviews = {h: lines for (rid, h), lines in self._reviews.items() if rid == record.id}
                rs.verdict = self._verdicts.get(record.id)
                if match is not None:  # the race chart's band: the chance of winning after each hand
                    rs.you = min(match.humans) if match.humans else 0
                    rs.race = self.ctl.chances.race_of(match, rs.you)
        if self.page == "confirm-import" and self._pending is not None:
            rs.replaced = self._pending[1]
            rs.new_matches = self._pending[2]
        return rs

    def _history(self) -> tuple[History, str | None, Stats]:
        """The stored history, its problem and statistics; read again only when the stored text changed
        (500 matches take a good fraction of a second to read)."""
        raw = self.ctl.storage.get(HISTORY_KEY)
        if self._cache is None or self._cache[0] != raw:
            history, problem = read_history(self.ctl.storage)
            self._cache = (raw, history, problem, history.stats())
        return self._cache[1], self._cache[2], self._cache[3]

    def _replayed(self, record: MatchRecord) -> Match | None:
        """A kept match replayed once and remembered while it stays open (None: it cannot be)."""
        if self._opened is not None and self._opened[0] == record.id:
            return self._opened[1]
        try:
            match: Match | None = replay(record)
        except RecordError:
            match = None
        self._opened = (record.id, match)
        return match

    def actions(self) -> Mapping[str, Callable[[dict[str, str]], None]]:
        """Every control of this part, each with its handler (:class:`web.shell.screen.Part`)."""
        return {
            "record": self._on_open,
            "record-match": self._on_match,
            "record-back": self._on_back,
            "record-export": self._on_export,
            "record-import-confirm": self._on_import_confirm,
            "record-review": self._on_review,
            "record-verify": self._on_verify,
            "record-fair": self._on_fair,
        }

    def _show(self, page: str, focus: str | None) -> None:
        self.page = page
        self.ctl.ui.focus = focus
        self.ctl.refresh()

    def _on_open(self, data: dict[str, str]) -> None:
        if self.ctl.cover_for() is not None:
            return
        self.message, self.error, self._pending = None, False, None
        self.ctl._set_dialog(RECORD_DIALOG)
        self._show("list", "btn-close")

    def _on_match(self, data: dict[str, str]) -> None:
        self.open_id = data.get("record")
        self.message = None
        self._show("match", "btn-record-back")

    def _on_review(self, data: dict[str, str]) -> None:
        """The coach's review of one hand of the match opened (each human's discard and plays)."""
        opened = self._opened
        ai = ai_module()
        if opened is None or ai is None or not data.get("hand", "").isdigit():
            return
        record_id, match = opened
        if match is None:
            return
        hand = int(data["hand"])
        lines: list[str] = []
        try:
            for seat in sorted(match.humans):
                who = f"{match.names[seat]}: " if len(match.humans) > 1 else ""
                for r in ai.review_hand(match, seat, hand):
                    if r.text:
                        lines.append(review_line(r, who))
        except Exception as exc:  # noqa: BLE001 - the review is a bonus
            caught("screens.record.screen.RecordScreens._on_review", exc)
            lines = [f"The coach could not review this hand ({exc})."]
        self._reviews[(record_id, hand)] = lines or ["Nothing to review: no real choice in this hand."]
        self._show("match", f"record-review-{hand}")

    def _on_verify(self, data: dict[str, str]) -> None:
        """*Verify this match*: the revealed seed and nonce against the commitment, every hand re-dealt."""
        record = next((r for r in self._history()[0].records if r.id == self.open_id), None)
        if record is None:
            return
        verdict = verify_record_json(record.to_json())
        self._verdicts[record.id] = verdict if verdict is not None else Verdict(False, NOT_COMMITTED)
        self.ctl.host.announce(self._verdicts[record.id].summary)
        self._show("match", "verdict")

    def _on_fair(self, data: dict[str, str]) -> None:
        """The page *How the computer plays* (from the record's list, or the table's fair-deal line)."""
        if self.ctl.cover_for() is not None:
            return
        if self.ctl.ui.dialog != RECORD_DIALOG:
            self.message, self.error, self._pending = None, False, None
            self.ctl._set_dialog(RECORD_DIALOG)
        self._show("fair", "btn-record-back")

    def _on_back(self, data: dict[str, str]) -> None:
        self._pending = None
        back = (f"match-{self.open_id}" if self.page == "match" and self.open_id
                else "btn-fair" if self.page == "fair" else "btn-close")
        self._show("list", back)

    # --- export and import ------------------------------------------------------------------------

    def _say(self, message: str, error: bool = False) -> None:
        self.message, self.error = message, error
        self.ctl.host.announce(message)

    def _on_export(self, data: dict[str, str]) -> None:
        ctl = self.ctl
        try:
            text = export_all(ctl.storage)
        except Exception as exc:  # noqa: BLE001
            caught("screens.record.screen.RecordScreens._on_export", exc)
            self._say(f"The export failed ({exc}).", True)
            self._show("list", "btn-export")
            return
        name = export_filename(ctl.host.now_ms())
        download = getattr(ctl.host, "download", None)
        if callable(download):
            download(name, text)
            n = len(self._history()[0].ids())
            self._say(f"Exported {n} match{'es' if n != 1 else ''}, your saved games and settings to {name}.")
        else:
            self._say("This page cannot save files.", True)
        self._show("list", "btn-export")

    def import_text(self, text: str | None, size: int = 0) -> None:
        """The page read a file the player chose (None: it could not be read, or it is too big)."""
        ctl = self.ctl
        if ctl.ui.dialog != RECORD_DIALOG:
            ctl._set_dialog(RECORD_DIALOG)
        if text is None or len(text) > IMPORT_LIMIT or size > IMPORT_LIMIT:
            why = "it is far too big to be an export of this game" if (size > IMPORT_LIMIT or (
                text is not None and len(text) > IMPORT_LIMIT)) else "it could not be read"
            self._say(f"This file was not imported: {why}. Nothing was changed.", True)
            self._show("list", "btn-close")
            return
        try:
            plan = preview_import(ctl.storage, text)
        except RecordError as exc:
            self._say(f"This file was not imported: {exc}. Nothing was changed.", True)
            self._show("list", "btn-close")
            return
        if not plan.changes:
            self._say("Nothing to import: everything in this file is already here.")
            self._show("list", "btn-close")
            return
        saves = tuple(_describe(k) for k in plan.replaced if k.startswith("cribbage.save.") and k.count(".") == 2)
        if saves:
            self._pending = (text, saves, plan.new_matches)
            self.message = None
            self._show("confirm-import", "btn-import-cancel")
            return
        self._apply(text)

    def _on_import_confirm(self, data: dict[str, str]) -> None:
        if self._pending is None:
            return
        text = self._pending[0]
        self._pending = None
        self._apply(text)

    def _apply(self, text: str) -> None:
        ctl = self.ctl
        try:
            plan = import_bundle(ctl.storage, text)
        except RecordError as exc:
            self._say(f"This file was not imported: {exc}. Nothing was changed.", True)
            self._show("list", "btn-close")
            return
        parts = [f"{plan.new_matches} match{'es' if plan.new_matches != 1 else ''} added to your history"]
        other = [k for k in plan.writes if k != HISTORY_KEY]
        if other:
            parts.append(f"{len(other)} saved game{'s' if len(other) != 1 else ''} or setting"
                         f"{'s' if len(other) != 1 else ''} restored")
        ctl.reload_after_import(set(plan.writes))
        self._say("Imported: " + "; ".join(parts) + ".")
        self._show("list", "btn-close")


def _describe(key: str) -> str:
    """``cribbage.save.computer`` → "a saved game against the computer"."""
    kind = key.split(".")[2] if key.count(".") >= 2 else key
    return {"computer": "a saved game against the computer", "hotseat": "a saved two-player game"}.get(
        kind, f"a saved game ({kind})")

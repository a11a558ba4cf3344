"""The shell of the table page: boot, the URL's options, the session on the table, the scene, drawing,
and the ONE router of clicks and keys (:class:`web.shell.screen.Router`).

What each control does lives with its screen or part, found in an explicit table of actions: the
felt's input and key map in :class:`web.table.screen.TableScreen`, the menu and its dialogs in
:class:`web.shell.menu.TableMenu`, the coach's review in :mod:`web.shell.chances`, sound and the
like in :mod:`web.shell.comforts`, New game, Your record and a friend's challenge in their parts
(the last two imported when their first action comes); an action none of them knows goes to the
session's own controls (online: the room's, :meth:`web.sessions.session.Session.click`).

It never touches the browser itself. ``web.page`` hands it a :class:`~web.shell.ports.Host` (render into the page,
speak in the live region, set a timer, post to the parent frame) and a :class:`Storage`
(``localStorage``); the tests hand it fakes and play whole matches under CPython.

Who moves and how a move is agreed live behind one seam: the controller holds a
:class:`~web.sessions.session.Session` opened by the current :class:`~web.sessions.registry.Mode`, proposes the local
player's moves to it, asks it for undo, restart, a new match or the next hand, and redraws on each
:class:`~web.sessions.session.Change` it reports. The computer is a seat driver (:mod:`web.sessions.seats`) with its
own pacing; drawing never schedules anything. The mode's ``perspective`` says which seat is "you"
(None in hot-seat: the seat to act is drawn at the bottom, and a cover hides the table whenever the
device must pass to the other player before their private cards are drawn).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from cribbage.actions import Action
from cribbage.fairness import new_nonce
from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.state import Phase
from cribbage.view import SeatView

if TYPE_CHECKING:
    from web.screens.challenge.screen import ChallengeScreens
    from web.screens.record.screen import RecordScreens

from web.sessions.registry import MODES, Mode, OpenContext, mode_of
from web.shell.chances import TableChances
from web.shell.comforts import TableComforts
from web.shell.link_options import read_link
from web.shell.lessons import LESSONS_KEY, LessonsPart
from web.shell.looks import Looks
from web.shell.menu import SETTINGS_KEY, TableMenu
from web.shell.dialogs import frame as render
from web.shell.ports import Cues, Host
from web.shell.screen import Router
from web.shell.table_scene import table_scene
from web.table.ports import Ui
from web.table.scene import LEVELS, Scene
from web.table.screen import TableScreen
from web.sessions.seats import LocalHuman
from web.sessions.session import Change, LocalSession, Session, deal_cut_held, summary_hand
from web.sessions.storage import MemoryStorage, Storage
from web.kit.caught import caught

__all__ = ["Controller", "Host", "Storage", "MemoryStorage", "SAVE_KEYS", "MODE_KEY", "SETTINGS_KEY", "LESSONS_KEY",
           "Ui"]

SAVE_KEYS = {key: mode.save_key for key, mode in MODES.items()}
MODE_KEY = "cribbage.mode"
DEFAULT_DELAY = 600
PRIVATE_PHASES = (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY)
"""Phases in which a seat's own cards are secret from the other player."""


class Controller:
    """One table: the screen state and the session of the match on it."""

    def __init__(self, host: Host, storage: Storage, params: dict[str, str] | None = None,
                 embedded: bool = False, seed_source: Callable[[], int] | None = None,
                 cues: Cues | None = None) -> None:
        self.host = host
        self.storage = storage
        self.params, self._link_notes = read_link(params or {})
        """The address's options that can be used (:mod:`web.shell.link_options`), and why any was not."""
        self.embedded = embedded
        self.seed_source = seed_source or (lambda: random.SystemRandom().randrange(1, 2**53))
        self.nonce_source: Callable[[], str | None] = new_nonce
        """The nonce of a new match's commitment to its deals (:mod:`cribbage.fairness`); None: none."""
        self.ui = Ui()
        self.delay = DEFAULT_DELAY
        self.orientation = "vertical"
        self._next_seed: int | None = None
        self.context = OpenContext(storage=storage, timer=host, delay=lambda: self.delay, now_ms=host.now_ms)
        self.mode_def: Mode = mode_of(None)
        placeholder = Match(1, humans=(0,), names=self.mode_def.names)
        self.session: Session = LocalSession(placeholder, (LocalHuman("You"), LocalHuman("Computer")))
        """The match on the table and who moves in it (until :meth:`boot` opens the real one)."""
        self._records: RecordScreens | None = None
        self._challenges: ChallengeScreens | None = None
        self._lessons: LessonsPart | None = None
        """The lessons (:mod:`web.shell.lessons`), imported when a control of theirs is first used."""
        self._mode_kept = False
        """The mode on the table is remembered (:meth:`_keep_mode`)."""
        from web.shell.newgame import NewGameScreen

        self.newgame = NewGameScreen(self)
        """The New game dialog (who sits where, house rules, a series) and the series on the table."""
        self.chances = TableChances(self, SETTINGS_KEY)
        """The chance of winning: the bar by the board (worked out after the paint), its setting, the
        game-over figures (:mod:`web.shell.chances`)."""
        self.looks = Looks(self.storage, SETTINGS_KEY)
        """The felt and the card backs (:mod:`web.shell.looks`)."""
        self.comforts = TableComforts(self, cues, SETTINGS_KEY)
        """Sound, vibration and auto-play: their switches, the cues of each move, a forced move made
        for the player (:mod:`web.shell.comforts`)."""
        self.table = TableScreen(self)
        """The felt's input and keys (:mod:`web.table.screen`)."""
        self.menu = TableMenu(self)
        """The menu and the shell's dialogs over the table (:mod:`web.shell.menu`)."""
        self.router = Router([("", lambda: self.table), ("", lambda: self.menu), ("", lambda: self.chances),
                              ("comfort-", lambda: self.comforts), ("record", lambda: self.records),
                              ("newgame", lambda: self.newgame), ("challenge", lambda: self.challenges),
                              ("lesson", lambda: self.lessons)])
        """Every ``data-action`` of the table page, one table (:mod:`web.shell.screen`); the record and
        challenge dialogs are imported when an action of theirs first comes."""

    @property
    def records(self) -> RecordScreens:
        """The player's record: finished matches kept, the record dialog, export and import.

        Imported on first use (a match over, the record dialog opened): not needed at start."""
        if self._records is None:
            from web.screens.record.screen import RecordScreens

            self._records = RecordScreens(self)
        return self._records

    @property
    def lessons(self) -> LessonsPart:
        """The lessons and practice (:mod:`web.shell.lessons`), imported on first use."""
        if self._lessons is None:

            self._lessons = LessonsPart(self)
        return self._lessons

    @property
    def challenges(self) -> ChallengeScreens:
        """A friend's challenge: its link, its match and the comparison (:mod:`web.screens.challenge.screen`).

        Imported on first use (a challenge link or match at start, the Challenge a friend button)."""
        if self._challenges is None:
            from web.screens.challenge.screen import ChallengeScreens

            self._challenges = ChallengeScreens(self)
        return self._challenges

    def match_changed(self) -> None:
        """Tell the record screens of a finished match (only then: they are kept, or reviewed, once over)."""
        if self.match.state.is_over:
            self.records.match_changed()
        if self._challenges is not None:
            self._challenges.match_changed()

    # --- start ---------------------------------------------------------------------------------

    def boot(self) -> None:
        """Restore the last match of the last mode (or start one), then draw the table."""
        settings = self._read_json(SETTINGS_KEY)
        delay = settings.get("delay", DEFAULT_DELAY) if isinstance(settings, dict) else DEFAULT_DELAY
        self.delay = delay if isinstance(delay, int) and delay >= 0 else DEFAULT_DELAY
        if self.params.get("delay", "").isdigit():
            self.delay = int(self.params["delay"])
        chosen = self.newgame.from_url(self.params)  # ?players=&seats=&to=&rules=&series=: the next new match
        key = self.params.get("mode") or chosen or self.storage.get(MODE_KEY)
        if (
            key == "challenge" or "challenge" in self.params
        ):  # a challenge link or its match (web.screens.challenge.screen)
            key = self.challenges.boot(self.params.get("challenge"), self.storage.get(MODE_KEY))
        mode = mode_of(key)
        if self.params.get("seed", "").isdigit():
            self._next_seed = int(self.params["seed"])
        level = self.params.get("level")
        self.ui.new_level = level if level in LEVELS else self.newgame.level()
        if not self._resume(mode):
            self._new_match(mode, self.ui.new_level)
        self._say_link_notes()
        self.refresh()
        self.match_changed()

    def _say_link_notes(self) -> None:
        """What of the address was ignored, and why, in the notice (with any other the start gave)."""
        table = [f"The link asked for a table this game cannot set: {n[:1].lower()}{n[1:]}"
                 for n in self.newgame.notes]
        said = [*self._link_notes, *table]
        if said:
            self.ui.notice = " ".join([*([self.ui.notice] if self.ui.notice else []), *said])

    def _read_json(self, key: str) -> object:
        try:
            raw = self.storage.get(key)
            return json.loads(raw) if raw else None
        except Exception as exc:  # noqa: BLE001 - settings are a convenience
            caught("shell.controller.Controller._read_json", exc)
            return None

    def _use(self, mode: Mode, session: Session) -> None:
        """Put ``session`` on the table (the previous one stops) and let its seats act."""
        self.session.close()
        self.mode_def = mode
        self.session = session
        session.subscribe(self._on_change)
        self._mode_kept = False
        self._keep_mode()
        self.chances.discards.clear()
        session.start()

    def _keep_mode(self) -> None:
        """Remember the mode on the table for the next visit, once its session is one to come back to
        (not a room link's invitation the player has not accepted: *Not now* leaves no trace)."""
        if self._mode_kept or self.session.invited:
            return
        self._mode_kept = True
        try:
            self.storage.set(MODE_KEY, self.mode_def.key)
        except Exception as exc:  # noqa: BLE001 - a full or blocked storage must not stop the game
            caught("shell.controller.Controller._keep_mode", exc)

    def _resume(self, mode: Mode) -> bool:
        """Reopen the saved match of ``mode``. True if loaded (else a notice may explain why not)."""
        session, notice = mode.resume(mode, self.context)
        if notice:
            self.ui.notice = notice
        if session is None:
            return False
        self.ui.viewer = None
        self.ui.new_mode = mode.key
        self._use(mode, session)
        return True

    def _new_match(self, mode: Mode, level: str, rules: Rules | None = None) -> None:
        drawn = self._next_seed is None  # a seed from the address is the player's own: nothing to commit to
        seed = self._next_seed if self._next_seed is not None else self.seed_source()
        self._next_seed = None
        notice = self.ui.notice
        self.ui = Ui(notice=notice, new_mode=mode.key, new_level=level)
        context = self.context if rules is None else replace(self.context, rules=rules)
        context = replace(context, nonce=self.nonce_source() if drawn else None)
        self._use(mode, mode.new(mode, context, seed, level))
        self.post("match-start")

    # --- the match -----------------------------------------------------------------------------

    @property
    def match(self) -> Match:
        """The session's match (read-only here)."""
        return self.session.match

    @property
    def mode(self) -> str:
        """The key of the mode on the table (``"computer"``)."""
        return self.mode_def.key

    @property
    def perspective(self) -> int | None:
        """The seat that is "you" on this device (None in hot-seat; online: the session says)."""
        seat = self.session.perspective
        if seat is None:
            seat = self.mode_def.perspective
        if seat is None and len(self.match.humans) == 1:
            seat = next(iter(self.match.humans))  # a table of three or four with one person and computers
        return seat

    @property
    def level(self) -> str:
        level = self.match.options.get("level", "expert")
        return level if isinstance(level, str) and level in LEVELS else "expert"

    @property
    def names(self) -> tuple[str, ...]:
        """How this device names each seat."""
        return tuple(seat.label for seat in self.session.seats)

    @property
    def computer_seats(self) -> frozenset[int]:
        return frozenset(i for i, s in enumerate(self.session.seats) if s.kind == "computer")

    def post(self, kind: str, **extra: object) -> None:
        if not self.embedded:
            return
        st = self.match.state
        message: dict[str, object] = {"source": "cribbage", "version": 1, "type": kind,
                                      "scores": list(st.scores), "hand": st.hand_number}
        message.update(extra)
        self.host.post(message)

    def summary_hand(self) -> int | None:
        """The hand whose show stays on the table: just counted, not yet dismissed."""
        return summary_hand(self.match, self.session.acked_hand)

    def deal_cut_shown(self) -> bool:
        """The result of the cut for deal waits on the table for the player to move on."""
        return self.summary_hand() is None and deal_cut_held(self.match, self.session.acked_hand, self.session.seats)

    def waiting_to_move_on(self) -> bool:
        """The table waits for "Next hand" (a finished show, or the result of the cut for deal)."""
        return self.summary_hand() is not None or self.deal_cut_shown()

    def active_seat(self) -> int:
        """The seat drawn at the bottom (:meth:`web.table.screen.TableScreen.active_seat`)."""
        return self.table.active_seat()

    def cover_for(self) -> int | None:
        """Hot-seat: the seat that must take the device before its cards are drawn (None: no cover)."""
        if not self.mode_def.cover or self.perspective is not None:
            return None
        st = self.match.state
        if st.phase not in PRIVATE_PHASES or self.summary_hand() is not None:
            return None
        seat = self.active_seat()
        return None if self.ui.viewer == seat else seat

    def act(self, action: Action) -> None:
        """Propose the local player's move; the session's answer arrives as a :class:`Change`."""
        self.session.propose(action)

    def _on_change(self, change: Change) -> None:
        """The session reports: the comforts sound it, the table says it and redraws."""
        self.comforts.on_change(change)
        self.table.on_change(change)

    # --- drawing -------------------------------------------------------------------------------

    def scene(self) -> Scene:
        """The scene of the frame to draw now (:func:`web.shell.table_scene.table_scene`)."""
        return table_scene(self)

    @property
    def loaded_records(self) -> RecordScreens | None:
        """The record screens if a use has imported them (a frame never imports them)."""
        return self._records

    @property
    def loaded_challenges(self) -> ChallengeScreens | None:
        """A friend's challenge if a use has imported it (a frame never imports it)."""
        return self._challenges

    def _keep_ev(self, view: SeatView, selected: tuple[str, ...]) -> str | None:
        return self.chances.keep_ev(view, selected)

    def refresh(self) -> None:
        """Draw the frame (and nothing else: the session and its seat drivers schedule moves)."""
        clock = getattr(self.host, "perf_ms", None)  # the page's clock: a benchmark times the phases
        began = clock() if clock is not None else 0.0
        scene = self.scene()
        drawn = clock() if clock is not None else 0.0
        rendered = render(scene)
        if self._lessons is not None:  # the lessons' own markup, while they are up
            rendered = self._lessons.dress(rendered, scene)
        if clock is not None:
            done = clock()
            self.host.measure("\u00b7 scene", began, drawn)  # type: ignore[attr-defined]
            self.host.measure("\u00b7 html", drawn, done)  # type: ignore[attr-defined]
        self.host.show(rendered, self.ui.focus)
        self.ui.focus = None
        self.ui.moved = ()
        self.chances.after_frame()  # a figure the frame lacked: worked out after the paint
        self.comforts.after_frame()  # a forced move (auto-play): made after a visible moment

    def set_orientation(self, orientation: str) -> None:
        if orientation != self.orientation:
            self.orientation = orientation
            self.refresh()

    # --- input ---------------------------------------------------------------------------------

    def click(self, action: str, data: dict[str, str] | None = None) -> None:
        """Route a click on an element with ``data-action`` (``data`` holds its other data-*) through
        the one table of actions (:class:`web.shell.screen.Router`); an action no part knows goes to
        the session's own controls (online: the room's), if it has any."""
        data = data or {}
        self.comforts.touched(action)
        handler = self.router.handler(action)
        if handler is None:
            if self.session.click(action, data):  # controls of the session's own (online)
                self._keep_mode()  # (a room's invitation accepted)
                self.refresh()
            return
        if data.get("disabled") == "true" and action not in ("card",):
            return
        handler(data)

    def press(self, action: str, data: dict[str, str] | None = None) -> None:
        """Do what the control ``action`` does (a key's shortcut), as if tapped but not a tap."""
        handler = self.router.handler(action)
        if handler is not None:
            handler(data or {})

    def key(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False,
            target_action: str | None = None) -> bool:
        """Handle a key press; True if it was used (the page then prevents the default). The key map
        is the table screen's (:meth:`web.table.screen.TableScreen.key`)."""
        if alt:
            return False
        self.comforts.touched("key" if key in ("ArrowLeft", "ArrowRight", "h", "H", *"123456") else "")
        if self._lessons is not None and self._lessons.key(key, ctrl, shift, alt, target_action):
            return True
        return self.table.key(key, ctrl, shift, alt, target_action)

    def reload_after_import(self, keys: set[str]) -> None:
        """An import rewrote these storage keys (:meth:`web.shell.menu.TableMenu.reload_after_import`)."""
        self.menu.reload_after_import(keys)

    def _set_dialog(self, dialog: str | None) -> None:
        """Open or close a dialog; the seat drivers wait while one is open."""
        self.ui.dialog = dialog
        self.session.pause(dialog is not None)

    def start_new(self, mode: Mode, rules: Rules | None = None) -> None:
        """A new match of ``mode`` (``rules``: the table chosen in the page, for a mode that takes it)."""
        self._new_match(mode, self.ui.new_level, rules)
        self.refresh()
        self.host.announce(mode.start_sentence)



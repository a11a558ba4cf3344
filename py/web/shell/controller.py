"""The table's controller: UI state, routing of clicks and keys to intents, drawing.

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
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable, Sequence

from cribbage.actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play
from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.state import Phase
from cribbage.view import SeatView

if TYPE_CHECKING:
    from cribbage.ai.coach import DiscardChoice

    from web.screens.challenge.screen import ChallengeScreens
    from web.screens.lessons.screen import LessonsScreen
    from web.screens.record.screen import RecordScreens

from web.sessions.registry import DEFAULT_MODE, MODES, Mode, OpenContext, mode_of
from web.shell.chances import TableChances
from web.shell.comforts import TableComforts
from web.shell.link_options import read_link
from web.shell.looks import Looks
from web.kit.looks import label_of
from web.shell.dialogs import frame as render
from web.shell.ports import Cues, Host
from web.table.layout import side_names
from web.table import claims
from web.table.render import crib_of, discard_size, primary_button
from web.table.scene import DELAYS, LEVELS, Scene
from web.sessions.seats import ai_available as _ai_available
from web.sessions.seats import ai_module as _ai
from web.sessions.seats import warmed as _warmed
from web.sessions.seats import fallback_choose as _fallback_choose
from web.sessions.seats import keep_points as _keep_points
from web.sessions.seats import LocalHuman
from web.sessions.session import Change, LocalSession, Offer, Session, deal_cut_held, summary_hand
from web.kit.speech import event_sentence, who_verb
from web.sessions.storage import MemoryStorage, Storage

__all__ = ["Controller", "Host", "Storage", "MemoryStorage", "SAVE_KEYS", "MODE_KEY", "SETTINGS_KEY"]

SAVE_KEYS = {key: mode.save_key for key, mode in MODES.items()}
MODE_KEY = "cribbage.mode"
SETTINGS_KEY = "cribbage.settings"
LESSONS_KEY = "cribbage.lessons"
"""The lessons' progress (web.screens.lessons.screen.PROGRESS_KEY): none yet, the first screen offers them."""
DEFAULT_DELAY = 600
PRIVATE_PHASES = (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY)
"""Phases in which a seat's own cards are secret from the other player."""


@dataclass
class Ui:
    """State that belongs to the screen, not to the match."""

    selected: list[str] = field(default_factory=list)
    cut_pick: int | None = None
    viewer: int | None = None
    """Hot-seat: the seat whose private cards may be drawn now (None: nobody confirmed yet)."""
    dialog: str | None = None
    hint: tuple[str, tuple[str, ...]] | None = None
    notice: str | None = None
    moved: tuple[bool, ...] = (False, False)
    """For each side: its front peg has just moved (it pops once)."""
    reviews: dict[int, list[str]] = field(default_factory=dict)
    new_mode: str = DEFAULT_MODE
    new_level: str = "expert"
    focus: str | None = None
    claim: str = ""
    """Muggins: the digits typed on the claim pad."""
    claim_note: str | None = None
    """Muggins: why the last claim was refused."""


DiscardKey = tuple[tuple[str, ...], bool, tuple[int, int]]


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
        self.ui = Ui()
        self.delay = DEFAULT_DELAY
        self.orientation = "vertical"
        self._discard_cache: dict[DiscardKey, list[DiscardChoice]] = {}
        self._next_seed: int | None = None
        self.context = OpenContext(storage=storage, timer=host, delay=lambda: self.delay, now_ms=host.now_ms)
        self.mode_def: Mode = mode_of(None)
        placeholder = Match(1, humans=(0,), names=self.mode_def.names)
        self.session: Session = LocalSession(placeholder, (LocalHuman("You"), LocalHuman("Computer")))
        """The match on the table and who moves in it (until :meth:`boot` opens the real one)."""
        self._records: RecordScreens | None = None
        self._challenges: ChallengeScreens | None = None
        self._lessons: LessonsScreen | None = None
        """The lessons (web.screens.lessons), imported when first opened."""
        self._mode_kept = False
        """The mode on the table is remembered (:meth:`_keep_mode`)."""
        self._claimed: int | None = None
        """Muggins: the claim just proposed (until the session answers)."""
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

    @property
    def records(self) -> RecordScreens:
        """The player's record: finished matches kept, the record dialog, export and import.

        Imported on first use (a match over, the record dialog opened): not needed at start."""
        if self._records is None:
            from web.screens.record.screen import RecordScreens

            self._records = RecordScreens(self)
        return self._records

    @property
    def challenges(self) -> ChallengeScreens:
        """A friend's challenge: its link, its match and the comparison (:mod:`web.screens.challenge.screen`).

        Imported on first use (a challenge link or match at start, the Challenge a friend button)."""
        if self._challenges is None:
            from web.screens.challenge.screen import ChallengeScreens

            self._challenges = ChallengeScreens(self)
        return self._challenges

    def _match_changed(self) -> None:
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
        if key == "challenge" or "challenge" in self.params:  # a challenge link or its match (web.screens.challenge.screen)
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
        self._match_changed()

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
        except Exception:  # noqa: BLE001 - settings are a convenience
            return None

    def _use(self, mode: Mode, session: Session) -> None:
        """Put ``session`` on the table (the previous one stops) and let its seats act."""
        self.session.close()
        self.mode_def = mode
        self.session = session
        session.subscribe(self._on_change)
        self._mode_kept = False
        self._keep_mode()
        self._discard_cache.clear()
        session.start()

    def _keep_mode(self) -> None:
        """Remember the mode on the table for the next visit, once its session is one to come back to
        (not a room link's invitation the player has not accepted: *Not now* leaves no trace)."""
        if self._mode_kept or getattr(self.session, "invited", False):
            return
        self._mode_kept = True
        try:
            self.storage.set(MODE_KEY, self.mode_def.key)
        except Exception:  # noqa: BLE001 - a full or blocked storage must not stop the game
            pass

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
        seed = self._next_seed if self._next_seed is not None else self.seed_source()
        self._next_seed = None
        notice = self.ui.notice
        self.ui = Ui(notice=notice, new_mode=mode.key, new_level=level)
        context = self.context if rules is None else replace(self.context, rules=rules)
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
        seat: int | None = getattr(self.session, "perspective", self.mode_def.perspective)
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
        """The seat drawn at the bottom: "you", or in hot-seat the seat that acts now."""
        if self.perspective is not None:
            return self.perspective
        st = self.match.state
        actors = st.actors()
        if st.phase is Phase.DISCARD and len(actors) > 1:
            # Everyone lays away at once: the device goes round from the dealer's left.
            if st.dealer is None:
                return actors[0]
            return next(s for s in st.rules.show_order(st.dealer) if s in actors)
        if actors:
            return actors[0]
        return self.ui.viewer if self.ui.viewer is not None else 0

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
        """Announce, post, redraw after whatever the session reports."""
        kind = change.kind
        self.comforts.on_change(change)
        if kind == "refused":
            self._claimed = None
            self.host.announce(change.message)
            return
        if kind == "applied":
            self._claimed = None
            self.ui.claim, self.ui.claim_note = "", None
            st = self.match.state
            old = change.scores_before
            self._keep_choice_if_still_open()
            self.ui.moved = tuple(now != before for now, before in zip(st.scores, old))
            said = [event_sentence(e, self.names, me=self.perspective) for e in change.events
                    if not (e.kind == "deal" and e.text.startswith("shuffles"))]
            if said:
                self.host.announce(" ".join(said))
            for e in change.events:
                if e.kind == "show crib":
                    self.post("hand-scored", hand=e.hand)
                if e.kind == "win":
                    self.post("game-over", winner=e.seat)
            self.refresh()
            self._match_changed()
        elif kind in ("undone", "redone"):
            self._after_history("Undone." if kind == "undone" else "Redone.")
            self._match_changed()
        elif kind == "restarted":
            notice = self.ui.notice
            self.ui = Ui(notice=notice, new_mode=self.mode, new_level=self.level)
            self.session.pause(False)
            self.post("match-start")
            self.refresh()
            self.host.announce("The match starts again: the same deals. Cut for deal.")
        elif kind == "next hand":
            self.ui.focus = "primary"
            self.refresh()
            st = self.match.state
            self.host.announce(f"Hand {st.hand_number}. "
                               f"{event_sentence_dealer(self.names, st.dealer, self.perspective)}")
        elif kind == "granted" and change.offer is Offer.NEW_MATCH:
            self._start_new(self.mode_def)
        else:
            self.refresh()

    def _keep_choice_if_still_open(self) -> None:
        """After a move: keep what the player is choosing unless the choice is over (the opponent's move never clears it)."""
        if self.cover_for() is not None:
            self.ui.selected, self.ui.cut_pick, self.ui.hint = [], None, None
            return
        view = self._view()
        hand = {c.code for c in view.hand}
        still = (view.phase is Phase.DISCARD and any(isinstance(a, Discard) for a in view.legal_actions)) or (
            view.phase is Phase.PLAY and bool(view.legal_actions))
        if still and view.phase is Phase.PLAY:
            playable = {a.card.code for a in view.legal_actions if isinstance(a, Play)}
            still = set(self.ui.selected) <= playable
        if not still or not set(self.ui.selected) <= hand:
            self.ui.selected = []
            self.ui.hint = None
        if self.ui.cut_pick is not None:
            lo, hi = view.cut_depths
            if not self._cut_actions() or not lo <= self.ui.cut_pick <= hi:
                self.ui.cut_pick = None

    # --- drawing -------------------------------------------------------------------------------

    def scene(self) -> Scene:
        self._hold()
        seat = self.active_seat()
        cover = self.cover_for()
        view = self.match.view(seat)
        private = cover is None
        keep_points = keep_ev = play_preview = None
        selected = tuple(self.ui.selected) if private else ()
        if private and view.phase is Phase.DISCARD and selected and len(selected) == discard_size(view):
            keep = [c for c in view.hand if c.code not in selected]
            keep_points = _keep_points(keep)
            # The coach's one line: six-card hands at two seats (its five-card tables are not previewed yet).
            keep_ev = self._keep_ev(view, selected) if len(view.hand) == 6 and view.rules.players == 2 else None
        if private and view.phase is Phase.PLAY and len(selected) == 1:
            card = next((c for c in view.hand if c.code == selected[0]), None)
            items = view.outcome(card) if card is not None else None
            if card is not None and items is not None:
                # Everything the card certainly scores, by the engine's rules (go and last card included).
                play_preview = (view.count + card.value, items)
        saved = tuple(key for key, m in MODES.items() if self.storage.get(m.save_key))
        scene = Scene(
            view=view,
            names=self.names,
            me=self.perspective,
            mode=self.mode,
            computer_seats=self.computer_seats,
            private=private,
            cover_for=cover,
            holder=self.ui.viewer if cover is not None else None,
            selected=selected,
            cut_pick=self._cut_choice() if private else None,
            keep_points=keep_points,
            keep_ev=keep_ev,
            play_preview=play_preview,
            hint=self.ui.hint if private else None,
            busy=self.session.busy,
            # Under the cover: only for the player who just moved and still holds the device.
            can_undo=self.mode_def.undo and self.session.can(Offer.UNDO) and (
                cover is None or (self.ui.viewer is not None and self.ui.viewer != cover)),
            can_redo=self.mode_def.undo and self.session.can(Offer.REDO),
            level=self.level,
            delay=self.delay,
            summary=self.summary_hand(),
            deal_cut_shown=self.deal_cut_shown(),
            dialog=self.ui.dialog if cover is None else None,
            notice=self.ui.notice,
            orientation=self.orientation,
            moved=self.ui.moved,
            reviews=self.ui.reviews,
            review_available=self.mode_def.computer and _ai_available(),
            new_mode=self.ui.new_mode,
            new_level=self.ui.new_level,
            saved_modes=saved,
            coach_ready=_ai_available(),
            record=self._records.scene() if self._records is not None else None,
            claim_entry=self.ui.claim if private else "",
            claim_note=self.ui.claim_note if private else None,
            play_callers=self.play_callers(view) if private else (),
            newgame=self.newgame.scene(),
            room_rules=self.newgame.room_scene(),
            series=self.newgame.series(),
            challenge=self._challenges.scene() if self._challenges is not None else None,
            chances=self.chances.scene(view, private),
            comforts=self.comforts.scene(),
            looks=self.looks.choice,
            learn=view.phase is Phase.CUT_FOR_DEAL and not self.storage.get(LESSONS_KEY),
        )
        dress = getattr(self.session, "dress", None)  # online: its panel, no action while waiting
        return dress(scene) if dress is not None else scene

    def _keep_ev(self, view: SeatView, selected: tuple[str, ...]) -> str | None:
        if not _warmed():
            # Not in the tap's task: the coach is loaded after the paint, in slices, and the line
            # comes with the next frame (a page busy with online play's deal may not have been idle yet).
            self.chances.want_coach()
            return None
        ai = _ai()
        if ai is None:
            return None
        # The scores matter near 121, where the coach ranks keeps by the chance of winning.
        scores = (view.my_score, max(score for side, score in enumerate(view.scores) if side != view.side))
        key = (tuple(c.code for c in view.hand), view.dealer == view.seat, scores)
        choices = self._discard_cache.get(key)
        if choices is None:
            try:
                choices = ai.analyze_discards(view.hand, view.dealer == view.seat, scores=scores)
            except Exception:  # noqa: BLE001
                return None
            self._discard_cache[key] = choices
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

    def refresh(self) -> None:
        """Draw the frame (and nothing else: the session and its seat drivers schedule moves)."""
        clock = getattr(self.host, "perf_ms", None)  # the page's clock: a benchmark times the phases
        began = clock() if clock is not None else 0.0
        scene = self.scene()
        drawn = clock() if clock is not None else 0.0
        rendered = render(scene)
        if self.ui.dialog == "lessons" and self._lessons is not None and scene.dialog == "lessons":  # the lessons' own markup
            rendered = replace(rendered, overlay=self._lessons.render(self._lessons.scene()))
            self.ui.focus = self._lessons.take_focus() or self.ui.focus
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

    def _view(self) -> SeatView:
        view = self.match.view(self.active_seat())
        dress = getattr(self.session, "dress_view", None)  # online: only the calls it allows now
        return dress(view) if dress is not None else view

    def _can_act_privately(self) -> bool:
        return self.cover_for() is None and self.summary_hand() is None and not self.ui.dialog

    def click(self, action: str, data: dict[str, str] | None = None) -> None:
        """Route a click on an element with ``data-action`` (``data`` holds its other data-*)."""
        data = data or {}
        self.comforts.touched(action)
        if action.startswith("lesson") and self._on_lessons(action, data):
            return
        handler = getattr(self, "_on_" + action.replace("-", "_"), None)
        if handler is None and action.startswith("comfort-"):  # the menu's sound, vibration, auto-play
            handler = self.comforts.handler(action)
        if handler is None and action.startswith("record"):  # the record dialog's controls
            handler = self.records.handler(action)
        if handler is None and action.startswith("newgame"):  # the New game dialog's controls
            handler = self.newgame.handler(action)
        if handler is None and action.startswith("challenge"):  # a friend's challenge (web.screens.challenge.screen)
            handler = self.challenges.handler(action)
        if handler is None:
            extra = getattr(self.session, "click", None)  # controls of the session's own (online)
            if extra is not None and extra(action, data):
                self._keep_mode()  # (a room's invitation accepted)
                self.refresh()
            return
        if data.get("disabled") == "true" and action not in ("card",):
            return
        handler(data)

    def _on_lessons(self, action: str, data: dict[str, str]) -> bool:
        """The lessons: opened (imported on first use), or one of their clicks while they are up."""
        if action == "lessons":
            if self.cover_for() is not None:
                return True
            if self._lessons is None:
                from web.screens.lessons.screen import LessonsScreen

                self._lessons = LessonsScreen(self.storage, self.host.announce, self.seed_source())
            self._lessons.open_map()
            self._set_dialog("lessons")
            self.host.announce("Learn to play: eleven short lessons, then practice.")
            self.refresh()
            return True
        if action == "lesson-muggins" and self.ui.dialog == "lessons":  # "count my own hands": muggins, a new match
            key = self.newgame.from_url({"mode": "computer", "players": "2", "rules": "muggins"})  # remembered
            self._set_dialog(None)
            self._start_new(mode_of(key or "computer"))
            return True
        if self.ui.dialog == "lessons" and self._lessons is not None and self._lessons.click(action, data):
            self.refresh()
            return True
        return False

    # One method per data-action.

    def _on_card(self, data: dict[str, str]) -> None:
        if not self._can_act_privately():
            return
        view = self._view()
        try:
            index = int(data.get("index", "-1"))
        except ValueError:
            return
        hand = list(view.hand)
        if not 0 <= index < len(hand):
            return
        code = hand[index].code
        self.ui.focus = f"hand-{index}"
        if view.phase is Phase.DISCARD and any(isinstance(a, Discard) for a in view.legal_actions):
            sel = self.ui.selected
            if code in sel:
                sel.remove(code)
            else:
                sel.append(code)
                if len(sel) > discard_size(view):
                    del sel[0]
            if self.ui.hint and code not in self.ui.hint[1]:
                self.ui.hint = None  # the player went their own way
            self.refresh()
            return
        if view.phase is Phase.PLAY:
            legal = {a.card.code: a for a in view.legal_actions if isinstance(a, Play)}
            if code not in legal:
                if view.legal_actions:
                    self.host.announce(f"{hand[index].pretty} would take the count past 31.")
                return
            if self.ui.selected == [code]:
                if claims.play_claiming(view):  # muggins in the play: the card waits for its claim
                    self.host.announce(f"Say what {hand[index].pretty} scores: tap its points.")
                    return
                self._play_selected()
                return
            self.ui.selected = [code]
            self.ui.claim = ""
            self.refresh()

    def _play_selected(self) -> None:
        view = self._view()
        if len(self.ui.selected) != 1:
            return
        code = self.ui.selected[0]
        index = next((i for i, c in enumerate(view.hand) if c.code == code), 0)
        for a in view.legal_actions:
            if isinstance(a, Play) and a.card.code == code:
                self.ui.focus = f"hand-{max(0, min(index, len(view.hand) - 2))}"
                self.act(a)
                return

    def _on_play(self, data: dict[str, str]) -> None:
        if self._can_act_privately():
            self._play_selected()

    def _on_discard(self, data: dict[str, str]) -> None:
        view = self._view()
        if not self._can_act_privately() or len(self.ui.selected) != discard_size(view):
            return
        cards = tuple(c for c in view.hand if c.code in self.ui.selected)
        for a in view.legal_actions:
            if isinstance(a, Discard) and set(a.cards) == set(cards):
                self.ui.focus = "primary"
                self.act(a)
                return

    def _on_go(self, data: dict[str, str]) -> None:
        if not self._can_act_privately():
            return
        for a in self._view().legal_actions:
            if isinstance(a, Go):
                self.act(a)
                return

    def _on_count(self, data: dict[str, str]) -> None:
        if self.summary_hand() is not None or self.ui.dialog:
            return
        for a in self._view().legal_actions:
            if isinstance(a, Count) and a.claim is None:  # with muggins the pad says the claim
                self.ui.focus = "primary"
                self.act(a)
                return

    # Muggins: the claim pad and the call (see :mod:`web.table.claims`).

    def _on_claim_digit(self, data: dict[str, str]) -> None:
        digit = data.get("digit", "")
        if not (self._can_act_privately() and claims.claiming(self._view())) or not (digit.isdigit() and len(digit) == 1):
            return
        entry = (self.ui.claim + digit).lstrip("0") or "0"
        self.ui.claim = entry if len(entry) <= 2 else digit
        self.ui.claim_note = None
        self.refresh()

    def _on_claim_back(self, data: dict[str, str]) -> None:
        if self.ui.claim:
            self.ui.claim = self.ui.claim[:-1]
            self.ui.claim_note = None
            self.refresh()

    def _on_claim(self, data: dict[str, str]) -> None:
        view = self._view()
        value = claims.claim_value(self.ui.claim)
        if (self.summary_hand() is not None or self.ui.dialog or not self._can_act_privately()
                or not claims.claiming(view) or value is None or claims.claim_problem(self.ui.claim, view)):
            return
        self._claimed = value
        self.ui.focus = "primary"
        self.act(Count(view.seat, value))

    def _on_play_claim(self, data: dict[str, str]) -> None:
        """Muggins in the play: lay the chosen card with the points claimed for it (a tap on a number,
        or Enter on the number typed)."""
        value = claims.play_claim_value(data.get("claim", ""))
        view = self._view()
        if value is None or not self._can_act_privately() or not claims.play_claiming(view) or len(self.ui.selected) != 1:
            return
        code = self.ui.selected[0]
        index = next((i for i, c in enumerate(view.hand) if c.code == code), 0)
        for a in view.legal_actions:
            if isinstance(a, Play) and a.card.code == code and a.claim == value:
                self.ui.focus = f"hand-{max(0, min(index, len(view.hand) - 2))}"
                self._claimed = value
                self.act(a)
                return

    def play_callers(self, view: SeatView) -> tuple[int, ...]:
        """Hot-seat, muggins in the play: the other seats of this device that may call the open card
        claim now (each player at the table may call it, whoever holds the device)."""
        if self.perspective is not None or view.claim_what != "play":
            return ()
        seats = self.session.seats
        return tuple(s for s in view.callers if s != view.seat and 0 <= s < len(seats)
                     and seats[s].kind == "human" and seats[s].local)

    def _on_muggins(self, data: dict[str, str]) -> None:
        seat = data.get("seat", "")
        view = self._view()
        if seat.isdigit() and int(seat) != view.seat:  # hot-seat: another player at the table calls
            if self._can_act_privately() and int(seat) in self.play_callers(view):
                self.ui.focus = "primary"
                self.act(Muggins(int(seat)))
            return
        self._call(Muggins)

    def _on_let_stand(self, data: dict[str, str]) -> None:
        self._call(Pass)

    def _call(self, kind: type[Muggins] | type[Pass]) -> None:
        if self.summary_hand() is not None or self.ui.dialog or not self._can_act_privately():
            return
        for a in self._view().legal_actions:
            if isinstance(a, kind):
                self.ui.focus = "primary"
                self.act(a)
                return

    def _cut_actions(self) -> list[CutForDeal | CutPack | CutStarter]:
        view = self._view()
        return [a for a in view.legal_actions if isinstance(a, (CutForDeal, CutPack, CutStarter))]

    def _on_cut_pick(self, data: dict[str, str]) -> None:
        if not self._can_act_privately():
            return
        try:
            depth = int(data.get("depth", "-1"))
        except ValueError:
            return
        for a in self._cut_actions():
            if a.depth == depth:
                self.ui.focus = "primary"
                self.act(a)
                return

    def _cut_choice(self) -> int | None:
        """Where *Cut here* cuts: the player's pick, else the middle of the pack (None: no cut to make).
        Never nothing while the player may cut, so *Cut here* is never a dead button (after a tied cut
        for deal too)."""
        if self.ui.cut_pick is not None or not self._cut_actions():
            return self.ui.cut_pick
        lo, hi = self._view().cut_depths
        return (lo + hi) // 2

    def _on_cut(self, data: dict[str, str]) -> None:
        depth = self._cut_choice()
        if depth is None:
            return
        self._on_cut_pick({"depth": str(depth)})

    def _on_cut_step(self, data: dict[str, str]) -> None:
        try:
            step = int(data.get("step", "0"))
        except ValueError:
            return
        self.move_cut(step, focus=("btn-cut-left" if step < 0 else "btn-cut-right"))

    def move_cut(self, step: int, focus: str | None = None) -> None:
        if not self._can_act_privately() or not self._cut_actions():
            return
        lo, hi = self._view().cut_depths
        self.ui.cut_pick = max(lo, min(hi, (self._cut_choice() or lo) + step))
        self.ui.focus = focus
        self.refresh()
        self.host.announce(f"Cut {self.ui.cut_pick} cards deep.")

    def _on_next_hand(self, data: dict[str, str]) -> None:
        if not self.waiting_to_move_on() or self.ui.dialog:
            return
        # Everyone looked at the show: nobody holds the device for the next deal, whoever held it in
        # the play (hot-seat: the first hand of the deal opens with its cover).
        self.ui.viewer = None
        self.session.request(Offer.NEXT_HAND)

    def _on_hint(self, data: dict[str, str]) -> None:
        if not self._can_act_privately():
            return
        view = self._view()
        if not view.legal_actions or view.phase not in (Phase.DISCARD, Phase.PLAY):
            return
        text, codes = self._hint(view)
        # The hint marks its cards and leaves the selection alone (it never acts): tapping the
        # marked cards selects them, as any tap does.
        self.ui.hint = (text, codes)
        self.refresh()
        self.host.announce("Hint: " + text)

    def _hint(self, view: SeatView) -> tuple[str, tuple[str, ...]]:
        action = None
        text = ""
        ai = _ai()
        if ai is not None:
            try:
                h = ai.hint(view)
                action, text = h.action, h.text
            except Exception:  # noqa: BLE001
                action = None
        if action is None:
            action = _fallback_choose(view, 0)
            if isinstance(action, Discard):
                keep = [c for c in view.hand if c not in action.cards]
                text = (f"Lay away {' '.join(c.pretty for c in action.cards)}: keep "
                        f"{' '.join(c.pretty for c in keep)} for {_keep_points(keep)} before the starter.")
            elif isinstance(action, Play):
                text = f"Play {action.card.pretty}."
            elif isinstance(action, Go):
                text = "Say Go: no card fits."
        if view.dealer is not None:  # the table's words: "Computer’s crib", not "the dealer's crib"
            text = text.replace("the dealer's crib", crib_of(self.names, view.dealer, view.seat))
        if isinstance(action, Discard):
            return text, tuple(c.code for c in action.cards)
        if isinstance(action, Play):
            return text, (action.card.code,)
        return text, ()

    def _hold(self) -> None:
        """Hot-seat: tell the session who holds the device (undo takes back only that player's moves)."""
        if isinstance(self.session, LocalSession):
            holder = None
            if self.mode_def.cover:
                holder = self.ui.viewer if self.ui.viewer is not None else self.active_seat()
            self.session.holder = holder

    def _on_undo(self, data: dict[str, str]) -> None:
        if self.ui.dialog or not self.mode_def.undo:
            return
        self._hold()
        if not self.session.can(Offer.UNDO):
            if self.mode_def.cover and self.match.can_undo:
                self.host.announce("Undo takes back only your own moves: the last one is the other player’s.")
            return
        self.session.request(Offer.UNDO)

    def _on_redo(self, data: dict[str, str]) -> None:
        if self.ui.dialog or not self.mode_def.undo:
            return
        self._hold()
        self.session.request(Offer.REDO)

    def _after_history(self, said: str) -> None:
        self.ui.selected = []
        self.ui.cut_pick = None
        self.ui.hint = None
        self.refresh()
        view = self._view()
        sides = side_names(self.names, view.rules)
        self.host.announce(f"{said} " + ", ".join(f"{name} {score}" for name, score in zip(sides, view.scores)) + ".")

    def _set_dialog(self, dialog: str | None) -> None:
        """Open or close a dialog; the seat drivers wait while one is open."""
        self.ui.dialog = dialog
        self.session.pause(dialog is not None)

    def _on_sheet(self, data: dict[str, str]) -> None:
        if self.cover_for() is not None:
            return
        self._open("sheet")

    def _on_menu(self, data: dict[str, str]) -> None:
        if self.cover_for() is not None:
            return
        self.ui.new_mode = self.mode if self.mode in MODES else DEFAULT_MODE  # a challenge: not a menu choice
        self.ui.new_level = self.level
        self.newgame.load_room()
        self._open("menu")

    def _on_rules(self, data: dict[str, str]) -> None:
        if self.cover_for() is not None:
            return
        self._open("rules")

    def _open(self, dialog: str) -> None:
        self._set_dialog(dialog)
        self.ui.focus = "btn-close"
        self.refresh()

    def _on_close(self, data: dict[str, str]) -> None:
        previous = self.ui.dialog
        self._set_dialog(None)
        # Back to the table's pending choice (Enter then confirms it), else to the tool that opened it.
        scene = self.scene()
        pending = primary_button(scene) is not None or (
            scene.private and bool(scene.view.legal_actions) and scene.view.phase in (Phase.DISCARD, Phase.PLAY))
        self.ui.focus = "primary" if pending else {
            "sheet": "tool-sheet", "menu": "tool-menu", "restart": "tool-menu", "rules": "tool-menu",
            "record": "tool-menu", "newgame": "tool-menu", "lessons": "tool-menu"}.get(previous or "")
        self.refresh()

    def _on_close_backdrop(self, data: dict[str, str]) -> None:
        self._on_close(data)

    def _on_restart_ask(self, data: dict[str, str]) -> None:
        if not self.mode_def.restart:
            return
        self._set_dialog("restart")
        self.ui.focus = "btn-restart-confirm"
        self.refresh()

    def _on_restart_confirm(self, data: dict[str, str]) -> None:
        if self.mode_def.restart:
            self.session.request(Offer.RESTART)

    def _on_new_mode(self, data: dict[str, str]) -> None:
        key = data.get("mode", "")
        if key in MODES:
            self.ui.new_mode = key
            self.ui.focus = f"new-mode-{key}"
            self.refresh()

    def _on_start(self, data: dict[str, str]) -> None:
        mode = mode_of(self.ui.new_mode)
        if mode is self.mode_def:
            self.session.request(Offer.NEW_MATCH)  # online: once the other side agrees
        else:
            self._start_new(mode, self.newgame.start_room() if mode.room_rules else None)

    def _on_new_game(self, data: dict[str, str]) -> None:
        """Game over: a new game of the same kind, at once."""
        if self.ui.dialog or not self.match.state.is_over:
            return
        self.ui.new_mode, self.ui.new_level = (self.mode if self.mode in MODES else DEFAULT_MODE), self.level
        self._on_start({})

    def _start_new(self, mode: Mode, rules: Rules | None = None) -> None:
        """A new match of ``mode`` (``rules``: the table chosen in the page, for a mode that takes it)."""
        self._new_match(mode, self.ui.new_level, rules)
        self.refresh()
        self.host.announce(mode.start_sentence)

    def _on_resume(self, data: dict[str, str]) -> None:
        key = data.get("mode", "")
        if key not in MODES or key == self.mode:
            return
        mode = MODES[key]
        self.ui.dialog = None
        if not self._resume(mode):
            self._new_match(mode, self.ui.new_level)
        self.refresh()

    def _on_level(self, data: dict[str, str]) -> None:
        level = data.get("level", "")
        if level not in LEVELS:
            return
        self.ui.new_level = level  # the one level choice: this game (against the computer) and new ones
        if self.mode_def.computer:
            self.match.options["level"] = level  # a setting of the match, not a move
            self.match.options.pop("levels", None)  # every computer of the match plays at it now
            self.session.save()
        self.ui.focus = f"level-{level}"
        self.refresh()

    def _on_speed(self, data: dict[str, str]) -> None:
        try:
            delay = int(data.get("delay", ""))
        except ValueError:
            return
        if delay in {ms for _, ms in DELAYS}:
            self.delay = delay
            self.ui.focus = f"speed-{delay}"
            try:
                settings = self._read_json(SETTINGS_KEY)
                settings = settings if isinstance(settings, dict) else {}
                settings["delay"] = delay  # the other settings (the chance of winning) stay
                self.storage.set(SETTINGS_KEY, json.dumps(settings))
            except Exception:  # noqa: BLE001
                pass
            self.refresh()

    def _on_winbar(self, data: dict[str, str]) -> None:
        """The menu's switch of the chance-of-winning bar (remembered for this kind of game)."""
        on = self.chances.toggle()
        self.ui.focus = "winbar-toggle"
        self.refresh()
        self.host.announce("The chance of winning is shown by the board." if on
                           else "The chance of winning is hidden.")

    def _on_look(self, data: dict[str, str]) -> None:
        """The menu's Looks: a felt or a card back chosen (kept with the settings)."""
        kind, value = data.get("kind", ""), data.get("choice", "")
        if self.looks.choose(kind, value):
            self.ui.focus = f"look-{kind}-{value}"
            self.refresh()
            self.host.announce(f"{'Felt' if kind == 'felt' else 'Card backs'}: {label_of(kind, value)}.")

    def reload_after_import(self, keys: set[str]) -> None:
        """An import rewrote these storage keys: reopen the match on the table and the settings."""
        if SETTINGS_KEY in keys:
            self.chances.reload()
            self.comforts.reload()
            self.looks.reload()
            settings = self._read_json(SETTINGS_KEY)
            delay = settings.get("delay") if isinstance(settings, dict) else None
            if isinstance(delay, int) and delay >= 0:
                self.delay = delay
        if self.mode_def.save_key in keys or self.mode_def.ui_key in keys:
            dialog = self.ui.dialog
            if not self._resume(self.mode_def):
                self._new_match(self.mode_def, self.ui.new_level)
            self._set_dialog(dialog)

    def _on_ready(self, data: dict[str, str]) -> None:
        seat = self.cover_for()
        if seat is None:
            return
        self.ui.viewer = seat
        self.ui.selected = []
        self.ui.hint = None
        self.ui.focus = "hand-0"
        self.refresh()
        self.host.announce(f"{self.names[seat]}: your cards are shown.")

    def _on_dismiss_notice(self, data: dict[str, str]) -> None:
        self.ui.notice = None
        self.refresh()

    def _on_review(self, data: dict[str, str]) -> None:
        try:
            hand = int(data.get("hand", ""))
        except ValueError:
            return
        ai = _ai()
        me = self.perspective
        if ai is None or not self.mode_def.computer or me is None:
            return
        try:
            from web.kit.winchance import review_line

            reviews = ai.review_hand(self.match, me, hand)
            lines = [review_line(r) for r in reviews if r.text]  # each cost in points and chance of winning
        except Exception as exc:  # noqa: BLE001
            lines = [f"The coach could not review this hand ({exc})."]
        self.ui.reviews[hand] = lines
        self.ui.focus = "btn-close"
        self.refresh()

    # --- keyboard ------------------------------------------------------------------------------

    def key(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False,
            target_action: str | None = None) -> bool:
        """Handle a key press; True if it was used (the page then prevents the default).

        ``target_action`` is the ``data-action`` of the focused element, if any: Enter on an
        ordinary button presses that button, Enter elsewhere (or on a hand card once a choice is
        complete) confirms the primary action.
        """
        if alt:
            return False
        self.comforts.touched("key" if key in ("ArrowLeft", "ArrowRight", "h", "H", *"123456") else "")
        lower = key.lower()
        if self.ui.dialog == "lessons" and self._lessons is not None:  # the lessons' keys first
            from web.screens.lessons.screen import Mods

            if self._lessons.key(key, Mods(ctrl, shift, alt, target_action)):
                self.refresh()
                return True
        if ctrl:
            if lower == "z" and not shift:
                self._on_undo({})
                return True
            if lower == "y" or (lower == "z" and shift):
                self._on_redo({})
                return True
            return False
        if key == "Escape":
            if self.ui.dialog:
                self._on_close({})
                return True
            if self.ui.selected or self.ui.hint or self.ui.cut_pick is not None:
                self.ui.selected, self.ui.hint, self.ui.cut_pick = [], None, None
                if self.match.state.phase is Phase.PLAY:
                    self.ui.claim = ""  # muggins in the play: the claim typed went with the card
                self.refresh()
                return True
            return False
        if self.cover_for() is not None:
            if key == "Enter" and target_action != "ready":
                self._on_ready({})
                return True
            return False
        if self.ui.dialog:
            return False
        if key == "Enter":
            if target_action and target_action not in ("card", "cut-pick"):
                return False  # Enter on an ordinary button presses that button
            if self.ui.claim and claims.play_claiming(self._view()) and len(self.ui.selected) == 1:
                self._on_play_claim({"claim": self.ui.claim})  # muggins in the play: the number typed
                return True
            button = primary_button(self.scene())
            if button is not None:
                self.click(button.action, dict(button.data))
                return True
            return False  # e.g. Enter on a hand card selects it
        view = self._view()
        if (claims.play_claiming(view) and len(self.ui.selected) == 1 and self._can_act_privately()
                and len(key) == 1 and key.isdigit()):  # muggins in the play: a card chosen, its claim typed
            entry = (self.ui.claim + key).lstrip("0") or "0"
            self.ui.claim = entry if claims.play_claim_value(entry) is not None else key
            self.refresh()
            return True
        if (lower == "m" and view.claim_what == "play" and self._can_act_privately()
                and (any(isinstance(a, Muggins) for a in view.legal_actions) or self.play_callers(view))):
            self._on_muggins({})  # muggins in the play: M calls it (the menu has its button)
            return True
        if claims.claiming(view) and self._can_act_privately():  # muggins: the pad's keys
            if len(key) == 1 and key.isdigit():
                self._on_claim_digit({"digit": key})
                return True
            if key == "Backspace":
                self._on_claim_back({})
                return True
        if lower in "123456" and len(lower) == 1 and lower.isdigit():
            index = int(lower) - 1
            if index < len(view.hand) and view.phase in (Phase.DISCARD, Phase.PLAY):
                self._on_card({"index": str(index)})
                return True
            return False
        if key in ("ArrowLeft", "ArrowRight"):
            step = -1 if key == "ArrowLeft" else 1
            if self._cut_actions() and self._can_act_privately():
                self.move_cut(step, focus="btn-cut")  # Enter then cuts, wherever the focus was
                return True
            return self._arrow_cards(view, step)
        if lower == "g":
            if any(isinstance(a, Go) for a in view.legal_actions) and self._can_act_privately():
                self._on_go({})
                return True
            return False
        if lower == "h":
            self._on_hint({})
            return True
        if lower == "s":
            self._on_sheet({})
            return True
        if lower == "m":
            self._on_menu({})
            return True
        if lower == "r":
            self._on_rules({})
            return True
        return False

    def _arrow_cards(self, view: SeatView, step: int) -> bool:
        """Arrows move the selection along the hand (play) or the focus (discard)."""
        if not self._can_act_privately():
            return False
        hand = list(view.hand)
        if not hand:
            return False
        if view.phase is Phase.PLAY:
            legal = [i for i, c in enumerate(hand)
                     if any(isinstance(a, Play) and a.card == c for a in view.legal_actions)]
            if not legal:
                return False
            current = next((i for i, c in enumerate(hand) if [c.code] == self.ui.selected), None)
            if current is None:
                target = legal[0] if step > 0 else legal[-1]
            else:
                after = [i for i in legal if (i > current if step > 0 else i < current)]
                target = (after[0] if step > 0 else after[-1]) if after else current
            self.ui.selected = [hand[target].code]
            self.ui.focus = f"hand-{target}"
            self.refresh()
            return True
        if view.phase is Phase.DISCARD:
            self.ui.focus = f"hand-cursor:{step}"
            self.refresh()
            return True
        return False


def event_sentence_dealer(names: Sequence[str], dealer: int | None, me: int | None) -> str:
    """``"You deal; the pone cuts the pack."`` (``me``: the seat spoken to as "you")."""
    if dealer is None:
        return ""
    return f"{who_verb(names[dealer], 'deal', dealer == me)}; the pone cuts the pack."

"""The table's controller: UI state, routing of clicks and keys to engine actions, pacing, saves.

It never touches the browser itself. ``browser.py`` hands it a :class:`Host` (render into the page,
speak in the live region, set a timer, post to the parent frame) and a :class:`Storage`
(``localStorage``); the tests hand it fakes and play whole matches under CPython.

The computer's seat acts through ``make_player(level).choose(match.view(seat))`` (only its own
view), after a short visible delay scheduled with the host's timer so the page never freezes.
In hot-seat mode a cover hides the table whenever the device must pass to the other player
before their private cards are drawn; while it is up only public information is rendered.
"""

from __future__ import annotations

import importlib.util
import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from cribbage.actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Play
from cribbage.match import Match
from cribbage.scoring import fifteens, pairs, runs, score_play
from cribbage.state import IllegalActionError, Phase

from .render import DELAYS, LEVELS, Rendered, Scene, primary_button, render
from .speech import event_sentence

_AI: list[Any] = []


def _ai() -> Any:
    """The computer opponent and the coach (``cribbage.ai``), imported on first use so that the
    table is drawn before it is needed; None if it cannot be imported (the table still works)."""
    if not _AI:
        try:
            from cribbage import ai
        except Exception:  # noqa: BLE001 - the table must still work without it
            ai = None
        _AI.append(ai)
    return _AI[0]


def _ai_available() -> bool:
    """True when the coach can be offered, without importing it yet."""
    return bool(_AI[0]) if _AI else importlib.util.find_spec("cribbage.ai") is not None

__all__ = ["Controller", "Host", "Storage", "MemoryStorage", "SAVE_KEYS", "MODE_KEY", "SETTINGS_KEY"]

SAVE_KEYS = {"computer": "cribbage.save.computer", "hotseat": "cribbage.save.hotseat"}
MODE_KEY = "cribbage.mode"
SETTINGS_KEY = "cribbage.settings"
UI_KEYS = {"computer": "cribbage.ui.computer", "hotseat": "cribbage.ui.hotseat"}
NAMES = {"computer": ("You", "Computer"), "hotseat": ("Player 1", "Player 2")}
DEFAULT_DELAY = 600
PRIVATE_PHASES = (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY)
"""Phases in which a seat's own cards are secret from the other player."""


class Storage(Protocol):
    """Key-value strings (``localStorage``)."""

    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None: ...


class Host(Protocol):
    """The browser side: everything the controller cannot do in pure Python."""

    def show(self, rendered: Rendered, focus: str | None) -> None: ...
    def announce(self, text: str) -> None: ...
    def later(self, ms: int, fn: Callable[[], None]) -> Any: ...
    def cancel(self, handle: Any) -> None: ...
    def post(self, message: dict[str, Any]) -> None: ...
    def now_ms(self) -> int: ...


class MemoryStorage:
    """A dict standing in for ``localStorage`` (tests, private browsing)."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data = dict(data or {})

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        self.data[key] = value


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
    ack_hand: int = 0
    """The last hand whose show has been dismissed with "Next hand"."""
    moved: tuple[bool, bool] = (False, False)
    reviews: dict[int, list[str]] = field(default_factory=dict)
    new_mode: str = "computer"
    new_level: str = "expert"
    focus: str | None = None


def _fallback_choose(view: Any, seed: int) -> Action:
    """Without the AI package: the legal action with the best immediate score."""
    legal = list(view.legal_actions)
    first = legal[0]
    if isinstance(first, (CutForDeal, CutPack, CutStarter)):
        lo, hi = view.cut_depths
        return type(first)(view.seat, random.Random(seed).randint(lo, hi))
    if isinstance(first, Discard):
        return max(legal, key=lambda a: _keep_points([c for c in view.hand if c not in a.cards]))
    if isinstance(first, Play):
        pile = [c for _, c in view.pile]
        return max(legal, key=lambda a: (sum(i.points for i in score_play(pile + [a.card])), a.card.value))
    return first


def _keep_points(keep: list[Any]) -> int:
    """What four kept cards score before the starter: fifteens, pairs, runs, a four-card flush."""
    pts = sum(i.points for i in (*fifteens(keep), *pairs(keep), *runs(keep)))
    if len(keep) == 4 and len({c.suit for c in keep}) == 1:
        pts += 4
    return pts


class Controller:
    """One table: a match, the screen state, and the computer's pacing."""

    def __init__(self, host: Host, storage: Storage, params: dict[str, str] | None = None,
                 embedded: bool = False, seed_source: Callable[[], int] | None = None) -> None:
        self.host = host
        self.storage = storage
        self.params = dict(params or {})
        self.embedded = embedded
        self.seed_source = seed_source or (lambda: random.SystemRandom().randrange(1, 2**53))
        self.mode = "computer"
        self.match: Match = Match(1, humans=(0,), names=NAMES["computer"])
        self.ui = Ui()
        self.delay = DEFAULT_DELAY
        self.orientation = "vertical"
        self._timer: Any = None
        self._busy = False
        self._discard_cache: dict[Any, Any] = {}
        self._next_seed: int | None = None

    # --- start ---------------------------------------------------------------------------------

    def boot(self) -> None:
        """Restore the last match of the last mode (or start one), then draw the table."""
        settings = self._read_json(SETTINGS_KEY) or {}
        delay = settings.get("delay", DEFAULT_DELAY)
        self.delay = delay if isinstance(delay, int) and delay >= 0 else DEFAULT_DELAY
        if self.params.get("delay", "").isdigit():
            self.delay = int(self.params["delay"])
        mode = self.params.get("mode") or self.storage.get(MODE_KEY) or "computer"
        if mode not in SAVE_KEYS:
            mode = "computer"
        if self.params.get("seed", "").isdigit():
            self._next_seed = int(self.params["seed"])
        level = self.params.get("level")
        self.ui.new_level = level if level in LEVELS else "expert"
        if not self._resume(mode):
            self._new_match(mode, self.ui.new_level)
        self.refresh()

    def _read_json(self, key: str) -> Any:
        try:
            raw = self.storage.get(key)
            return json.loads(raw) if raw else None
        except Exception:  # noqa: BLE001 - settings are a convenience
            return None

    def _resume(self, mode: str) -> bool:
        """Load the saved match of ``mode``; set aside a save that cannot be read. True if loaded."""
        key = SAVE_KEYS[mode]
        raw = self.storage.get(key)
        if raw is None:
            return False
        try:
            match = Match.from_json(raw)
            want = {0} if mode == "computer" else {0, 1}
            if set(match.humans) != want:
                raise ValueError("it belongs to the other mode")
        except Exception as exc:  # noqa: BLE001 - any unreadable save is set aside, never lost
            stamp = self.host.now_ms()
            aside = f"{key}.corrupt.{stamp}"
            try:
                self.storage.set(aside, raw)
            except Exception:  # noqa: BLE001
                aside = "(it could not be copied)"
            reason = str(exc) or type(exc).__name__
            self.ui.notice = (f"Your saved game could not be read ({reason}). It was set aside as "
                              f"\u201c{aside}\u201d and a new game has started.")
            return False
        self.mode = mode
        self.match = match
        ui = self._read_json(UI_KEYS[mode]) or {}
        ack = ui.get("ack", 0)
        self.ui.ack_hand = ack if isinstance(ack, int) else 0
        self.ui.viewer = None
        self.ui.new_mode = mode
        self.storage.set(MODE_KEY, mode)
        return True

    def _new_match(self, mode: str, level: str) -> None:
        seed = self._next_seed if self._next_seed is not None else self.seed_source()
        self._next_seed = None
        humans = (0,) if mode == "computer" else (0, 1)
        self.mode = mode
        self.match = Match(seed, humans=humans, names=NAMES[mode], options={"level": level})
        notice = self.ui.notice
        self.ui = Ui(notice=notice, new_mode=mode, new_level=level)
        self._discard_cache.clear()
        self.save()
        self.post("match-start")

    # --- the match -----------------------------------------------------------------------------

    @property
    def level(self) -> str:
        level = self.match.options.get("level", "expert")
        return level if level in LEVELS else "expert"

    @property
    def names(self) -> tuple[str, str]:
        return self.match.names

    @property
    def computer_seats(self) -> frozenset[int]:
        return frozenset({0, 1} - set(self.match.humans))

    def save(self) -> None:
        """The match JSON to its mode's key, after every change."""
        try:
            self.storage.set(SAVE_KEYS[self.mode], self.match.to_json())
            self.storage.set(MODE_KEY, self.mode)
            self.storage.set(UI_KEYS[self.mode], json.dumps({"ack": self.ui.ack_hand}))
        except Exception:  # noqa: BLE001 - a full or blocked storage must not stop the game
            pass

    def post(self, kind: str, **extra: Any) -> None:
        if not self.embedded:
            return
        st = self.match.state
        message = {"source": "cribbage", "version": 1, "type": kind, "scores": [st.scores[0], st.scores[1]],
                   "hand": st.hand_number}
        message.update(extra)
        self.host.post(message)

    def summary_hand(self) -> int | None:
        """The hand whose show stays on the table: just counted, not yet dismissed."""
        st = self.match.state
        if st.phase is not Phase.CUT_PACK or st.hand_number < 2:
            return None
        done = st.hand_number - 1
        if done <= self.ui.ack_hand:
            return None
        if not any(e.hand == done and e.kind == "show crib" for e in reversed(st.events)):
            return None
        return done

    def active_seat(self) -> int:
        """The seat drawn at the bottom: the human who acts now (computer mode: always seat 0)."""
        if self.mode == "computer":
            return 0
        st = self.match.state
        actors = st.actors()
        if st.phase is Phase.DISCARD and len(actors) == 2:
            return st.pone if st.pone is not None else 0
        if actors:
            return actors[0]
        return self.ui.viewer if self.ui.viewer is not None else 0

    def cover_for(self) -> int | None:
        """Hot-seat: the seat that must take the device before its cards are drawn (None: no cover)."""
        if self.mode != "hotseat":
            return None
        st = self.match.state
        if st.phase not in PRIVATE_PHASES or self.summary_hand() is not None:
            return None
        seat = self.active_seat()
        return None if self.ui.viewer == seat else seat

    def computer_to_act(self) -> int | None:
        st = self.match.state
        if st.is_over or self.summary_hand() is not None:
            return None
        for seat in st.actors():
            if seat in self.computer_seats:
                return seat
        return None

    def _player(self) -> Any:
        seed = (self.match.seed * 1_000_003 + len(self.match.actions)) % (2**61)
        ai = _ai()
        if ai is not None:
            return ai.make_player(self.level, seed=seed)
        return None

    def _choose(self, seat: int) -> Action:
        view = self.match.view(seat)
        player = self._player()
        if player is not None:
            try:
                return player.choose(view)
            except Exception:  # noqa: BLE001 - fall back rather than stall the table
                pass
        return _fallback_choose(view, len(self.match.actions))

    def act(self, action: Action) -> bool:
        """Apply an action, then announce, save, post, redraw and schedule the computer."""
        before = len(self.match.state.events)
        old_scores = tuple(self.match.state.scores)
        try:
            self.match.apply(action)
        except IllegalActionError as exc:
            self.host.announce(str(exc).capitalize() + ".")
            return False
        st = self.match.state
        new = st.events[before:]
        self.ui.selected = []
        self.ui.cut_pick = None
        self.ui.hint = None
        self.ui.moved = (st.scores[0] != old_scores[0], st.scores[1] != old_scores[1])
        said = [event_sentence(e, self.names) for e in new
                if not (e.kind == "deal" and e.text.startswith("shuffles"))]
        if said:
            self.host.announce(" ".join(said))
        for e in new:
            if e.kind == "show crib":
                self.post("hand-scored", hand=e.hand)
            if e.kind == "win":
                self.post("game-over", winner=e.seat)
        self.save()
        self.refresh()
        return True

    def _tick(self) -> None:
        self._timer = None
        self._busy = False
        seat = self.computer_to_act()
        if seat is None or self.ui.dialog:
            self.refresh()
            return
        self.act(self._choose(seat))

    def schedule(self) -> None:
        """If the computer is to act, let it after the delay (never while a dialog is open)."""
        if self.ui.dialog or self.computer_to_act() is None:
            self._cancel_timer()
            return
        if self._timer is not None:
            return  # already on its way
        self._busy = True
        self._timer = self.host.later(self.delay, self._tick)

    # --- drawing -------------------------------------------------------------------------------

    def scene(self) -> Scene:
        seat = self.active_seat()
        cover = self.cover_for()
        view = self.match.view(seat)
        private = cover is None
        keep_points = keep_ev = play_preview = None
        selected = tuple(self.ui.selected) if private else ()
        if private and view.phase is Phase.DISCARD and len(selected) == 2:
            keep = [c for c in view.hand if c.code not in selected]
            keep_points = _keep_points(keep)
            keep_ev = self._keep_ev(view, selected)
        if private and view.phase is Phase.PLAY and len(selected) == 1:
            card = next((c for c in view.hand if c.code == selected[0]), None)
            if card is not None and Play(view.seat, card) in view.legal_actions:
                pile = [c for _, c in view.pile] + [card]
                play_preview = (view.count + card.value, tuple(score_play(pile)))
        saved = tuple(m for m, key in SAVE_KEYS.items() if self.storage.get(key))
        return Scene(
            view=view,
            names=self.names,
            mode=self.mode,
            computer_seats=self.computer_seats,
            private=private,
            cover_for=cover,
            selected=selected,
            cut_pick=self.ui.cut_pick if private else None,
            keep_points=keep_points,
            keep_ev=keep_ev,
            play_preview=play_preview,
            hint=self.ui.hint if private else None,
            busy=self._busy,
            can_undo=self.match.can_undo,
            can_redo=self.match.can_redo,
            level=self.level,
            delay=self.delay,
            summary=self.summary_hand(),
            dialog=self.ui.dialog if cover is None else None,
            notice=self.ui.notice,
            orientation=self.orientation,
            moved=self.ui.moved,
            reviews=self.ui.reviews,
            review_available=self.mode == "computer" and _ai_available(),
            new_mode=self.ui.new_mode,
            new_level=self.ui.new_level,
            saved_modes=saved,
            coach_ready=_ai_available(),
        )

    def _keep_ev(self, view: Any, selected: tuple[str, ...]) -> str | None:
        ai = _ai()
        if ai is None:
            return None
        # The scores matter near 121, where the coach ranks keeps by the chance of winning.
        scores = (view.scores[view.seat], view.scores[1 - view.seat])
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
                if ch.win_chance is not None:
                    best = (f"chance of winning {100 * ch.win_chance:.0f}%, " + ("the best keep" if rank == 1 else
                            f"number {rank} of 15 (best {100 * choices[0].win_chance:.0f}%)"))
                return f"With the starter: hand {ch.hand_ev:.1f} on average, {crib}: net {ch.net:.1f}, {best}."
        return None

    def refresh(self) -> None:
        """Schedule the computer if it is its turn, then draw."""
        self.schedule()
        scene = self.scene()
        rendered = render(scene)
        self.host.show(rendered, self.ui.focus)
        self.ui.focus = None
        self.ui.moved = (False, False)

    def set_orientation(self, orientation: str) -> None:
        if orientation != self.orientation:
            self.orientation = orientation
            self.refresh()

    # --- input ---------------------------------------------------------------------------------

    def _view(self) -> Any:
        return self.match.view(self.active_seat())

    def _can_act_privately(self) -> bool:
        return self.cover_for() is None and self.summary_hand() is None and not self.ui.dialog

    def click(self, action: str, data: dict[str, str] | None = None) -> None:
        """Route a click on an element with ``data-action`` (``data`` holds its other data-*)."""
        data = data or {}
        handler = getattr(self, "_on_" + action.replace("-", "_"), None)
        if handler is None:
            return
        if data.get("disabled") == "true" and action not in ("card",):
            return
        handler(data)

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
                if len(sel) > 2:
                    del sel[0]
            if self.ui.hint and set(self.ui.hint[1]) != set(sel):
                self.ui.hint = None
            self.refresh()
            return
        if view.phase is Phase.PLAY:
            legal = {a.card.code: a for a in view.legal_actions if isinstance(a, Play)}
            if code not in legal:
                if view.legal_actions:
                    self.host.announce(f"{hand[index].pretty} would take the count past 31.")
                return
            if self.ui.selected == [code]:
                self._play_selected()
                return
            self.ui.selected = [code]
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
        if not self._can_act_privately() or len(self.ui.selected) != 2:
            return
        view = self._view()
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
            if isinstance(a, Count):
                self.ui.focus = "primary"
                self.act(a)
                return

    def _cut_actions(self) -> list[Action]:
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

    def _on_cut(self, data: dict[str, str]) -> None:
        if self.ui.cut_pick is None:
            return
        self._on_cut_pick({"depth": str(self.ui.cut_pick)})

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
        if self.ui.cut_pick is None:
            self.ui.cut_pick = (lo + hi) // 2
        else:
            self.ui.cut_pick = max(lo, min(hi, self.ui.cut_pick + step))
        self.ui.focus = focus
        self.refresh()
        self.host.announce(f"Cut {self.ui.cut_pick} cards deep.")

    def _on_next_hand(self, data: dict[str, str]) -> None:
        hand = self.summary_hand()
        if hand is None:
            return
        self.ui.ack_hand = hand
        self.ui.focus = "primary"
        self.save()
        self.refresh()
        st = self.match.state
        self.host.announce(f"Hand {st.hand_number}. {event_sentence_dealer(self.names, st.dealer)}")

    def _on_hint(self, data: dict[str, str]) -> None:
        if not self._can_act_privately():
            return
        view = self._view()
        if not view.legal_actions or view.phase not in (Phase.DISCARD, Phase.PLAY):
            return
        text, codes = self._hint(view)
        self.ui.hint = (text, codes)
        if view.phase is Phase.DISCARD and len(codes) == 2:
            self.ui.selected = list(codes)
        elif view.phase is Phase.PLAY and len(codes) == 1:
            self.ui.selected = list(codes)
        self.refresh()
        self.host.announce("Hint: " + text)

    def _hint(self, view: Any) -> tuple[str, tuple[str, ...]]:
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
        if isinstance(action, Discard):
            return text, tuple(c.code for c in action.cards)
        if isinstance(action, Play):
            return text, (action.card.code,)
        return text, ()

    def _on_undo(self, data: dict[str, str]) -> None:
        if self.ui.dialog or not self.match.can_undo:
            return
        self._cancel_timer()
        self.match.undo()
        self._after_history("Undone.")

    def _on_redo(self, data: dict[str, str]) -> None:
        if self.ui.dialog or not self.match.can_redo:
            return
        self._cancel_timer()
        self.match.redo()
        self._after_history("Redone.")

    def _after_history(self, said: str) -> None:
        self.ui.selected = []
        self.ui.cut_pick = None
        self.ui.hint = None
        st = self.match.state
        if self.ui.ack_hand >= st.hand_number:
            self.ui.ack_hand = st.hand_number - 1
        self.save()
        self.refresh()
        view = self._view()
        self.host.announce(f"{said} {self.names[0]} {view.scores[0]}, {self.names[1]} {view.scores[1]}.")

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self.host.cancel(self._timer)
            self._timer = None
        self._busy = False

    def _on_sheet(self, data: dict[str, str]) -> None:
        if self.cover_for() is not None:
            return
        self._open("sheet")

    def _on_menu(self, data: dict[str, str]) -> None:
        if self.cover_for() is not None:
            return
        self.ui.new_mode = self.mode
        self.ui.new_level = self.level
        self._open("menu")

    def _open(self, dialog: str) -> None:
        self._cancel_timer()
        self.ui.dialog = dialog
        self.ui.focus = "btn-close"
        self.refresh()

    def _on_close(self, data: dict[str, str]) -> None:
        previous = self.ui.dialog
        self.ui.dialog = None
        self.ui.focus = {"sheet": "tool-sheet", "menu": "tool-menu", "restart": "tool-menu"}.get(previous or "")
        self.refresh()

    def _on_close_backdrop(self, data: dict[str, str]) -> None:
        self._on_close(data)

    def _on_restart_ask(self, data: dict[str, str]) -> None:
        self.ui.dialog = "restart"
        self.ui.focus = "btn-restart-confirm"
        self.refresh()

    def _on_restart_confirm(self, data: dict[str, str]) -> None:
        self._cancel_timer()
        self.match.restart()
        notice = self.ui.notice
        self.ui = Ui(notice=notice, new_mode=self.mode, new_level=self.level)
        self.save()
        self.post("match-start")
        self.refresh()
        self.host.announce("The match starts again: the same deals. Cut for deal.")

    def _on_new_mode(self, data: dict[str, str]) -> None:
        if data.get("mode") in SAVE_KEYS:
            self.ui.new_mode = data["mode"]
            self.ui.focus = f"new-mode-{data['mode']}"
            self.refresh()

    def _on_new_level(self, data: dict[str, str]) -> None:
        if data.get("level") in LEVELS:
            self.ui.new_level = data["level"]
            self.ui.focus = f"new-level-{data['level']}"
            self.refresh()

    def _on_start(self, data: dict[str, str]) -> None:
        self._cancel_timer()
        self._new_match(self.ui.new_mode, self.ui.new_level)
        self.ui.dialog = None
        self.refresh()
        who = "against the computer" if self.mode == "computer" else "for two players"
        self.host.announce(f"New game {who}. Cut for deal: the lower card deals first.")

    def _on_resume(self, data: dict[str, str]) -> None:
        mode = data.get("mode", "")
        if mode not in SAVE_KEYS or mode == self.mode:
            return
        self._cancel_timer()
        if not self._resume(mode):
            self._new_match(mode, self.ui.new_level)
        self.ui.dialog = None
        self.refresh()

    def _on_level(self, data: dict[str, str]) -> None:
        level = data.get("level")
        if level in LEVELS and self.mode == "computer":
            self.match.options["level"] = level
            self.ui.focus = f"level-{level}"
            self.save()
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
                self.storage.set(SETTINGS_KEY, json.dumps({"delay": delay}))
            except Exception:  # noqa: BLE001
                pass
            self.refresh()

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
        if ai is None or self.mode != "computer":
            return
        try:
            reviews = ai.review_hand(self.match, 0, hand)
            lines = [r.text[0].upper() + r.text[1:] + "." for r in reviews if r.text]
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
        lower = key.lower()
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
            button = primary_button(self.scene())
            if button is not None:
                self.click(button.action, dict(button.data))
                return True
            return False  # e.g. Enter on a hand card selects it
        view = self._view()
        if lower in "123456" and len(lower) == 1 and lower.isdigit():
            index = int(lower) - 1
            if index < len(view.hand) and view.phase in (Phase.DISCARD, Phase.PLAY):
                self._on_card({"index": str(index)})
                return True
            return False
        if key in ("ArrowLeft", "ArrowRight"):
            step = -1 if key == "ArrowLeft" else 1
            if self._cut_actions() and self._can_act_privately():
                self.move_cut(step)
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
        return False

    def _arrow_cards(self, view: Any, step: int) -> bool:
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


def event_sentence_dealer(names: tuple[str, str], dealer: int | None) -> str:
    if dealer is None:
        return ""
    name = names[dealer]
    return f"{name} {'deal' if name == 'You' else 'deals'}; the pone cuts the pack."

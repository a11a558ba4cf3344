"""The lessons screen: the progress map, the stages' levels and the practice drills.

A self-contained screen with the four methods of a screen (:meth:`LessonsScreen.scene`,
:meth:`~LessonsScreen.render`, :meth:`~LessonsScreen.click`, :meth:`~LessonsScreen.key`) and its own
state. It is given the page's storage (progress under :data:`PROGRESS_KEY`, a key of its own), a way
to speak (the page's live region) and a seed for the drills; it never touches the browser. Every
answer is checked by the engine (:mod:`cribbage.lessons`); the sentence it gets is drawn and spoken.
What a level or a drill shows is worked out in :mod:`web.screens.lessons.scenes` (pure functions of
this state).

Imported on first use (the menu's "Learn to play", the first screen's "New to cribbage?").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from cribbage.cards import Card, parse_card
from cribbage.lessons import STAGES, LevelRun, Progress
from cribbage.lessons.drills import CountDrill, DiscardDrill, PegDrill, count_drill, discard_drill, peg_drill
from cribbage.lessons.tasks import Feedback

from web.kit.cards import card_name
from web.screens.lessons.scenes import DRILL_INFO, Drill, drill_record, drill_scene, level_scene
from web.screens.lessons.view import DrillRow, LessonsScene, StageRow, lessons_html
from web.sessions.storage import Storage
from web.kit.caught import caught

__all__ = ["LessonsScreen", "Mods", "PROGRESS_KEY", "DRILL_INFO"]

PROGRESS_KEY = "cribbage.lessons"
"""Stars and drill records (a key of its own: no other key is read or written)."""

@dataclass(frozen=True)
class Mods:
    """A key's modifiers and the ``data-action`` of the focused element (None: nothing actionable)."""

    ctrl: bool = False
    shift: bool = False
    alt: bool = False
    target: str | None = None


class LessonsScreen:
    """The lessons and drills while they are open, and the player's progress."""

    def __init__(self, storage: Storage, say: Callable[[str], None], seed: int = 1) -> None:
        self.storage = storage
        self.say = say
        self.seed = seed
        self.progress, problem = Progress.from_text(self._stored())
        self.notice: str | None = (f"Your lessons\u2019 progress could not be read ({problem}); it starts again."
                                   if problem else None)
        self.page = "map"
        self.stage = 0
        self.level = 0
        self.run: LevelRun | None = None
        self.selected: list[str] = []
        self.entry = ""
        self.drill_key = ""
        self.drill: Drill | None = None
        self.drill_answer: tuple[bool, str] | None = None
        self.focus: str | None = None

    def _stored(self) -> str | None:
        try:
            return self.storage.get(PROGRESS_KEY)
        except Exception as exc:  # noqa: BLE001 - storage is a convenience here
            caught("screens.lessons.screen.LessonsScreen._stored", exc)
            return None

    def _save(self) -> None:
        try:
            self.storage.set(PROGRESS_KEY, self.progress.to_text())
        except Exception as exc:  # noqa: BLE001 - a full storage must not stop the lesson
            caught("screens.lessons.screen.LessonsScreen._save", exc)
            self.notice = f"Your progress could not be saved ({exc})."

    def take_focus(self) -> str | None:
        """The element to focus after the next drawing (once)."""
        focus, self.focus = self.focus, None
        return focus

    # --- the scene -------------------------------------------------------------------------------

    def scene(self) -> LessonsScene:
        if self.page == "level" and self.run is not None:
            return level_scene(self.run, self.stage, self.level, tuple(self.selected), self.entry)
        if self.page == "drill" and self.drill is not None:
            return drill_scene(self.drill, self.drill_key, tuple(self.selected), self.entry, self.drill_answer,
                               drill_record(self.progress, self.drill_key))
        stages = tuple(StageRow(i, st.title, st.goal, tuple(self.progress.stars_of(st.key, j)
                                                               for j in range(len(st.levels))))
                       for i, st in enumerate(STAGES))
        drills = tuple(DrillRow(k, t, about, drill_record(self.progress, k)) for k, (t, about) in DRILL_INFO.items())
        return LessonsScene(page="map", stages=stages, drills=drills, notice=self.notice)

    def render(self, scene: LessonsScene) -> str:
        return lessons_html(scene)

    # --- speech ----------------------------------------------------------------------------------

    def _announce_open(self) -> None:
        s = self.scene()
        parts = [s.title + ".", s.goal]
        if s.pile:
            parts.append("Laid so far: " + ", ".join(card_name(c) for c in s.pile) + f". The count is {s.count}.")
        if s.cards:
            parts.append(f"{s.cards_label}: " + ", ".join(card_name(c) for c in s.cards) + ".")
        if s.starter is not None:
            parts.append(f"Starter: {card_name(s.starter)}.")
        if s.info:
            parts.append(s.info)
        self.say(" ".join(parts))

    # --- actions ---------------------------------------------------------------------------------

    def actions(self) -> dict[str, Callable[[dict[str, str]], None]]:
        """Every control the lessons draw, each with its handler (the Screen contract,
        :mod:`web.shell.screen`)."""
        return {
            "lesson-stage": self._on_stage, "lesson-level": self._on_level, "lesson-card": self._on_card,
            "lesson-claim": self._on_claim, "lesson-done": self._on_done, "lesson-digit": self._on_digit,
            "lesson-erase": self._on_erase, "lesson-check": self._on_check, "lesson-word": self._on_word,
            "lesson-next": self._on_next, "lesson-retry": self._on_retry, "lesson-map": self._on_map,
            "lesson-drill": self._on_drill,
        }

    def click(self, action: str, data: dict[str, str]) -> bool:
        """A ``lesson…`` click; False for any other action (the caller's)."""
        handler = self.actions().get(action)
        if handler is None:
            return False
        handler(data)
        return True

    def open_map(self) -> None:
        """Show the progress map (the screen was just opened: progress imported since is read again)."""
        stored = self._stored()
        if stored and stored != self.progress.to_text():
            self.progress, problem = Progress.from_text(stored)
            self.notice = (f"Your lessons\u2019 progress could not be read ({problem}); it starts again."
                           if problem else None)
        self.page = "map"
        self.run = None
        self.focus = f"lesson-stage-{self.progress.next_stage()}"

    def _int(self, data: dict[str, str], key: str, limit: int) -> int | None:
        raw = data.get(key, "")
        return int(raw) if raw.isdigit() and int(raw) < limit else None

    def _on_stage(self, data: dict[str, str]) -> None:
        i = self._int(data, "stage", len(STAGES))
        if i is None:
            return
        st = STAGES[i]
        first = next((j for j in range(len(st.levels)) if not self.progress.stars_of(st.key, j)), 0)
        self._open_level(i, first)

    def _on_level(self, data: dict[str, str]) -> None:
        i = self._int(data, "stage", len(STAGES))
        if i is None:
            return
        j = self._int(data, "level", len(STAGES[i].levels))
        if j is not None:
            self._open_level(i, j)

    def _open_level(self, stage: int, level: int) -> None:
        self.page, self.stage, self.level = "level", stage, level
        self.run = LevelRun(STAGES[stage].levels[level].task)
        self.selected, self.entry = [], ""
        self.focus = self._first_control()
        self._announce_open()

    def _first_control(self) -> str:
        s = self.scene()
        if s.answer in ("combos", "card", "pair") and s.cards and not s.solved:
            return "lesson-card-0"
        if s.answer == "word":
            return "lesson-word-0"
        return "lesson-digit-1"

    def _cards_now(self) -> tuple[Card, ...]:
        return self.scene().cards

    def _on_card(self, data: dict[str, str]) -> None:
        code = data.get("card", "")
        cards = self._cards_now()
        s = self.scene()
        if s.solved or s.answer not in ("combos", "card", "pair") or code not in {c.code for c in cards}:
            return
        index = next(i for i, c in enumerate(cards) if c.code == code)
        self.focus = f"lesson-card-{index}"
        if s.answer == "card":
            self.selected = [code]
            self._answer_cards()
            return
        if code in self.selected:
            self.selected.remove(code)
        elif s.answer != "pair" or len(self.selected) < 2:
            self.selected.append(code)

    def _on_claim(self, data: dict[str, str]) -> None:
        if self.selected:
            self._answer_cards()

    def _answer_cards(self) -> None:
        chosen = list(self.selected)
        if self.page == "drill" and self.drill is not None:
            self._drill_cards(chosen)
            return
        if self.run is None or self.run.solved:
            return
        fb = self.run.claim(chosen)
        self.selected = []
        self._after(fb)

    def _on_done(self, data: dict[str, str]) -> None:
        if self.page == "level" and self.run is not None and not self.run.solved:
            self._after(self.run.done())

    def _on_digit(self, data: dict[str, str]) -> None:
        digit = data.get("digit", "")
        if len(digit) == 1 and digit.isdigit() and len(self.entry) < 2 and not self.scene().solved:
            self.entry = (self.entry + digit).lstrip("0") or "0"
            self.focus = f"lesson-digit-{digit}"

    def _on_erase(self, data: dict[str, str]) -> None:
        self.entry = self.entry[:-1]
        self.focus = "lesson-erase"

    def _on_check(self, data: dict[str, str]) -> None:
        if not self.entry:
            return
        value = int(self.entry)
        self.entry = ""
        if self.page == "drill" and self.drill is not None and self.drill_answer is None:
            if isinstance(self.drill, CountDrill):
                self._drill_result(*self.drill.check(value))
            elif isinstance(self.drill, PegDrill) and self.drill.card is not None:
                self._drill_result(*self.drill.check_number(value))
            return
        if self.run is not None and not self.run.solved:
            self._after(self.run.number(value))

    def _on_word(self, data: dict[str, str]) -> None:
        if self.run is not None and not self.run.solved:
            self._after(self.run.word(data.get("word", "")))

    def _after(self, fb: Feedback) -> None:
        """Keep the stars of a level solved, speak the sentence, put the focus where the next step is."""
        run = self.run
        assert run is not None
        text = fb.text
        if run.solved:
            key = STAGES[self.stage].key
            self.progress.record(key, self.level, run.stars)
            self._save()
            text += f" {run.stars} star{'s' if run.stars != 1 else ''}."
            if self.level + 1 >= len(STAGES[self.stage].levels):
                text += f" {STAGES[self.stage].done}"
            self.focus = "lesson-next"
        elif self.focus is None or self.focus.startswith("lesson-digit") or self.focus == "lesson-erase":
            self.focus = self._first_control()
        self.say(text)

    def _on_next(self, data: dict[str, str]) -> None:
        if self.page == "drill":
            self._new_drill()
            return
        stage = STAGES[self.stage]
        if self.level + 1 < len(stage.levels):
            self._open_level(self.stage, self.level + 1)
        elif self.stage + 1 < len(STAGES):
            self._open_level(self.stage + 1, 0)
        else:
            self.open_map()

    def _on_retry(self, data: dict[str, str]) -> None:
        if self.page == "drill":
            self._new_drill()
        else:
            self._open_level(self.stage, self.level)

    def _on_map(self, data: dict[str, str]) -> None:
        back = self.stage if self.page == "level" else None
        self.open_map()
        self.page, self.drill = "map", None
        self.focus = f"lesson-stage-{back}" if back is not None else f"lesson-drill-{self.drill_key or 'count'}"

    # --- drills ----------------------------------------------------------------------------------

    def _on_drill(self, data: dict[str, str]) -> None:
        key = data.get("drill", "")
        if key not in DRILL_INFO:
            return
        self.drill_key = key
        self._new_drill()

    def _new_drill(self) -> None:
        self.seed += 1
        self.page, self.run = "drill", None
        self.drill = (count_drill(self.seed) if self.drill_key == "count" else
                      discard_drill(self.seed) if self.drill_key == "discard" else peg_drill(self.seed))
        self.drill_answer = None
        self.selected, self.entry = [], ""
        self.focus = self._first_control()
        self._announce_open()

    def _drill_cards(self, chosen: list[str]) -> None:
        drill = self.drill
        if self.drill_answer is not None:
            return
        if isinstance(drill, DiscardDrill) and len(chosen) == 2:
            ok, _, text = drill.check([parse_card(c) for c in chosen])
            self._drill_result(ok, text)
        elif isinstance(drill, PegDrill) and drill.card is None and len(chosen) == 1:
            self._drill_result(*drill.check_card(parse_card(chosen[0])))

    def _drill_result(self, ok: bool, text: str) -> None:
        self.drill_answer = (ok, text)
        self.selected = []
        stats = self.progress.drill(self.drill_key)
        stats.add(ok)
        self._save()
        if self.drill_key == "discard":
            text += f" Streak: {stats.streak}."
        self.focus = "lesson-next"
        self.say(text)

    # --- keys ------------------------------------------------------------------------------------

    def key(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False,
            target_action: str | None = None) -> bool:
        """A key while the lessons are open; True if it was used."""
        mods = Mods(ctrl, shift, alt, target_action)
        if mods.ctrl or mods.alt:
            return False
        if key == "Escape":
            if self.page != "map":
                self._on_map({})
                return True
            return False  # the caller closes the lessons
        if self.page == "map":
            return False
        s = self.scene()
        if key == "Enter":
            if mods.target and mods.target not in ("lesson-card", "lesson-digit", "lesson-erase"):
                return False  # Enter on a button presses it (on a card or the pad it confirms the answer)
            if s.solved:
                self._on_next({})
            elif s.answer == "number" and self.entry:
                self._on_check({})
            elif s.answer in ("combos", "pair") and self.selected:
                self._on_claim({})
            elif s.answer == "combos":
                self._on_done({})
            else:
                return False
            return True
        if s.solved:
            return False
        if len(key) == 1 and key.isdigit():
            if s.answer == "number":
                self._on_digit({"digit": key})
                return True
            i = int(key) - 1
            if s.answer in ("combos", "card", "pair") and 0 <= i < len(s.cards):
                self._on_card({"card": s.cards[i].code})
                return True
            return False
        if key == "Backspace" and s.answer == "number":
            self._on_erase({})
            return True
        if key.lower() == "d" and s.answer == "combos":
            self._on_done({})
            return True
        if s.answer == "word" and key.lower() in "abc" and len(key) == 1:
            i = "abc".index(key.lower())
            if i < len(s.words):
                self._on_word({"word": s.words[i][0]})
                return True
        return False

"""The scorekeeper's screen (``?mode=score``): a renderer and input router over the engine's ledger,
:class:`cribbage.scorekeeper.Scorekeeper`, for games played with real cards.

No browser here (like :mod:`web.shell.controller`): the page's glue (:mod:`web.page.scorekeeper`) hands
it a host that shows frames and speaks, and a storage; the tests hand it fakes. Every rule — what may
be entered, the end of the game, the skunk lines, the series — is the ledger's; this module draws it,
routes taps and keys to it, saves it after every entry, and sets aside a save it cannot read.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping, Protocol

from cribbage.scorekeeper import NextDeal, Score, ScoreError, Scorekeeper
from cribbage.scoring import MAX_SHOW
from cribbage.series import Series, SeriesRules

from web.kit.controls import Handler, route
from web.kit.frame import Rendered
from web.screens.scorekeeper import view
from web.screens.scorekeeper.view import KIND_WORDS, SERIES, TABLES, ScoreScene, Setup
from web.sessions.storage import Storage
from web.kit.caught import caught

__all__ = ["ScoreController", "SAVE_KEY", "SETUP_KEY", "TABLES", "SERIES", "Setup"]

SAVE_KEY = "cribbage.scorekeeper"
"""The ledger in progress."""
SETUP_KEY = "cribbage.scorekeeper.setup"
"""The last setup chosen (names, table, series): a new game starts from it."""
class Host(Protocol):
    def show(self, rendered: Rendered, focus: str | None) -> None: ...
    def announce(self, text: str) -> None: ...
    def now_ms(self) -> int: ...


class ScoreController:
    """The scorekeeper on the page: the ledger, the screen state, saves."""

    def __init__(self, host: Host, storage: Storage, embedded: bool = False) -> None:
        self.host = host
        self.storage = storage
        self.embedded = embedded
        self.keeper: Scorekeeper | None = None
        self.setup = Setup()
        self.dialog: str | None = None
        """``setup``, ``pad``, ``log``, ``menu`` or None."""
        self.pad: tuple[int, str] | None = None
        """The pad's (side, "hand" | "crib")."""
        self.typed = ""
        """Digits typed on the keyboard into the pad."""
        self.message = ""
        """The latest refusal or entry, in a sentence (shown under the board)."""
        self.refused = False
        self.notice: str | None = None
        self.moved: list[bool] = [False] * 3
        self.focus: str | None = None
        self.wake = "off"
        """The screen wake lock: on, off, unsupported (set by the page's glue, shown in the menu)."""
        self.on_change: Callable[[], None] | None = None

    # --- start and saves -----------------------------------------------------------------------

    def boot(self) -> None:
        self.setup = Setup.from_json(self._read(SETUP_KEY))
        raw = self.storage.get(SAVE_KEY)
        if raw is not None:
            try:
                self.keeper = Scorekeeper.from_json(json.loads(raw))
            except Exception as exc:  # noqa: BLE001 - any unreadable save is set aside, never lost
                caught("screens.scorekeeper.screen.ScoreController.boot", exc)
                aside = f"{SAVE_KEY}.corrupt.{self.host.now_ms()}"
                try:
                    self.storage.set(aside, raw)
                    self.storage.remove(SAVE_KEY)
                except Exception as err:  # noqa: BLE001
                    caught("screens.scorekeeper.screen.ScoreController.boot", err)
                    aside = "(it could not be copied)"
                reason = str(exc) or type(exc).__name__
                self.notice = (f"Your saved score sheet could not be read ({reason}). It was set aside as "
                               f"\u201c{aside}\u201d: start a new game.")
        if self.keeper is None:
            self.dialog = "setup"
            self.focus = "sk-start"
        self.refresh()

    def _read(self, key: str) -> Any:
        try:
            raw = self.storage.get(key)
            return json.loads(raw) if raw else None
        except Exception as exc:  # noqa: BLE001 - a setting is a convenience
            caught("screens.scorekeeper.screen.ScoreController._read", exc)
            return None

    def save(self) -> None:
        try:
            if self.keeper is not None:
                self.storage.set(SAVE_KEY, json.dumps(self.keeper.to_json(), separators=(",", ":")))
            self.storage.set(SETUP_KEY, json.dumps(self.setup.to_json()))
        except Exception as exc:  # noqa: BLE001 - a full storage must not stop the scoring
            caught("screens.scorekeeper.screen.ScoreController.save", exc)
            self.message = f"The score could not be saved ({exc})."

    # --- drawing -------------------------------------------------------------------------------

    def refresh(self) -> None:
        self.host.show(self.render(), self.focus)
        self.focus = None
        self.moved = [False] * 3

    def scene(self) -> ScoreScene:
        return ScoreScene(self.keeper, self.setup, self.dialog, self.pad, self.typed, self.message, self.refused,
                          self.notice, tuple(self.moved), self.wake)

    def render(self, scene: ScoreScene | None = None) -> Rendered:
        """The markup of ``scene`` (:mod:`web.screens.scorekeeper.view`); the present one by default."""
        return view.render(self.scene() if scene is None else scene)

    # --- dialogs -------------------------------------------------------------------------------

    # --- input ---------------------------------------------------------------------------------

    def actions(self) -> Mapping[str, Handler]:
        """Every control of the Scorekeeper, each with its handler (:class:`web.shell.screen.Screen`)."""
        return {
            "sk-peg": self._on_sk_peg, "sk-go": self._on_sk_go, "sk-heels": self._on_sk_heels,
            "sk-pad": self._on_sk_pad, "sk-count": self._on_sk_count, "sk-next": self._on_sk_next,
            "sk-undo": self._on_sk_undo, "sk-redo": self._on_sk_redo, "sk-log": self._on_sk_log,
            "sk-menu": self._on_sk_menu, "sk-close": self._on_sk_close,
            "sk-close-backdrop": self._on_sk_close_backdrop, "sk-dismiss": self._on_sk_dismiss,
            "sk-setup": self._on_sk_setup, "sk-set": self._on_sk_set, "sk-start": self._on_sk_start,
            "sk-next-game": self._on_sk_next_game,
        }

    def click(self, action: str, data: dict[str, str] | None = None) -> None:
        route(self.actions(), action, data)

    def _enter(self, fn: Callable[[Scorekeeper], Any], said: Callable[[Scorekeeper], str]) -> bool:
        """Make an entry; say what it did (or why it was refused), save, redraw."""
        k = self.keeper
        if k is None:
            return False
        before = k.totals
        try:
            fn(k)
        except ScoreError as refused:
            self.message, self.refused = str(refused), True
            self.refresh()
            self.host.announce(str(refused))
            return False
        self.refused = False
        self.moved = [a != b for a, b in zip(k.totals, before)] + [False] * 3
        self.message = said(k)
        if k.winner is not None:
            self.message += f" {k.result_sentence()}"
            self.focus = "sk-new-after" if k.series_winner is not None else (
                "sk-next-game" if k.series.add(k.totals, k.first_dealer).next_first_dealer() is not None
                else "sk-next-game-0")
        self.save()
        self.refresh()
        self.host.announce(self.message)
        return True

    def _side(self, data: dict[str, str]) -> int | None:
        k = self.keeper
        try:
            side = int(data.get("side", ""))
        except ValueError:
            return None
        return side if k is not None and 0 <= side < k.sides else None

    @staticmethod
    def _said(side: int, kind: str, points: int) -> Callable[[Scorekeeper], str]:
        return lambda k: f"{k.side_name(side)}: {KIND_WORDS[kind]} {points}, now {k.totals[side]}."

    def _on_sk_peg(self, data: dict[str, str]) -> None:
        side = self._side(data)
        try:
            points = int(data.get("points", ""))
        except ValueError:
            return
        if side is not None:
            self._enter(lambda k: k.peg(side, points), self._said(side, "peg", points))

    def _on_sk_go(self, data: dict[str, str]) -> None:
        side = self._side(data)
        if side is not None:
            self._enter(lambda k: k.go(side), self._said(side, "go", 1))

    def _on_sk_heels(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is not None:
            self._enter(lambda k: k.heels(), self._said(k.crib_side, "heels", 2))

    def _on_sk_pad(self, data: dict[str, str]) -> None:
        side, kind = self._side(data), data.get("kind", "")
        if side is None or kind not in ("hand", "crib") or self.keeper is None or self.keeper.winner is not None:
            return
        self.pad = (side, kind)
        self.typed = ""
        self.refused = False
        self.message = ""
        self.dialog = "pad"
        self.focus = "sk-count-0"
        self.refresh()

    def _on_sk_count(self, data: dict[str, str]) -> None:
        try:
            points = int(data.get("points", ""))
        except ValueError:
            return
        self._count(points)

    def _count(self, points: int) -> None:
        if self.pad is None:
            return
        side, kind = self.pad
        self.typed = ""
        # Close the pad first: an accepted count is drawn on the table behind it.
        self.dialog, self.pad = None, None
        self.focus = "sk-next" if kind == "crib" else f"sk-hand-{side}"
        ok = self._enter((lambda k: k.crib(points)) if kind == "crib" else (lambda k: k.hand(side, points)),
                         self._said(side, kind, points))
        if not ok:
            self.dialog, self.pad = "pad", (side, kind)
            self.focus = f"sk-count-{points}" if 0 <= points <= MAX_SHOW else None
            self.refresh()

    def _on_sk_next(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is None:
            return
        self.focus = "sk-next"
        self._enter(
            lambda k: k.next_deal(),
            lambda k: f"Deal {k.deal}: {k.names[k.dealer]} deals; the crib is {k.side_name(k.crib_side)}\u2019s.",
        )

    def _on_sk_undo(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is None or self.dialog:
            return
        event = k.undo()
        if event is None:
            return
        self.refused = False
        self.message = "Undone: " + self._event_words(k, event) + "."
        self.save()
        self.focus = "sk-undo" if k.can_undo else None
        self.refresh()
        self.host.announce(self.message)

    def _on_sk_redo(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is None or self.dialog:
            return
        event = k.redo()
        if event is None:
            return
        self.refused = False
        self.message = "Redone: " + self._event_words(k, event) + "."
        self.save()
        self.focus = "sk-redo" if k.can_redo else None
        self.refresh()
        self.host.announce(self.message)

    def _event_words(self, k: Scorekeeper, event: Score | NextDeal) -> str:
        if isinstance(event, NextDeal):
            return "next deal"
        return f"{k.side_name(event.side)} {KIND_WORDS[event.kind]} {event.points}"

    def _on_sk_log(self, data: dict[str, str]) -> None:
        if self.keeper is not None:
            self._open("log")

    def _on_sk_menu(self, data: dict[str, str]) -> None:
        self._open("menu")

    def _open(self, dialog: str) -> None:
        self.dialog = dialog
        self.focus = "btn-close"
        self.refresh()

    def _on_sk_close(self, data: dict[str, str]) -> None:
        if self.keeper is None:
            return  # the setup is all there is
        back = {"pad": f"sk-hand-{self.pad[0]}" if self.pad and self.pad[1] == "hand" else "sk-crib",
                "log": "sk-log", "menu": "sk-menu-btn", "setup": "sk-menu-btn"}.get(self.dialog or "")
        self.dialog, self.pad, self.typed = None, None, ""
        if self.refused:
            self.refused, self.message = False, ""
        self.focus = back
        self.refresh()

    def _on_sk_close_backdrop(self, data: dict[str, str]) -> None:
        self._on_sk_close(data)

    def _on_sk_dismiss(self, data: dict[str, str]) -> None:
        self.notice = None
        self.refresh()

    def _on_sk_setup(self, data: dict[str, str]) -> None:
        if self.keeper is not None:
            self.setup.names = list(self.keeper.names) + [""] * (4 - len(self.keeper.names))
        self.dialog = "setup"
        self.focus = "sk-start"
        self.refresh()

    def _take_names(self, data: dict[str, str]) -> None:
        raw = data.get("inputs")
        if not raw:
            return
        try:
            values = json.loads(raw)
        except ValueError:
            return
        if isinstance(values, dict):
            for i in range(4):
                value = values.get(f"sk-name-{i}")
                if isinstance(value, str):
                    self.setup.names[i] = value.strip()[:24]

    def _on_sk_set(self, data: dict[str, str]) -> None:
        self._take_names(data)
        s, choice, which = self.setup, data.get("choice", ""), data.get("field", "")
        if which == "table" and choice in TABLES:
            s.table = choice
        elif which == "target" and choice in ("121", "61"):
            s.target = int(choice)
        elif which == "series" and choice in SERIES:
            s.series = choice
        elif which == "skunks":
            s.skunks = choice == "yes"
        elif which == "dealer" and choice.isdigit():
            s.dealer = int(choice)
        self.focus = f"sk-set-{which}-{choice if which != 'skunks' else ('no' if s.skunks else 'yes')}"
        self.refresh()

    def _on_sk_start(self, data: dict[str, str]) -> None:
        self._take_names(data)
        s = self.setup
        rules = s.rules()
        names = [s.names[i] or f"Player {i + 1}" for i in range(rules.players)]
        series = Series(rules, SeriesRules.best_of(SERIES[s.series][1], skunks=s.skunks))
        self.keeper = Scorekeeper(rules, names, s.dealer if s.dealer < rules.players else 0, series)
        self.dialog, self.pad = None, None
        self.refused = False
        self.message = f"New game to {rules.target}. {self.keeper.names[self.keeper.dealer]} deals first."
        self.save()
        self.focus = "sk-peg-0-1"
        self.refresh()
        self.host.announce(self.message)

    def _on_sk_next_game(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is None or k.winner is None:
            return
        choice = data.get("choice", "")
        try:
            # The series names the next first dealer (the loser), or the players cut and tap who.
            k.next_game(int(choice) if choice.isdigit() else None)
        except ScoreError as refused:
            self.message, self.refused = str(refused), True
            self.refresh()
            return
        self.refused = False
        self.message = f"Game {len(k.series.games) + 1}: {k.names[k.dealer]} deals first."
        self.save()
        self.focus = "sk-peg-0-1"
        self.refresh()
        self.host.announce(self.message)

    # --- keyboard ------------------------------------------------------------------------------

    def key(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False,
            target_action: str | None = None) -> bool:
        if alt:
            return False
        lower = key.lower()
        if ctrl:
            if lower == "z" and not shift:
                self._on_sk_undo({})
                return True
            if lower == "y" or (lower == "z" and shift):
                self._on_sk_redo({})
                return True
            return False
        if key == "Escape":
            if self.dialog and self.keeper is not None:
                self._on_sk_close({})
                return True
            return False
        if self.dialog == "pad":
            if key.isdigit() and len(key) == 1:
                self.typed = (self.typed + key)[-2:]
                self.refresh()
                return True
            if key == "Backspace" and self.typed:
                self.typed = self.typed[:-1]
                self.refresh()
                return True
            if key == "Enter" and self.typed:
                self._count(int(self.typed))
                return True
            return False
        if self.dialog:
            return False
        if lower == "n" and self.keeper is not None:
            self._on_sk_next({})
            return True
        if lower == "l":
            self._on_sk_log({})
            return True
        if lower == "m":
            self._on_sk_menu({})
            return True
        return False

    def set_wake(self, state: str) -> None:
        if state != self.wake:
            self.wake = state
            self.refresh()

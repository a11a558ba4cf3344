"""The table's small comforts: sound cues, a vibration for your turn, and auto-play of forced moves.

**Cues.** After every move the session reports, :func:`cues_of` names what the table sounds: a card
laid (``card``), Go said (``go``), a score pegged (``peg``), the game over (``over``), and it
becoming your turn (``turn``, with a short vibration on a phone). The controller only names them;
the :class:`~web.shell.ports.Cues` port plays them (:mod:`web.page.cues`: Web Audio, synthesised, made
on the first tap), and the tests fake it. Undo, redo and a restart are silent: nothing was played.
"Your turn" needs a "you": against the computer and online, not in hot-seat (the cover already says
whose turn it is, and the device is in the players' hands).

**Auto-play.** When it is the player's turn in the play and only one action is legal (Go, or a
single card that fits: often the last card), it is made for them after a short visible moment
(:data:`AUTO_MS`, or the computer's pacing if slower), as a real move: undo takes it back, and the
state undone to waits for the player (an undone auto move is not made again by itself). A tap on a
card or the hint first also leaves the move to the player. Never with muggins in the play (each card's
points are claimed by hand), never under a hot-seat cover, with a dialog open, or while the show waits.

**Settings** (``cribbage.settings``): ``"sound"`` and ``"vibration"`` (on by default, off by default
in an embed: a page inside another site should not start making noise), and ``"autoplay"`` per
mode (on by default where the device has one player, a "you": against the computer, a table of
computers, online; off in hot-seat, where the device is passed and a move made the instant the cover
lifts would flip to the next cover before its player has seen their cards).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping, Protocol

from cribbage.actions import Action, Go, Play
from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.state import Phase

from web.shell.ports import Cues
from web.kit.comfort_view import TURN_VIBRATION_MS, ComfortScene
from web.sessions.session import Change, Session
from web.sessions.storage import Storage
from web.kit.caught import caught

__all__ = ["TableComforts", "SilentCues", "cues_of", "play_muggins", "AUTO_MS", "SOUND", "VIBRATION", "AUTOPLAY"]

SOUND = "sound"
VIBRATION = "vibration"
AUTOPLAY = "autoplay"
"""Keys in the settings: two switches, and the per-mode switches of auto-play."""
AUTO_MS = 700
"""The visible moment before a forced move is made for the player (ms)."""
TURN_PHASES = (Phase.DISCARD, Phase.PLAY, Phase.CUT_STARTER)
"""Phases where a "your turn" cue is worth sounding (not the next hand's cut after a show)."""


class SilentCues:
    """No sound, no vibration (the tests' default, and a page without Web Audio)."""

    can_vibrate = False

    def unlock(self) -> None:
        """Nothing to unlock."""

    def sound(self, cue: str) -> None:
        """Silence."""

    def vibrate(self, ms: int) -> None:
        """Nothing."""


def play_muggins(rules: Rules) -> bool:
    """Does this table play muggins in the play (each player claims their card's points)? Then
    nothing is ever laid or said for the player: a forced card still needs its claim."""
    return rules.play_muggins


def cues_of(change: Change, match: Match, me: int | None, was_my_turn: bool) -> list[str]:
    """The cues of one applied move, in order (``me``: the seat that is "you", None in hot-seat;
    ``was_my_turn``: ``me`` was to act before the move)."""
    if change.kind != "applied":
        return []
    events = change.events
    cues: list[str] = []
    if any(e.kind == "play" for e in events):
        cues.append("card")
    if any(e.kind == "go" and not e.points for e in events):  # said Go (the go's point pegs)
        cues.append("go")
    if any(e.points for e in events if e.kind != "win"):
        cues.append("peg")
    st = match.state
    if st.is_over or any(e.kind == "win" for e in events):
        cues.append("over")
    elif me is not None and not was_my_turn and my_turn(match, me) and match.actions and match.actions[-1].seat != me:
        cues.append("turn")  # a turn that begins with the other side's move (not after the player's own cut)
    return cues


def my_turn(match: Match, me: int) -> bool:
    """Is ``me`` to act in a phase where a turn is worth telling?"""
    st = match.state
    return st.phase in TURN_PHASES and not st.is_over and me in st.actors()


class _Screen(Protocol):
    dialog: str | None
    focus: str | None


class Table(Protocol):
    """What the comforts need of the table (the app's controller)."""

    @property
    def host(self) -> Any: ...
    @property
    def storage(self) -> Storage: ...
    @property
    def match(self) -> Match: ...
    @property
    def mode(self) -> str: ...
    @property
    def perspective(self) -> int | None: ...
    @property
    def ui(self) -> _Screen: ...
    @property
    def session(self) -> Session: ...
    embedded: bool
    delay: int

    def active_seat(self) -> int: ...
    def cover_for(self) -> int | None: ...
    def waiting_to_move_on(self) -> bool: ...
    def act(self, action: Action) -> None: ...
    def refresh(self) -> None: ...


Key = tuple[int, int, str]


class TableComforts:
    """The switches, the cues of each move, and the timer of a forced move."""

    def __init__(self, table: Table, cues: Cues | None, settings_key: str) -> None:
        self.table = table
        self.cues: Cues = cues if cues is not None else SilentCues()
        self.settings_key = settings_key
        self._settings: dict[str, Any] | None = None
        self._pending: tuple[Key, object] | None = None
        """The forced move waiting for its moment: (the state it is for, the timer)."""
        self._held: Key | None = None
        """A state whose forced move is the player's own to make (they undid it, or began choosing)."""
        self._was_mine = False
        """``me`` was to act after the last change (a "your turn" cue is for a turn that begins)."""

    # --- the settings ------------------------------------------------------------------------------

    def _read(self) -> dict[str, Any]:
        if self._settings is None:
            try:
                raw = self.table.storage.get(self.settings_key)
                found = json.loads(raw) if raw else None
            except Exception as exc:  # noqa: BLE001 - settings are a convenience
                caught("shell.comforts.TableComforts._read", exc)
                found = None
            self._settings = found if isinstance(found, dict) else {}
        return self._settings

    def _write(self, key: str, value: object) -> None:
        self._read()[key] = value
        try:  # the other settings (the pace, the chance of winning) as stored now
            raw = self.table.storage.get(self.settings_key)
            settings = json.loads(raw) if raw else {}
            settings = settings if isinstance(settings, dict) else {}
        except Exception as exc:  # noqa: BLE001
            caught("shell.comforts.TableComforts._write", exc)
            settings = {}
        settings[key] = value
        try:
            self.table.storage.set(self.settings_key, json.dumps(settings))
        except Exception as exc:  # noqa: BLE001 - a full or blocked storage: for this page only
            caught("shell.comforts.TableComforts._write", exc)

    def reload(self) -> None:
        """The settings were replaced (an import): read them again."""
        self._settings = None

    def _switch(self, key: str) -> bool:
        value = self._read().get(key)
        return value if isinstance(value, bool) else not self.table.embedded

    @property
    def sound(self) -> bool:
        """Sound on? (By default on, off in an embed.)"""
        return self._switch(SOUND)

    @property
    def vibration(self) -> bool:
        """Vibrate for your turn? (By default on where the device can, off in an embed.)"""
        return self.cues.can_vibrate and self._switch(VIBRATION)

    def _autoplay_switches(self) -> dict[str, bool]:
        found = self._read().get(AUTOPLAY)
        return {k: v for k, v in found.items() if isinstance(v, bool)} if isinstance(found, dict) else {}

    @property
    def autoplay(self) -> bool:
        """Auto-play on for the mode on the table? (By default where the device has one player.)"""
        return self._autoplay_switches().get(self.table.mode, self.table.perspective is not None)

    @property
    def blocked(self) -> bool:
        """Muggins in the play: auto-play never acts."""
        return play_muggins(self.table.match.state.rules)

    def scene(self) -> ComfortScene:
        return ComfortScene(sound=self.sound, vibration=self.vibration if self.cues.can_vibrate else None,
                            autoplay=self.autoplay, autoplay_blocked=self.blocked)

    # --- the menu's switches -------------------------------------------------------------------------

    def actions(self) -> Mapping[str, Callable[[dict[str, str]], None]]:
        """Every control of this part, each with its handler (:class:`web.shell.screen.Part`)."""
        return {"comfort-sound": self._on_sound, "comfort-vibration": self._on_vibration,
                "comfort-autoplay": self._on_autoplay}

    def _done(self, focus: str, said: str) -> None:
        self.table.ui.focus = focus
        self.table.refresh()
        self.table.host.announce(said)

    def _on_sound(self, data: dict[str, str]) -> None:
        on = not self.sound
        self._write(SOUND, on)
        if on:  # a tap: the audio may start now; a sample of what it sounds like
            self.cues.unlock()
            self.cues.sound("turn")
        self._done("sound-toggle", "Sound on." if on else "Sound off.")

    def _on_vibration(self, data: dict[str, str]) -> None:
        if not self.cues.can_vibrate:
            return
        on = not self.vibration
        self._write(VIBRATION, on)
        if on:
            self.cues.vibrate(TURN_VIBRATION_MS)
        self._done("vibration-toggle", "The phone vibrates on your turn." if on else "No vibration.")

    def _on_autoplay(self, data: dict[str, str]) -> None:
        if self.blocked:
            self._done("autoplay-toggle", "Auto-play is off at this table: with muggins in the play "
                                          "you claim every card’s points yourself.")
            return
        on = not self.autoplay
        switches = self._autoplay_switches()
        switches[self.table.mode] = on
        self._write(AUTOPLAY, switches)
        if not on:
            self._cancel()
        self._done("autoplay-toggle", "Auto-play on: Go and a forced card are played for you." if on
                   else "Auto-play off: you make every move yourself.")

    # --- input and moves ---------------------------------------------------------------------------

    def touched(self, action: str) -> None:
        """A tap or a key of the player's (a user gesture): the audio may start; a card chosen or a
        hint asked for leaves the forced move to the player."""
        if self.sound:
            self.cues.unlock()
        if action in ("card", "play", "hint", "key"):
            self._held = self._key()
            self._cancel()

    def on_change(self, change: Change) -> None:
        """Sound the cues of a move; an undone or redone state waits for the player."""
        me = self.table.perspective
        if change.kind == "applied":
            cues = cues_of(change, self.table.match, me, self._was_mine)
            if self.sound:
                for cue in cues:
                    self.cues.sound(cue)
            if "turn" in cues and self.vibration:
                self.cues.vibrate(TURN_VIBRATION_MS)
        elif change.kind in ("undone", "redone"):
            self._held = self._key()
            self._cancel()
        self._was_mine = me is not None and my_turn(self.table.match, me)

    def _key(self) -> Key:
        match = self.table.match
        return (id(match), len(match.actions), repr(match.actions[-1]) if match.actions else "")

    def forced(self) -> Action | None:
        """The move auto-play would make now, or None."""
        t = self.table
        if not self.autoplay or self.blocked:
            return None
        st = t.match.state
        if st.phase is not Phase.PLAY or st.is_over:
            return None
        if t.ui.dialog or t.cover_for() is not None or t.waiting_to_move_on():
            return None
        if t.session.link != "live" or t.session.question is not None:
            return None
        seat = t.active_seat()
        seats = t.session.seats
        if not 0 <= seat < len(seats) or seats[seat].kind != "human" or not seats[seat].local:
            return None
        legal = t.match.view(seat).legal_actions
        if len(legal) != 1 or not isinstance(legal[0], (Go, Play)):
            return None
        return legal[0]

    def after_frame(self) -> None:
        """After each frame: start the moment of a forced move (once per state), or stop it."""
        key = self._key()
        if key == self._held or self.forced() is None:
            self._cancel()
            return
        if self._pending is not None and self._pending[0] == key:
            return  # already counting down
        self._cancel()
        moment = max(AUTO_MS, self.table.delay)
        self._pending = (key, self.table.host.later(moment, lambda: self._fire(key)))

    def _fire(self, key: Key) -> None:
        self._pending = None
        if key != self._key() or key == self._held:
            return
        action = self.forced()
        if action is not None:
            self.table.act(action)

    def _cancel(self) -> None:
        if self._pending is not None:
            self.table.host.cancel(self._pending[1])
            self._pending = None

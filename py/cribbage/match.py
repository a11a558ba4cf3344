"""The match record: a seed plus the list of actions, with undo/redo, restart and saves.

Replaying the actions from the seed reproduces every state on any Python. Every state of a match is
built by :meth:`Match.new_state`, from the match's own rules and its said-aloud Go, so an undo, a
restart, a reload, the coach and the record replay the match by the rules it was played by. A save
names the rules only when they are not the classic game and said-aloud Go only when it is on, so every
save made before either existed loads (and saves again) unchanged. Undo and redo step through
real actions: when some seats are played by the computer, one undo also takes back the computer's
replies, back to the human's previous decision. Saves are versioned JSON with a checksum; a save that
is corrupt, truncated, tampered with or from a future version is refused with a clear
:class:`SaveError` and the match in hand is left untouched.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

from .actions import Action, ActionError, parse_action
from .deal import PackSource
from .rules import CLASSIC, Rules, RulesError
from .savefile import Envelope, Fields
from .state import GameState, IllegalActionError
from .view import SeatView, view

__all__ = ["Match", "SaveError", "SAVE_FORMAT", "SAVE_VERSION"]

SAVE_FORMAT = "cribbage-match"
"""The ``format`` field of every save."""
SAVE_VERSION = 1
"""Saves newer than this are refused: they may hold rules this version does not know."""
MAX_SEED = 2**64 - 1


class SaveError(ValueError):
    """A save that cannot be loaded; the message says why."""


ENVELOPE = Envelope(
    SAVE_FORMAT, SAVE_VERSION, SaveError, what="this save", foreign="this is not a cribbage save",
    newer="this save was made by a newer version of the game (save version {version}, this game reads up "
          "to {latest})")
"""A match's save: canonical UTF-8 JSON with a checksum (:mod:`cribbage.savefile`)."""


class Match:
    """A match: its seed, the actions taken, and the actions undone (for redo)."""

    def __init__(self, seed: int, humans: Iterable[int] = (0, 1), names: Sequence[str] = ("North", "South"),
                 options: dict[str, Any] | None = None, *, source: PackSource | None = None,
                 declare_go: bool = False, rules: Rules = CLASSIC, first_dealer: int | None = None) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"a seed is an integer from 0 to {MAX_SEED}")
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules value, not {rules!r}")
        self.seed = seed
        self.rules = rules
        """The table this match is played at (classic two-player by default)."""
        self.humans: frozenset[int] = frozenset(humans)
        """Seats played by people; the others are the computer's (their replies undo together)."""
        if not self.humans <= set(range(rules.players)):
            raise ValueError(f"a human seat is one of 0 to {rules.players - 1}")
        names = list(names)
        if len(names) < rules.players:  # the default pair, or too few: number the rest
            names += [f"Player {i + 1}" for i in range(len(names), rules.players)]
        self.names: tuple[str, ...] = tuple(str(n) for n in names[: rules.players])
        self.options: dict[str, Any] = dict(options or {})
        """Free-form settings kept with the save (e.g. the computer's level)."""
        self.source = source
        """Online: the packs the mental-poker deal opens (None: shuffled from the seed)."""
        self.declare_go = declare_go
        """Every Go is the player's own action (online; see :class:`~cribbage.state.GameState`)."""
        self.first_dealer = first_dealer
        """A game of a series whose rule names the first dealer (no cut for deal); None: cut for deal."""
        self.nonce: str | None = None
        """The nonce of the commitment to this match's deals (:mod:`cribbage.fairness`); set on a new
        match against the computer, None for every older save and every other match."""
        self.state = self.new_state()
        self.actions: list[Action] = []
        self.undone: list[Action] = []
        """Actions taken back, most recently undone last; redo re-applies them."""

    def new_state(self) -> GameState:
        """A fresh state of this match: its seed (or online packs), its rules, its said-aloud Go.
        The one place a match's states are made (replay, restart, reload, coach, record)."""
        return GameState(self.seed, source=self.source, declare_go=self.declare_go, rules=self.rules,
                         first_dealer=self.first_dealer)

    # --- playing ---------------------------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now."""
        return view(self.state, seat)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Legal actions now (for one seat if given)."""
        return self.state.legal_actions(seat)

    def apply(self, action: Action | str) -> None:
        """Apply an action (or its text form); a new action clears the redo list."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ActionError as exc:
                raise IllegalActionError(str(exc)) from exc
        self.state.apply(action)
        self.actions.append(action)
        self.undone.clear()

    # --- undo / redo / restart -------------------------------------------------------------------

    def _undo_span(self) -> int:
        """How many trailing actions one undo takes back (0 if none; online, moves are never taken back)."""
        if self.source is not None:
            return 0
        if not self.humans:
            return 1 if self.actions else 0
        n = len(self.actions)
        i = n
        while i > 0 and self.actions[i - 1].seat not in self.humans:
            i -= 1
        if i == 0:
            return 0  # only computer actions so far: nothing of the human's to take back
        return n - (i - 1)

    @property
    def can_undo(self) -> bool:
        """True when there is a human decision to take back."""
        return self._undo_span() > 0

    @property
    def can_redo(self) -> bool:
        """True when an undone action can be replayed."""
        return bool(self.undone)

    def undo(self) -> bool:
        """Take back the last human decision (and the computer's replies to it)."""
        span = self._undo_span()
        if not span:
            return False
        taken = self.actions[-span:]
        self._replay(self.actions[:-span])
        self.undone.extend(reversed(taken))
        return True

    def redo(self) -> bool:
        """Replay the next undone human decision and the computer's replies that followed it."""
        if not self.undone:
            return False
        while True:
            action = self.undone.pop()
            self.state.apply(action)
            self.actions.append(action)
            # Hot-seat: one step. Against the computer: on through its replies to the next human move.
            if not self.undone or not self.humans or self.undone[-1].seat in self.humans:
                break
        return True

    def restart(self) -> None:
        """Start the same match again from the seed: the same deals."""
        self._need_seed("restart")
        self.state = self.new_state()
        self.actions = []
        self.undone = []

    def _need_seed(self, what: str) -> None:
        if self.source is not None:
            raise IllegalActionError(f"an online match cannot {what}: its deals come from both players")

    def _replay(self, actions: Sequence[Action]) -> None:
        self._need_seed("take back moves")
        state = self.new_state()
        for action in actions:
            state.apply(action)
        self.state = state
        self.actions = list(actions)

    # --- saves -----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The save as plain data (a local match only: an online match saves through its protocol)."""
        self._need_seed("be saved as a local match")
        body: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "seed": self.seed,
            "humans": sorted(self.humans),
            "names": list(self.names),
            "options": self.options,
            "actions": [str(a) for a in self.actions],
            "undone": [str(a) for a in self.undone],
        }
        # Written only when they differ from the classic game, so older saves keep their checksums.
        if not self.rules.is_classic:
            body["rules"] = self.rules.to_json()
        if self.declare_go:
            body["declare_go"] = True
        if self.first_dealer is not None:
            body["first_dealer"] = self.first_dealer
        if self.nonce is not None:  # a committed match (older saves have none and stay as they were)
            body["nonce"] = self.nonce
        return ENVELOPE.seal(body)

    def to_json(self) -> str:
        """The save as a JSON string."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> "Match":
        """Load a save, replaying every action; refuse anything doubtful with :class:`SaveError`."""
        return cls.from_dict(ENVELOPE.loads(text))

    @classmethod
    def from_dict(cls, data: Any) -> "Match":
        """Load a save from plain data (see :meth:`from_json`)."""
        f = Fields(ENVELOPE.check(data), "this save", SaveError)
        try:
            rules = Rules.from_json(f.raw("rules", None))
        except RulesError as exc:
            raise SaveError(f"this save's rules cannot be used: {exc}") from exc
        n = rules.players
        seed = f.int("seed", min=0, max=MAX_SEED)
        humans = f.list_of("humans", int, what="the save's list of human seats")
        if not all(0 <= h < n for h in humans):
            raise SaveError("the save's list of human seats is invalid")
        names = f.list_of("names", str, length=n, what="the save's player names")
        options = f.object("options", default={}, what="the save's options")
        texts = f.list_of("actions", str, what="the save's action list")
        undone_texts = f.list_of("undone", str, default=[], what="the save's action list")
        declare_go = f.bool("declare_go", default=False, what="the save's said-aloud Go setting")
        first_dealer = f.optional("first_dealer", lambda k: f.int(k, min=0, max=n - 1,
                                                                  what="the save's first dealer"))
        nonce = f.optional("nonce", lambda k: f.str(k, what="the save's commitment nonce"))
        if nonce is not None:
            from .fairness import FairnessError, check_nonce

            try:
                check_nonce(nonce)
            except FairnessError as exc:
                raise SaveError(f"this save's commitment cannot be used: {exc}") from exc
        try:
            match = cls(seed, humans, names, options, declare_go=declare_go, rules=rules, first_dealer=first_dealer)
            match.nonce = nonce
            for text in texts:
                action = parse_action(text)
                match.state.apply(action)
                match.actions.append(action)
            match.undone = [parse_action(t) for t in undone_texts]
            # The undone actions must replay from here, or redo would fail later.
            probe = match.new_state()
            for action in match.actions:
                probe.apply(action)
            for action in reversed(match.undone):
                probe.apply(action)
        except (ActionError, IllegalActionError) as exc:
            raise SaveError(f"this save holds an action that cannot be replayed: {exc}") from exc
        except (ValueError, TypeError) as exc:
            raise SaveError(f"this save cannot be loaded: {exc}") from exc
        return match

    @property
    def commitment(self) -> str | None:
        """The commitment to this match's deals (SHA-256, 64 hex digits), None when not committed."""
        if self.nonce is None or self.source is not None:
            return None
        from .fairness import commitment

        return commitment(self.seed, self.nonce)

    def __repr__(self) -> str:
        return f"<Match seed {self.seed} after {len(self.actions)} actions: {self.state!r}>"



def _checksum(body: dict[str, Any]) -> str:
    """The save's checksum (:meth:`Envelope.checksum_of <cribbage.savefile.Envelope.checksum_of>`)."""
    return ENVELOPE.checksum_of(body)

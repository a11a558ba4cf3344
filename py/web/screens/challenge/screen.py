"""Challenge a friend on the page: the link, the challenge match (a mode of its own) and the comparison.

The engine's part is :mod:`cribbage.challenge`; this module wires it to the table and is imported only
when a player first needs it (a ``#challenge=`` link or the saved challenge match at start, the
*Challenge a friend* button after a match against the computer).

- **The link** is ``PAGE?mode=challenge#challenge=TEXT``: the text is :meth:`Challenge.encode`, in
  the fragment, which the browser never sends to any server. The page reads it once at start
  (``params["challenge"]``) and takes it out of the address bar.
- **The challenge match** is :data:`MODE` (key ``challenge``), registered unlisted: no New game
  choice opens it, only a link. Its match is saved under its own keys (:data:`SAVE_KEY`, the
  challenge itself under :data:`TEXT_KEY`), so the player's match against the computer is kept.
  Same seed, rules and level as the original; every seat driver is wrapped in :class:`ForcedCuts`,
  which proposes the original's cut whenever one is due, so the person never sees a cut control while
  the original has cuts left. Undo, redo and restart are off (the mode says so; a notice tells the player).
- **The comparison** (:func:`cribbage.challenge.compare`) opens by itself when the challenge match
  ends, and from the game-over screen; *Send your result* makes the answered link, and opening an
  answered link shows the comparison over the player's own table without touching their saves.

:class:`ChallengeScreens` belongs to one controller, reached through a few hooks there (like the
record screens): :meth:`~ChallengeScreens.boot`, :meth:`~ChallengeScreens.handler` for the
``challenge*`` clicks, :meth:`~ChallengeScreens.scene` and :meth:`~ChallengeScreens.match_changed`.
"""

from __future__ import annotations

import json
import time
from typing import Callable, Generator, Mapping, Protocol

from cribbage.challenge import Challenge, ChallengeError, Comparison, compare_steps
from cribbage.actions import Discard
from cribbage.match import Match
from cribbage.view import SeatView

from web.sessions.registry import Mode, OpenContext, register
from web.sessions.newgame import LEVELS
from web.screens.challenge.view import CHALLENGE_DIALOG, ButtonSpec, ChallengeScene, invite_text, result_text
from web.sessions.seats import Computer, LocalHuman, Propose, Seat, SeatKind, warm_steps, warmed
from web.sessions.session import LocalSession, Session
from web.sessions.storage import Storage
from web.kit.caught import caught

__all__ = ["ChallengeScreens", "ChallengeSession", "ForcedCuts", "MODE", "KEY", "SAVE_KEY", "UI_KEY", "TEXT_KEY",
           "NAME_KEY", "link_of", "open_session", "Table"]

KEY = "challenge"
"""The mode's key (``?mode=challenge``, ``cribbage.mode``)."""
SAVE_KEY = "cribbage.save.challenge"
"""The challenge match (the friend's), apart from the match against the computer."""
UI_KEY = "cribbage.ui.challenge"
TEXT_KEY = "cribbage.challenge.current"
"""The challenge being played, as its link's text."""
NAME_KEY = "cribbage.challenge.name"
"""The name the player last gave a challenge or a result."""
COMPARE_MS = 30
"""Pause before the comparison is worked out, so the dialog is drawn first."""
COMPARE_SLICE_MS = 40.0
"""The longest piece of the comparison run in one go (the coach's look at one decision can take a
good part of a second in the page: it is worked out a hand at a time, the page answering between)."""


def link_of(page: str, text: str) -> str:
    """``page?mode=challenge#challenge=TEXT``."""
    return f"{page.split('#')[0].split('?')[0]}?mode={KEY}#challenge={text}"


class ForcedCuts:
    """A seat driver whose cuts are the original's while it has any left (see the module's text)."""

    def __init__(self, inner: Seat, challenge: Challenge, match: Match) -> None:
        self.inner = inner
        self.challenge = challenge
        self.match = match
        self.kind: SeatKind = inner.kind
        self.local = inner.local
        self.label = inner.label

    def on_turn(self, view: SeatView, propose: Propose) -> None:
        if not view.legal_actions:  # a stale prompt (another seat's forced cut came first)
            self.inner.cancel()
            return
        forced = self.challenge.forced_cut(self.match.actions, view.legal_actions)
        if forced is None:
            self.inner.on_turn(view, propose)
            return
        self.inner.cancel()
        propose(forced)

    def cancel(self) -> None:
        self.inner.cancel()

    @property
    def pending(self) -> bool:
        return self.inner.pending


class ChallengeSession(LocalSession):
    """A local session on a challenge match: the challenge it answers and the person's seat."""

    def __init__(self, challenge: Challenge, match: Match, seats: tuple[Seat, Seat], storage: Storage | None,
                 acked_hand: int) -> None:
        super().__init__(match, seats, storage, SAVE_KEY if storage is not None else None, UI_KEY, acked_hand)
        self.challenge = challenge
        self.perspective = challenge.seat
        """The seat that is "you" (the controller reads it)."""


def open_session(challenge: Challenge, match: Match, ctx: OpenContext, acked_hand: int,
                 save: bool = True) -> ChallengeSession:
    """The session of ``match`` (the friend's, on the challenge's deals): the computer at the
    challenge's level, every cut forced from the original while it has any."""

    def level() -> str:
        return challenge.level

    def seed() -> int:  # as against the computer (web.sessions.registry): the same choice from the same position
        return (match.seed * 1_000_003 + len(match.actions)) % (2**61)

    seats: list[Seat] = []
    for seat in (0, 1):
        inner: Seat = (LocalHuman(match.names[seat]) if seat in match.humans
                       else Computer(match.names[seat], ctx.timer, level, ctx.delay, seed))
        seats.append(ForcedCuts(inner, challenge, match))
    return ChallengeSession(challenge, match, (seats[0], seats[1]), ctx.storage if save else None, acked_hand)


def _stored_challenge(storage: Storage) -> Challenge | None:
    raw = storage.get(TEXT_KEY)
    if raw is None:
        return None
    try:
        return Challenge.decode(raw)
    except ChallengeError:
        return None


def _set_aside(ctx: OpenContext, key: str, raw: str) -> str:
    aside = f"{key}.corrupt.{ctx.now_ms()}"
    try:
        ctx.storage.set(aside, raw)
    except Exception as exc:  # noqa: BLE001 - a full or blocked storage
        caught("screens.challenge.screen._set_aside", exc)
        return "(it could not be copied)"
    return aside


def _resume(mode: Mode, ctx: OpenContext) -> tuple[Session | None, str | None]:
    """Reopen the saved challenge match (a save that cannot be read is set aside, never lost)."""
    challenge = _stored_challenge(ctx.storage)
    raw = ctx.storage.get(SAVE_KEY)
    if challenge is None or raw is None:
        return None, None
    try:
        match = Match.from_json(raw)
        if (match.seed != challenge.original.seed or match.rules != challenge.original.rules
                or sorted(match.humans) != [challenge.seat]):
            raise ValueError("it was not played on this challenge's deals")
    except Exception as exc:  # noqa: BLE001 - any unreadable save is set aside, never lost
        caught("screens.challenge.screen._resume", exc)
        aside = _set_aside(ctx, SAVE_KEY, raw)
        return None, (f"Your challenge match could not be read, so the challenge starts again. A copy of the "
                      f"old one was kept in this browser.\nWhy: {exc or type(exc).__name__}. The copy is stored as "
                      f"\u201c{aside}\u201d.")
    ack = 0
    try:
        raw_ui = ctx.storage.get(UI_KEY)
        value = json.loads(raw_ui).get("ack", 0) if raw_ui else 0
        ack = value if isinstance(value, int) else 0
    except Exception as exc:  # noqa: BLE001 - the acknowledgement is a convenience
        caught("screens.challenge.screen._resume", exc)
        ack = 0
    return open_session(challenge, match, ctx, ack), None


def _new(mode: Mode, ctx: OpenContext, seed: int, level: str) -> Session:
    """The stored challenge from its start (after a save that could not be read)."""
    challenge = _stored_challenge(ctx.storage)
    if challenge is None:  # nothing to replay: a plain match against the computer, not saved here
        match = Match(seed, humans=(0,), names=("You", "Computer"), options={"level": level})
        seats = (LocalHuman("You"), Computer("Computer", ctx.timer, lambda: level, ctx.delay, lambda: seed))
        return LocalSession(match, seats)
    session = open_session(challenge, challenge.new_match("You"), ctx, -1)
    session.save()
    return session


MODE = Mode(
    key=KEY, label="A friend\u2019s challenge", resume_label="Resume the challenge", title="Challenge",
    names=("You", "Computer"), humans=(0,), perspective=0, save_key=SAVE_KEY, ui_key=UI_KEY, cover=False,
    undo=False, restart=False, computer=False,
    start_sentence="A friend\u2019s challenge: the same deals as their match. Cut for deal.",
    new=_new, resume=_resume)
register(MODE, listed=False)


# --- the controller's side ------------------------------------------------------------------------


class _Host(Protocol):
    def announce(self, text: str) -> None: ...
    def later(self, ms: int, fn: Callable[[], None]) -> object: ...


class _Screen(Protocol):
    dialog: str | None
    focus: str | None
    notice: str | None


class Table(Protocol):
    """What the challenge screens need of the table they belong to (the controller, which is not
    imported here: it imports this module on first use)."""

    @property
    def host(self) -> _Host: ...
    @property
    def storage(self) -> Storage: ...
    @property
    def params(self) -> dict[str, str]: ...
    @property
    def match(self) -> Match: ...
    @property
    def mode(self) -> str: ...
    @property
    def session(self) -> Session: ...
    @property
    def ui(self) -> _Screen: ...
    def refresh(self) -> None: ...
    def _set_dialog(self, dialog: str | None) -> None: ...
    def cover_for(self) -> int | None: ...


def _intro(challenge: Challenge) -> str:
    name = challenge.name
    return (f"{name} challenges you to the same deals: {name}\u2019s match against the "
            f"{challenge.level.capitalize()} computer. Every cut is made for you as in {name}\u2019s match, so "
            f"you are dealt the same cards; undo, redo and restart are off in a challenge. At the end you "
            f"see both matches hand by hand.")


class ChallengeScreens:
    """The challenge dialog's state and actions, for one controller."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.page = ""
        self.link = ""
        self.message = ""
        self.shown: Challenge | None = None
        """An answered challenge opened from a link (compared over the player's own table)."""
        self._compared: tuple[object, Comparison | None, str | None] | None = None
        """(what was compared, the comparison, or why not)."""
        self._timer: object | None = None
        self._run: tuple[object, Generator[None, None, Comparison]] | None = None
        """The comparison being worked out: (what is compared, its steps)."""
        self._was_over: bool | None = None
        """Was the challenge match over when this page first saw it (then it does not open by itself)."""
        self._intro: str | None = None
        """The challenge's introduction while it is shown: it goes once the player has made a move."""

    # --- start ------------------------------------------------------------------------------------

    def boot(self, text: str | None, stored: str | None) -> str | None:
        """Prepare the page's start for a ``#challenge=`` link (``text``) or the saved challenge match;
        the key of the mode to open (``stored``: the mode saved last)."""
        own = stored if stored != KEY else None
        storage = self.table.storage
        if text is None:  # ?mode=challenge, or the challenge match was the last played
            return KEY if _stored_challenge(storage) is not None else own
        try:
            challenge = Challenge.decode(text)
        except ChallengeError as exc:
            self.table.ui.notice = f"This challenge link cannot be used: {exc}. Nothing saved has changed."
            return stored
        if challenge.level not in LEVELS:
            self.table.ui.notice = ("This challenge link cannot be used: its computer level is not one of this "
                                    "game's. Nothing saved has changed.")
            return stored
        if challenge.reply is not None:  # an answer: compared over the player's own table
            self.shown = challenge
            self.page = "compare"
            return stored
        current = _stored_challenge(storage)
        if current is not None and current.original.to_dict() == challenge.original.to_dict() \
                and storage.get(SAVE_KEY) is not None:
            return KEY  # the same challenge again: carry on with it
        notice = _intro(challenge)
        if current is not None:
            raw = storage.get(SAVE_KEY)
            try:
                unfinished = raw is not None and not Match.from_json(raw).state.is_over
            except Exception as exc:  # noqa: BLE001 - an unreadable match is nothing to carry on
                caught("screens.challenge.screen.ChallengeScreens.boot", exc)
                unfinished = False
            if unfinished:
                notice += f" (Your unfinished challenge from {current.name} was replaced by this one.)"
        try:
            storage.set(TEXT_KEY, challenge.encode())
            storage.set(SAVE_KEY, challenge.new_match("You").to_json())
            storage.set(UI_KEY, json.dumps({"ack": -1}))
        except Exception as exc:  # noqa: BLE001 - a full or blocked storage
            caught("screens.challenge.screen.ChallengeScreens.boot", exc)
            self.table.ui.notice = (
                "This challenge could not be stored in this browser (its storage is full or blocked)."
            )
            return stored
        self.table.ui.notice = notice
        self._intro = notice
        return KEY

    # --- hooks ------------------------------------------------------------------------------------

    def match_changed(self) -> None:
        """After every change: open the comparison when a challenge match has just ended, or the
        answered challenge of the link once the table is there."""
        table = self.table
        if self.shown is not None and self.page == "compare" and table.ui.dialog is None and self._was_over is None:
            self._was_over = True  # the link's answer, once, at start
            self._open("compare")
            return
        if table.mode != KEY:
            return
        self._retire_intro()
        over = table.match.state.is_over
        if self._was_over is None:
            self._was_over = over
            return
        if over and not self._was_over:
            self._was_over = True
            self.shown = None
            self._open("compare")
        elif not over:
            self._was_over = False

    def _retire_intro(self) -> None:
        """The introduction has been read once the player has made a move of their own (a discard: the
        cuts are made for them): it leaves the table instead of staying above it all match."""
        table = self.table
        if self._intro is None:
            return
        if table.ui.notice != self._intro:
            self._intro = None  # dismissed, or another notice took its place
            return
        mine = set(table.match.humans)
        if any(isinstance(a, Discard) and a.seat in mine for a in table.match.actions):
            table.ui.notice = None
            self._intro = None
            table.refresh()

    def actions(self) -> Mapping[str, Callable[[dict[str, str]], None]]:
        """Every control of this part, each with its handler (:class:`web.shell.screen.Part`)."""
        return {
            "challenge-open": self._on_open,
            "challenge-make": self._on_make,
            "challenge-compare": self._on_compare,
            "challenge-send": self._on_send,
            "challenge-answer": self._on_answer,
        }

    def _challenge(self) -> Challenge | None:
        """The challenge of the match on the table (a challenge match), else None."""
        challenge = getattr(self.table.session, "challenge", None)
        return challenge if isinstance(challenge, Challenge) else None

    def scene(self) -> ChallengeScene | None:
        """What the challenge screens draw now (None: nothing of theirs)."""
        table = self.table
        mine = self._challenge() if table.mode == KEY else None
        dialog = table.ui.dialog == CHALLENGE_DIALOG
        if mine is None and not dialog:
            return None
        cs = ChallengeScene(name=self._name(), link=self.link, message=self.message)
        if mine is not None:
            cs.title = f"Challenge from {mine.name} \u00b7 {mine.level.capitalize()}"
            if table.match.state.is_over:
                cs.can_send = True
                cs.buttons = (
                    ButtonSpec("btn-compare", f"Compare with {mine.name}", "challenge-compare", True, "Enter"),
                    ButtonSpec("btn-send", "Send your result", "challenge-send"),
                    ButtonSpec("btn-own-game", "Play the computer", "resume", data=(("mode", "computer"),)),
                )
        if not dialog:
            return cs
        cs.page = self.page
        pair = self._pair()
        if pair is not None:
            challenge, other, names = pair
            cs.names, cs.seat, cs.level, cs.rules = names, challenge.seat, challenge.level, challenge.original.rules
            if self.page == "compare":
                found = self._compared
                key = (id(challenge), id(other), len(other.actions))
                if found is None or found[0] != key:
                    cs.pending = True
                    self._schedule()
                else:
                    cs.comparison, cs.problem = found[1], found[2]
            cs.can_send = cs.can_send and self.shown is None
        elif self.page == "compare":
            cs.problem = "There is no challenge to compare."
        return cs

    def _pair(self) -> tuple[Challenge, Match, tuple[str, str]] | None:
        """(the challenge, the match compared with its original, both players' names)."""
        if self.shown is not None and self.shown.reply is not None:
            return self.shown, self.shown.reply, (self.shown.name, self.shown.reply_name)
        mine = self._challenge() if self.table.mode == KEY else None
        if mine is not None:
            return mine, self.table.match, (mine.name, "You")
        return None

    def _schedule(self) -> None:
        if self._timer is None:
            self._timer = self.table.host.later(COMPARE_MS, self._work)

    @staticmethod
    def _steps(challenge: Challenge, other: Match) -> Generator[None, None, Comparison]:
        if not warmed():  # the coach and its tables, a piece at a time, if the idle warm-up has not
            for _ in warm_steps():
                yield
        return (yield from compare_steps(challenge.original, other, challenge.seat))

    def _work(self) -> None:
        """Compare the two matches for at most :data:`COMPARE_SLICE_MS`, then again on the next timer
        (the coach looks at each hand's first different decision)."""
        self._timer = None
        pair = self._pair()
        if pair is None:
            self._run = None
            return
        challenge, other, _ = pair
        key = (id(challenge), id(other), len(other.actions))
        if self._run is None or self._run[0] != key:
            self._run = (key, self._steps(challenge, other))
        steps = self._run[1]
        end = time.perf_counter() + COMPARE_SLICE_MS / 1000
        result: Comparison | None = None
        problem: str | None = None
        try:
            while True:
                try:
                    next(steps)
                except StopIteration as stop:
                    result = stop.value
                    break
                if time.perf_counter() >= end:
                    self._timer = self.table.host.later(0, self._work)
                    return
        except Exception as exc:  # noqa: BLE001 - a comparison that fails must not stop the page
            caught("screens.challenge.screen.ChallengeScreens._work", exc)
            result, problem = None, f"The two matches could not be compared ({exc})."
        self._run = None
        self._compared = (key, result, problem)
        if self.table.ui.dialog == CHALLENGE_DIALOG:
            self.table.refresh()
            if problem is None and result is not None:
                self.table.host.announce(f"{len(result.lines)} hands compared.")

    # --- actions ----------------------------------------------------------------------------------

    def _name(self) -> str:
        try:
            return self.table.storage.get(NAME_KEY) or ""
        except Exception as exc:  # noqa: BLE001
            caught("screens.challenge.screen.ChallengeScreens._name", exc)
            return ""

    def _keep_name(self, name: str) -> str:
        name = " ".join(name.split())[:40]
        if name:
            try:
                self.table.storage.set(NAME_KEY, name)
            except Exception as exc:  # noqa: BLE001 - the name is a convenience
                caught("screens.challenge.screen.ChallengeScreens._keep_name", exc)
        return name or "A friend"

    def _open(self, page: str, focus: str | None = None) -> None:
        self.page = page
        self.link = self.message = ""
        self.table._set_dialog(CHALLENGE_DIALOG)
        self.table.ui.focus = focus or "btn-close"
        self.table.refresh()

    def _page_url(self) -> str:
        return self.table.params.get("page", "./")

    def _on_open(self, data: dict[str, str]) -> None:
        """Challenge a friend with the match just finished against the computer."""
        table = self.table
        if table.cover_for() is not None or not table.match.state.is_over or table.mode != "computer":
            return
        try:
            Challenge.from_match(table.match, "A friend")
        except ChallengeError as exc:
            table.host.announce(f"This match cannot be a challenge: {exc}.")
            return
        self.shown = None
        self._open("make", "challenge-name")

    def _on_make(self, data: dict[str, str]) -> None:
        table = self.table
        if table.ui.dialog != CHALLENGE_DIALOG or self.page != "make":
            return
        name = self._keep_name(data.get("value", ""))
        try:
            challenge = Challenge.from_match(table.match, name)
        except ChallengeError as exc:
            table.host.announce(f"This match cannot be a challenge: {exc}.")
            return
        st = table.match.state
        self.link = link_of(self._page_url(), challenge.encode())
        self.message = invite_text(st.scores, challenge.seat, st.winner == challenge.seat, challenge.level,
                                   challenge.original.rules, self.link)
        table.ui.focus = "btn-copy-challenge"
        table.refresh()
        table.host.announce("The link is ready: copy it and send it to your friend.")

    def _on_compare(self, data: dict[str, str]) -> None:
        if self._pair() is None or (self.shown is None and not self.table.match.state.is_over):
            return  # mid-match, the original's hands would give away what is still to come
        self._open("compare")

    def _on_send(self, data: dict[str, str]) -> None:
        if self.table.mode != KEY or self._challenge() is None or not self.table.match.state.is_over:
            return
        self.shown = None
        self._open("send", "challenge-reply-name")

    def _on_answer(self, data: dict[str, str]) -> None:
        table = self.table
        challenge = self._challenge() if table.mode == KEY else None
        if challenge is None or self.page != "send" or not table.match.state.is_over:
            return
        name = self._keep_name(data.get("value", ""))
        try:
            answered = challenge.answer(table.match, name)
        except ChallengeError as exc:
            table.host.announce(f"The result cannot be sent: {exc}.")
            return
        self.link = link_of(self._page_url(), answered.encode())
        self.message = result_text(table.match.state.scores, challenge.original.state.scores, challenge.seat,
                                   challenge.level, self.link)
        table.ui.focus = "btn-copy-challenge"
        table.refresh()
        table.host.announce(f"The link is ready: copy it and send it to {challenge.name}.")

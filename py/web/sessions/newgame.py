"""The New game dialog's choice as one typed value: who sits where, the table's rules, a series.

A :class:`NewGame` is pure data: its seats (each :class:`SeatChoice` is *you*, *another player on
this device* or *the computer* at a level), the engine's :class:`~cribbage.rules.Rules` and a
:class:`~cribbage.series.SeriesRules` (``first_to == 1``: no series). It validates itself
(:meth:`NewGame.problems`, sentences for the player), turns into a :class:`~cribbage.match.Match`
(:meth:`NewGame.match`: humans, names, the computer's level per seat in the options), reads and
writes the URL's options (:func:`from_query`, :meth:`NewGame.to_query`) and the browser's storage
(:data:`CHOICE_KEY`: the choice is remembered and preselected next time), and is edited one control
at a time by :func:`edit`, which never raises (a value it cannot use leaves the choice unchanged).

The URL options (docs/playing.md documents them)::

    ?players=3&seats=you,expert,medium&to=61&rules=pack2,muggins,play-muggins,recut&series=3

``seats`` lists every seat clockwise from yours: ``you`` (first, the bottom of the table),
``player`` (another player on this device) or a computer's level (``easy``, ``medium``,
``expert``; ``computer`` is the expert). ``series=N`` is best of N games (odd; first to N // 2 + 1),
followed by optional words: ``alternate`` (the first deal alternates instead of going to the loser),
``noskunks`` (a skunk counts one game), ``double4`` (a double skunk counts four), ``lurch`` (the
lurch instead of skunks). The older options keep working: ``?mode=hotseat`` without ``seats`` is
two players on one device, ``?level=`` sets every computer without ``seats``.

Which tables the page can draw today is :data:`COMING_SOON` (one place): a choice needing one of
them is shown, not offered, with its note.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Callable, Literal, Mapping, TypeVar

from cribbage.match import Match
from cribbage.rules import CLASSIC, Rules, RulesError
from cribbage.series import SeriesRules
from web.kit.caught import caught

__all__ = ["SeatChoice", "NewGame", "PRESETS", "PRESET_LABELS", "DEFAULT", "CHOICE_KEY", "LEVELS", "SERIES_LENGTHS",
           "COMING_SOON", "from_query", "from_json", "edit", "preset_of", "coming_soon", "remembered",
           "remember", "QUERY_KEYS", "levels_of", "read_choice", "keep_choice", "RULE_WORDS", "parse_series"]

T = TypeVar("T")

SeatKind = Literal["you", "player", "computer"]
LEVELS = ("easy", "medium", "expert")
"""The computer's levels (as in the menu)."""
CHOICE_KEY = "cribbage.newgame"
"""Where the last choice is remembered (JSON of :meth:`NewGame.to_json`)."""
SERIES_LENGTHS = (1, 3, 5, 7)
"""Series the dialog offers: a single game, best of 3, 5 or 7."""
QUERY_KEYS = ("players", "seats", "to", "rules", "series")
"""The URL options that choose a table."""
RULE_WORDS: dict[str, dict[str, Any]] = {"pack2": {"crib_from_pack": 2}, "muggins": {"muggins": True},
                                         "play-muggins": {"play_muggins": True},
                                         "recut": {"recut_tens": True}, "to61": {"target": 61}}
"""``rules=`` words, the one list (the online room's words too, :mod:`web.sessions.online.peer`; the link's
check, :mod:`web.shell.link_options`): ``to61`` is also ``to=61``. Adding a word is one line here."""
COMING_SOON: dict[str, str] = {}
"""What the page cannot play yet, with its note: the dialog shows these choices disabled. Remove a
key once the table draws it; the model, the URL and the sessions already handle every table."""


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """Who plays one seat."""

    kind: SeatKind
    level: str = "expert"
    """The computer's level (kept for the others too, so switching back restores it)."""

    @property
    def token(self) -> str:
        """``you``, ``player`` or the computer's level (the URL's and the save's word)."""
        return self.level if self.kind == "computer" else self.kind

    @classmethod
    def parse(cls, token: str) -> "SeatChoice":
        """A seat from its word; ValueError for anything else."""
        word = token.strip().lower()
        if word in ("you", "player"):
            return cls(word)  # type: ignore[arg-type]
        if word == "computer":
            return cls("computer", "expert")
        if word in LEVELS:
            return cls("computer", word)
        raise ValueError(f"unknown seat {token[:20]!r} (you, player, easy, medium, expert)")


YOU = SeatChoice("you")
PLAYER = SeatChoice("player")


def _cpu(level: str = "expert") -> SeatChoice:
    return SeatChoice("computer", level)


@dataclass(frozen=True, slots=True)
class NewGame:
    """One choice of the New game dialog."""

    seats: tuple[SeatChoice, ...] = (YOU, _cpu())
    """Clockwise from yours: seat 0 is you, at the bottom of the table; with four, seat 2 is your partner."""
    rules: Rules = CLASSIC
    series: SeriesRules = SeriesRules()
    """``first_to == 1``: a single game, no series."""

    # --- who plays ---------------------------------------------------------------------------------

    @property
    def humans(self) -> tuple[int, ...]:
        """Seats played by people on this device."""
        return tuple(i for i, s in enumerate(self.seats) if s.kind != "computer")

    @property
    def computers(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.kind == "computer")

    @property
    def perspective(self) -> int | None:
        """The seat drawn at the bottom: yours when you play alone; None when the device passes (hot-seat)."""
        return 0 if len(self.humans) == 1 else None

    @property
    def mode_key(self) -> str:
        """The way to play it opens: ``computer`` or ``hotseat`` (two players), ``table`` (three or four)."""
        if self.rules.players != 2:
            return "table"
        return "computer" if len(self.humans) == 1 else "hotseat"

    @property
    def is_series(self) -> bool:
        return self.series.first_to > 1

    def names(self) -> tuple[str, ...]:
        """The seats' names: "You" and "Computer" against the computer; "Player 1"… when the device
        passes; computers at three or four by where they sit (you are South)."""
        n = len(self.seats)
        passing = len(self.humans) > 1
        compass = {2: ("South", "North"), 3: ("South", "West", "East"), 4: ("South", "West", "North", "East")}[n]
        out = []
        for i, seat in enumerate(self.seats):
            if seat.kind != "computer":
                out.append(f"Player {self.humans.index(i) + 1}" if passing else "You")
            elif n == 2:
                out.append("Computer")
            elif n == 4 and i == 2 and not passing:
                out.append("Partner")
            else:
                out.append(compass[i])
        return tuple(out)

    def options(self) -> dict[str, Any]:
        """The match's options: ``level`` (the first computer's, or the only one), and ``levels`` by
        seat only when the computers' levels differ (a two-player save reads as it always did)."""
        levels = {i: self.seats[i].level for i in self.computers}
        first = levels[self.computers[0]] if self.computers else self.seats[0].level
        out: dict[str, Any] = {"level": first if first in LEVELS else "expert"}
        if len(set(levels.values())) > 1:
            out["levels"] = {str(i): lv for i, lv in levels.items()}
        return out

    def match(self, seed: int, first_dealer: int | None = None) -> Match:
        """The match this choice plays (a series' next game passes its first dealer)."""
        return Match(seed, humans=self.humans, names=self.names(), options=self.options(), rules=self.rules,
                     first_dealer=first_dealer)

    # --- checks ------------------------------------------------------------------------------------

    def problems(self) -> tuple[str, ...]:
        """Why this choice cannot be played, in sentences (empty: it can)."""
        out = []
        if len(self.seats) != self.rules.players:
            out.append(f"A table of {self.rules.players} needs {self.rules.players} seats, not {len(self.seats)}.")
        kinds = [s.kind for s in self.seats]
        if kinds.count("you") != 1 or (kinds and kinds[0] != "you"):
            out.append("You sit in the first seat, and nobody else is \u201cyou\u201d.")
        if any(s.level not in LEVELS for s in self.seats):
            out.append("A computer plays at easy, medium or expert.")
        if self.rules.players == 4 and not self.rules.partners:  # pragma: no cover - Rules normalises it
            out.append("Four players play as partners sitting opposite.")
        return tuple(out)

    def features(self) -> tuple[str, ...]:
        """What of the table the page must draw: keys of :data:`COMING_SOON` among them."""
        out = []
        if self.rules.players == 3:
            out.append("three")
        if self.rules.players == 4:
            out.append("four")
        if self.rules.crib_from_pack == 2:
            out.append("pack2")
        if self.rules.muggins:
            out.append("muggins")
        return tuple(out)

    # --- words ---------------------------------------------------------------------------------------

    def describe(self) -> str:
        """The preview: ``"You against the computer (expert), to 61; best of 3 games (first to 2)…"``."""
        names = self.names()
        n = self.rules.players

        def who(i: int) -> str:
            s = self.seats[i]
            if s.kind == "computer":
                return f"the computer ({s.level})" if names[i] == "Computer" else f"{names[i]} (computer, {s.level})"
            return "you" if names[i] == "You" else names[i]

        if n == 4:
            sides = [" and ".join(who(i) for i in (0, 2)), " and ".join(who(i) for i in (1, 3))]
            table = f"{sides[0][:1].upper()}{sides[0][1:]}, partners sitting opposite, against {sides[1]}"
        else:
            people = [who(i) for i in range(n)]
            table = f"{people[0][:1].upper()}{people[0][1:]} against " + " and ".join(people[1:])
        if len(self.humans) > 1:
            table += ", passing this device"
        words = [f"to {self.rules.target}"]
        if self.rules.crib_from_pack == 2:
            words.append("two cards dealt to the crib")
        if self.rules.muggins:
            words.append("muggins")
        if self.rules.play_muggins:
            words.append("muggins in the play")
        if self.rules.recut_tens:
            words.append("cut again on tens")
        parts = [f"{table}, {', '.join(words)}",
                 series_words(self.series, self.rules) if self.is_series else "one game"]
        return "; ".join(parts) + "."

    # --- plain data ----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"v": 1, "seats": [s.token for s in self.seats], "rules": self.rules.to_json(),
                "series": self.series.to_json()}

    def to_query(self) -> str:
        """The URL options naming this choice (defaults left out: ``players=2`` and ``to=121``)."""
        parts = []
        if self.rules.players != 2:
            parts.append(f"players={self.rules.players}")
        parts.append("seats=" + ",".join(s.token for s in self.seats))
        if self.rules.target != 121:
            parts.append(f"to={self.rules.target}")
        words = [w for w, c in RULE_WORDS.items() if w != "to61"
                 and all(getattr(self.rules, k) == v for k, v in c.items())]
        if words:
            parts.append("rules=" + ",".join(words))
        if self.is_series:
            parts.append("series=" + ",".join([str(2 * self.series.first_to - 1), *_series_flags(self.series)]))
        return "&".join(parts)


def series_words(series: SeriesRules, rules: Rules) -> str:
    """``"best of 3 games (first to 2), a skunk counts 2 and a double skunk 3; the loser deals first next"``."""
    n = series.first_to
    head = f"best of {2 * n - 1} games (first to {n})"
    if series.lurch:
        count = f"the lurch (a loser below {rules.lurch_line}) counts 2"
    elif series.skunks:
        count = "a skunk counts 2" + ("" if rules.double_skunk_line is None else
                                      f" and a double skunk {series.double_skunk}")
    else:
        count = "skunks count as plain wins"
    deal = ("the first deal alternates (the cut decides every other game)" if series.next_dealer == "alternate"
            else "the loser of a game deals first in the next")
    return f"{head}, {count}; {deal}"


def _series_flags(series: SeriesRules) -> list[str]:
    out = []
    if series.next_dealer == "alternate":
        out.append("alternate")
    if not series.skunks:
        out.append("noskunks")
    if series.double_skunk == 4:
        out.append("double4")
    if series.lurch:
        out.append("lurch")
    return out


DEFAULT = NewGame()
"""You against the expert, classic rules, one game."""

PRESETS: dict[str, NewGame] = {
    "computer": DEFAULT,
    "hotseat": NewGame((YOU, PLAYER)),
    "three": NewGame((YOU, _cpu(), _cpu()), Rules(players=3)),
    "partner": NewGame((YOU, _cpu(), _cpu(), _cpu()), Rules(players=4)),
    "partners": NewGame((YOU, PLAYER, PLAYER, PLAYER), Rules(players=4)),
}
"""The dialog's presets (seats only: choosing one keeps the house rules that still apply)."""
PRESET_LABELS: dict[str, str] = {
    "computer": "You against the computer",
    "hotseat": "Two players on this device",
    "three": "Three players (you and two computers)",
    "partner": "You and a computer partner against two computers",
    "partners": "Two partnerships on this device",
}


def preset_of(game: NewGame) -> str | None:
    """The preset whose seats this choice has (levels aside), or None (a choice of your own)."""
    kinds = tuple(s.kind for s in game.seats)
    for key, preset in PRESETS.items():
        if tuple(s.kind for s in preset.seats) == kinds:
            return key
    return None


def coming_soon(game: NewGame) -> tuple[str, ...]:
    """The notes of what this choice needs that the page cannot draw yet (empty: it can be played)."""
    return tuple(COMING_SOON[f] for f in game.features() if f in COMING_SOON)


def levels_of(options: Mapping[str, Any], players: int) -> tuple[str, ...]:
    """Each seat's computer level from a match's options (``levels`` by seat, else ``level``)."""
    base = options.get("level")
    base = base if isinstance(base, str) and base in LEVELS else "expert"
    by_seat = options.get("levels")
    by_seat = by_seat if isinstance(by_seat, Mapping) else {}
    out = []
    for seat in range(players):
        lv = by_seat.get(str(seat))
        out.append(lv if isinstance(lv, str) and lv in LEVELS else base)
    return tuple(out)


# --- changing the choice ---------------------------------------------------------------------------


def _resize(seats: tuple[SeatChoice, ...], n: int) -> tuple[SeatChoice, ...]:
    """``n`` seats: the first kept, new ones played by a computer at the level of the last computer."""
    level = next((s.level for s in reversed(seats) if s.kind == "computer"), "expert")
    return tuple(seats[:n]) + tuple(_cpu(level) for _ in range(n - len(seats)))


def with_players(game: NewGame, n: int) -> NewGame:
    """The choice for ``n`` players: seats added (computers) or dropped, the rules' table changed
    (two cards to the crib only stays with two)."""
    if n == game.rules.players or n not in (2, 3, 4):
        return game
    rules = game.rules.with_(players=n)
    return replace(game, seats=_resize(game.seats, n), rules=rules)


def edit(game: NewGame, field: str, choice: str) -> NewGame:
    """The choice after one control of the dialog: (field, choice) as its markup names them. Never
    raises: anything it cannot use leaves ``game`` as it was."""
    try:
        return _edit(game, field, choice)
    except (ValueError, RulesError, IndexError, KeyError):
        return game


def _edit(game: NewGame, field: str, choice: str) -> NewGame:
    if field == "preset":
        preset = PRESETS[choice]
        moved = with_players(game, preset.rules.players)
        levels = [s.level for s in game.seats if s.kind == "computer"] or ["expert"]
        seats = tuple(_cpu(levels[min(i, len(levels) - 1)]) if s.kind == "computer" else s
                      for i, s in enumerate(preset.seats))
        return replace(moved, seats=seats)
    if field == "players":
        return with_players(game, int(choice))
    if field.startswith("seat-"):
        index = int(field[5:])
        if not 1 <= index < len(game.seats):
            return game
        seat = SeatChoice.parse(choice)
        if seat.kind == "you":
            return game
        changed = list(game.seats)
        changed[index] = seat
        return replace(game, seats=tuple(changed))
    if field == "to":
        return replace(game, rules=game.rules.with_(target=int(choice)))
    if field in ("pack2", "muggins", "play-muggins", "recut"):
        on = choice == "on"
        changes: dict[str, dict[str, Any]] = {"pack2": {"crib_from_pack": 2 if on else 0}, "muggins": {"muggins": on},
                  "play-muggins": {"play_muggins": on},
                  "recut": {"recut_tens": on}}
        return replace(game, rules=game.rules.with_(**changes[field]))
    if field == "series":
        games = int(choice)
        if games not in SERIES_LENGTHS:
            return game
        return replace(game, series=replace(game.series, first_to=games // 2 + 1))
    if field == "skunks":
        flags: dict[str, Any] = {
            "3": dict(skunks=True, double_skunk=3, lurch=False),
            "4": dict(skunks=True, double_skunk=4, lurch=False),
            "lurch": dict(skunks=True, double_skunk=3, lurch=True),
            "off": dict(skunks=False, double_skunk=3, lurch=False),
        }[choice]
        return replace(game, series=replace(game.series, **flags))
    if field == "deal":
        if choice not in ("loser", "alternate"):
            return game
        return replace(game, series=replace(game.series, next_dealer=choice))  # type: ignore[arg-type]
    return game


def skunk_choice(series: SeriesRules) -> str:
    """The dialog's skunk radio for these series rules: ``3``, ``4``, ``lurch`` or ``off``."""
    if series.lurch:
        return "lurch"
    if not series.skunks:
        return "off"
    return str(series.double_skunk)


# --- reading it back -------------------------------------------------------------------------------


def from_json(data: Any) -> NewGame:
    """A choice from :meth:`NewGame.to_json`'s data; ValueError (a sentence) for anything else."""
    if not isinstance(data, Mapping) or data.get("v") != 1 or not isinstance(data.get("seats"), list):
        raise ValueError("not a remembered New game choice")
    seats = tuple(SeatChoice.parse(str(t)) for t in data["seats"])
    game = NewGame(seats, Rules.from_json(data.get("rules")), SeriesRules.from_json(data.get("series")))
    problems = game.problems()
    if problems:
        raise ValueError(problems[0])
    return game


def read_choice(storage: Any, key: str, parse: Callable[[Any], T], default: T) -> T:
    """A choice kept as JSON under ``key`` of ``storage`` (a :class:`~web.sessions.storage.Storage`),
    read by ``parse``; ``default`` if there is none or it cannot be read (a remembered choice is a
    convenience: a damaged one is forgotten, never an error)."""
    try:
        raw = storage.get(key)
        return parse(json.loads(raw)) if raw else default
    except Exception as exc:  # noqa: BLE001
        caught("sessions.newgame.read_choice", exc)
        return default


def keep_choice(storage: Any, key: str, data: Any) -> None:
    """Keep ``data`` (JSON) under ``key`` for next time (a full storage only loses the convenience)."""
    try:
        storage.set(key, json.dumps(data, separators=(",", ":")))
    except Exception as exc:  # noqa: BLE001
        caught("sessions.newgame.keep_choice", exc)


def remembered(storage: Any) -> NewGame:
    """The last choice kept in ``storage``, or the default one."""
    return read_choice(storage, CHOICE_KEY, from_json, DEFAULT)


def remember(storage: Any, game: NewGame) -> None:
    """Keep ``game`` as the choice to preselect next time."""
    keep_choice(storage, CHOICE_KEY, game.to_json())


def from_query(params: Mapping[str, str], base: NewGame = DEFAULT) -> tuple[NewGame | None, tuple[str, ...]]:
    """The choice the URL's options name, starting from ``base`` (the remembered one), and what of
    them could not be used (sentences). None when the URL names no table (``mode``/``level`` alone
    keep their old meaning: the caller applies them)."""
    if not any(params.get(k) for k in QUERY_KEYS):
        return None, ()
    problems: list[str] = []
    game = base
    mode, level = params.get("mode", ""), params.get("level", "")
    if mode == "hotseat" and not params.get("seats"):
        game = replace(game, seats=_resize((YOU, PLAYER), game.rules.players))
    if mode == "computer" and not params.get("seats") and preset_of(game) == "hotseat":
        game = replace(game, seats=(YOU, _cpu()))
    if level in LEVELS and not params.get("seats"):
        game = replace(game, seats=tuple(_cpu(level) if s.kind == "computer" else s for s in game.seats))
    players = params.get("players", "")
    if players:
        if players in ("2", "3", "4"):
            game = with_players(game, int(players))
        else:
            problems.append(f"players is 2, 3 or 4, not {players[:10]!r}.")
    seats_text = params.get("seats", "")
    if seats_text:
        try:
            seats = tuple(SeatChoice.parse(t) for t in seats_text.split(","))
            if not players and len(seats) in (2, 3, 4):
                game = with_players(game, len(seats))
            game = replace(game, seats=seats)
        except ValueError as exc:
            problems.append(f"{exc}.")
    rules = game.rules
    target = params.get("to", "")
    if target:
        try:
            rules = rules.with_(target=int(target))
        except (ValueError, RulesError):
            problems.append(f"a game is to 121 or 61, not {target[:10]!r}.")
    for word in (w.strip().lower() for w in params.get("rules", "").split(",")):
        if not word or word == "classic":
            continue
        if word not in RULE_WORDS:
            problems.append(f"unknown rule {word[:20]!r} ({', '.join(w for w in RULE_WORDS if w != 'to61')}).")
            continue
        try:
            rules = rules.with_(**RULE_WORDS[word])
        except RulesError as exc:
            problems.append(f"{exc}.")
    game = replace(game, rules=rules)
    series_text = params.get("series", "")
    if series_text:
        try:
            game = replace(game, series=parse_series(series_text))
        except (ValueError, RulesError) as exc:
            problems.append(f"{exc}.")
    found = game.problems()
    if found:
        return None, (*problems, *found)
    return game, tuple(problems)


def parse_series(text: str) -> SeriesRules:
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    if not words or words[0] in ("off", "1", "no"):
        return SeriesRules()
    if not words[0].isdigit():
        raise ValueError(f"series is the number of games (best of 3, 5…), not {words[0][:10]!r}")
    options: dict[str, Any] = {}
    for w in words[1:]:
        if w == "alternate":
            options["next_dealer"] = "alternate"
        elif w == "noskunks":
            options["skunks"] = False
        elif w == "double4":
            options["double_skunk"] = 4
        elif w == "lurch":
            options["lurch"] = True
        else:
            raise ValueError(f"unknown series word {w[:20]!r} (alternate, noskunks, double4, lurch)")
    return SeriesRules.best_of(int(words[0]), **options)

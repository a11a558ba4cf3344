"""The New game dialog: its choice as a value (presets, checks, the URL's options both ways, the
remembered choice), the dialog in the table (a preview before Start, what the page cannot play yet
shown disabled), sessions for three and four seats, and a series played game after game."""

from __future__ import annotations

import re

import itertools
import json
from urllib.parse import parse_qsl

import pytest
from table_fakes import FakeHost, play_human_turn, select, text_of

from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.series import SeriesRules
from web.sessions import series as series_play
from web.shell.controller import SAVE_KEYS, Controller
from web.sessions.local import seats_of as _seats
from web.sessions.registry import TABLE_MODE, OpenContext
from web.sessions.newgame import (
    CHOICE_KEY,
    COMING_SOON,
    DEFAULT,
    PRESETS,
    NewGame,
    SeatChoice,
    coming_soon,
    edit,
    from_query,
    levels_of,
    preset_of,
    remember,
    remembered,
)
from web.sessions.session import LocalSession, Offer
from web.sessions.storage import MemoryStorage

CPU = SeatChoice("computer", "expert")


def query(game: NewGame) -> dict[str, str]:
    return dict(parse_qsl(game.to_query()))


# --- the value ------------------------------------------------------------------------------------


def test_every_preset_is_a_valid_choice_with_its_seats_and_its_way_to_play() -> None:
    expect = {"computer": ("computer", (0,), ("You", "Computer")),
              "hotseat": ("hotseat", (0, 1), ("Player 1", "Player 2")),
              "three": ("table", (0,), ("You", "West", "East")),
              "partner": ("table", (0,), ("You", "West", "Partner", "East")),
              "partners": ("table", (0, 1, 2, 3), ("Player 1", "Player 2", "Player 3", "Player 4"))}
    for key, game in PRESETS.items():
        assert game.problems() == (), key
        assert (game.mode_key, game.humans, game.names()) == expect[key]
        assert preset_of(game) == key
    assert PRESETS["partner"].rules.partners and PRESETS["partners"].rules.partners
    assert PRESETS["three"].rules.crib_from_pack == 1


def test_the_checks_say_what_is_wrong_in_words() -> None:
    assert "needs 3 seats" in NewGame((SeatChoice("you"), CPU), Rules(players=3)).problems()[0]
    assert "first seat" in NewGame((CPU, SeatChoice("you"))).problems()[0]
    assert "first seat" in NewGame((SeatChoice("you"), SeatChoice("you"))).problems()[0]
    assert "easy, medium or expert" in NewGame((SeatChoice("you"), SeatChoice("computer", "genius"))).problems()[0]


def test_a_choice_becomes_its_match_with_a_level_per_computer() -> None:
    game = NewGame((SeatChoice("you"), CPU, SeatChoice("computer", "easy")), Rules(players=3, target=61))
    match = game.match(77)
    assert match.rules == Rules(players=3, target=61) and match.humans == frozenset({0})
    assert match.names == ("You", "West", "East")
    assert match.options == {"level": "expert", "levels": {"1": "expert", "2": "easy"}}
    assert levels_of(match.options, 3) == ("expert", "expert", "easy")
    # Two players against one computer: the options read exactly as before the dialog.
    assert DEFAULT.match(1).options == {"level": "expert"} and DEFAULT.match(1).rules.is_classic
    assert levels_of({"level": "medium"}, 2) == ("medium", "medium")
    assert levels_of({"levels": "junk", "level": 3}, 2) == ("expert", "expert")


def test_the_preview_says_the_table_the_rules_and_the_series() -> None:
    game = edit(edit(edit(DEFAULT, "to", "61"), "series", "3"), "recut", "on")
    text = game.describe()
    assert text.startswith("You against the computer (expert), to 61, cut again on tens; best of 3 games (first to 2)")
    assert "a skunk counts 2" in text and "the loser of a game deals first" in text
    assert "partners sitting opposite" in PRESETS["partner"].describe()


# --- the URL --------------------------------------------------------------------------------------


def all_choices() -> list[NewGame]:
    out = []
    for key, rules_on, target, series in itertools.product(
            PRESETS, [(), ("muggins",), ("recut", "pack2"), ("pack2", "muggins", "recut")], ("121", "61"),
            [("1",), ("3",), ("5", "alternate"), ("7", "4"), ("3", "off"), ("3", "lurch")]):
        game = edit(DEFAULT, "preset", key)
        for word in rules_on:
            game = edit(game, word, "on")
        game = edit(game, "to", target)
        game = edit(game, "series", series[0])
        for word in series[1:]:
            game = edit(game, "deal" if word == "alternate" else "skunks", word)
        out.append(game)
    return out


def test_every_choice_goes_through_the_url_and_back_unchanged() -> None:
    for game in all_choices():
        back, problems = from_query(query(game))
        assert problems == () and back == game, game.to_query()


def test_the_documented_url_and_the_old_options() -> None:
    game, problems = from_query({"players": "3", "seats": "you,expert,medium", "to": "61",
                                 "rules": "muggins,recut", "series": "3"})
    assert problems == () and game is not None
    assert game.rules == Rules(players=3, target=61, muggins=True, recut_tens=True)
    assert [s.token for s in game.seats] == ["you", "expert", "medium"]
    assert game.series == SeriesRules(first_to=2)
    assert from_query({"mode": "hotseat", "level": "easy"}) == (None, ())  # no table named: old meaning
    hot, _ = from_query({"mode": "hotseat", "to": "61"})
    assert hot is not None and hot.humans == (0, 1) and hot.rules.target == 61
    easy, _ = from_query({"level": "easy", "series": "5"})
    assert easy is not None and easy.seats[1] == SeatChoice("computer", "easy") and easy.series.first_to == 3


@pytest.mark.parametrize("params", [
    {"players": "9"}, {"seats": "you,robot"}, {"to": "100"}, {"rules": "pack2,bogus"}, {"series": "2"},
    {"series": "x"}, {"series": "3,sideways"}, {"players": "3", "rules": "pack2"}, {"seats": "expert,you"},
    {"seats": "you,you"}, {"players": "4", "seats": "you,expert"}, {"seats": "," * 50},
])
def test_bad_url_options_never_crash_and_are_named(params: dict[str, str]) -> None:
    game, problems = from_query(params)
    assert problems, params
    assert game is None or game.problems() == ()


def test_edit_never_raises_and_keeps_what_still_applies() -> None:
    game = edit(edit(edit(DEFAULT, "to", "61"), "pack2", "on"), "series", "5")
    three = edit(game, "preset", "three")
    assert three.rules == Rules(players=3, target=61) and three.series.first_to == 3  # pack2: two players only
    back = edit(three, "preset", "computer")
    assert back.rules == Rules(target=61) and len(back.seats) == 2
    for field, choice in [("players", "7"), ("seat-0", "expert"), ("seat-9", "easy"), ("seat-1", "you"),
                          ("to", "5"), ("series", "4"), ("skunks", "9"), ("deal", "winner"), ("nonsense", "x"),
                          ("preset", "bridge"), ("seat-x", "easy"), ("players", "")]:
        assert edit(game, field, choice) == game, (field, choice)
    assert edit(PRESETS["three"], "seat-2", "player").humans == (0, 2)
    assert edit(PRESETS["three"], "players", "4").seats[3] == CPU


# --- remembered ---------------------------------------------------------------------------------


def test_the_choice_is_remembered_and_a_bad_one_is_the_default() -> None:
    storage = MemoryStorage()
    assert remembered(storage) == DEFAULT
    game = edit(edit(PRESETS["partner"], "to", "61"), "series", "3")
    remember(storage, game)
    assert remembered(storage) == game
    for junk in ("{", "[]", json.dumps({"v": 1, "seats": ["you", "wizard"]}), json.dumps({"v": 2, "seats": []}),
                 json.dumps({"v": 1, "seats": ["you"], "rules": {"players": 3}})):
        storage.set(CHOICE_KEY, junk)
        assert remembered(storage) == DEFAULT


# --- sessions for every table ------------------------------------------------------------------


@pytest.mark.parametrize("key", ["three", "partner"])
def test_a_session_of_three_or_four_plays_to_the_end_with_a_level_per_seat(key: str) -> None:
    host = FakeHost()
    ctx = OpenContext(storage=MemoryStorage(), timer=host, delay=lambda: 0, now_ms=host.now_ms)
    game = edit(edit(PRESETS[key], "seat-1", "easy"), "to", "61")
    match = game.match(5)
    seats = _seats(TABLE_MODE, match, ctx)
    assert len(seats) == game.rules.players and [s.kind for s in seats][0] == "human"
    assert seats[1].level() == "easy" and seats[2].level() == "expert"  # type: ignore[attr-defined]
    session = LocalSession(match, seats, ctx.storage, TABLE_MODE.save_key, TABLE_MODE.ui_key)
    session.start()
    from cribbage.ai import make_player

    me = make_player("easy", seed=3)
    for _ in range(3000):
        host.run_timers()
        st = match.state
        if st.is_over:
            break
        if 0 in st.actors():
            session.propose(me.choose(match.view(0)))
        elif st.phase.value == "show" or not host.timers:
            session.request(Offer.NEXT_HAND)
    assert match.state.is_over and max(match.state.scores) >= 61
    assert Match.from_json(ctx.storage.get(TABLE_MODE.save_key) or "").actions == match.actions


# --- the dialog on the table ----------------------------------------------------------------------


def make(storage: MemoryStorage | None = None, params: dict[str, str] | None = None,
         seed: int = 42) -> tuple[Controller, FakeHost, MemoryStorage]:
    host = FakeHost()
    storage = storage if storage is not None else MemoryStorage()
    seeds = itertools.count(seed)
    controller = Controller(host, storage, {"delay": "0", **(params or {})}, seed_source=lambda: next(seeds))
    controller.boot()
    return controller, host, storage


def dialog(host: FakeHost) -> str:
    return host.last.overlay


def test_the_dialog_previews_offers_every_preset_and_starts_the_choice() -> None:
    c, host, storage = make()
    c.click("menu")
    c.click("newgame-open")
    html = dialog(host)
    assert select(html, id="dlg-newgame") and select(html, tag="input", id="ng-preset-computer")[0].attrs.get(
        "checked") is not None
    for key in ("three", "partner", "partners"):
        radio = select(html, tag="input", id=f"ng-preset-{key}")[0]
        assert "disabled" not in radio.attrs and "coming soon" not in text_of(html)
    c.click("newgame-set", {"field": "to", "choice": "61"})
    c.click("newgame-set", {"field": "series", "choice": "3"})
    html = dialog(host)
    assert "You against the computer (expert), to 61; best of 3 games (first to 2)" in text_of(html)
    assert select(html, tag="input", id="ng-skunks-3") and "Best of 3" in text_of(html)
    assert host.focus[-1] == "ng-series-3"
    before = c.match.seed
    c.click("newgame-start")
    assert c.ui.dialog is None and c.match.seed != before and c.match.rules == Rules(target=61)
    assert remembered(storage).series.first_to == 2
    assert select(host.last.table, id="series-score") and "Games 0\u20130" in text_of(host.last.table)
    # Reopened, the dialog preselects the choice just started.
    c.click("newgame-open")
    assert select(dialog(host), tag="input", id="ng-to-61")[0].attrs.get("checked") is not None


def test_a_table_the_page_cannot_draw_yet_is_refused_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(COMING_SOON, "three", "Three players: coming soon.")
    c, host, storage = make()
    c.click("newgame-open")
    c.newgame.draft = PRESETS["three"]
    seed = c.match.seed
    c.click("newgame-start")
    assert c.match.seed == seed and COMING_SOON["three"] in host.said[-1]
    assert coming_soon(PRESETS["three"]) == (COMING_SOON["three"],)


@pytest.mark.parametrize("preset", ["three", "partner", "partners"])
def test_the_presets_for_three_and_four_start_from_the_dialog(preset: str) -> None:
    """You with computers: drawn from your seat, no cover; people passing the device: covers."""
    c, host, storage = make()
    c.click("newgame-open")
    c.click("newgame-set", {"field": "preset", "choice": preset})
    c.click("newgame-start")
    game = PRESETS[preset]
    assert c.mode == "table" and c.match.rules.players == game.rules.players
    assert c.match.humans == frozenset(game.humans) and c.names == game.names()
    if preset == "partners":
        assert c.perspective is None
    else:
        assert c.perspective == 0 and c.cover_for() is None
    assert c.ui.dialog is None


def test_url_options_choose_the_next_match_and_a_saved_one_still_resumes() -> None:
    c, host, storage = make(params={"to": "61", "series": "3", "level": "easy"})
    assert c.match.rules == Rules(target=61) and c.match.options["level"] == "easy"
    assert "Games 0\u20130" in text_of(host.last.table)
    c2, _, _ = make(storage=storage, params={"to": "121"})
    assert c2.match.seed == c.match.seed  # a reload with other options resumes the match in progress


def finish_game(c: Controller, host: FakeHost) -> None:
    for _ in range(4000):
        host.run_timers()
        if c.match.state.is_over:
            return
        if not play_human_turn(c, c.active_seat()):
            host.run_timers()
    raise AssertionError("the game did not end")


def test_a_best_of_three_series_counts_games_deals_by_its_rule_survives_a_reload_and_sums_up() -> None:
    # Skunks count as plain wins here, so the series cannot end after one game (a skunk counts 2).
    c, host, storage = make(params={"to": "61", "series": "3,noskunks", "level": "easy"}, seed=11)
    games = 0
    while True:
        finish_game(c, host)
        games += 1
        shown = c.newgame.series()
        assert shown is not None and sum(1 for _ in shown.points) == 2
        table = text_of(host.last.table)
        points = "\u2013".join(str(p) for p in shown.points)
        assert f"Games {points}" in table
        if shown.winner is not None:
            break
        assert select(host.last.table, id="btn-new")[0].attrs.get("id") and "Next game" in table
        loser = min(range(2), key=lambda s: c.match.state.scores[s])
        # A reload on the game-over screen keeps the series (the game is counted once).
        c, host, _ = make(storage=storage, seed=100 + games)
        assert c.newgame.series() == shown
        c.click("new-game")
        assert c.match.first_dealer == loser and c.match.state.dealer == loser
        assert c.match.rules == Rules(target=61)
    assert 2 <= games <= 3
    summary = select(host.last.table, id="series-summary")
    assert summary and "wins the series" in text_of(host.last.table) or "win the series" in text_of(host.last.table)
    assert len(select(host.last.table, cls="series-game")) == games  # a race chart per game, to 61
    summary_html = host.last.table[host.last.table.index('id="series-summary"'):]
    assert ">61<" in summary_html and ">121<" not in summary_html
    kept = series_play.load(storage, "computer")
    assert kept is not None and len(kept.saves) == games - 1
    # The series won, New game starts a new one.
    c.click("new-game")
    fresh = c.newgame.series()
    assert fresh is not None and fresh.points == (0, 0) and c.match.first_dealer is None


@pytest.mark.parametrize("players", [3, 4])
def test_a_series_at_three_or_four_counts_games_a_side_deals_by_its_rule_and_charts_every_side(players: int) -> None:
    """Issue 19: a series at three seats or in partnerships: the header's games score a side, the next
    game dealt by the series' rule (the loser, or a seat of the losing partnership), and the summary
    with each game's race drawn a line a side."""
    seats = ",".join(["you"] + ["easy"] * (players - 1))
    c, host, storage = make(params={"players": str(players), "seats": seats, "to": "61", "series": "3,noskunks"},
                            seed=17)
    rules = Rules(players=players, target=61)
    games = 0
    while True:
        finish_game(c, host)
        games += 1
        shown = c.newgame.series()
        assert shown is not None and len(shown.points) == rules.sides
        table = text_of(host.last.table)
        assert "Games " + "\u2013".join(str(p) for p in shown.points) in table
        if shown.winner is not None:
            break
        scores = c.match.state.scores
        loser = min(range(rules.sides), key=lambda s: scores[s])
        c.click("new-game")  # Next game
        assert c.match.rules == rules
        assert c.match.first_dealer is not None and rules.side_of(c.match.first_dealer) == loser
    assert 2 <= games <= 3
    summary_html = host.last.table[host.last.table.index('id="series-summary"'):]
    charts = summary_html.split('class="series-game"')[1:]
    assert len(charts) == games
    for chart in charts:
        lines = set(re.findall(r'<path d="[^"]*" fill="none" stroke="[^"]*" stroke-width="2"[^>]*data-seat="(\d)"',
                               chart.split("</svg>")[0]))
        assert lines == {str(s) for s in range(rules.sides)}, lines


def test_a_save_from_before_series_loads_unchanged_and_shows_no_series() -> None:
    old = Match(9, humans=(0,), names=("You", "Computer"), options={"level": "expert"})
    storage = MemoryStorage({SAVE_KEYS["computer"]: old.to_json()})
    c, host, _ = make(storage=storage)
    assert c.match.seed == 9 and c.newgame.series() is None and not select(host.last.table, id="series-score")
    assert storage.get(SAVE_KEYS["computer"]) == old.to_json()


# --- the record, by table ---------------------------------------------------------------------------


def test_the_record_has_a_heading_per_table_and_the_published_figures_for_the_classic_game_only() -> None:
    from cribbage.record import History, record_match, statistics
    from web.screens.record.view import RecordScene, record_dialog

    records = []
    for seed, rules in ((3, Rules()), (4, Rules(target=61))):
        match = Match(seed, humans=(0,), names=("You", "Computer"), options={"level": "easy"}, rules=rules)
        from cribbage.ai import make_player

        players = [make_player("easy", seed=1), make_player("easy", seed=2)]
        while not match.state.is_over:
            seat = match.state.actors()[0]
            match.apply(players[seat].choose(match.view(seat)))
        records.append(record_match(match, 1_700_000_000_000 + seed))
    history = History(records=tuple(records))
    html = record_dialog(RecordScene(history=history, stats=statistics(records)))
    assert len(select(html, tag="h4", cls="table-heading")) == 4  # statistics and matches, each by table
    text = text_of(html)
    assert text.count("Classic: two players, to 121") == 2 and text.count("Two players, to 61") == 2
    # One group per table; the expert's published rows only under the classic one.
    classic, short = text.split("Two players, to 61", 1)
    assert "Expert as dealer" in classic and "Expert as dealer" not in short.split("Matches")[0]


def test_an_online_link_s_rules_are_not_taken_as_the_new_game_choice() -> None:
    storage = MemoryStorage()
    host = FakeHost()
    c = Controller(host, storage, {"delay": "0", "mode": "score", "to": "61"})
    assert c.newgame.from_url({"mode": "online", "rules": "to61"}) is None
    assert storage.get(CHOICE_KEY) is None
    assert c.newgame.from_url({"mode": "hotseat", "to": "61"}) == "hotseat" and remembered(storage).rules.target == 61


def test_the_remembered_level_is_the_level_of_new_matches_after_a_reload() -> None:
    storage = MemoryStorage()
    remember(storage, edit(edit(DEFAULT, "seat-1", "easy"), "to", "61"))
    c, _, _ = make(storage=storage)
    assert c.match.options["level"] == "easy" and c.match.rules.target == 61
    c2, _, _ = make(storage=MemoryStorage(dict(storage.data)), params={"level": "medium"})
    assert c2.match.seed == c.match.seed  # resumed: ?level= is for new matches
    c2.click("menu")
    c2.click("start")
    assert c2.match.options["level"] == "easy"  # the menu offers the level of the game on the table


@pytest.mark.parametrize("seats", ["you,easy,easy", "you,easy,easy,easy", "you,player,player,player",
                                   "you,player,player"])
def test_each_table_of_three_and_four_plays_to_its_end(seats: str) -> None:
    """Started from the URL's choice (the dialog's presets and three players hot-seat): the people
    click through their turns (covers up whenever the device passes), the computers answer."""
    players = len(seats.split(","))
    c, host, storage = make(params={"players": str(players), "seats": seats, "to": "61"})
    assert c.mode == "table" and c.match.rules.players == players and c.match.rules.target == 61
    passing = "player" in seats
    covers = 0
    for _ in range(4000):
        host.run_timers()
        if c.match.state.is_over:
            break
        if c.cover_for() is not None:
            covers += 1
            assert c.perspective is None
        if not play_human_turn(c, c.active_seat()):
            assert c.session.busy or not c.match.state.actors() or set(c.match.state.actors()) & c.computer_seats
    st = c.match.state
    assert st.is_over and max(st.scores) >= 61
    assert (covers > 0) == passing
    assert Match.from_json(storage.get(TABLE_MODE.save_key) or "").actions == c.match.actions

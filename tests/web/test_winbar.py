"""The chance of winning on the table (issue 21): the bar by the board shows exactly the model's
figures for the viewing seat's view, is worked out after the frame (never in the tap), shows nothing
under the hot-seat cover, is absent where the model does not apply, and is switched in the menu; the
race chart's chance band; each decision's cost in chance of winning in the review; the game-over
list of the costliest decisions."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from table_fakes import FakeHost, play_human_turn, select, text_of

from cribbage.ai import winchance
from cribbage.ai.winchance import seat_chances
from cribbage.match import Match
from cribbage.record import race
from cribbage.rules import Rules
from cribbage.state import Phase
from cribbage.view import view as view_of
from web.shell.controller import SAVE_KEYS, SETTINGS_KEY, Controller, MemoryStorage
from web.kit.charts import race_chart
from web.kit.winchance import WinBar, bar_html, cost_text, percents, review_line


def make(params: dict[str, str] | None = None, storage: MemoryStorage | None = None,
         seed: int = 42) -> tuple[Controller, FakeHost, MemoryStorage]:
    host = FakeHost()
    storage = storage if storage is not None else MemoryStorage()
    controller = Controller(host, storage, {"delay": "0", **(params or {})}, seed_source=lambda: seed)
    controller.boot()
    return controller, host, storage


def bar_of(host: FakeHost) -> dict[str, str] | None:
    found = select(host.last.table, cls="winbar")
    return found[0].attrs if found else None


def step(controller: Controller, host: FakeHost) -> None:
    """One move of the player (the computer's moves and the bar's figures run on the timers)."""
    host.run_timers()
    if not play_human_turn(controller, controller.active_seat()):
        host.run_timers()


def test_the_bars_figures_are_the_models_for_your_view_at_every_step() -> None:
    controller, host, _ = make()
    checked = set()
    for _ in range(400):
        if controller.match.state.is_over:
            break
        step(controller, host)
        host.run_timers()
        view = controller.match.view(0)
        bar = bar_of(host)
        assert bar is not None and bar["data-state"] == "shown", bar
        want = seat_chances(view)
        assert want is not None
        assert float(bar["data-chance0"]) == pytest.approx(want[0], abs=5e-5)
        assert float(bar["data-chance1"]) == pytest.approx(want[1], abs=5e-5)
        a, b = percents(want, view.phase is Phase.GAME_OVER)
        assert bar["aria-label"] == f"Chance of winning: You {a}%, Computer {b}%"
        checked.add(str(view.phase))
    assert {"discard", "play", "show"} <= checked


def test_the_first_frame_of_a_new_game_is_the_first_dealers_edge() -> None:
    controller, host, _ = make()
    for _ in range(50):  # to the cut for deal's result: the dealer is known
        if controller.match.state.dealer is not None:
            break
        step(controller, host)
    host.run_timers()
    dealer = controller.match.state.dealer
    bar = bar_of(host)
    assert bar is not None and dealer is not None
    assert float(bar[f"data-chance{dealer}"]) == pytest.approx(0.555, abs=0.002)  # docs/playing.md: 55.5% to 121


def test_the_figure_is_worked_out_after_the_frame_never_in_the_tap(monkeypatch: pytest.MonkeyPatch) -> None:
    controller, host, _ = make()
    for _ in range(100):
        st = controller.match.state
        if st.phase is Phase.DISCARD and 0 in st.actors():
            break
        step(controller, host)
    host.run_timers()
    calls: list[int] = []
    real = winchance.seat_chances_steps

    def counted(view):
        calls.append(view.seat)
        return real(view)

    monkeypatch.setattr(winchance, "seat_chances_steps", counted)
    monkeypatch.setattr(winchance, "seat_chances", lambda view: pytest.fail("seat_chances in the tap"))
    controller.click("card", {"index": "0"})
    controller.click("card", {"index": "1"})
    controller.click("discard")
    assert calls == []  # the tap drew its frame without the model
    before = bar_of(host)
    assert before is not None and before["data-state"] in ("shown", "pending")
    frames = len(host.frames)
    host.run_timers()
    assert calls and set(calls) == {0}  # afterwards, from your own view only
    assert len(host.frames) > frames
    after = bar_of(host)
    assert after is not None and after["data-state"] == "shown"
    want = seat_chances(controller.match.view(0))
    assert want is not None and float(after["data-chance0"]) == pytest.approx(want[0], abs=5e-5)


def test_hot_seat_shows_nothing_under_the_cover_and_then_the_seat_whose_cards_are_drawn() -> None:
    controller, host, storage = make({"mode": "hotseat"})
    assert bar_of(host) is None  # off by default in hot-seat
    controller.click("menu")
    assert select(host.last.overlay, id="winbar-toggle")[0].attrs["aria-pressed"] == "false"
    controller.click("winbar")
    controller.click("close")
    assert json.loads(storage.get(SETTINGS_KEY) or "{}")["chances"]["hotseat"] is True
    covered = shown = 0
    for _ in range(600):
        if controller.match.state.hand_number > 2 or controller.match.state.is_over:
            break
        host.run_timers()
        bar = bar_of(host)
        assert bar is not None
        if controller.cover_for() is not None:
            covered += 1
            assert bar["data-state"] == "hidden"
            assert "data-chance0" not in bar and "%" not in text_of(host.last.table.split('id="winbar"')[1][:400])
        else:
            view = controller.match.view(controller.active_seat())
            want = seat_chances(view)
            assert want is not None and bar["data-state"] == "shown"
            assert float(bar["data-chance0"]) == pytest.approx(want[0], abs=5e-5)
            shown += 1
        play_human_turn(controller, controller.active_seat())
    assert covered > 3 and shown > 3


def test_the_bar_never_stands_in_with_the_other_seats_figure_in_hot_seat() -> None:
    controller, host, _ = make({"mode": "hotseat"})
    controller.click("menu")
    controller.click("winbar")
    controller.click("close")
    for _ in range(300):
        st = controller.match.state
        if st.phase is Phase.DISCARD and controller.cover_for() is not None and st.hand_number == 1 \
                and controller.ui.viewer is not None:
            break
        host.run_timers()
        play_human_turn(controller, controller.active_seat())
    seat = controller.cover_for()
    assert seat is not None and controller.ui.viewer is not None and controller.ui.viewer != seat
    controller.click("ready")  # no timer run: the figure for this seat is not known yet
    bar = bar_of(host)
    assert bar is not None and bar["data-state"] == "pending"


def test_absent_at_three_players_and_with_five_card_hands() -> None:
    for rules, names in ((Rules(players=3), ("You", "West", "East")), (Rules(crib_from_pack=2), ("You", "Computer"))):
        storage = MemoryStorage()
        match = Match(5, humans=(0,), names=names, options={"level": "easy"}, rules=rules)
        storage.set(SAVE_KEYS["computer"], match.to_json())
        controller, host, _ = make(storage=storage)
        assert controller.match.rules == rules
        for _ in range(40):
            step(controller, host)
            assert bar_of(host) is None
        controller.click("menu")
        assert not select(host.last.overlay, id="winbar-toggle")


def test_the_menu_switch_turns_the_bar_off_and_it_is_remembered() -> None:
    controller, host, storage = make()
    host.run_timers()
    assert bar_of(host) is not None  # on by default against the computer
    controller.click("menu")
    toggle = select(host.last.overlay, id="winbar-toggle")[0]
    assert toggle.attrs["aria-pressed"] == "true"
    controller.click("winbar")
    assert select(host.last.overlay, id="winbar-toggle")[0].attrs["aria-pressed"] == "false"
    controller.click("close")
    assert bar_of(host) is None
    controller.click("menu")
    controller.click("speed", {"delay": "250"})  # another setting keeps this one
    settings = json.loads(storage.get(SETTINGS_KEY) or "{}")
    assert settings["chances"] == {"computer": False} and settings["delay"] == 250
    again, host2, _ = make(storage=storage)
    host2.run_timers()
    assert bar_of(host2) is None


def test_online_is_off_by_default_and_says_it_shows_only_your_view() -> None:
    from web.shell.dialogs import _chance_switch
    from web.kit.winchance import ChanceScene
    from web.table.scene import Scene, ShellScene

    controller, _, _ = make()
    scene = Scene(view=controller.match.view(0), shell=ShellScene(chances=ChanceScene(setting=False, online=True)))
    html = _chance_switch(scene)
    assert 'aria-pressed="false"' in html and "only your own view" in html
    from web.sessions.registry import MODES

    controller.mode_def = MODES["online"]  # the setting's default, without opening a room
    assert controller.chances.enabled() is False


def test_the_bars_markup() -> None:
    html = bar_html(WinBar(("You", "Computer"), (0.6213, 0.3787)))
    assert 'aria-label="Chance of winning: You 62%, Computer 38%"' in html
    words = " ".join(text_of(html).split())
    assert "You 62%" in words and "Computer 38%" in words
    assert 'width="62.13"' in html and 'x="62.13"' in html and "style=" not in html  # strict CSP
    assert 'data-state="pending"' in bar_html(WinBar(("You", "Computer")))
    hidden = bar_html(WinBar(("A", "B"), (0.9, 0.1), hidden=True))
    assert 'data-state="hidden"' in hidden and "90" not in hidden
    assert percents((0.9996, 0.0004)) == (99, 1) and percents((1.0, 0.0), over=True) == (100, 0)


@dataclass
class FakeReview:
    text: str
    loss: float
    chance_loss: float | None
    by_chance: bool = False


def test_a_reviews_cost_in_points_and_in_chance_of_winning() -> None:
    r = FakeReview("you kept 5-5-J-Q: 8.9; best 5-5-6-J: 9.6", 0.7, 0.0123)
    assert cost_text(r) == "\u22120.7 pts, \u22121.2% to win"
    assert review_line(r) == "You kept 5-5-J-Q: 8.9; best 5-5-6-J: 9.6 (\u22120.7 pts, \u22121.2% to win)."
    assert cost_text(FakeReview("x", 0.7, None)) == "\u22120.7 pts"  # a table without the model
    assert cost_text(FakeReview("x", 4.5, 0.045, by_chance=True)) == "\u22124.5% to win"  # the endgame search
    assert review_line(FakeReview("you played 5H (count 10): 2.0, the best play", 0.0, 0.0)) == \
        "You played 5H (count 10): 2.0, the best play."


def test_the_score_sheets_review_gives_the_chance_of_winning_beside_the_points() -> None:
    controller, host, _ = make(seed=7)
    while controller.match.state.hand_number < 4:
        step(controller, host)
    controller.click("sheet")
    lines = []
    for hand in (1, 2, 3):
        controller.click("review", {"hand": str(hand)})
        lines += controller.ui.reviews[hand]
    lossy = [line for line in lines if "pts" in line]
    assert lossy and all("% to win)." in line for line in lossy)
    assert any(line in text_of(host.last.overlay) for line in lines)


def test_game_over_the_chart_gets_the_chance_band_and_the_costliest_decisions() -> None:
    controller, host, _ = make()
    for _ in range(3000):
        if controller.match.state.is_over:
            break
        step(controller, host)
    host.run_timers(100000)
    table = host.last.table
    band = select(table, cls="chance")
    hands = controller.match.state.hand_number
    assert [int(c.attrs["data-hand"]) for c in band] == list(range(hands + 1))
    assert float(band[0].attrs["data-chance"]) == pytest.approx(
        seat_chances(_start_view(controller.match))[0], abs=5e-5
    )
    won = controller.match.state.winner == 0
    assert float(band[-1].attrs["data-chance"]) == (1.0 if won else 0.0)
    assert "chance of winning" in text_of(table)
    items = select(table, tag="li", cls=None)
    costly = [e for e in select(table, tag="ol", cls="costly-list")]
    assert costly and 1 <= len([e for e in items if "data-hand" in e.attrs]) <= 3
    assert "% to win" in text_of(table.split('class="costly"')[1])


def _start_view(match: Match):
    """You's view at the start of hand 1."""
    state = match.new_state()
    for action in match.actions:
        state.apply(action)
        if state.hand_number == 1:
            return view_of(state, 0)
    raise AssertionError("no hand was dealt")


def test_the_race_chart_draws_the_chance_band_with_words() -> None:
    match = Match(3, humans=())
    from cribbage.ai import make_player

    p = make_player("easy", seed=1)
    while not match.state.is_over:
        match.apply(p.choose(match.view(match.state.actors()[0])))
    steps = race(match.state.events)
    chances = [(0, 0.555), (1, 0.6), (2, 0.4)]
    svg = race_chart(steps, ("You", "Computer"), chances=chances, you=0)
    circles = select(svg, cls="chance")
    assert [c.attrs["data-chance"] for c in circles] == ["0.5550", "0.6000", "0.4000"]
    assert select(svg, tag="path", cls="chance-line")
    assert "You: chance of winning" in text_of(svg)  # the band's legend
    assert "Your chance of winning (the band below): start 56%; after hand 1 60%; after hand 2 40%." in svg
    plain = race_chart(steps, ("You", "Computer"))
    assert not select(plain, cls="chance") and 'viewBox="0 0 360 230"' in plain


def test_the_record_dialogs_match_page_gets_the_chance_band_too() -> None:
    controller, host, storage = make(seed=11)
    for _ in range(3000):
        if controller.match.state.is_over:
            break
        step(controller, host)
    host.run_timers(100000)
    controller.click("record")
    history = json.loads(storage.get("cribbage.history") or "{}")
    record_id = history["records"][-1]["id"]
    controller.click("record-match", {"record": record_id})
    host.run_timers(100000)
    band = select(host.last.overlay, cls="chance")
    assert len(band) == controller.match.state.hand_number + 1
    assert "chance of winning after each hand" in text_of(host.last.overlay)

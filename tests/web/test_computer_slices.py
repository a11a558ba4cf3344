"""The computer's search in slices (web/sessions/seats.py, cribbage/ai/steps.py): the same choices, never
one long piece, and nothing of the computer imported for a cut."""

from __future__ import annotations

import json

import pytest
from table_fakes import FakeHost, play_human_turn

from cribbage.match import Match
from web.sessions import seats
from web.shell.controller import SETTINGS_KEY, Controller, MemoryStorage


def _play(seed: int, monkeypatch: pytest.MonkeyPatch, slice_ms: float) -> tuple[Match, int]:
    monkeypatch.setattr(seats, "SLICE_MS", slice_ms)
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0", "level": "expert"}, seed_source=lambda: seed)
    controller.nonce_source = lambda: "5e" * 16  # the commitment fixed: the computer's seed follows from it
    controller.boot()
    timers = 0
    for _ in range(4000):
        timers += host.run_timers()
        if controller.match.state.is_over:
            break
        if not play_human_turn(controller, controller.active_seat()):
            timers += host.run_timers()
    assert controller.match.state.is_over
    return controller.match, timers


def test_a_match_in_slices_is_the_match_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    at_once, few = _play(31, monkeypatch, 1e9)
    sliced, many = _play(31, monkeypatch, 0.0)  # every piece of every search in its own timer
    assert [str(a) for a in sliced.actions] == [str(a) for a in at_once.actions]
    assert many > few + 50  # the searches really were cut into pieces


def test_the_expert_choice_in_steps_is_its_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from cribbage.ai import make_player
    from cribbage.ai.steps import finish

    match, _ = _play(12, monkeypatch, 1e9)
    checked = 0
    replay = Match(match.seed, humans=(0,), names=match.names)
    for action in match.actions:
        seat = getattr(action, "seat", None)
        view = replay.view(seat) if seat is not None else None
        if view is not None and len(view.legal_actions) > 1 and view.phase.name == "PLAY":
            steps = make_player("expert", seed=checked).choose_steps(view)
            pieces = 0
            while True:
                try:
                    next(steps)
                    pieces += 1
                except StopIteration as stop:
                    sliced = stop.value
                    break
            assert sliced == make_player("expert", seed=checked).choose(view)
            assert sliced == finish(make_player("expert", seed=checked).choose_steps(view))
            checked += 1
        replay.apply(action)
    assert checked >= 10


def test_the_computer_is_imported_a_piece_at_a_time_by_its_first_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats, "_AI", [])
    monkeypatch.setattr(seats, "_WARM", [])
    monkeypatch.setattr(seats, "_WARMING", [])
    monkeypatch.setattr(seats, "SLICE_MS", 0.0)  # every piece in its own timer (each is quick here)
    host = FakeHost()
    storage = MemoryStorage()
    # The chance bar loads the coach after the paint on its own timer: off here, where the computer's
    # own import is watched (tests/web/test_winbar.py covers the bar).
    storage.set(SETTINGS_KEY, json.dumps({"chances": {"computer": False}}))
    controller = Controller(host, storage, {"delay": "0"}, seed_source=lambda: 3)
    controller.boot()
    play_human_turn(controller, 0)  # the cut for deal: the computer cuts next
    before = len(controller.match.actions)
    host.run_timers()
    assert len(controller.match.actions) > before and not seats._AI  # a cut needs no computer
    ran = 0
    for _ in range(4):  # on to the deal: the computer's first decision is its discard
        play_human_turn(controller, 0)
        ran += host.run_timers()
        if seats.warmed():
            break
    assert seats.warmed() and seats._AI and seats._AI[0] is not None
    assert ran >= 10  # one timer for each piece of the import, not one long task


def test_the_idle_warm_up_imports_the_computer_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats, "_AI", [])
    monkeypatch.setattr(seats, "_WARM", [])
    done = list(seats.warm_steps())
    assert "cribbage.ai" in done and "peg table" in done and done.count("hand totals") in (0, 455)
    assert seats._AI and seats._AI[0] is not None and seats.warmed()
    assert list(seats.warm_steps()) == []  # once is enough


def test_the_hand_totals_built_in_pieces_are_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from cribbage import scoring

    monkeypatch.setattr(scoring, "_RANK_POINTS", {})
    pieces = sum(1 for _ in scoring.rank_points_steps())
    assert pieces == 455 and scoring._RANK_POINTS == scoring._build_rank_points()
    assert len(scoring._RANK_POINTS) == 6175


def test_the_computer_cuts_as_its_player_would_without_waiting_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from cribbage.ai import make_player
    from cribbage.state import Phase

    asked: list[int] = []
    monkeypatch.setattr(seats, "_WARM", [])
    monkeypatch.setattr(seats, "ai_module", lambda: asked.append(1))
    cuts = 0
    for seed in range(12):
        match = Match(seed, humans=(0,))
        match.apply(match.legal_actions(0)[0])  # the player cuts for deal first, then the computer
        view = match.view(1)
        assert view.phase is Phase.CUT_FOR_DEAL and view.legal_actions
        computer = seats.Computer("Computer", FakeHost(), lambda: "expert", lambda: 0, lambda: seed * 7)
        assert computer.choose(view) == make_player("expert", seed=seed * 7).choose(view)
        cuts += 1
    assert cuts == 12 and not asked  # no import, no warm-up: a cut is a draw from the seed


def test_the_idle_warm_up_and_the_computer_share_one_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats, "_AI", [])
    monkeypatch.setattr(seats, "_WARM", [])
    monkeypatch.setattr(seats, "_WARMING", [])
    run = seats.warming()
    first = [next(run) for _ in range(3)]
    assert seats.warming() is run  # the computer would go on from here, not start again
    rest = list(seats.warming())
    assert first + rest == [*first, *rest] and "cribbage.ai" in first + rest and seats.warmed()
    assert rest.count("hand totals") in (0, 455) and "pathlib" not in rest

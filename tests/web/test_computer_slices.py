"""The computer's search in slices (web/play/seats.py, cribbage/ai/steps.py): the same choices, never
one long piece, and nothing of the computer imported for a cut."""

from __future__ import annotations

import pytest
from table_fakes import FakeHost, play_human_turn

from cribbage.match import Match
from web.play import seats
from web.app.controller import Controller, MemoryStorage


def _play(seed: int, monkeypatch: pytest.MonkeyPatch, slice_ms: float) -> tuple[Match, int]:
    monkeypatch.setattr(seats, "SLICE_MS", slice_ms)
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0", "level": "expert"}, seed_source=lambda: seed)
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


def test_the_computer_is_imported_a_piece_at_a_time_by_its_first_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats, "_AI", [])
    monkeypatch.setattr(seats, "_WARM", [])
    monkeypatch.setattr(seats, "SLICE_MS", 0.0)  # every piece in its own timer (each is quick here)
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0"}, seed_source=lambda: 3)
    controller.boot()
    play_human_turn(controller, 0)  # the cut for deal: the computer cuts next
    before = len(controller.match.actions)
    ran = host.run_timers()
    assert len(controller.match.actions) > before and seats.warmed()
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

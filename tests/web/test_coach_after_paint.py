"""The discard's preview line (the coach's expected values) never loads the coach in the tap's task:
a page busy with online play's deal has no idle time to load it in beforehand, and loading it in one
go was the longest task of an online match (~0.3 s inside Pyodide, the first discard of hand 1).
The frame is drawn without the line, the coach is loaded after the paint in slices on the host's
timer, and the next frame has the line."""

from __future__ import annotations

import pytest
from table_fakes import FakeHost, play_human_turn

from cribbage.state import Phase
from web.shell import chances as chances_module
from web.shell.controller import Controller, MemoryStorage
from web.sessions import seats


def test_two_cards_picked_before_the_coach_is_loaded_show_its_line_a_frame_later(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats, "_WARM", [])  # the coach not loaded yet (as at the first discard online)
    monkeypatch.setattr(seats, "_WARMING", [])
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0", "mode": "hotseat"}, seed_source=lambda: 7)
    controller.boot()
    for _ in range(200):
        st = controller.match.state
        if st.phase is Phase.DISCARD and controller.cover_for() is None and controller.active_seat() in st.actors():
            break
        if not play_human_turn(controller, controller.active_seat()):
            controller.click("ready")
    else:
        raise AssertionError("no discard came")
    calls: list[int] = []
    real = chances_module.ai_module

    def watched() -> object:
        calls.append(1)
        return real()

    monkeypatch.setattr(chances_module, "ai_module", watched)
    controller.click("card", {"index": "0"})
    controller.click("card", {"index": "1"})
    assert calls == [], "the tap loaded the coach"
    assert "keep-ev" not in host.last.table  # drawn without the line
    assert not seats.warmed()
    host.run_timers()  # after the paint: the coach is loaded in slices, then the table drawn again
    assert seats.warmed()
    assert "With the starter: hand" in host.last.table

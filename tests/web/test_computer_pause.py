"""The computer's pause depends on how hard its decision looks (web/sessions/seats.py,
``computer_pause``): a forced play is quick, a close discard takes longest, every pause stays within
its bounds, and the instant speed stays instant."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from table_fakes import FakeHost

from cribbage.actions import CutForDeal, CutPack, Play
from cribbage.state import GameState
from cribbage.view import SeatView, view
from web.sessions import seats


class PausingHost(FakeHost):
    """The fake host, keeping the pause asked for with each timer."""

    def __init__(self) -> None:
        super().__init__()
        self.pauses: list[int] = []

    def later(self, ms: int, fn: Callable[[], None]) -> int:
        self.pauses.append(ms)
        return super().later(ms, fn)


def at_discard(seed: int) -> SeatView:
    state = GameState(seed)
    while True:
        seat = state.actors()[0]
        first = view(state, seat).legal_actions[0]
        if not isinstance(first, (CutForDeal, CutPack)):
            return view(state, seat)
        state.apply(type(first)(seat, 4))


def forced_play(v: SeatView) -> SeatView:
    """A view whose only legal move is one card."""
    return replace(v, legal_actions=(Play(v.seat, v.hand[0]),))


def pause_for(v: SeatView, delay: int) -> int:
    host = PausingHost()
    computer = seats.Computer("Computer", host, lambda: "expert", lambda: delay, lambda: 1)
    computer.on_turn(v, lambda action: None)
    assert computer.pending and len(host.pauses) == 1
    return host.pauses[0]


def test_a_forced_play_is_quicker_than_a_close_discard_and_instant_stays_instant() -> None:
    for _ in seats.warming():  # the computer loaded, as on the page once idle
        pass
    from cribbage.ai.coach import discard_choices
    from cribbage.ai.levels import discard_values

    close = at_discard(4)  # the two best discards are within 0.03 points of each other
    values = sorted(discard_values(discard_choices(close)), reverse=True)
    assert values[0] - values[1] < 0.1
    clear = at_discard(11)  # the best discard is clear by 4 points
    values = sorted(discard_values(discard_choices(clear)), reverse=True)
    assert values[0] - values[1] > 3
    forced = forced_play(close)
    lo, hi = seats.PAUSE_RANGE
    for delay in (250, 600, 1200):
        quick, slow, plain = pause_for(forced, delay), pause_for(close, delay), pause_for(clear, delay)
        assert lo * delay <= quick < plain < slow <= hi * delay, (delay, quick, plain, slow)
        assert quick < delay < slow
    assert pause_for(forced, 0) == pause_for(close, 0) == 0

"""What the page catches and carries on from is recorded where a maintainer sees it
(:mod:`web.kit.caught`), once per place on the console, and never silently."""

from __future__ import annotations

import doctest

import pytest

from web.kit import caught as caught_module
from web.kit.caught import CAUGHT, KEEP, caught, clear
from web.shell.controller import Controller, MemoryStorage

from table_fakes import FakeHost


def test_the_module_doctest() -> None:
    assert doctest.testmod(caught_module).failed == 0


def test_a_place_is_said_once_and_kept_every_time(capsys: pytest.CaptureFixture[str]) -> None:
    clear()
    for _ in range(3):
        caught("settings: read", ValueError("bad json"))
    caught("settings: read", KeyError("x"))
    out = capsys.readouterr().out.splitlines()
    assert out == ["cribbage: carried on after ValueError in settings: read: bad json",
                   "cribbage: carried on after KeyError in settings: read: 'x'"]
    assert len(CAUGHT) == 4
    for i in range(KEEP + 10):
        caught(f"place {i}", RuntimeError("boom"), quiet=True)
    assert len(CAUGHT) == KEEP and CAUGHT[-1][0] == f"place {KEEP + 9}"


class BrokenStorage(MemoryStorage):
    """A storage whose every write fails (a full or blocked store)."""

    def set(self, key: str, value: str) -> None:
        raise OSError("the quota is exceeded")


def test_a_store_that_refuses_every_write_is_recorded_and_the_game_goes_on() -> None:
    clear()
    host = FakeHost()
    controller = Controller(host, BrokenStorage(), {"mode": "hotseat", "seed": "5"})
    controller.boot()
    seat = controller.active_seat()
    controller.act(controller.match.view(seat).legal_actions[0])  # the cut for deal: a move, a save that fails
    assert any(kind == "OSError" and "quota" in text for _, kind, text in CAUGHT), list(CAUGHT)
    assert controller.match.actions  # the move was made all the same

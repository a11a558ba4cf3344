"""The web layer's tests are deterministic: a new match against the computer commits to its deals
with a random nonce (cribbage.fairness.new_nonce), and the computer's own seed follows from it, so
the controller is given a fixed nonce here. A test of the commitment sets its own
(``controller.nonce_source``); the nonce's randomness is tested in tests/engine/test_fairness.py."""

from __future__ import annotations

import pytest

FIXED_NONCE = "a5" * 16


@pytest.fixture(autouse=True)
def _fixed_nonce(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web.shell.controller.new_nonce", lambda: FIXED_NONCE)

"""The warm-up imports the computer (``cribbage.ai``, whose ``__init__`` imports all its modules at
once: one ~80 ms task in the page) one module per step; asked for meanwhile, it is finished at once.

Each case runs in a fresh interpreter: this one has imported the package long ago."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PY = Path(__file__).resolve().parents[2] / "py"

STEPS = """
import sys
from web.sessions import seats
steps = seats.warm_steps()
names = []
for name in steps:
    names.append(name)
    if name == "cribbage.ai.discards":
        assert "cribbage.ai.coach" not in sys.modules, "the whole package loaded in one step"
    if name == "cribbage.ai":
        break
ai = seats.ai_module()
assert ai is not None and hasattr(ai, "make_player"), ai
print(" ".join(names))
"""

MIDWAY = """
import sys
from web.sessions import seats
steps = seats.warm_steps()
for name in steps:
    if name == "cribbage.ai.pegging":
        break
ai = seats.ai_module()  # a tap asks for the computer while the warm-up is half-way
assert ai is not None and hasattr(ai, "make_player"), ai
from cribbage import ai as again
assert again is ai
rest = list(steps)  # the warm-up goes on and finds it done
assert "hand totals" in rest and seats.warmed(), rest[:5]
print("ok")
"""


def _run(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], cwd=PY, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_the_computer_is_imported_one_module_a_step() -> None:
    names = _run(STEPS).split()
    ai = [n for n in names if n.startswith("cribbage.ai")]
    assert len(ai) >= 8 and ai[-1] == "cribbage.ai", names


def test_asked_for_half_way_it_is_finished_at_once() -> None:
    assert _run(MIDWAY).strip() == "ok"

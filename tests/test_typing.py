"""The engine and the computer opponent are fully typed: ``mypy --strict`` over py/cribbage."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_engine_and_ai_pass_mypy_strict():
    pytest.importorskip("mypy", reason="mypy is in the test extras: pip install -e '.[test]'")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "cribbage"],
                          cwd=ROOT / "py", capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr

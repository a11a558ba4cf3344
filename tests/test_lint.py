"""Lint is part of the suite: ``ruff check`` over py/ and tests/ with the configuration in
pyproject.toml (the rules and why each ignored one is ignored)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing() -> None:
    pytest.importorskip("ruff", reason="ruff is in the test extras: pip install -e '.[test]'")
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
                           "py", "tests"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr

"""The engine, the computer opponent and the web layer are fully typed: ``mypy --strict`` over
py/cribbage and py/web (the browser glue keeps ``Any`` for the page's JS objects only).

One mypy run checks both packages (the web layer imports the engine, so two runs would check the
engine twice), with mypy's incremental cache in ``.cache/mypy``: a rerun re-checks only the
modules whose source changed (mypy compares each file's hash with the cache), and a fresh clone,
without the cache, checks everything."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "mypy"


def test_packages_pass_mypy_strict() -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extras: pip install -e '.[test]'")
    CACHE.parent.mkdir(exist_ok=True)
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(CACHE),
                           "-p", "cribbage", "-p", "web"],
                          cwd=ROOT / "py", capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr

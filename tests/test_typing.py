"""The engine, the computer opponent and the web layer are fully typed: ``mypy --strict`` over
py/cribbage and py/web (the browser glue keeps ``Any`` for the page's JS objects only)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("package", ["cribbage", "web"])
def test_package_passes_mypy_strict(package: str) -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extras: pip install -e '.[test]'")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", package],
                          cwd=ROOT / "py", capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr

"""The engine test suite passes inside Pyodide too (Python 3.14 compiled to WebAssembly, the
interpreter the browser runs), not only under this machine's CPython.

Runs ``node py/tools/pyodide_pytest.mjs`` (tests/engine without the ``slow`` ones). The wheels
it unpacks come from ``.cache/wheels`` (``make wheels``); this test downloads them itself when
they are missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "py" / "tools" / "pyodide_pytest.mjs"
WHEELS = ROOT / ".cache" / "wheels"
REQUIREMENTS = ROOT / "py" / "tools" / "pyodide-test-wheels.txt"


def ensure_wheels() -> None:
    if (WHEELS / ".installed").exists():
        return
    WHEELS.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
            "--only-binary=:all:", "--no-deps", "--python-version", "3.14", "--platform", "any",
            "--implementation", "py", "-d", str(WHEELS), "-r", str(REQUIREMENTS),
        ],
        check=True,
    )
    (WHEELS / ".installed").touch()


def test_engine_suite_passes_inside_pyodide() -> None:
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        pytest.skip("node_modules/pyodide is missing: run `npm ci` (make test does)")
    node = shutil.which("node")
    assert node, "node is needed to run Pyodide (it is installed with npm)"
    ensure_wheels()
    run = subprocess.run(
        [node, str(RUNNER), "tests/engine", "-m", "not slow", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    tail = "\n".join((run.stdout + run.stderr).splitlines()[-40:])
    assert run.returncode == 0, f"pytest inside Pyodide exited {run.returncode}:\n{tail}"
    passed = re.search(r"(\d+) passed", run.stdout)
    assert passed and int(passed.group(1)) > 0, f"no passing tests reported:\n{tail}"
    assert "platform emscripten" in run.stdout or "Pyodide" in run.stdout, tail

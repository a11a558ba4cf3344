"""The engine test suite passes inside Pyodide too (Python 3.14 compiled to WebAssembly, the
interpreter the browser runs), not only under this machine's CPython.

Runs ``node py/tools/pyodide_pytest.mjs`` (tests/engine without the ``slow`` ones) in two shares
that pytest-xdist can run side by side (``make test`` runs ``--dist loadfile``): this file runs
every engine test file but the property tests (``make test`` runs the files of :data:`PORTABLE`,
``make test-slow`` all of them), tests/test_pyodide_engine_properties.py runs those (about half the
time inside Pyodide; marked ``slow``, so in ``make test-slow``: ``make test`` runs the property
tests under CPython). Together they run all of tests/engine but the ``slow`` tests, as one run did;
a new engine test file lands in the slow share (add it to :data:`PORTABLE` if the interpreter could
change its outcome). The wheels it unpacks come from
``.cache/wheels`` (``make wheels``); the test downloads them itself when they are missing (under a
lock: both shares may ask at once).
"""

from __future__ import annotations

import fcntl
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
PROPERTIES = "tests/engine/test_properties.py"  # the other share's (tests/test_pyodide_engine_properties.py)


def ensure_wheels() -> None:
    if (WHEELS / ".installed").exists():
        return
    WHEELS.mkdir(parents=True, exist_ok=True)
    with open(WHEELS.parent / "wheels.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (WHEELS / ".installed").exists():
            download_wheels()


def download_wheels() -> None:
    subprocess.run(
        [
            sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
            "--only-binary=:all:", "--no-deps", "--python-version", "3.14", "--platform", "any",
            "--implementation", "py", "-d", str(WHEELS), "-r", str(REQUIREMENTS),
        ],
        check=True,
    )
    (WHEELS / ".installed").touch()


def run_engine_tests_in_pyodide(*paths: str) -> None:
    """Run pytest on ``paths`` (without the ``slow`` tests) inside Pyodide; fail unless it passed."""
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        pytest.skip("node_modules/pyodide is missing: run `npm ci` (make test does)")
    node = shutil.which("node")
    assert node, "node is needed to run Pyodide (it is installed with npm)"
    ensure_wheels()
    run = subprocess.run(
        [node, str(RUNNER), *paths, "-m", "not slow", "-q"],
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


# make test runs the engine files where the interpreter could make a difference (numbers, hashing,
# bytes, JSON, the byte-for-byte replays of the corpus and the saves) inside Pyodide; make test-slow
# runs every engine file there (the others are screens of text, the command line and data checks,
# run under CPython in make test).
PORTABLE = ("test_cards.py", "test_scoring.py", "test_rules_value.py", "test_state.py", "test_match.py",
            "test_view.py", "test_hidden.py", "test_rng.py", "test_savefile.py", "test_corpus.py", "test_record.py",
            "test_tables.py", "test_play_muggins.py", "test_first_dealer.py", "test_series.py",
            "test_scorekeeper.py", "test_fairness.py")


def test_the_portable_engine_files_pass_inside_pyodide() -> None:
    run_engine_tests_in_pyodide(*(f"tests/engine/{name}" for name in PORTABLE))


@pytest.mark.slow
def test_engine_suite_passes_inside_pyodide() -> None:
    run_engine_tests_in_pyodide("tests/engine", f"--ignore={PROPERTIES}")

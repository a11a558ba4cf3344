"""The link's and the proven deal's tests pass inside Pyodide too: the browser's Python is where
hostile input arrives (the group arithmetic, hash-to-curve vectors and every proof, checked there).

(Deeply nested JSON, for one, overflows Pyodide's stack and kills the runtime where CPython only
raises RecursionError; the link's depth limit is checked here, where it matters.)
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "py" / "tools" / "pyodide_pytest.mjs"


def test_link_suite_passes_inside_pyodide() -> None:
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        pytest.skip("node_modules/pyodide is missing: run `npm ci` (make test does)")
    if not (ROOT / ".cache" / "wheels" / ".installed").exists():
        pytest.skip("the Pyodide test wheels are missing: run `make wheels` (make test does)")
    node = shutil.which("node")
    assert node, "node is needed to run Pyodide (it is installed with npm)"
    files = ["tests/protocol/test_link.py", "tests/protocol/test_p256.py", "tests/protocol/test_proofs.py",
             "tests/protocol/test_shuffle.py"]
    run = subprocess.run([node, str(RUNNER), *files, "-q", "-p", "no:cacheprovider"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    tail = "\n".join((run.stdout + run.stderr).splitlines()[-30:])
    assert run.returncode == 0, f"pytest inside Pyodide exited {run.returncode}:\n{tail}"
    passed = re.search(r"(\d+) passed", run.stdout)
    assert passed and int(passed.group(1)) > 100, tail

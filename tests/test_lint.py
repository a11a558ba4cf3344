"""Lint is part of the suite: ``ruff check`` over py/ and tests/ with the configuration in
pyproject.toml (the rules and why each ignored one is ignored)."""

import importlib.util
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


def test_no_two_test_files_share_a_name() -> None:
    """pytest imports test files by their base name (no packages under tests/): two files of one name
    in different folders make the second an error at collection ("import file mismatch")."""
    seen: dict[str, list[str]] = {}
    for path in sorted(ROOT.joinpath("tests").rglob("test_*.py")):
        seen.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert not {name: paths for name, paths in seen.items() if len(paths) > 1}


def test_every_test_moved_to_make_test_slow_exists() -> None:
    """tests/conftest.py's MOVED_TO_SLOW names tests by node id: a renamed test or parameter would
    silently come back into `make test` (or its replacement go unnamed)."""
    # By its path: in a whole run the name "conftest" may already be another folder's conftest.py.
    spec = importlib.util.spec_from_file_location("tests_root_conftest", ROOT / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    root_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(root_conftest)

    for node, replacement in root_conftest.MOVED_TO_SLOW.items():
        path, _, name = node.partition("::")
        source = (ROOT / "tests" / path).read_text()
        function, _, param = name.partition("[")
        assert f"def {function}(" in source, node
        assert not param or param.rstrip("]") in source, node
        assert replacement.strip(), node

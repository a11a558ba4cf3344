"""The engine's property tests (tests/engine/test_properties.py, hypothesis) pass inside Pyodide too:
the other share of tests/test_pyodide_engine.py's run, in a file of its own so pytest-xdist runs the
two shares side by side."""

from __future__ import annotations

import pytest
from test_pyodide_engine import PROPERTIES, run_engine_tests_in_pyodide


# In make test-slow: make test runs the same property tests under CPython (tests/engine/test_properties.py)
# and every other engine file inside Pyodide (tests/test_pyodide_engine.py), which covers the interpreter.
@pytest.mark.slow
def test_engine_properties_pass_inside_pyodide() -> None:
    run_engine_tests_in_pyodide(PROPERTIES)

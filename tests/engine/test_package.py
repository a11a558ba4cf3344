"""``import cribbage`` gives the engine's core (the match, its table, a seat's view, the actions, the
errors), with a doctest that runs here; the package itself loads only cards and scoring, the rest on
first use of a name."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import cribbage

PY = Path(__file__).resolve().parents[2] / "py"


def test_the_packages_doctest_passes() -> None:
    result = doctest.testmod(cribbage)
    assert result.attempted >= 10 and result.failed == 0


def test_every_exported_name_is_the_engines_own_object() -> None:
    from cribbage.actions import Discard
    from cribbage.match import Match
    from cribbage.state import IllegalActionError
    from cribbage.view import SeatView

    missing = [name for name in cribbage.__all__ if getattr(cribbage, name, None) is None]
    assert missing == []
    assert (cribbage.Match, cribbage.SeatView, cribbage.Discard, cribbage.IllegalActionError) == \
        (Match, SeatView, Discard, IllegalActionError)
    assert set(cribbage.__all__) <= set(dir(cribbage))


def test_an_unknown_name_is_an_attribute_error_and_submodules_still_import() -> None:
    try:
        cribbage.Nothing  # type: ignore[attr-defined]  # noqa: B018 - the lookup is the test
    except AttributeError as exc:
        assert "Nothing" in str(exc)
    else:
        raise AssertionError("cribbage.Nothing did not raise")
    from cribbage import scoring, view

    assert callable(view.view) and callable(scoring.score_hand)


@pytest.mark.skipif(sys.platform == "emscripten", reason="Pyodide starts no subprocess")
def test_importing_the_package_loads_only_cards_and_scoring() -> None:
    code = ("import sys, json, cribbage; print(json.dumps(sorted(m for m in sys.modules if m.startswith('cribbage'))))"
            "; from cribbage import Match; print(json.dumps('cribbage.match' in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=PY, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(PY), "PATH": "/usr/bin:/bin"}).stdout.splitlines()
    assert json.loads(out[0]) == ["cribbage", "cribbage.cards", "cribbage.scoring"]
    assert json.loads(out[1]) is True


OLD_RECORD_NAMES = [
    "Best", "CoachRun", "CoachTotals", "DOUBLE_SKUNK_LINE", "EXPERT_DEALER", "EXPERT_PONE", "EXPORT_FORMAT",
    "EXPORT_VERSION", "GroupStats", "HISTORY_FORMAT", "HISTORY_KEY", "HISTORY_LIMIT", "HISTORY_VERSION", "HandRecord",
    "History", "KEY_PREFIX", "MatchRecord", "RECORD_VERSION", "RaceStep", "RecordError", "SAVE_KEY_PREFIX",
    "SKUNK_LINE", "SOURCES", "SideTotals", "Stats", "TrendPoint", "coach_totals", "format_stats", "make_bundle",
    "race", "read_bundle", "record_match", "record_state", "replay", "statistics",
]
"""Every public name of cribbage/record.py before it became a package (commit ec3fed2)."""


def test_the_record_package_keeps_every_public_name_of_the_old_module_and_no_module_is_long() -> None:
    import cribbage.record as record

    assert sorted(set(OLD_RECORD_NAMES) - set(record.__all__)) == []
    assert [name for name in OLD_RECORD_NAMES if not hasattr(record, name)] == []
    lengths = {
        p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in (PY / "cribbage" / "record").glob("*.py")
    }
    assert len(lengths) >= 6 and max(lengths.values()) < 400, lengths

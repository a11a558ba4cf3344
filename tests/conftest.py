"""Fixtures and ordering shared by every suite.

- ``playwright``: one Playwright driver per process (session). The browser tests
  (tests/browser/conftest.py) and the online ones (tests/online/conftest.py) both launch their
  Chromium from it: ``make test`` runs every suite in one pytest run with xdist workers, and a
  worker that runs a browser file and then an online file cannot start a second sync Playwright
  ("using Playwright Sync API inside the asyncio loop").
- The order of the files: ``make test`` hands whole files to its workers (``--dist loadfile``)
  in collection order, so the files that take longest start first and no worker is left with
  a long file at the end while the others idle (longest-first scheduling). Within a file the
  order is unchanged. ``LONG_FIRST`` lists them, longest first (times of a quiet run,
  docs/testing.md); every other file keeps its place after them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).parent

# Longest first, and the online files (two or three cold browser boots each) not side by side at
# the start: with every worker booting Pyodide at once the game's own 30 s start watchdog
# (static/boot.js) can run out on 2 cores. Then the engine inside Pyodide, the browser files with
# many cold boots or whole games, the rest.
LONG_FIRST = (
    "online/test_online_play.py",
    "test_pyodide_engine.py",
    "browser/test_newcomer.py",
    "online/test_online_kill.py",
    "browser/test_link_and_focus.py",
    "online/test_online_net.py",
    "browser/test_shipping.py",
    "browser/test_snapshot.py",
    "browser/test_table.py",
    "browser/test_phone_details.py",
    "browser/test_scorekeeper_page.py",
    "browser/test_muggins_page.py",
    "browser/test_table_players.py",
    "browser/test_table_presets.py",
    "online/test_online_reach.py",
    "online/test_online_layout.py",
)


def file_rank(item: pytest.Item) -> int:
    try:
        name = Path(str(item.fspath)).relative_to(TESTS).as_posix()
    except ValueError:
        return len(LONG_FIRST)
    return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=file_rank)  # stable: the tests of a file, and the other files, keep their order


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        yield p

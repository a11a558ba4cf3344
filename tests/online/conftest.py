"""Online-play browser fixtures: browsers, a local PeerServer and the site, all on loopback
inside a network namespace that holds only ``lo``.

Every test under tests/online is marked ``online`` (and ``browser``). ``make test`` runs its
one pytest run (every suite, xdist workers) as ``py/tools/netns.py -- python -m pytest ...``,
which puts it in a new network namespace (``unshare --net``, ``lo`` up); alone they run with
``py/tools/netns.py -- python -m pytest -m online``. Outside such a namespace (a plain ``pytest``, or unshare not
permitted) they skip, saying why:
nothing here ever opens a socket beyond 127.0.0.1.

Fixtures (session-wide unless said):

- ``isolated_network``: skips unless loopback is the only interface (autouse).
- ``peer_server``: a PeerServer (py/tools/peerserver.py) on 127.0.0.1, free port, path
  /cribbage, alive timeout 12 s; ``signal_url`` is its URL (``?signal=`` form).
- ``online_server`` / ``online_url``: serve.py with ``signals=[signal_url]`` (its CSP allows
  the local PeerServer, like ``make play``), and the page URL ``http://127.0.0.1:PORT/?signal=…``.
- ``online_playwright``: the process's one Playwright driver (``playwright``, tests/conftest.py:
  a worker of ``make test`` may run browser files and online files one after the other).
- ``online_browser``: Chromium with ``--allow-loopback-in-peer-connection``.
- ``players`` (per test): ``players.new(name, ready=False)`` opens a fresh context (with the
  camera and microphone permissions: without media permission Chromium gathers no ICE candidate
  on loopback) on the built page (``?signal=`` the local PeerServer), waits until
  ``window.cribbageNet`` exists (``ready=True``: until the app has started) and returns a
  :class:`net_harness.Player` driving ``window.cribbageNet``; the test fails on console errors
  of any player's page. Contexts are closed at the end of the test.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "browser"))

from browser_harness import DIST, ROOT, build_site, chromium, serve, site_is_stale  # noqa: E402
from net_harness import Players  # noqa: E402

sys.path.insert(0, str(ROOT / "py" / "tools"))
import netns  # noqa: E402
import peerserver  # noqa: E402

LOOPBACK_FLAG = "--allow-loopback-in-peer-connection"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "online: online play between browsers; runs inside its own network namespace")
    config.addinivalue_line("markers", "allow_console(*patterns): console errors a browser test expects")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.online)
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session", autouse=True)
def isolated_network() -> None:
    if not netns.isolated():
        why = os.environ.get(netns.ERROR_ENV) or (
            f"this process sees interfaces {netns.interfaces()}; run `make test` or "
            "`python py/tools/netns.py -- python -m pytest -m online`"
        )
        pytest.skip(f"online tests need a network namespace holding only lo: {why}")


@pytest.fixture(scope="session")
def online_site() -> Path:
    if not (ROOT / "node_modules" / "peerjs").exists():
        pytest.skip("node_modules is missing: run `make test` (or `npm ci`) first")
    if site_is_stale():
        build_site.build(DIST, quiet=True)
    return DIST


@pytest.fixture(scope="session")
def peer_server() -> Iterator[peerserver.PeerServer]:
    server = peerserver.start("127.0.0.1")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def signal_url(peer_server: peerserver.PeerServer) -> str:
    return peer_server.url


@pytest.fixture(scope="session")
def online_server(online_site: Path, signal_url: str) -> Iterator[serve.Server]:
    server = serve.start(online_site, signals=[signal_url])
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def online_url(online_server: serve.Server, signal_url: str) -> str:
    return f"http://127.0.0.1:{online_server.server_address[1]}/?signal={signal_url}"


@pytest.fixture(scope="session")
def online_playwright(playwright: Any) -> Any:
    """The process's one Playwright driver (tests/conftest.py), under the name the online tests use."""
    return playwright


@pytest.fixture(scope="session")
def online_browser(playwright: Any) -> Iterator[Any]:  # one Playwright a process: tests/conftest.py
    browser = chromium.launch(playwright, args=[*chromium.ARGS, LOOPBACK_FLAG])
    yield browser
    browser.close()


@pytest.fixture
def players(online_browser: Any, online_url: str, request: pytest.FixtureRequest) -> Iterator[Players]:
    group = Players(online_browser, online_url, request)
    yield group
    problems = group.close()
    if problems:
        pytest.fail("errors in the browser console:\n  " + "\n  ".join(problems))

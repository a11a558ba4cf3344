"""Browser test fixtures: the built site, served by py/tools/serve.py, driven in Chromium.

One server and one browser per session; per module a warm context, per test a page:

- ``site``: ``dist/``, rebuilt first when any input is newer than the last build.
- ``server`` / ``base_url``: serve.py on a free port in a background thread, with the
  netlify.toml headers (the tests see what ships).
- ``browser``: Chromium (Debian's, else Playwright's bundled one).
- ``context`` / ``page``: ``page`` fails the test on any console error or uncaught page error;
  allow expected ones with ``@pytest.mark.allow_console(r"regex", ...)``.
- ``warm_context``: one context per module that has booted the game once and holds Pyodide's
  start-up snapshot (static/loader.mjs), so a page there starts in about 0.5 s instead of a cold
  boot of 2-5 s (and no snapshot worker runs beside the test). ``page`` is a new tab of it unless
  the test needs a cold start: it is marked ``cold_boot`` (or its module is), or it asks for
  ``context`` (it changes the context: offline, routes, a second tab), and then ``page`` is a tab
  of a fresh ``context`` as before. Before each warm test the origin's saved state (IndexedDB,
  localStorage, cookies) is cleared, and every tab of the earlier test is closed, so a test sees a
  first visit's saves whatever ran before it; what stays is the snapshot and the service worker's
  cache of this same build (a returning player's start).
- ``audit_page``: a page whose context bypasses the CSP, for :func:`axe_audit`.

Helpers (``wait_ready``, ``axe_audit``, ...) live in ``browser_harness.py``. Every test here
is marked ``browser``: deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_harness import DIST, ROOT, build_site, chromium, serve, site_is_stale, wait_ready, watch_console


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_console(*patterns): console errors a browser test expects")
    config.addinivalue_line("markers", "cold_boot: the test's page starts in a fresh browser context (first visit: "
                            "no snapshot, no service worker), not in the module's warm one")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def site() -> Path:
    if not (ROOT / "node_modules" / "pyodide").exists():
        pytest.skip("node_modules is missing: run `make test` (or `npm ci`) first")
    if site_is_stale():
        build_site.build(DIST, quiet=True)
    return DIST


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[serve.Server]:
    srv = serve.start(site)
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="session")
def base_url(server: serve.Server) -> str:
    return server.url


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    browser = chromium.launch(playwright)
    yield browser
    browser.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    yield context
    context.close()


# What a warm test must not inherit from the one before it: the game's saves and settings. Cache
# storage (the snapshot, the service worker's precache) and the service worker stay.
SAVED_STATE = "indexeddb,local_storage,cookies,websql,file_systems"


@pytest.fixture(scope="module")
def warm_context(browser: Any, base_url: str) -> Iterator[Any]:
    """A context that has started the game once and made the start-up snapshot (see the module doc)."""
    context = browser.new_context()
    page = context.new_page()
    try:  # a speed-up only: without a snapshot (a boot or the worker gave up under load) each page boots cold
        page.goto(base_url)
        wait_ready(page)
        page.wait_for_function("() => !!(cribbageStart.made || cribbageStart.skipped)", timeout=90_000)
    except Exception as error:  # noqa: BLE001  (Playwright's TimeoutError, the boot error)
        warnings.warn(f"the warm browser context has no start-up snapshot: {error}", stacklevel=1)
    page.close()
    yield context
    context.close()


def needs_cold_boot(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("cold_boot") is not None or "context" in request.fixturenames


def warm_page(context: Any, base_url: str) -> Any:
    """A new tab of the warm context, alone in it, with the origin's saved state cleared."""
    for old in context.pages:
        old.close()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
    cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": SAVED_STATE})
    cdp.detach()
    return page


@pytest.fixture
def page(request: pytest.FixtureRequest, base_url: str) -> Iterator[Any]:
    warm = None if needs_cold_boot(request) else request.getfixturevalue("warm_context")
    page = request.getfixturevalue("context").new_page() if warm is None else warm_page(warm, base_url)
    watch = watch_console(page, request)
    yield page
    if warm is not None:
        for tab in warm.pages:  # the next test starts alone in the context
            tab.close()
    if watch.problems:
        pytest.fail("errors in the browser console:\n  " + "\n  ".join(watch.problems))


@pytest.fixture
def audit_page(browser: Any) -> Iterator[Any]:
    """A page for axe-core: its context bypasses the CSP so the audit script can be injected."""
    context = browser.new_context(bypass_csp=True)
    yield context.new_page()
    context.close()

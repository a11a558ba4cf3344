"""Browser test fixtures: the built site, served by py/tools/serve.py, driven in Chromium.

One server and one browser per session, a fresh context per test:

- ``site``: ``dist/``, rebuilt first when any input is newer than the last build.
- ``server`` / ``base_url``: serve.py on a free port in a background thread, with the
  netlify.toml headers (the tests see what ships).
- ``browser``: Chromium (Debian's, else Playwright's bundled one).
- ``context`` / ``page``: ``page`` fails the test on any console error or uncaught page error;
  allow expected ones with ``@pytest.mark.allow_console(r"regex", ...)``.
- ``audit_page``: a page whose context bypasses the CSP, for :func:`axe_audit`.

Helpers (``wait_ready``, ``axe_audit``, ...) live in ``browser_harness.py``. Every test here
is marked ``browser``: deselect with ``-m "not browser"``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_harness import DIST, ROOT, build_site, chromium, serve, site_is_stale, watch_console


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_console(*patterns): console errors a browser test expects")


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
def playwright() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        yield p


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


@pytest.fixture
def page(context: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    page = context.new_page()
    watch = watch_console(page, request)
    yield page
    if watch.problems:
        pytest.fail("errors in the browser console:\n  " + "\n  ".join(watch.problems))


@pytest.fixture
def audit_page(browser: Any) -> Iterator[Any]:
    """A page for axe-core: its context bypasses the CSP so the audit script can be injected."""
    context = browser.new_context(bypass_csp=True)
    yield context.new_page()
    context.close()

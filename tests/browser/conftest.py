"""Browser test fixtures: the built site, served by py/tools/serve.py, driven in Chromium.

One server, one browser and a pool of warm contexts per process (session; each xdist worker of
``make test`` has its own), per test a page:

- ``site``: ``dist/``, rebuilt first when any input is newer than the last build.
- ``server`` / ``base_url``: serve.py on a free port in a background thread, with the
  netlify.toml headers (the tests see what ships).
- ``browser``: Chromium (Debian's, else Playwright's bundled one); ``playwright`` (its driver)
  is in tests/conftest.py, shared with tests/online.
- ``context`` / ``page``: ``page`` fails the test on any console error or uncaught page error;
  allow expected ones with ``@pytest.mark.allow_console(r"regex", ...)``.
- ``warm_contexts``: ``warm_contexts.new_context(**options)`` in place of
  ``browser.new_context(**options)`` (a phone's ``viewport``, ``has_touch``, ``is_mobile``, ...)
  lends a context with those options that has booted the game once and holds Pyodide's start-up
  snapshot (static/loader.mjs), so a page there starts in about 0.5 s instead of a cold boot of
  2-5 s, and no snapshot worker runs beside the test. Warming a context costs about 9.5 s of CPU
  (a cold boot and the snapshot), a warm start saves about 2 s against a cold one: worth it only
  for options that five tests or more share (docs/testing.md). The context goes back to
  the pool when the test closes it or ends; a test that does anything else to it (``route``,
  ``set_offline``, permissions) gets it closed instead of pooled. Two contexts lent at once are
  two browsers (their own storage).
- ``page`` is a new tab of a warm context with the default options unless the test needs a cold
  start: it is marked ``cold_boot`` (or its module is), or it asks for ``context`` (it changes
  the context: offline, routes, a second tab), and then ``page`` is a tab of a fresh ``context``.
  Before a warm context is lent the origin's saved state (IndexedDB, localStorage, cookies) is
  cleared and its tabs closed, so a test sees a first visit's saves whatever ran before it, in
  its module or another; what stays is the snapshot and the service worker's cache of this same
  build (a returning player's start).
- ``audit_page``: a page whose context bypasses the CSP, for :func:`axe_audit`.
- A cold context (``context``, ``browser.new_context``) of a test not marked ``cold_boot`` makes
  no start-up snapshot (its page sees a device of 2 GB, ``NO_SNAPSHOT_MADE``): only the modules
  marked ``cold_boot`` watch the snapshot being made.

Helpers (``wait_ready``, ``axe_audit``, ...) live in ``browser_harness.py``. Every test here
is marked ``browser``: deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import json
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


# A cold context (a first visit) makes Pyodide's start-up snapshot 2 s after the table is drawn: a
# second interpreter in a worker, about 3.5 s of CPU a context (docs/testing.md). Only the modules
# marked ``cold_boot`` watch that (the snapshot's, the service worker's, the first visit's
# requests); in every other test's cold context the page sees a device of 2 GB, where the loader
# makes none (static/loader.mjs, ``whyNotMake``; nothing else reads ``navigator.deviceMemory``).
NO_SNAPSHOT_MADE = (
    "Object.defineProperty(Navigator.prototype, 'deviceMemory', {get() { return 2; }, configurable: true});"
)
_snapshots_made = [True]  # whether the running test's cold contexts make one (``snapshot_policy``)


class Browser:
    """Chromium as the tests see it: ``new_context`` gives a context that makes no start-up snapshot
    unless the running test is marked ``cold_boot``; everything else is Playwright's ``Browser``."""

    def __init__(self, browser: Any) -> None:
        self.real = browser

    def new_context(self, **options: Any) -> Any:
        context = self.real.new_context(**options)
        if not _snapshots_made[0]:
            context.add_init_script(NO_SNAPSHOT_MADE)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


@pytest.fixture(autouse=True)
def snapshot_policy(request: pytest.FixtureRequest) -> Iterator[None]:
    _snapshots_made[0] = request.node.get_closest_marker("cold_boot") is not None
    yield
    _snapshots_made[0] = True


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    browser = chromium.launch(playwright)
    yield Browser(browser)
    browser.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    yield context
    context.close()


# What a warm test must not inherit from the one before it: the game's saves and settings. Cache
# storage (the snapshot, the service worker's precache) and the service worker stay.
SAVED_STATE = "indexeddb,local_storage,cookies,websql,file_systems"


class Lent:
    """A warm context lent to one test: ``new_page``, ``pages`` and ``close`` (which gives it back).

    Anything else the test asks of it (``route``, ``set_offline``, ``grant_permissions``, ...)
    changes the context, so it is passed through and the context is closed at the end instead of
    going back to the pool.
    """

    def __init__(self, pool: WarmContexts, key: str, context: Any) -> None:
        self._pool, self._key, self._context = pool, key, context
        self.changed = False
        self.closed = False

    def new_page(self) -> Any:
        return self._context.new_page()

    @property
    def pages(self) -> list[Any]:
        return list(self._context.pages)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._pool.give_back(self._key, self._context, keep=not self.changed)

    def __getattr__(self, name: str) -> Any:
        self.changed = True
        return getattr(self._context, name)


class WarmContexts:
    """Contexts that have started the game once and hold its start-up snapshot, by their options.

    ``new_context(**options)`` takes the options of ``browser.new_context`` (``viewport``,
    ``has_touch``, ``is_mobile``, ``bypass_csp``, ...) and lends an idle warm context made with
    them, or makes and warms one (two contexts lent at once are two browsers: their storage is
    their own). Before it is lent the origin's saved state is cleared and its tabs closed.
    """

    def __init__(self, browser: Any, base_url: str) -> None:
        self.browser, self.base_url = browser, base_url
        self.idle: dict[str, list[Any]] = {}
        self.lent: list[Lent] = []
        self.origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))

    def new_context(self, **options: Any) -> Lent:
        key = json.dumps(options, sort_keys=True, default=str)
        idle = self.idle.setdefault(key, [])
        context = idle.pop() if idle else self.warmed(options)
        for old in context.pages:
            old.close()
        blank = context.new_page()  # a tab to clear the origin's saves from (CDP needs a target)
        cdp = context.new_cdp_session(blank)
        cdp.send("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": SAVED_STATE})
        cdp.detach()
        blank.close()
        lent = Lent(self, key, context)
        self.lent.append(lent)
        return lent

    def warmed(self, options: dict[str, Any]) -> Any:
        context = self.browser.new_context(**options)
        page = context.new_page()
        try:  # a speed-up only: without a snapshot (a boot or the worker gave up under load) each page boots cold
            page.goto(self.base_url)
            wait_ready(page)
            page.wait_for_function("() => !!(cribbageStart.made || cribbageStart.skipped)", timeout=90_000)
        except Exception as error:  # noqa: BLE001  (Playwright's TimeoutError, the boot error)
            warnings.warn(f"a warm browser context has no start-up snapshot: {error}", stacklevel=1)
        page.close()
        return context

    def give_back(self, key: str, context: Any, keep: bool) -> None:
        for tab in context.pages:  # the next test starts alone in the context
            tab.close()
        if keep:
            self.idle.setdefault(key, []).append(context)
        else:
            context.close()

    def end_of_test(self) -> None:
        """Take back what a test did not close (it failed before, or leaves it to the fixture)."""
        for lent in self.lent:
            lent.close()
        self.lent.clear()

    def close(self) -> None:
        self.end_of_test()
        for contexts in self.idle.values():
            for context in contexts:
                context.close()
        self.idle.clear()


@pytest.fixture(scope="session")
def context_pool(browser: Any, base_url: str) -> Iterator[WarmContexts]:
    pool = WarmContexts(browser.real, base_url)  # a warm context is one that made its snapshot
    yield pool
    pool.close()


@pytest.fixture
def warm_contexts(context_pool: WarmContexts) -> Iterator[WarmContexts]:
    """``warm_contexts.new_context(viewport=..., is_mobile=..., ...)`` in place of ``browser.new_context``."""
    yield context_pool
    context_pool.end_of_test()


def needs_cold_boot(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("cold_boot") is not None or "context" in request.fixturenames


@pytest.fixture
def page(request: pytest.FixtureRequest) -> Iterator[Any]:
    if needs_cold_boot(request):
        page = request.getfixturevalue("context").new_page()
    else:
        page = request.getfixturevalue("warm_contexts").new_context().new_page()
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
